"""A score or a win-loss record is one figure of two numbers, on real VitaminC rows (../shared/corpus/claims/).

Before the rule "3-1" read as two small counts, which the figures check leaves unjudged: a claim
of "won by 3-1" against its page's "2-1" passed. Each row is a real Wikipedia claim and its
evidence, served as the claims eval serves them (tests/figures/test_page.py).
"""

from __future__ import annotations

import pytest

from core.figures import check_figures, read_figures
from core.models import FigureKind, FigurePlace, FigureStatus, Verdict
from tests.figures.test_page import _check, _placed

M = FigureStatus.MATCHED


@pytest.mark.parametrize(
    ("unique_id", "score", "instead"),
    [
        # REFUTES: "England won the 2010–11 Ashes series by 3-1" against "won by England 2-1".
        ("5ed4de06c9e77c0008489e06_2", "3-1", "2-1"),
        # REFUTES: "lost to the New York Giants by a score of 14-10" against "by a score of 17–14".
        ("5ede0730c9e77c00084d3596_2", "14-10", "17–14"),
    ],
)
def test_a_changed_score_stands_nowhere(unique_id: str, score: str, instead: str) -> None:
    result = _check(unique_id)
    assert result.verdict is Verdict.FIGURES_MISMATCH, result.reasons
    assert _placed(result)[score] == (FigureStatus.MISSING, FigurePlace.NOWHERE)
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
