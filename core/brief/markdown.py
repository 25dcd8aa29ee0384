"""Read a Markdown or plain-text brief into blocks of plain text with their citations.

Block level: paragraphs, list items, headings, blockquotes, fenced code (skipped), tables
(one block per cell), "Quote:"/"Evidence:" and "Source:" lines, reference definitions
(``[1]: url "title"``), footnote definitions (``[^1]: ...``) and a references section
("References", "Sources", "Notes", ...) in its common shapes: ``[1]: url``,
``1. Title. url``, ``[1] Title, url``.

Inline level (``core.brief.inline``): links of every Markdown shape, bare URLs, footnote
markers and numbered references, with every character of a block's plain text keeping its
position in the source, so a claim's Location is a span of the brief as written.

A footnote's quote is a passage in quotation marks *after* its URL (before the URL it is
usually the cited page's title) or a "Quote:" part. This module refuses to decide what is a
claim: ``core.brief.build`` does that for every format.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.brief.authoryear import link_author_year
from core.brief.blocks import Block, BlockKind, Cite
from core.brief.build import build_brief
from core.brief.citations import QUOTE_LABEL, SOURCE_LABEL
from core.brief.glued import add_glued_numbers
from core.brief.inline import InlineParser, Refs, ref_label
from core.brief.limits import check_size
from core.brief.refs import REF_HEADINGS, note_citation
from core.brief.urls import URL_START, doi_url, find_urls
from core.models import Brief, Location, LocationKind
from core.settings import Settings

_HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)\s*$")
_BREAK = re.compile(r"^ {0,3}([-*_])(?:\s*\1){2,}\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_REFDEF = re.compile(
    r"^ {0,3}\[([^\]^][^\]]*)\]:\s*<?([^\s>]+)>?"
    r"(?:\s+(?:\"([^\"]*)\"|'([^']*)'|\(([^)]*)\)|“([^”]*)”))?\s*$"
)
_FOOTDEF = re.compile(r"^ {0,3}\[\^([^\]]+)\]:\s?(.*)$")
_QUOTE_LINE = re.compile(r"^ {0,3}>\s?(.*)$")
_LIST = re.compile(r"^(\s*)([-*+•]|\d{1,5}[.)])\s+(.*)$")
_BRACKET_REF_LINE = re.compile(r"^ {0,3}\[(\d{1,5})\]\s+(.*)$")
_REFDEF_LINK = re.compile(r"^ {0,3}\[(\d{1,4})\]:\s+(.*\]\(.*)$")
_URL_LINE = re.compile(r"^\s*(?:[-*+•]\s+)?<?(?:https?://|www\.)\S+>?\s*$", re.IGNORECASE)
# "**References:** (Selected inline citations from the text)": a list's heading with a note on it.
_NOTED_HEADING = re.compile(r"^\s*([*_]{0,2}[^\W\d_][^:()\[\]]{2,30}?[*_]{0,2}:[*_]{0,2})\s*\([^()\[\]]*\)\s*$")
# "Official text: https://..." right under a paragraph: a source line under another label.
_LABELLED_URL = re.compile(r"^\s*[^\W\d_][\w’'-]*(?: [\w’'-]+){0,3}:\s*<?(?:https?://|www\.)\S+?>?\s*$", re.IGNORECASE)
_MOST_SOURCE_LINES = 200  # URL lines under one "Sources:" looked at; a longer run is a list, not a source line
_LIST_PREFIX = re.compile(r"^\s*[-*+•]\s+")
_STRUCTURE = re.compile(r"^(?:\s*(?:[-*+•]|\d{1,5}[.)])\s|#{1,6}\s|\[\^?[^\]]+\]:)")
_SOURCED = (BlockKind.PARAGRAPH, BlockKind.LIST, BlockKind.SOURCE_LINE)
_TABLE = re.compile(r"^\s*\|.*\|\s*$")
_INDENTED = re.compile(r"^(?: {4}|\t)")
# A language's name alone on its line: the label Gemini's export leaves above code that lost its fence.
_CODE_LABEL = re.compile(
    r"^\s*(?:python|javascript|typescript|bash|shell|sh|json|yaml|sql|html|css|java|c\+\+|c#|go|rust|ruby|php"
    r"|plaintext|code snippet)\s*$",
    re.IGNORECASE,
)
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}")


@dataclass
class _Raw:
    kind: BlockKind
    lines: list[tuple[str, int]] = field(default_factory=list)  # (content, source offset)
    label: str = ""
    in_refs: bool = False
    section: str = ""  # the heading of the reference list it stands in
    row: int | None = None  # a table cell's line: the row it belongs to

    def source(self) -> tuple[str, list[int]]:
        chars: list[str] = []
        pos: list[int] = []
        for n, (content, off) in enumerate(self.lines):
            if n:
                chars.append("\n")
                pos.append(max(off - 1, 0))
            chars.append(content)
            pos.extend(range(off, off + len(content)))
        return "".join(chars), pos


def _split_blocks(text: str) -> tuple[list[_Raw], list[_Raw], Refs]:
    """Return the brief's blocks, its footnote definitions and its reference definitions."""
    blocks: list[_Raw] = []
    notes: list[_Raw] = []
    refs = Refs()
    cur: _Raw | None = None
    fence: str | None = None
    in_refs = False
    section = ""
    header_cells = 0
    offset = 0
    code = False  # inside indented code that lost its fence
    following = text.split("\n")
    for number, line_m in enumerate(re.finditer(r"[^\n]*\n?", text)):
        raw_line = line_m.group(0)
        if not raw_line:
            break
        off = offset
        offset += len(raw_line)
        line = raw_line.rstrip("\n").rstrip("\r")
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            else:
                refs.elsewhere.extend((line[a:b], off + a, "a link inside a code block") for a, b in find_urls(line))
            continue
        if not line.strip():
            cur = None
            continue
        if _INDENTED.match(line) and (code or (cur is None and _code_may_start(blocks, line))):
            # Code that lost its fence (Gemini's export): indented lines after a blank line, not in a list.
            code = True
            refs.elsewhere.extend((line[a:b], off + a, "a link inside a code block") for a, b in find_urls(line))
            continue
        code = False
        if cur is None and _CODE_LABEL.match(line):
            # "Python" alone on its line above code: the label of a code block, no sentence.
            blocks.append(_Raw(BlockKind.CODE, [(line.strip(), off)]))
            continue
        if (q := _QUOTE_LINE.match(line)) and _STRUCTURE.match(q.group(1)):
            # A list, heading or reference entry inside "> ": read as what it is (Gemini quotes whole lists).
            line = line[: q.start(1)].replace(">", " ") + q.group(1)
        if m := _FENCE.match(line):
            fence, cur = m.group(1), None
            continue
        if m := _HEADING.match(line):
            cur = None
            blocks.append(_Raw(BlockKind.HEADING, [(m.group(2), off + m.start(2))]))
            in_refs = bool(REF_HEADINGS.match(_plain_words(m.group(2))))
            section = _plain_words(m.group(2))
            continue
        if cur is not None and cur.kind == BlockKind.PARAGRAPH and _SETEXT.match(line) and len(cur.lines) == 1:
            cur.kind = BlockKind.HEADING
            in_refs = bool(REF_HEADINGS.match(_plain_words(cur.lines[0][0])))
            section = _plain_words(cur.lines[0][0])
            cur = None
            continue
        if _BREAK.match(line):
            cur = None
            continue
        if m := _REFDEF.match(line):
            cur = None
            title = next((g for g in m.groups()[2:] if g is not None), None)
            label = ref_label(m.group(1))
            if label in refs.defs and refs.defs[label][0] != m.group(2):
                refs.warnings.append(_twice(label))
            refs.defs.setdefault(label, (m.group(2), title))
            refs.elsewhere.append((m.group(2), off + m.start(2), f"reference [{m.group(1)}], never cited"))
            continue
        if m := _REFDEF_LINK.match(line):
            # "[1]: [title](url)" (STORM): a numbered entry whose URL is a link.
            cur = _Raw(BlockKind.BRACKET_REF, [(m.group(2), off + m.start(2))], label=m.group(1), section="References")
            blocks.append(cur)
            continue
        if m := _FOOTDEF.match(line):
            cur = _Raw(BlockKind.FOOTNOTE, [(m.group(2), off + m.start(2))], label=ref_label(m.group(1)))
            notes.append(cur)
            continue
        if cur is not None and cur.kind == BlockKind.FOOTNOTE and (line.startswith(("  ", "\t")) or cur.lines):
            cur.lines.append((line.strip(), off + len(line) - len(line.lstrip())))
            continue
        sourced = cur is not None and cur.kind == BlockKind.SOURCE_LINE
        # Under a reference list's heading a URL line is an entry (or the rest of one), never a source line.
        listed = in_refs and not sourced
        if (
            not listed
            and (_URL_LINE.match(line) or (sourced and _LABELLED_URL.match(_LIST_PREFIX.sub("", line))))
            and (cur is not None and cur.kind in _SOURCED)
        ):
            # A URL alone on its line right under a sentence or item (GPT Researcher): that sentence's source.
            if cur.kind != BlockKind.SOURCE_LINE:
                cur = _Raw(BlockKind.SOURCE_LINE, in_refs=in_refs)
                blocks.append(cur)
            cur.lines.append((line.strip(), off + len(line) - len(line.lstrip())))
            continue
        if (
            SOURCE_LABEL.match(line.strip())
            and not SOURCE_LABEL.sub("", line.strip())
            and _urls_follow(following, number)
        ):
            # "Sources:" alone after a blank line, then URL lines (GPT Researcher): the source line of the
            # paragraph or item above, not a reference list's heading.
            cur = _Raw(BlockKind.SOURCE_LINE, [(line.strip(), off + len(line) - len(line.lstrip()))], in_refs=in_refs)
            blocks.append(cur)
            continue
        if (SOURCE_LABEL.match(line.strip()) or _LABELLED_URL.match(line)) and cur is not None and cur.kind in _SOURCED:
            # "Sources: FDA roundup; NEJM RSV trial" right under its text: the URLs follow on their own lines.
            cur = _Raw(BlockKind.SOURCE_LINE, [(line.strip(), off + len(line) - len(line.lstrip()))], in_refs=in_refs)
            blocks.append(cur)
            continue
        if (
            REF_HEADINGS.match(_plain_words(line))
            and len(line) < 40
            and (line.strip().startswith(("*", "_")) or line.rstrip().endswith(":"))
        ) or (cur is None and (n := _NOTED_HEADING.match(line)) and REF_HEADINGS.match(_plain_words(n.group(1)))):
            cur, in_refs = None, True  # "**References**" or "Sources:" alone on its line
            section = _plain_words(line).rstrip(":")
            blocks.append(_Raw(BlockKind.HEADING, [(line.strip(), off)]))
            continue
        if m := _QUOTE_LINE.match(line):
            content = m.group(1)
            if cur is None or cur.kind != BlockKind.BLOCKQUOTE:
                cur = _Raw(BlockKind.BLOCKQUOTE, in_refs=in_refs)
                blocks.append(cur)
            cur.lines.append((content, off + m.start(1)))
            continue
        if _TABLE.match(line):
            cur = None
            if _TABLE_SEP.match(line) and set(line.strip()) <= set("|:- "):
                for header in blocks[len(blocks) - header_cells :]:
                    header.kind = BlockKind.HEADING  # the row above the separator is the table's header
                header_cells = 0
                continue
            header_cells = 0
            for at, cell in _cells(line):
                if cell.strip():
                    start = off + at + len(cell) - len(cell.lstrip())
                    blocks.append(_Raw(BlockKind.TABLE, [(cell.strip(), start)], in_refs=in_refs, row=number))
                    header_cells += 1
            continue
        content, coff, label, kind = line.strip(), off + len(line) - len(line.lstrip()), "", BlockKind.PARAGRAPH
        if m := _LIST.match(line):
            content, coff, label, kind = m.group(3), off + m.start(3), m.group(2).rstrip(".)"), BlockKind.LIST
        elif m := _BRACKET_REF_LINE.match(line):
            content, coff, label, kind = m.group(2), off + m.start(2), m.group(1), BlockKind.BRACKET_REF
        if QUOTE_LABEL.match(content):
            kind = BlockKind.QUOTE_LINE
        elif (SOURCE_LABEL.match(content) and URL_START.search(content)) or (
            SOURCE_LABEL.match(content) and "](" in content
        ):
            kind = BlockKind.SOURCE_LINE
            if cur is None and _described(content):
                # "**Sources:** findings on X ([title](url)); ..." after a blank line: a list of sources
                # with descriptions, citing no sentence (a reference list, never a claim).
                kind, section = BlockKind.REFERENCE, "Sources"
        continuation = cur is not None and cur.kind in (
            BlockKind.PARAGRAPH,
            BlockKind.LIST,
            BlockKind.QUOTE_LINE,
            BlockKind.BLOCKQUOTE,
        )
        if kind == BlockKind.PARAGRAPH and continuation and cur is not None:
            cur.lines.append((content, coff))
            continue
        cur = _Raw(kind, [(content, coff)], label=label, in_refs=in_refs or kind == BlockKind.REFERENCE)
        cur.section = section if cur.in_refs else ""
        blocks.append(cur)
    return blocks, notes, refs


# A table cell: escaped characters, whole bracketed link texts ("[Frontiers | A Synaptic…]") and
# anything but "|"; so a "|" inside a link's brackets or escaped divides nothing.
_CELL = re.compile(r"(?:\\.|\[(?:\\.|[^\]\\])*\]|[^|\\\[]|\[)*")


def _cells(line: str) -> list[tuple[int, str]]:
    """Return (start, text) of a table row's cells, split at each "|" outside brackets."""
    cells, at = [], 0
    while at <= len(line):
        m = _CELL.match(line, at)
        end = m.end() if m else at
        cells.append((at, line[at:end]))
        at = end + 1
    return cells


def _code_may_start(blocks: list[_Raw], line: str) -> bool:
    """Return True when an indented line after a blank line is code: not a list's nested item or continuation."""
    if _STRUCTURE.match(line.strip() + " ") or _TABLE.match(line):
        return False
    last = blocks[-1] if blocks else None
    return last is None or last.kind not in (BlockKind.LIST, BlockKind.FOOTNOTE, BlockKind.REFERENCE)


def _urls_follow(lines: list[str], number: int) -> bool:
    """Return True when the lines after line ``number`` up to a blank line are each a URL alone."""
    after = []
    for line in lines[number + 1 : number + 1 + _MOST_SOURCE_LINES]:
        if not line.strip():
            break
        after.append(line)
    return bool(after) and all(_URL_LINE.match(line) for line in after)


def _twice(label: str) -> str:
    return (
        f"The reference list has two entries [{label}]; claims citing [{label}] use the first. Number each entry once."
    )


def _described(content: str) -> bool:
    """Return True when a "Sources:" line says more than its links: four words or more besides them."""
    rest = re.sub(r"\[[^\]]*\]\([^)]*\)|https?://\S+|\bwww\.\S+", " ", SOURCE_LABEL.sub("", content, count=1))
    return len(re.findall(r"[^\W\d_]{2,}", rest)) >= 4


def _plain_words(text: str) -> str:
    return re.sub(r"[*_#`]", "", text).strip()


def _first_url(cites: list[Cite]) -> str:
    """Return the first URL the citations give, "" when none does."""
    return next((c.url for c in cites if c.url), "")


def parse_markdown(
    text: str, name: str = "pasted brief", settings: Settings | None = None, *, fmt: str = "markdown", raw: bytes = b""
) -> Brief:
    """Return the Brief a Markdown or plain-text brief holds; raises BriefError for empty or oversized text.

    A brief without claims is no error: it gives a Brief with a warning.
    """
    settings = settings or Settings()
    text = text.lstrip("\ufeff")
    check_size(len(text), not text.strip(), f"The {name}", settings, pasted=True)
    raws, notes, refs = _split_blocks(text)
    inline = InlineParser(refs, settings)
    early_warnings = list(refs.warnings)
    # References in a references section, in their common shapes.
    for r in raws:
        if not (r.in_refs or r.kind == BlockKind.BRACKET_REF) or r.kind not in (
            BlockKind.LIST,
            BlockKind.PARAGRAPH,
            BlockKind.BRACKET_REF,
        ):
            continue
        s, pos = r.source()
        plain, _, cites = inline.parse(s, pos)
        url = _first_url(cites)
        label = r.label or (m.group(1) if (m := re.match(r"\[?(\d{1,5})[\].)]", plain)) else "")
        url = url or doi_url(plain)
        if url and label and label not in refs.defs:
            refs.defs[label] = (url, None)
            refs.sections[label] = r.section or "References"
            r.kind = BlockKind.REFERENCE
        elif url and label and r.kind == BlockKind.BRACKET_REF:
            if refs.defs[label][0] != url:
                early_warnings.append(_twice(label))
            r.kind = BlockKind.REFERENCE
        elif url and r.in_refs:
            r.kind = BlockKind.REFERENCE
        elif r.in_refs and label and r.kind == BlockKind.LIST:
            early_warnings.append(
                f"The reference list entry {label} (“{plain[:50]}”) holds no URL, so claims citing it have no "
                "source. Add the entry's URL or DOI."
            )
    refs.warnings = early_warnings
    # Footnote definitions: their URL, and a quote after the URL.
    for note in notes:
        s, pos = note.source()
        plain, _, cites = inline.parse(s, pos)
        url, anchor, quote = note_citation(plain, cites, settings.min_inline_quote_words)
        refs.notes[note.label] = (url, anchor, quote)
        if not url:
            refs.warnings.append(
                f"The footnote [^{note.label}] holds no URL, so the claims citing it have no source. "
                "Add the source's URL to the footnote."
            )
    blocks: list[Block] = []
    glue: dict[int, list[int]] = {}
    closes: dict[int, list[int]] = {}
    for index, r in enumerate(raws):
        s, pos = r.source()
        plain, opos, cites = inline.parse(s, pos)
        glue[index] = inline.glue
        closes[index] = inline.closes
        kind = BlockKind.PARAGRAPH if r.kind == BlockKind.BRACKET_REF else r.kind
        if r.in_refs and kind in (BlockKind.LIST, BlockKind.PARAGRAPH):
            kind = BlockKind.REFERENCE
        blocks.append(Block(kind, plain, cites, LocationKind.PARAGRAPH, index, opos, row=r.row))
    add_glued_numbers(blocks, {k: v[0] for k, v in refs.defs.items()}, refs.reading, glue, closes)
    warnings = list(dict.fromkeys([*refs.warnings, *link_author_year(blocks)]))
    elsewhere = [
        *(
            (url, url, why, Location(kind=LocationKind.PARAGRAPH, index=None, start=at, end=at + len(url)))
            for url, at, why in refs.elsewhere
        ),
        *((n[0], f"[^{label}]", f"footnote [^{label}], never cited", None) for label, n in refs.notes.items() if n[0]),
    ]
    return build_brief(
        name, fmt, blocks, settings, warnings=warnings, raw=raw or text.encode("utf-8"), elsewhere=elsewhere
    )
