"""The Markdown inline parser: plain text with each character's source offset, and citations.

Inline links (``[text](url "title")``, balanced parentheses in the URL, ``<url>``),
reference links (``[text][ref]``, ``[text][]``, ``[ref]``), autolinks, bare URLs,
``<a href>``, footnote markers (``[^1]``), numbered references (``[1]``, ``[1, 2]``,
``[1-3]``); emphasis and code markers removed, images dropped, other HTML tags dropped,
HTML entities decoded once. Links that are no source (``#anchor``, relative paths,
``mailto:``) keep their text and give no citation.

It reads one block at a time and refuses to see blocks: ``core.brief.markdown`` does that.
"""

from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass, field

from core.brief.blocks import Cite, CiteKind
from core.brief.refs import NUM_REFS, missing_entry, numbers
from core.brief.urls import URL_START, url_end
from core.settings import Settings

_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_HTML_A = re.compile(r"<a\s[^>]*?href\s*=\s*([\"'])(.*?)\1[^>]*>(.*?)</a\s*>", re.IGNORECASE | re.DOTALL)
_HTML_TAG = re.compile(r"<!--.*?-->|</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>", re.DOTALL)
_SPECIAL = frozenset("\\`&<![*_~hHwW")
_NEXT_SPECIAL = re.compile(r"[\\`&<!\[*_~]|(?<![A-Za-z0-9])[hHwW]")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


@dataclass
class Refs:
    defs: dict[str, tuple[str, str | None]] = field(default_factory=dict)  # label -> (url, title)
    notes: dict[str, tuple[str, str, str | None]] = field(default_factory=dict)  # label -> (url, anchor, quote)
    warnings: list[str] = field(default_factory=list)
    sections: dict[str, str] = field(default_factory=dict)  # label -> the heading of the list it stands in
    elsewhere: list[tuple[str, int, str]] = field(default_factory=list)  # links outside blocks: (url, offset, why)

    def reading(self, number: str) -> str:
        """Return how a marker resolved through entry ``number`` was read: 'reference [3] in "Works cited"'."""
        section = self.sections.get(number)
        return f"reference [{number}] in “{section}”" if section else f"reference [{number}]"


def usable_url(url: str) -> str:
    """Return the URL a citation points at, or "" for links that are no source (#anchors, mailto:)."""
    url = html.unescape(url.strip())
    if url.lower().startswith("www."):
        return "http://" + url
    if not _SCHEME.match(url) or url.lower().startswith(("mailto:", "tel:")):
        return ""
    return url


def ref_label(label: str) -> str:
    return " ".join(label.split()).lower()


class InlineParser:
    """Markdown inline parser producing plain text, each character's source offset, and cites."""

    def __init__(self, refs: Refs, settings: Settings) -> None:
        self.refs = refs
        self.settings = settings
        self.glue: list[int] = []  # where the last block's dropped images stood: a note number may be glued there
        self.closes: list[int] = []  # where the last block's emphasis closed ("**Tool X** 1"): a note may follow

    def parse(self, s: str, pos: list[int], *, links: bool = True) -> tuple[str, list[int], list[Cite]]:
        out: list[str] = []
        opos: list[int] = []
        cites: list[Cite] = []
        if links:
            self.glue = []
            self.closes = []

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
                    url = usable_url(m.group(2))
                    inner_start = m.start(3)
                    text, tpos, _ = self.parse(m.group(3), pos[inner_start : m.end(3)], links=False)
                    start = here()
                    emit(text, tpos)
                    if url and links:
                        cites.append(Cite(start, here(), url, text, CiteKind.LINK, how="inline link"))
                    i = m.end()
                    continue
                if (m := re.match(r"<((?:https?|ftp)://[^\s<>]+)>", s[i:])) is not None:
                    start = here()
                    emit(m.group(1), pos[i + 1 : i + 1 + len(m.group(1))])
                    if links:
                        cites.append(Cite(start, here(), m.group(1), m.group(1), CiteKind.URL, how="autolink"))
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
                    if links:
                        self.glue.append(here())
                    continue
            if ch == "[" and links:
                if s.startswith("[^", i) and (close := s.find("]", i)) > 0:
                    label = ref_label(s[i + 2 : close])
                    note = self.refs.notes.get(label)
                    start = here()
                    emit(f"[{s[i + 2 : close]}]", [pos[i], *pos[i + 2 : close], pos[close]])
                    if note is None:
                        self.refs.warnings.append(
                            f"The footnote [^{s[i + 2 : close]}] is cited but never defined, so its claim has no "
                            "source. Add the footnote with its URL."
                        )
                        cites.append(Cite(start, here(), "", "", CiteKind.MARKER, how=f"footnote [^{label}]"))
                    else:
                        how = f"footnote [^{label}]"
                        cites.append(Cite(start, here(), note[0], note[1], CiteKind.MARKER, note[2], how))
                    i = close + 1
                    continue
                parsed = self._link(s, i)
                if parsed is not None:
                    end, dest, title, text_start, text_end = parsed
                    if dest is None:
                        dest, title = self.refs.defs.get(ref_label(s[text_start:text_end]), ("", None))
                    text, tpos, _ = self.parse(s[text_start:text_end], pos[text_start:text_end], links=False)
                    url = usable_url(dest)
                    start = here()
                    emit(text, tpos)
                    if url:
                        cites.append(Cite(start, here(), url, text, CiteKind.LINK, title or None, "inline link"))
                    i = end
                    continue
                if (m := NUM_REFS.match(s, i)) and (
                    i == 0 or not s[i - 1].isalnum() or all(x in self.refs.defs for x in numbers(m.group(1)))
                ):
                    start = here()
                    emit(m.group(0), pos[i : m.end()])
                    for number in numbers(m.group(1)):
                        url, title = self.refs.defs.get(number, ("", None))
                        url = usable_url(url) if url else ""
                        if not url:
                            self.refs.warnings.append(missing_entry(number, s[max(0, i - 60) : m.end()]))
                        cites.append(
                            Cite(start, here(), url, m.group(0), CiteKind.MARKER, title, self.refs.reading(number))
                        )
                    i = m.end()
                    continue
            if links and (ch in "hHwW") and (i == 0 or not s[i - 1].isalnum()) and URL_START.match(s, i):
                end = url_end(s, i)
                if end > i + 8:
                    start = here()
                    url = html.unescape(s[i:end])
                    emit(url, (pos[i:end] + [pos[end - 1]] * len(url))[: len(url)])
                    cites.append(Cite(start, here(), usable_url(url) or url, url, CiteKind.URL, how="bare URL"))
                    i = end
                    continue
            if ch in "*_~":
                run = len(s[i:]) - len(s[i:].lstrip(ch))
                prev = s[i - 1] if i else " "
                nxt = s[i + run] if i + run < n else " "
                intraword = prev.isalnum() and nxt.isalnum()
                if (ch == "*" or not intraword) and not (prev.isspace() and nxt.isspace()) and (ch != "~" or run == 2):
                    if links and not prev.isspace() and (nxt.isspace() or i + run >= n):
                        self.closes.append(here())
                    i += run
                    continue
            emit(ch, pos[i])
            i += 1
        return "".join(out), opos, cites

    def _link(self, s: str, i: int) -> tuple[int, str | None, str | None, int, int] | None:
        """Parse a link at s[i] == "[": (end, destination or None for a reference, title, text span)."""
        j = _closing_brackets(s).get(i)
        if j is None:
            return None
        text_start, text_end = i + 1, j
        k = j + 1
        if k < len(s) and s[k] == "[" and _MARKER_INSIDE.match(s, text_start, text_end):
            return None  # "[6][7]": two citations, never the reference link "6" -> [7]
        if k < len(s) and s[k] == "(":
            parsed = _destination(s, k + 1)
            if parsed is None:
                return None
            end, dest, title = parsed
            return end, dest, title, text_start, text_end
        if k < len(s) and s[k] == "[" and (close := s.find("]", k)) > 0:
            label = ref_label(s[k + 1 : close]) or ref_label(s[text_start:text_end])
            if label in self.refs.defs:
                url, title = self.refs.defs[label]
                return close + 1, url, title, text_start, text_end
        label = ref_label(s[text_start:text_end])
        if label in self.refs.defs and not label.isdigit():
            return k, None, None, text_start, text_end
        return None


_MAX_URL_CHARS = Settings().max_url_chars
_MARKER_INSIDE = re.compile(r"\^?\d{1,4}(?:\s*[,;–-]\s*\d{1,4})*$")


_SPACE = re.compile(r"\s")


@functools.lru_cache(maxsize=8)
def _closing_parens(s: str) -> dict[int, int]:
    """Return, for every "(" of s that is closed, the index of its ")"."""
    closing: dict[int, int] = {}
    open_at: list[int] = []
    for j, c in enumerate(s):
        if c == "(":
            open_at.append(j)
        elif c == ")" and open_at:
            closing[open_at.pop()] = j
    return closing


@functools.lru_cache(maxsize=8)
def _closing_brackets(s: str) -> dict[int, int]:
    """Return, for every "[" of s that is closed, the index of its "]" (one pass, not one per "[")."""
    closing: dict[int, int] = {}
    open_at: list[int] = []
    j = 0
    while j < len(s):
        c = s[j]
        if c == "\\":
            j += 2
            continue
        if c == "[":
            open_at.append(j)
        elif c == "]" and open_at:
            closing[open_at.pop()] = j
        j += 1
    return closing


def _destination(s: str, k: int) -> tuple[int, str, str | None] | None:
    """Parse ``url "title")`` from s[k]; return (end after ")", url, title) or None."""
    paren = k - 1  # the link's "("
    while k < len(s) and s[k] in " \t\n":
        k += 1
    if k < len(s) and s[k] == "<":
        close = s.find(">", k)
        if close < 0:
            return None
        dest, k = s[k + 1 : close], close + 1
    else:
        # The destination ends at white space or at the ")" closing the link's "(" (parentheses
        # inside it balance); a "(" never closed is no link. Both found without rescanning the
        # rest of the text for every "[x](", which made a brief of them quadratic.
        paren_end = _closing_parens(s).get(paren)
        if paren_end is None:
            return None
        start = k
        space = _SPACE.search(s, k, min(paren_end, k + _MAX_URL_CHARS))
        k = space.start() if space else paren_end
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
