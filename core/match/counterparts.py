"""Which place of a word on the other side is its counterpart, for the claim comparison (core.match.compare).

Where both sides say a word as often, each place is the one in the same order. Where either says
it both ways ("90 cases , ... and no reported cases in Brčko District"), the counterpart is the
place whose words around it, and whether a number or a denial counts it, the other side's shares
most, both ways round; none when no place does so alone, and the word then decides nothing.
"""

from __future__ import annotations

from collections.abc import Iterable

from core.match.negation import gap
from core.match.side import NUMBER, Side

# Words either side of a word said both ways that tell which of its places the other side's is.
_AROUND = 4
# Tokens before a word a number or a denial that counts it stands within ("zero COVID-19 cases").
_COUNTED = 3
_NONE = frozenset({"no", "zero", "none", "without"})
# Places of one word on both sides weighed against each other at most: a text that says a word this often
# (a 5,000-word claim) is read as every place, in time proportional to its length.
_WEIGHED = 12


def counterparts(side: Side, other: Side, i: int) -> list[int]:
    """Return the other side's places of token i's word: the one in the same order when both say it as often.

    Where either side says the word both ways ("90 cases , and no reported cases in Brčko District"),
    the counterpart is the place whose words around it the other side's shares most, both ways round;
    none when no place does so alone (the word then decides nothing).
    """
    mine, theirs = side.places[side.stems[i]], other.places[side.stems[i]]
    if len(mine) == len(theirs):
        return [theirs[mine.index(i)]]
    weighed = len(mine) + len(theirs) <= _WEIGHED
    if weighed and (len({side.polarity[m] for m in mine}) > 1 or len({other.polarity[j] for j in theirs}) > 1):
        best = _closest(side, i, other, theirs)
        return [best] if best is not None and _closest(other, best, side, mine) == i else []
    return theirs


def _closest(side: Side, i: int, other: Side, places: list[int]) -> int | None:
    """Return the one place of ``places`` on other whose words around it share most with those around token i."""
    around = _around(side, i)
    scores = [(len(around & _around(other, j)), j) for j in places]
    best = max(score for score, _ in scores)
    top = [j for score, j in scores if score == best]
    return top[0] if len(top) == 1 else None


def _around(side: Side, i: int) -> set[str]:
    """Return the stems of the content words within _AROUND tokens of token i, in its sentence, and what counts it.

    A number or a denial of a noun just before the word ("90 cases", "no reported cases", "zero
    COVID-19 cases") says which of its places it is, as much as any word does.
    """
    a, _ = side.sentence_of[i]
    words = side.p.words
    out = side.around(i, _AROUND)
    for j in range(max(a, i - _COUNTED), i):
        if NUMBER.match(words[j]) and gap(side.p, j) != "-":
            out.add("#count")  # "90 cases"; the "19" of "COVID-19" counts nothing
        elif words[j] in _NONE:
            out.add("#none")
    return out


def every_one(checks: Iterable[bool]) -> bool:
    """Return True when there is at least one check and every one holds (no counterpart decides nothing)."""
    seen = False
    for ok in checks:
        if not ok:
            return False
        seen = True
    return seen
