"""Read a PDF brief with PyMuPDF: text in reading order, and link annotations on their words.

Each text block of a page becomes a block of the brief (its lines joined by a space, or
without one after a line-end hyphen, which is kept). A URI link annotation is mapped to
the words it covers: a word belongs to a link when most of it lies inside one of the
link's rectangles (its QuadPoints when the annotation has them, else its rectangle), so a
link that wraps over two lines, or comes as several annotations with one URI, is one
citation. Bare URLs typed in the text are citations too; "[1]" markers are resolved from a
references section.

Locations: ``Location("page", n, start, end)`` with ``n`` the 1-based page number and the
span in that page's text (its blocks joined by newlines, as built here).

Refused with BriefError: encrypted PDFs (a password is needed to open them), damaged or cut
short files PyMuPDF cannot open, and PDFs without any text layer (scans).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from core.brief.blocks import Block, BlockKind, Cite, CiteKind
from core.brief.build import build_brief
from core.brief.inline import usable_url
from core.brief.refs import link_numbered_references
from core.brief.urls import find_urls
from core.errors import BriefError
from core.models import Brief, LocationKind
from core.settings import Settings

_EDGE_LEFT = "(\"“‘'["
_EDGE_RIGHT = ".,;:!?)]\"”’'"
# Share of a word's area that must lie inside a link rectangle for the word to be part of the link.
_COVER = 0.5
# Type this much larger than the page's body text marks a heading (not a claim).
_HEADING_RATIO = 1.2


@dataclass
class _Word:
    text: str
    rect: tuple[float, float, float, float]
    start: int = 0
    end: int = 0
    url: str = ""


def _open(data: bytes, name: str) -> Any:
    import pymupdf

    opener: Any = pymupdf.open  # PyMuPDF ships no type hints
    try:
        doc = opener(stream=data, filetype="pdf")
    except Exception as exc:  # PyMuPDF raises FileDataError or RuntimeError for unreadable files
        raise BriefError(
            f"{name} is a damaged or incomplete PDF: it cannot be opened ({str(exc)[:100]}). "
            "Save or export the PDF again, or paste the text."
        ) from None
    if doc.needs_pass:
        doc.close()
        raise BriefError(f"{name} is encrypted: Verbatim cannot read it. Save an unencrypted copy or paste the text.")
    if doc.page_count == 0:
        doc.close()
        raise BriefError(
            f"{name} is a damaged or incomplete PDF: it has no pages. Save or export the PDF again, or paste the text."
        )
    return doc


def _link_rects(doc: Any, link: dict[str, Any]) -> list[tuple[float, float, float, float]]:
    """Return a link's rectangles: its QuadPoints when it has them, else its one rectangle."""
    rect = link["from"]
    xref = link.get("xref", 0)
    if xref:
        kind, value = doc.xref_get_key(xref, "QuadPoints")
        if kind == "array":
            nums = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", value)]
            page_height = link["_page_height"]
            rects = []
            for i in range(0, len(nums) - 7, 8):
                xs, ys = nums[i : i + 8 : 2], nums[i + 1 : i + 8 : 2]
                # QuadPoints are in PDF space (origin bottom left); words are top-left based.
                rects.append((min(xs), page_height - max(ys), max(xs), page_height - min(ys)))
            if rects:
                return rects
    return [(rect.x0, rect.y0, rect.x1, rect.y1)]


def _covered(word: tuple[float, float, float, float], rect: tuple[float, float, float, float]) -> bool:
    # Link rectangles are often shorter than the word's line box, and a link may end inside a word
    # ("632):"), so width and height are judged apart.
    width = min(word[2], rect[2]) - max(word[0], rect[0])
    height = min(word[3], rect[3]) - max(word[1], rect[1])
    if width <= 0 or height <= 0:
        return False
    word_h = max(word[3] - word[1], 1e-6)
    rect_h = max(rect[3] - rect[1], 1e-6)
    return width / max(word[2] - word[0], 1e-6) >= _COVER and height / min(word_h, rect_h) >= _COVER


def _heading_blocks(page: Any, flags: int) -> set[int]:
    """Return the numbers of blocks set in type clearly larger than the page's body text."""
    sizes: dict[int, float] = {}
    chars: list[tuple[float, int]] = []
    for block in page.get_text("dict", flags=flags)["blocks"]:
        spans = [s for line in block.get("lines", []) for s in line["spans"] if s["text"].strip()]
        if not spans:
            continue
        sizes[block["number"]] = min(s["size"] for s in spans)
        chars.extend((s["size"], len(s["text"])) for s in spans)
    if not chars:
        return set()
    chars.sort()
    total, seen, body = sum(n for _, n in chars), 0, chars[0][0]
    for size, n in chars:
        seen += n
        if seen * 2 >= total:
            body = size
            break
    return {b for b, size in sizes.items() if size >= body * _HEADING_RATIO}


def _page_blocks(doc: Any, page: Any, number: int) -> tuple[list[Block], str]:
    links = []
    for link in page.get_links():
        uri = usable_url(link.get("uri") or "")
        if not uri:
            continue
        link["_page_height"] = page.rect.height
        links.append((uri, _link_rects(doc, link)))
    # Words come in the order PyMuPDF reads the page: block, line, word.
    blocks: dict[int, list[list[_Word]]] = {}
    lines: dict[tuple[int, int], list[_Word]] = {}
    import pymupdf

    # Ligatures expanded ("ﬁ" -> "fi"): a claim's words are read as a reader reads them.
    flags = pymupdf.TEXTFLAGS_WORDS & ~pymupdf.TEXT_PRESERVE_LIGATURES
    headings = _heading_blocks(page, flags)
    for x0, y0, x1, y1, text, b, ln, _w in page.get_text("words", flags=flags):
        word = _Word(text, (x0, y0, x1, y1))
        for uri, rects in links:
            if any(_covered(word.rect, r) for r in rects):
                word.url = uri
                break
        if (b, ln) not in lines:
            lines[(b, ln)] = []
            blocks.setdefault(b, []).append(lines[(b, ln)])
        lines[(b, ln)].append(word)
    out: list[Block] = []
    page_text: list[str] = []
    offset = 0
    for b in blocks:
        text = ""
        for words in blocks[b]:
            if text and not text.endswith("-"):
                text += " "
            for n, word in enumerate(words):
                if n:
                    text += " "
                word.start = len(text)
                text += word.text
                word.end = len(text)
        kind = BlockKind.HEADING if b in headings and text and text[-1] not in '.!?:;"”' else BlockKind.PARAGRAPH
        block = Block(
            kind, text, _cites(text, [w for ws in blocks[b] for w in ws]), LocationKind.PAGE, number, None, base=offset
        )
        out.append(block)
        page_text.append(text)
        offset += len(text) + 1
    return out, "\n".join(page_text)


def _cites(text: str, words: list[_Word]) -> list[Cite]:
    """Return one citation per run of words under one link, then the bare URLs outside links."""
    cites: list[Cite] = []
    run: list[_Word] = []
    for word in [*words, _Word("", (0, 0, 0, 0))]:
        if run and word.url != run[0].url:
            start, end = run[0].start, run[-1].end
            while start < end - 1 and text[start] in _EDGE_LEFT:
                start += 1
            while end > start + 1 and text[end - 1] in _EDGE_RIGHT:
                end -= 1
            kind = CiteKind.URL if text[start:end] == run[0].url else CiteKind.LINK
            cites.append(Cite(start, end, run[0].url, text[start:end], kind))
            run = []
        if word.url:
            run.append(word)
    for s, e in find_urls(text):
        if not any(c.start <= s < c.end for c in cites):
            url = text[s:e]
            cites.append(Cite(s, e, url if "://" in url else "http://" + url, url, CiteKind.URL))
    return sorted(cites, key=lambda c: c.start)


def read_pdf(data: bytes, name: str, settings: Settings | None = None) -> Brief:
    """Return the Brief a PDF holds; raises BriefError when it is encrypted, damaged or has no text."""
    settings = settings or Settings()
    doc = _open(data, name)
    warnings: list[str] = []
    blocks: list[Block] = []
    # MuPDF quietly rebuilds a damaged or cut-short file; what it could not rebuild is missing.
    repaired = bool(getattr(doc, "is_repaired", False))
    if repaired:
        warnings.append(
            f"{name} is damaged or incomplete and was repaired to be read: claims may be missing. "
            "Save or export the PDF again to be sure."
        )
    try:
        pages = doc.page_count
        if pages > settings.max_pdf_pages:
            warnings.append(
                f"{name} has {pages} pages; only the first {settings.max_pdf_pages} were read. "
                "Split the brief to check the rest."
            )
        for n in range(min(pages, settings.max_pdf_pages)):
            try:
                page_blocks, _ = _page_blocks(doc, doc[n], n + 1)
            except Exception as exc:  # one broken page should not lose the others
                warnings.append(f"{name}, page {n + 1} could not be read ({str(exc)[:80]}); its claims are missing.")
                continue
            blocks.extend(page_blocks)
    finally:
        doc.close()
    if not any(b.text.strip() for b in blocks) and repaired:
        raise BriefError(
            f"{name} is a damaged or incomplete PDF (cut short?): no text could be read from it. "
            "Save or export the PDF again, or paste the text."
        )
    if not any(b.text.strip() for b in blocks):
        raise BriefError(
            f"{name} has no text layer (it may be a scan), so Verbatim cannot read its claims. "
            "Export the brief as a PDF with text, or paste the text."
        )
    warnings.extend(link_numbered_references(blocks))
    return build_brief(name, "pdf", blocks, settings, warnings=warnings, raw=data)
