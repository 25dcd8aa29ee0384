"""Read a Word (.docx) brief: paragraphs and tables in order, hyperlinks, fields and notes.

Opened with python-docx and walked with lxml (``core.brief.docx_walk``), so that nothing the
editor sees is missed: hyperlinks, ``HYPERLINK`` field codes, footnotes and endnotes with their
links (a footnote's first link is the source of the sentence that carries the footnote mark; a
passage in quotation marks after that link is its quote), inserted text, content controls,
bare URLs typed as text, numbered references ("[1]") resolved from a references section.

Locations: ``Location("paragraph", i, start, end)`` where ``i`` is the paragraph's index in
python-docx's ``Document.paragraphs`` (the body's own paragraphs), so a comment can be
anchored there; ``start``/``end`` are offsets in that paragraph's text as
``Paragraph.text`` gives it (footnote marks add no characters; text inside
``w:fldSimple``, ``w:ins`` or ``w:smartTag``, which python-docx leaves out, is counted here,
so offsets after such text differ). Paragraphs inside content controls have no index (None).
Table cells: ``Location("table", t, start, end, path=(t, row, cell, paragraph in cell))``
with ``t`` the index in ``Document.tables``.

Refused: files that are not zip archives, zip archives without ``word/document.xml``,
archives that would unpack to more than ``Settings.max_docx_unpacked_bytes`` (zip bombs), and
XML beyond what a brief can need (``core.brief.docx_archive``: read streaming, never trusting
declared sizes, before python-docx parses it; progress and cancel through ``docx_archive.watched``).
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from core.brief.authoryear import link_author_year
from core.brief.blocks import Block, BlockKind, Cite, CiteKind
from core.brief.build import build_brief
from core.brief.docx_archive import checkpoint, slim_archive
from core.brief.docx_walk import Para, Walker, body_paragraphs, note_paragraphs, read_styles
from core.brief.inline import usable_url
from core.brief.refs import link_numbered_references, note_citation, superscript_marks
from core.brief.urls import find_urls
from core.errors import BriefError, size_text
from core.models import Brief, LocationKind
from core.settings import Settings

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
    return _open_counted(data, name, settings)[0]


def _open_counted(data: bytes, name: str, settings: Settings) -> tuple[Any, int]:
    """Return the opened document and its number of paragraphs; the XML is read bounded (docx_archive)."""
    check_zip(data, name, settings)
    import docx

    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        slim, paragraphs = slim_archive(archive, name, settings)
    try:
        return docx.Document(io.BytesIO(slim)), paragraphs
    except Exception as exc:  # python-docx raises many kinds on damaged parts; all mean the same here
        raise BriefError(
            f"{name} is a damaged Word document ({type(exc).__name__}: {str(exc)[:120]}). "
            "Open it in Word and save it again, or paste the text."
        ) from None


def _heading_ids(paras: list[Para]) -> dict[str, str]:
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
    styles = read_styles(doc)
    body = list(body_paragraphs(doc, Walker(doc.part.rels, styles)))
    notes = note_paragraphs(doc, styles)
    ids = _heading_ids(body)
    out: list[DocxLink] = []
    for n, p in enumerate(body):
        out.extend(_links_of(p, "body", n, ids))
    for (kind, _nid), paras in notes.items():
        for n, p in enumerate(paras):
            out.extend(_links_of(p, kind, n, ids))
    return out


def _links_of(p: Para, part: str, n: int, ids: dict[str, str]) -> list[DocxLink]:
    out = []
    for s, e, url in p.links:
        if url.startswith("#"):
            url = "#" + ids.get(url[1:], url[1:])
        out.append(DocxLink(url, p.text[s:e], part, n, s, e))
    return out


def _kind(p: Para) -> BlockKind:
    style = p.style.lower().replace(" ", "")
    if style.startswith(("heading", "title", "subtitle")):
        return BlockKind.HEADING
    if style in ("quote", "intensequote", "blocktext", "blockquote"):
        return BlockKind.BLOCKQUOTE
    return BlockKind.TABLE if p.loc_kind is LocationKind.TABLE else BlockKind.PARAGRAPH


def read_docx(data: bytes, name: str, settings: Settings | None = None) -> Brief:
    """Return the Brief a DOCX holds; raises BriefError for non-zip, bomb or damaged files."""
    settings = settings or Settings()
    doc, total = _open_counted(data, name, settings)
    styles = read_styles(doc)
    paras = list(_walked(body_paragraphs(doc, Walker(doc.part.rels, styles)), name, total))
    notes = note_paragraphs(doc, styles)
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
            cites.append(Cite(pos, pos, url, anchor, CiteKind.MARKER, quote))
        cites.extend(superscript_marks(p.text, p.superscripts, cites))
        blocks.append(
            Block(_kind(p), p.text, sorted(cites, key=lambda c: c.start), p.loc_kind, p.index, None, path=p.path)
        )
    warnings.extend(link_numbered_references(blocks))
    warnings.extend(link_author_year(blocks))
    return build_brief(name, "docx", blocks, settings, warnings=warnings, raw=data)


def _walked(paras: Iterator[Para], name: str, total: int) -> Iterator[Para]:
    """Yield the walk's paragraphs, reporting progress (and stopping when cancelled) every thousand."""
    for n, p in enumerate(paras, 1):
        if n % 1000 == 0:
            checkpoint(name, "paragraphs", n, max(n, total))
        yield p
    checkpoint(name, "claims", 0, 0)  # the walk is done; the claims are built next


def _cites(p: Para, offset: int) -> list[Cite]:
    """Return a paragraph's links and bare URLs as citations (internal #links are no source)."""
    cites = [
        Cite(
            s + offset,
            e + offset,
            usable_url(url),
            p.text[s:e],
            CiteKind.URL if p.text[s:e].strip() == url else CiteKind.LINK,
        )
        for s, e, url in p.links
        if usable_url(url)  # internal #links, relative files and mailto: are no sources
    ]
    for s, e in find_urls(p.text):
        if not any(c.start - offset <= s < c.end - offset for c in cites):
            url = p.text[s:e]
            cites.append(Cite(s + offset, e + offset, url if "://" in url else "http://" + url, url, CiteKind.URL))
    return cites
