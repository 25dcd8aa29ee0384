"""The diagnosis's index of one page: the matcher's tokens and breaks, looked up by position.

``PageIndex`` reads what ``core.match.prepare`` already made of the page (its tokens of the
blanked normalised text, the token indices a sentence end or block edge precedes), so that the
diagnosis sees the same words and the same breaks as the matcher, at no cost of its own. It
answers where words, sentences and whole-token occurrences stand; it refuses to judge them.
"""

from __future__ import annotations

import bisect
import weakref
from collections.abc import Callable, Mapping, Sequence, Set
from typing import Protocol, TypeVar

from core.diagnose.words import Words
from core.models import PageText
from core.text import Normalised

T = TypeVar("T")


class Prepared(Protocol):
    """What the diagnosis reads of core.match.PreparedPage: the page, its text and its tokens."""

    @property
    def page(self) -> PageText: ...

    @property
    def norm(self) -> Normalised: ...

    @property
    def words(self) -> Sequence[str]: ...

    @property
    def starts(self) -> Sequence[int]: ...

    @property
    def ends(self) -> Sequence[int]: ...

    @property
    def breaks(self) -> Set[int]: ...

    @property
    def break_list(self) -> Sequence[int]: ...

    @property
    def postings(self) -> Mapping[str, Sequence[int]]: ...


class PageIndex:
    """A prepared page's tokens, breaks and PDF pages, looked up by bisection.

    Not a dataclass: a view built once per page (it copies nothing) and queried many times.
    """

    def __init__(self, prepared: Prepared) -> None:
        self.page = prepared.page
        self.norm = prepared.norm
        self.text = prepared.norm.text
        self._keys = prepared.words
        self._starts = prepared.starts
        self._ends = prepared.ends
        self._breaks = prepared.breaks
        self._break_list = prepared.break_list
        self.page_starts = [s for _, s, _ in self.page.pages]

    def words(self, nstart: int, nend: int) -> Words:
        """Return the page's tokens lying whole in normalised text[nstart:nend]."""
        lo = bisect.bisect_left(self._starts, nstart)
        hi = max(lo, bisect.bisect_right(self._ends, nend))
        return Words(tuple(self._keys[lo:hi]), tuple(self._starts[lo:hi]), tuple(self._ends[lo:hi]), lo)

    def orig(self, npos: int) -> int:
        """Return the original character index of normalised position npos."""
        offsets = self.norm.offsets
        return offsets[npos] if 0 <= npos < len(offsets) else self.norm.original_length

    def to_norm(self, opos: int) -> int:
        """Return the first normalised position at or after original position opos."""
        return bisect.bisect_left(self.norm.offsets, opos)

    def orig_span(self, nstart: int, nend: int) -> tuple[int, int]:
        """Return the original span of normalised text[nstart:nend]."""
        return self.norm.original_span(nstart, nend)

    def is_break(self, w: Words, j: int) -> bool:
        """Return True when a sentence or block break lies between page tokens j and j + 1 of w."""
        if j < 0 or j + 1 >= len(w):
            return True
        return w.first + j + 1 in self._breaks

    def breaks(self, w: Words) -> frozenset[int]:
        """Return the token indices j of page words with a sentence or block break after token j."""
        found = self._break_list
        inside = found[bisect.bisect_right(found, w.first) : bisect.bisect_left(found, w.first + len(w))]
        return frozenset(k - w.first - 1 for k in inside)

    def page_of(self, opos: int) -> int | None:
        """Return the PDF page number holding original position opos, or None for other sources."""
        if not self.page_starts:
            return None
        i = bisect.bisect_right(self.page_starts, opos) - 1
        return self.page.pages[max(i, 0)][0]

    def sentence(self, npos: int, limit: int) -> tuple[int, int]:
        """Return the normalised span of the sentence around npos (at most limit characters either side)."""
        starts, ends = self._starts, self._ends
        n = len(starts)
        if n == 0:
            return npos, npos
        # The token holding npos, else the next one.
        k = max(bisect.bisect_right(starts, npos) - 1, 0)
        if ends[k] <= npos and k + 1 < n:
            k += 1
        found = self._break_list
        b = bisect.bisect_right(found, k)
        first = max(found[b - 1] if b > 0 else 0, bisect.bisect_left(starts, npos - limit))
        last = min((found[b] if b < len(found) else n) - 1, bisect.bisect_right(ends, npos + limit) - 1)
        if first > last:
            return npos, npos
        return starts[first], ends[last]

    def find_all(self, surface: str, cap: int) -> list[int] | None:
        """Return the start of every occurrence of surface that begins and ends on token edges; None past cap."""
        text, starts, ends = self.text, self._starts, self._ends
        out: list[int] = []
        n = len(surface)
        tries = 0
        p = text.find(surface)
        while p >= 0:
            tries += 1
            i = bisect.bisect_left(starts, p)
            if i < len(starts) and starts[i] == p:
                j = bisect.bisect_left(ends, p + n, i)
                if j < len(ends) and ends[j] == p + n:
                    out.append(p)
            if len(out) > cap or tries > 4 * cap:
                return None
            p = text.find(surface, p + 1)
        return out


#: Indexes of live pages by id, each with a weak reference to its page (see per_page).
_INDEXES: dict[int, tuple[weakref.ref[Prepared], PageIndex]] = {}


def per_page(cache: dict[int, tuple[weakref.ref[Prepared], T]], prepared: Prepared, build: Callable[[], T]) -> T:
    """Return what build makes of a prepared page, made once while the page lives and kept in cache.

    Each entry holds a weak reference to its page: a cached value never keeps its page alive (a big
    brief lets each page go once its claims are checked), and goes with it; 16 live pages at most.
    """
    cached = cache.get(id(prepared))
    if cached is not None and cached[0]() is prepared:
        return cached[1]
    if len(cache) >= 16:
        cache.clear()
    value = build()
    key = id(prepared)
    cache[key] = (weakref.ref(prepared, lambda _: cache.pop(key, None)), value)
    return value


def page_index(prepared: Prepared) -> PageIndex:
    """Return the (cached) index of a prepared page; rebuilt when another page comes."""
    return per_page(_INDEXES, prepared, lambda: PageIndex(prepared))
