"""The context families' quality floor: repeated quotes, missed negations, splices over abbreviations (make eval).

Runs tests/quality/eval_context.py and fails when any figure is worse than
tests/quality/floor_context.json, or when the corpus differs from the one the floor was recorded
with (tests/quality/corpus.py). Raise a floor on purpose, in its own commit.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.quality import eval_context
from tests.quality.corpus import measure
from tests.quality.run import compare


@pytest.mark.slow
def test_context_families_are_not_worse_than_their_floor(corpus: Path) -> None:
    figures, floor = measure("context", eval_context)
    assert compare(figures, floor) == []  # type: ignore[arg-type]
    # Each family was really drawn, so that a 100% or a 0 cannot come from nothing.
    assert figures["repeated_negated_count"] > 30 and figures["repeated_clean_count"] > 500
    assert figures["not_only_cut_count"] > 30 and figures["ellipsis_negation_count"] > 100
    assert figures["abbreviation_splice_count"] > 10 and figures["initials_whole_count"] > 50
