"""The PDF extraction's quality floor: gold sentences the matcher finds in the four gold PDFs.

Runs tests/quality/eval_pdf.py and fails when any figure is worse than tests/quality/floor_pdf.json
(the issue's targets: at least the simple baseline's count on every PDF), or when the gold PDFs
differ from the ones the floor was recorded with (tests/quality/corpus.py). Raise a floor on
purpose, in its own commit.
"""

from __future__ import annotations

from pathlib import Path

from tests.quality import eval_pdf
from tests.quality.corpus import measure
from tests.quality.run import compare


def test_pdf_extraction_quality_is_not_below_its_floor(corpus: Path) -> None:
    figures, floor = measure("pdf", eval_pdf)
    worse = compare(figures, floor)  # type: ignore[arg-type]
    assert not worse, "\n".join(worse) + f"\nsee {eval_pdf.MISSES}"
