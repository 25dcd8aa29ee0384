"""The text of a DOCX source as PageText: paragraphs and table cells in order, then footnotes and endnotes.

Reads the zip with ``zipfile`` and the WordprocessingML parts with lxml (entities never
resolved, no network, each part's size capped before it is read: a zip bomb stops at the cap).
Each paragraph is a block; a line break (``w:br``) starts a new block, as ``<br>`` does in HTML.
The cells of a table row are one line, a space between cells, as a browser reads an HTML table's
row: a quote may read along a row, never from one row into the next. A cell of several
paragraphs (or a nested table) still breaks at each of them. Runs are joined without adding
anything; tabs become spaces.
Deleted text of tracked changes, field instructions (``HYPERLINK "..."``) and the fallback copies
of ``mc:AlternateContent`` are not shown to a reader and are left out. A footnote or endnote
reference is written as the number Word shows ("1", "i") and listed in ``PageText.footnotes``.

It refuses old binary .doc files, other Office files (xlsx, pptx) and anything that is not a zip:
each is Unreadable with a reason. Headers and footers are not read.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib

import lxml.etree

from core.models import PageKind, PageText, Span, Unreadable
from core.settings import Settings

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
_SKIP = frozenset({f"{_W}delText", f"{_W}instrText", f"{_W}delInstrText", _MC_FALLBACK, f"{_W}pPr", f"{_W}rPr"})
#: Elements whose end ends a line: a paragraph, a table row, a cell that holds blocks of its own.
_BREAKS = frozenset({f"{_W}p", f"{_W}tr", f"{_W}tc"})
_OPEN, _OPEN_IN_CELL, _CLOSE, _CLOSE_BREAK = range(4)
_WHAT_TO_DO = "Open it in Word and save it as .docx again, or upload a PDF of it, or paste its text."
_SPACES = re.compile(r"[ \t\r\n]+")
_OTHER_OFFICE = {"xl/": "an Excel workbook", "ppt/": "a PowerPoint presentation"}


def _roman(n: int) -> str:
    out = ""
    for value, letters in ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"),
                           (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")):  # fmt: skip
        while n >= value:
            out += letters
            n -= value
    return out


class _Writer:
    """Blocks of text with footnote-marker spans, in document order; white space folded as it comes."""

    def __init__(self) -> None:
        self.blocks: list[str] = []
        self.current = ""
        self.markers: list[tuple[int, int, int]] = []  # (block index, start, end) within the block
        self.notes = {"footnote": 0, "endnote": 0}

    def text(self, s: str, marker: bool = False) -> None:
        s = _SPACES.sub(" ", s)
        if s.startswith(" ") and (not self.current or self.current.endswith(" ")):
            s = s[1:]
        if s:
            if marker:
                self.markers.append((len(self.blocks), len(self.current), len(self.current) + len(s)))
            self.current += s

    def brk(self) -> None:
        text = self.current.rstrip(" ")
        if text:
            self.blocks.append(text)
        else:
            self.markers = [m for m in self.markers if m[0] != len(self.blocks)]
        self.current = ""


def _walk(el: lxml.etree._Element, w: _Writer) -> None:
    """Write the visible text under ``el``: iterative, so that hostile nesting cannot exhaust the stack."""
    # Each entry is an element and what to do with it: open it, open it as the one paragraph of its
    # cell (its end ends only the cell), or close it with a line break or without.
    stack: list[tuple[lxml.etree._Element, int]] = [(el, _OPEN)]
    while stack:
        node, step = stack.pop()
        tag = node.tag
        if step >= _CLOSE:
            if step == _CLOSE_BREAK:
                w.brk()
            continue
        if not isinstance(tag, str) or tag in _SKIP:
            continue
        if tag == f"{_W}t":
            w.text(node.text or "")
        elif tag in (f"{_W}tab", f"{_W}ptab"):
            w.text(" ")
        elif tag in (f"{_W}br", f"{_W}cr"):
            w.brk()
        elif tag in (f"{_W}noBreakHyphen",):
            w.text("\u2011")
        elif tag in (f"{_W}footnoteReference", f"{_W}endnoteReference"):
            kind = "footnote" if tag == f"{_W}footnoteReference" else "endnote"
            w.notes[kind] += 1
            n = w.notes[kind]
            w.text(str(n) if kind == "footnote" else _roman(n), marker=True)
        elif tag == f"{_W}tc":
            w.text(" ")  # after the row's earlier cells; dropped at the start of a line
            paragraphs = [child for child in node if child.tag == f"{_W}p"]
            if len(paragraphs) == 1 and node.find(f"{_W}tbl") is None:
                stack.append((node, _CLOSE))
                stack.extend((child, _OPEN_IN_CELL if child is paragraphs[0] else _OPEN) for child in reversed(node))
                continue
            w.brk()  # a cell of blocks: its first paragraph starts a line, as a <p> in a <td> does
        stack.append((node, _CLOSE_BREAK if tag in _BREAKS and step == _OPEN else _CLOSE))
        stack.extend((child, _OPEN) for child in reversed(node))


def _read_part(zf: zipfile.ZipFile, name: str, limit: int) -> bytes | None:
    """Return a part's bytes, None when absent; raises ValueError above ``limit`` (a zip bomb)."""
    try:
        info = zf.getinfo(name)
    except KeyError:
        return None
    if info.file_size > limit:
        raise ValueError(name)
    with zf.open(info) as f:
        data = f.read(limit + 1)  # the header's size may lie: read at most one byte past the cap
    if len(data) > limit:
        raise ValueError(name)
    return data


def _parse(data: bytes) -> lxml.etree._Element:
    parser = lxml.etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    return lxml.etree.fromstring(data, parser=parser)


def extract_docx(body: bytes, settings: Settings | None = None) -> PageText | Unreadable:
    """Return the DOCX's text (body, then footnotes and endnotes), or Unreadable saying why not."""
    settings = settings or Settings()
    try:
        zf = zipfile.ZipFile(io.BytesIO(body))
    except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError):  # a damaged header names odd versions
        return Unreadable(f"The file is not a DOCX document: it is not a zip archive, or it is damaged. {_WHAT_TO_DO}")
    with zf:
        names = zf.namelist()
        if "word/document.xml" not in names:
            what = next((v for k, v in _OTHER_OFFICE.items() if any(n.startswith(k) for n in names)), "a zip archive")
            return Unreadable(f"The file is {what}, not a Word document: there is no text to match. {_WHAT_TO_DO}")
        try:
            parts = {
                name: _read_part(zf, f"word/{name}.xml", settings.docx_max_part_bytes)
                for name in ("document", "footnotes", "endnotes")
            }
        except ValueError as exc:
            return Unreadable(
                f"The DOCX file's part {exc} unpacks to more than {settings.docx_max_part_bytes // 1_000_000} MB "
                f"(a zip bomb, or not a real document), so it was not read. {_WHAT_TO_DO}"
            )
        except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError, zlib.error) as exc:
            return Unreadable(f"The DOCX file is damaged ({exc}). {_WHAT_TO_DO}")
    w = _Writer()
    try:
        doc = _parse(parts["document"] or b"")
        body_el = doc.find(f"{_W}body")
        _walk(body_el if body_el is not None else doc, w)
        w.brk()
        for name in ("footnotes", "endnotes"):
            data = parts[name]
            if not data:
                continue
            kind = name[:-1]
            number = 0
            for note in _parse(data).iter(f"{_W}{kind}"):
                if note.get(f"{_W}type") in ("separator", "continuationSeparator", "continuationNotice"):
                    continue
                number += 1
                w.text(str(number) if kind == "footnote" else _roman(number), marker=True)
                w.text(" ")
                _walk(note, w)
                w.brk()
    except lxml.etree.XMLSyntaxError as exc:
        return Unreadable(f"The DOCX file is damaged: its XML could not be read ({exc}). {_WHAT_TO_DO}")
    parts_out: list[str] = []
    blocks: list[Span] = []
    starts: list[int] = []
    pos = 0
    for text in w.blocks:
        start = pos + (1 if parts_out else 0)
        parts_out.append(text)
        starts.append(start)
        blocks.append((start, start + len(text)))
        pos = start + len(text)
    footnotes = tuple((starts[b] + s, starts[b] + e) for b, s, e in w.markers if b < len(starts))
    if not parts_out:
        return Unreadable(f"The DOCX document holds no text. {_WHAT_TO_DO}")
    return PageText(text="\n".join(parts_out), kind=PageKind.DOCX, blocks=tuple(blocks), footnotes=footnotes)
