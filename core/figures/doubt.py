"""Why a figure of a claim without a quote cannot be judged on its page, so is skipped, never flagged.

``implicit`` returns the reason, "" when the figure can be judged: a year or date the page leaves
implicit (a day and month without a year, the month named alone, no year at all), a year that is
part of a name, a bound in time whose point the passage gives itself ("after 2003" against "Since
2003"), a rank the claim compares ("richer than the 15th" against "12th"), a count the page writes
as an ordinal ("64 years old" against "64th birthday"), a measure in another unit, and a page bound
that neither confirms nor refutes the claim ("over 16 million" for "less than 20 million").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from core.figures import vocab as v
from core.figures.beside import beside_its_word, judged_against, with_hedge
from core.figures.read import ReadFigure, read_figures
from core.models import Candidate, FigureKind
from core.settings import Settings

_TIMES = frozenset({FigureKind.YEAR, FigureKind.DATE, FigureKind.MONTH, FigureKind.PERIOD})
# A year glued to a name ("UEFA Euro 2016", "Windows 2000") is part of the name the page may not repeat.
# So is one in brackets after a title ("The Stepford Wives ( 2004 )").
_NAME_BEFORE = re.compile(r"(?:^|[^.!?]\s)(?:[A-Z][\w&'-]*\s){0,3}[A-Z][\w&'-]*\s(?:\(\s?)?$")
# A rank the claim compares rather than states ("richer than the 15th", "behind the 40th", "top 20").
_RANK_COMPARED = re.compile(
    r"(?:\bthan|\bbehind|\bbelow|\babove|\bahead of|\bbeneath|\boutside|\binside|\bwithin|\btop|\bunder|\bover"
    r"|\bbefore|\bafter)"
    r"\s(?:the\s)?(?:[a-z]+\s)?$",
    re.IGNORECASE,
)


def _bounds_meet(claim: ReadFigure, passage: list[ReadFigure], text: str) -> str:
    """Return why a page bound the other way neither confirms nor refutes a claim's bound, "" when none.

    "Less than 20 million" against "over 16 million", "under 280 million" against "more than 275
    million": the two bounds overlap, so the claim's figure is open and skipped with the page's bound.
    Bounds the other way that do not overlap ("less than 20" against "over 25"), and a page bound on
    the claim's own side ("over 1,700" for "more than 2,000"), are still judged.
    """
    side = v.HEDGE_SIDE.get(claim.hedge, "")
    if claim.value is None or not side or claim.hedge in v.TIME_HEDGES or claim.is_range:
        return ""
    for f in passage:
        f_side = v.HEDGE_SIDE.get(f.hedge, "")
        if f.kind is not claim.kind or f.value is None or f_side in ("", side) or f.currency != claim.currency:
            continue
        if (side == "less" and f.value < claim.value) or (side == "more" and f.value > claim.value):
            return (
                f"the passage closest to the claim gives only a bound, “{with_hedge(text, f)}”, which neither"
                f" confirms nor refutes the claim's “{claim.hedge} {claim.text}”; check it by eye."
            )
    return ""


# A rank written as a label ("peaked at number 28", "at # 44").
_RANK_LABEL = re.compile(r"(?:number|no\.|#)\s?\d", re.IGNORECASE)
# Words that compare a rank: toward the first ("richer than the 15th") or away from it ("behind the 40th").
_RANK_UP = re.compile(r"\b(?:richer|wealthier|higher|better|above|ahead of|top|over|more|before)\b", re.IGNORECASE)
_RANK_DOWN = re.compile(r"\b(?:poorer|lower|worse|below|behind|beneath|outside|under|less|after)\b", re.IGNORECASE)


def _rank_compared(claim: ReadFigure, claim_text: str, passage: list[ReadFigure], text: str) -> str:
    """Return why a rank the claim compares is not judged ("richer than the 15th" against "12th"), "" when none.

    The page's rank on the claim's side of it ("12th" for "richer than the 15th", "42nd" for "behind
    the 40th") makes the comparison plausible, but which way a rank counts is the claim's wording: it
    is skipped with what the page holds. A page rank on the other side is still judged.
    """
    before = claim_text[max(0, claim.start - 40) : claim.start]
    # A count compared against a chart position is a rank too ("peaked higher than 35", "at number 31").
    rank = claim.kind is FigureKind.ORDINAL or (
        claim.kind is FigureKind.NUMBER
        and (before.lower().rstrip().endswith("top") or any(_RANK_LABEL.match(f.text) for f in passage))
    )
    if not rank or claim.value is None or claim.hedge in v.TIME_HEDGES or not _RANK_COMPARED.search(before):
        return ""
    ups, downs = list(_RANK_UP.finditer(before)), list(_RANK_DOWN.finditer(before))
    up = bool(ups) and (not downs or ups[-1].start() > downs[-1].start())
    held = [f for f in passage if f.value is not None and (f.kind is FigureKind.ORDINAL or _RANK_LABEL.match(f.text))]
    side = [f for f in held if f.value is not None and (f.value < claim.value if up else f.value > claim.value)]
    if not side:
        return ""
    return (
        f"the page holds “{with_hedge(text, side[0])}”; “{claim.text}” is a comparison of ranks the machine"
        " does not judge, so check it by eye."
    )


def _bound_doubt(claim: ReadFigure, passage: list[ReadFigure], text: str) -> str:
    """Return why a page bound neither confirms nor refutes the claim ("more than 25 million" for 26 million)."""
    if claim.hedge:
        return _bounds_meet(claim, passage, text)
    if claim.value is None or claim.is_range:
        return ""
    for f in passage:
        side = v.HEDGE_SIDE.get(f.hedge, "")
        if f.kind is not claim.kind or f.value is None or not side or f.currency != claim.currency:
            continue
        if (side == "more" and claim.value >= f.value) or (side == "less" and claim.value <= f.value):
            return (
                f"the passage closest to the claim gives only a bound, “{with_hedge(text, f)}”, which neither"
                " confirms nor refutes it; check it by eye."
            )
    return ""


def _on_side(claim: ReadFigure, partial: ReadFigure) -> bool:
    """Return True when a day without a year lies on a dated bound's side ("9 April" for "before April 10, 2020")."""
    side = v.HEDGE_SIDE.get(claim.hedge, "") if claim.hedge in v.TIME_HEDGES else ""
    day, bound = partial.date[1:], claim.date[1:]
    return (side == "less" and day < bound) or (side == "more" and day > bound)


def own_bound(claim: ReadFigure, passage: list[ReadFigure], text: str) -> str:
    """Return why a bound in time is not judged when the passage gives its very point ("after 2003", "Since 2003")."""
    if claim.hedge not in v.TIME_HEDGES or claim.kind not in (FigureKind.YEAR, FigureKind.DATE, FigureKind.MONTH):
        return ""
    point = claim.date if claim.kind is not FigureKind.YEAR else (int(claim.value or 0), 0, 0)
    for f in passage:
        if f.kind in (FigureKind.DATE, FigureKind.MONTH):
            at = f.date
        elif f.kind is FigureKind.YEAR and f.value is not None and not f.is_range:
            at = (int(f.value), 0, 0)
        else:
            continue
        # As finely as the claim writes it: "before December 2008" is not the point of "( 2008 )".
        if (
            point[0]
            and at[0] == point[0]
            and (at[1] == point[1] or not point[1])
            and (at[2] == point[2] or not point[2])
        ):
            return (
                f"the passage closest to the claim gives “{with_hedge(text, f)}”, the point of the claim's"
                f" “{claim.hedge} {claim.text}” itself; which side of it the claim falls is not judged, so check"
                " it by eye."
            )
    return ""


def month_named(claim: ReadFigure, passage: Candidate | None) -> str:
    """Return why a month and year is not judged when the passage names the month alone ("in late February")."""
    if claim.kind is not FigureKind.MONTH or passage is None or not 0 < claim.date[1] < len(v.MONTH_NAMES):
        return ""
    name = v.MONTH_NAMES[claim.date[1]]
    if not re.search(rf"\b{name}\b(?!\s*,?\s*\d)", passage.text):
        return ""
    return (
        f"the passage closest to the claim names “{name}” without a year, so the year of “{claim.text}” cannot be"
        " checked on the page; check it by eye."
    )


# A day counted from another: "3 days earlier", "two weeks later", "the next day", "the day before".
_COUNTED_DAY = re.compile(
    r"\b(?:(?:\d{1,3}|a|an|one|two|three|four|five|six|seven|several|few)\s(?:days?|weeks?)\s(?:earlier|later|before|after)"
    r"|the\s(?:next|following|previous)\s(?:day|week)|the\s(?:day|week)\s(?:before|after))\b",
    re.IGNORECASE,
)


def counted_days(claim: ReadFigure, passage: Candidate | None) -> str:
    """Return why a date is not judged when the passage counts its days from another ("3 days earlier")."""
    if claim.kind not in (FigureKind.DATE, FigureKind.PARTIAL_DATE) or passage is None:
        return ""
    found = _COUNTED_DAY.search(passage.text)
    if found is None:
        return ""
    return (
        f"the passage closest to the claim counts days from another date (“{found.group(0)}”), which the figures"
        f" check does not count; check “{claim.text}” by eye."
    )


_ORDINAL_WORD = re.compile(
    r"\b(?:(?P<tens>" + "|".join(v.TENS) + r")-)?(?P<unit>" + "|".join(v.ORDINAL_UNITS) + r")\b"
    r"|\b(?P<round>" + "|".join(v.ORDINAL_TENS) + r")\b|(?<![\d.])(?P<digits>\d{1,3})(?:st|nd|rd|th)\b",
    re.IGNORECASE,
)


def _ranks(text: str) -> list[tuple[int, str]]:
    """Return the ranks a text gives, digits or words ("26th", "thirteenth", "thirty-sixth"), with their words."""
    out = []
    for m in _ORDINAL_WORD.finditer(text):
        if m.group("digits"):
            out.append((int(m.group("digits")), m.group(0)))
        elif m.group("round"):
            out.append((v.ORDINAL_TENS[m.group("round").lower()], m.group(0)))
        else:
            tens = v.TENS.get((m.group("tens") or "").lower(), 0)
            out.append((tens + v.ORDINAL_UNITS[m.group("unit").lower()], m.group(0)))
    return out


def rank_counted(claim: ReadFigure, claim_text: str, passages: Sequence[Candidate]) -> str:
    """Return why a count or "top" the page gives as a rank is not judged, "" when it does not.

    "Less than 26 other videos had more views" against "the 26th most viewed", "Less than 14 other films"
    against "the thirteenth largest", "in the top 20" against "the third most successful": the rank says
    it, by a count the machine does not make; it is skipped with what the page holds.
    """
    if claim.kind is not FigureKind.NUMBER or claim.value is None or claim.is_range:
        return ""
    top = claim_text[max(0, claim.start - 10) : claim.start].lower().rstrip().endswith("top")
    if not top and (not v.HEDGE_SIDE.get(claim.hedge) or claim.hedge in v.TIME_HEDGES):
        return ""
    for p in passages:
        for n, words in _ranks(p.text):
            if (top and n <= claim.value) or (not top and abs(n - claim.value) <= 1):
                return (
                    f"the page gives a rank, “{words}”; whether it makes the claim's “{with_hedge(claim_text, claim)}”"
                    " true is a count the machine does not make, so check it by eye."
                )
    return ""


# A range whose dash the page lost to its encoding ("2014�15", "$ 400�475 million"), or digits lost before a
# scale ("a two-year , million contract", "£40 ; million"). A lost currency sign ("�86 million") is read as
# the claim's own (core.figures.restated).
_LOST_DASH = re.compile(r"(?<=\d)" + v.LOST_CHAR + r"(?=\d)")
_LOST_DIGITS = re.compile(r"(?:[,;$£€]|\ufffd)\s(?:million|billion|trillion)\b")


def _lost_range(text: str, at: int, end: int) -> ReadFigure | None:
    """Return the range a lost dash at text[at:end] broke, read with the dash put back, or None."""
    a = max(0, at - 15)
    window = text[a:at] + "-" + text[end : end + 20]
    return next((f for f in read_figures(window) if f.is_range and f.start < at - a < f.end), None)


def garbled(claim: ReadFigure, passages: Sequence[Candidate]) -> str:
    """Return why a figure cannot be judged beside one the page's text lost ("2014�15"), "" when none."""
    amount = claim.kind is FigureKind.MONEY or claim.scale > 1
    for p in passages:
        spots = [m for m in _LOST_DIGITS.finditer(p.text)] if amount else []
        for m in _LOST_DASH.finditer(p.text):
            broken = _lost_range(p.text, m.start(), m.end())
            if broken is not None and broken.kind is claim.kind:
                spots.append(m)
        if spots:
            m = spots[0]
            around = " ".join(p.text[max(0, m.start() - 12) : m.end() + 12].split())
            return (
                f"the page's text is damaged beside a figure (“…{around}…”: a character or digits lost), so"
                f" “{claim.text}” cannot be checked against it; check it by eye."
            )
    return ""


_CENTURY = re.compile(r"\s*centur(?:y|ies)\b", re.IGNORECASE)
_BEFORE_THE = re.compile(r"\b(before|after)\s+the\s*$", re.IGNORECASE)


def _century_year(claim: ReadFigure, claim_text: str, offered: list[ReadFigure]) -> str:
    """Return why a century is not judged when an offered passage gives a year in it ("16th century", 1583).

    The page gives the year, the claim its century: which years a century counts (1501-1600 or
    1500-1599) is a convention, so the year is named and left to the editor, never flagged.
    """
    if claim.kind is not FigureKind.ORDINAL or claim.value is None or not _CENTURY.match(claim_text, claim.end):
        return ""
    n = int(claim.value)
    if not 1 <= n <= 21:
        return ""
    low, high = 100 * (n - 1), 100 * n
    side = _BEFORE_THE.search(claim_text[: claim.start])
    if side:
        low, high = (0, low) if side.group(1).lower() == "before" else (high, 10_000)
    years = [
        f
        for f in offered
        if f.kind in (FigureKind.NUMBER, FigureKind.YEAR)
        and f.value is not None
        and f.value == int(f.value)
        and 3 <= len(str(int(f.value))) <= 4
        and low <= f.value <= high
    ]
    if not years:
        return ""
    return (
        f"the passage closest to the claim gives the year “{years[0].text}”, the claim its century"
        f" “{claim.text} century”; a year against a century is not checked, so check it by eye."
    )


def implicit(
    claim: ReadFigure, claim_text: str, passage: list[ReadFigure], text: str, offered: list[ReadFigure]
) -> str:
    """Return why the page may leave the claim's figure implicit (a year, a unit), "" when it does not.

    ``passage`` holds the figures of the closest passage with one of the claim figure's kind,
    ``offered`` those of every passage offered.
    """
    month = [f for f in offered if f.kind is FigureKind.MONTH and f.date[:2] == claim.date[:2]]
    if claim.kind is FigureKind.DATE and not claim.hedge and month:
        # "April 15 , 2019" against "in April 2019": the day is implicit.
        return (
            f"the passage closest to the claim gives “{month[0].text}” without a day, so the day of “{claim.text}”"
            " cannot be checked on the page; check it by eye."
        )
    if claim.kind in (FigureKind.DATE, FigureKind.MONTH):
        # "March 27, 2020" against "On 27 March", "January 2020" against "On 22 January": the year is implicit.
        same = [
            f
            for f in offered
            if f.kind is FigureKind.PARTIAL_DATE and (f.date[1] == claim.date[1] or _on_side(claim, f))
        ]
        partial = [
            f for f in same if claim.kind is FigureKind.MONTH or f.date[2] == claim.date[2] or _on_side(claim, f)
        ]
        if partial:
            return (
                f"the passage closest to the claim gives “{partial[0].text}” without a year, so the year of"
                f" “{claim.text}” cannot be checked on the page; check it by eye."
            )
    if claim.kind in _TIMES and not any(f.kind in _TIMES for f in passage):
        return (
            f"the passage closest to the claim names no year or date, so “{claim.text}” may be the page's own"
            " context (its date, its subject's year) rather than a figure it states; check it by eye."
        )
    if claim.kind is FigureKind.YEAR and _NAME_BEFORE.search(claim_text[: claim.start]):
        return f"“{claim.text}” is part of a name, which the page need not repeat; check it by eye."
    century = _century_year(claim, claim_text, offered)
    if century:
        return century
    rank = _rank_compared(claim, claim_text, passage, text)
    if rank:
        return rank
    same = [
        f
        for f in passage
        if f.kind is FigureKind.ORDINAL and claim.kind is FigureKind.NUMBER and f.value == claim.value
    ]
    if claim.unit and same:
        # "turned 64 years old" against "his 64th birthday", "the 76 minute" against "the 76th minute".
        return (
            f"the page holds “{same[0].text}”, the claim's number as an ordinal; whether it counts the claim's"
            f" “{claim.text}” is not checked, so check it by eye."
        )
    if claim.unit:
        other = [f for f in passage if f.unit and f.unit != claim.unit and f.kind is claim.kind]
        if other:
            return (
                f"the passage closest to the claim gives “{other[0].text}”, in another unit; a conversion is not"
                " checked, so check it by eye."
            )
    judged = judged_against(claim, claim_text, passage, text) if claim.hedge else passage
    return _bound_doubt(claim, judged, text)


__all__ = ["implicit", "month_named", "own_bound"]


_RATIO = Decimal(str(Settings().figures_comparative_ratio))


def made_true_far(claim: ReadFigure, claim_text: str, page_figs: list[ReadFigure], text: str) -> str:
    """Return why "more than 100" is not judged when a page figure past the comparative's ratio makes it true, else "".

    A comparative says what it says: "more than 100 people died" is true of the page's "188 deaths".
    Judged against the figure in its place ("95 homes", nearer in value), it would stand nowhere; a
    figure of its kind that makes it true, however far, may be the one it means, unless the page gives
    one beside the claim's own word ("95 homes" for "more than 100 homes") or one short of it within
    ``figures_comparative_ratio``, which stands in its place.
    """
    if claim.hedge in v.TIME_HEDGES or claim.hedge in v.NEGATED_HEDGES or v.HEDGE_SIDE.get(claim.hedge) != "more":
        return ""
    if claim.value is None or claim.value <= 0 or claim.is_range or beside_its_word(claim, claim_text, page_figs, text):
        return ""
    true = [
        f
        for f in page_figs
        if f.kind is claim.kind and f.value is not None and not f.is_range and f.value >= claim.value
        and f.currency == claim.currency and (not f.unit or not claim.unit or f.unit == claim.unit)
        and v.HEDGE_SIDE.get(f.hedge) != "less"
    ]  # fmt: skip
    # A figure of its kind short of it within the ratio ("821 deaths" for "more than 825") stands in its place.
    value = claim.value
    short = [abs(f.value) for f in page_figs if f.kind is claim.kind and f.currency == claim.currency and f.value]
    if not true or any(value / _RATIO <= q < value for q in short):
        return ""
    f = min(true, key=lambda f: f.value or 0)
    return (
        f"the page's “{with_hedge(text, f)}” makes the claim's “{claim.hedge} {claim.text}” true, though far from"
        " it in value and not beside its words; whether it is the figure the claim means is not judged, so check"
        " it by eye."
    )
