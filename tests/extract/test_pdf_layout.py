"""Blocks of a PDF page read as a reader reads them (core/extract/pdf.py): table rows, clauses after a colon."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

import core.extract.pdf as pdf_module
from core.extract.pdf import extract_pdf
from core.match import match_quote, prepare
from core.models import PageText
from tests.servers import CORPUS

PDF = CORPUS / "pdf"
RUNNING_TEXT = [
    PDF / "gold" / "teaching-lm-reason.pdf",
    PDF / "papers" / "pdfminer__ieee-tifs-paper__issue-1061.pdf",
    PDF / "papers" / "pdfminer__naacl06-shinyama.pdf",
]


def _page(path: Path) -> PageText:
    page = extract_pdf(path.read_bytes())
    assert isinstance(page, PageText), page
    return page


def test_the_cells_of_a_table_row_read_as_one_line() -> None:
    # Kroger's results table: the label wraps to two lines, the figures stand beside its first.
    page = _page(PDF / "gold" / "kroger-press-release-2023.pdf")
    match = match_quote("Adjusted FIFO Operating Profit (Table 7) $989 $1,110", prepare(page))
    assert match.found, match
    assert match_quote("Earnings (Loss) Per Share** ($0.25) $1.00", prepare(page)).found
    # The rows stay rows: a quote running from one row into the next crosses a block edge.
    assert not match_quote("Operating (Loss) Profit** ($479) $954 Adjusted FIFO", prepare(page)).found


@pytest.mark.parametrize("path", RUNNING_TEXT, ids=lambda p: p.name)
def test_two_columns_of_running_text_are_no_table_row(path: Path) -> None:
    with pymupdf.open(path) as doc:
        for number, page in enumerate(doc, start=1):
            blocks = pdf_module._blocks_of(page)
            assert pdf_module._rows(blocks, page.rect.width) == blocks, f"page {number}"


def test_a_rotated_stamp_beside_a_line_is_no_row() -> None:
    # arXiv's vertical stamp spans the page's height beside the authors' line: not one band.
    page = _page(PDF / "papers" / "pymupdf__test_4751__qwen2-tech-report.pdf")
    assert "10 Sep 2024\nGuo, and Zhihao Fan" not in page.text
    assert "arXiv:2407.10671v4 [cs.CL] 10 Sep 2024 Guo" not in page.text


def test_a_clause_after_a_colon_carries_on_into_the_next_block() -> None:
    page = _page(PDF / "papers" / "pdfminer__ieee-tifs-paper__issue-1061.pdf")
    prepared = prepare(page)
    assert match_quote("GUPT: privacy preserving data analysis made easy", prepared).found
    # A colon before a capital is a list's or a theorem's start: the break stays.
    assert not match_quote("The most basic ones are: Theorem 1 (Sequential composition).", prepared).found
