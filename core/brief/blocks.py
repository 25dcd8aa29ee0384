"""The records every brief reader hands on: a ``Block`` of plain text and the ``Cite`` records in it.

Markdown, DOCX and PDF readers each produce blocks: a block's plain text, the citations found
in it (span of the link text, URL, link kind) and where it stands in the brief;
``core.brief.build`` turns them into claims. Records only: nothing here reads or decides.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from core.models import LocationKind


class BlockKind(enum.StrEnum):
    """What a block of a brief is; headings, code and references are never claims."""

    PARAGRAPH = "paragraph"
    LIST = "list"  # a list item
    TABLE = "table"  # a table cell
    HEADING = "heading"
    BLOCKQUOTE = "blockquote"
    QUOTE_LINE = "quote_line"  # a "Quote:" / "Evidence:" line
    SOURCE_LINE = "source_line"  # a "Source:" line
    CODE = "code"
    REFERENCE = "reference"  # an entry of a references section
    FOOTNOTE = "footnote"  # a footnote definition
    BRACKET_REF = "bracket_ref"  # a Markdown "[1] ..." line, until it is known to be a reference


class CiteKind(enum.StrEnum):
    """How a citation stands in its block."""

    LINK = "link"  # text linked to a URL
    URL = "url"  # a bare URL or autolink: the text is the URL
    MARKER = "marker"  # a footnote or numbered-reference marker


@dataclass(frozen=True)
class Cite:
    """A citation inside a block: the span of its text, its URL and its kind.

    ``kind`` says how it stands (``CiteKind``). A marker whose
    reference holds no URL has ``url == ""``: its text still leaves ``figure_text``.
    ``quote`` is the reference definition's title or the footnote's quoted passage; ``how``
    says in words how the citation was read (``Claim.citation``).
    """

    start: int
    end: int
    url: str
    anchor: str
    kind: CiteKind = CiteKind.LINK
    quote: str | None = None
    how: str = ""  # how the citation was read, for Claim.citation ("inline link", "superscript 2", ...)


@dataclass
class Block:
    """A paragraph-like unit of a brief, as a reader found it.

    ``kind`` says what the block is (``BlockKind``); ``loc_kind`` and ``loc_index`` where it
    stands in the brief (``loc_index`` None when unknown).
    ``offsets`` maps each character of ``text`` to its position in the brief's source
    (Markdown), or is None when positions are relative to the block (DOCX, PDF page).
    """

    kind: BlockKind
    text: str
    cites: list[Cite] = field(default_factory=list)
    loc_kind: LocationKind = LocationKind.PARAGRAPH
    loc_index: int | None = 0
    offsets: list[int] | None = None
    base: int = 0  # added to block-relative positions (a PDF block's start in its page text)
    path: tuple[int, ...] = ()
    row: int | None = None  # a table cell's row (its line in a Markdown brief): a row's notes stay in it
