"""The figures check against labelled claim/quote pairs (tests/data/figures_cases.json) and tricky inputs."""

from __future__ import annotations

from core.figures import check_figures
from core.models import FigureStatus


def test_classic_changed_percentage_is_missing():
    check = check_figures(
        "Python 3.11 is 25% faster than 3.10.",
        "CPython 3.11 is an average of 25% faster than CPython 3.10",
    )
    assert [f.status for f in check.figures] == [FigureStatus.MATCHED] * 3
    check = check_figures("Python 3.11 is 25% faster.", "Python 3.11 is 5% faster")
    assert [f.text for f in check.missing] == ["25%"]
