"""Read a Word (.docx) brief: paragraphs and tables in order, hyperlinks, fields and notes.

Opened with python-docx, read with lxml on its XML, so that nothing the editor sees is
missed: hyperlinks (also a link split over several runs or several ``w:hyperlink``
elements with the same target), ``HYPERLINK`` field codes (``w:instrText`` between
``fldChar`` begin/separate/end, nested fields, empty fields, ``w:fldSimple``), footnotes
and endnotes with their links (a footnote's first link is the source of the sentence that
carries the footnote mark; a passage in quotation marks after that link is its quote),
inserted text, content controls, bare URLs typed as text, numbered references ("[1]")
resolved from a references section.

Locations: ``Location("paragraph", i, start, end)`` where ``i`` is the paragraph's index in
python-docx's ``Document.paragraphs`` (the body's own paragraphs), so a comment can be
anchored there; ``start``/``end`` are offsets in that paragraph's text as
``Paragraph.text`` gives it (footnote marks add no characters; text inside
``w:fldSimple``, ``w:ins`` or ``w:smartTag``, which python-docx leaves out, is counted here,
so offsets after such text differ). Paragraphs inside content controls have index -1.
Table cells: ``Location("table", t, start, end, path=(t, row, cell, paragraph in cell))``
with ``t`` the index in ``Document.tables``.

Refused: files that are not zip archives, zip archives without ``word/document.xml``, and
archives that would unpack to more than ``Settings.max_docx_unpacked_bytes`` (zip bombs).
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from core.brief.build import Block, Cite, build_brief
from core.brief.inline import usable_url
from core.brief.refs import link_numbered_references, note_citation
from core.errors import BriefError, size_text
from core.models import Brief
from core.settings import Settings
from core.text.sentences import find_urls

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_TEXT_TAGS = frozenset(f"{W}{t}" for t in ("t", "tab", "br", "cr", "noBreakHyphen", "ptab"))
_DESCEND = frozenset(f"{W}{t}" for t in ("ins", "smartTag", "sdt", "sdtContent", "customXml", "dir", "bdo", "moveTo"))
_ZIP_MAX_MEMBERS = 5000  # a Word document has dozens of parts; thousands means something else


@dataclass(frozen=True)
class DocxLink:
    """A hyperlink of a DOCX file: target URL (``#name`` for internal links), its text, where."""

    url: str
    anchor: str
    part: str  # "body", "footnote", "endnote"
    paragraph: int  # block number within the part, in reading order
    start: int = field(default=0, compare=False)
    end: int = field(default=0, compare=False)


@dataclass
class _Para:
    text: str
    links: list[tuple[int, int, str]]
    notes: list[tuple[int, str, str]]  # (position, "footnote"/"endnote", id)
    style: str
    loc_kind: str
    index: int
    path: tuple[int, ...] = ()
    bookmarks: list[str] = field(default_factory=list)


@dataclass
class _Field:
    instr: str = ""
    result: bool = False
    url: str = ""
    start: int = -1
    para: int = -1


def check_zip(data: bytes, name: str, settings: Settings) -> None:
    """Raise BriefError when the bytes are not a DOCX archive that is safe to unpack."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError):  # NotImplemented: unknown zip version
        raise BriefError(
            f"{name} is not a readable Word document: it is not a complete .docx (zip) archive, so it may be "
            "damaged, cut short or another format. Save it again from Word as .docx, or paste the text."
        ) from None
    with archive:
        infos = archive.infolist()
        # zipfile never inflates a member past its declared size (a lie ends in a CRC error), so the
        # declared sizes bound what opening the document can unpack.
        total = sum(i.file_size for i in infos)
        if total > settings.max_docx_unpacked_bytes or len(infos) > _ZIP_MAX_MEMBERS:
            raise BriefError(
                f"{name} would unpack to {size_text(total)} in {len(infos)} parts, more than a Word brief may "
                f"({size_text(settings.max_docx_unpacked_bytes)}): it is not an ordinary document (possibly a zip "
                "bomb) and was not opened. Save the brief again from Word, or paste the text."
            )
        if "word/document.xml" not in archive.namelist():
            raise BriefError(
                f"{name} is a zip archive but not a Word document (it has no word/document.xml). "
                "Upload the brief as .docx, PDF, Markdown or text."
            )


def _open(data: bytes, name: str, settings: Settings) -> Any:
    check_zip(data, name, settings)
    import docx

    try:
        return docx.Document(io.BytesIO(data))
    except Exception as exc:  # python-docx raises many kinds on damaged parts; all mean the same here
        raise BriefError(
            f"{name} is a damaged Word document ({type(exc).__name__}: {str(exc)[:120]}). "
            "Open it in Word and save it again, or paste the text."
        ) from None


class _Walker:
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

    def paragraph(self, p: Any, loc_kind: str, index: int, path: tuple[int, ...] = ()) -> _Para:
        self.count += 1
        out: list[str] = []
        links: list[tuple[int, int, str]] = []
        notes: list[tuple[int, str, str]] = []
        bookmarks: list[str] = []
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
        return _Para(
            "".join(out), _merge(links), notes, self.styles.get(style_id, style_id), loc_kind, index, path, bookmarks
        )


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


def _styles(doc: Any) -> dict[str, str]:
    names: dict[str, str] = {}
    try:
        for s in doc.styles:
            if s.style_id and s.name:
                names[s.style_id] = s.name
    except Exception:  # a broken styles part only costs us style names
        return names
    return names


def _body(doc: Any, walker: _Walker) -> Iterator[_Para]:
    """Yield the body's paragraphs in reading order, table cells included."""
    p_index = t_index = 0
    for child in doc.element.body:
        if child.tag == f"{W}p":
            yield walker.paragraph(child, "paragraph", p_index)
            p_index += 1
        elif child.tag == f"{W}tbl":
            yield from _table(child, walker, t_index)
            t_index += 1
        elif child.tag == f"{W}sdt":
            for p in child.iter(f"{W}p"):
                yield walker.paragraph(p, "paragraph", -1)


def _table(tbl: Any, walker: _Walker, t_index: int) -> Iterator[_Para]:
    for r, tr in enumerate(tbl.iter(f"{W}tr")):
        for c, tc in enumerate(tr.findall(f"{W}tc")):
            for n, p in enumerate(tc.iter(f"{W}p")):
                if p.getparent() is tc or p.getparent().tag == f"{W}sdtContent":
                    yield walker.paragraph(p, "table", t_index, (t_index, r, c, n))
        # nested tables are reached through tbl.iter: their rows come after their parent row


def _notes(doc: Any, styles: dict[str, str]) -> dict[tuple[str, str], list[_Para]]:
    """Return footnote and endnote paragraphs by (kind, id)."""
    from docx.oxml.parser import parse_xml

    found: dict[tuple[str, str], list[_Para]] = {}
    for rel in doc.part.rels.values():
        kind = (
            "footnote" if rel.reltype.endswith("/footnotes") else "endnote" if rel.reltype.endswith("/endnotes") else ""
        )
        if not kind or rel.is_external:
            continue
        part = rel.target_part
        root = parse_xml(part.blob)
        walker = _Walker(part.rels, styles)
        for note in root.findall(f"{W}{kind}"):
            if note.get(f"{W}type") in ("separator", "continuationSeparator", "continuationNotice"):
                continue
            nid = note.get(f"{W}id") or ""
            found[(kind, nid)] = [
                walker.paragraph(p, kind, int(nid) if nid.lstrip("-").isdigit() else 0) for p in note.iter(f"{W}p")
            ]
    return found


def _heading_ids(paras: list[_Para]) -> dict[str, str]:
    """Map bookmark names to the target a reader's link shows: a heading's id, or the first name at a spot."""
    ids: dict[str, str] = {}
    for p in paras:
        if not p.bookmarks:
            continue
        canonical = _pandoc_id(p.text) if p.style.lower().startswith(("heading", "title")) else p.bookmarks[0]
        for name in p.bookmarks:
            ids.setdefault(name, canonical)
    return ids


def _pandoc_id(text: str) -> str:
    ident = re.sub(r"[^\w\s.-]", "", text.lower()).strip()
    ident = re.sub(r"\s+", "-", ident)
    return re.sub(r"^[^a-z]+", "", ident) or "section"


def docx_links(data: bytes, name: str = "document.docx", settings: Settings | None = None) -> list[DocxLink]:
    """Return every hyperlink of a DOCX (body, tables, footnotes, endnotes) with its text; raises BriefError."""
    doc = _open(data, name, settings or Settings())
    styles = _styles(doc)
    body = list(_body(doc, _Walker(doc.part.rels, styles)))
    notes = _notes(doc, styles)
    ids = _heading_ids(body)
    out: list[DocxLink] = []
    for n, p in enumerate(body):
        out.extend(_links_of(p, "body", n, ids))
    for (kind, _nid), paras in notes.items():
        for n, p in enumerate(paras):
            out.extend(_links_of(p, kind, n, ids))
    return out


def _links_of(p: _Para, part: str, n: int, ids: dict[str, str]) -> list[DocxLink]:
    out = []
    for s, e, url in p.links:
        if url.startswith("#"):
            url = "#" + ids.get(url[1:], url[1:])
        out.append(DocxLink(url, p.text[s:e], part, n, s, e))
    return out


def _kind(p: _Para) -> str:
    style = p.style.lower().replace(" ", "")
    if style.startswith(("heading", "title", "subtitle")):
        return "heading"
    if style in ("quote", "intensequote", "blocktext", "blockquote"):
        return "blockquote"
    return "table" if p.loc_kind == "table" else "paragraph"


def read_docx(data: bytes, name: str, settings: Settings | None = None) -> Brief:
    """Return the Brief a DOCX holds; raises BriefError for non-zip, bomb or damaged files."""
    settings = settings or Settings()
    doc = _open(data, name, settings)
    styles = _styles(doc)
    paras = list(_body(doc, _Walker(doc.part.rels, styles)))
    notes = _notes(doc, styles)
    warnings: list[str] = []
    note_cites: dict[tuple[str, str], tuple[str, str, str | None]] = {}
    for key, nparas in notes.items():
        text = "\n".join(p.text for p in nparas)
        cites, offset = [], 0
        for p in nparas:
            cites.extend(_cites(p, offset))
            offset += len(p.text) + 1
        note_cites[key] = note_citation(text, cites, settings.min_inline_quote_words)
    blocks: list[Block] = []
    for p in paras:
        cites = _cites(p, 0)
        for pos, kind, nid in p.notes:
            url, anchor, quote = note_cites.get((kind, nid), ("", "", None))
            if not url:
                warnings.append(
                    f"The {kind} mark in “{p.text[:60]}” leads to a {kind} without a link, so its claim has no "
                    f"source. Put the source's link in the {kind}."
                )
            cites.append(Cite(pos, pos, url, anchor, "marker", quote))
        blocks.append(
            Block(_kind(p), p.text, sorted(cites, key=lambda c: c.start), p.loc_kind, p.index, None, path=p.path)
        )
    warnings.extend(link_numbered_references(blocks))
    return build_brief(name, "docx", blocks, settings, warnings=warnings, raw=data)


def _cites(p: _Para, offset: int) -> list[Cite]:
    """Return a paragraph's links and bare URLs as citations (internal #links are no source)."""
    cites = [
        Cite(s + offset, e + offset, usable_url(url), p.text[s:e], "url" if p.text[s:e].strip() == url else "link")
        for s, e, url in p.links
        if usable_url(url)  # internal #links, relative files and mailto: are no sources
    ]
    for s, e in find_urls(p.text):
        if not any(c.start - offset <= s < c.end - offset for c in cites):
            url = p.text[s:e]
            cites.append(Cite(s + offset, e + offset, url if "://" in url else "http://" + url, url, "url"))
    return cites
