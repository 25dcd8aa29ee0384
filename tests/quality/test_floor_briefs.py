"""The brief reading's quality floor: cited units of real agent deliverables found with their URL (make eval).

Runs tests/quality/eval_briefs.py over ../shared/corpus/briefs/ and the hand-written brief cases and
fails when any figure is worse than tests/quality/floor_briefs.json (no unit lost, no spurious claim,
no link unaccounted for), or when the briefs differ from the ones the floor was recorded with
(tests/quality/corpus.py). Raise a floor on purpose, in its own commit.
"""

from __future__ import annotations

from pathlib import Path

from tests.quality import eval_briefs
from tests.quality.corpus import measure
from tests.quality.run import compare


def test_brief_reading_is_not_below_its_floor(corpus: Path) -> None:
    figures, floor = measure("briefs", eval_briefs)
    assert compare(figures, floor) == [], f"see {eval_briefs.MISSES}"  # type: ignore[arg-type]
    # Units of every kind were really labelled, so a 100% cannot come from nothing.
    assert figures["total_units_count"] > 1500
