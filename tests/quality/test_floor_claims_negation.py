"""The claim against its quote's floor: claims made to say the opposite of their quote never verified (make eval).

Runs tests/quality/eval_claims_negation.py and fails when any figure is worse than
tests/quality/floor_claims_negation.json, or when the corpus differs from the one the floor was
recorded with (tests/quality/corpus.py). Raise a floor on purpose, in its own commit.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.quality import eval_claims_negation
from tests.quality.corpus import measure
from tests.quality.run import compare


@pytest.mark.slow
def test_claims_against_their_quotes_are_not_worse_than_their_floor(corpus: Path) -> None:
    figures, floor = measure("claims_negation", eval_claims_negation)
    assert compare(figures, floor) == []  # type: ignore[arg-type]
    # Each family was really drawn, so that a 100% cannot come from nothing.
    assert figures["pages_not_added_count"] >= 200 and figures["pages_not_dropped_count"] >= 200
    assert figures["pages_controls_count"] >= 200 and figures["claims_supported_count"] >= 500
    assert figures["claims_not_added_count"] >= 100
