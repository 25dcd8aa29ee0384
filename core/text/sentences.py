"""Sentence splitting and URL reading for briefs, shared by every brief reader.

``split_sentences`` cuts a paragraph's text into sentence spans. It copes with
abbreviations (e.g., i.e., U.S., Dr.), initials, decimals and version numbers (3.12),
ellipses inside a sentence, quotations with full stops inside them, and citation markers
standing after the full stop ("faster.[1] Next"): those belong to the sentence before.
Spans the caller protects (links, URLs) are never cut.

``url_end`` reads a bare URL whole: balanced parentheses and brackets, apostrophes
(``HTTP_418_I'm_a_teapot``), and no trailing sentence punctuation.

This module only finds spans in text: it refuses to decide what is a claim or a citation.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

# Lower-cased tokens (without their final dot) after which a full stop does not end a sentence.
ABBREVIATIONS = frozenset(
    [
        "e.g",
        "i.e",
        "cf",
        "al",
        "vs",
        "approx",
        "ca",
        "est",
        "dr",
        "mr",
        "mrs",
        "ms",
        "mx",
        "prof",
        "sr",
        "jr",
        "st",
        "mt",
        "ft",
        "gen",
        "gov",
        "sen",
        "rep",
        "hon",
        "rev",
        "col",
        "lt",
        "capt",
        "sgt",
        "inc",
        "ltd",
        "co",
        "corp",
        "bros",
        "dept",
        "univ",
        "assn",
        "est",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "u.s",
        "u.k",
        "u.n",
        "e.u",
        "u.s.a",
        "a.m",
        "p.m",
        "ph.d",
        "b.a",
        "m.a",
        "m.sc",
        "b.sc",
    ]
)

# Abbreviations that only stand before a number ("No. 5", "p. 19"): "the answer is no." ends.
_BEFORE_NUMBER = frozenset(["no", "nos", "p", "pp", "vol", "vols", "fig", "figs", "sec", "art", "ch"])

_TERMINAL = re.compile(r"[.!?…。！？]+")
_CLOSERS = "\"'”’»)]"
_OPENERS_DOUBLE = "“„«"
_CLOSERS_DOUBLE = "”»"
# A CJK full stop ends a sentence without a following space.
_CJK_TERMINAL = frozenset("。！？")

_URL_START = re.compile(r"\b(?:https?://|www\.)", re.IGNORECASE)
_URL_STOP = frozenset(' \t\r\n<>"`{}|\\^“”‘«»\u00a0\u3000')
_TRAILING = ".,;:!?*_'~…"


def url_end(text: str, start: int) -> int:
    """Return the end of the URL starting at ``start``: brackets balanced, no trailing punctuation."""
    i = start
    depth = {"(": 0, "[": 0}
    pairs = {")": "(", "]": "["}
    while i < len(text):
        ch = text[i]
        if ch in _URL_STOP or ord(ch) < 32 or ch in "，。、；：！？（）【】":
            break
        if ch == "’" and (i + 1 >= len(text) or not text[i + 1].isalnum()):
            break
        if ch in depth:
            depth[ch] += 1
        elif ch in pairs:
            if depth[pairs[ch]] == 0:
                break
            depth[pairs[ch]] -= 1
        i += 1
    end = i
    while end > start:
        ch = text[end - 1]
        if ch in _TRAILING or (ch in ")]" and _unbalanced_close(text[start:end], ch)):
            end -= 1
        else:
            break
    return end


def _unbalanced_close(url: str, closer: str) -> bool:
    opener = "(" if closer == ")" else "["
    return url.count(closer) > url.count(opener)


def find_urls(text: str) -> list[tuple[int, int]]:
    """Return the (start, end) spans of bare http(s) and www. URLs in text, in order."""
    spans: list[tuple[int, int]] = []
    pos = 0
    while True:
        m = _URL_START.search(text, pos)
        if m is None:
            return spans
        end = url_end(text, m.start())
        if end - m.start() > len(m.group(0)):
            spans.append((m.start(), end))
        pos = max(end, m.end())


def _inside(pos: int, spans: Sequence[tuple[int, int]], starts: Sequence[int]) -> bool:
    """Return True when pos lies in one of the spans (sorted by start, with their starts)."""
    i = bisect.bisect_right(starts, pos) - 1
    # Spans may nest or overlap; look back over the few that start before pos.
    while i >= 0 and pos - starts[i] < 4096:
        s, e = spans[i]
        if s <= pos < e:
            return True
        i -= 1
    return False


def _quote_depths(text: str) -> list[bool]:
    """Return, for each position, whether it lies inside double quotation marks."""
    inside = [False] * (len(text) + 1)
    curly = 0
    straight = False
    for i, ch in enumerate(text):
        if ch in _OPENERS_DOUBLE:
            curly += 1
        elif ch in _CLOSERS_DOUBLE and curly:
            curly -= 1
        elif ch == '"':
            straight = not straight
        inside[i + 1] = bool(curly) or straight
    # A quotation left open (a stray mark) protects nothing: it would glue the paragraph.
    if curly or straight:
        return [False] * (len(text) + 1)
    return inside


def _is_abbreviation(text: str, dot: int, next_char: str) -> bool:
    m = re.search(r"([^\s(\[\"“'‘]+)$", text[max(0, dot - 40) : dot])
    if m is None:
        return False
    token = m.group(1)
    low = token.lower()
    if low in ABBREVIATIONS or (low in _BEFORE_NUMBER and next_char.isdigit()):
        return True
    # Initials ("J. Mitchell") and dotted acronyms ("U.S.", "e.g.") do not end a sentence.
    if len(token) == 1 and token.isalpha() and token.isupper():
        return True
    # The token may be glued to CJK text ("或D.C"): only its Latin end counts.
    return bool(re.search(r"(?:^|(?<=[^\x00-\x7f]))(?:[A-Za-z]\.)+[A-Za-z]$", token))


def split_sentences(
    text: str,
    protected: Sequence[tuple[int, int]] = (),
    attached: Sequence[tuple[int, int]] = (),
) -> list[tuple[int, int]]:
    """Return the (start, end) spans of text's sentences, white space trimmed; [] for blank text.

    ``protected`` spans (links, URLs) are never cut. ``attached`` spans (citation markers)
    standing right after a sentence's end belong to that sentence.
    """
    protected = sorted(protected)
    starts = [s for s, _ in protected]
    inside_quote = _quote_depths(text)
    # Zero-width marks (a DOCX footnote mark) need no attaching: the gap after a sentence is its own.
    attached_starts = {s: e for s, e in attached if e > s}
    cuts: list[int] = []
    for m in _TERMINAL.finditer(text):
        i, j = m.start(), m.end()
        if _inside(i, protected, starts):
            continue
        k = j
        while k < len(text) and text[k] in _CLOSERS:
            k += 1
        if inside_quote[i] and inside_quote[k]:
            continue  # a full stop inside a quotation that goes on
        # Citation markers after the full stop belong to this sentence.
        while True:
            n = k
            while n < len(text) and text[n] in " \t":
                n += 1
            if n in attached_starts:
                k = attached_starts[n]
                while k < len(text) and text[k] in _CLOSERS + ".,;":
                    k += 1
                continue
            break
        if text[i] in _CJK_TERMINAL:
            cuts.append(k)
            continue
        if k < len(text) and not text[k].isspace():
            continue  # "3.12", "example.com", "a.b": no space, no sentence end
        n = k
        while n < len(text) and text[n].isspace():
            n += 1
        if n < len(text):
            if text[n].islower():
                continue
            if m.group(0) == "." and _is_abbreviation(text, i, text[n]):
                continue
        cuts.append(k)
    # A line that ends with a citation ends its sentence, full stop or not (plain-text briefs
    # often put one claim and its URL on each line).
    attached_ends = {e for s, e in attached if e > s}
    for nl in (m.start() for m in re.finditer(r"\n", text)):
        end = nl
        while end > 0 and text[end - 1] in " \t.,;":
            end -= 1
        if end in attached_ends and not inside_quote[nl]:
            cuts.append(nl)
    cuts.sort()
    spans: list[tuple[int, int]] = []
    start = 0
    for cut in [*cuts, len(text)]:
        if cut <= start:
            continue
        s, e = _trim(text, start, cut)
        if s < e:
            spans.append((s, e))
        start = cut
    return spans


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end
