"""The whole visible text of an HTML page, with block boundaries, footnote markers, hidden parts and main content.

``html_page_text`` parses the page as a browser does (core/extract/parse.py), walks the tree
once (iteratively: hostile nesting cannot exhaust the stack) and writes what a reader sees:
inline tags are joined without adding a space ("Doppler, who"), block elements (paragraph,
heading, list item, table row, div, br, ...) become block breaks ("\\n" in the text, spans in
``PageText.blocks``). The cells of a table row are one line, apart by a space, as a browser's
``innerText`` reads them (a tab there): a quote may read along a row ("1 Kyle Busch 5040"), never
from one row into the next; a cell holding paragraphs or divs still breaks at each of them.
Script, style, noscript, template and never-shown elements (screen-reader only,
``visibility:hidden``) are dropped; text hidden until a reader opens it (accordions,
tabs, "read more", ``<details>``: core/extract/visibility.py) is kept and its spans listed in
``PageText.hidden``, up to ``settings.max_hidden_parts`` parts. MathML keeps its presentation
text, never its TeX annotation; attribute values are never read into the text. Reference
markers ("[12]", "[citation needed]", "[edit]", a short superscript linking within the page
such as ``<sup><a href="#n22">22</a></sup>``) stay in the text and are listed in
``PageText.footnotes`` so that the matcher can skip them. readability-lxml only tells main
content from navigation (core/extract/main.py): it never cuts the text.

It refuses to decode bytes (core/extract/read.py does that) and to judge whether a page needs
JavaScript (also core/extract/read.py): it returns the text it sees, possibly empty.
"""

from __future__ import annotations

import re

import lxml.etree

from core.extract.joints import is_joint, word_joints
from core.extract.main import ELEMENT_ID, main_ids, merge
from core.extract.parse import Scripts, parse
from core.extract.visibility import HIDDEN, NEVER, closed_details, seen
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
     "section", "summary", "table", "tbody", "thead", "tfoot", "tr", "ul", "option", "frameset",
     "noframes", "listing", "plaintext", "xmp", "math", "tt-block"}
)  # fmt: skip
# The cells of a table row: apart from each other, but on the row's one line.
_CELL = frozenset({"td", "th"})
# MathML layouts whose children a reader sees apart (x² is "x 2", ½ is "1 2"), not glued together.
_MATH_SPACED = frozenset({"mfrac", "msup", "msub", "msubsup", "munder", "mover", "munderover", "mroot", "mtd"})
# Class names of reference markers and section-edit links (MediaWiki and common footnote plugins).
_FOOTNOTE_CLASSES = frozenset({"reference", "mw-ref", "mw-editsection", "footnote-ref", "fn-ref", "footnote-reference"})
_LINK_FOOTNOTE_CLASSES = _FOOTNOTE_CLASSES - {"reference"}
_NOTE_TAGS = frozenset({"sup", "span", "a"})
# A superscript that is nothing but a bracketed marker: "[1]", "[n 3]", "[a]", "[citation needed]".
_BRACKET_MARKER = re.compile(r"^\s*\[[^\[\]]{1,40}\]\s*$")
_NOTE_NUMBER = re.compile(r"^\s*[\w*†‡§]{1,4}\s*$")
_WS = re.compile(r"[ \t\n\r\f\v]+")
_WS_CHARS = " \t\n\r\f\v"
# What an element's closing entry on the walk's stack undoes.
_FOOTNOTE, _HIDDEN, _SHOWN, _SKIPPED = 1, 2, 4, 8


class _Writer:
    """Accumulates visible text with block breaks, footnote spans and per-segment owners."""

    def __init__(self, blank_is_space: bool = False) -> None:
        # Hidden parts: a run of no-break spaces alone (a COinS span) is no text of its own.
        self.blank_is_space = blank_is_space
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
        self.joints: list[int] = []  # where two texts of different elements meet inside a word

    def brk(self) -> None:
        self.pending_break = True

    def cell(self) -> None:
        """Start a table cell: white space after the row's text so far, no break (a block inside it breaks)."""
        if not self.block_empty:
            self.pending_space = True

    def line_break(self) -> None:
        if self.pending_line_break:
            self.pending_break = True
        elif not self.block_empty:
            self.pending_space = True
            self.pending_line_break = True

    def write(self, raw: str, owner: int | None) -> None:
        # White space runs fold to one space. Stripping first and folding only a core that holds
        # a run (rare) gives the regex's result at a third of its cost.
        core = raw.strip(_WS_CHARS)
        if not core or (self.blank_is_space and not core.strip()):
            if raw and not self.block_empty:
                self.pending_space = True
            return
        if "  " in core or "\n" in core or "\t" in core or "\r" in core or "\f" in core or "\v" in core:
            core = _WS.sub(" ", core)
        lead = raw[0] in _WS_CHARS
        if not self.block_empty:
            if self.pending_break:
                self.blocks.append((self.block_start, self.length))
                self.parts.append("\n")
                self.length += 1
                self.block_start = self.length
            elif self.pending_space or lead:
                self.parts.append(" ")
                self.length += 1
            elif is_joint(self.parts[-1][-1], core[0]) and not self.fn_depth and not self._after_footnote():
                self.joints.append(self.length)
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
        self.pending_space = raw[-1] in _WS_CHARS
        self.segments.append((start, self.length, owner))

    def _after_footnote(self) -> bool:
        return bool(self.footnotes) and self.footnotes[-1][1] == self.length

    def newline_break(self) -> None:
        if not self.block_empty:
            self.pending_break = True

    def finish(self) -> str:
        if not self.block_empty:
            self.blocks.append((self.block_start, self.length))
        return "".join(self.parts)


def _is_footnote(el: lxml.etree._Element, tag: str, cls: str | None) -> bool:
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


class _Flows:
    """The two texts a walk writes: what the page shows, and the parts it hides until opened.

    Hidden parts are written apart, each its own block, so that the shown text stays exactly what
    a reader sees ("The quick <span hidden>x</span>brown fox" shows "The quick brown fox");
    ``joined`` sets them after it. A class: the walk switches writer at each hidden element.
    """

    def __init__(self, max_hidden: int) -> None:
        self.shown = _Writer()
        self.hidden = _Writer(blank_is_space=True)
        self.stack = [self.shown]
        self.parts = 0  # outermost hidden parts met, read or not
        self.max_hidden = max_hidden

    def enter_hidden(self) -> bool:
        """Switch to the hidden flow; return False (and stay) when the page hid too many parts to read."""
        if self.stack[-1] is self.shown:
            self.parts += 1
            if self.parts > self.max_hidden:
                return False
            self.hidden.brk()
        self.stack.append(self.hidden)
        return True

    def joined(self) -> tuple[str, _Writer, int | None]:
        """Return the whole text, the shown writer holding the hidden spans after its own, and where hidden starts."""
        shown, hidden = self.shown.finish(), self.hidden.finish()
        if not hidden:
            return shown, self.shown, None
        at = len(shown) + 1 if shown else 0
        w = self.shown
        w.blocks += [(a + at, b + at) for a, b in self.hidden.blocks]
        w.footnotes += [(a + at, b + at) for a, b in self.hidden.footnotes]
        w.segments += [(a + at, b + at, owner) for a, b, owner in self.hidden.segments]
        w.joints += [j + at for j in self.hidden.joints]
        return (f"{shown}\n{hidden}" if shown else hidden), w, at


def _walk(root: lxml.etree._Element, flows: _Flows) -> None:
    """Write the text of ``root`` into the flows, each run owned by its element's number in document order."""
    # lxml's iterwalk goes through the tree in C (a third of a Python stack walk's time), without
    # recursion: hostile nesting cannot exhaust the stack. Each element's start pushes what its end
    # undoes and its number (the ELEMENT_ID html_page_text gave it: elements in document order);
    # tails belong to the parent's flow and are written at the end. The walk is a page's hottest
    # loop (a 1 MB page has 10,000 elements and 14,000 texts): rules that only some elements can
    # meet (a class, a style, a <sup>) are asked only of those.
    walker = lxml.etree.iterwalk(root, events=("start", "end", "comment", "pi"))
    undo: list[tuple[int, str]] = []
    owners: list[int] = []
    names: dict[str, str] = {}
    number = 0
    pre = 0
    math = 0
    w = flows.stack[-1]
    for event, el in walker:
        if event == "end":
            closing, tag = undo.pop()
            tail = el.tail
            if closing & _SKIPPED:
                if tail:
                    _write_text(tail, owners[-1] if owners else None, w, pre, math)
                continue
            owners.pop()
            if tag in _BLOCK:
                w.pending_break = True
                if tag == "pre":
                    pre -= 1
                elif tag == "math":
                    math -= 1
            elif tag in _CELL:
                w.cell()
            if math:
                parent = el.getparent()
                if parent is not None and parent.tag in _MATH_SPACED:
                    w.pending_space = True
            if closing:
                if closing & _FOOTNOTE:
                    w.fn_depth -= 1
                    if w.fn_depth == 0:
                        if w.fn_start is not None:
                            w.footnotes.append((w.fn_start, w.length))
                        w.fn_start = None
                if closing & (_HIDDEN | _SHOWN):
                    flows.stack.pop()
                    w = flows.stack[-1]
            if tail:
                if pre or math:
                    _write_text(tail, owners[-1] if owners else None, w, pre, math)
                elif tail.isspace() and _WS.fullmatch(tail):
                    # White space alone between tags: half of a page's texts. isspace (in C) leaves
                    # the regex only those, which str.strip with a set of characters reads ten times slower.
                    if not w.block_empty:
                        w.pending_space = True
                else:
                    w.write(tail, owners[-1] if owners else None)
            continue
        if event != "start":  # a comment or processing instruction: only its tail is text
            if el.tail and owners:
                w.write(el.tail, owners[-1])
            continue
        own = number
        number += 1
        name = names.get(el.tag)
        if name is None:
            name = names[el.tag] = el.tag.lower().rpartition(":")[2]
        tag = name
        cls = el.get("class")
        style = el.get("style")
        shows = NEVER if tag in _DROP or (tag in _SVG_INVISIBLE and own > 0) else seen(el, cls, style)
        skip = shows is NEVER
        flags = 0
        if (shows is HIDDEN and tag != "br") or (not skip and tag == "details" and closed_details(el)):
            skip = not flows.enter_hidden()
            if not skip:
                w = flows.stack[-1]
                flags |= _HIDDEN
        if skip or tag == "br":
            if tag == "br":
                # One <br> breaks a line inside its block (an address, a run-in heading); a reader
                # copying across it gets white space. Two in a row separate paragraphs.
                w.line_break()
            walker.skip_subtree()
            if len(el):
                number += sum(1 for _ in el.iter(tag=lxml.etree.Element)) - 1  # the numbers of the skipped
            undo.append((_SKIPPED, tag))
            continue
        if tag == "summary" and len(flows.stack) == 2:
            parent = el.getparent()
            if parent is not None and parent.tag == "details" and closed_details(parent):
                flows.stack.append(flows.shown)  # a closed <details> shows its summary in place
                w = flows.shown
                flags |= _SHOWN
        if tag in _BLOCK:
            w.pending_break = True
            if tag == "pre":  # both are blocks
                pre += 1
            elif tag == "math":
                math += 1
        elif tag in _CELL:
            w.cell()
        if (tag == "sup" or (cls and tag in _NOTE_TAGS)) and _is_footnote(el, tag, cls):
            w.fn_depth += 1
            flags |= _FOOTNOTE
        text = el.text
        if text:
            if pre or math:
                _write_text(text, own, w, pre, math)
            elif text.isspace() and _WS.fullmatch(text):
                if not w.block_empty:
                    w.pending_space = True
            else:
                w.write(text, own)
        undo.append((flags, tag))
        owners.append(own)


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


def _title(root: lxml.etree._Element) -> str:
    el = root.find(".//title")
    if el is None:
        el = root.find(".//h1")
    return _WS.sub(" ", _text_of(el)).strip()[:300] if el is not None else ""


def html_page_text(html: str, url: str = "", settings: Settings | None = None) -> tuple[PageText, Scripts]:
    """Return the page's PageText and what it says about needing JavaScript (for core/extract/read.py)."""
    settings = settings or Settings()
    root, warnings, scripts = parse(html, settings)
    if root is None:
        return PageText(text="", kind=PageKind.HTML, warnings=tuple(warnings)), scripts
    # Counting the nodes is a walk of its own: only a page small enough for readability needs it.
    find_main = len(html) <= settings.readability_max_chars and (
        sum(1 for _ in root.iter()) <= settings.readability_max_nodes
    )
    if find_main:
        # readability re-parses the tree: each element carries its number in document order there.
        for i, el in enumerate(root.iter(tag=lxml.etree.Element)):
            el.set(ELEMENT_ID, str(i))
    flows = _Flows(settings.max_hidden_parts)
    _walk(root, flows)
    text, w, hidden_at = flows.joined()
    main: tuple[Span, ...] = ()
    if find_main and text:
        ids = main_ids(root)
        if ids is not None:
            main = merge((s, e) for s, e, owner in w.segments if owner in ids)
            if main == ((0, len(text)),):
                main = ()
    elif text:
        warnings.append("The page is too large to tell its main content from navigation; all of it counts as main.")
    if flows.parts > settings.max_hidden_parts:
        warnings.append(
            f'The page hides {flows.parts:,} parts until a reader opens them (tabs, accordions, "read more"); '
            f"only the first {settings.max_hidden_parts:,} were read. A quote from a later hidden part will not "
            "be found: paste the text of the part you quote."
        )
    page = PageText(
        text=text,
        kind=PageKind.HTML,
        blocks=tuple(w.blocks),
        footnotes=tuple(w.footnotes),
        main=main,
        hidden=((hidden_at, len(text)),) if hidden_at is not None else (),
        line_ends=word_joints(text, w.joints, settings.max_word_joints),
        title=_title(root),
        warnings=tuple(warnings),
    )
    return page, scripts
