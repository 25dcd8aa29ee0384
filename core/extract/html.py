"""The whole visible text of an HTML page, with block boundaries, footnote markers and main content.

``extract_html`` walks the lxml tree once (iteratively: hostile nesting cannot exhaust the
stack) and writes what a reader sees: inline tags are joined without adding a space ("Doppler,
who"), block elements (paragraph, heading, list item, table cell, div, br, ...) become block
breaks ("\\n" in the text, spans in ``PageText.blocks``). Script, style, noscript, template and
hidden elements (``hidden``, ``display:none``, ``visibility:hidden``, screen-reader-only classes
such as ``sr-only``) are dropped; ``aria-hidden`` is kept (sighted readers see it). MathML keeps
its presentation text, never its TeX annotation; attribute values are never read into the text.
Reference markers ("[12]", "[citation needed]", "[edit]", a short superscript linking within the
page such as ``<sup><a href="#n22">22</a></sup>``) stay in the text and are listed in
``PageText.footnotes`` so that the matcher can skip them. readability-lxml only tells main
content from navigation (``PageText.main``): it never cuts the text.

It refuses to decode bytes (core/extract/read.py does that) and to judge whether a page needs
JavaScript (also core/extract/read.py): it returns the text it sees, possibly empty.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from typing import Any

import lxml.etree

from core.models import PageKind, PageText, Span
from core.settings import Settings

# Elements whose content a reader never sees.
_DROP = frozenset(
    {"script", "style", "noscript", "template", "head", "title", "meta", "link", "iframe", "object", "embed",
     "annotation", "annotation-xml", "datalist", "select", "input", "textarea", "param", "source", "track"}
)  # fmt: skip
# SVG children that are tooltips or metadata, not drawn text.
_SVG_INVISIBLE = frozenset({"desc", "metadata"})
# Elements that start and end a block (a quote may only cross their boundary at a sentence break).
_BLOCK = frozenset(
    {"address", "article", "aside", "blockquote", "body", "button", "caption", "center", "dd", "details",
     "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3",
     "h4", "h5", "h6", "header", "hgroup", "hr", "html", "legend", "li", "main", "menu", "nav", "ol", "p", "pre",
     "section", "summary", "table", "tbody", "thead", "tfoot", "tr", "td", "th", "ul", "option", "frameset",
     "noframes", "listing", "plaintext", "xmp", "math", "tt-block"}
)  # fmt: skip
# MathML layouts whose children a reader sees apart (x² is "x 2", ½ is "1 2"), not glued together.
_MATH_SPACED = frozenset({"mfrac", "msup", "msub", "msubsup", "munder", "mover", "munderover", "mroot", "mtd"})
# Text for screen readers only, moved off screen by the page's CSS: no sighted reader sees it.
_SCREEN_READER_ONLY = frozenset(
    {"sr-only", "visually-hidden", "visuallyhidden", "screen-reader-text", "element-invisible", "u-hidden"}
)
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
# MediaWiki hides MathML with display:none and shows an image of the same formula: its
# presentation MathML is the formula's visible text.
_VISIBLE_DESPITE_STYLE = re.compile(r"\bmwe-math-mathml")
# Class names of reference markers and section-edit links (MediaWiki and common footnote plugins).
_FOOTNOTE_CLASSES = frozenset({"reference", "mw-ref", "mw-editsection", "footnote-ref", "fn-ref", "footnote-reference"})
_LINK_FOOTNOTE_CLASSES = _FOOTNOTE_CLASSES - {"reference"}
# A superscript that is nothing but a bracketed marker: "[1]", "[n 3]", "[a]", "[citation needed]".
_BRACKET_MARKER = re.compile(r"^\s*\[[^\[\]]{1,40}\]\s*$")
_NOTE_NUMBER = re.compile(r"^\s*[\w*†‡§]{1,4}\s*$")
_WS = re.compile(r"[ \t\n\r\f\v]+")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")
_ID = "data-verbatim-id"

log = logging.getLogger(__name__)


class _Writer:
    """Accumulates visible text with block breaks, footnote spans and per-segment owners."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.length = 0
        self.blocks: list[Span] = []
        self.block_start = 0
        self.block_empty = True
        self.pending_space = False
        self.pending_break = False
        self.pending_line_break = False  # one <br> seen since the last text
        self.footnotes: list[Span] = []
        self.fn_depth = 0
        self.fn_start: int | None = None
        self.segments: list[tuple[int, int, int | None]] = []  # (start, end, owner element id or None)

    def brk(self) -> None:
        self.pending_break = True

    def line_break(self) -> None:
        if self.pending_line_break:
            self.pending_break = True
        elif not self.block_empty:
            self.pending_space = True
            self.pending_line_break = True

    def write(self, raw: str, owner: int | None, collapse: bool = True) -> None:
        text = _WS.sub(" ", raw) if collapse else raw
        lead = text.startswith(" ")
        core = text.strip(" ")
        if not core:
            if text and not self.block_empty:
                self.pending_space = True
            return
        if not self.block_empty:
            if self.pending_break:
                self.blocks.append((self.block_start, self.length))
                self.parts.append("\n")
                self.length += 1
                self.block_start = self.length
            elif self.pending_space or lead:
                self.parts.append(" ")
                self.length += 1
        elif self.pending_break or self.length == 0:
            self.block_start = self.length
        self.pending_break = False
        self.pending_line_break = False
        start = self.length
        if self.fn_depth and self.fn_start is None:
            self.fn_start = start
        self.parts.append(core)
        self.length += len(core)
        self.block_empty = False
        self.pending_space = text.endswith(" ")
        self.segments.append((start, self.length, owner))

    def newline_break(self) -> None:
        if not self.block_empty:
            self.pending_break = True

    def finish(self) -> str:
        if not self.block_empty:
            self.blocks.append((self.block_start, self.length))
        return "".join(self.parts)


def _is_hidden(el: lxml.etree._Element) -> bool:
    if el.get("hidden") is not None:
        return True
    cls = el.get("class")
    if cls and not _SCREEN_READER_ONLY.isdisjoint(cls.split()):
        return True
    style = el.get("style")
    if style and _HIDDEN_STYLE.search(style):
        return not _VISIBLE_DESPITE_STYLE.search(el.get("class") or "")
    return False


def _is_footnote(el: lxml.etree._Element, tag: str) -> bool:
    cls = el.get("class")
    if cls and tag in ("sup", "span", "a"):
        # "reference" marks a footnote only on <sup> (MediaWiki); Sphinx puts it on every link.
        wanted = _FOOTNOTE_CLASSES if tag == "sup" else _LINK_FOOTNOTE_CLASSES
        if not wanted.isdisjoint(cls.split()):
            return True
    if tag == "sup":
        text = _text_of(el)
        if _BRACKET_MARKER.match(text):
            return True
        # A short superscript linking within the page is a note reference: <sup><a href="#n22">22</a></sup>.
        return bool(_NOTE_NUMBER.match(text)) and any((a.get("href") or "").startswith("#") for a in el.iter("a"))
    return False


def _text_of(el: lxml.etree._Element) -> str:
    return "".join(t for t in el.itertext() if isinstance(t, str))


def _walk(root: lxml.etree._Element, w: _Writer) -> None:
    """Write the visible text of ``root`` into ``w``; elements carry their id in _ID."""
    # Stack entries: (element, closing?). Tails belong to the parent's flow and are written on close.
    stack: list[tuple[lxml.etree._Element, bool]] = [(root, False)]
    pre = 0
    math = 0
    while stack:
        el, closing = stack.pop()
        tag = el.tag
        if not isinstance(tag, str):  # comment, processing instruction
            parent = el.getparent()
            if el.tail and parent is not None:
                w.write(el.tail, _owner(parent))
            continue
        tag = tag.lower().rpartition(":")[2]
        if closing:
            if tag in _BLOCK:
                w.brk()
            if tag == "pre":
                pre -= 1
            if tag == "math":
                math -= 1
            if math:
                parent = el.getparent()
                if parent is not None and parent.tag in _MATH_SPACED:
                    w.pending_space = True
            if el.get(_FOOTNOTE_MARK) is not None:
                w.fn_depth -= 1
                if w.fn_depth == 0:
                    if w.fn_start is not None:
                        w.footnotes.append((w.fn_start, w.length))
                    w.fn_start = None
            _write_tail(el, w, pre, math)
            continue
        if tag in _DROP or (tag in _SVG_INVISIBLE and el.getparent() is not None) or _is_hidden(el):
            _write_tail(el, w, pre, math)
            continue
        if tag == "br":
            # One <br> breaks a line inside its block (an address, a run-in heading); a reader
            # copying across it gets white space. Two in a row separate paragraphs.
            w.line_break()
            _write_tail(el, w, pre, math)
            continue
        if tag in _BLOCK:
            w.brk()
        if tag == "pre":
            pre += 1
        if tag == "math":
            math += 1
        if _is_footnote(el, tag):
            el.set(_FOOTNOTE_MARK, "")
            w.fn_depth += 1
        if el.text:
            _write_text(el.text, _owner(el), w, pre, math)
        stack.append((el, True))
        stack.extend((child, False) for child in reversed(el))


_FOOTNOTE_MARK = "data-verbatim-fn"


def _write_tail(el: lxml.etree._Element, w: _Writer, pre: int, math: int) -> None:
    if el.tail:
        parent = el.getparent()
        _write_text(el.tail, _owner(parent) if parent is not None else None, w, pre, math)


def _owner(el: lxml.etree._Element) -> int | None:
    """Return the id an element was given for main-content ownership, None when it has none."""
    value = el.get(_ID)
    return int(value) if value is not None else None


def _write_text(text: str, owner: int | None, w: _Writer, pre: int, math: int) -> None:
    if math:
        # MathML source is indented for humans; only the tokens are drawn.
        if text.strip():
            w.write(text.strip(), owner)
        return
    if pre and "\n" in text:
        lines = text.split("\n")
        for i, line in enumerate(lines):
            if i:
                w.newline_break()
            w.write(line, owner)
        return
    w.write(text, owner)


def parse(html: str) -> tuple[lxml.etree._Element | None, list[str]]:
    """Return the parsed tree (None for a page with no markup at all) and warnings."""
    warnings: list[str] = []
    clean = _CONTROL.sub("", html)
    if not clean.strip():
        return None, warnings
    # Plain etree elements: lxml.html's element classes cost a third of the walk's time.
    parser = lxml.etree.HTMLParser(encoding="utf-8", huge_tree=True)
    try:
        root = lxml.etree.fromstring(clean.encode("utf-8", "replace"), parser=parser)
    except (lxml.etree.ParserError, lxml.etree.XMLSyntaxError, ValueError):
        return None, warnings
    if root is None:
        return None, warnings
    if any("Excessive depth" in e.message for e in parser.error_log):
        warnings.append(
            "The page nests its markup deeper than the HTML parser reads (2,048 levels); "
            "text after that point was not read. Paste the page's text if a quote is missing."
        )
    return root, warnings


def _title(root: lxml.etree._Element) -> str:
    el = root.find(".//title")
    if el is None:
        el = root.find(".//h1")
    return _WS.sub(" ", _text_of(el)).strip()[:300] if el is not None else ""


_RUN = re.compile(r"\s+")
_TABS = re.compile(r"\t|[ \t]{2,}")


def _fold_run(m: re.Match[str]) -> str:
    run = m.group()
    # readability first cuts runs of 255+ to 255 spaces (so a newline in them is lost), then folds.
    return " " if len(run) >= 255 else "\n" if "\n" in run else run


def fast_clean(text: str) -> str:
    """Return readability's ``clean(text)``, computed in linear time (same result on every string)."""
    # readability's own r"\s*\n\s*" retries from every white-space character of a long run: on a
    # 1 MB page it spends two thirds of its time there. One pass over the runs gives the same text.
    text = _RUN.sub(_fold_run, text)
    return _TABS.sub(" ", text).strip()


def _readability() -> Any:
    import readability  # imported lazily: only pages that are read need it
    import readability.readability as module

    # Deliberate, process-wide: readability looks ``clean`` up in its module on every call.
    module.clean = fast_clean
    return readability


def _landmark_ids(root: lxml.etree._Element) -> set[int] | None:
    """Return the ids of the elements inside the page's own main landmark(s), None when it has none.

    A page that marks its main content (``<main>``, ``role="main"``, as Sphinx and most CMSs do)
    says better than any heuristic what is navigation; readability picks a single section of a
    long documentation page and would call the rest navigation.
    """
    marked = [e for e in root.iter(tag=lxml.etree.Element) if e.tag == "main" or e.get("role") == "main"]
    ids = {int(v) for m in marked for e in m.iter(tag=lxml.etree.Element) if (v := e.get(_ID)) is not None}
    return ids or None


def _main_ids(root: lxml.etree._Element) -> set[int] | None:
    """Return the ids of the elements readability keeps as main content, None when it cannot tell."""
    landmark = _landmark_ids(root)
    if landmark is not None:
        return landmark
    readability = _readability()

    try:
        # readability needs lxml.html elements; it re-parses our tree, element ids included.
        doc = readability.Document(lxml.etree.tostring(root, encoding="unicode", method="html"))
        doc.summary(html_partial=True)
        kept = doc.html
    except Exception as exc:  # readability raises its own Unparseable and assorted bugs; main is a hint only
        log.info("readability could not find main content: %s", exc)
        return None
    ids = {int(v) for e in kept.iter() if isinstance(e.tag, str) and (v := e.get(_ID)) is not None}
    return ids or None


def _merge(spans: Iterator[Span], gap: int = 1) -> tuple[Span, ...]:
    out: list[list[int]] = []
    for s, e in spans:
        if out and s - out[-1][1] <= gap:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return tuple((s, e) for s, e in out)


def html_page_text(html: str, url: str = "", settings: Settings | None = None) -> tuple[PageText, str]:
    """Return the page's PageText and the text of its <noscript> elements (for the JavaScript check)."""
    settings = settings or Settings()
    root, warnings = parse(html)
    if root is None:
        return PageText(text="", kind=PageKind.HTML, warnings=tuple(warnings)), ""
    for i, el in enumerate(root.iter(tag=lxml.etree.Element)):
        el.set(_ID, str(i))
    noscript = " ".join(_WS.sub(" ", _text_of(n)).strip() for n in root.iter("noscript"))
    w = _Writer()
    _walk(root, w)
    text = w.finish()
    main: tuple[Span, ...] = ()
    nodes = sum(1 for _ in root.iter())
    if len(html) <= settings.readability_max_chars and nodes <= settings.readability_max_nodes and text:
        ids = _main_ids(root)
        if ids is not None:
            main = _merge((s, e) for s, e, owner in w.segments if owner in ids)
            if main == ((0, len(text)),):
                main = ()
    elif text:
        warnings.append("The page is too large to tell its main content from navigation; all of it counts as main.")
    page = PageText(
        text=text,
        kind=PageKind.HTML,
        blocks=tuple(w.blocks),
        footnotes=tuple(w.footnotes),
        main=main,
        title=_title(root),
        warnings=tuple(warnings),
    )
    return page, noscript
