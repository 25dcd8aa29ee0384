"""The diagnosis's quality floor over mutated quotes of the real aeb pages.

Runs tests/quality/eval_diagnose.py and fails when any figure is worse than
tests/quality/floor_diagnose.json (a typography-only diagnosis counts against typography_only_count,
whose floor is 0: each one is a matcher bug). Raise a floor on purpose, in its own commit.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.quality import eval_diagnose
from tests.quality.run import compare

FLOOR = Path(__file__).resolve().parent / "quality" / "floor_diagnose.json"


def test_diagnosis_quality_is_not_below_its_floor(corpus):
    figures = eval_diagnose.evaluate()
    floor = json.loads(FLOOR.read_text(encoding="utf-8"))
    worse = compare(figures, floor)
    assert not worse, "\n".join(worse) + f"\nsee {eval_diagnose.HERE / 'diagnose_misses.txt'}"
