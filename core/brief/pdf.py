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

from core.brief.authoryear import link_author_year
from core.brief.blocks import Block, BlockKind, Cite, CiteKind
from core.brief.build import build_brief
from core.brief.inline import usable_url
from core.brief.refs import link_numbered_references, numbers
from core.brief.unused import Elsewhere
from core.brief.urls import URL_START, find_urls
from core.errors import BriefError
from core.models import Brief, Location, LocationKind
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
    sup: bool = False  # a superscript note number, glued to the word before it


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


_SUP_TEXT = re.compile(r"^\d{1,3}(?:[,–-]\d{1,3})*$")
# A note number is set clearly smaller than the text it follows (ChatGPT's export: 6 pt on 9 pt).
_SUP_RATIO = 0.8


def _glues(before: _Word) -> bool:
    """Return True when a superscript number may be glued to the word before it (not another number, not a URL)."""
    return not before.sup and not URL_START.match(before.text) and "://" not in before.text


def _body_height(words: list[Any]) -> float:
    """Return the median height of the page's words: the body text's line height."""
    heights = sorted(w[3] - w[1] for w in words if w[4].strip())
    return heights[len(heights) // 2] if heights else 0.0


def _place_superscripts(
    sups: list[_Word], lines: dict[tuple[int, int], list[_Word]], blocks: dict[int, list[list[_Word]]]
) -> None:
    """Put each superscript number into the line it is raised above, after the word to its left.

    PyMuPDF reads a raised number as a block of its own, away from its sentence; a number that
    stands on no line of text stays a block of its own.
    """
    bounds = _bounds(lines)
    for sup in sups:
        home = _line_left_of(sup, bounds)
        if home is None:
            home = _line_above(sup, bounds)
            if home is not None:
                lines[home].append(sup)  # a number wrapped onto the next line ends the line above
                continue
            key = (10_000 + len(blocks), 0)
            lines[key] = [sup]
            blocks.setdefault(key[0], []).append(lines[key])
            continue
        words = lines[home]
        at = next((i for i, w in enumerate(words) if w.rect[0] >= sup.rect[0]), len(words))
        words.insert(at, sup)


Bounds = dict[tuple[int, int], tuple[float, float, float, float]]


def _bounds(lines: dict[tuple[int, int], list[_Word]]) -> Bounds:
    """Return each line's (top, bottom, left, right), measured once per page."""
    return {
        key: (min(w.rect[1] for w in ws), max(w.rect[3] for w in ws), ws[0].rect[0], ws[-1].rect[2])
        for key, ws in lines.items()
        if ws
    }


def _line_left_of(sup: _Word, bounds: Bounds) -> tuple[int, int] | None:
    """Return the line on the superscript's level that ends nearest before it (a few spaces' width at most)."""
    cy = (sup.rect[1] + sup.rect[3]) / 2
    best, gap = None, float("inf")
    for key, (top, bottom, left, right) in bounds.items():
        if not top - 2 <= cy <= bottom:
            continue
        if left - 2 <= sup.rect[0] <= right:
            return key  # inside the line: goes between its words
        # Up to a few line heights away: a note may follow a space or other notes.
        if right <= sup.rect[0] and sup.rect[0] - right < gap and sup.rect[0] - right <= 3 * (bottom - top):
            best, gap = key, sup.rect[0] - right
    return best


def _line_above(sup: _Word, bounds: Bounds) -> tuple[int, int] | None:
    """Return the line right above a superscript that wrapped to the start of the next line, or None."""
    best, best_bottom = None, 0.0
    height = sup.rect[3] - sup.rect[1]
    for key, (_top, bottom, left, _right) in bounds.items():
        if bottom - 1 <= sup.rect[1] <= bottom + height * 1.5 and sup.rect[0] <= left + 24 and bottom > best_bottom:
            best, best_bottom = key, bottom
    return best


def _heading_blocks(page: Any, flags: int, textpage: Any = None) -> set[int]:
    """Return the numbers of blocks set in type clearly larger than the page's body text."""
    sizes: dict[int, float] = {}
    chars: list[tuple[float, int]] = []
    for block in page.get_text("dict", flags=flags, textpage=textpage)["blocks"]:
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
        rects = _link_rects(doc, link)
        box = (min(r[0] for r in rects), min(r[1] for r in rects), max(r[2] for r in rects), max(r[3] for r in rects))
        links.append((uri, rects, box))
    # Words come in the order PyMuPDF reads the page: block, line, word.
    blocks: dict[int, list[list[_Word]]] = {}
    lines: dict[tuple[int, int], list[_Word]] = {}
    import pymupdf

    # Ligatures expanded ("ﬁ" -> "fi"): a claim's words are read as a reader reads them.
    flags = pymupdf.TEXTFLAGS_WORDS & ~pymupdf.TEXT_PRESERVE_LIGATURES
    textpage = page.get_textpage(flags=flags)  # read once: the words and the type sizes come from one pass
    headings = _heading_blocks(page, flags, textpage)
    raw = page.get_text("words", flags=flags, textpage=textpage)
    body = _body_height(raw)
    sups: list[_Word] = []
    for x0, y0, x1, y1, text, b, ln, _w in raw:
        word = _Word(text, (x0, y0, x1, y1))
        for uri, rects, box in links:
            # Most links are far from most words: their bounding box says so without measuring.
            if x1 <= box[0] or x0 >= box[2] or y1 <= box[1] or y0 >= box[3]:
                continue
            if any(_covered(word.rect, r) for r in rects):
                word.url = uri
                break
        if _SUP_TEXT.match(text) and y1 - y0 < body * _SUP_RATIO:
            word.sup = True
            sups.append(word)
            continue
        if (b, ln) not in lines:
            lines[(b, ln)] = []
            blocks.setdefault(b, []).append(lines[(b, ln)])
        lines[(b, ln)].append(word)
    _place_superscripts(sups, lines, blocks)
    out: list[Block] = []
    page_text: list[str] = []
    offset = 0
    for b in blocks:
        text = ""
        for words in blocks[b]:
            if text and not text.endswith("-"):
                text += " "
            for n, word in enumerate(words):
                if n and not (word.sup and _glues(words[n - 1])):
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
            if all(w.sup for w in run):
                cites.append(
                    Cite(
                        start,
                        end,
                        run[0].url,
                        text[start:end],
                        CiteKind.MARKER,
                        how=f"superscript {text[start:end]}, linked",
                    )
                )
            else:
                cites.append(Cite(start, end, run[0].url, text[start:end], kind, how="link"))
            run = []
        if word.url:
            run.append(word)
        elif word.sup:
            # A superscript number without a link: a note resolved through the reference list.
            cites.extend(
                Cite(word.start, word.end, "", n, CiteKind.MARKER, how=f"superscript {n}") for n in numbers(word.text)
            )
    for s, e in find_urls(text):
        if not any(c.start <= s < c.end for c in cites):
            url = text[s:e]
            if "://" not in url and (broken := _BROKEN_SCHEME.search(text, 0, s)):
                # "https://" at a line's end and "www.…" on the next: one URL broken by the layout.
                s, url = broken.start(), broken.group(1) + url
            cites.append(Cite(s, e, url if "://" in url else "http://" + url, text[s:e], CiteKind.URL, how="bare URL"))
    return sorted(cites, key=lambda c: c.start)


_BROKEN_SCHEME = re.compile(r"(https?://)\s+$")


def read_pdf(data: bytes, name: str, settings: Settings | None = None) -> Brief:
    """Return the Brief a PDF holds; raises BriefError when it is encrypted, damaged or has no text."""
    settings = settings or Settings()
    doc = _open(data, name)
    warnings: list[str] = []
    blocks: list[Block] = []
    elsewhere: list[Elsewhere] = []
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
            # Links over no words (a logo, an image): listed when no claim cites them, never dropped unseen.
            for link in doc[n].get_links():
                if uri := usable_url(link.get("uri") or ""):
                    where = Location(kind=LocationKind.PAGE, index=n + 1)
                    elsewhere.append((uri, uri, "a link over no text on the page (a logo or an image)", where))
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
    _mark_endnotes(blocks)
    warnings.extend(link_numbered_references(blocks))
    warnings.extend(link_author_year(blocks))
    return build_brief(name, "pdf", blocks, settings, warnings=warnings, raw=data, elsewhere=elsewhere)


def _mark_endnotes(blocks: list[Block]) -> None:
    """Mark the endnote list that closes a PDF under no heading: titles, their URLs, numbers, never claims.

    ChatGPT's PDF export lists its sources after the text: each a page title (with small
    back-link numbers), then its URL as a line of its own. The list is the trailing run of such
    blocks that holds at least one URL line; it ends (reading backwards) at the first block
    that is a sentence of prose.
    """
    start = len(blocks)
    urls = 0
    for n in range(len(blocks) - 1, -1, -1):
        kind = _entry_part(blocks[n])
        if kind is None:
            break
        urls += kind
        start = n
    if urls:
        for block in blocks[start:]:
            block.kind = BlockKind.REFERENCE


def _entry_part(block: Block) -> int | None:
    """Return 1 for a URL line, 0 for a title or number line of an endnote list, None for prose."""
    text = block.text.strip()
    if any(c.kind != CiteKind.MARKER and c.end - c.start >= 0.8 * len(text) for c in block.cites):
        return 1  # a URL line, or a title linked whole
    rest = text
    for c in sorted(block.cites, key=lambda c: -c.start):
        if c.kind == CiteKind.MARKER:
            rest = rest[: c.start] + rest[c.end :]
    if re.fullmatch(r"[\d.\s]*", rest):
        return 0
    # A title: short, and not ended like a sentence (prose ends with a full stop).
    if len(rest.split()) <= 30 and not rest.rstrip().endswith((".", ":", "!", "?")):
        return 0
    return None
