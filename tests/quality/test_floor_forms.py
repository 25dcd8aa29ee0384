"""The figure forms' quality floor: glued units, decimal commas, "." groups, Indian scales (make eval).

Runs tests/quality/eval_forms.py and fails when any figure is worse than
tests/quality/floor_forms.json, or when the corpus differs from the one the floor was recorded
with (tests/quality/corpus.py). Raise a floor on purpose, in its own commit.
"""

from __future__ import annotations

from pathlib import Path

from tests.quality import eval_forms
from tests.quality.corpus import measure
from tests.quality.run import compare


def test_figure_forms_are_not_worse_than_their_floor(corpus: Path) -> None:
    figures, floor = measure("forms", eval_forms)
    assert compare(figures, floor) == []  # type: ignore[arg-type]
    # Each form was really drawn from the corpus, so that a 100% cannot come from nothing.
    assert figures["glued_unit_wrong_count"] > 10 and figures["decimal_comma_wrong_count"] > 3
    assert figures["dot_groups_wrong_count"] > 1 and figures["indian_scale_wrong_count"] > 1
