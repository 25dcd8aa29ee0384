"""The figures check's quality floor: no false alarms on honest restatements, every wrong figure flagged.

Runs tests/quality/eval_figures.py over real quotes of the corpus and fails when any figure is
worse than tests/quality/floor_figures.json, or when the corpus differs from the one the floor
was recorded with (tests/quality/corpus.py). Raise a floor on purpose, in its own commit.
"""

from __future__ import annotations

import pytest

from tests.quality import eval_figures
from tests.quality.corpus import measure
from tests.quality.run import compare
from tests.servers import CORPUS


@pytest.fixture(scope="module")
def measured() -> tuple[dict[str, float | int], dict[str, object]]:
    if not CORPUS.is_dir():
        pytest.fail(f"the shared corpus is missing at {CORPUS}: check out ../shared beside the repo")
    return measure("figures", eval_figures)


@pytest.fixture(scope="module")
def figures(measured) -> dict[str, float | int]:
    return measured[0]


def test_figures_quality_is_not_below_its_floor(measured):
    figures, floor = measured
    worse = compare(figures, floor)
    assert not worse, "\n".join(worse) + f"\nsee {eval_figures.MISSES}"


def test_the_eval_generates_both_kinds_of_every_change(figures):
    kinds = (
        "wrong_changed_digit_count",
        "wrong_wrong_scale_count",
        "wrong_wrong_year_count",
        "wrong_wrong_quarter_count",
        "wrong_wrong_currency_count",
        "equivalent_thousands_count",
        "equivalent_about_rounded_count",
        "equivalent_date_reordered_count",
        "equivalent_per_cent_count",
    )
    for key in kinds:
        assert figures.get(key, 0) > 0, f"the eval made no {key.removesuffix('_count')} claims"
