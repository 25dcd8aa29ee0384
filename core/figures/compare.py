"""The figures check: every figure of a claim must be in its quote (DESIGN.md, "Figures rules").

``check_figures(claim_text, quote, page)`` reads the claim's figures and the quote's with
``core.figures.read.read_figures`` and reports each claim figure as matched (with the quote's
own figure), missing (with a reason and, as diagnosis only, where on the page it does
appear) or skipped (with the reason it was not checked). Figures can stop a claim from being
verified; this module never verifies anything and never guesses a figure it cannot read.

How two figures compare:

* Kinds must agree: a percentage only matches a percentage (``%`` = ``percent`` = ``per
  cent``; "a quarter" is 25%), percentage points only points (``35 basis points`` = ``0.35
  percentage points``), money only money in the same currency (a bare quote number matches
  a claim's amount only when the quote names that currency elsewhere, as in "($ in
  millions)"), multipliers only multipliers (``1.25x`` = ``1.25 times``; ``double`` = ``2x``).
  A claim number without a currency matches a quote amount. Scales are values:
  ``525k`` = ``525,000``; ``1.2bn`` = ``1,200 million``; ``1,29,940`` = ``129,940``. A quote
  that says "in millions" (or thousands, billions), as a table header does, also holds its
  bare figures at that scale ("($479)" there holds "$479 million"). Units of measure named
  on both sides must agree ("5,200 miles" is not "5,150 km"), or convert exactly within one
  system (``core.figures.units``): the claim's figure and precision are taken into the quote's
  unit ("1.5 hours" = "90 minutes"; "4km" = "4,000 metres"; "2 km" holds "1,500 metres" as "2" holds
  "1.5"), and a duration the quote writes in words is read in the claim's unit of time ("14 days" =
  "two weeks"; "30 minutes" = "half an hour"), as on a page (``core.figures.restated``).
* Exact kinds: years, dates (in any common order), versions (``3.1`` never matches
  ``3.10``; a claim's ``3.12`` matches the quote's ``3.12.1``), and period labels (``Q1`` =
  ``first quarter``; ``FY27`` = ``FY2027`` = ``fiscal 2027``; a claim year must be the
  quote's year). A claim year matches a quote date or period in that year. A decade (``the
  1980s``, ``the '80s``) is a period held by the same decade or by a year, date or period in it
  ("1985"); a year is not held by its decade. A day and month without a year is held by that day
  in any year. A score (``3-1``) is held by the same two numbers either way round (``1-3``).
* Rounding: the claim's precision ``p`` is the place value of its last written digit,
  times its scale (``2.2`` -> 0.1; ``1.2bn`` -> 0.1bn; trailing zeros of a whole number round,
  keeping two significant digits: ``6,700`` -> 100, ``30`` -> 1). Without a hedge, the quote's
  value ``q`` matches the claim's ``c`` when ``c - p/2 <= q < c + p/2``, that is when ``q``
  rounds half up to ``c`` at precision ``p`` (claim ``2.2`` matches ``2.17``;
  ``25%`` matches ``24.6%``; ``2.17`` does not match ``2.2``).
* Hedges: "about", "nearly", "roughly", ... before the claim's figure allow one rounding
  step more and no more: ``c - 3p/2 <= q < c + 3p/2`` (``figures_hedge_steps`` steps of
  ``p``). So "about 25%" matches 24% and 26.4% but not 23%. Comparatives say what they say:
  "more than", "over", "at least" hold ``c - p/2 <= q`` up to ``figures_comparative_ratio``
  times ``c`` ("more than 300" holds 349; "more than 25 million" does not hold "over 20
  million"), "less than", "under", "up to" ``q < c + p/2`` down to ``c`` over that ratio. A
  quote's own bound is compared bound to bound, one rounding step as before ("up to 84%" is not
  "up to 64%"), and a bound the other way ("up to 25%" for "more than 20%") holds nothing.
* Signs: a negative claim figure needs a negative quote figure (``-$479 million`` =
  ``($479) million``); a positive one matches either sign, since "a loss of $479 million"
  and "($479) million" are the same figure told in words.
* Ranges need both ends (``10-60%`` = ``between 10 and 60 percent``).
* Shares: a count in another is its percentage (``1 in 4`` = ``one in four`` = ``25%``), a fraction
  written out its share (``two thirds of`` = ``67%``), and so is a vulgar fraction alone before
  "of" (``½ of the residents`` = ``half of``), and a fraction slash writes the vulgar fraction it
  normalises from (``1⁄2`` = ``½``).
* Skipped, with the reason: small whole numbers (up to ``figures_small_whole_max``) standing
  alone, with no unit, scale, sign or decimals (``3 companies``; a small number *word* alone,
  "one", "three", is not read at all, being a word first), a day and
  month without a year (``2 October``), reference numbers (``PEP 632``), and figures that
  cannot be read with confidence (``1.2.3.4``; ``10^8`` where the quote has ``108``).

Where else on the page a missing figure appears is diagnosis: the page's figures are read piece
by piece for at most ``figures_elsewhere_budget_seconds``, so a page of a million numbers cannot
hold the check up; the spans listed are those found before the budget ran out.
"""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal

from core.figures import vocab as v
from core.figures.beside import counted, score_of
from core.figures.locale import writes_decimal_comma
from core.figures.on_page import read_page_figures
from core.figures.read import ReadFigure, read_figures
from core.figures.reasons import missing_reason
from core.figures.restated import in_quote
from core.figures.units import factor
from core.figures.unjudged import power_doubt, skip_reason
from core.models import Figure, FigureCheck, FigureKind, FigureStatus, PageText, Span
from core.settings import Settings

# The word before "in" is looked behind after it, not before: a pattern opening with a literal is searched fast.
_TABLE_SCALE = re.compile(r"in(?<![a-z]in) (thousands|millions|billions)(?![a-z])")
_TABLE_SCALES = {"thousands": Decimal(10) ** 3, "millions": Decimal(10) ** 6, "billions": Decimal(10) ** 9}
_PERIOD_NAMES = {"Q": "quarter", "H": "half"}


def _within(
    claim: Decimal,
    precision: Decimal,
    hedge: str,
    quote: Decimal,
    settings: Settings,
    quote_hedge: str = "",
    entail: bool = False,
) -> bool:
    """Return True when the quote's value is the claim's, to the claim's precision (and hedge).

    ``entail``: the evidence is a page the claim did not quote, so a comparative is held by any
    value (or bound) that makes it true, "more than 100" by 433 and by "over 180".
    """
    half = precision / 2
    # Half-open, as rounding half up: claim 3 holds 2.5 but not 3.5.
    if not hedge or hedge in v.NOT_HEDGES:
        return claim - half <= quote < claim + half
    if hedge in v.TIME_HEDGES:
        return claim - half <= quote < claim + half  # "after 53 reviews" counts 53
    side = v.HEDGE_SIDE.get(hedge, "")
    slack = half + precision * settings.figures_hedge_steps
    # A comparative says what it says ("more than 300" holds 349, "less than 60" holds 57), within a
    # ratio: far beyond it, the figure is another one. A bound the other way holds nothing.
    # A bound against a bound compares the bounds themselves ("up to 84%" is not "up to 64%").
    quote_side = v.HEDGE_SIDE.get(quote_hedge, "")
    # Judged by what it says, a comparative takes no rounding ("more than 510" is not held by 505, nor
    # "fewer than 96,000" by 96,108); its own bound is held ("more than 30 weeks" by "30 weeks": the
    # page's figure may itself be rounded). A bound the other way holds nothing.
    if entail and side == "more":
        return quote_side != "less" and quote >= claim
    if entail and side == "less":
        return quote_side != "more" and quote <= claim
    ratio = Decimal(str(settings.figures_comparative_ratio)) if not quote_side else Decimal(1)
    if hedge in v.NEGATED_HEDGES:
        # A negated comparator names its limit to exclude what passes it: "not more than 112,000" is not
        # held by 112,113, nor "not less than 160,000" by 159,937. Its own bound is held.
        if side == "more":
            return quote_side != "less" and claim <= quote < max(claim + slack, claim * ratio)
        return quote_side != "more" and min(claim - slack, claim / ratio) <= quote <= claim
    if side == "more":
        return quote_side != "less" and claim - half <= quote < max(claim + slack, claim * ratio)
    if side == "less":
        return quote_side != "more" and min(claim - slack, claim / ratio) <= quote < claim + half
    return claim - slack <= quote < claim + slack


def _ends(fig: ReadFigure) -> tuple[Decimal, ...]:
    if fig.value is None:
        return ()
    return (fig.value,) if fig.high is None else (fig.value, fig.high)


def _value_hit(claim: ReadFigure, end: Decimal, quote: ReadFigure, ctx: _QuoteContext, s: Settings) -> bool:
    """Return True when one end of a claim's numeric figure is held by a quote figure."""
    ck, qk = claim.kind, quote.kind
    if ck is FigureKind.YEAR and claim.hedge in v.TIME_HEDGES:
        return _in_time((int(end), 0, 0), claim.hedge, quote, ctx.entail)
    if ck is FigureKind.YEAR:
        if qk in (FigureKind.YEAR, FigureKind.NUMBER):
            return any(q == end for q in _ends(quote))
        if qk in (FigureKind.DATE, FigureKind.MONTH):
            return quote.date[0] == end
        return qk is FigureKind.PERIOD and quote.period[2] == end and quote.period[0] != "decade"
    if ck is FigureKind.NUMBER and qk in (FigureKind.DATE, FigureKind.MONTH):
        # A year before figures_year_min reads as a number ("died in 1714"): a date in that year holds it.
        return len(claim.written) == 4 and claim.written.isdigit() and quote.date[0] == end
    if ck in (FigureKind.NUMBER, FigureKind.ORDINAL):
        if claim.written and "." in claim.written and qk is FigureKind.VERSION:
            return quote.parts == tuple(claim.written.split("."))
        if qk not in (FigureKind.NUMBER, FigureKind.ORDINAL, FigureKind.YEAR, FigureKind.MONEY):
            return False
    elif ck is FigureKind.MONEY:
        if qk is FigureKind.NUMBER:
            if claim.currency not in ctx.currencies:
                return False
        elif qk is not FigureKind.MONEY or quote.currency != claim.currency:
            return False
    elif ck != qk:
        return False
    precision = claim.precision
    if claim.unit and quote.unit and claim.unit != quote.unit:
        ratio = factor(claim.unit, quote.unit)
        if ratio is None:
            return False  # "5,200 miles" is not held by "5,150 km"
        end, precision = end * ratio, precision * ratio  # "1.5 hours" is held by "90 minutes"
    if claim.unit and qk is FigureKind.ORDINAL and ck is not FigureKind.ORDINAL:
        return False  # "9 GB" is not held by "a 9th generation"
    values = list(_ends(quote))
    if quote.scale == 1 and qk in (FigureKind.NUMBER, FigureKind.MONEY):
        # A table's "($ in millions)" scales its bare figures: "($479)" there is $479 million.
        values += [q * scale for q in _ends(quote) for scale in ctx.table_scales]
    for q in values:
        if claim.negative and q >= 0:
            continue
        if _within(abs(end), precision, claim.hedge, abs(q), s, quote.hedge, ctx.entail):
            return True
    return False


def _in_time(point: tuple[int, int, int], hedge: str, quote: ReadFigure, entail: bool = False) -> bool:
    """Return True when a quote's year or date lies on the claim's side of a bound in time ("before 1980")."""
    if quote.kind in (FigureKind.DATE, FigureKind.MONTH):
        q = quote.date
    elif quote.kind is FigureKind.YEAR and quote.value is not None:
        # A range of years lies on one side when both its ends do ("from 2000 to 2013" is after 1900).
        q = (int(quote.value if v.HEDGE_SIDE[hedge] == "more" else quote.high or quote.value), 0, 0)
    else:
        return False
    # Compare only as finely as both are written: "after July 2015" against "1 January 2016".
    depth = 1 + (point[1] > 0 and q[1] > 0) + (point[2] > 0 and q[2] > 0)
    a, b = q[:depth], point[:depth]
    more = v.HEDGE_SIDE[hedge] == "more"
    # "from 2000 to 2013" is a range, not a bound; a page's "by September 2017" is its point in time.
    if quote.hedge and quote.hedge not in v.NOT_HEDGES and quote.hedge != "by":
        # A bound against a bound holds the same bound ("prior to August 19, 2004" both ways round); on a
        # page the claim did not quote, also a tighter one on its side ("at least 2014" holds "after 2013").
        tighter = entail and (a > b if more else a < b)
        return v.HEDGE_SIDE.get(quote.hedge) == v.HEDGE_SIDE[hedge] and (a == b or tighter)
    if hedge == "by":
        # On a page, "by February 2009" holds January 2009 and February 2009 itself; a quote must say its point.
        return a <= b if entail else a == b
    if hedge in v.NEGATED_HEDGES:
        return a >= b if more else a <= b  # "not before 1976" holds 1976 itself
    return a > b if more else a < b


def _in_decade(decade: int, year: int) -> bool:
    """Return True when the year lies in the decade; a decade written "'80s" (80) in any century's."""
    return year // 10 * 10 == decade or (decade < 100 and year % 100 // 10 * 10 == decade)


def _decade_hit(decade: int, quote: ReadFigure) -> bool:
    """Return True when the quote figure names the decade or a time in it ("the 1980s" by "1985", "May 1987")."""
    if quote.kind is FigureKind.PERIOD:
        year = quote.period[2]
        if quote.period[0] == "decade":
            return year == decade or (min(year, decade) < 100 and year % 100 == decade % 100)
        return bool(year) and _in_decade(decade, year)
    if quote.kind in (FigureKind.DATE, FigureKind.MONTH):
        return _in_decade(decade, quote.date[0])
    four = quote.written.isdigit() and len(quote.written) == 4  # a year before figures_year_min reads as a number
    if quote.kind is FigureKind.YEAR or (quote.kind is FigureKind.NUMBER and four):
        return quote.value is not None and quote.high is None and _in_decade(decade, int(quote.value))
    return False


def _period_hit(claim: ReadFigure, quote: ReadFigure, quote_years: frozenset[int]) -> bool:
    c_label, c_n, c_year, c_fiscal = claim.period
    if c_label == "decade":
        return _decade_hit(c_year, quote)
    q_label, q_n, q_year, q_fiscal = quote.period
    if quote.kind is not FigureKind.PERIOD or c_label != q_label or c_n != q_n:
        return False
    if not c_year:
        return True
    if q_year:
        return q_year == c_year and (q_fiscal or not c_fiscal or c_label != "FY")
    # "second quarter ... 2023" in one quote holds "Q2 2023" when the period itself has no year.
    return c_label != "FY" and c_year in quote_years


def _hit(claim: ReadFigure, quote: ReadFigure, ctx: _QuoteContext, s: Settings) -> bool:
    """Return True when the quote figure holds the claim figure whole (both ends of a range)."""
    ck = claim.kind
    if ck is FigureKind.SCORE or (quote.kind is FigureKind.SCORE and claim.is_range and score_of(claim)):
        # Both numbers, told from either side: "won 3-1" is held by "3-1" and by "lost 1-3", never by "2-1".
        mine, theirs = score_of(claim), score_of(quote)
        return mine is not None and theirs is not None and mine in (theirs, theirs[::-1])
    if quote.kind is FigureKind.SCORE:
        # Each number of a score or record counts: "16-0" holds "won every game, over 15".
        return any(_hit(claim, n, ctx, s) for n in counted([quote]))
    if ck is FigureKind.VERSION:
        if quote.kind is FigureKind.VERSION:
            return quote.parts[: len(claim.parts)] == claim.parts
        return quote.kind is FigureKind.NUMBER and quote.written == ".".join(claim.parts) and quote.high is None
    if ck is FigureKind.TIME:
        # A time of day is the same time: "11:59 pm" = "11.59 p.m"; "11:30" without "am" or "pm" may be either.
        if quote.kind is not FigureKind.TIME:
            return False
        if claim.parts and quote.parts:
            return claim.date == quote.date
        return claim.date[1] % 12 == quote.date[1] % 12 and claim.date[2] == quote.date[2]
    if ck in (FigureKind.DATE, FigureKind.MONTH) and claim.hedge:
        return _in_time(claim.date, claim.hedge, quote, ctx.entail)
    if ck is FigureKind.DATE:
        return quote.kind is FigureKind.DATE and quote.date == claim.date
    if ck is FigureKind.PARTIAL_DATE:
        # A day and month is held by that day of that month in any year: "born on February 16" by "February 16, 1995".
        return quote.kind in (FigureKind.DATE, FigureKind.PARTIAL_DATE) and quote.date[1:] == claim.date[1:]
    if ck is FigureKind.MONTH:
        return quote.kind in (FigureKind.DATE, FigureKind.MONTH) and quote.date[:2] == claim.date[:2]
    if ck is FigureKind.PERIOD:
        return _period_hit(claim, quote, ctx.years)
    if claim.is_range and quote.is_range:
        # Ends pair up: the claim's low end with the quote's low end, high with high.
        high = _ends(quote)[1]
        return _value_hit(claim, _ends(claim)[0], replace(quote, high=None), ctx, s) and _value_hit(
            claim, _ends(claim)[1], replace(quote, value=high, high=None), ctx, s
        )
    return all(_value_hit(claim, end, quote, ctx, s) for end in _ends(claim))


class _QuoteContext:
    # What the whole quote says beyond single figures: its loose currency marks and its years.
    def __init__(self, figs: list[ReadFigure], quote: str, entail: bool = False) -> None:
        self.figs = figs
        self.entail = entail
        # Currency marks outside any figure ("($ in millions)") give the quote's bare numbers a currency.
        rest = list(quote)
        for f in figs:
            rest[f.start : f.end] = [" "] * (f.end - f.start)
        low = "".join(rest).lower()
        loose = {code for mark, code in v.CURRENCY_CODES.items() if len(mark) == 1 and mark in low}
        padded = f" {low} "  # once a quote, not once a currency word
        loose |= {code for mark, code in v.CURRENCY_CODES.items() if len(mark) > 2 and f" {mark} " in padded}
        self.currencies = frozenset(loose)
        self.table_scales = tuple(_TABLE_SCALES[m] for m in _TABLE_SCALE.findall(low))
        years = {int(f.value) for f in figs if f.kind is FigureKind.YEAR and f.value is not None}
        years |= {f.date[0] for f in figs if f.date[0]}
        years |= {f.period[2] for f in figs if f.period[2] and not f.period[3] and f.period[0] != "decade"}
        self.years = frozenset(years)


def _find(claim: ReadFigure, ctx: _QuoteContext, s: Settings) -> ReadFigure | None:
    """Return the quote figure that holds the claim figure, or None."""
    for q in ctx.figs:
        if _hit(claim, q, ctx, s):
            return q
    if claim.is_range:
        # Both ends held by two single figures of the quote ("from 10% ... to 60%"), never by ends of other ranges.
        singles = [q for q in ctx.figs if not q.is_range]
        lows = [q for q in singles if claim.value is not None and _value_hit(claim, claim.value, q, ctx, s)]
        highs = [q for q in singles if claim.high is not None and _value_hit(claim, claim.high, q, ctx, s)]
        if lows and highs:
            return lows[0]
    return None


def holder(claim: ReadFigure, figs: list[ReadFigure], text: str, s: Settings) -> ReadFigure | None:
    """Return the figure of figs (a page's, read from text) that makes the claim figure true, or None."""
    return _find(claim, _QuoteContext(figs, text, entail=True), s)


def holders(claim: ReadFigure, figs: list[ReadFigure], s: Settings, limit: int) -> list[ReadFigure]:
    """Return up to limit figures of a page that each make the claim figure true, in page order."""
    ctx = _QuoteContext(figs, "", entail=True)
    out: list[ReadFigure] = []
    for q in figs:
        if _hit(claim, q, ctx, s):
            out.append(q)
            if len(out) >= limit:
                break
    return out


def _elsewhere(claim: ReadFigure, page: PageText | None, s: Settings) -> tuple[Span, ...]:
    if page is None or not page.text:
        return ()
    figs = list(read_page_figures(page.text, s.figures_elsewhere_budget_seconds, s.figures_elsewhere_piece_chars))
    ctx = _QuoteContext(figs, "")
    spans: list[Span] = []
    for q in figs:
        if _hit(claim, q, ctx, s):
            spans.append((q.start, q.end))
            if len(spans) >= s.figures_elsewhere_max:
                break
    return tuple(spans)


def _figure(
    c: ReadFigure, status: FigureStatus, *, quote_text: str = "", reason: str = "", elsewhere: tuple[Span, ...] = ()
) -> Figure:
    return Figure(
        text=c.text,
        status=status,
        quote_text=quote_text,
        reason=reason,
        kind=c.kind,
        span=(c.start, c.end),
        elsewhere=elsewhere,
    )


def check_figures(
    claim_text: str, quote: str | None, page: PageText | None = None, settings: Settings | None = None
) -> FigureCheck:
    """Return every figure of the claim as matched, missing or skipped against the quote (never raises)."""
    s = settings or Settings()
    # Each text is read in its own language's way of writing numbers: a quote in that of its page.
    text = quote or ""
    claim_figs = read_figures(claim_text, writes_decimal_comma(claim_text))
    quote_figs = read_figures(text, writes_decimal_comma(page.text if page is not None else text))
    ctx = _QuoteContext(quote_figs, text)
    out: list[Figure] = []
    for c in claim_figs:
        reason = skip_reason(c, claim_text)
        if reason:
            out.append(_figure(c, FigureStatus.SKIPPED, reason=reason))
        elif not text.strip():
            out.append(_figure(c, FigureStatus.MISSING, reason="There is no quote to hold this figure."))
        elif found := _find(c, ctx, s) or _find(c, _QuoteContext(in_quote(c, text, quote_figs), text), s):
            out.append(_figure(c, FigureStatus.MATCHED, quote_text=found.text))
        elif doubt := power_doubt(c, quote_figs):
            out.append(_figure(c, FigureStatus.SKIPPED, reason=doubt[0].upper() + doubt[1:]))
        else:
            reason = missing_reason(c, ctx.figs, ctx.currencies)
            out.append(_figure(c, FigureStatus.MISSING, reason=reason, elsewhere=_elsewhere(c, page, s)))
    return FigureCheck(tuple(out))


__all__ = ["ReadFigure", "check_figures", "read_figures"]
