"""The text of a PDF source as PageText, with page numbers, blocks and reading order (PyMuPDF).

Each text block PyMuPDF finds becomes a block of ``PageText`` (a hard break for the matcher),
except that a block carrying on the previous one's sentence (it starts in lower case, the previous
ends in "and", "of", ...; or it sits right under it, as MuPDF splits a paragraph at its indented
first line) is joined to it. Lines inside a block are joined with a space (none between two CJK
characters); ligatures are expanded ("ﬁ" -> "fi"). Two-column pages are read column by column,
full-width blocks in between; an OCR layer that puts both columns' lines in one block is split.
``PageText.pages`` maps every page to its span of the text.

Lines are joined by core/extract/pdf_lines.py, which also records the line-end decisions that
could go the other way (``PageText.line_ends``). Blocks side by side on one row (their first lines
on one baseline, none of them a line of running text) are the cells of a table row: they are read
as one block, left to right, as a reader reads the row ("Adjusted FIFO Operating Profit (Table 7)
$989 $1,110").

Scanned pages (no text layer, an image) are read by OCR only when ``settings.ocr`` is on
(core/extract/ocr.py), and listed in ``PageText.ocr_pages``; without it, a PDF of nothing but
page images is Unreadable: "scanned PDF". It refuses to ask for a password, or to read beyond
``settings.max_pdf_pages`` (a warning says how many pages were read).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Any

import pymupdf

from core.extract.ocr import ocr_textpages
from core.extract.pdf_lines import Vocabulary, join_lines
from core.models import LineEnd, PageKind, PageText, Span, Unreadable
from core.settings import Settings

_LIGATURES = str.maketrans({"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st"})
_LAST_WORD = re.compile(r"(\w+)$")
# A line reaching this far (points) past the page's middle on both sides is full width.
_GUTTER = 20.0
# A line this wide (share of half the page) is running text, not a table cell or a label.
_RUNNING = 0.6
# Two first lines sharing this much of the taller one's height stand on one baseline band (not a rotated stamp).
_BAND = 0.6
# Words no sentence or heading ends with: a block ending in one is carried on by the next.
_CONNECTIVES = frozenset(
    {"a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the", "to", "with",
     "than", "that", "which", "whose", "nor", "but"}
)  # fmt: skip
_LOWER_START = re.compile(r"^[a-z]")
_WHAT_TO_DO = "Upload a copy with a text layer, or paste the text of the part you quote."


@dataclass
class _Block:
    lines: list[str]
    x0: float
    y0: float
    x1: float
    y1: float
    # The first line's top and bottom, and whether a line runs the width of a column of text.
    first: tuple[float, float] = (0.0, 0.0)
    running: bool = True


def _blocks_of(page: Any, textpage: Any = None) -> list[_Block]:
    # No TEXT_PRESERVE_LIGATURES: MuPDF then writes "fi" for the ﬁ glyph itself.
    flags = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
    mid = page.rect.width / 2
    out: list[_Block] = []
    for b in page.get_text("dict", flags=flags, textpage=textpage)["blocks"]:
        if b.get("type") != 0:
            continue
        lines: list[tuple[str, tuple[float, float, float, float]]] = []
        for line in b["lines"]:
            text = "".join(span["text"] for span in line["spans"]).translate(_LIGATURES)
            text = " ".join(text.split())
            if text:
                lines.append((text, line["bbox"]))
        # OCR layers put both columns' lines in one block: split it at the page's middle.
        left = [ln for ln in lines if (ln[1][0] + ln[1][2]) / 2 < mid]
        right = [ln for ln in lines if (ln[1][0] + ln[1][2]) / 2 >= mid]
        spanning = any(ln[1][0] < mid - _GUTTER and ln[1][2] > mid + _GUTTER for ln in lines)
        if len(left) >= 2 and len(right) >= 2 and not spanning and (_flows(left, mid) or _flows(right, mid)):
            groups = [left, right]
        else:
            groups = [lines]
        for group in groups:
            if group:
                out.append(
                    _Block(
                        [t for t, _ in group],
                        min(bb[0] for _, bb in group),
                        min(bb[1] for _, bb in group),
                        max(bb[2] for _, bb in group),
                        max(bb[3] for _, bb in group),
                        (group[0][1][1], group[0][1][3]),
                        any(bb[2] - bb[0] >= _RUNNING * mid for _, bb in group),
                    )
                )
    return out


def _rows(blocks: list[_Block], width: float) -> list[_Block]:
    """Return the blocks with the cells of each table row joined into one block, left to right.

    Cells of a row are blocks side by side whose first lines share one baseline band, none of
    them holding a line as wide as running text; two columns of running text are no row.
    """
    if _two_columns(blocks, width):
        return blocks
    # Cells by the top of their first line: a block shares a band only with those whose top lies
    # within the tallest first line of its own, so a table of thousands of cells is not read
    # against every other block of its page.
    cells = sorted((i for i, b in enumerate(blocks) if not b.running), key=lambda i: blocks[i].first[0])
    tops = [blocks[i].first[0] for i in cells]
    tallest = max((blocks[i].first[1] - blocks[i].first[0] for i in cells), default=0.0)
    out: list[_Block] = []
    placed: set[int] = set()
    for i, a in enumerate(blocks):
        if i in placed:
            continue
        row = [a]
        if not a.running:
            near = cells[bisect_left(tops, a.first[0] - tallest) : bisect_right(tops, a.first[1])]
            for j in sorted(k for k in near if k > i):
                b = blocks[j]
                if j not in placed and _same_band(a, b) and all(_apart(c, b) for c in row):
                    row.append(b)
                    placed.add(j)
        if len(row) == 1:
            out.append(a)
            continue
        row.sort(key=lambda b: b.x0)
        out.append(
            _Block(
                [line for b in row for line in b.lines],
                min(b.x0 for b in row),
                min(b.y0 for b in row),
                max(b.x1 for b in row),
                max(b.y1 for b in row),
                a.first,
                False,
            )
        )
    return out


def _same_band(a: _Block, b: _Block) -> bool:
    """Return True when the first lines of a and b share most of the taller one's height: one baseline band."""
    (top_a, bottom_a), (top_b, bottom_b) = a.first, b.first
    shared = min(bottom_a, bottom_b) - max(top_a, top_b)
    return shared >= _BAND * max(bottom_a - top_a, bottom_b - top_b) > 0


def _apart(a: _Block, b: _Block) -> bool:
    """Return True when a and b stand side by side without overlapping (a point of slack)."""
    return b.x0 >= a.x1 - 1.0 or a.x0 >= b.x1 - 1.0


def _chars(blocks: list[_Block]) -> int:
    return sum(len(line) for b in blocks for line in b.lines)


def _flows(lines: list[tuple[str, tuple[float, float, float, float]]], mid: float) -> bool:
    """Return True when most lines fill their column: running text, not the cells of a table."""
    long = sum(1 for _, bb in lines if bb[2] - bb[0] >= _RUNNING * mid)
    return long >= 2 and 2 * long >= len(lines)


def _two_columns(blocks: list[_Block], width: float) -> bool:
    """Return True when the page is set in two columns: each half holds a real share of the text."""
    mid = width / 2
    chars = sum(len(" ".join(b.lines)) for b in blocks) or 1
    left_chars = sum(len(" ".join(b.lines)) for b in blocks if b.x1 <= mid + 2)
    right_chars = sum(len(" ".join(b.lines)) for b in blocks if b.x0 >= mid - 2)
    return left_chars >= 0.25 * chars and right_chars >= 0.25 * chars


def _reading_order(blocks: list[_Block], width: float) -> list[_Block]:
    """Return blocks column by column when the page is set in two columns, else as MuPDF gives them."""
    mid = width / 2
    if not _two_columns(blocks, width):
        return blocks  # MuPDF's (stream) order
    ordered: list[_Block] = []
    band: list[_Block] = []

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


def _continues(a: _Block, b: _Block) -> bool:
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


def _paragraphs(blocks: list[_Block]) -> list[_Block]:
    """Return the blocks with paragraph continuations merged into the block they continue."""
    out: list[_Block] = []
    for b in blocks:
        if out and _continues(out[-1], b):
            a = out[-1]
            out[-1] = _Block(a.lines + b.lines, min(a.x0, b.x0), min(a.y0, b.y0), max(a.x1, b.x1), max(a.y1, b.y1))
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
    ordered = [_paragraphs(_reading_order(_rows(blocks, width), width)) for width, blocks in pages]
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
