"""Where each figure of a claim without a quote stands on its cited page: in the passage, elsewhere, nowhere.

``place_figures(claim_text, passage, page)`` reads the claim's figures with the figures rules and
looks for each, with ``core.figures.compare``'s own value matching, first in the passage offered
first (``near_miss.candidates[0]``), then on the whole page. A figure in the passage is matched; one
elsewhere on the page is missing with where it stands and the page's sentence around it; one that
stands nowhere is missing with what the passage holds in its place ("an estimated 5%"), and gives
the claim ``figures_mismatch``. A figure that cannot be judged is skipped with its reason, never
flagged blindly: one the figures rules skip anyway, a year or date the page leaves implicit (the
passage names no year, or gives the day and month without one), a measure the page gives in
another unit, a page bound that neither confirms nor refutes the claim ("more than 25 million" for
"26 million"), and any figure of a page too large to read whole within the budget. This module
places figures; it never verifies a claim (principle 1).
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from decimal import Decimal

from core.figures import vocab as v
from core.figures.beside import IN_PLACE, judged_against, nearest, with_hedge
from core.figures.compare import holder, holders
from core.figures.doubt import counted_days, garbled, implicit, made_true_far, month_named, own_bound, rank_counted
from core.figures.locale import comma_for
from core.figures.on_page import VALUE_SLACK, Sought, page_figures
from core.figures.read import ReadFigure, read_figures
from core.figures.reasons import kind_word
from core.figures.restated import point_grouped, restatements
from core.figures.scan import from_runs, precision_of, run_starts, shifted
from core.figures.units import ratios
from core.figures.unjudged import skip_reason
from core.figures.words import needed
from core.models import Candidate, Figure, FigureCheck, FigureKind, FigurePlace, FigureStatus, PageText
from core.settings import Settings
from core.text import split_sentences

_OUT_OF_100 = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s?(?:out of 100\b|/\s?100\b)", re.IGNORECASE)
# What every score out of 100 ends with, opening with a letter or slash (searched fast, unlike the score's look behind).
_SCORE_END = re.compile(r"(?:out of |/\s?)100\b", re.IGNORECASE)
# A rating out of 10 with a decimal ("an average rating of 4.4/10"), the percentage a claim restates as "44 %".
_OUT_OF_10 = re.compile(r"(?<![\d./])(\d\.\d{1,2})\s?/\s?10\b(?![\d.,/])")


def _sentence(page: PageText, start: int, s: Settings) -> str:
    """Return the page's sentence around a position (within its block), white space collapsed."""
    text = page.text
    i = bisect.bisect_right(page.blocks, (start, len(text) + 1)) - 1
    a, b = page.blocks[i] if i >= 0 and page.blocks[i][0] <= start < page.blocks[i][1] else (0, len(text))
    a, b = max(a, start - s.sentence_max_chars), min(b, start + s.sentence_max_chars)
    for x, y in split_sentences(text[a:b]):
        if a + x <= start < a + y:
            return " ".join(text[a + x : a + y].split())
    return " ".join(text[max(a, start - 200) : min(b, start + 200)].split())


def _scores(text: str, start: int, end: int, out_of: int = 100) -> list[ReadFigure]:
    """Return the scores out of 100 between start and end ("52 out of 100", "50/100"), read as percentages.

    A review score out of 100 is the percentage a claim restates ("scored more than 50 %"); the
    figures reader leaves "50/100" unread (a slash may be a ratio or a date), so a page's are read here.
    ``out_of=10``: the ratings out of 10 with a decimal instead ("4.4/10" read as 44 %).
    """
    out: list[ReadFigure] = []
    if text.find("100" if out_of == 100 else "/", start, end) < 0:
        return out  # every score writes its "100", every rating its "/"
    if out_of == 100 and _SCORE_END.search(text, start, end) is None:
        return out  # nor without its "out of 100" or "/100": one fast search, not a try at each number
    pattern, scale = (_OUT_OF_100, 1) if out_of == 100 else (_OUT_OF_10, 10)
    for m in from_runs(pattern, text, run_starts(text, start, end), end):
        num = m.group(1)
        out.append(
            ReadFigure(
                text=m.group(0),
                kind=FigureKind.PERCENT,
                start=m.start(),
                end=m.end(),
                value=Decimal(num) * scale,
                precision=precision_of(num) * scale,
                written=num,
            )
        )
    return out


@functools.lru_cache(maxsize=4)
def _page_scores(text: str) -> tuple[ReadFigure, ...]:
    """Return a whole page's scores out of 100, read once a page (the claims of one page share them)."""
    return tuple(_scores(text, 0, len(text)))


@functools.lru_cache(maxsize=64)
def _passage_figures(page: str, text: str, start: int, end: int, comma: bool) -> tuple[ReadFigure, ...]:
    """Return a passage's figures at their page positions, its scores out of 100 last: once a passage.

    The claims of one page are offered many of the same passages.
    """
    return tuple([shifted(f, start) for f in read_figures(text, comma)] + _scores(page, start, end))


def _multipliers(held: list[list[ReadFigure]]) -> bool:
    """Return True when any offered passage holds a multiplier ("8 times as many", "2x")."""
    return any(f.kind is FigureKind.MULTIPLIER for h in held for f in h)


_POINT_GROUPED = re.compile(r"[1-9]\d{0,2}\.\d{3}")


def _grouped(c: ReadFigure) -> ReadFigure | None:
    """Return a claim figure written "300.000" read with its point grouping thousands (300,000), else None."""
    if c.kind is not FigureKind.NUMBER or c.value is None or not _POINT_GROUPED.fullmatch(c.written):
        return None
    written = c.written.replace(".", ",")
    return replace(c, value=c.value * 1000, precision=precision_of(written), written=written)


def _as_said(c: ReadFigure) -> ReadFigure:
    """Return the claim figure with the kind its hedge gives: "before 1800" bounds a year, "over 2000 cases" a count."""
    four = c.written.isdigit() and len(c.written) == 4
    if c.kind is FigureKind.NUMBER and four and c.hedge in v.TIME_HEDGES:
        return replace(c, kind=FigureKind.YEAR)
    if c.kind is FigureKind.YEAR and c.hedge in v.HEDGE_SIDE and c.hedge not in v.TIME_HEDGES:
        return replace(c, kind=FigureKind.NUMBER)
    return c


# The kinds whose figures a page holds by value alone (``core.figures.compare._value_hit``).
_BY_VALUE = frozenset(
    {FigureKind.NUMBER, FigureKind.ORDINAL, FigureKind.MONEY, FigureKind.PERCENT, FigureKind.POINTS}
    | {FigureKind.MULTIPLIER}
)


def _sought(c: ReadFigure, s: Settings) -> Sought | None:
    """Return what a page's piece must hold to hold the claim figure (as ``compare.holders`` judges), None for any.

    A figure of a kind held by value is held only by a value within its rounding and hedge steps (a
    number written in digits with any decimal mark and any scale word after it, or in number words), a
    year or date only by one writing the year's last two digits (or the year's value), a time by one
    writing its hour. A comparative is judged against the
    page's figure nearest in value (``beside.judged_against``), a bound in time on either side of its
    point, a period against the page's years: for those every piece is read.
    """
    time_bound = c.hedge in v.TIME_HEDGES
    if c.hedge in v.HEDGE_SIDE and not time_bound:
        return None
    if c.kind in (FigureKind.DATE, FigureKind.MONTH):
        if not c.date[0] or c.hedge:
            return None
        # A date is held by the same date (``compare._hit``), which writes its day in digits as well.
        day = (_digit_run([str(c.date[2])], "0"),) if c.kind is FigureKind.DATE and c.date[2] else ()
        return Sought(digits=(_year_end(c.date[0]),), also=day)
    if c.kind is FigureKind.TIME and not c.hedge:
        # A time is held by one of its hour on either half of the day ("9:30" by "9.30 p.m", "21:30").
        hours = {c.date[1] % 12, c.date[1] % 12 + 12}
        return Sought(digits=(_digit_run(map(str, sorted(hours, reverse=True)), "0"),))
    if c.kind is FigureKind.VERSION:
        # A version is held by one that begins with its parts, or a number written so ("3.12").
        return Sought(endings=(".".join(c.parts),)) if len(c.parts) > 1 else None
    if c.kind is FigureKind.YEAR and time_bound:
        return None
    if c.kind not in _BY_VALUE and c.kind is not FigureKind.YEAR:
        return None
    ends = [c.value] if c.high is None else [c.value, c.high]
    # As compare._within takes a hedge: none (or a range's, a mean's, a time's) half a step, else a step more.
    plain = not c.hedge or c.hedge in v.NOT_HEDGES or time_bound
    slack = c.precision / 2 + (0 if plain else c.precision * s.figures_hedge_steps)
    if c.kind is FigureKind.YEAR:
        slack = Decimal(0)
    values: list[tuple[float, float]] = []
    years: list[str] = []
    words: set[str] = set()
    four = c.written.isdigit() and len(c.written) == 4
    for end in ends:
        if end is None or abs(end) - slack <= 0:
            return None
        a = abs(end)
        # In the claim's unit, and in each unit it converts to exactly ("1.5 hours" is held by "90 minutes").
        for ratio in (Decimal(1), *ratios(c.unit)):
            low, high = (a - slack) * ratio, (a + slack) * ratio
            values.append((float(low) * (1 - VALUE_SLACK), float(high) * (1 + VALUE_SLACK)))
            words |= needed(low, high)
        if (c.kind is FigureKind.YEAR or four) and a == a.to_integral_value():
            years.append(_year_end(int(a)))
    if c.kind is FigureKind.PERCENT:
        words.add("share")  # "one in five" for 20%
    return Sought(values=tuple(values), digits=tuple(years), words=frozenset(words))


def _year_end(year: int) -> str:
    """Return the pattern of a year by its last two digits ending a run of digits: "2019", "FY19", "2018-19"."""
    return _digit_run([f"{year % 100:02d}"], r"\d\d")


def _digit_run(ends: Iterable[str], lead: str) -> str:
    r"""Return the pattern of a whole run of digits that is one of ends, after lead (fixed width) or alone.

    It finds what ``(?<!\d)(?:lead)?(?:ends)(?!\d)`` finds, but opens with the digits of ends and looks
    behind them after: a pattern opening with a look behind is tried at every character of a piece.
    """
    return "(?:" + "|".join(rf"{e}(?!\d)(?:(?<!\d{e})|(?<={lead}{e})(?<!\d{lead}{e}))" for e in ends) + ")"


def _figure(c: ReadFigure, status: FigureStatus, where: FigurePlace | None, **fields: object) -> Figure:
    return Figure(text=c.text, status=status, kind=c.kind, span=(c.start, c.end), where=where, **fields)  # type: ignore[arg-type]


def _nowhere_reason(claim: str, instead: str, passage: Candidate | None, word: str) -> str:
    if passage is None:
        return f"The claim's “{claim}” is nowhere on the cited page, and no passage of the page is close to the claim."
    if instead:
        return f"The claim's “{claim}” is nowhere on the cited page; the passage closest to the claim says “{instead}”."
    return f"The claim's “{claim}” is nowhere on the cited page; the passage closest to the claim holds no {word}."


def place_figures(
    claim_text: str, passages: Sequence[Candidate], page: PageText, settings: Settings | None = None
) -> FigureCheck:
    """Return every figure of the claim placed on the page: in the passage, elsewhere or nowhere (never raises).

    ``passages`` are the passages offered, best first: a figure is in the passage when the first
    holds it; what stands in its place is read from the first that holds a figure of its kind.
    """
    s = settings or Settings()
    passage = passages[0] if passages else None
    claim = claim_text[: s.figures_claim_max_chars]
    claim_figs = read_figures(claim, comma_for(claim_text, claim))
    if not claim_figs:
        return FigureCheck(())

    def figures_of(p: Candidate) -> list[ReadFigure]:
        return list(_passage_figures(page.text, p.text, p.start, p.end, comma_for(page.text, p.text)))

    inside = figures_of(passage) if passage is not None else []
    others: list[list[list[ReadFigure]]] = []

    def every() -> list[list[ReadFigure]]:
        # The other passages offered are read only when a figure is not in the first (once a claim).
        if not others:
            others.append([inside] + [figures_of(p) for p in passages[1:]] if passages else [])
        return others[0]

    def on_page(c: ReadFigure) -> tuple[list[ReadFigure], bool]:
        # The page is read for figures only when a figure is not in the passage, each piece once a page (cached),
        # and only the pieces that may hold a figure making this one true (all of them for a comparative).
        figs, whole = page_figures(page.text, s.figures_page_budget_seconds, s, _sought(c, s))
        return list(figs) + list(_page_scores(page.text)), whole

    out: list[Figure] = []
    for n, c in enumerate(claim_figs):
        said = with_hedge(claim_text, c)
        if n >= s.figures_claim_max:
            why = f"the claim holds {len(claim_figs)} figures; only the first {s.figures_claim_max} are looked for."
            out.append(_figure(c, FigureStatus.SKIPPED, None, reason=why[0].upper() + why[1:]))
            continue
        reason = skip_reason(c, claim)
        if reason:
            out.append(_figure(c, FigureStatus.SKIPPED, None, reason=reason))
            continue
        if c.kind is FigureKind.MULTIPLIER and c.text.lower().endswith("times") and not _multipliers(every()):
            # "watched 1.4 billion times": with no multiplier in the passages, "times" counts, it does not multiply.
            c = replace(c, kind=FigureKind.NUMBER)
        c = _as_said(c)
        judged = judged_against(c, claim_text, inside, page.text)
        found = holder(c, judged, passage.text if passage is not None else "", s) if judged else None
        if found is None and passage is not None and c.kind is FigureKind.PERCENT:
            # "an average rating of more than 43.5 %" restates "an average rating of 4.4/10": a last resort.
            rated = judged_against(c, claim_text, _scores(page.text, passage.start, passage.end, 10), page.text)
            found = holder(c, rated, passage.text, s) if rated else None
        grouped = _grouped(c) if found is None else None
        if grouped is not None and passage is not None:
            # "less than 300.000 employees" in an English claim: the point may group thousands (300,000).
            found = holder(grouped, judged_against(grouped, claim_text, inside, page.text), passage.text, s)
        if found is None and passage is not None:
            # "14 days" for "two weeks", "below 6.05/10" for "6/10", "30,000" for an English page's "30.000".
            again = restatements(c, claim_text, page.text, passage.start, passage.end, inside)
            found = holder(c, judged_against(c, claim_text, again, page.text), passage.text, s) if again else None
        if found is not None:
            out.append(_figure(c, FigureStatus.MATCHED, FigurePlace.PASSAGE, quote_text=found.text))
            continue
        page_figs, whole = on_page(c)
        hits = holders(c, judged_against(c, claim_text, page_figs, page.text), s, s.figures_elsewhere_max)
        if not hits and (grouped_on_page := point_grouped(c, page_figs)):
            # "8.958 people" in an English page, for a claim's "more than 8,000", wherever on the page it stands.
            hits = holders(c, judged_against(c, claim_text, grouped_on_page, page.text), s, s.figures_elsewhere_max)
        if hits:
            around = _sentence(page, hits[0].start, s)
            why = f"The claim's “{said}” is not in the passage offered first, but the page has it: “{around}”."
            spans = tuple((h.start, h.end) for h in hits)
            out.append(
                _figure(c, FigureStatus.MISSING, FigurePlace.ELSEWHERE, reason=why, elsewhere=spans, around=around)
            )
            continue
        # The passage closest to the claim that holds a figure of its kind says what stands in its place.
        kinds = IN_PLACE.get(c.kind, (c.kind,))
        closest = next((h for h in every() if any(f.kind in kinds for f in h)), inside)
        doubt = (
            own_bound(c, closest, page.text)
            or next((why for p in passages if (why := month_named(c, p))), "")
            or counted_days(c, passage)
            or garbled(c, passages)
            or rank_counted(c, claim_text, passages)
            or implicit(c, claim_text, closest, page.text, [f for h in every() for f in h])
            or made_true_far(c, claim_text, page_figs, page.text)
        )
        if not doubt and not whole:
            doubt = "the page is too large to read all its figures in time, so it cannot be said to lack this one."
        if doubt:
            out.append(_figure(c, FigureStatus.SKIPPED, None, reason=doubt[0].upper() + doubt[1:]))
            continue
        near = nearest(c, judged_against(c, claim_text, closest, page.text) or closest)
        instead = with_hedge(page.text, near) if near is not None else ""
        why = _nowhere_reason(said, instead, passage, kind_word(c))
        out.append(_figure(c, FigureStatus.MISSING, FigurePlace.NOWHERE, reason=why, instead=instead))
    return FigureCheck(tuple(out))


__all__ = ["place_figures"]
