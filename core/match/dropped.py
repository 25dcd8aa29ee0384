"""The hedges and conditions of the evidence a claim drops: information beside the claim comparison, never blocking.

A hedge ("experimental", "an estimated", "up to 40%") or a condition ("unless", "only if") of an
evidence sentence that shares words with the claim, which the claim lacks, is a HEDGE_DROPPED or
CONDITION_DROPPED flag (core.match.compare gathers them with its negation differences).
"""

from __future__ import annotations

from core.match.claim_words import HEDGE_FAMILIES, is_content, word_stem
from core.match.context import CONDITIONS, HEDGES, NUMBER_HEDGES
from core.match.side import NUMBER, Side, span
from core.models import Flag, FlagKind

_SNIPPET_WORDS = 10


def _phrases(side: Side, phrases: tuple[tuple[str, ...], ...]) -> list[tuple[int, tuple[str, ...]]]:
    """Return (first token, phrase) of every phrase of the list the side holds, longest first at each place."""
    words = side.p.words
    out: list[tuple[int, tuple[str, ...]]] = []
    taken = -1
    for i in range(len(words)):
        if i <= taken:
            continue
        for phrase in sorted((ph for ph in phrases if ph[0] == words[i]), key=len, reverse=True):
            if tuple(words[i : i + len(phrase)]) == phrase:
                out.append((i, phrase))
                taken = i + len(phrase) - 1
                break
    return out


def _holds(side: Side, phrase: tuple[str, ...]) -> bool:
    words = side.p.words
    n = len(phrase)
    return any(
        tuple(words[i : i + n]) == phrase for i in side.places.get(word_stem(phrase[0]), ()) if words[i] == phrase[0]
    )


def _shares(e: Side, c: Side, i: int) -> bool:
    """Return True when the evidence sentence of token i shares at least two content words with the claim."""
    a, b = e.sentence_of[i]
    mine = {e.stems[j] for j in range(a, b) if is_content(e.p.words[j])}
    theirs = c.content_stems
    return len(mine & theirs) >= min(2, len(theirs))


def dropped(e: Side, c: Side, offset: int | None) -> list[Flag]:
    """Return the hedges and conditions of the evidence's sentences near the claim that the claim drops."""
    flags: list[Flag] = []
    claim_words = set(c.p.words)
    for i, phrase in _phrases(e, HEDGES):
        last = i + len(phrase) - 1
        nxt = e.p.words[last + 1] if last + 1 < len(e.p.words) else ""
        if phrase in NUMBER_HEDGES and not NUMBER.match(nxt):
            continue
        if phrase == ("may",) and NUMBER.match(nxt):
            continue  # "May 2024": a month
        family = next((f for f in HEDGE_FAMILIES if set(phrase) & f), frozenset())
        if _holds(c, phrase) or claim_words & family or not _shares(e, c, i):
            continue
        flags.append(_dropped_flag(e, c, FlagKind.HEDGE_DROPPED, i, last, (3, 4), "its", offset))
    for i, phrase in _phrases(e, CONDITIONS):
        last = i + len(phrase) - 1
        if _holds(c, phrase) or not _shares(e, c, i):
            continue
        flags.append(_dropped_flag(e, c, FlagKind.CONDITION_DROPPED, i, last, (4, 5), "its condition", offset))
    return flags


def _dropped_flag(
    e: Side, c: Side, kind: FlagKind, i: int, last: int, around: tuple[int, int], what: str, offset: int | None
) -> Flag:
    """Return the information flag of evidence words i..last the claim drops, ``around`` words shown each side."""
    shown = e.shown(i - around[0], last + around[1])
    words = e.p.original_text(i, last)
    return Flag(
        kind=kind,
        message=f'The evidence says "{shown}": the claim drops {what} "{words}".',
        blocking=False,
        page_words=shown,
        span=span(e, i, last, offset),
        claim_words=c.shown(0, _SNIPPET_WORDS),
    )
