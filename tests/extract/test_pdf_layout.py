"""PDF blocks read as a reader reads them (core/extract/pdf.py, pdf_table.py): cells, rows, clauses after colons."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

import core.extract.pdf as pdf_module
from core.extract import pdf_table
from core.extract.pdf import extract_pdf
from core.match import match_quote, prepare
from core.models import PageText
from tests.servers import CORPUS

PDF = CORPUS / "pdf"
ARXIV = PDF / "gold" / "teaching-lm-reason.pdf"
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
def test_running_text_is_no_table_and_a_row_stays_in_its_column(path: Path) -> None:
    rows_in_columns = 0
    with pymupdf.open(path) as doc:
        for number, page in enumerate(doc, start=1):
            blocks = pdf_module._blocks_of(page)
            width = page.rect.width
            read = pdf_table.table_blocks(blocks, width)
            kept = {id(b) for b in read}
            assert [b.lines for b in blocks if b.running and id(b) not in kept] == [], f"page {number}"
            if pdf_table.two_columns(blocks, width):
                rows = [b for b in read if id(b) not in {id(c) for c in blocks} and not b.stacked]
                mid = width / 2
                assert [b.lines for b in rows if b.x0 < mid - 2 and b.x1 > mid + 2] == [], f"page {number}"
                rows_in_columns += len(rows)
    assert rows_in_columns > 0  # each paper has rows (table rows, figure labels, formulas) inside a column


def _blocks(page: PageText, number: int) -> list[str]:
    """Return the blocks of page ``number``, as text."""
    ((start, end),) = [(s, e) for n, s, e in page.pages if n == number]
    return [page.text[s:e] for s, e in page.blocks if start <= s < end]


def test_a_header_of_wrapped_cells_reads_cell_by_cell() -> None:
    # Alphabet's repurchase table: six header cells of 2 to 6 lines, bottom-aligned beside "Period",
    # each cut by MuPDF into blocks stacked one under another.
    page = _page(PDF / "gold" / "2022-alphabet-annual-report-56-59.pdf")
    prepared = prepare(page)
    header = (
        "Period Total Number of Class A Shares Purchased (in thousands) (1) Total Number of Class C Shares "
        "Purchased (in thousands) (1) Average Price Paid per Class A Share (2) Average Price Paid per Class C "
        "Share (2) Total Number of Shares Purchased as Part of Publicly Announced Programs (in thousands) (1) "
        "Approximate Dollar Value of Shares that May Yet Be Purchased Under the Program (in millions)"
    )
    assert match_quote(header, prepared).found
    # The body stays rows: a row reads across, a column of figures is no cell, the header is no row of the body.
    assert match_quote("October 1 - 31 8,585 46,059 $ 98.92 $ 99.16 54,644", prepared).found
    assert not match_quote("8,585 1,968 4,687 15,240", prepared).found
    assert not match_quote("Under the Program (in millions) October 1 - 31", prepared).found


def test_a_piece_of_a_line_cut_at_a_subscript_is_no_cell() -> None:
    # Qwen2's page 6: MuPDF cuts the paragraph's lines at the subscripts of "y+ i , y− i"; the piece
    # "i , y−" stands over "i are two responses to xi, with y+" at the paragraph's leading, glued
    # to the rest of its line: it carries on its line, not a cell.
    page = _page(PDF / "papers" / "pymupdf__test_4751__qwen2-tech-report.pdf")
    assert "preference data P = {(xi, y+ i , y− i )}, where xi represents the instruction" in page.text
    # The table of page 3 still reads by rows: stacked blocks there are cells.
    assert match_quote("Baseline T5 XXL CoT Finetuned T5 XXL CoT 8-shot PaLM 540B", prepare(_page(ARXIV))).found


def test_a_table_inside_a_column_reads_by_rows_and_no_row_crosses_the_gutter() -> None:
    # Table 4 of the FLAN/CoT paper, in the left column: a header cell of two lines beside one of one.
    page = _page(ARXIV)
    prepared = prepare(page)
    assert match_quote("Percentage of GSM8K data used to train CoT finetuned T5 XXL", prepared).found
    # Figure 3's axis tick "30" (left column) and a short line of the right column share a band: no row.
    assert not any(block.startswith("30 models in multi-task settings") for block in _blocks(page, 5))


def test_pieces_of_cells_in_one_block_are_taken_apart() -> None:
    # Table 3 of the FLAN/CoT paper: MuPDF puts "CoT finetuned / T5 XXL using" and "CoT 8-Shot" in one
    # block, "540B" (under "PaLM") and "GPT-3" (over "175B") in another; "T5 XXL using" spans the
    # "PaLM" and "GPT-3" below it and wraps into neither.
    page = _page(ARXIV)
    prepared = prepare(page)
    assert match_quote("Base Task Original Cot CoT finetuned T5 XXL using CoT 8-Shot", prepared).found
    assert match_quote("PaLM 540B GPT-3 175B PaLM 540B GPT-3 175B", prepared).found
    # A cell set between two rows is no piece out of order ("Coinflip" beside "OOD: 3" over "OOD: 4").
    assert match_quote("Coinflip OOD: 3 13.10 86.70 98.6 OOD: 4 73.80 70.50 90.2", prepared).found


def test_a_formula_out_of_order_is_kept_whole() -> None:
    # Its lines go back up ("max" over its limits), but none of them wraps: a formula, not table cells.
    page = _page(PDF / "papers" / "pdfminer__ieee-tifs-paper__issue-1061.pdf")
    assert "Smedian,ϵ(D) = = max k=0,...,n{exp(−kϵ) max 0≤t≤k+1{xm+t −xm+t−k−1}}." in page.text


def test_a_line_with_a_figure_next_to_it_is_a_row_not_a_wrapped_cell() -> None:
    # Table 2 of the FLAN/CoT paper, each cell its own block (as other producers write tables):
    # "OOD: 3" stands over "OOD: 4" at a paragraph's leading, in one font, but "0.00" stands beside each.
    with pymupdf.open(ARXIV) as doc:
        page = doc[3]
        mid = page.rect.width / 2
        cells = [pdf_table.block_of([line], mid) for b in pdf_module._blocks_of(page) for line in b.geometry]
        read = [" ".join(b.lines) for b in pdf_table.table_blocks(cells, page.rect.width)]
    assert "Last Letter Concat. OOD: 3 0.00 0.00 94.8" in read
    assert "OOD: 4 0.00 0.00 63.0" in read


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
