"""Why a figure of the claim is missing from its quote, in words, and the words for each kind of figure.

``missing_reason`` names what the quote holds instead: another currency, percentage points, other
periods, the same number bounded the other way ("no more than 850" for "more than 850"), or the
figures of the claim figure's kind it does hold. This module words; it never compares figures.
"""

from __future__ import annotations

from core.figures import vocab as v
from core.figures.read import ReadFigure
from core.models import FigureKind

KIND_WORDS = {
    FigureKind.NUMBER: "number",
    FigureKind.ORDINAL: "number",
    FigureKind.PERCENT: "percentage",
    FigureKind.POINTS: "percentage-point figure",
    FigureKind.MONEY: "amount",
    FigureKind.MULTIPLIER: "multiplier",
    FigureKind.YEAR: "year",
    FigureKind.DATE: "date",
    FigureKind.MONTH: "month",
    FigureKind.VERSION: "version",
    FigureKind.PERIOD: "period",
    FigureKind.TIME: "time of day",
    FigureKind.SCORE: "score",
}
COUNTABLE = frozenset({FigureKind.NUMBER, FigureKind.ORDINAL, FigureKind.YEAR})


def _describe(fig: ReadFigure) -> str:
    if fig.kind is FigureKind.PERIOD:
        label, n, year, fiscal = fig.period
        if label == "decade":
            return fig.text
        name = (
            f"fiscal {year}" if label == "FY" else f"{label}{n}" + (f" {'FY' if fiscal else ''}{year}" if year else "")
        )
        return f"{fig.text} ({name})" if name.lower() != fig.text.lower() else fig.text
    return fig.text


def missing_reason(claim: ReadFigure, figs: list[ReadFigure], currencies: frozenset[str]) -> str:
    """Return why the quote's figures (and its loose currency marks) do not hold the claim figure."""
    if not figs and not currencies:
        return f"The quote holds no figures at all, so it cannot hold “{claim.text}”."
    kind = FigureKind.NUMBER if claim.kind in COUNTABLE else claim.kind
    word = KIND_WORDS.get(claim.kind, "figure")
    same = [q for q in figs if (FigureKind.NUMBER if q.kind in COUNTABLE else q.kind) == kind]
    relation = "within one rounding step of" if claim.hedge and claim.hedge not in v.NOT_HEDGES else "equal to"
    head = f"The quote holds no {word} {relation} “{claim.text}”"
    if claim.kind is FigureKind.MONEY:
        other = [q for q in same if q.currency and q.currency != claim.currency]
        if other:
            return f"{head}: its amount {other[0].text} is in {other[0].currency}, the claim's in {claim.currency}."
        if claim.currency not in currencies and any(q.kind is FigureKind.NUMBER for q in figs):
            return f"{head}: the quote names no amount in {claim.currency}."
    if claim.kind is FigureKind.PERCENT and any(q.kind is FigureKind.POINTS for q in figs):
        pts = next(q for q in figs if q.kind is FigureKind.POINTS)
        return f"{head}: the quote gives {pts.text}, which are percentage points, not percent."
    if claim.kind is FigureKind.PERIOD and claim.period[2]:
        periods = [q for q in figs if q.kind is FigureKind.PERIOD]
        if periods:
            return f"{head}: the quote names {', '.join(_describe(q) for q in periods[:4])}."
    side = v.HEDGE_SIDE.get(claim.hedge, "")
    other_way = [q for q in same if q.value == claim.value and v.HEDGE_SIDE.get(q.hedge, side) != side]
    if side and claim.hedge not in v.TIME_HEDGES and other_way:
        # "more than 850" against "no more than 850": the same number, bounded the other way.
        q = other_way[0]
        return f"{head}: the quote's “{q.hedge} {q.text}” bounds it the other way from the claim's “{claim.hedge}”."
    if same:
        return f"{head}: it has {', '.join(q.text for q in same[:4])}."
    return f"{head}."


def same_kind(claim: ReadFigure, other: ReadFigure) -> bool:
    """Return True when other is a figure of the claim figure's kind as the missing reasons count them."""
    ck = FigureKind.NUMBER if claim.kind in COUNTABLE else claim.kind
    return (FigureKind.NUMBER if other.kind in COUNTABLE else other.kind) == ck and other.kind is not FigureKind.LABEL


def kind_word(fig: ReadFigure) -> str:
    """Return the word for a figure's kind ("percentage", "year"), "figure" when it has none."""
    return KIND_WORDS.get(fig.kind, "figure")


__all__ = ["KIND_WORDS", "kind_word", "missing_reason", "same_kind"]
