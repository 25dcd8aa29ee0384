"""OCR of scanned PDFs: only with the option, flagged on every quote found, bounded on a long scan."""

from __future__ import annotations

import functools

import pymupdf
import pytest

from core.extract import extract
from core.extract.ocr import page_image, tessdata
from core.match import match_quote, prepare
from core.models import FlagKind, PageText, Unreadable
from core.settings import Settings
from tests.builders import scanned_pdf
from tests.servers import CORPUS

KROGER = CORPUS / "pdf" / "gold" / "kroger-press-release-2023.pdf"
OCR = Settings(ocr=True)
needs_tesseract = pytest.mark.skipif(tessdata() is None, reason="Tesseract is not installed (make setup installs it)")


@functools.cache
def _scan(pages: int = 1, dpi: int = 200) -> bytes:
    """Return a "scan" of the Kroger release's first page, in a PDF of ``pages`` such pages."""
    with pymupdf.open(KROGER) as src:
        first = src.convert_to_pdf(0, 0)
    return scanned_pdf(first, dpi, copies=pages)


def test_without_the_option_ocr_never_runs() -> None:
    result = extract(_scan(), "application/pdf", settings=Settings())
    assert isinstance(result, Unreadable)
    assert "switch OCR on (--ocr, or the desk's OCR setting)" in result.reason


@needs_tesseract
def test_a_quote_found_in_ocr_text_carries_the_ocr_flag() -> None:
    page = extract(_scan(), "application/pdf", settings=OCR)
    assert isinstance(page, PageText) and page.ocr_pages == (1,)
    # The release's own first sentence (its gold text, label-party/kroger-press-release-2023.pdf.txt).
    gold = (CORPUS / "pdf" / "gold" / "kroger-press-release-2023.pdf.txt").read_text(encoding="utf-8")
    quote = "Kroger Reports Second Quarter 2023 Results"
    assert quote in gold
    found = match_quote(quote, prepare(page))
    assert found.found and found.fragments[0].page == 1
    ocr = [f for f in found.flags if f.kind is FlagKind.OCR]
    assert len(ocr) == 1 and not ocr[0].blocking
    assert ocr[0].message.startswith("The quote was read by OCR: check the page image")


@needs_tesseract
def test_ocr_keeps_tesseracts_word_breaks() -> None:
    # MuPDF alone read this line of the first page as "agreement hada positive effect": the OCR text layer
    # holds Tesseract's words without spaces, and the gap before "a" is too narrow to guess one.
    page = extract(_scan(), "application/pdf", settings=OCR)
    assert isinstance(page, PageText)
    quote = "the terminated agreement had a positive effect on the FIFO Gross Margin Rate"
    assert quote in KROGER.with_suffix(".pdf.txt").read_text(encoding="utf-8")
    assert match_quote(quote, prepare(page)).found
    assert "hada" not in page.text


def test_a_pdf_with_a_text_layer_gets_no_ocr_flag() -> None:
    page = extract(KROGER.read_bytes(), "application/pdf", settings=OCR)
    assert isinstance(page, PageText) and page.ocr_pages == ()
    found = match_quote("Kroger Reports Second Quarter 2023 Results", prepare(page))
    assert found.found and FlagKind.OCR not in [f.kind for f in found.flags]


@needs_tesseract
def test_a_500_page_scan_is_read_up_to_the_page_limit_with_a_reason() -> None:
    few = Settings(ocr=True, ocr_max_pages=2, ocr_dpi=100)
    page = extract(_scan(500, dpi=60), "application/pdf", settings=few)
    assert isinstance(page, PageText) and page.ocr_pages == (1, 2)
    assert (
        "OCR read 2 of the PDF's 500 scanned pages (the limit is 2 pages); a quote from page 3 or later will not "
        "be found: upload the pages you quote, or paste their text."
    ) in page.warnings


@needs_tesseract
def test_the_time_budget_stops_ocr_with_a_reason() -> None:
    quick = Settings(ocr=True, ocr_budget_seconds=0.0, ocr_dpi=100)
    page = extract(_scan(3, dpi=60), "application/pdf", settings=quick)
    # The first page is always read; the budget is looked at before each next one.
    assert isinstance(page, PageText) and page.ocr_pages == (1,)
    assert any("OCR may take 0 seconds per PDF" in w for w in page.warnings)


def test_the_desk_gets_the_page_image() -> None:
    png = page_image(_scan(), 1, dpi=40)
    assert png is not None and png.startswith(b"\x89PNG")
    assert page_image(_scan(), 2) is None
    assert page_image(b"not a pdf", 1) is None
