"""A passage's figures in the form a claim restates them, for a claim without a quote (``core.figures.page``).

A claim may write a page's figure another way: "14 days" for "two weeks", "60 seconds" for
"about a minute", "30 minutes" for "half an hour" and "18 months" for "a year and a half" (a
duration in another unit of time, converted exactly by ``core.figures.units``), "13 years" for
"from 2004 to 2017" (a span of dates as a duration), "2-1" for "by two Tests to one" (a score in
words), "6/10" read as the rating "6" a claim writes "below 6.05/10", and "30.000" with its point
grouping thousands in an English page ("about 30.000 inhabitants" for "around 30,000"). Each is
tried only after the passage's own figures hold nothing; durations, spans and scores are tried
with a quote as with a page (``in_quote``). This module reads and converts; it never judges a figure.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import replace
from decimal import Decimal

from core.figures import vocab as v
from core.figures.read import ReadFigure
from core.figures.scan import precision_of
from core.figures.units import factor
from core.models import FigureKind

_TIME_UNIT = {
    "second": "s", "minute": "min", "hour": "h", "day": "day", "week": "week", "month": "month", "year": "year",
}  # fmt: skip
_TIME_UNITS = frozenset(_TIME_UNIT.values())
_COUNT = r"\d+(?:\.\d+)?|half an?|a|an|one|" + v.TENS_WORD + r"(?:-" + v.UNIT_WORD + r")?|" + v.UNIT_WORD
# "two and a half years", and the half after the unit: "a year and a half", "two hours and a half".
_DURATION = re.compile(
    r"(?<![\w.,-])(?P<n>" + _COUNT + r")(?P<andhalf>[\s-]and[\s-]a[\s-]half)?"
    r"[\s-](?P<unit>second|minute|hour|day|week|month|year)s?(?![a-z])"
    r"(?(andhalf)|(?P<halfafter>[\s-]and[\s-]a[\s-]half(?![\w-]))?)",
    re.IGNORECASE,
)
_RATING = re.compile(r"(?<![\d./])(\d+(?:\.\d+)?)\s?(?:/\s?10|out of 10)\b(?![\d.,/])", re.IGNORECASE)
_CLAIM_RATING = re.compile(r"\s?(?:/\s?10|out of 10)\b")
_POINT_GROUPED = re.compile(r"[1-9]\d{0,2}\.\d{3}")


def _count(word: str) -> Decimal:
    w = word.lower()
    if w[0].isdigit():
        return Decimal(w)
    if w in ("a", "an", "one"):
        return Decimal(1)
    if w.startswith("half"):
        return Decimal("0.5")
    tens, _, unit = w.partition("-")
    return Decimal(v.TENS.get(tens, v.UNITS.get(tens, 0)) + v.UNITS.get(unit, 0))


def durations(claim: ReadFigure, text: str, start: int, end: int) -> list[ReadFigure]:
    """Return the durations between start and end in the claim figure's unit of time ("two weeks" as 14 days)."""
    if claim.unit not in _TIME_UNITS:
        return []
    out = []
    for m in _DURATION.finditer(text, start, end):
        unit = _TIME_UNIT[m.group("unit").lower()]
        ratio = factor(unit, claim.unit)
        if ratio is None or (unit == claim.unit and m.group("n")[0].isdigit()):
            continue  # a figure in the claim's own unit is read as the passage's own figure already
        half = m.group("andhalf") or m.group("halfafter")
        value = (_count(m.group("n")) + (Decimal("0.5") if half else 0)) * ratio
        out.append(ReadFigure(text=m.group(0), kind=FigureKind.NUMBER, start=m.start(), end=m.end(), value=value,
                              precision=ratio, written=str(value), unit=claim.unit))  # fmt: skip
    return out


def date_spans(claim: ReadFigure, text: str, figs: list[ReadFigure]) -> list[ReadFigure]:
    """Return the spans of dates among figs as durations in the claim's unit of time ("1939–1945" as 6 years).

    A range of years counts its years ("2010 to 2016", 6), two dates joined by "to", "until", "and"
    or a dash their days ("since 5 March 2020 to 27 March 2020", 22, read to the week too), two
    months their months. A span converts only where ``units.factor`` converts exactly: days never
    become months.
    """
    if claim.unit not in _TIME_UNITS:
        return []
    out = []
    for i, f in enumerate(figs):
        g = figs[i + 1] if i + 1 < len(figs) else None
        span: tuple[int, str] | None = None
        if f.kind is FigureKind.YEAR and f.value is not None and f.high is not None:
            span = int(f.high - f.value), "year"
        elif g is not None and _SPAN_JOIN.fullmatch(text, f.end, g.start):
            span = _between(f, g)
        ratio = factor(span[1], claim.unit) if span is not None else None
        if span is None or ratio is None or span[0] <= 0:
            continue
        value = span[0] * ratio
        last = g.end if g is not None and span[1] != "year" else f.end
        out.append(ReadFigure(text=text[f.start : last], kind=FigureKind.NUMBER, start=f.start, end=last, value=value,
                              precision=ratio, written=str(value), unit=claim.unit))  # fmt: skip
    return out


_SPAN_JOIN = re.compile(r"\s*(?:[-–—]|to|until|till|through|and)\s*", re.IGNORECASE)


def _between(f: ReadFigure, g: ReadFigure) -> tuple[int, str] | None:
    """Return the days from one date to the next, or the months from one month to the next; None for others."""
    if f.kind in (FigureKind.DATE, FigureKind.PARTIAL_DATE) and g.kind is FigureKind.DATE:
        year = f.date[0] or g.date[0]  # "from March 5 to March 27, 2020": the year is said once
        try:
            return (datetime.date(*g.date) - datetime.date(year, *f.date[1:])).days, "day"
        except ValueError:
            return None
    if f.kind is FigureKind.MONTH and g.kind is FigureKind.MONTH:
        return (g.date[0] - f.date[0]) * 12 + g.date[1] - f.date[1], "month"
    return None


_SCORE_COUNT = r"\d{1,3}|" + v.TENS_WORD + r"(?:-" + v.UNIT_WORD + r")?|" + v.UNIT_WORD
# A score in words: "by two Tests to one", "three goals to nil", "won 2 to 1".
_WORD_SCORE = re.compile(
    r"(?<![\w.,-])(?P<a>"
    + _SCORE_COUNT
    + r")(?:\s(?!to\b)[a-z]+)?\s(?:to|-)\s(?P<b>nil|"
    + _SCORE_COUNT
    + r")(?![\w-])",
    re.IGNORECASE,
)


def word_scores(claim: ReadFigure, text: str, start: int, end: int) -> list[ReadFigure]:
    """Return the scores between start and end written in words ("by two Tests to one" as 2-1), for a claim's score."""
    if claim.kind is not FigureKind.SCORE:
        return []
    out = []
    for m in _WORD_SCORE.finditer(text, start, end):
        a, b = _count(m.group("a")), Decimal(0) if m.group("b").lower() == "nil" else _count(m.group("b"))
        out.append(ReadFigure(text=m.group(0), kind=FigureKind.SCORE, start=m.start(), end=m.end(), value=a, high=b,
                              written=f"{a}-{b}"))  # fmt: skip
    return out


def ratings(claim: ReadFigure, claim_text: str, text: str, start: int, end: int) -> list[ReadFigure]:
    """Return the ratings out of 10 between start and end ("6/10" as 6), for a claim that writes one ("6.05/10")."""
    if claim.kind is not FigureKind.NUMBER or not _CLAIM_RATING.match(claim_text, claim.end):
        return []
    out = []
    for m in _RATING.finditer(text, start, end):
        num = m.group(1)
        out.append(ReadFigure(text=m.group(0), kind=FigureKind.NUMBER, start=m.start(), end=m.end(),
                              value=Decimal(num), precision=precision_of(num), written=num))  # fmt: skip
    return out


def point_grouped(claim: ReadFigure, figs: list[ReadFigure]) -> list[ReadFigure]:
    """Return the figures written "30.000" read with their point grouping thousands, for a claim of thousands."""
    if claim.value is None or claim.value < 1000 or "." in claim.written:
        return []
    out = []
    for f in figs:
        if (
            f.kind in (FigureKind.NUMBER, FigureKind.MONEY)
            and f.value is not None
            and _POINT_GROUPED.fullmatch(f.written)
        ):
            written = f.written.replace(".", ",")
            out.append(replace(f, value=f.value * 1000, precision=precision_of(written) * f.scale, written=written))
    return out


_LOST_SIGN = re.compile(v.LOST_CHAR + r"\s?$")


def lost_sign(claim: ReadFigure, text: str, figs: list[ReadFigure]) -> list[ReadFigure]:
    """Return the bare figures right after a character the page's encoding lost, in the claim's currency."""
    if claim.kind is not FigureKind.MONEY:
        return []
    return [
        replace(f, kind=FigureKind.MONEY, currency=claim.currency)
        for f in figs
        if f.kind is FigureKind.NUMBER and _LOST_SIGN.search(text, max(0, f.start - 4), f.start)
    ]


def in_quote(claim: ReadFigure, quote: str, figs: list[ReadFigure]) -> list[ReadFigure]:
    """Return a quote's figures (``figs`` read there) as the claim figure may restate them.

    "two weeks" as 14 days, "1939–1945" as 6 years, "by two Tests to one" as 2-1.
    """
    end = len(quote)
    return durations(claim, quote, 0, end) + date_spans(claim, quote, figs) + word_scores(claim, quote, 0, end)


def restatements(
    claim: ReadFigure, claim_text: str, text: str, start: int, end: int, figs: list[ReadFigure]
) -> list[ReadFigure]:
    """Return the figures between start and end (``figs`` read there) in each form the claim figure may restate."""
    restated = durations(claim, text, start, end) + ratings(claim, claim_text, text, start, end)
    restated += word_scores(claim, text, start, end)
    return restated + point_grouped(claim, figs) + lost_sign(claim, text, figs) + date_spans(claim, text, figs)


__all__ = [
    "date_spans",
    "durations",
    "in_quote",
    "lost_sign",
    "point_grouped",
    "ratings",
    "restatements",
    "word_scores",
]
