"""The text of a PDF source as PageText, with page numbers, blocks and reading order (PyMuPDF).

Each text block PyMuPDF finds becomes a block of ``PageText`` (a hard break for the matcher),
except that a block carrying on the previous one's sentence (it starts in lower case, the previous
ends in "and", "of", ...; or it sits right under it, as MuPDF splits a paragraph at its indented
first line) is joined to it. Lines inside a block are joined with a space (none between two CJK
characters); ligatures are expanded ("ﬁ" -> "fi"). Two-column pages are read column by column,
full-width blocks in between; an OCR layer that puts both columns' lines in one block is split.
``PageText.pages`` maps every page to its span of the text.

Lines are joined by core/extract/pdf_lines.py, which also records the line-end decisions that
could go the other way (``PageText.line_ends``). Tables and figure labels are read by
core/extract/pdf_table.py: a cell's wrapped lines are one block, and the cells of a row (side by
side on one baseline, or a header's cells standing level) are one block, left to right, as a reader
reads the row ("Adjusted FIFO Operating Profit (Table 7) $989 $1,110"); on a two-column page a row
stays inside its column.

Scanned pages (no text layer, an image) are read by OCR only when ``settings.ocr`` is on
(core/extract/ocr.py), and listed in ``PageText.ocr_pages``; without it, a PDF of nothing but
page images is Unreadable: "scanned PDF". It refuses to ask for a password, or to read beyond
``settings.max_pdf_pages`` (a warning says how many pages were read).
"""

from __future__ import annotations

import re
from typing import Any

import pymupdf

from core.extract.ocr import ocr_textpages
from core.extract.pdf_lines import Vocabulary, join_lines
from core.extract.pdf_table import RUNNING, Block, Line, block_of, table_blocks, two_columns
from core.models import LineEnd, PageKind, PageText, Span, Unreadable
from core.settings import Settings

_LIGATURES = str.maketrans({"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st"})
_LAST_WORD = re.compile(r"(\w+)$")
# A line reaching this far (points) past the page's middle on both sides is full width.
_GUTTER = 20.0
# Words no sentence or heading ends with: a block ending in one is carried on by the next.
_CONNECTIVES = frozenset(
    {"a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the", "to", "with",
     "than", "that", "which", "whose", "nor", "but"}
)  # fmt: skip
_LOWER_START = re.compile(r"^[a-z]")
_WHAT_TO_DO = "Upload a copy with a text layer, or paste the text of the part you quote."


def _blocks_of(page: Any, textpage: Any = None) -> list[Block]:
    # No TEXT_PRESERVE_LIGATURES: MuPDF then writes "fi" for the ﬁ glyph itself.
    flags = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
    mid = page.rect.width / 2
    out: list[Block] = []
    for b in page.get_text("dict", flags=flags, textpage=textpage)["blocks"]:
        if b.get("type") != 0:
            continue
        lines: list[Line] = []
        for line in b["lines"]:
            text = "".join(span["text"] for span in line["spans"]).translate(_LIGATURES)
            text = " ".join(text.split())
            if text:
                longest = max(line["spans"], key=lambda span: len(span["text"].strip()))
                lines.append((text, line["bbox"], longest["size"]))
        # OCR layers put both columns' lines in one block: split it at the page's middle.
        left = [ln for ln in lines if (ln[1][0] + ln[1][2]) / 2 < mid]
        right = [ln for ln in lines if (ln[1][0] + ln[1][2]) / 2 >= mid]
        spanning = any(ln[1][0] < mid - _GUTTER and ln[1][2] > mid + _GUTTER for ln in lines)
        if len(left) >= 2 and len(right) >= 2 and not spanning and (_flows(left, mid) or _flows(right, mid)):
            groups = [left, right]
        else:
            groups = [lines]
        out += [block_of(group, mid) for group in groups if group]
    return out


def _chars(blocks: list[Block]) -> int:
    return sum(len(line) for b in blocks for line in b.lines)


def _flows(lines: list[Line], mid: float) -> bool:
    """Return True when most lines fill their column: running text, not the cells of a table."""
    long = sum(1 for _, bb, _ in lines if bb[2] - bb[0] >= RUNNING * mid)
    return long >= 2 and 2 * long >= len(lines)


def _reading_order(blocks: list[Block], width: float) -> list[Block]:
    """Return blocks column by column when the page is set in two columns, else as MuPDF gives them."""
    mid = width / 2
    if not two_columns(blocks, width):
        return blocks  # MuPDF's (stream) order
    ordered: list[Block] = []
    band: list[Block] = []

    def flush() -> None:
        ordered.extend(sorted((b for b in band if b.x1 <= mid + 2), key=lambda b: b.y0))
        ordered.extend(sorted((b for b in band if b.x1 > mid + 2), key=lambda b: b.y0))
        band.clear()

    for b in sorted(blocks, key=lambda b: (b.y0, b.x0)):
        if b.x0 < mid - 2 and b.x1 > mid + 2:  # full width: a title, an abstract, a figure caption
            flush()
            ordered.append(b)
        else:
            band.append(b)
    flush()
    return ordered


def _continues(a: Block, b: Block) -> bool:
    """Return True when block b carries on a's paragraph (MuPDF often splits one at an indent)."""
    last = a.lines[-1]
    if last[-1] in ":;" and _LOWER_START.match(b.lines[0]):
        return True  # a clause carried on after a colon ("GUPT: privacy preserving data analysis")
    if last[-1] in ".!?:;" or (last[-1] in '"”’)' and len(last) > 1 and last[-2] in ".!?"):
        return False
    if _LOWER_START.match(b.lines[0]) or _last_word(last) in _CONNECTIVES:
        return True  # a sentence carried on: to the next column, past a figure, or a wrapped title
    line_height = (a.y1 - a.y0) / len(a.lines)
    gap = b.y0 - a.y1
    overlap = min(a.x1, b.x1) - max(a.x0, b.x0)
    narrower = min(a.x1 - a.x0, b.x1 - b.x0) or 1.0
    return -1.0 <= gap <= 0.5 * line_height and overlap >= 0.5 * narrower


def _last_word(line: str) -> str:
    m = _LAST_WORD.search(line)
    return m.group(1).lower() if m else ""


def _paragraphs(blocks: list[Block]) -> list[Block]:
    """Return the blocks with paragraph continuations merged into the block they continue."""
    out: list[Block] = []
    for b in blocks:
        if out and _continues(out[-1], b):
            a = out[-1]
            out[-1] = Block(a.lines + b.lines, min(a.x0, b.x0), min(a.y0, b.y0), max(a.x1, b.x1), max(a.y1, b.y1))
        else:
            out.append(b)
    return out


def extract_pdf(body: bytes, settings: Settings | None = None) -> PageText | Unreadable:
    """Return the PDF's text with pages and blocks, or Unreadable (encrypted, corrupt, scanned)."""
    settings = settings or Settings()
    try:
        opener: Any = pymupdf.open  # PyMuPDF's API is only partly typed
        doc = opener(stream=body, filetype="pdf")
    except Exception as exc:  # MuPDF raises FileDataError, RuntimeError, ValueError for broken files
        return Unreadable(
            f"The PDF could not be opened: it is damaged or incomplete ({exc}). "
            "Download it again, or upload a copy that opens in a PDF reader."
        )
    with doc:
        if doc.needs_pass:
            return Unreadable(
                "The PDF is encrypted and needs a password to open. "
                "Upload a copy without a password, or paste the text of the part you quote."
            )
        if doc.page_count == 0:
            return Unreadable(f"The PDF has no pages: it is damaged or incomplete. {_WHAT_TO_DO}")
        warnings: list[str] = []
        count = min(doc.page_count, settings.max_pdf_pages)
        if doc.page_count > count:
            warnings.append(
                f"The PDF has {doc.page_count} pages; only the first {count} were read. "
                "A quote from a later page will not be found: upload the pages you quote."
            )
        try:
            pages = [(doc[i].rect.width, _blocks_of(doc[i])) for i in range(count)]
        except Exception as exc:  # a truncated file can open and then fail on a page
            return Unreadable(
                f"The PDF is damaged: its text could not be read ({exc}). "
                "Download it again, or upload a copy that opens in a PDF reader."
            )
        has_images = any(doc[i].get_images() for i in range(min(count, 20)))
        repaired = doc.is_repaired
        ocr_pages: list[int] = []
        if settings.ocr and has_images:
            scanned = [i for i, (_, blocks) in enumerate(pages) if _chars(blocks) < settings.pdf_min_text_chars]
            scanned = [i for i in scanned if doc[i].get_images()]
            read, ocr_warnings = ocr_textpages(doc, scanned, settings)
            warnings += ocr_warnings
            for i, (page, textpage) in read.items():
                pages[i] = (page.rect.width, _blocks_of(page, textpage))
                ocr_pages.append(i + 1)
    ordered = [_paragraphs(_reading_order(table_blocks(blocks, width), width)) for width, blocks in pages]
    visible = sum(len(line) for blocks in ordered for b in blocks for line in b.lines)
    if repaired:
        if visible < settings.pdf_min_text_chars:
            return Unreadable(
                "The PDF is damaged or incomplete (it may have been cut off while downloading): no text could be "
                "read from it. Download it again, or upload a copy that opens in a PDF reader."
            )
        warnings.append(
            "The PDF is damaged or incomplete (it may have been cut off while downloading); it was repaired "
            "to read it, and some of its text may be missing. If a quote is not found, download it again."
        )
    if visible < settings.pdf_min_text_chars:
        if has_images and settings.ocr:
            return Unreadable(
                "scanned PDF: no text to match. The PDF holds page images without a text layer, and OCR read "
                f"no text from them ({' '.join(warnings) or 'the images hold no legible text'}). "
                "Find a version with text, or paste the text of the part you quote."
            )
        if has_images:
            return Unreadable(
                "scanned PDF: no text to match. The PDF holds page images without a text layer; find a version "
                "with text, switch OCR on (--ocr, or the desk's OCR setting), or paste the text of the part you quote."
            )
        return Unreadable(f"The PDF holds no text to match. {_WHAT_TO_DO}")
    vocabulary = Vocabulary([b.lines for blocks in ordered for b in blocks])
    parts: list[str] = []
    line_ends: list[LineEnd] = []
    blocks_out: list[Span] = []
    pages_out: list[tuple[int, int, int]] = []
    pos = 0
    for number, blocks in enumerate(ordered, start=1):
        page_start = pos + (1 if parts else 0)
        for b in blocks:
            text, alternatives = join_lines(b.lines, vocabulary)
            start = pos + (1 if parts else 0)
            line_ends += [(start + a, start + z, reading, sure) for a, z, reading, sure in alternatives]
            parts.append(text)
            blocks_out.append((start, start + len(text)))
            pos = start + len(text)
        pages_out.append((number, page_start, max(page_start, pos)))
    return PageText(
        text="\n".join(parts),
        kind=PageKind.PDF,
        blocks=tuple(blocks_out),
        pages=tuple(pages_out),
        ocr_pages=tuple(ocr_pages),
        line_ends=tuple(line_ends),
        warnings=tuple(warnings),
    )
