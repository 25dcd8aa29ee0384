"""Every place a one-fragment quote stands on the page: context flags on each, and their order.

A quote that stands on the page more than once is checked at every place (DESIGN.md,
"Matching rules"): the context flags run on each, a blocking flag at any place blocks
``verified`` with wording that says which place ("one of the 3 places this quote stands on
the page is right after "not""), and the places are ordered for the desk: a flagged place
first, then shown text before text hidden until opened, main content before navigation,
then page order. A quote that stands only in hidden text is still found, with a flag that
says so (information, not blocking). This module never finds a quote: it is given the places.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

from core.match.context import context_flags
from core.match.page import PreparedPage
from core.models import Flag, FlagKind, Occurrence
from core.settings import Settings

#: The words of the hidden flag, shown beside the match in the desk and the reports.
HIDDEN_WORDS = "in a part of the page that is hidden until opened"


def places(
    p: PreparedPage, starts: Sequence[int], size: int, count: int, settings: Settings
) -> tuple[list[int], list[Occurrence], list[Flag]]:
    """Return the places' first tokens and records in the desk's order, and the flags of the match.

    ``starts`` are the checked places in page order (first tokens), ``count`` how many the page
    holds in all. The flags are the first place's context flags (worded for one of several
    places when there are several), then the hidden flag or the flag for places not checked.
    """
    found: list[tuple[tuple[bool, bool, bool, bool, int], Occurrence]] = []
    window, after = settings.context_window_words, settings.negation_after_words
    ostarts, oends = p.ostarts, p.oends
    everywhere_hidden = True
    for s in starts:
        end = s + size
        here = tuple(context_flags(p, s, end, [(s, end)], window, after))
        a, b = ostarts[s], oends[end - 1]
        hidden, in_main = p.in_hidden(a, b), p.in_main(a, b)
        everywhere_hidden = everywhere_hidden and hidden
        blocking = bool(here) and any(f.blocking for f in here)
        occ = Occurrence(span=(a, b), flags=here, hidden=hidden, in_main=in_main, page=p.page_number(a))
        found.append(((not blocking, not here, hidden, not in_main, s), occ))
    if len(found) > 1:
        found.sort(key=itemgetter(0))
    order = [key[-1] for key, _ in found]
    occurrences = [occ for _, occ in found]
    first = occurrences[0]
    flags = [_at_one_of(f, first, count, p) for f in first.flags] if count > 1 else list(first.flags)
    if everywhere_hidden:
        flags.append(hidden_flag(p.original_text(order[0], order[0] + size - 1)))
    if count > len(occurrences):
        at_least = "at least " if count >= settings.max_occurrences_counted else ""
        flags.append(
            Flag(
                kind=FlagKind.TOO_MANY_PLACES,
                message=f"The quote stands on the page in {at_least}{count:,} places; only the first "
                f"{len(occurrences):,} were checked for a negation or condition cut away. Quote a longer "
                "passage, so that it stands in one place.",
                blocking=True,
            )
        )
    return order, occurrences, flags


def hidden_flag(words: str) -> Flag:
    """Return the information flag of a quote found only in text the page hides until opened."""
    return Flag(
        kind=FlagKind.HIDDEN,
        message=f'The quote was found {HIDDEN_WORDS} (a tab, an accordion or a "read more"): '
        "a reader sees it only after a click; open that part of the source to read it in place.",
        blocking=False,
        page_words=words,
    )


def _at_one_of(flag: Flag, place: Occurrence, count: int, p: PreparedPage) -> Flag:
    """Return a context flag of one place, worded as one of the count places the quote stands."""
    if flag.span is None:
        return flag
    words = " ".join(p.page.text[flag.span[0] : flag.span[1]].split())
    side = "after" if flag.span[0] < place.span[0] else "before"
    what = "the condition " if flag.kind is FlagKind.CONDITION_CUT else ""
    return Flag(
        kind=flag.kind,
        message=f'One of the {count:,} places this quote stands on the page is right {side} {what}"{words}". '
        + flag.message,
        blocking=flag.blocking,
        page_words=flag.page_words,
        span=flag.span,
    )
