"""OCR of scanned PDFs: the quality floor of tests/quality/eval_ocr.py.

Fails when fewer gold sentences are found in the OCR text of the two scanned gold PDFs than the
floor, when one found lacks the OCR flag, when a scan is read without the option, or when the
PDFs differ from those the floor was recorded with (tests/quality/corpus.py). Needs Tesseract,
which `make setup` installs. Raise a floor on purpose, in its own commit.
"""

from __future__ import annotations

from pathlib import Path

from tests.quality import eval_ocr
from tests.quality.corpus import measure
from tests.quality.run import compare


def test_ocr_quality_is_not_below_its_floor(corpus: Path) -> None:
    figures, floor = measure("ocr", eval_ocr)
    worse = compare(figures, floor)  # type: ignore[arg-type]
    assert not worse, "\n".join(worse)
