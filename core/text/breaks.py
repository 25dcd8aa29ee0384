"""Hard breaks between tokens: the one sentence-end rule, and the breaks of a page and of a quote.

``ends_sentence`` is the one decision of where a sentence ends, asked by the matcher for a
page (``page_breaks``), by the diagnosis through the matcher's page, by the brief reader's
``split_sentences`` and by the figures' page pieces: a full stop ends a sentence unless it
follows an abbreviation (``Mr.``, ``Oct.``, ``No.`` before a number), an initial (``J.``) or
a dotted acronym (``U.S.``, ``e.g.``), or a lower-case word comes next; marks glued to the
next word (``3.x``, ``example.com``) end nothing; an ideographic or Arabic full stop always
ends. On a page, the text itself decides whether an abbreviation, an initial or a word
ending in a capital letter ends its sentence: a capitalised next word that the page also
writes in lower case ("Group D. The", "Apple Inc. The") starts a sentence; a name ("Frank E.
Buck", "J. K. Rowling") does not; a capital glued by a hyphen ("Objective-C. Our") is no
initial. In a quote any sentence mark or line break is a break (``quote_breaks``), because a
quote may only cross a page's break where it shows a break of its own; a full stop that the
quote keeps only inside a closing bracket ("etc.) Information") is a weak break
(``weak_breaks``), which does not show a page's break standing after the bracket
("etc.). Information"). This module decides breaks only: it refuses to match or to split
text into sentences itself.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence

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
# Titles stand before a name: "Dr. Rose" is never a sentence end, whatever the page says of "rose".
TITLES = frozenset(
    """
    mr mrs ms mx messrs dr prof sr jr st mt ft gen gov sen rep rev hon pres col lt capt sgt cpl
    maj adm brig det insp supt atty
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


def ends_sentence(
    marks: str, word: str, after: str, next_char: str, starts_sentence: Callable[[], bool] | None = None
) -> bool:
    """Return True when sentence marks between two words end a sentence.

    ``marks`` as the original text shows them; ``word`` the token the marks are glued to, as the
    tokeniser reads it (lower case, an acronym with its dots: ``u.s``, a hyphenated compound
    whole: ``objective-c``), or "" when a bracket or anything else stands between; ``after``
    the text between the marks and the next token; ``next_char`` the first character of the next
    token in its original case. ``starts_sentence``, when given, says from the page's own text
    whether the capitalised next word starts a sentence; it decides after an abbreviation, an
    initial or an acronym (without it, those never end a sentence).
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
            # "Group D. The day", "Apple Inc. The company": the page's own text decides.
            return word not in TITLES and next_char.isupper() and starts_sentence is not None and starts_sentence()
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
    lower_case: dict[str, bool] = {}

    def written_in_lower_case(k: int) -> bool:
        """Return True when the page writes token k's word in lower case somewhere: a common word."""
        word = words[k]
        # "J. K. Rowling": an initial after an initial is a name going on.
        if len(word) == 1 and work[ends[k] : ends[k] + 1] == ".":
            return False
        if word not in lower_case:
            lower_case[word] = re.search(rf"(?<!\w){re.escape(word)}(?!\w)", original) is not None
        return lower_case[word]

    for m in SENTENCE_MARKS.finditer(work):
        k = bisect_left(starts, m.end())
        if k == 0 or k >= n or ends[k - 1] > m.start() or k in breaks:
            continue
        marks = original[offsets[m.start()] : offsets[m.end() - 1] + 1]
        word = _glued_word(work, starts, ends, k - 1) if ends[k - 1] == m.start() else ""
        nxt = original[offsets[starts[k]]]
        if ends_sentence(marks, word, work[m.end() : starts[k]], nxt, functools.partial(written_in_lower_case, k)):
            breaks.add(k)
    return breaks


def _glued_word(work: str, starts: list[int], ends: list[int], k: int) -> str:
    """Return token k as the sentence rule reads it: with the compound it ends, "objective-c" from "Objective-C"."""
    word = work[starts[k] : ends[k]]
    a = starts[k]
    # A capital glued by a hyphen to a word before it is the end of that word, not an initial.
    if len(word) == 1 and a >= 2 and work[a - 1] == "-" and work[a - 2].isalnum():
        return work[starts[k - 1] : ends[k]] if k > 0 and ends[k - 1] == a - 1 else work[a - 2 : ends[k]]
    return word


def quote_breaks(original: str, offsets: Sequence[int], starts: list[int], ends: list[int]) -> list[bool]:
    """Return, for each token of a quote, whether a sentence mark or line break stands before it."""
    out = [False] * len(starts)
    if len(starts) < 2:
        return out
    for m in _QUOTE_BREAK.finditer(original):
        # The first token starting at or after the mark's end: offsets never decrease, so the
        # mark's end is looked up among normalised positions, not each token's start mapped back.
        k = bisect_left(starts, bisect_left(offsets, m.end()))
        # Only marks between two tokens count, not a decimal point inside "3.12".
        if 0 < k < len(starts) and offsets[ends[k - 1] - 1] < m.start():
            out[k] = True
    return out


# A full stop kept only inside a closing bracket ("etc.) Information"), and a page's sentence
# end standing after the bracket that closes an abbreviation's full stop ("etc.). Information").
_WEAK_GAP = re.compile(r"\s*\.\s*[)\]}]+\s*")
_AFTER_BRACKET_GAP = re.compile(r"\.\s*[)\]}]+\s*[.!?]")


def weak_breaks(original: str, offsets: Sequence[int], starts: list[int], ends: list[int]) -> tuple[int, ...]:
    """Return the tokens k of a quote whose only break before them is a full stop inside a closing bracket."""
    out = []
    for k in range(1, len(starts)):
        gap = original[offsets[ends[k - 1] - 1] + 1 : offsets[starts[k]]]
        if (")" in gap or "]" in gap or "}" in gap) and _WEAK_GAP.fullmatch(gap):
            out.append(k)
    return tuple(out)


def after_bracket_breaks(work: str, starts: list[int], ends: list[int], breaks: Iterable[int]) -> frozenset[int]:
    """Return the page's breaks whose sentence end stands after a bracket closing an abbreviation ("etc.).")."""
    return frozenset(
        k for k in breaks if 0 < k < len(starts) and _AFTER_BRACKET_GAP.match(work, ends[k - 1], starts[k])
    )
