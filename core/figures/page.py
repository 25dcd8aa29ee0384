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
from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal

from core.figures import vocab as v
from core.figures.compare import holder, holders, kind_word, page_figures, skip_reason
from core.figures.locale import writes_decimal_comma
from core.figures.read import ReadFigure, read_figures
from core.figures.scan import precision_of
from core.models import Candidate, Figure, FigureCheck, FigureKind, FigurePlace, FigureStatus, PageText
from core.settings import Settings
from core.text import split_sentences

# What the passage may hold "in the place" of a claim figure: figures of these kinds stand for it.
_IN_PLACE = {
    FigureKind.NUMBER: (FigureKind.NUMBER, FigureKind.ORDINAL, FigureKind.MONEY),
    FigureKind.ORDINAL: (FigureKind.ORDINAL, FigureKind.NUMBER),
    FigureKind.MONEY: (FigureKind.MONEY, FigureKind.NUMBER),
    FigureKind.PERCENT: (FigureKind.PERCENT, FigureKind.POINTS),
    FigureKind.POINTS: (FigureKind.POINTS, FigureKind.PERCENT),
    FigureKind.MULTIPLIER: (FigureKind.MULTIPLIER,),
    FigureKind.YEAR: (FigureKind.YEAR, FigureKind.DATE, FigureKind.MONTH, FigureKind.PERIOD),
    FigureKind.DATE: (FigureKind.DATE, FigureKind.MONTH, FigureKind.PARTIAL_DATE, FigureKind.YEAR),
    FigureKind.MONTH: (FigureKind.MONTH, FigureKind.DATE, FigureKind.YEAR),
    FigureKind.VERSION: (FigureKind.VERSION,),
    FigureKind.PERIOD: (FigureKind.PERIOD,),
}
_TIMES = frozenset({FigureKind.YEAR, FigureKind.DATE, FigureKind.MONTH, FigureKind.PERIOD})
# A year glued to a name ("UEFA Euro 2016", "Windows 2000") is part of the name the page may not repeat.
_OUT_OF_100 = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s?(?:out of 100\b|/\s?100\b)", re.IGNORECASE)
# A rating out of 10 with a decimal ("an average rating of 4.4/10"), the percentage a claim restates as "44 %".
_OUT_OF_10 = re.compile(r"(?<![\d./])(\d\.\d{1,2})\s?/\s?10\b(?![\d.,/])")
_WORD_AFTER = re.compile(r"(?:\s?[A-Za-z]{1,2}\b){0,2}\s?([A-Za-z]{3,})")
_NAME_BEFORE = re.compile(r"(?:^|[^.!?]\s)(?:[A-Z][\w&'-]*\s){0,3}[A-Z][\w&'-]*\s$")
# A rank the claim compares rather than states ("richer than the 15th", "behind the 40th", "top 20").
_RANK_COMPARED = re.compile(
    r"(?:\bthan|\bbehind|\bbelow|\babove|\bahead of|\bbeneath|\boutside|\binside|\bwithin|\btop|\bunder|\bover)"
    r"\s(?:the\s)?(?:[a-z]+\s)?$",
    re.IGNORECASE,
)


def _with_hedge(text: str, fig: ReadFigure) -> str:
    """Return the figure as its text writes it, with the hedge before it ("an estimated 5%")."""
    if not fig.hedge:
        return fig.text
    start = max(0, fig.start - len(fig.hedge) - 3)
    k = text[start : fig.start].lower().rfind(fig.hedge)
    return " ".join(text[start + k : fig.end].split()) if k >= 0 else f"{fig.hedge} {fig.text}"


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


def _nearest(claim: ReadFigure, figs: list[ReadFigure]) -> ReadFigure | None:
    """Return the figure of figs that stands in the claim figure's place: its kind, closest in value."""
    kinds = _IN_PLACE.get(claim.kind, (claim.kind,))
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


def _judged_against(claim: ReadFigure, claim_text: str, passage: list[ReadFigure], text: str) -> list[ReadFigure]:
    """Return the passage figures a claim figure is judged against: all, or for a comparative the one in its place.

    "Less than 28 critics" is true of any smaller number, so it is judged only against the figure
    beside the same word ("32 reviews" for "28 reviews"), else the one of its kind closest in value.
    """
    if claim.hedge not in v.HEDGE_SIDE or claim.hedge in v.TIME_HEDGES:
        return passage
    kinds = _IN_PLACE.get(claim.kind, (claim.kind,))
    if claim.kind is FigureKind.ORDINAL:
        # "ranked above 26th" compares ranks, which way the claim's words say (_rank_compared), never by value.
        return []
    four = claim.written.replace(",", "").isdigit() and len(claim.written.replace(",", "")) == 4
    alike = [
        f
        for f in passage
        if f.kind in kinds and (f.kind is not FigureKind.YEAR or claim.kind is FigureKind.YEAR or four)
    ]
    word = _word_after(claim_text, claim.end)
    beside = [f for f in alike if word and _word_after(text, f.end) == word]
    if len(beside) > 1:
        # "under 8,500 passing yards": of "25 passing records" and "9,008 passing yards", the one of its two words.
        second = _second_word(claim_text, claim.end)
        beside = [f for f in beside if second and _second_word(text, f.end) == second] or beside
    if beside:
        return beside
    near = _nearest(claim, alike)
    return [near] if near is not None else []


def _scores(text: str, start: int, end: int, out_of: int = 100) -> list[ReadFigure]:
    """Return the scores out of 100 between start and end ("52 out of 100", "50/100"), read as percentages.

    A review score out of 100 is the percentage a claim restates ("scored more than 50 %"); the
    figures reader leaves "50/100" unread (a slash may be a ratio or a date), so a page's are read here.
    ``out_of=10``: the ratings out of 10 with a decimal instead ("4.4/10" read as 44 %).
    """
    out = []
    pattern, scale = (_OUT_OF_100, 1) if out_of == 100 else (_OUT_OF_10, 10)
    for m in pattern.finditer(text, start, end):
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


def _multipliers(held: list[list[ReadFigure]]) -> bool:
    """Return True when any offered passage holds a multiplier ("8 times as many", "2x")."""
    return any(f.kind is FigureKind.MULTIPLIER for h in held for f in h)


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
                f"the passage closest to the claim gives only a bound, “{_with_hedge(text, f)}”, which neither"
                f" confirms nor refutes the claim's “{claim.hedge} {claim.text}”; check it by eye."
            )
    return ""


# A rank written as a label ("peaked at number 28", "at # 44").
_RANK_LABEL = re.compile(r"(?:number|no\.|#)\s?\d", re.IGNORECASE)
# Words that compare a rank: toward the first ("richer than the 15th") or away from it ("behind the 40th").
_RANK_UP = re.compile(r"\b(?:richer|wealthier|higher|better|above|ahead of|top|over|more)\b", re.IGNORECASE)
_RANK_DOWN = re.compile(r"\b(?:poorer|lower|worse|below|behind|beneath|outside|under|less)\b", re.IGNORECASE)


def _rank_compared(claim: ReadFigure, claim_text: str, passage: list[ReadFigure], text: str) -> str:
    """Return why a rank the claim compares is not judged ("richer than the 15th" against "12th"), "" when none.

    The page's rank on the claim's side of it ("12th" for "richer than the 15th", "42nd" for "behind
    the 40th") makes the comparison plausible, but which way a rank counts is the claim's wording: it
    is skipped with what the page holds. A page rank on the other side is still judged.
    """
    before = claim_text[max(0, claim.start - 40) : claim.start]
    rank = claim.kind is FigureKind.ORDINAL or (
        claim.kind is FigureKind.NUMBER and before.lower().rstrip().endswith("top")
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
        f"the page holds “{_with_hedge(text, side[0])}”; “{claim.text}” is a comparison of ranks the machine"
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
                f"the passage closest to the claim gives only a bound, “{_with_hedge(text, f)}”, which neither"
                " confirms nor refutes it; check it by eye."
            )
    return ""


def _on_side(claim: ReadFigure, partial: ReadFigure) -> bool:
    """Return True when a day without a year lies on a dated bound's side ("9 April" for "before April 10, 2020")."""
    side = v.HEDGE_SIDE.get(claim.hedge, "") if claim.hedge in v.TIME_HEDGES else ""
    day, bound = partial.date[1:], claim.date[1:]
    return (side == "less" and day < bound) or (side == "more" and day > bound)


def _own_bound(claim: ReadFigure, passage: list[ReadFigure], text: str) -> str:
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
                f"the passage closest to the claim gives “{_with_hedge(text, f)}”, the point of the claim's"
                f" “{claim.hedge} {claim.text}” itself; which side of it the claim falls is not judged, so check"
                " it by eye."
            )
    return ""


def _month_named(claim: ReadFigure, passage: Candidate | None) -> str:
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


def _implicit(
    claim: ReadFigure, claim_text: str, passage: list[ReadFigure], text: str, offered: list[ReadFigure]
) -> str:
    """Return why the page may leave the claim's figure implicit (a year, a unit), "" when it does not.

    ``passage`` holds the figures of the closest passage with one of the claim figure's kind,
    ``offered`` those of every passage offered.
    """
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
    judged = _judged_against(claim, claim_text, passage, text) if claim.hedge else passage
    return _bound_doubt(claim, judged, text)


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
    claim_figs = read_figures(claim_text[: s.figures_claim_max_chars], writes_decimal_comma(claim_text))
    if not claim_figs:
        return FigureCheck(())
    comma = writes_decimal_comma(page.text)

    def figures_of(p: Candidate) -> list[ReadFigure]:
        shifted = [replace(f, start=f.start + p.start, end=f.end + p.start) for f in read_figures(p.text, comma)]
        return shifted + _scores(page.text, p.start, p.end)

    inside = figures_of(passage) if passage is not None else []
    others: list[list[list[ReadFigure]]] = []

    def every() -> list[list[ReadFigure]]:
        # The other passages offered are read only when a figure is not in the first (once a claim).
        if not others:
            others.append([inside] + [figures_of(p) for p in passages[1:]] if passages else [])
        return others[0]

    read: list[tuple[list[ReadFigure], bool]] = []

    def on_page() -> tuple[list[ReadFigure], bool]:
        # The whole page is read for figures only when a figure is not in the passage, once a page (cached).
        if not read:
            figs, whole = page_figures(page.text, s.figures_page_budget_seconds, s)
            read.append((list(figs) + list(_page_scores(page.text)), whole))
        return read[0]

    out: list[Figure] = []
    for n, c in enumerate(claim_figs):
        said = _with_hedge(claim_text, c)
        if n >= s.figures_claim_max:
            why = f"the claim holds {len(claim_figs)} figures; only the first {s.figures_claim_max} are looked for."
            out.append(_figure(c, FigureStatus.SKIPPED, None, reason=why[0].upper() + why[1:]))
            continue
        reason = skip_reason(c)
        if reason:
            out.append(_figure(c, FigureStatus.SKIPPED, None, reason=reason))
            continue
        if c.kind is FigureKind.MULTIPLIER and c.text.lower().endswith("times") and not _multipliers(every()):
            # "watched 1.4 billion times": with no multiplier in the passages, "times" counts, it does not multiply.
            c = replace(c, kind=FigureKind.NUMBER)
        c = _as_said(c)
        judged = _judged_against(c, claim_text, inside, page.text)
        found = holder(c, judged, passage.text if passage is not None else "", s) if judged else None
        if found is None and passage is not None and c.kind is FigureKind.PERCENT:
            # "an average rating of more than 43.5 %" restates "an average rating of 4.4/10": a last resort.
            rated = _judged_against(c, claim_text, _scores(page.text, passage.start, passage.end, 10), page.text)
            found = holder(c, rated, passage.text, s) if rated else None
        grouped = _grouped(c) if found is None else None
        if grouped is not None and passage is not None:
            # "less than 300.000 employees" in an English claim: the point may group thousands (300,000).
            found = holder(grouped, _judged_against(grouped, claim_text, inside, page.text), passage.text, s)
        if found is not None:
            out.append(_figure(c, FigureStatus.MATCHED, FigurePlace.PASSAGE, quote_text=found.text))
            continue
        page_figs, whole = on_page()
        hits = holders(c, _judged_against(c, claim_text, page_figs, page.text), s, s.figures_elsewhere_max)
        if hits:
            around = _sentence(page, hits[0].start, s)
            why = f"The claim's “{said}” is not in the passage offered first, but the page has it: “{around}”."
            spans = tuple((h.start, h.end) for h in hits)
            out.append(
                _figure(c, FigureStatus.MISSING, FigurePlace.ELSEWHERE, reason=why, elsewhere=spans, around=around)
            )
            continue
        # The passage closest to the claim that holds a figure of its kind says what stands in its place.
        kinds = _IN_PLACE.get(c.kind, (c.kind,))
        closest = next((h for h in every() if any(f.kind in kinds for f in h)), inside)
        doubt = (
            _own_bound(c, closest, page.text)
            or _month_named(c, passage)
            or _implicit(c, claim_text, closest, page.text, [f for h in every() for f in h])
        )
        if not doubt and not whole:
            doubt = "the page is too large to read all its figures in time, so it cannot be said to lack this one."
        if doubt:
            out.append(_figure(c, FigureStatus.SKIPPED, None, reason=doubt[0].upper() + doubt[1:]))
            continue
        near = _nearest(c, _judged_against(c, claim_text, closest, page.text) or closest)
        instead = _with_hedge(page.text, near) if near is not None else ""
        why = _nowhere_reason(said, instead, passage, kind_word(c))
        out.append(_figure(c, FigureStatus.MISSING, FigurePlace.NOWHERE, reason=why, instead=instead))
    return FigureCheck(tuple(out))


__all__ = ["place_figures"]
