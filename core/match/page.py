"""A page normalised once and indexed by token: what the matcher and its context flags read.

``prepare(page)`` normalises a PageText once (``core.text``), blanks the reference markers the
extractor listed, tokenises it and records the page's hard breaks (sentence ends and block
edges), with a posting list per token so that a quote is looked up by its rarest word. It
answers questions about positions; it refuses to decide whether a quote is found.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from core.models import PageText
from core.text import Normalised, after_bracket_breaks, blank, normalise, page_breaks, tokenise

# Text an extractor may mark as a reference marker and the matcher will skip: a bracketed
# marker, a note number of up to three digits ("22", "3,4"), a letter or a symbol, or
# Wikipedia's page-number marker ":35". Anything else (a linked "PEP 482", a year "2023") is
# words the page says; skipping it would let a quote drop them unnoticed.
FOOTNOTE_TEXT = re.compile(
    r"\s*(?:\[[^\[\]]{1,40}\](?:\s*\[[^\[\]]{1,40}\])*|\d{1,3}(?:[,–-]\s?\d{1,3})*|[a-z]|[*†‡§¶#]{1,3}"
    r"|:\s?p?\d{1,4}(?:[,–-]\s?\d{1,4})*)\s*\Z",
    re.IGNORECASE,
)


# Places of the quote's longest word few enough to try them all rather than look up every word.
_FEW_PLACES = 4


class TokenStarts:
    """The original start of each token, looked up when asked (a list's indexing, no more)."""

    def __init__(self, norm: Normalised, starts: list[int]) -> None:
        self._offsets = norm.offsets
        self._starts = starts

    def __len__(self) -> int:
        return len(self._starts)

    def __getitem__(self, k: int) -> int:
        """Return the original start of token k; IndexError past the last token, as a list does."""
        return self._offsets[self._starts[k]]


class TokenEnds:
    """The original end of each token, worked out when asked (a list's indexing, no more)."""

    def __init__(self, norm: Normalised, ends: list[int]) -> None:
        self._offsets = norm.offsets
        self._length = norm.original_length
        self._ends = ends

    def __len__(self) -> int:
        return len(self._ends)

    def __getitem__(self, k: int) -> int:
        """Return the original end of token k; IndexError past the last token, as a list does."""
        e, offsets = self._ends[k], self._offsets
        n = len(offsets)
        # Several normalised characters may come from one original (ligature "ﬁ" -> "fi").
        if e < n and offsets[e] > offsets[e - 1]:
            return offsets[e]
        return max(self._length if e >= n else 0, offsets[e - 1] + 1)


class PreparedPage:
    """A page normalised once, with its token index.

    Not a dataclass: it is an index built once and read many times, not a record to compare.
    Its attributes are the interface of ``core.match``'s modules: ``words``/``starts``/``ends``
    (tokens of the blanked normalised text ``work``), ``breaks`` (token indices a hard break
    precedes), ``ostarts``/``oends`` (each token's span in the original text) and ``postings``.
    ``hidden`` are the character ranges of the page text that the page hides until a reader
    opens them (accordions, tabs, "read more"), as the extractor found them; sorted.
    ``alternative`` holds the page's readings with uncertain PDF line ends taken the other way,
    built the first time a quote is not found on this reading: a slot this module never reads,
    which core.match.alternative fills and checks (so that neither module imports the other both ways).
    """

    hidden: tuple[tuple[int, int], ...] = ()
    alternative: object | None = None

    def __init__(self, page: PageText, hidden: Sequence[tuple[int, int]] = ()) -> None:
        self.page = page
        self.hidden = _merged(hidden)
        self._hidden_starts = [a for a, _ in self.hidden]
        self.norm: Normalised = normalise(page.text)
        offsets = self.norm.offsets
        footnotes = [
            (bisect_left(offsets, a), bisect_left(offsets, b))
            for a, b in page.footnotes
            if FOOTNOTE_TEXT.match(page.text[a:b])
        ]
        self.work = blank(self.norm.text, footnotes)
        self.words, self.starts, self.ends = tokenise(self.work, page.text, offsets)
        # Original spans of tokens, as Normalised.original_span gives them: worked out when a
        # match or a flag asks, since a quote needs a few and a page may hold millions.
        self.ostarts = TokenStarts(self.norm, self.starts)
        self.oends = TokenEnds(self.norm, self.ends)
        if page.blocks:
            original_edges = [x for block in page.blocks for x in block]
        else:
            # Without block records, a blank line is the only sure paragraph edge.
            original_edges = [m.start() for m in re.finditer(r"\n[^\S\n]*\n", page.text)]
        edges = [bisect_left(offsets, x) for x in original_edges]
        self.breaks = page_breaks(self.work, page.text, offsets, self.words, self.starts, self.ends, edges)
        self.break_list = sorted(self.breaks)
        # Breaks a quote shows only with a sentence mark after the bracket too ("etc.).").
        self.after_bracket = after_bracket_breaks(self.work, self.starts, self.ends, self.breaks)
        self.postings: dict[str, list[int]] = {}
        for i, word in enumerate(self.words):
            self.postings.setdefault(word, []).append(i)
        self._main = _merged(page.main)
        self._main_starts = [a for a, _ in self._main]
        self._pages = sorted(page.pages, key=lambda p: p[1])

    def original_text(self, first: int, last: int) -> str:
        """Return the page's original text from token first to token last (inclusive), spaces tidied."""
        return " ".join(self.page.text[self.ostarts[first] : self.oends[last]].split())

    def in_main(self, start: int, end: int) -> bool:
        """Return True when the original span [start, end) overlaps main content (all is main when unmarked)."""
        return not self._main or _overlaps(self._main, self._main_starts, start, end)

    def in_hidden(self, start: int, end: int) -> bool:
        """Return True when the original span [start, end) overlaps a part of the page hidden until opened."""
        return bool(self.hidden) and _overlaps(self.hidden, self._hidden_starts, start, end)

    def page_number(self, start: int) -> int | None:
        """Return the number of the PDF page holding original position start, or None."""
        for number, a, b in self._pages:
            if a <= start < b:
                return number
        return None

    def find(self, words: Sequence[str], qbreaks: Sequence[bool], limit: int, weak: Sequence[int] = ()) -> list[int]:
        """Return the token indices where the quote tokens occur whole, crossing no break of the page alone.

        ``weak`` are the quote's tokens whose break is only a full stop inside a bracket: they do
        not show a page's break that stands after the bracket.
        """
        n = len(words)
        if n == 0:
            return []
        # The quote's longest word is most often a rare one: when the page holds it in few places,
        # those are the places to try, and the other words need no look-up (a word the page lacks
        # fails the comparison below); otherwise the quote's rarest word leads.
        longest = max(words, key=len)
        pivot = words.index(longest)
        places = self.postings.get(longest)
        if places is None:
            return []
        rarest: list[int] = places
        if len(rarest) > _FEW_PLACES:
            lists = list(map(self.postings.get, words))
            # A posting list is never empty: a false one is a word the page never holds. (all(),
            # not "None in lists", which compares None with every list.)
            if not all(lists):
                return []
            sizes = list(map(len, lists))  # type: ignore[arg-type]
            pivot = sizes.index(min(sizes))
            rarest = lists[pivot]  # type: ignore[assignment]
        total = len(self.words)
        found: list[int] = []
        wanted = list(words)
        breaks = self.break_list
        for pos in rarest:
            i = pos - pivot
            if i < 0 or i + n > total or self.words[i : i + n] != wanted:
                continue
            # The page's breaks inside the span (rarely more than one) must each be the quote's too.
            inside = breaks[bisect_right(breaks, i) : bisect_left(breaks, i + n)]
            if inside and not all(qbreaks[k - i] for k in inside):
                continue
            if weak and any(k in self.after_bracket and k - i in weak for k in inside):
                continue
            found.append(i)
            if len(found) >= limit:
                break
        return found


def _overlaps(spans: Sequence[tuple[int, int]], starts: Sequence[int], start: int, end: int) -> bool:
    """Return True when [start, end) overlaps one of the merged, sorted spans (their starts given)."""
    i = max(bisect_right(starts, start) - 1, 0)
    # Merged spans are disjoint and sorted: the last one starting at or before start, and the next
    # one, are all there is to look at (when the next does not start before end, none later does).
    # A loop, not any() over a generator: asked for every place of every match, for two spans.
    for a, b in spans[i : i + 2]:  # noqa: SIM110
        if a < end and b > start:
            return True
    return False


def _merged(spans: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Return the spans sorted with nested and overlapping ones merged, so a bisect finds any that holds a position."""
    out: list[tuple[int, int]] = []
    for a, b in sorted((a, b) for a, b in spans if a < b):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return tuple(out)


def prepare(page: PageText, hidden: Sequence[tuple[int, int]] | None = None) -> PreparedPage:
    """Return the page normalised and indexed for matching, with its hidden ranges; never raises on any PageText.

    ``hidden`` defaults to the ranges the extractor recorded on the page (``PageText.hidden``),
    so that every caller matches shown text first.
    """
    return PreparedPage(page, page.hidden if hidden is None else hidden)
