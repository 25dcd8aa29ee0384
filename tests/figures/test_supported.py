"""Supported claims without a quote that a figure must not flag, on real VitaminC rows (../shared/corpus/claims/).

Each row is labelled SUPPORTS by people and was flagged ``figures_mismatch`` before the rule named
beside it; the page is served as the claims eval serves it (tests/figures/test_page.py).
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from core.figures import check_figures, read_figures
from core.models import FigureKind, FigurePlace, FigureStatus, Verdict
from tests.figures.test_page import _check, _placed

M, S = FigureStatus.MATCHED, FigureStatus.SKIPPED
P = FigurePlace.PASSAGE


@pytest.mark.parametrize(
    ("unique_id", "figure"),
    [
        # "surpassed 73 %" is a bound: 74 % makes it true.
        ("5ebe6f30c9e77c0008408a88_1", "73 %"),
        # "four-and-a-half out of four stars" is 4.5.
        ("5ed4de06c9e77c0008489eb0_1", "4.5"),
        # "less than 15 years" against "a protracted six-year guerrilla war".
        ("5ee3949bc9e77c0008ccfeb7_1", "15"),
        # "US $ 1,200" in a tokenised text is one amount with its hedge ("more than").
        ("5ee3949bc9e77c0008cd0163_2", "US $ 1,200"),
        ("5ed7ad02c9e77c00084a6ebe_1", "US $ 900 billion"),
        # "3:25 p.m." is a time of day, not the count 25 closest to "less than 20".
        ("5ee393b8c9e77c0008cccdfd_1", "20"),
        # "by February 2009" is a bound in time: "between December 2008 and January 2009" holds it.
        ("5ed4de06c9e77c0008489c52_2", "February 2009"),
        # A four-digit count against a page "year": "over 2000 cases" and "2053 confirmed cases".
        ("5ee393b7c9e77c0008cccd31_4", "2000"),
        ("5ee393b7c9e77c0008cccd31_1", "2000"),
        # A rating out of 10: "below 6.05/10" against "an average rating of 6/10".
        ("5ec7d50dc9e77c0008441d56_1", "6.05"),
        # "after the 6th of June 1967" is a bound over its "the".
        ("5ec5598dc9e77c000842c4a0_1", "6th of June 1967"),
        # "mid-20th century" holds "the 20th century": "mid-" is no name.
        ("5ec7d50cc9e77c0008440f23_1", "20th"),
        # "closed for 14 days" against "for two weeks"; "60 seconds" against "about a minute".
        ("5ee393b8c9e77c0008ccd536_1", "14"),
        ("5eb9573bc9e77c0008fa1953_4", "60"),
        # "for more than 20 days" against "since 5 March 2020 to 27 March 2020": a span of dates is a duration.
        ("5ee39329c9e77c0008cc92e0_4", "20"),
        # On a page, "at least 2014" is a tighter bound that holds "after 2013".
        ("5ede072fc9e77c00084d2a5d_1", "2013"),
        # "after the age of 20" against "At 23"; "before the age of 18" against "At the age of 15".
        ("5ec7d50ec9e77c00084428de_1", "20"),
        ("5ec7d50ec9e77c00084428d6_1", "18"),
        # A decimal comma before a unit, in an English page: "1,5 meters" is 1.5 meters.
        ("5ee3932bc9e77c0008cca5a5_1", "1.5"),
        # "preceding 2019" bounds a year: "the Class of 2018".
        ("5ec55991c9e77c000842db78_1", "2019"),
        # "December , 2008" (a tokenised comma) is one month and year, after which September 2009 falls.
        ("5ec7d50ec9e77c0008442ed4_4", "December , 2008"),
        # "about 30.000 inhabitants" in an English page: the point groups thousands.
        ("5eafed80c9e77c0009ce147a_3", "30,000"),
        # ...on the whole page too: "more than 8,000 lives" against "8.958 people ... have died".
        ("5ee393b8c9e77c0008cccfc8_4", "8,000"),
        # A comparative judged against the figure of the claim's word before it ("budget was less than 27 crore"
        # against "a budget of 26 crore", "France with under $ 24 million" against "France ( $ 23.8 million )").
        ("5eb29888c9e77c0008d938e7_1", "27 crore"),
        ("5ebe6f2fc9e77c000840813c_1", "$ 24 million"),
        ("5ede072ec9e77c00084d2634_1", "150"),
        # ...and beside its word when the figure there does not make it true ("just under 60 million views ...
        # and 92 million"; "in 15 out of 28 Bulgarian provinces").
        ("5ee3949bc9e77c0008cd00e8_2", "90 million"),
        ("5ee3932dc9e77c0008ccb4ca_1", "16"),
        # A lost currency sign is the claim's own: "€85.5 million" against "a world record fee of �86 million".
        ("5eafed80c9e77c0009ce10a6_4", "€85.5 million"),
    ],
)
def test_a_supported_figure_is_held_by_its_page(unique_id, figure):
    result = _check(unique_id)
    assert result.verdict is not Verdict.FIGURES_MISMATCH, result.reasons
    got = _placed(result)[figure]
    # Held by the passage offered first, or (when the title is offered first) elsewhere on the page.
    assert got in ((M, P), (FigureStatus.MISSING, FigurePlace.ELSEWHERE)), got


@pytest.mark.parametrize(
    ("unique_id", "figure", "why"),
    [
        # A rank the page gives for a count or a "top" the claim compares.
        ("5ed4de0ac9e77c000848b3bf_4", "26", "The page gives a rank, “26th”"),
        ("5ee39419c9e77c0008ccfb5a_1", "14", "The page gives a rank, “fourteenth”"),
        ("5ee39419c9e77c0008ccfa28_4", "20", "The page gives a rank, “third”"),
        ("5ee3949bc9e77c0008ccfdf1_4", "35", "The page holds “number 31”"),
        ("5ebbf32ac9e77c0009294ca2_1", "58th", "The page holds “57th”"),
        # A figure beside one the page's text lost: a dash ("2014�15"), digits before a scale (", million").
        ("5eafed7ec9e77c0009ce0ca8_4", "2014-2015", "The page's text is damaged beside a figure"),
        ("5eb29889c9e77c0008d93c07_1", "$ 1 million", "The page's text is damaged beside a figure"),
        # A day the page leaves out ("in April 2019"); a year in brackets after a title.
        ("5ebe6f31c9e77c0008408ff5_1", "April 15 , 2019", "gives “April 2019” without a day"),
        ("5eb9573cc9e77c0008fa1cf1_2", "2004", "is part of a name"),
        # A century against a year in it: "in the 16th century" and "annexed ... in 1583"; "before the 18th
        # century" and "In the 1600 's".
        ("5ed7ad01c9e77c00084a62b1_1", "16th", "gives the year “1583”, the claim its century"),
        ("5ed7ad00c9e77c00084a6022_4", "18th", "gives the year “1600”, the claim its century"),
        # A comparative made true by a page figure past its ratio, none short of it near: "More than 100 people
        # have died" against "188 deaths", though "25 recoveries" is nearer in value.
        ("5ee393b7c9e77c0008cccd7e_1", "100", "The page's “188” makes the claim's “more than 100” true"),
    ],
)
def test_a_figure_the_page_cannot_judge_is_skipped_with_its_reason(unique_id, figure, why):
    result = _check(unique_id)
    assert result.verdict is not Verdict.FIGURES_MISMATCH, result.reasons
    fig = next(f for f in result.figures.figures if f.text == figure)
    assert fig.status is S and why in fig.reason, fig.reason


def test_a_time_of_day_is_the_same_time_however_written_and_a_bound_on_one_is_skipped():
    # "starting on 16 March at 11:59 pm" against "From 11.59 p.m on Monday night ( March 16 )".
    assert _placed(_check("5ee393b8c9e77c0008ccd538_1"))["11:59 pm"] == (M, P)
    # "allowed only scheduled flights after 1.30 PM" against "between 2pm and 10pm".
    result = _check("5ee3932cc9e77c0008ccadca_3")
    fig = next(f for f in result.figures.figures if f.text == "1.30 PM")
    assert fig.status is S
    assert (
        fig.reason == "“1.30 PM” is a bound on a time of day, which the figures check does not judge; check it by eye."
    )
    (fig,) = check_figures("left about 6:30 a.m. for the rally", "left about 4:30 a.m. for the rally").figures
    assert fig.status is FigureStatus.MISSING


def test_twice_before_what_was_said_counts_the_saying():
    # "Maná had already announced twice that `` Drama and Luz '' was going to be released": no multiplier.
    result = _check("5ebe6f30c9e77c0008408a4e_2")
    assert result.verdict is not Verdict.FIGURES_MISMATCH, result.reasons
    assert "twice" not in _placed(result)
    # A "that" standing for a figure still multiplies: "twice that of Canada", "twice that amount".
    for text in ("Costs are twice that of Canada.", "It costs twice that amount.", "It costs twice that."):
        assert [f.kind for f in read_figures(text)] == [FigureKind.MULTIPLIER], text


def test_times_of_day_are_read_whole_and_not_as_counts():
    got = [(f.text, f.kind) for f in read_figures("with 6 as of 3:25 p.m. March 18 , 2020 and from 7pm to 10pm")]
    assert got == [
        ("6", FigureKind.NUMBER),
        ("3:25 p.m.", FigureKind.TIME),
        ("March 18 , 2020", FigureKind.DATE),
        ("7pm", FigureKind.TIME),
        ("10pm", FigureKind.TIME),
    ]


def test_the_new_readings_hold_with_a_quote_as_on_a_page():
    (fig,) = read_figures("gave the album four-and-a-half out of four stars")[:1]
    assert fig.value == Decimal("4.5")
    (fig,) = read_figures("a minimum distance of 1,5 meters between people")
    assert fig.value == Decimal("1.5")
    (fig,) = check_figures("It sold more than US $ 690,000 .", "I grossed US $ 697,346 in Tamil version").figures
    assert fig.status is M
    # With a quote, "by" is no looser than the quote's own date: "by December 2024" is not "by December 2023".
    (fig,) = check_figures("a new top charity by December 2024", "a new top charity by December 2023").figures
    assert fig.status is FigureStatus.MISSING


def test_a_century_is_never_taken_for_a_year_outside_it():
    # The page of "annexed by Great Britain in 1583" against a century it does not fall in, and a bound it breaks.
    for claim in (
        "Great Britain annexed Newfoundland in the 18th century .",
        "It was annexed after the 16th century .",
    ):
        result = _check("5ed7ad01c9e77c00084a62b1_1", claim)
        fig = next(f for f in result.figures.figures if f.kind is FigureKind.ORDINAL)
        assert fig.status is FigureStatus.MISSING and fig.where is FigurePlace.NOWHERE, (claim, fig.reason)


def test_a_comparative_is_judged_against_a_figure_beside_its_word_or_short_of_it_near():
    # "more than 100 homes" against the page's "95 homes", and "more than 120 people" against it (as "more than
    # 825" against a real page's "821 deaths"), still stand nowhere though "188 deaths" makes them true.
    from core.figures.page import place_figures
    from core.models import Candidate, PageKind, PageText

    page = "The storm hit the coast on Monday, destroying 95 homes.\nIn all, 188 deaths were recorded, officials said."
    first = Candidate(text=page[:55], start=0, end=55, score=1.0)
    text = PageText(text=page, kind=PageKind.HTML)
    assert (
        place_figures("The storm destroyed more than 100 homes.", [first], text).figures[0].where is FigurePlace.NOWHERE
    )
    assert place_figures("More than 120 people died.", [first], text).figures[0].where is FigurePlace.NOWHERE
    # With no figure short of it near ("45 homes"), "188 deaths" may be the one it means: skipped, not flagged.
    far = PageText(text=page.replace("95 homes", "45 homes"), kind=PageKind.HTML)
    assert place_figures("More than 100 people died.", [first], far).figures[0].status is S
