"""The matcher's quality floor: honest quotes found, false quotes never verified (make eval).

Fails too when the corpus differs from the one the floor was recorded with (tests/quality/corpus.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.quality import eval_match
from tests.quality.corpus import measure
from tests.quality.run import compare


@pytest.mark.slow
def test_matcher_is_not_worse_than_its_floor(corpus: Path) -> None:
    figures, floor = measure("match", eval_match)
    assert compare(figures, floor) == []  # type: ignore[arg-type]
    # Each kind of variant and false quote was really tried, so a 100% cannot come from nothing.
    assert figures["variants_count"] > 500 and figures["false_count"] > 500 and figures["cut_negation_count"] > 50
