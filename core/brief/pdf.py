"""Read a PDF brief with PyMuPDF: text in reading order, and link annotations on their words.

Each text block of a page becomes a block of the brief (its lines joined by a space, or
without one after a line-end hyphen, which is kept). A URI link annotation is mapped to
the words it covers: a word belongs to a link when most of it lies inside one of the
link's rectangles (its QuadPoints when the annotation has them, else its rectangle), so a
link that wraps over two lines, or comes as several annotations with one URI, is one
citation. Bare URLs typed in the text are citations too; "[1]" markers, superscript note
numbers (put back after their word by ``core.brief.pdf_notes``) and author–year labels are
resolved from a references section; the endnote list that closes ChatGPT's export is one.

Locations: ``Location("page", n, start, end)`` with ``n`` the 1-based page number and the
span in that page's text (its blocks joined by newlines, as built here).

Refused with BriefError: encrypted PDFs (a password is needed to open them), damaged or cut
short files PyMuPDF cannot open, and PDFs without any text layer (scans).
"""

from __future__ import annotations

import re
from typing import Any

from core.brief.authoryear import link_author_year
from core.brief.blocks import Block, BlockKind, Cite, CiteKind
from core.brief.build import build_brief
from core.brief.inline import usable_url
from core.brief.pdf_joins import join_split_sentences, url_goes_on
from core.brief.pdf_notes import (
    SUP_RATIO,
    SUP_TEXT,
    Raised,
    Word,
    body_height,
    glues,
    mark_endnotes,
    place_superscripts,
    split_raised,
)
from core.brief.refs import link_numbered_references, numbers
from core.brief.unused import Elsewhere
from core.brief.urls import find_urls
from core.errors import BriefError
from core.models import Brief, Location, LocationKind
from core.settings import Settings

_EDGE_LEFT = "(\"“‘'["
_EDGE_RIGHT = ".,;:!?)]\"”’'"
# Share of a word's area that must lie inside a link rectangle for the word to be part of the link.
_COVER = 0.5
# Type this much larger than the page's body text marks a heading (not a claim).
_HEADING_RATIO = 1.2
_SUPERSCRIPT = 1  # PyMuPDF's span flag for superscript
# Type at least this share of the body size is body text: the baseline a small number is raised above.
_BODY_SHARE = 0.9
# A small number raised this share of the body size above the baseline beside it is a note, not a subscript.
_RISE = 0.15


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


def _type_sizes(page: Any, flags: int, textpage: Any = None) -> tuple[set[int], list[Raised], set[tuple[int, int]]]:
    """Return the numbers of blocks set in type clearly larger than the body text, the raised note numbers,
    and the (block, line) of each line whose text ends in white space.

    A raised number is a span of digits with PyMuPDF's superscript flag or set clearly smaller than
    the body text (Gemini's export glues it to the word before, so the words API sees one word).
    """
    sizes: dict[int, float] = {}
    chars: list[tuple[float, int]] = []
    spans_all: list[dict[str, Any]] = []
    spaced: set[tuple[int, int]] = set()
    for block in page.get_text("dict", flags=flags, textpage=textpage)["blocks"]:
        for n, line in enumerate(block.get("lines", [])):
            if line["spans"] and line["spans"][-1]["text"][-1:].isspace():
                spaced.add((block["number"], n))
        spans = [s for line in block.get("lines", []) for s in line["spans"] if s["text"].strip()]
        if not spans:
            continue
        sizes[block["number"]] = min(s["size"] for s in spans)
        chars.extend((s["size"], len(s["text"])) for s in spans)
        spans_all.extend(spans)
    if not chars:
        return set(), [], spaced
    chars.sort()
    total, seen, body = sum(n for _, n in chars), 0, chars[0][0]
    for size, n in chars:
        seen += n
        if seen * 2 >= total:
            body = size
            break
    body_spans = [s for s in spans_all if s["size"] >= body * _BODY_SHARE]
    raised = [
        (tuple(s["bbox"]), s["text"].strip())
        for s in spans_all
        if SUP_TEXT.match(s["text"].strip())
        and (s["flags"] & _SUPERSCRIPT or (s["size"] < body * SUP_RATIO and _above_baseline(s, body_spans, body)))
    ]
    return {b for b, size in sizes.items() if size >= body * _HEADING_RATIO}, raised, spaced


def _above_baseline(span: dict[str, Any], body_spans: list[dict[str, Any]], body: float) -> bool:
    """Return True when a span in small type stands above the baseline of the body text beside it (a note number).

    Some exports set note numbers small and raised without PyMuPDF's superscript flag; a small
    number on or below the baseline ("CO₂", a subscript) is no note.
    """
    x0, y0, _x1, y1 = span["bbox"]
    base = span["origin"][1]
    for other in body_spans:
        ox0, oy0, ox1, oy1 = other["bbox"]
        near = ox0 - body * 2 <= x0 <= ox1 + body * 2
        if near and oy0 < y1 and y0 < oy1:
            return bool(other["origin"][1] - base >= body * _RISE)
    return False


def _page_blocks(doc: Any, page: Any, number: int, uris: list[str] | None = None) -> tuple[list[Block], str]:
    """Return the page's blocks and its text; the page's link URIs are added to ``uris`` (read once per page)."""
    links = []
    for link in page.get_links():
        uri = usable_url(link.get("uri") or "")
        if not uri:
            continue
        if uris is not None:
            uris.append(uri)
        link["_page_height"] = page.rect.height
        rects = _link_rects(doc, link)
        box = (min(r[0] for r in rects), min(r[1] for r in rects), max(r[2] for r in rects), max(r[3] for r in rects))
        links.append((uri, rects, box))
    # Words come in the order PyMuPDF reads the page: block, line, word.
    blocks: dict[int, list[list[Word]]] = {}
    lines: dict[tuple[int, int], list[Word]] = {}
    import pymupdf

    # Ligatures expanded ("ﬁ" -> "fi"): a claim's words are read as a reader reads them.
    flags = pymupdf.TEXTFLAGS_WORDS & ~pymupdf.TEXT_PRESERVE_LIGATURES
    textpage = page.get_textpage(flags=flags)  # read once: the words and the type sizes come from one pass
    headings, raised, spaced = _type_sizes(page, flags, textpage)
    raw = split_raised(page.get_text("words", flags=flags, textpage=textpage), raised)
    body = body_height(raw)
    sups: list[Word] = []
    keys: dict[int, tuple[int, int]] = {}  # each line's (block, line) numbers, by the line's identity
    for x0, y0, x1, y1, text, b, ln, is_raised, tail in raw:
        word = Word(text, (x0, y0, x1, y1), tail=tail)
        for uri, rects, box in links:
            # Most links are far from most words: their bounding box says so without measuring.
            if x1 <= box[0] or x0 >= box[2] or y1 <= box[1] or y0 >= box[3]:
                continue
            if any(_covered(word.rect, r) for r in rects):
                word.url = uri
                break
        if is_raised is True or (SUP_TEXT.match(text) and y1 - y0 < body * SUP_RATIO):
            word.sup = True
            sups.append(word)
            continue
        if (b, ln) not in lines:
            lines[(b, ln)] = []
            keys[id(lines[(b, ln)])] = (b, ln)
            blocks.setdefault(b, []).append(lines[(b, ln)])
        lines[(b, ln)].append(word)
    place_superscripts(sups, lines, blocks)
    out: list[Block] = []
    page_text: list[str] = []
    offset = 0
    for b in blocks:
        text = ""
        for n_line, words in enumerate(blocks[b]):
            if text and not text.endswith("-") and not _url_wraps(blocks[b][n_line - 1], words, keys, spaced):
                text += " "
            for n, word in enumerate(words):
                if n and not (word.sup and glues(words[n - 1])):
                    text += " "
                word.start = len(text)
                text += word.text
                word.end = len(text)
                text += word.tail
        kind = BlockKind.HEADING if b in headings and text and text[-1] not in '.!?:;"”' else BlockKind.PARAGRAPH
        block = Block(
            kind, text, _cites(text, [w for ws in blocks[b] for w in ws]), LocationKind.PAGE, number, None, base=offset
        )
        out.append(block)
        page_text.append(text)
        offset += len(text) + 1
    return out, "\n".join(page_text)


def _url_wraps(
    before: list[Word], after: list[Word], keys: dict[int, tuple[int, int]], spaced: set[tuple[int, int]]
) -> bool:
    """Return True when the line before ends in a URL that the line after goes on with (no space between)."""
    if not before or not after or before[-1].sup:
        return False
    last, first = before[-1], after[0]
    same = (last.url == first.url) if (last.url or first.url) else None
    return url_goes_on(last.text, keys.get(id(before)) in spaced, first.text, same)


def _cites(text: str, words: list[Word]) -> list[Cite]:
    """Return one citation per run of words under one link, then the bare URLs outside links."""
    cites: list[Cite] = []
    run: list[Word] = []
    for word in [*words, Word("", (0, 0, 0, 0))]:
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
            uris: list[str] = []
            try:
                page_blocks, _ = _page_blocks(doc, doc[n], n + 1, uris)
            except Exception as exc:  # one broken page should not lose the others
                warnings.append(f"{name}, page {n + 1} could not be read ({str(exc)[:80]}); its claims are missing.")
                continue
            blocks.extend(page_blocks)
            # Links over no words (a logo, an image): listed when no claim cites them, never dropped unseen.
            where = Location(kind=LocationKind.PAGE, index=n + 1)
            elsewhere.extend((uri, uri, "a link over no text on the page (a logo or an image)", where) for uri in uris)
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
    blocks = join_split_sentences(blocks)
    mark_endnotes(blocks)
    warnings.extend(link_numbered_references(blocks))
    warnings.extend(link_author_year(blocks))
    return build_brief(name, "pdf", blocks, settings, warnings=warnings, raw=data, elsewhere=elsewhere)
