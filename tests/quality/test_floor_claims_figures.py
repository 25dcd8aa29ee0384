"""The floor of claims without a quote against their page's figures: the wrong flagged, the supported not.

Runs tests/quality/eval_claims_figures.py over the VitaminC claims of the corpus and fails when any
figure is worse than tests/quality/floor_claims_figures.json, or when the corpus differs from the
one the floor was recorded with (tests/quality/corpus.py). Raise a floor on purpose, in its own commit.
"""

from __future__ import annotations

import pytest

from tests.quality import eval_claims_figures
from tests.quality.corpus import measure
from tests.quality.run import compare
from tests.servers import CORPUS


@pytest.fixture(scope="module")
def measured() -> tuple[dict[str, float | int], dict[str, object]]:
    if not CORPUS.is_dir():
        pytest.fail(f"the shared corpus is missing at {CORPUS}: check out ../shared beside the repo")
    return measure("claims_figures", eval_claims_figures)


def test_claims_figures_quality_is_not_below_its_floor(measured):
    figures, floor = measured
    worse = compare(figures, floor)
    assert not worse, "\n".join(worse) + f"\nsee {eval_claims_figures.MISSES}"


def test_the_eval_labels_both_kinds_of_claim(measured):
    figures, _ = measured
    for key in ("nowhere_claims_count", "supported_claims_count", "written_claims_count"):
        assert figures[key] > 0, f"the eval labelled no {key.removesuffix('_count')}"
