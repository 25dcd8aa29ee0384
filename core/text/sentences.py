"""Sentence splitting of a brief's paragraphs (and of page text cut into pieces) by the one rule.

``split_sentences`` cuts a paragraph's text into sentence spans where the matcher would see a
sentence end: it reads the text with the matcher's tokeniser and asks ``ends_sentence`` at
every sentence mark, so that abbreviations (``Dr.``, ``Oct.``), initials, dotted acronyms
(``U.S.``, ``e.g.``), decimals and versions (``3.12.1``) are told apart exactly as on a page.
What it adds is the brief's own scanning: spans the caller protects (links, URLs) are never
cut, and a full stop right after one ends its sentence (no URL is an abbreviation); a full
stop inside a quotation that goes on ends nothing; citation markers standing after the full
stop ("faster.[1] Next") belong to the sentence before; a line that ends with a citation
ends its sentence. This module only finds spans in text: it refuses to decide what is a
claim or a citation.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

from core.text.breaks import CLOSING, SENTENCE_MARKS, ends_sentence
from core.text.normalise import normalise
from core.text.tokens import blank, tokenise

_OPENERS_DOUBLE = "“„«"
_CLOSERS_DOUBLE = "”»"
_DOUBLE_MARKS = re.compile(f'[{_OPENERS_DOUBLE}{_CLOSERS_DOUBLE}"]')
_LINE_END = re.compile(r"\n")


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
    state = False
    todo = 1  # the first position not yet given its state: the state changes only at a quotation mark
    for mark in _DOUBLE_MARKS.finditer(text):
        i, ch = mark.start(), mark.group()
        if state:
            inside[todo : i + 1] = [True] * (i + 1 - todo)
        if ch in _OPENERS_DOUBLE:
            curly += 1
        elif ch in _CLOSERS_DOUBLE and curly:
            curly -= 1
        elif ch == '"':
            straight = not straight
        state = bool(curly) or straight
        inside[i + 1] = state
        todo = i + 2
    # A quotation left open (a stray mark) protects nothing: it would glue the paragraph.
    if curly or straight:
        return [False] * (len(text) + 1)
    return inside


def _after_citations(text: str, k: int, attached: dict[int, int]) -> int:
    """Return the position after the closing marks and the citation markers that follow position k."""
    while k < len(text) and text[k] in CLOSING:
        k += 1
    while True:
        n = k
        while n < len(text) and text[n] in " \t":
            n += 1
        if n not in attached:
            return k
        k = attached[n]
        while k < len(text) and text[k] in CLOSING + ".,;":
            k += 1


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
    protected_ends = {e for _, e in protected}
    inside_quote = _quote_depths(text)
    # Zero-width marks (a DOCX footnote mark) need no attaching: the gap after a sentence is its own.
    attached_starts = {s: e for s, e in attached if e > s}
    # The text as the matcher reads it: the word before a mark and the next word are its tokens.
    norm = normalise(text)
    work = blank(norm.text, ())
    _, tstarts, tends = tokenise(work)
    offsets = norm.offsets
    ostarts = [offsets[s] for s in tstarts]
    cuts: list[int] = []
    decided = -1  # the gap between tokens already cut: one cut per gap, as the matcher breaks once
    for m in SENTENCE_MARKS.finditer(work):
        t = bisect.bisect_left(tstarts, m.end())
        if t == 0 or t == decided or tends[t - 1] > m.start():
            continue  # no word before it, a gap already cut, or the point of "3.12"
        i, j = offsets[m.start()], offsets[m.end() - 1] + 1
        if _inside(i, protected, starts):
            continue
        k = _after_citations(text, j, attached_starts)
        if inside_quote[i] and inside_quote[k]:
            continue  # a full stop inside a quotation that goes on
        nxt = bisect.bisect_left(ostarts, k)
        if nxt >= len(ostarts):
            continue  # nothing after it to set apart
        glued = tends[t - 1] == m.start() and i not in protected_ends
        word = work[tstarts[t - 1] : tends[t - 1]] if glued else ""
        if ends_sentence(text[i:j], word, text[k : ostarts[nxt]], text[ostarts[nxt]]):
            cuts.append(k)
            decided = t
    # A line that ends with a citation ends its sentence, full stop or not (plain-text briefs
    # often put one claim and its URL on each line).
    attached_ends = {e for s, e in attached if e > s}
    for nl in (m.start() for m in _LINE_END.finditer(text)):
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
