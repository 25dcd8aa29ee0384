"""Scores and records, and a day and month without a year, on real VitaminC rows (../shared/corpus/claims/).

Before these rules "3-1" read as two small counts and "February 16" as too little to check, both
left unjudged: "won by 3-1" passed against its page's "2-1", "born on February 16" against
"born February 17, 1995". Each row is a real Wikipedia claim and its evidence, served as the
claims eval serves them (tests/figures/test_page.py).
"""

from __future__ import annotations

import pytest

from core.figures import check_figures, read_figures
from core.models import FigureKind, FigurePlace, FigureStatus, Verdict
from tests.figures.test_page import _check, _placed

M = FigureStatus.MATCHED


@pytest.mark.parametrize(
    ("unique_id", "figure", "instead"),
    [
        # REFUTES: "England won the 2010–11 Ashes series by 3-1" against "won by England 2-1".
        ("5ed4de06c9e77c0008489e06_2", "3-1", "2-1"),
        # REFUTES: "lost to the New York Giants by a score of 14-10" against "by a score of 17–14".
        ("5ede0730c9e77c00084d3596_2", "14-10", "17–14"),
        # REFUTES: "born on February 16" against "( born February 17 , 1995 )".
        ("5ebe6f29c9e77c00084073ff_2", "February 16", "February 17 , 1995"),
        # REFUTES: "found dead on November 13" against "On November 14 , 2005".
        ("5ee3949bc9e77c0008cd0093_2", "November 13", "November 14 , 2005"),
    ],
)
def test_a_changed_score_or_day_stands_nowhere(unique_id: str, figure: str, instead: str) -> None:
    result = _check(unique_id)
    assert result.verdict is Verdict.FIGURES_MISMATCH, result.reasons
    assert _placed(result)[figure] == (FigureStatus.MISSING, FigurePlace.NOWHERE)
    assert result.figures.nowhere[0].instead == instead


@pytest.mark.parametrize(
    ("unique_id", "figure"),
    [
        # SUPPORTS: the same score, written with an en dash and ending its sentence ("by a score of 17–14.").
        ("5ede0730c9e77c00084d3596_4", "17-14"),
        ("5ed4de06c9e77c0008489e06_4", "2-1"),
        # SUPPORTS: a score in words, "by two Tests to one".
        ("5ed4de06c9e77c0008489e02_4", "2-1"),
        # SUPPORTS: each number of a record counts, "finished the regular season at 16-0" for "over 15".
        ("5ed7ad02c9e77c00084a68c8_1", "15"),
    ],
)
def test_a_score_is_held_by_the_same_score(unique_id: str, figure: str) -> None:
    result = _check(unique_id)
    assert result.verdict is not Verdict.FIGURES_MISMATCH, result.reasons
    # Held by the passage offered first, or (when another sentence is offered first) elsewhere on the page.
    assert _placed(result)[figure] in ((M, FigurePlace.PASSAGE), (FigureStatus.MISSING, FigurePlace.ELSEWHERE))


def test_a_score_is_the_same_told_from_either_side() -> None:
    # "a home defeat ( 0-3 ) against Leicester": Leicester won 3-0.
    (fig,) = check_figures("Leicester won the game 3-0 .", "a home defeat ( 0-3 ) against Leicester").figures
    assert fig.status is M
    (fig,) = check_figures("Leicester won the game 3-1 .", "a home defeat ( 0-3 ) against Leicester").figures
    assert fig.status is FigureStatus.MISSING


@pytest.mark.parametrize("text", ["a 1-1 draw", "beat the Colts 29–13 .", "a 16-0 record"])
def test_what_reads_as_a_score(text: str) -> None:
    assert [f.kind for f in read_figures(text)] == [FigureKind.SCORE]


# Counting up is a range ("aged 25–64"); a chain, decimals and shares are no score.
@pytest.mark.parametrize("text", ["Swedes aged 25–64", "call 3-2-1 now", "rates of 3.5-2.1", "from 60-40%"])
def test_what_reads_as_no_score(text: str) -> None:
    assert FigureKind.SCORE not in [f.kind for f in read_figures(text)]


# --------------------------------------------------------------------------- a day and month without a year


def test_a_day_of_a_month_is_held_by_that_day_in_any_year() -> None:
    (fig,) = check_figures("Denzel Curry was born on February 16 .", "( born February 16 , 1995 )").figures
    assert fig.status is M
    (fig,) = check_figures("He was born on 16 February .", "( born February 16 , 1995 )").figures
    assert fig.status is M


@pytest.mark.parametrize(
    ("unique_id", "day", "why"),
    [
        # SUPPORTS: "As of 17 April" against "16 April : On this day, 98 new cases": a bound in time.
        ("5ee393b6c9e77c0008ccc03d_1", "17 April", "is a bound on a day and month without a year"),
        # SUPPORTS: "on April 10th" against "On the 13th of April ... and 3 days earlier the Swedish Mainland".
        ("5ee3932ac9e77c0008cc9910_1", "April 10th", "counts days from another date (“3 days earlier”)"),
    ],
)
def test_a_day_the_page_cannot_judge_is_skipped_with_its_reason(unique_id: str, day: str, why: str) -> None:
    result = _check(unique_id)
    assert result.verdict is not Verdict.FIGURES_MISMATCH, result.reasons
    fig = next(f for f in result.figures.figures if f.text == day)
    assert fig.status is FigureStatus.SKIPPED and why in fig.reason, fig.reason


def test_may_the_verb_is_no_month() -> None:
    # A real Check-COVID claim: "19 may" read as the 19th of May before the rule, a day its abstract lacks.
    claim = "COVID-19 may be spread through droplets expelled by breathing and talking."
    assert [f.kind for f in read_figures(claim)] == [FigureKind.LABEL]
    assert [f.kind for f in read_figures("It opened on 19 May .")] == [FigureKind.PARTIAL_DATE]
