"""A name's negation one side drops: "We're Gonna Take It" against the page's "We're Not Gonna Take It".

A negation that is a word of a name ("Faith No More", core.match.negation.in_name) denies nothing,
so the claim comparison (core.match.compare) reads no scope for it. Yet a side that writes the
same name with the words either side of the negation standing together, and no negation between
them, names something else: a blocking NEGATION_DIFFERS, quoting both sides' words. A paraphrase
keeps a name whole, and so is never flagged here.
"""

from __future__ import annotations

from core.match.side import Side, span
from core.models import Flag, FlagKind


def _dropped_at(side: Side, other: Side, k: int) -> int | None:
    """Return the token of other where it writes side's name around the negation at k without it, None if nowhere."""
    words = side.p.words
    if k == 0 or k + 1 >= len(words) or k in side.p.breaks or (k + 1) in side.p.breaks:
        return None
    before, after = side.stems[k - 1], side.stems[k + 1]
    for j in other.places.get(before, ()):
        if j + 1 < len(other.p.words) and other.stems[j + 1] == after and (j + 1) not in other.p.breaks:
            return j
    return None


def dropped_names(c: Side, e: Side, offset: int | None) -> list[Flag]:
    """Return a blocking flag for each name's negation one side writes and the other drops from the same name."""
    flags: list[Flag] = []
    for side, other, on_evidence in ((e, c, True), (c, e, False)):
        for k in side.named:
            j = _dropped_at(side, other, k)
            if j is None:
                continue
            neg = side.p.original_text(k, k)
            with_it, without = side.shown(k - 3, k + 3), other.shown(j - 2, j + 3)
            page_words, claim_words = (with_it, without) if on_evidence else (without, with_it)
            ev_first, ev_last = (k - 1, k + 1) if on_evidence else (j, j + 1)
            who = "the claim drops" if on_evidence else "the claim adds"
            flags.append(
                Flag(
                    kind=FlagKind.NEGATION_DIFFERS,
                    message=f'The claim says "{claim_words}" where its evidence says "{page_words}": {who} the'
                    f' "{neg}" of a name, which then names something else. Check which one the source supports'
                    " before the claim goes on.",
                    blocking=True,
                    page_words=page_words,
                    span=span(e, ev_first, ev_last, offset),
                    claim_words=claim_words,
                )
            )
    return flags
