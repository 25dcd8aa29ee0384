"""The quality floor of the evidence offered for claims without a quote, over the labelled claims corpus.

Runs tests/quality/eval_claims.py and fails when any figure is worse than
tests/quality/floor_claims.json (the passage offered first, and one of the best three, holding
the labelled evidence of a supported claim, overall and per dataset), or when the corpus differs
from the one the floor was recorded with (tests/quality/corpus.py). Raise a floor on purpose,
in its own commit.
"""

from __future__ import annotations

from pathlib import Path

from tests.quality import eval_claims
from tests.quality.corpus import measure
from tests.quality.run import compare


def test_claims_evidence_quality_is_not_below_its_floor(corpus: Path) -> None:
    figures, floor = measure("claims", eval_claims)
    worse = compare(figures, floor)  # type: ignore[arg-type]
    assert not worse, "\n".join(worse) + f"\nsee {eval_claims.MISSES}"
