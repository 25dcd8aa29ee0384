"""The text of a PDF source as PageText, with page numbers, blocks and reading order (PyMuPDF).

Each text block PyMuPDF finds becomes a block of ``PageText`` (a hard break for the matcher),
except that a block carrying on the previous one's sentence (it starts in lower case, the previous
ends in "and", "of", ...; or it sits right under it, as MuPDF splits a paragraph at its indented
first line) is joined to it. Lines inside a block are joined with a space (none between two CJK
characters); ligatures are expanded ("ﬁ" -> "fi"). Two-column pages are read column by column,
full-width blocks in between; an OCR layer that puts both columns' lines in one block is split.
``PageText.pages`` maps every page to its span of the text.

Line-end hyphens (measured in tests/quality/eval_pdf.py against "always join" and "always keep"):
a soft hyphen is dropped; the hyphen is kept before a capital or a digit ("COVID-/19"), after an
acronym ("FLAN-/based") and in a three-part compound ("markup-/and-mask"); otherwise the
document's own spelling elsewhere decides ("fine-/tuning" -> "finetuning" in a paper that writes
"finetuning"); without such evidence it is kept when both halves are words of the document
("data-/dependent") and dropped otherwise ("rea-/soning" -> "reasoning"). Words counted as
evidence never include the halves of a broken word. A text layer that lost the hyphen ("shoul" /
"der") is joined only when the whole word occurs in the document and neither half does.

Scanned pages (no text layer, an image) are read by OCR only when ``settings.ocr`` is on
(core/extract/ocr.py), and listed in ``PageText.ocr_pages``; without it, a PDF of nothing but
page images is Unreadable: "scanned PDF". It refuses to ask for a password, or to read beyond
``settings.max_pdf_pages`` (a warning says how many pages were read).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pymupdf

from core.extract.ocr import ocr_textpages
from core.models import PageKind, PageText, Span, Unreadable
from core.settings import Settings

_LIGATURES = str.maketrans({"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st"})
_HYPHENS = "-\u2010\u00ad"
_WORD_BEFORE = re.compile(r"(\w+)[-\u2010\u00ad]$")
_LAST_WORD = re.compile(r"(\w+)$")
_WORD_AFTER = re.compile(r"^(\w+)")
_HYPHENATED = re.compile(r"\b(\w+)[-\u2010](\w+)\b")
_WORDS = re.compile(r"\w+")
# A line reaching this far (points) past the page's middle on both sides is full width.
_GUTTER = 20.0
# Words no sentence or heading ends with: a block ending in one is carried on by the next.
_CONNECTIVES = frozenset(
    {"a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the", "to", "with",
     "than", "that", "which", "whose", "nor", "but"}
)  # fmt: skip
_LOWER_START = re.compile(r"^[a-z]")
_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\u3000-\u303f]")
_WHAT_TO_DO = "Upload a copy with a text layer, or paste the text of the part you quote."


@dataclass
class _Block:
    lines: list[str]
    x0: float
    y0: float
    x1: float
    y1: float


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
                    )
                )
    return out


def _chars(blocks: list[_Block]) -> int:
    return sum(len(line) for b in blocks for line in b.lines)


def _flows(lines: list[tuple[str, tuple[float, float, float, float]]], mid: float) -> bool:
    """Return True when most lines fill their column: running text, not the cells of a table."""
    long = sum(1 for _, bb in lines if bb[2] - bb[0] >= 0.6 * mid)
    return long >= 2 and 2 * long >= len(lines)


def _reading_order(blocks: list[_Block], width: float) -> list[_Block]:
    """Return blocks column by column when the page is set in two columns, else as MuPDF gives them."""
    mid = width / 2
    left = [b for b in blocks if b.x1 <= mid + 2]
    right = [b for b in blocks if b.x0 >= mid - 2]
    chars = sum(len(" ".join(b.lines)) for b in blocks) or 1
    left_chars = sum(len(" ".join(b.lines)) for b in left)
    right_chars = sum(len(" ".join(b.lines)) for b in right)
    # Two columns: each half holds a real share of the text; otherwise keep MuPDF's (stream) order.
    if left_chars < 0.25 * chars or right_chars < 0.25 * chars:
        return blocks
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


def _vocabulary(all_blocks: list[list[_Block]]) -> tuple[Counter[str], Counter[str]]:
    """Return counts of words and of hyphenated compounds written inside lines (not at line ends)."""
    words: Counter[str] = Counter()
    compounds: Counter[str] = Counter()
    for blocks in all_blocks:
        for b in blocks:
            broken = False  # the previous line ended in a hyphen: its first word is half a word
            for line in b.lines:
                lower = line.lower()
                found = _WORDS.findall(lower)
                ends_broken = lower[-1] in _HYPHENS
                words.update(found[int(broken) : len(found) - int(ends_broken)])
                compounds.update(f"{m.group(1)}-{m.group(2)}" for m in _HYPHENATED.finditer(lower))
                broken = ends_broken
    return words, compounds


def _join_lines(lines: list[str], words: Counter[str], compounds: Counter[str]) -> str:
    out = lines[0]
    for nxt in lines[1:]:
        before = _WORD_BEFORE.search(out)
        before_word = _LAST_WORD.search(out)
        after = _WORD_AFTER.match(nxt)
        if out[-1] in _HYPHENS and before and after:
            head, tail = before.group(1), after.group(1)
            if out[-1] == "\u00ad":
                out = out[:-1] + nxt
            elif _keep_hyphen(head, tail, nxt[len(tail) :], words, compounds):
                out = out[:-1] + "-" + nxt
            else:
                out = out[:-1] + nxt
        elif (before_word and after and _lost_hyphen(before_word.group(1), after.group(1), words)) or (
            _CJK.match(out[-1]) and _CJK.match(nxt[0])
        ):
            out += nxt  # a hyphen the text layer lost, or two CJK characters (no spaces between words)
        else:
            out += " " + nxt
    return out


def _lost_hyphen(head: str, tail: str, words: Counter[str]) -> bool:
    """Return True for a word broken at a line end whose hyphen the text layer lost ("shoul" / "der")."""
    if not (head.isalpha() and tail.isalpha() and tail[0].islower()):
        return False
    # Neither half is a word of this document, and the whole word is (a recognised text layer).
    return words[head.lower()] <= 1 and words[tail.lower()] <= 1 and words[(head + tail).lower()] > 0


def _keep_hyphen(head: str, tail: str, rest: str, words: Counter[str], compounds: Counter[str]) -> bool:
    """Return True when a hyphen at a line end belongs to the word (a compound), False for a syllable break."""
    if not tail[0].islower() or not head[-1].isalpha() or (len(head) > 1 and head.isupper()):
        return True  # "COVID-19", "Anglo-Saxon", "FLAN-based": not a syllable break
    if rest.startswith(("-", "\u2010")):
        return True  # "markup-/and-mask": a compound of three parts
    compound = f"{head}-{tail}".lower()
    joined = f"{head}{tail}".lower()
    if compounds[compound] or words[joined]:
        return compounds[compound] > words[joined]  # the document's own spelling decides
    # No evidence elsewhere: two halves that are words of the document make a compound ("trade-/off").
    return len(head) > 2 and len(tail) > 2 and words[head.lower()] > 0 and words[tail.lower()] > 0


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
    ordered = [_paragraphs(_reading_order(blocks, width)) for width, blocks in pages]
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
    words, compounds = _vocabulary(ordered)
    parts: list[str] = []
    blocks_out: list[Span] = []
    pages_out: list[tuple[int, int, int]] = []
    pos = 0
    for number, blocks in enumerate(ordered, start=1):
        page_start = pos + (1 if parts else 0)
        for b in blocks:
            text = _join_lines(b.lines, words, compounds)
            start = pos + (1 if parts else 0)
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
        warnings=tuple(warnings),
    )
