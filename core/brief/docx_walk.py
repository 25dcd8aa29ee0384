"""Walk a Word document's XML: paragraphs in reading order, with their text, links and note marks.

Read with lxml on python-docx's parts, so that nothing the editor sees is missed: hyperlinks
(also a link split over several runs or several ``w:hyperlink`` elements with the same
target), ``HYPERLINK`` field codes (``w:instrText`` between ``fldChar`` begin/separate/end,
nested fields, empty fields, ``w:fldSimple``), footnote and endnote marks, inserted text,
content controls, table cells and the notes parts themselves. This module only walks the
XML; it refuses to open files or to decide what is a claim (``core.brief.docx`` does both).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from core.models import LocationKind

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_TEXT_TAGS = frozenset(f"{W}{t}" for t in ("t", "tab", "br", "cr", "noBreakHyphen", "ptab"))
_DESCEND = frozenset(f"{W}{t}" for t in ("ins", "smartTag", "sdt", "sdtContent", "customXml", "dir", "bdo", "moveTo"))


@dataclass
class Para:
    text: str
    links: list[tuple[int, int, str]]
    notes: list[tuple[int, str, str]]  # (position, "footnote"/"endnote", id)
    style: str
    loc_kind: LocationKind
    index: int | None  # None: inside a content control, not one of python-docx's paragraphs
    path: tuple[int, ...] = ()
    bookmarks: list[str] = field(default_factory=list)
    superscripts: list[tuple[int, int]] = field(default_factory=list)  # spans of text set in superscript runs


@dataclass
class _Field:
    instr: str = ""
    result: bool = False
    url: str = ""
    start: int = -1
    para: int = -1


class Walker:
    """Reads one part's paragraphs in order, keeping the state of fields across runs."""

    def __init__(self, rels: Any, styles: dict[str, str]) -> None:
        self.rels = rels
        self.styles = styles
        self.fields: list[_Field] = []
        self.count = 0

    def target(self, el: Any) -> str:
        rid = el.get(f"{R}id")
        anchor = el.get(f"{W}anchor") or ""
        url = ""
        if rid and rid in self.rels:
            rel = self.rels[rid]
            url = rel.target_ref if rel.is_external else ""
        if anchor:
            return f"{url}#{anchor}" if url else f"#{anchor}"
        return url

    def paragraph(self, p: Any, loc_kind: LocationKind, index: int | None, path: tuple[int, ...] = ()) -> Para:
        self.count += 1
        out: list[str] = []
        links: list[tuple[int, int, str]] = []
        notes: list[tuple[int, str, str]] = []
        bookmarks: list[str] = []
        sups: list[tuple[int, int]] = []
        length = 0

        def add(text: str) -> None:
            nonlocal length
            out.append(text)
            length += len(text)

        # A HYPERLINK field still open from an earlier paragraph goes on here.
        for f in self.fields:
            if f.url and f.result:
                f.start, f.para = 0, self.count

        def visible() -> bool:
            return all(f.result for f in self.fields)

        def walk(el: Any) -> None:
            for child in el:
                tag = child.tag
                if tag == f"{W}r":
                    run(child)
                elif tag == f"{W}hyperlink":
                    start = length
                    walk(child)
                    url = self.target(child)
                    if url and length > start:
                        links.append((start, length, url))
                elif tag == f"{W}fldSimple":
                    start = length
                    walk(child)
                    url = _hyperlink_instr(child.get(f"{W}instr") or "")
                    if url and length > start:
                        links.append((start, length, url))
                elif tag == f"{W}bookmarkStart":
                    name = child.get(f"{W}name") or ""
                    if name and name != "_GoBack":
                        bookmarks.append(name)
                elif tag in _DESCEND:
                    walk(child)

        def run(r: Any) -> None:
            start = length
            for child in r:
                tag = child.tag
                if tag in _TEXT_TAGS:
                    if visible():
                        add(str(child) if tag != f"{W}t" else (child.text or ""))
                elif tag == f"{W}fldChar":
                    kind = child.get(f"{W}fldCharType")
                    if kind == "begin":
                        self.fields.append(_Field())
                    elif kind == "separate" and self.fields:
                        f = self.fields[-1]
                        f.result = True
                        f.url = _hyperlink_instr(f.instr)
                        f.start, f.para = length, self.count
                    elif kind == "end" and self.fields:
                        f = self.fields.pop()
                        if f.url and f.para == self.count and length > f.start:
                            links.append((f.start, length, f.url))
                elif tag == f"{W}instrText":
                    if self.fields and not self.fields[-1].result:
                        self.fields[-1].instr += child.text or ""
                elif tag in (f"{W}footnoteReference", f"{W}endnoteReference"):
                    kind = "footnote" if "footnote" in tag else "endnote"
                    notes.append((length, kind, child.get(f"{W}id") or ""))
            if length > start and _superscript(r, self.styles):
                if sups and sups[-1][1] == start:
                    sups[-1] = (sups[-1][0], length)  # one number split over two runs
                else:
                    sups.append((start, length))

        walk(p)
        for f in self.fields:
            if f.url and f.result and f.para == self.count and length > f.start:
                links.append((f.start, length, f.url))
        style_id = ""
        ppr = p.find(f"{W}pPr")
        if ppr is not None and (ps := ppr.find(f"{W}pStyle")) is not None:
            style_id = ps.get(f"{W}val") or ""
        if ppr is not None and ppr.find(f"{W}outlineLvl") is not None:
            style_id = style_id or "Heading"
        return Para(
            "".join(out),
            _merge(links),
            notes,
            self.styles.get(style_id, style_id),
            loc_kind,
            index,
            path,
            bookmarks,
            sups,
        )


def _superscript(r: Any, styles: dict[str, str]) -> bool:
    """Return True when a run is set in superscript: its own vertAlign, or a character style named so."""
    rpr = r.find(f"{W}rPr")
    if rpr is None:
        return False
    va = rpr.find(f"{W}vertAlign")
    if va is not None:
        return bool(va.get(f"{W}val") == "superscript")
    rstyle = rpr.find(f"{W}rStyle")
    name = styles.get(rstyle.get(f"{W}val") or "", "") if rstyle is not None else ""
    return "superscript" in name.lower() or "endnote reference" in name.lower()


def _hyperlink_instr(instr: str) -> str:
    """Return the target of a HYPERLINK field instruction ("" for other fields)."""
    tokens = re.findall(r'"[^"]*"|\S+', instr.strip())
    if not tokens or tokens[0].upper() != "HYPERLINK":
        return ""
    url, anchor = "", ""
    i = 1
    while i < len(tokens):
        tok = tokens[i]
        if tok.startswith("\\"):
            if tok.lower() == "\\l" and i + 1 < len(tokens):
                anchor = tokens[i + 1].strip('"')
            i += 2 if tok.lower() in ("\\l", "\\o", "\\t", "\\m") else 1
            continue
        if not url:
            url = tok.strip('"')
        i += 1
    if anchor:
        return f"{url}#{anchor}" if url else f"#{anchor}"
    return url


def _merge(links: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Join touching links with one target (Word writes one link as several)."""
    out: list[tuple[int, int, str]] = []
    for s, e, url in sorted(links):
        if out and out[-1][2] == url and out[-1][1] >= s:
            out[-1] = (out[-1][0], max(e, out[-1][1]), url)
        elif not any(os <= s and e <= oe for os, oe, _ in out):
            out.append((s, e, url))
    return out


def read_styles(doc: Any) -> dict[str, str]:
    names: dict[str, str] = {}
    try:
        for s in doc.styles:
            if s.style_id and s.name:
                names[s.style_id] = s.name
    except Exception:  # a broken styles part only costs us style names
        return names
    return names


def body_paragraphs(doc: Any, walker: Walker) -> Iterator[Para]:
    """Yield the body's paragraphs in reading order, table cells included."""
    p_index = t_index = 0
    for child in doc.element.body:
        if child.tag == f"{W}p":
            yield walker.paragraph(child, LocationKind.PARAGRAPH, p_index)
            p_index += 1
        elif child.tag == f"{W}tbl":
            yield from _table(child, walker, t_index)
            t_index += 1
        elif child.tag == f"{W}sdt":
            for p in child.iter(f"{W}p"):
                yield walker.paragraph(p, LocationKind.PARAGRAPH, None)  # not one of python-docx's paragraphs


def _table(tbl: Any, walker: Walker, t_index: int) -> Iterator[Para]:
    for r, tr in enumerate(tbl.iter(f"{W}tr")):
        for c, tc in enumerate(tr.findall(f"{W}tc")):
            for n, p in enumerate(tc.iter(f"{W}p")):
                if p.getparent() is tc or p.getparent().tag == f"{W}sdtContent":
                    yield walker.paragraph(p, LocationKind.TABLE, t_index, (t_index, r, c, n))
        # nested tables are reached through tbl.iter: their rows come after their parent row


def note_paragraphs(doc: Any, styles: dict[str, str]) -> dict[tuple[str, str], list[Para]]:
    """Return footnote and endnote paragraphs by (kind, id)."""
    from docx.oxml.parser import parse_xml

    found: dict[tuple[str, str], list[Para]] = {}
    for rel in doc.part.rels.values():
        kind = (
            "footnote" if rel.reltype.endswith("/footnotes") else "endnote" if rel.reltype.endswith("/endnotes") else ""
        )
        if not kind or rel.is_external:
            continue
        part = rel.target_part
        root = parse_xml(part.blob)
        walker = Walker(part.rels, styles)
        for note in root.findall(f"{W}{kind}"):
            if note.get(f"{W}type") in ("separator", "continuationSeparator", "continuationNotice"):
                continue
            nid = note.get(f"{W}id") or ""
            found[(kind, nid)] = [
                walker.paragraph(p, LocationKind(kind), int(nid) if nid.lstrip("-").isdigit() else 0)
                for p in note.iter(f"{W}p")
            ]
    return found
