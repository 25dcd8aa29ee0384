"""Read a Markdown or plain-text brief into blocks of plain text with their citations.

Block level: paragraphs, list items, headings, blockquotes, fenced code (skipped), tables
(one block per cell), "Quote:"/"Evidence:" and "Source:" lines, reference definitions
(``[1]: url "title"``), footnote definitions (``[^1]: ...``) and a references section
("References", "Sources", "Notes", ...) in its common shapes: ``[1]: url``,
``1. Title. url``, ``[1] Title, url``.

Inline level: inline links (``[text](url "title")``, balanced parentheses in the URL),
reference links (``[text][ref]``, ``[ref]``), autolinks (``<https://...>``), bare URLs,
``<a href>``, footnote markers (``[^1]``), numbered references (``[1]``, ``[1, 2]``),
emphasis and code markers removed, HTML entities decoded once. Every character of a
block's plain text keeps its position in the source, so a claim's Location is a span of
the brief as written.

A footnote's quote is a passage in quotation marks *after* its URL (before the URL it is
usually the cited page's title) or a "Quote:" part. This module refuses to decide what is a
claim: ``core.brief_build`` does that for every format.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from core.brief_build import (
    _NUM_REFS,
    _QUOTE_LABEL,
    _SOURCE_LABEL,
    REF_HEADINGS,
    Block,
    Cite,
    build_brief,
    note_citation,
    numbers,
)
from core.models import Brief
from core.sentences import _URL_START, url_end
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
_LIST = re.compile(r"^(\s*)([-*+•]|\d{1,3}[.)])\s+(.*)$")
_BRACKET_REF_LINE = re.compile(r"^ {0,3}\[(\d{1,3})\]\s+(.*)$")
_TABLE = re.compile(r"^\s*\|.*\|\s*$")
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}")
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_HTML_A = re.compile(r"<a\s[^>]*?href\s*=\s*([\"'])(.*?)\1[^>]*>(.*?)</a\s*>", re.IGNORECASE | re.DOTALL)
_HTML_TAG = re.compile(r"<!--.*?-->|</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>", re.DOTALL)
_SPECIAL = frozenset("\\`&<![*_~hHwW")
_NEXT_SPECIAL = re.compile(r"[\\`&<!\[*_~]|(?<![A-Za-z0-9])[hHwW]")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


@dataclass
class _Raw:
    kind: str
    lines: list[tuple[str, int]] = field(default_factory=list)  # (content, source offset)
    label: str = ""
    in_refs: bool = False

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


@dataclass
class _Refs:
    defs: dict[str, tuple[str, str | None]] = field(default_factory=dict)  # label -> (url, title)
    notes: dict[str, tuple[str, str, str | None]] = field(default_factory=dict)  # label -> (url, anchor, quote)
    warnings: list[str] = field(default_factory=list)


def _usable(url: str) -> str:
    """Return the URL a citation points at, or "" for links that are no source (#anchors, mailto:)."""
    url = html.unescape(url.strip())
    if url.lower().startswith("www."):
        return "http://" + url
    if not _SCHEME.match(url) or url.lower().startswith(("mailto:", "tel:")):
        return ""
    return url


def _split_blocks(text: str) -> tuple[list[_Raw], list[_Raw], _Refs]:
    """Return the brief's blocks, its footnote definitions and its reference definitions."""
    blocks: list[_Raw] = []
    notes: list[_Raw] = []
    refs = _Refs()
    cur: _Raw | None = None
    fence: str | None = None
    in_refs = False
    header_cells = 0
    offset = 0
    for line_m in re.finditer(r"[^\n]*\n?", text):
        raw_line = line_m.group(0)
        if not raw_line:
            break
        off = offset
        offset += len(raw_line)
        line = raw_line.rstrip("\n").rstrip("\r")
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            continue
        if not line.strip():
            cur = None
            continue
        if m := _FENCE.match(line):
            fence, cur = m.group(1), None
            continue
        if m := _HEADING.match(line):
            cur = None
            blocks.append(_Raw("heading", [(m.group(2), off + m.start(2))]))
            in_refs = bool(REF_HEADINGS.match(_plain_words(m.group(2))))
            continue
        if cur is not None and cur.kind == "paragraph" and _SETEXT.match(line) and len(cur.lines) == 1:
            cur.kind = "heading"
            in_refs = bool(REF_HEADINGS.match(_plain_words(cur.lines[0][0])))
            cur = None
            continue
        if _BREAK.match(line):
            cur = None
            continue
        if m := _REFDEF.match(line):
            cur = None
            title = next((g for g in m.groups()[2:] if g is not None), None)
            refs.defs[_label(m.group(1))] = (m.group(2), title)
            continue
        if m := _FOOTDEF.match(line):
            cur = _Raw("footnote", [(m.group(2), off + m.start(2))], label=_label(m.group(1)))
            notes.append(cur)
            continue
        if cur is not None and cur.kind == "footnote" and (line.startswith(("  ", "\t")) or cur.lines):
            cur.lines.append((line.strip(), off + len(line) - len(line.lstrip())))
            continue
        if (
            REF_HEADINGS.match(_plain_words(line))
            and len(line) < 40
            and (line.strip().startswith(("*", "_")) or line.rstrip().endswith(":"))
        ):
            cur, in_refs = None, True  # "**References**" or "Sources:" alone on its line
            blocks.append(_Raw("heading", [(line.strip(), off)]))
            continue
        if m := _QUOTE_LINE.match(line):
            content = m.group(1)
            if cur is None or cur.kind != "blockquote":
                cur = _Raw("blockquote", in_refs=in_refs)
                blocks.append(cur)
            cur.lines.append((content, off + m.start(1)))
            continue
        if _TABLE.match(line):
            cur = None
            if _TABLE_SEP.match(line) and set(line.strip()) <= set("|:- "):
                for header in blocks[len(blocks) - header_cells :]:
                    header.kind = "heading"  # the row above the separator is the table's header
                header_cells = 0
                continue
            header_cells = 0
            for cell in re.finditer(r"[^|]+", line):
                if cell.group(0).strip():
                    start = off + cell.start() + len(cell.group(0)) - len(cell.group(0).lstrip())
                    blocks.append(_Raw("table", [(cell.group(0).strip(), start)], in_refs=in_refs))
                    header_cells += 1
            continue
        content, coff, label, kind = line.strip(), off + len(line) - len(line.lstrip()), "", "paragraph"
        if m := _LIST.match(line):
            content, coff, label, kind = m.group(3), off + m.start(3), m.group(2).rstrip(".)"), "list"
        elif m := _BRACKET_REF_LINE.match(line):
            content, coff, label, kind = m.group(2), off + m.start(2), m.group(1), "bracket_ref"
        if _QUOTE_LABEL.match(content):
            kind = "quote_line"
        elif (_SOURCE_LABEL.match(content) and _URL_START.search(content)) or (
            _SOURCE_LABEL.match(content) and "](" in content
        ):
            kind = "source_line"
        continuation = cur is not None and cur.kind in ("paragraph", "list", "quote_line", "blockquote")
        if kind == "paragraph" and continuation and cur is not None:
            cur.lines.append((content, coff))
            continue
        cur = _Raw(kind, [(content, coff)], label=label, in_refs=in_refs)
        blocks.append(cur)
    return blocks, notes, refs


def _label(label: str) -> str:
    return " ".join(label.split()).lower()


def _plain_words(text: str) -> str:
    return re.sub(r"[*_#`]", "", text).strip()


class _Inline:
    """Markdown inline parser producing plain text, each character's source offset, and cites."""

    def __init__(self, refs: _Refs, settings: Settings) -> None:
        self.refs = refs
        self.settings = settings

    def parse(self, s: str, pos: list[int], *, links: bool = True) -> tuple[str, list[int], list[Cite]]:
        out: list[str] = []
        opos: list[int] = []
        cites: list[Cite] = []

        length = 0

        def emit(text: str, at: int | list[int]) -> None:
            nonlocal length
            out.append(text)
            length += len(text)
            opos.extend(at if isinstance(at, list) else [at] * len(text))

        def here() -> int:
            return length

        i = 0
        n = len(s)
        while i < n:
            ch = s[i]
            if ch not in _SPECIAL:
                # Plain text up to the next character that may start markup or a URL, in one step.
                m = _NEXT_SPECIAL.search(s, i + 1)
                j = m.start() if m else n
                emit(s[i:j], pos[i:j])
                i = j
                continue
            if ch == "\\" and i + 1 < n and not s[i + 1].isalnum() and not s[i + 1].isspace():
                emit(s[i + 1], pos[i + 1])
                i += 2
                continue
            if ch == "`":
                run = len(s[i:]) - len(s[i:].lstrip("`"))
                close = s.find("`" * run, i + run)
                if close > 0:
                    emit(s[i + run : close], pos[i + run : close])
                    i = close + run
                    continue
            if ch == "&" and (m := _ENTITY.match(s, i)):
                decoded = html.unescape(m.group(0))
                emit(decoded, pos[i])
                i = m.end()
                continue
            if ch == "<":
                if m := _HTML_A.match(s, i):
                    url = _usable(m.group(2))
                    inner_start = m.start(3)
                    text, tpos, _ = self.parse(m.group(3), pos[inner_start : m.end(3)], links=False)
                    start = here()
                    emit(text, tpos)
                    if url and links:
                        cites.append(Cite(start, here(), url, text, "link"))
                    i = m.end()
                    continue
                if (m := re.match(r"<((?:https?|ftp)://[^\s<>]+)>", s[i:])) is not None:
                    start = here()
                    emit(m.group(1), pos[i + 1 : i + 1 + len(m.group(1))])
                    if links:
                        cites.append(Cite(start, here(), m.group(1), m.group(1), "url"))
                    i += m.end()
                    continue
                if m := _HTML_TAG.match(s, i):
                    if m.group(0).lower().startswith("<br"):
                        emit(" ", pos[i])
                    i = m.end()
                    continue
            if ch == "!" and i + 1 < n and s[i + 1] == "[":
                parsed = self._link(s, i + 1)
                if parsed is not None and parsed[1] is not None:
                    i = parsed[0]  # images are dropped: an image is no citation and no text
                    continue
            if ch == "[" and links:
                if s.startswith("[^", i) and (close := s.find("]", i)) > 0:
                    label = _label(s[i + 2 : close])
                    note = self.refs.notes.get(label)
                    start = here()
                    emit(f"[{s[i + 2 : close]}]", [pos[i], *pos[i + 2 : close], pos[close]])
                    if note is None:
                        self.refs.warnings.append(
                            f"The footnote [^{s[i + 2 : close]}] is cited but never defined, so its claim has no "
                            "source. Add the footnote with its URL."
                        )
                        cites.append(Cite(start, here(), "", "", "marker"))
                    else:
                        cites.append(Cite(start, here(), note[0], note[1], "marker", note[2]))
                    i = close + 1
                    continue
                parsed = self._link(s, i)
                if parsed is not None:
                    end, dest, title, text_start, text_end = parsed
                    if dest is None:
                        dest, title = self.refs.defs.get(_label(s[text_start:text_end]), ("", None))
                    text, tpos, _ = self.parse(s[text_start:text_end], pos[text_start:text_end], links=False)
                    url = _usable(dest)
                    start = here()
                    emit(text, tpos)
                    if url:
                        cites.append(Cite(start, here(), url, text, "link", title or None))
                    i = end
                    continue
                if (m := _NUM_REFS.match(s, i)) and (i == 0 or not s[i - 1].isalnum()):
                    start = here()
                    emit(m.group(0), pos[i : m.end()])
                    for number in numbers(m.group(1)):
                        url, title = self.refs.defs.get(number, ("", None))
                        url = _usable(url) if url else ""
                        if not url:
                            self.refs.warnings.append(
                                f"The reference [{number}] is cited but not found in the references, so its "
                                "claim has no source. Add it to the references section with its URL."
                            )
                        cites.append(Cite(start, here(), url, m.group(0), "marker", title))
                    i = m.end()
                    continue
            if links and (ch in "hHwW") and (i == 0 or not s[i - 1].isalnum()) and _URL_START.match(s, i):
                end = url_end(s, i)
                if end > i + 8:
                    start = here()
                    url = html.unescape(s[i:end])
                    emit(url, (pos[i:end] + [pos[end - 1]] * len(url))[: len(url)])
                    cites.append(Cite(start, here(), _usable(url) or url, url, "url"))
                    i = end
                    continue
            if ch in "*_~":
                run = len(s[i:]) - len(s[i:].lstrip(ch))
                prev = s[i - 1] if i else " "
                nxt = s[i + run] if i + run < n else " "
                intraword = prev.isalnum() and nxt.isalnum()
                if (ch == "*" or not intraword) and not (prev.isspace() and nxt.isspace()) and (ch != "~" or run == 2):
                    i += run
                    continue
            emit(ch, pos[i])
            i += 1
        return "".join(out), opos, cites

    def _link(self, s: str, i: int) -> tuple[int, str | None, str | None, int, int] | None:
        """Parse a link at s[i] == "[": (end, destination or None for a reference, title, text span)."""
        depth, j = 0, i
        while j < len(s):
            if s[j] == "\\":
                j += 2
                continue
            if s[j] == "[":
                depth += 1
            elif s[j] == "]":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        else:
            return None
        text_start, text_end = i + 1, j
        k = j + 1
        if k < len(s) and s[k] == "(":
            parsed = _destination(s, k + 1)
            if parsed is None:
                return None
            end, dest, title = parsed
            return end, dest, title, text_start, text_end
        if k < len(s) and s[k] == "[" and (close := s.find("]", k)) > 0:
            label = _label(s[k + 1 : close]) or _label(s[text_start:text_end])
            if label in self.refs.defs:
                url, title = self.refs.defs[label]
                return close + 1, url, title, text_start, text_end
        label = _label(s[text_start:text_end])
        if label in self.refs.defs and not label.isdigit():
            return k, None, None, text_start, text_end
        return None


def _destination(s: str, k: int) -> tuple[int, str, str | None] | None:
    """Parse ``url "title")`` from s[k]; return (end after ")", url, title) or None."""
    while k < len(s) and s[k] in " \t\n":
        k += 1
    if k < len(s) and s[k] == "<":
        close = s.find(">", k)
        if close < 0:
            return None
        dest, k = s[k + 1 : close], close + 1
    else:
        start, depth = k, 0
        while k < len(s) and not s[k].isspace():
            if s[k] == "(":
                depth += 1
            elif s[k] == ")":
                if depth == 0:
                    break
                depth -= 1
            k += 1
        dest = s[start:k]
    while k < len(s) and s[k] in " \t\n":
        k += 1
    title = None
    if k < len(s) and s[k] in "\"'(“":
        closer = {'"': '"', "'": "'", "(": ")", "“": "”"}[s[k]]
        close = s.find(closer, k + 1)
        if close < 0:
            return None
        title, k = s[k + 1 : close], close + 1
        while k < len(s) and s[k] in " \t\n":
            k += 1
    if k >= len(s) or s[k] != ")":
        return None
    return k + 1, dest, title


def _first_url(text: str, cites: list[Cite]) -> tuple[str, str, int]:
    for c in cites:
        if c.url:
            return c.url, c.anchor, c.end
    return "", "", -1


def parse_markdown(
    text: str, name: str = "pasted brief", settings: Settings | None = None, *, fmt: str = "markdown", raw: bytes = b""
) -> Brief:
    """Return the Brief a Markdown or plain-text brief holds; a brief without claims gives a warning."""
    settings = settings or Settings()
    text = text.lstrip("\ufeff")
    raws, notes, refs = _split_blocks(text)
    inline = _Inline(refs, settings)
    early_warnings = list(refs.warnings)
    # References in a references section, in their common shapes.
    for r in raws:
        if not (r.in_refs or r.kind == "bracket_ref") or r.kind not in ("list", "paragraph", "bracket_ref"):
            continue
        s, pos = r.source()
        plain, _, cites = inline.parse(s, pos)
        url, _, _ = _first_url(plain, cites)
        label = r.label or (m.group(1) if (m := re.match(r"\[?(\d{1,3})[\].)]", plain)) else "")
        if url and label and label not in refs.defs:
            refs.defs[label] = (url, None)
            r.kind = "reference"
        elif url and r.in_refs:
            r.kind = "reference"
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
    for index, r in enumerate(raws):
        s, pos = r.source()
        plain, opos, cites = inline.parse(s, pos)
        kind = "paragraph" if r.kind == "bracket_ref" else r.kind
        if r.in_refs and kind in ("list", "paragraph"):
            kind = "reference"
        blocks.append(Block(kind, plain, cites, "paragraph", index, opos))
    warnings = list(dict.fromkeys(refs.warnings))
    return build_brief(name, fmt, blocks, settings, warnings=warnings, raw=raw or text.encode("utf-8"))
