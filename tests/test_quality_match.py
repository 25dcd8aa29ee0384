"""The matcher's quality floor: honest quotes found, false quotes never verified (make eval)."""

from __future__ import annotations

import json

import pytest

from tests.quality.eval_match import HERE, evaluate
from tests.quality.run import compare


@pytest.mark.slow
def test_matcher_is_not_worse_than_its_floor() -> None:
    figures = evaluate()
    floor = json.loads((HERE / "floor_match.json").read_text())
    assert compare(figures, floor) == []
    # Each kind of variant and false quote was really tried, so a 100% cannot come from nothing.
    assert figures["variants_count"] > 500 and figures["false_count"] > 500 and figures["cut_negation_count"] > 50
