"""The PDF extraction's quality floor: gold sentences the matcher finds in the four gold PDFs.

Runs tests/quality/eval_pdf.py and fails when any figure is worse than tests/quality/floor_pdf.json
(the issue's targets: at least the simple baseline's count on every PDF). Raise a floor on purpose,
in its own commit.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.quality import eval_pdf
from tests.quality.run import compare

FLOOR = Path(__file__).resolve().parent / "quality" / "floor_pdf.json"


def test_pdf_extraction_quality_is_not_below_its_floor(corpus: Path) -> None:
    figures = eval_pdf.evaluate()
    floor = json.loads(FLOOR.read_text(encoding="utf-8"))
    worse = compare(figures, floor)
    assert not worse, "\n".join(worse) + f"\nsee {eval_pdf.MISSES}"
