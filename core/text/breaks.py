"""Hard breaks between tokens: the one sentence-end rule, and the breaks of a page and of a quote.

``ends_sentence`` is the one decision of where a sentence ends, asked by the matcher for a
page (``page_breaks``), by the diagnosis through the matcher's page, by the brief reader's
``split_sentences`` and by the figures' page pieces: a full stop ends a sentence unless it
follows an abbreviation (``Mr.``, ``Oct.``, ``No.`` before a number), an initial (``J.``) or
a dotted acronym (``U.S.``, ``e.g.``), or a lower-case word comes next; marks glued to the
next word (``3.x``, ``example.com``) end nothing; an ideographic or Arabic full stop always
ends. In a quote any sentence mark or line break is a break (``quote_breaks``), because a
quote may only cross a page's break where it shows a break of its own. This module decides
breaks only: it refuses to match or to split text into sentences itself.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence

# Lower-cased words after which "." is an abbreviation's, not a sentence end. Dotted ones
# (e.g., i.e., U.S., a.m., Ph.D.) need no entry: the tokeniser reads them as a word with dots
# inside or ending in a single letter, and neither ends a sentence.
ABBREVIATIONS = frozenset(
    # A word list reads best as words; a list literal of 64 strings would hide them.
    """
    mr mrs ms mx messrs dr prof sr jr st mt ft gen gov sen rep rev hon pres col lt capt sgt cpl
    maj adm brig det insp supt atty inc ltd co corp bros dept univ assn assoc intl vs approx ca
    cf al est jan feb mar apr jun jul aug sep sept oct nov dec ibid ave blvd rd sc
    """.split()  # noqa: SIM905
)
# Words that are abbreviations only before a number: "No. 5", "Fig. 3", but "said no. When".
NUMBER_ABBREVIATIONS = frozenset(
    "no nos fig figs vol vols pp p art sec ch chap para ref refs ed eds op ex eq eqs".split()  # noqa: SIM905
)

# Sentence marks as normalised text shows them ("…" is "...", "！" is "!" after NFKC).
SENTENCE_MARKS = re.compile(r"[.!?\u3002\u061f\u0964\u0965]+")
# Marks that end a sentence with or without a space after them, as the original text shows
# them: scripts written without spaces put the next sentence right after the mark.
_ALWAYS_ENDS = frozenset("\u3002\u061f\u0964\u0965\uff01\uff1f")
# Closing quotation marks and brackets that may stand between a sentence's end and the space after it.
CLOSING = "\"')]}”’»"
_QUOTE_BREAK = re.compile("[.!?\u3002\u061f\u0964\u0965\u2026\n\r\u2028\u2029\uff0e\uff01\uff1f]")


def ends_sentence(marks: str, word: str, after: str, next_char: str) -> bool:
    """Return True when sentence marks between two words end a sentence.

    ``marks`` as the original text shows them; ``word`` the token the marks are glued to, as the
    tokeniser reads it (lower case, an acronym with its dots: ``u.s``), or "" when a bracket or
    anything else stands between; ``after`` the text between the marks and the next token;
    ``next_char`` the first character of the next token in its original case.
    """
    if any(c in _ALWAYS_ENDS for c in marks):
        return True
    # "end. Next", "end.” Next" and "end.) Next" end; "3.x", "end.Next" and "etc.), and" do not.
    if not after.lstrip(CLOSING)[:1].isspace():
        return False
    # "e.g. the", "Yahoo! announced", '"Why?" he asked': a lower-case word continues the sentence.
    if next_char.islower():
        return False
    if marks == ".":
        # "Mr. Smith", "U.S. forces", "J. K. Rowling"; "No. 5" but not "said no. When".
        if word in ABBREVIATIONS or (len(word) == 1 and word.isalpha()) or ("." in word and word[0].isalpha()):
            return False
        if word in NUMBER_ABBREVIATIONS and next_char.isdigit():
            return False
    return True


def page_breaks(
    work: str,
    original: str,
    offsets: Sequence[int],
    words: list[str],
    starts: list[int],
    ends: list[int],
    edges: Iterable[int],
) -> set[int]:
    """Return the indices k of tokens that a hard break separates from token k - 1.

    ``edges`` are block edges as normalised positions; ``original`` and ``offsets`` let the
    sentence rule see the marks and the case of the next word, which normalised text has folded.
    """
    breaks: set[int] = set()
    n = len(words)
    for edge in edges:
        k = bisect_left(starts, edge)
        if 0 < k < n and ends[k - 1] <= edge:
            breaks.add(k)
    for m in SENTENCE_MARKS.finditer(work):
        k = bisect_left(starts, m.end())
        if k == 0 or k >= n or ends[k - 1] > m.start() or k in breaks:
            continue
        marks = original[offsets[m.start()] : offsets[m.end() - 1] + 1]
        word = work[starts[k - 1] : ends[k - 1]] if ends[k - 1] == m.start() else ""
        if ends_sentence(marks, word, work[m.end() : starts[k]], original[offsets[starts[k]]]):
            breaks.add(k)
    return breaks


def quote_breaks(original: str, offsets: Sequence[int], starts: list[int], ends: list[int]) -> list[bool]:
    """Return, for each token of a quote, whether a sentence mark or line break stands before it."""
    out = [False] * len(starts)
    if len(starts) < 2:
        return out
    token_starts = [offsets[s] for s in starts]
    for m in _QUOTE_BREAK.finditer(original):
        k = bisect_left(token_starts, m.end())
        # Only marks between two tokens count, not a decimal point inside "3.12".
        if 0 < k < len(starts) and offsets[ends[k - 1] - 1] < m.start():
            out[k] = True
    return out
