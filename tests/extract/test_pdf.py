"""PDF extraction on real corpus PDFs (core/extract/pdf.py), and the bad PDFs editors meet."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from core.extract import extract
from core.extract.pdf import extract_pdf
from core.match import match_quote, prepare
from core.models import PageText, Unreadable
from core.settings import Settings
from tests.builders import every
from tests.servers import CORPUS

PDF = CORPUS / "pdf"
ALL_PDFS = sorted(PDF.rglob("*.pdf"))


def _text(path: Path, settings: Settings | None = None) -> PageText:
    page = extract_pdf(path.read_bytes(), settings)
    assert isinstance(page, PageText), page
    return page


@pytest.fixture(scope="module")
def arxiv() -> PageText:
    return _text(PDF / "gold" / "teaching-lm-reason.pdf")


@pytest.mark.parametrize("path", ALL_PDFS, ids=lambda p: p.name)
def test_every_corpus_pdf_gives_pages_and_blocks(path: Path) -> None:
    page = _text(path)
    with pymupdf.open(path) as doc:
        assert [n for n, _, _ in page.pages] == list(range(1, doc.page_count + 1))
    # Pages tile the text in order; blocks are newline-separated, non-empty and inside it.
    ends = [0] + [e + 1 for _, _, e in page.pages[:-1]]
    assert [s for _, s, _ in page.pages] == ends
    assert page.pages[-1][2] == len(page.text)
    assert "\n".join(page.text[s:e] for s, e in page.blocks) == page.text
    every(page.blocks, lambda span: page.text[span[0] : span[1]].strip())


def test_ligatures_are_expanded() -> None:
    # The first line is set with the ﬂ ligature glyph, the second with plain f and l.
    page = _text(PDF / "edge" / "text-find-ligatures.pdf")
    assert "\ufb02" not in page.text
    assert page.text.count("Does 'flag' have a ligature?") == 2


def test_lines_of_a_block_are_joined_with_a_space() -> None:
    assert _text(PDF / "edge" / "line-char-render-example.pdf").text == "first line second line third line"


@pytest.mark.parametrize(
    ("path", "present", "absent"),
    [
        # "mod-/els" at a line end: a syllable break, joined (the gold text even keeps "mod- els").
        ("gold/teaching-lm-reason.pdf", "to smaller models via knowledge distillation", "mod-els"),
        # "fine-/tuning" at a line end; the paper writes "finetuning" everywhere else: the paper's spelling wins.
        ("gold/teaching-lm-reason.pdf", "finetuning", "fine-tuning"),
        # "FLAN-/based": an acronym before the hyphen is a compound.
        ("gold/teaching-lm-reason.pdf", "a FLAN-based (Wei et al., 2021) version of PaLM", "FLANbased"),
        # "data-/dependent": both halves are words of the paper, the joined word is not: a compound.
        ("papers/pdfminer__ieee-tifs-paper__issue-1061.pdf", "data-dependent", "datadependent"),
        # An OCR layer that lost the hyphen: "shoul" / "der", and "shoulder" is a word of the patent.
        ("gold/pet-display-patent.pdf", "having shoulder Straps for Support", "shoul der"),
    ],
)
def test_line_end_hyphenation(path: str, present: str, absent: str) -> None:
    text = _text(PDF / path).text
    assert present in text
    assert absent not in text


def test_one_paragraph_split_by_mupdf_is_one_block(arxiv: PageText) -> None:
    # MuPDF makes the indented first line of this paragraph a block of its own.
    quote = "We propose a two-step pipeline for CoT knowledge distillation. The first step comprises annotating"
    assert match_quote(quote, prepare(arxiv)).found


def test_two_columns_are_read_column_by_column(arxiv: PageText) -> None:
    # Page 2: the left column runs to the foot of the page; the right column's heading "4 Experimental
    # Setup" sits higher on the page than the left column's "3 Method" paragraph, yet is read after it.
    text = arxiv.text
    assert text.index("We propose a two-step pipeline") < text.index("Experimental Setup")
    # ... and the left column's last paragraph ends before the right column's text begins.
    assert text.index("Figure 1 provides an overview of the proposed method.") < text.index("Experimental Setup")


def test_paragraph_carried_over_two_blocks_with_a_hyphen_is_joined(arxiv: PageText) -> None:
    # Right column of page 2: a block ends "We ... fol-", the next block starts "lowing math word problem".
    quote = "We benchmark the proposed method on the following math word problem datasets"
    assert match_quote(quote, prepare(arxiv)).found


def test_ocr_layer_with_both_columns_in_one_block_is_split() -> None:
    # The patent's first page: the abstract (right) interleaves with the references (left) in one MuPDF block.
    page = _text(PDF / "gold" / "pet-display-patent.pdf")
    quote = "Outer wall portions of the passageways are transparent so that a pet moving along the passageways"
    assert match_quote(quote, prepare(page)).found


def test_match_reports_its_page() -> None:
    page = _text(PDF / "gold" / "kroger-press-release-2023.pdf")
    start = page.text.index("Kroger Reports Second Quarter 2023 Results")
    assert [n for n, s, e in page.pages if s <= start < e] == [1]


def test_page_limit_reads_the_first_pages_and_warns() -> None:
    page = _text(PDF / "papers" / "pymupdf__test_4751__qwen2-tech-report.pdf", Settings(max_pdf_pages=2))
    assert [n for n, _, _ in page.pages] == [1, 2]
    assert page.warnings == (
        "The PDF has 26 pages; only the first 2 were read. "
        "A quote from a later page will not be found: upload the pages you quote.",
    )


# ---------------------------------------------------------------- bad PDFs


def test_encrypted_pdf_is_unreadable() -> None:
    with pymupdf.open(PDF / "gold" / "kroger-press-release-2023.pdf") as doc:
        body = doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="reader", owner_pw="owner")
    assert extract_pdf(body) == Unreadable(
        "The PDF is encrypted and needs a password to open. "
        "Upload a copy without a password, or paste the text of the part you quote."
    )


def test_scanned_pdf_without_text_layer_is_unreadable() -> None:
    # A "scan": the first page of a real PDF, rendered to an image and placed in a new PDF.
    with pymupdf.open(PDF / "gold" / "kroger-press-release-2023.pdf") as src, pymupdf.open() as scan:
        pix = src[0].get_pixmap(dpi=50)
        scan.new_page(width=src[0].rect.width, height=src[0].rect.height).insert_image(src[0].rect, pixmap=pix)
        body = scan.tobytes()
    result = extract_pdf(body)
    assert isinstance(result, Unreadable)
    assert result.reason.startswith("scanned PDF: no text to match.")


@pytest.mark.parametrize("fraction", [0.3, 0.6])
def test_truncated_pdf_is_damaged_not_scanned(fraction: float) -> None:
    body = (PDF / "gold" / "kroger-press-release-2023.pdf").read_bytes()
    result = extract_pdf(body[: int(len(body) * fraction)])
    assert isinstance(result, Unreadable)
    assert result.reason.startswith("The PDF is damaged or incomplete")


def test_nearly_complete_pdf_is_read_with_a_warning() -> None:
    body = (PDF / "gold" / "kroger-press-release-2023.pdf").read_bytes()
    page = extract_pdf(body[: int(len(body) * 0.9)])
    assert isinstance(page, PageText) and page.text
    assert any("damaged or incomplete" in w for w in page.warnings)


def test_garbage_after_a_pdf_header_is_unreadable() -> None:
    result = extract_pdf(b"%PDF-1.4\n" + b"garbage " * 100)
    assert isinstance(result, Unreadable)
    assert "Download it again, or upload a copy that opens in a PDF reader." in result.reason


def test_pdf_served_as_html_is_read_as_pdf() -> None:
    body = (PDF / "edge" / "line-char-render-example.pdf").read_bytes()
    result = extract(body, "text/html; charset=utf-8")
    assert isinstance(result, PageText) and result.kind == "pdf"


def test_columns_are_ordered_when_the_stream_order_is_not_reading_order() -> None:
    # Page 2 of the arXiv paper re-laid line by line at the same places, written bottom-up (as some
    # generators write their content streams): reading order must come from the layout, not the stream.
    with pymupdf.open(PDF / "gold" / "teaching-lm-reason.pdf") as src, pymupdf.open() as out:
        page = out.new_page(width=src[1].rect.width, height=src[1].rect.height)
        lines = [ln for b in src[1].get_text("dict")["blocks"] if b["type"] == 0 for ln in b["lines"]]
        for ln in reversed(lines):
            text = "".join(s["text"] for s in ln["spans"])
            page.insert_text((ln["bbox"][0], ln["bbox"][3] - 2), text, fontsize=8)
        body = out.tobytes()
    text = _text_of(body)
    assert text.index("We propose a two-step pipeline") < text.index("Experimental Setup")
    assert text.index("Experimental Setup") < text.index("We follow a similar experimental setup")


def _text_of(body: bytes) -> str:
    page = extract_pdf(body)
    assert isinstance(page, PageText), page
    return page.text
