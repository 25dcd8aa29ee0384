"""A bound the claim denies that its evidence's own number meets: "not less than $ 65,000" against "$ 62,406".

The figures check reads "not less than $ 65,000" as "at least $ 65,000" and holds it with any
number of the quote that meets it, so that a quote with a second, larger number ("$ 68,672" for
a family beside the household's "$ 62,406") verifies it. Here the claim's denied bound is set
against the one number of the evidence that stands where the claim's does: of the same kind, in
words both sides share around it. When that number meets the bound the claim denies, the claim
parts from its evidence, as a "not" of a shared word does (a blocking NEGATION_DIFFERS).

A bound is denied when a negation governs its number ("has not earned a total of over $ 14.25
million", "was not lower than 6"); a bare number or a bound the evidence words as a bound too is
the figures check's alone. No number of the evidence standing where the claim's does, or two
that disagree: no flag.

A count whose predicate a negation denies is one too (``counted_difference``): "more than 1,680
people had not tested positive" against "there have been 1,692 confirmed cases", where the other
side's number holds the count in a clause that denies nothing.
"""

from __future__ import annotations

from decimal import Decimal

from core.figures.read import read_figures
from core.figures.scan import ReadFigure
from core.match.claim_words import DENIAL_WORDS, WRITTEN_NUMBERS, is_content
from core.match.negation import CLAUSE_WORDS, FINITE_VERBS, MAX_SCOPE, clause_break, gap
from core.match.side import NUMBER, Side, span
from core.models import FigureKind, Flag, FlagKind

# The comparison each comparator says of the figure after it.
_RELATIONS = {
    **dict.fromkeys(("more than", "over", "above", "greater than", "higher than", "exceeding", "in excess of"), ">"),
    **dict.fromkeys(("less than", "fewer than", "under", "below", "lower than"), "<"),
    "at least": ">=",
    "at most": "<=",
    "up to": "<=",
}
_NEGATED = ("not ", "no ")
_COMPARATOR_WORDS = frozenset(w for c in _RELATIONS for w in c.split())
# Kinds of figure that count what their clause says ("1,680 people", "45 % of cases").
_COUNTS = frozenset({FigureKind.NUMBER, FigureKind.PERCENT})
# Figures that say when, and the months a date names.
_TIMES = frozenset({FigureKind.DATE, FigureKind.YEAR, FigureKind.MONTH, FigureKind.PARTIAL_DATE})
MONTHS = frozenset(
    "january february march april june july august september october november december".split()  # noqa: SIM905
)
# Words after a number that say it counts a share ("45 % of cases").
_UNITS = frozenset({"%", "percent", "per"})
# Tokens before the verb of its negation a count may stand ("76 percent of the Manaus population already had not").
_SUBJECT_REACH = 7
# Words that open a clause of their own between a count and the negation's verb.
_SUBORDINATE = frozenset("that which who whom whose when where if because while as since".split())  # noqa: SIM905
# Words each side of a number that say what it counts ("the median income for a household ... was").
_AROUND = 8


def _relation(hedge: str) -> str:
    """Return the comparison a figure's hedge says, a leading "not" left to the claim's polarity ("" for none)."""
    for neg in _NEGATED:
        hedge = hedge.removeprefix(neg)
    return _RELATIONS.get(hedge, "")


def _meets(value: Decimal, relation: str, bound: Decimal) -> bool:
    return {
        ">": value > bound,
        "<": value < bound,
        ">=": value >= bound,
        "<=": value <= bound,
    }[relation]


def _token(side: Side, fig: ReadFigure) -> int | None:
    """Return the token holding the figure's number (its first digit), None when no token does."""
    p = side.p
    for i in range(len(p.words)):
        if p.oends[i] > fig.start and NUMBER.match(p.words[i]):
            return i if p.ostarts[i] < fig.end else None
    return None


def _scale(side: Side, j: int) -> bool:
    """Return True when the number at token j is the scale of a score ("61 out of 100", "4.2/10"): it counts nothing."""
    words = side.p.words
    return (j >= 2 and words[j - 2 : j] == ["out", "of"]) or (j >= 1 and gap(side.p, j) == "/")


def _noun(side: Side, i: int) -> str:
    """Return the stem of the word a number counts ("57 Democrats"): a content word right after it, "" when none."""
    _, b = side.sentence_of[i]
    words = side.p.words
    return next((side.stems[j] for j in range(i + 1, min(b, i + 3)) if is_content(words[j])), "")


def _written(side: Side) -> list[tuple[ReadFigure, int]]:
    """Return the numbers of two to twenty the side writes out ("at the age of eight") that the figures reader left."""
    p = side.p
    out: list[tuple[ReadFigure, int]] = []
    for j, w in enumerate(p.words):
        if (n := WRITTEN_NUMBERS.get(w, 0)) >= 2:
            a, b = p.ostarts[j], p.oends[j]
            out.append((ReadFigure(text=side.text[a:b], kind=FigureKind.NUMBER, start=a, end=b, value=Decimal(n)), j))
    return out


def placed(side: Side) -> list[tuple[ReadFigure, int]]:
    """Return the side's figures with a value, each with its number's token, numbers written out too (read once)."""
    if side.figures is None:
        found = [(f, j) for f in read_figures(side.text) if f.value is not None and (j := _token(side, f)) is not None]
        taken = [(f.start, f.end) for f, _ in found]
        found += [(f, j) for f, j in _written(side) if not any(a <= f.start < b for a, b in taken)]
        side.figures = found
    return side.figures


def time_tokens(side: Side) -> set[int]:
    """Return the tokens of the side's dates, months and years ("by March 25", "in 2019"), read once."""
    if side.times is None:
        p = side.p
        spans = [(f.start, f.end) for f in read_figures(side.text) if f.kind in _TIMES]
        side.times = {i for i, w in enumerate(p.words) if w in MONTHS} | {
            i for a, b in spans for i in range(len(p.words)) if p.ostarts[i] < b and p.oends[i] > a
        }
    return side.times


def _clause(side: Side, j: int, reach: int = MAX_SCOPE) -> tuple[int, int]:
    """Return the token range [a, b) of the clause holding token j, at most ``reach`` tokens either side."""
    p = side.p
    a, b = j, j + 1
    while a > 0 and j - a < reach and not clause_break(p, a) and p.words[a - 1] not in CLAUSE_WORDS:
        a -= 1
    while b < len(p.words) and b - j < reach and not clause_break(p, b):
        b += 1
    return a, b


def _counts_a_noun(side: Side, i: int) -> bool:
    """Return True when the number at token i counts a noun after it ("1,680 people", "45 % of"), after no name."""
    words, text = side.p.words, side.text
    nxt = words[i + 1] if i + 1 < len(words) and (i + 1) not in side.p.breaks else ""
    # A capital that opens the sentence ("Over 20 people") names nothing.
    inside = i > 1 and i not in side.p.breaks and (i - 1) not in side.p.breaks
    before = text[side.p.ostarts[i - 1] : side.p.oends[i - 1]] if inside else ""
    counted = nxt in _UNITS or (nxt.isalpha() and is_content(nxt))
    return counted and not before[:1].isupper()


def counted_difference(side: Side, other: Side, k: int) -> tuple[int, int] | None:
    """Return (a count, the other side's number in its place) when the negation at k denies what the count does.

    "More than 1,680 people had not tested positive" against "there have been 1,692 confirmed cases":
    the negation's clause says its predicate of a count that the other side's number holds, in a
    clause of the other side that denies nothing, so the two part though they word the predicate
    apart. The count stands before the verb the negation stands on ("had not", "weren't"), with no
    verb or relative word between ("30 percent of spreading occurs when people have no symptoms" is
    none). Counts are numbers and percentages; the other side's number holds the count when it is the
    same, or meets its bound ("fewer than 180" and "174").
    """
    verb = side.own.get(k)
    if verb is None:
        return None
    words = side.p.words
    start = _clause(side, verb, _SUBJECT_REACH)[0]
    counts = [(f, i) for f, i in placed(side) if start <= i < verb and f.kind in _COUNTS and f.high is None]
    if not counts:
        return None
    fig, i = max(counts, key=lambda c: c[1])
    if (
        side.polarity[i]
        or fig.value is None
        or any(w in FINITE_VERBS or w in _SUBORDINATE for w in words[i + 1 : verb])
    ):
        return None
    if not _counts_a_noun(side, i):
        return None  # "the iPhone 4 will not receive": a model's number counts nothing
    relation = _relation(fig.hedge)
    for f, j in placed(other):
        if f.kind is not fig.kind or f.high is not None or f.value is None or other.polarity[j]:
            continue
        if f.value != fig.value and not (relation and _meets(f.value, relation, fig.value)):
            continue
        a, b = _clause(other, j)
        if any(a <= n < b for n, _, _, _ in other.scopes) or (set(other.p.words[a:b]) & DENIAL_WORDS):
            continue  # the other side denies something in that clause, in its own words
        return i, j
    return None


def denied_bounds(c: Side, e: Side, offset: int | None) -> list[Flag]:
    """Return a blocking flag for each bound the claim denies that the evidence's number in its place meets."""
    if not c.scopes:
        return []
    placed_e = placed(e)
    flags: list[Flag] = []
    for fig, i in placed(c):
        relation = _relation(fig.hedge)
        if fig.text.isalpha():
            continue  # a number written out, read as the evidence's number in the claim's place only
        if not relation or fig.value is None or fig.high is not None or not c.polarity[i]:
            continue
        if any(f.value == fig.value and f.kind is fig.kind and _relation(f.hedge) for f, _ in placed_e):
            continue  # "no more than 9 hours" on both sides: a bound the evidence words as a bound too
        # The evidence's number in the claim's place: the one that counts the same noun, then the one
        # among most of the claim's words ("the median income for a household ... was $ 62,406").
        words, noun = c.around(i, len(c.p.words), _COMPARATOR_WORDS), _noun(c, i)
        scored = [
            ((bool(noun) and _noun(e, j) == noun, len(words & e.around(j, _AROUND, _COMPARATOR_WORDS))), f, j)
            for f, j in placed_e
            if f.kind is fig.kind
            and f.high is None
            and not _relation(f.hedge)
            and f.currency == fig.currency
            and not _scale(e, j)
        ]
        best = max((s for s, _, _ in scored), default=(False, 0))
        held = [(f, j) for s, f, j in scored if s == best]
        if best == (False, 0) or not all(f.value is not None and _meets(f.value, relation, fig.value) for f, _ in held):
            continue
        flags.append(_flag(c, e, fig, held[0][0], held[0][1], offset))
    return flags


def _flag(c: Side, e: Side, fig: ReadFigure, held: ReadFigure, j: int, offset: int | None) -> Flag:
    """Return the blocking flag of the claim's denied bound ``fig`` that the evidence's ``held`` meets."""
    i = _token(c, fig) or 0
    k = max((k for k, a, b, _ in c.scopes if a <= i < b), default=i)
    claim_words = c.shown(k - 3, i)
    page_words = e.shown(j - 3, j + 3)
    bound = c.text[fig.start : fig.end]
    return Flag(
        kind=FlagKind.NEGATION_DIFFERS,
        message=f'The claim says "{claim_words}" where its evidence says "{page_words}": the claim denies'
        f' "{fig.hedge.removeprefix("not ").removeprefix("no ")} {bound}", which the evidence\'s'
        f' "{e.text[held.start : held.end]}" is. Check which one the source supports before the claim goes on.',
        blocking=True,
        page_words=page_words,
        span=span(e, j, j, offset),
        claim_words=claim_words,
    )
