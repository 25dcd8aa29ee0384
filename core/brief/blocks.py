"""The records every brief reader hands on: a ``Block`` of plain text and the ``Cite`` records in it.

Markdown, DOCX and PDF readers each produce blocks: a block's plain text, the citations found
in it (span of the link text, URL, link kind) and where it stands in the brief;
``core.brief.build`` turns them into claims. Records only: nothing here reads or decides.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Cite:
    """A citation inside a block: the span of its text, its URL and its kind.

    ``kind`` is "link" (text linked to a URL), "url" (a bare URL or autolink: the text is
    the URL), or "marker" (a footnote or numbered-reference marker). A marker whose
    reference holds no URL has ``url == ""``: its text still leaves ``figure_text``.
    ``quote`` is the reference definition's title or the footnote's quoted passage.
    """

    start: int
    end: int
    url: str
    anchor: str
    kind: str = "link"
    quote: str | None = None


@dataclass
class Block:
    """A paragraph-like unit of a brief, as a reader found it.

    ``kind``: "paragraph", "list", "table", "heading", "blockquote", "quote_line",
    "source_line", "code", "reference" (references section: not claims), "footnote".
    ``offsets`` maps each character of ``text`` to its position in the brief's source
    (Markdown), or is None when positions are relative to the block (DOCX, PDF page).
    """

    kind: str
    text: str
    cites: list[Cite] = field(default_factory=list)
    loc_kind: str = "paragraph"
    loc_index: int = 0
    offsets: list[int] | None = None
    base: int = 0  # added to block-relative positions (a PDF block's start in its page text)
    path: tuple[int, ...] = ()
