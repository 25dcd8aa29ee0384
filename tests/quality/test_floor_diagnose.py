"""The diagnosis's quality floor over mutated quotes of the real aeb pages.

Runs tests/quality/eval_diagnose.py and fails when any figure is worse than
tests/quality/floor_diagnose.json (a typography-only diagnosis counts against typography_only_count,
whose floor is 0: each one is a matcher bug), or when the corpus differs from the one the floor
was recorded with (tests/quality/corpus.py). Raise a floor on purpose, in its own commit.
"""

from __future__ import annotations

from pathlib import Path

from tests.quality import eval_diagnose
from tests.quality.corpus import measure
from tests.quality.run import compare


def test_diagnosis_quality_is_not_below_its_floor(corpus: Path) -> None:
    figures, floor = measure("diagnose", eval_diagnose)
    worse = compare(figures, floor)  # type: ignore[arg-type]
    assert not worse, "\n".join(worse) + f"\nsee {eval_diagnose.HERE / 'diagnose_misses.txt'}"
