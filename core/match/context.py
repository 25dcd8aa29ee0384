"""Context flags: what a found quote cut away that changes or limits what the page says.

Looks only at the page's tokens right around a matched span, within the same clause: a
negation just before or after it ("enabled by default" cut from "is not enabled by default"),
a condition right after it ("unless", "except", "only if"), a hedge dropped from its start
("an estimated", "up to", "experimental"). The first two block ``verified``; a hedge is shown
as information. Messages quote the page's own words. This module never decides whether a
quote is found: it refuses to look anywhere but next to a match it is given.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.match.negation import CLAUSE_WORDS, clause_break, is_negation, scope_end, widens
from core.match.page import PreparedPage
from core.models import Flag, FlagKind

# Conditions that limit what comes before them; the first word may follow one filler word.
CONDITIONS: tuple[tuple[str, ...], ...] = (
    ("unless",),
    ("except",),
    ("excepting",),
    ("only", "if"),
    ("only", "when"),
    ("only", "where"),
    ("only", "for"),
    ("if", "and", "only", "if"),
    ("provided", "that"),
    ("providing", "that"),
    ("as", "long", "as"),
    ("on", "condition", "that"),
    ("subject", "to"),
    ("if",),
)
# The conditions by their first word, in CONDITIONS' order: most words start none.
_CONDITIONS_BY_FIRST = {first: tuple(c for c in CONDITIONS if c[0] == first) for first in {c[0] for c in CONDITIONS}}
_CONDITION_FILLERS = frozenset({"but", "and", "or", "even", "and/or", "that", "which", "is", "are", "was", "were"})

# Hedges that only hedge a number that follows ("up to 40%", "about 3 million").
NUMBER_HEDGES: tuple[tuple[str, ...], ...] = (
    ("up", "to"),
    ("at", "least"),
    ("more", "than"),
    ("less", "than"),
    ("fewer", "than"),
    ("approximately",),
    ("roughly",),
    ("about",),
    ("around",),
    ("nearly",),
    ("almost",),
    ("some",),
    ("over",),
    ("under",),
)
# Hedges dropped from a quote's start: these, and the number hedges when a number follows.
HEDGES: tuple[tuple[str, ...], ...] = (
    ("an", "estimated"),
    ("estimated",),
    ("experimental",),
    ("preliminary",),
    ("provisional",),
    ("reportedly",),
    ("allegedly",),
    ("possibly",),
    ("potentially",),
    ("probably",),
    ("likely",),
    ("may",),
    ("might",),
    ("could",),
    ("tentatively",),
    ("proposed",),
    ("planned",),
    ("expected", "to"),
    ("as", "many", "as"),
    ("as", "much", "as"),
    ("as", "few", "as"),
    ("as", "little", "as"),
    *NUMBER_HEDGES,
)
_SNIPPET_WORDS = 8


def _denies_start(p: PreparedPage, k: int, first: int) -> bool:
    """Return True when the negation at token k, left out before a span starting at token first, governs it.

    "not only", "not just" widen the item right after them: a quote that starts at that item
    ("useless as a necklace" from "not only useless as a necklace") keeps what the page says; one
    that starts at the "only" or further into the item ("for flavor" from "not only there for
    flavor") reads it otherwise.
    """
    if widens(p, k):
        # What it widens runs to the end of its clause, whatever verbs it holds ("not only would he be…").
        if first == k + 2 or (_in_aside(p, k) and scope_end(p, k) <= first):
            return False
        return not any(clause_break(p, j) or p.words[j] in CLAUSE_WORDS for j in range(k + 2, first + 1))
    return scope_end(p, k, first - k) > first


def _in_aside(p: PreparedPage, k: int) -> bool:
    """Return True when the negation at token k opens a bracketed aside that closes where its scope ends.

    "(without a GIL)" left out of a quote takes its negation with it: nothing kept is denied.
    """
    if k == 0 or not any(c in "([{" for c in p.work[p.ends[k - 1] : p.starts[k]]):
        return False
    end = scope_end(p, k)
    return end < len(p.words) and any(c in ")]}" for c in p.work[p.ends[end - 1] : p.starts[end]])


def _covered(k: int, spans: Sequence[tuple[int, int]]) -> bool:
    return any(a <= k < b for a, b in spans)


def _text(p: PreparedPage, first: int, last: int, stop: int) -> str:
    """Return the page's original words from token first to last (inclusive), "…" where cut short.

    ``stop`` is the last token the snippet would have shown in full; a snippet that ends before
    it (or starts inside the match) is marked with an ellipsis so an editor knows it goes on.
    """
    last = min(last, len(p.words) - 1)
    if last - first + 1 > 2 * _SNIPPET_WORDS:
        head = p.original_text(first, first + _SNIPPET_WORDS - 1)
        tail = p.original_text(last - _SNIPPET_WORDS + 1, last)
        text = f"{head} … {tail}"
    else:
        text = p.original_text(first, last)
    return text + "…" if last < stop else text


def _negation_cut(p: PreparedPage, k: int, shown: str, side: str) -> Flag:
    """Return the blocking flag for the page's negation at token k, which the quote left out."""
    neg = p.original_text(k, k)
    return Flag(
        kind=FlagKind.NEGATION_CUT,
        message=f'The page says "{shown}": the quote leaves out "{neg}" just {side} it, '
        "which may reverse what the source says.",
        blocking=True,
        page_words=shown,
        span=(p.ostarts[k], p.oends[k]),
    )


def context_flags(
    p: PreparedPage, first: int, end: int, covered: Sequence[tuple[int, int]], window: int, after_window: int
) -> list[Flag]:
    """Return the context flags of the page's tokens [first, end) matched by one quote fragment."""
    flags: list[Flag] = []
    n = len(p.words)
    # A negation just before the span, in the same clause.
    k = first
    for _ in range(window):
        if k <= 0 or clause_break(p, k):
            break
        k -= 1
        word = p.words[k]
        if word in CLAUSE_WORDS:
            break
        if is_negation(word) and not _covered(k, covered) and _denies_start(p, k, first):
            shown = _text(p, k, min(end - 1, first + _SNIPPET_WORDS - 1), end - 1)
            flags.append(_negation_cut(p, k, shown, "before"))
            break
    # A negation just after the span, in the same clause.
    for k in range(end, min(n, end + after_window)):
        if clause_break(p, k) or p.words[k] in CLAUSE_WORDS:
            break
        if is_negation(p.words[k]) and not _covered(k, covered) and not _in_aside(p, k):
            shown = "…" * (end - _SNIPPET_WORDS > first) + _text(p, max(first, end - _SNIPPET_WORDS), k + 2, k + 2)
            flags.append(_negation_cut(p, k, shown, "after"))
            break
    cond = _condition_after(p, end, covered)
    if cond is not None:
        c_first, c_last = cond
        # Show the condition to the end of its sentence, or its first few words.
        stop = next((j - 1 for j in range(c_first + 1, n) if j in p.breaks), n - 1)
        shown = "…" * (end - 4 > first) + _text(p, max(first, end - 4), min(stop, c_last + 5), stop)
        flags.append(
            Flag(
                kind=FlagKind.CONDITION_CUT,
                message=f'The page goes on "{shown}": the quote stops before the condition '
                f'"{p.original_text(c_first, c_last)}", which limits what it says.',
                blocking=True,
                page_words=shown,
                span=(p.ostarts[c_first], p.oends[c_last]),
            )
        )
    hedge = _hedge_before(p, first)
    if hedge is not None:
        words = p.original_text(hedge, first - 1)
        shown = _text(p, hedge, min(end - 1, first + 4), end - 1)
        flags.append(
            Flag(
                kind=FlagKind.HEDGE_CUT,
                message=f'The page says "{shown}": the quote drops "{words}" from its start.',
                blocking=False,
                page_words=shown,
                span=(p.ostarts[hedge], p.oends[first - 1]),
            )
        )
    return flags


def ellipsis_gap_flags(p: PreparedPage, end: int, start: int) -> list[Flag]:
    """Return the flags of a negation an ellipsis left out right beside a kept fragment.

    ``end`` is one past the last token of a fragment, ``start`` the first token of the next
    fragment in page order. The first and the last word the ellipsis cut away are looked at
    across commas and dashes too ("small checks, no benefits, and a near-total lack" quoted as
    "small checks, … a near-total lack"), but not across a sentence end or block edge.
    """
    flags: list[Flag] = []
    if start <= end:
        return flags
    if is_negation(p.words[end]) and end not in p.breaks and not _in_aside(p, end):
        first = max(end - _SNIPPET_WORDS, 0)
        shown = "…" * (first > 0) + _text(p, first, min(end + 2, start - 1), end + 2)
        flags.append(_negation_cut(p, end, shown, "after"))
    last = start - 1
    if last > end and is_negation(p.words[last]) and scope_end(p, last, 1) > start:
        shown = _text(p, last, start + _SNIPPET_WORDS - 1, start + _SNIPPET_WORDS - 1)
        flags.append(_negation_cut(p, last, shown, "before"))
    return flags


def _condition_after(p: PreparedPage, end: int, covered: Sequence[tuple[int, int]]) -> tuple[int, int] | None:
    """Return the token span of a condition starting right after token end - 1, if any."""
    n = len(p.words)
    breaks = p.breaks
    for skip in (0, 1):
        k = end + skip
        # No break between the span and the condition: none at end, nor at k after a filler.
        if k >= n or end in breaks or k in breaks:
            return None
        if (skip and p.words[end] not in _CONDITION_FILLERS) or _covered(k, covered):
            return None
        for phrase in _CONDITIONS_BY_FIRST.get(p.words[k], ()):
            if phrase == ("if",) and skip:
                continue  # "... and if" is too loose a tie to call a cut condition
            if tuple(p.words[k : k + len(phrase)]) == phrase and not any(
                j in p.breaks for j in range(k + 1, k + len(phrase))
            ):
                return k, k + len(phrase) - 1
    return None


_HEDGES_BY_LAST = {last: tuple(h for h in HEDGES if h[-1] == last) for last in {h[-1] for h in HEDGES}}


def _hedge_before(p: PreparedPage, first: int) -> int | None:
    """Return the first token of a hedge ending right before token first, if any."""
    if first == 0:
        return None
    for phrase in _HEDGES_BY_LAST.get(p.words[first - 1], ()):
        k = first - len(phrase)
        if k < 0 or tuple(p.words[k:first]) != phrase:
            continue
        if any(clause_break(p, j) for j in range(k + 1, first + 1)):
            continue
        if phrase in NUMBER_HEDGES and not _starts_with_number(p.words[first]):
            continue
        return k
    return None


def _starts_with_number(word: str) -> bool:
    return word[:1].isdigit() or (word[:1] == "-" and word[1:2].isdigit()) or not word[:1].isalnum()
