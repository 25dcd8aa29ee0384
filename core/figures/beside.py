"""The figure of a passage in a claim figure's place, for a claim without a quote (``core.figures.page``).

``judged_against`` returns the passage figures a claim figure is judged against: all of them, or
for a comparative the one beside the same words ("28 reviews" for "less than 28 reviews"), else the
one of its kind closest in value (``nearest``); ``with_hedge`` writes a figure as its text does,
with the hedge before it ("an estimated 5%"). This module picks figures; it never judges them.
"""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal

from core.figures import vocab as v
from core.figures.read import ReadFigure
from core.models import FigureKind
from core.settings import Settings

# What the passage may hold "in the place" of a claim figure: figures of these kinds stand for it.
IN_PLACE = {
    FigureKind.NUMBER: (FigureKind.NUMBER, FigureKind.ORDINAL, FigureKind.MONEY),
    FigureKind.ORDINAL: (FigureKind.ORDINAL, FigureKind.NUMBER),
    FigureKind.MONEY: (FigureKind.MONEY, FigureKind.NUMBER),
    FigureKind.PERCENT: (FigureKind.PERCENT, FigureKind.POINTS),
    FigureKind.POINTS: (FigureKind.POINTS, FigureKind.PERCENT),
    FigureKind.MULTIPLIER: (FigureKind.MULTIPLIER,),
    FigureKind.YEAR: (FigureKind.YEAR, FigureKind.DATE, FigureKind.MONTH, FigureKind.PERIOD),
    FigureKind.DATE: (FigureKind.DATE, FigureKind.MONTH, FigureKind.PARTIAL_DATE, FigureKind.YEAR),
    FigureKind.MONTH: (FigureKind.MONTH, FigureKind.DATE, FigureKind.YEAR),
    FigureKind.PARTIAL_DATE: (FigureKind.PARTIAL_DATE, FigureKind.DATE),
    FigureKind.VERSION: (FigureKind.VERSION,),
    FigureKind.PERIOD: (FigureKind.PERIOD,),
    FigureKind.TIME: (FigureKind.TIME,),
    FigureKind.SCORE: (FigureKind.SCORE,),
}
# How far a comparative reaches on a page by default ("more than 60" is made true by 65, not by 883).
_RATIO = Decimal(str(Settings().figures_comparative_ratio))
# How far before a page figure its noun may stand ("the number of recoveries reached 65").
_NEAR_CHARS = 40
_WORD_AFTER = re.compile(r"(?:\s?[A-Za-z]{1,2}\b){0,2}\s?([A-Za-z]{3,})")


def with_hedge(text: str, fig: ReadFigure) -> str:
    """Return the figure as its text writes it, with the hedge before it ("an estimated 5%")."""
    if not fig.hedge:
        return fig.text
    start = max(0, fig.start - len(fig.hedge) - 3)
    k = text[start : fig.start].lower().rfind(fig.hedge)
    return " ".join(text[start + k : fig.end].split()) if k >= 0 else f"{fig.hedge} {fig.text}"


def nearest(claim: ReadFigure, figs: list[ReadFigure]) -> ReadFigure | None:
    """Return the figure of figs that stands in the claim figure's place: its kind, closest in value."""
    kinds = IN_PLACE.get(claim.kind, (claim.kind,))
    same = [f for f in figs if f.kind in kinds]
    if not same:
        return None
    first = [f for f in same if f.kind is claim.kind] or same

    def distance(f: ReadFigure) -> Decimal:
        if claim.value is None or f.value is None:
            return Decimal(0) if f.kind is claim.kind else Decimal(1)
        return abs(abs(f.value) - abs(claim.value)) / max(abs(claim.value), Decimal(1))

    return min(first, key=distance)


def _word_after(text: str, end: int) -> str:
    """Return the word right after a figure, singular ("reviews" -> "review"), "" when none.

    Up to two short words before it come with it ("$ 40 million in North America" -> "in north"),
    so that "398 Hawaii" is not beside "70 in Hawaii County".
    """
    m = _WORD_AFTER.match(text, end)
    if not m:
        return ""
    short = " ".join(text[m.start() : m.start(1)].lower().split())
    return f"{short} {m.group(1).lower().removesuffix('s')}".strip()


def _second_word(text: str, end: int) -> str:
    """Return the second word after a figure, singular, "" when none."""
    m = _WORD_AFTER.match(text, end)
    return _word_after(text, m.end()) if m else ""


def counted(figs: list[ReadFigure]) -> list[ReadFigure]:
    """Return the figures with each score or record read as its two numbers: "16-0" holds "won over 15 games"."""
    if not any(f.kind is FigureKind.SCORE for f in figs):
        return figs
    out: list[ReadFigure] = []
    for f in figs:
        if f.kind is not FigureKind.SCORE or f.high is None:
            out.append(f)
            continue
        out += [replace(f, kind=FigureKind.NUMBER, value=n, high=None, written=str(n)) for n in (f.value, f.high)]
    return out


def score_of(fig: ReadFigure) -> tuple[Decimal, Decimal] | None:
    """Return a score's two numbers, or a range's written as one ("0-3": a score counting up), else None."""
    if fig.value is None or fig.high is None:
        return None
    if fig.kind is FigureKind.SCORE or (fig.kind is FigureKind.NUMBER and _DASHED.fullmatch(fig.text)):
        return fig.value, fig.high
    return None


_DASHED = re.compile(r"\d{1,3} ?[-–—] ?\d{1,3}")


def judged_against(
    claim: ReadFigure, claim_text: str, passage: list[ReadFigure], text: str, ratio: Decimal = _RATIO
) -> list[ReadFigure]:
    """Return the passage figures a claim figure is judged against: all, or for a comparative the one in its place.

    "Less than 28 critics" is true of any smaller number, so it is judged only against the figure
    beside the same word ("32 reviews" for "28 reviews"), else the one of its kind closest in value.
    """
    if claim.kind is not FigureKind.SCORE:
        passage = counted(passage)
    if claim.hedge not in v.HEDGE_SIDE or claim.hedge in v.TIME_HEDGES:
        return passage
    kinds = IN_PLACE.get(claim.kind, (claim.kind,))
    if claim.kind is FigureKind.ORDINAL:
        # "ranked above 26th" compares ranks, which way the claim's words say (_rank_compared), never by value.
        return []
    four = claim.written.replace(",", "").isdigit() and len(claim.written.replace(",", "")) == 4
    # A four-digit count may stand as a page "year" near its value ("over 2000 cases" against "1986 cases").
    alike = [
        f
        for f in passage
        if (f.kind in kinds or (four and f.kind is FigureKind.YEAR and _near_value(claim, f, ratio)))
        and (f.kind is not FigureKind.YEAR or claim.kind is FigureKind.YEAR or four)
    ]
    word = _word_after(claim_text, claim.end)
    beside = [f for f in alike if word and _word_after(text, f.end) == word]
    if len(beside) > 1:
        # "under 8,500 passing yards": of "25 passing records" and "9,008 passing yards", the one of its two words.
        second = _second_word(claim_text, claim.end)
        beside = [f for f in beside if second and _second_word(text, f.end) == second] or beside
    # With no figure right beside its word, one of its kind near that word (or the claim's word before it)
    # that the comparative makes true within the ratio holds it ("more than 60 recoveries" by "recoveries
    # reached 65", though "58 deaths" is nearer in value; "France with under $ 24 million" by "France ( $ 23.8
    # million )"); so does one beside a figure that does not ("over 90 million views" by "just under 60
    # million views ... and 92 million"). Else the nearest says what stands in its place.
    nouns = (word.rsplit(" ", 1)[-1], _word_before(claim_text, claim))
    made_true = [f for f in alike if _made_true(claim, f, ratio) and any(_names_near(text, f, noun) for noun in nouns)]
    if beside:
        return beside if any(_made_true(claim, f, ratio) for f in beside) else beside + made_true
    if made_true:
        return made_true
    near = nearest(claim, alike)
    return [near] if near is not None else []


def beside_its_word(claim: ReadFigure, claim_text: str, figs: list[ReadFigure], text: str) -> list[ReadFigure]:
    """Return the figures of figs of the claim figure's kind beside the same word ("95 homes" for "100 homes")."""
    word = _word_after(claim_text, claim.end)
    return [f for f in figs if word and f.kind is claim.kind and _word_after(text, f.end) == word]


_STOP = frozenset(
    {"with", "that", "have", "been", "were", "this", "from", "than", "more", "less", "over", "under", "about", "some"}
    | {"only", "each", "their", "which"}
)
_WORD = re.compile(r"[A-Za-z]{4,}")


def _word_before(text: str, claim: ReadFigure) -> str:
    """Return the claim's last content word before a figure and its hedge ("France with under $ 24" -> "france")."""
    head = text[max(0, claim.start - len(claim.hedge) - 40) : claim.start].lower()
    if claim.hedge and head.rstrip().endswith(claim.hedge):
        head = head.rstrip()[: -len(claim.hedge)]
    words = [w for w in _WORD.findall(head)[-2:] if w not in _STOP]
    return words[-1] if words else ""


def _names_near(text: str, f: ReadFigure, noun: str) -> bool:
    """Return True when the page names the claim's noun near the figure ("recoveries reached 65")."""
    if len(noun) < 4:
        return False  # "of the" names nothing
    window = text[max(0, f.start - _NEAR_CHARS) : f.end + _NEAR_CHARS // 2].lower()
    return re.search(rf"(?<![a-z]){re.escape(noun)}", window) is not None


def _near_value(claim: ReadFigure, f: ReadFigure, ratio: Decimal) -> bool:
    """Return True when the figure's value lies within the ratio of the claim's, either way."""
    if claim.value is None or f.value is None or claim.value <= 0:
        return False
    return claim.value / ratio < abs(f.value) < claim.value * ratio


def _made_true(claim: ReadFigure, f: ReadFigure, ratio: Decimal) -> bool:
    """Return True when the figure's value lies on the comparative's side of the claim's, within the ratio."""
    if claim.value is None or f.value is None or claim.value <= 0 or f.is_range:
        return False
    c, q = claim.value, abs(f.value)
    return c <= q < c * ratio if v.HEDGE_SIDE[claim.hedge] == "more" else c / ratio < q <= c


__all__ = ["IN_PLACE", "beside_its_word", "judged_against", "nearest", "with_hedge"]
