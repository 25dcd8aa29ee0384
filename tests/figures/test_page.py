"""Figures of a claim without a quote placed on its cited page, on real VitaminC rows (../shared/corpus/claims/).

Each case is one row of vitaminc/test_figures_sample.jsonl, named by its unique_id: the article's
title as a heading and the revision's evidence sentence as a paragraph, as the claims eval serves
them, checked without a quote through ``check_claim``.
"""

from __future__ import annotations

import gzip
import html
import json

import pytest

from core.check.claims import check_claim
from core.extract.read import extract_html
from core.figures import check_figures, read_figures
from core.figures.page import place_figures
from core.match import prepare
from core.models import Candidate, Claim, ClaimResult, FigurePlace, FigureStatus, Verdict
from core.settings import Settings
from tests.builders import source
from tests.servers import CORPUS

VITAMINC = CORPUS / "claims/vitaminc/test_figures_sample.jsonl"


def _row(unique_id: str) -> dict[str, str]:
    for line in VITAMINC.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["unique_id"] == unique_id:
            return row
    raise AssertionError(f"row {unique_id} is not in {VITAMINC}")


def _html(title: str, evidence: str) -> str:
    return f"<html><body><h1>{html.escape(title)}</h1><p>{html.escape(evidence)}</p></body></html>"


def _check(unique_id: str, claim_text: str | None = None) -> ClaimResult:
    row = _row(unique_id)
    body = _html(row["page"], row["evidence"])
    text = claim_text or row["claim"]
    url = f"http://127.0.0.1/{unique_id}"
    claim = Claim(id=unique_id, text=text, url=url, figure_text=text)
    return check_claim(claim, source(url, body.encode()), prepare(extract_html(body, "text/html")), Settings())


def _placed(result: ClaimResult) -> dict[str, tuple[FigureStatus, FigurePlace | None]]:
    return {f.text: (f.status, f.where) for f in result.figures.figures}


def test_a_changed_year_stands_nowhere_and_the_reason_names_what_the_passage_says():
    result = _check("5ec5598ac9e77c000842bd0b_2")  # REFUTES: "released in 2019" against "likely to come out in 2020"
    assert result.verdict is Verdict.FIGURES_MISMATCH
    assert result.reasons[0] == (
        "The claim's “2019” is nowhere on the cited page; the passage closest to the claim says “2020”."
    )
    assert result.figures.nowhere[0].instead == "2020"
    assert _check("5ec5598ac9e77c000842bd0b_1").verdict is Verdict.NO_QUOTE  # SUPPORTS: the revision with 2019


def test_a_year_the_offered_passages_leave_out_is_skipped_with_its_reason_not_flagged():
    # REFUTES, but the sentence ("break ground in 2013") shares no word with the claim: only the title is offered.
    result = _check("5eb29884c9e77c0008d92554_3")
    assert result.verdict is Verdict.NO_QUOTE
    (fig,) = result.figures.skipped
    assert fig.text == "2014" and "names no year or date" in fig.reason


def test_a_comparative_the_page_makes_true_is_in_the_passage():
    result = _check("5ee3932bc9e77c0008cca606_4")  # SUPPORTS: "more than 300" against "349 confirmed cases"
    assert result.verdict is Verdict.NO_QUOTE
    (fig,) = result.figures.figures
    # In the passage offered first or, when the title is offered first, elsewhere: never nowhere.
    held = fig.quote_text if fig.where is FigurePlace.PASSAGE else fig.around
    assert fig.where in (FigurePlace.PASSAGE, FigurePlace.ELSEWHERE)
    assert "349" in held


def test_a_comparative_is_judged_against_the_figure_in_its_place_not_any_larger_one():
    result = _check(
        "5ee3932cc9e77c0008ccac4d_3"
    )  # REFUTES: "more than 300 recoveries" against "1,657 cases, 261 recoveries"
    assert result.verdict is Verdict.FIGURES_MISMATCH
    assert result.reasons[0] == (
        "The claim's “more than 300” is nowhere on the cited page; the passage closest to the claim says “261”."
    )


def test_a_comparative_beside_its_own_word_is_judged_against_that_figure():
    result = _check("5ebe6f2dc9e77c00084078dc_2")  # REFUTES: "less than 28 critics"
    assert result.verdict is Verdict.FIGURES_MISMATCH
    assert "“less than 28”" in result.reasons[0] and "“32”" in result.reasons[0]


def test_a_page_bound_that_implies_the_claims_bound_holds_it():
    result = _check("5ee393b8c9e77c0008ccd2dc_4")  # SUPPORTS: "more than 150 countries" against "over 180 countries"
    assert _placed(result)["150"] == (FigureStatus.MATCHED, FigurePlace.PASSAGE)
    assert result.verdict is Verdict.NO_QUOTE


def test_a_bound_in_time_is_judged_by_the_dates_order():
    assert _check("5ee3949bc9e77c0008cd014f_1").verdict is Verdict.NO_QUOTE  # "before 1980" against 1979
    assert _check("5ece9463c9e77c000846749d_4").verdict is Verdict.NO_QUOTE  # "after December 10, 1986" against 1988
    wrong = _check("5ee3949bc9e77c0008cd014f_1", "Pink was born after 1980 in Pennsylvania.")
    assert wrong.verdict is Verdict.FIGURES_MISMATCH


def test_a_date_whose_year_the_page_leaves_implicit_is_skipped_with_its_reason():
    result = _check("5ee393b8c9e77c0008ccce0b_2")  # "March 11, 2020" against "On March 11, school districts"
    assert result.verdict is Verdict.NO_QUOTE
    (fig,) = [f for f in result.figures.figures if f.text == "March 11 , 2020"]
    assert fig.status is FigureStatus.SKIPPED and fig.where is None
    assert "without a year" in fig.reason


def test_a_year_that_is_part_of_a_name_is_skipped_not_flagged():
    result = _check("5ec7d50ec9e77c0008442ecc_1")  # "UEFA Euro 2016", the title: placed elsewhere, never nowhere
    assert result.verdict is Verdict.NO_QUOTE
    assert not result.figures.nowhere


def test_a_month_and_year_joined_by_a_bare_comma_is_read():
    result = _check("5ec55990c9e77c000842cfd3_1")  # "By June 2018" against "As of June,2018"
    assert _placed(result)["June 2018"] == (FigureStatus.MATCHED, FigurePlace.PASSAGE)


def test_an_abbreviated_year_range_is_the_same_figure_on_a_page_as_with_a_quote():
    row = _row("5eb29889c9e77c0008d9415b_4")  # the page's title "2018–19 ... season", the claim's "2018-2019"
    page = prepare(extract_html(_html(row["page"], row["evidence"]), "text/html")).page
    start = page.text.index("Owing")
    passage = Candidate(text=page.text[start:], start=start, end=len(page.text))
    (fig,) = [f for f in place_figures(row["claim"], [passage], page).figures if f.text == "2018-2019"]
    assert fig.where is FigurePlace.ELSEWHERE and fig.status is FigureStatus.MISSING
    assert fig.around == "2018–19 Tottenham Hotspur F.C. season"
    assert page.text[slice(*fig.elsewhere[0])] == "2018–19"
    assert check_figures("the 2018-2019 season", "the 2018–19 season").figures[0].status is FigureStatus.MATCHED
    assert check_figures("the 2014-2015 season", "the 2014–16 season").figures[0].status is FigureStatus.MISSING


@pytest.mark.parametrize(
    ("claim", "quote", "figure", "status"),
    [
        # pdf/gold/2022-alphabet-annual-report-56-59.pdf.txt: a bound in time against the same bound
        ("Prior to 19 August 2004, there was no public market for our stock.",
         "Prior to August 19, 2004, there was no public market for our stock.", "19 August 2004", FigureStatus.MATCHED),
        # html/python/whatsnew/3.12.html: a bound against another bound is no restatement
        ("producing tokens via the tokenize module is up to 84% faster.",
         "producing tokens via the tokenize module is up to 64% faster.", "84%", FigureStatus.MISSING),
        # html/aeb/ground-truth.json: "Under" between two numbers is a name, not a hedge
        ("I am very honored to be on the SBJ 40 Under 60 list.",
         "I am very honored to be on the SBJ 40 Under 40 list.", "60", FigureStatus.MISSING),
    ],
)  # fmt: skip
def test_bounds_with_a_quote(claim, quote, figure, status):
    assert {f.text: f.status for f in check_figures(claim, quote).figures}[figure] is status


def test_a_claim_of_300_figures_and_one_of_5000_words_end_with_their_reason():
    row = _row("5eb29884c9e77c0008d92554_3")
    many = " ".join(f"{1000 + i} units" for i in range(300))
    result = _check(row["unique_id"], many)
    s = Settings()
    assert len(result.figures.figures) == 300
    skipped = [f for f in result.figures.figures if f.status is FigureStatus.SKIPPED]
    assert len(skipped) == 300 - s.figures_claim_max
    assert skipped[0].reason == f"The claim holds 300 figures; only the first {s.figures_claim_max} are looked for."
    long = " ".join(["construction"] * 5000) + " in 2014"
    result = _check(row["unique_id"], long)
    assert not [f for f in result.figures.figures if f.text == "2014"]  # past figures_claim_max_chars: not read


def test_a_year_before_1900_is_held_by_a_date_in_that_year():
    # SUPPORTS: "died in 1714" against "died on 1 August 1714" (a year before figures_year_min reads as a number)
    row = next(
        json.loads(line)
        for line in VITAMINC.read_text(encoding="utf-8").splitlines()
        if json.loads(line)["claim"].startswith("Anne died in 1714")
    )
    result = _check(row["unique_id"])
    assert result.verdict is Verdict.NO_QUOTE
    assert _placed(result)["1714"] == (FigureStatus.MATCHED, FigurePlace.PASSAGE)


def test_a_month_and_year_whose_year_the_page_leaves_implicit_is_skipped():
    row = next(
        json.loads(line)
        for line in VITAMINC.read_text(encoding="utf-8").splitlines()
        if json.loads(line)["claim"].startswith("The new measures to prevent the spread of coronavirus in Romania")
    )
    result = _check(row["unique_id"])  # SUPPORTS: "in January 2020" against "On 22 January"
    assert result.verdict is Verdict.NO_QUOTE
    (fig,) = result.figures.skipped
    assert fig.text == "January 2020" and "without a year" in fig.reason


def _claim_row(start: str) -> dict[str, str]:
    return next(
        row
        for row in (json.loads(line) for line in VITAMINC.read_text(encoding="utf-8").splitlines())
        if row["claim"].startswith(start)
    )


def test_times_counts_when_the_passages_hold_no_multiplier():
    # SUPPORTS: "liked more than 7.9 million times" against "over 7.9 million likes"
    result = _check(_claim_row("Blank Space has been liked more than 7.9 million times")["unique_id"])
    assert result.verdict is Verdict.NO_QUOTE
    assert [f.status for f in result.figures.figures] == [FigureStatus.MATCHED]


def test_a_percentage_is_held_by_a_score_out_of_100():
    # SUPPORTS: "scored 50 %" against "Metacritic rated it 50/100"
    result = _check(_claim_row("Averaged over 12 reviewers , the film Stonehearst Assylum scored 50 %")["unique_id"])
    (fig,) = [f for f in result.figures.figures if f.text == "50 %"]
    held = fig.quote_text if fig.where is FigurePlace.PASSAGE else fig.around
    assert fig.where in (FigurePlace.PASSAGE, FigurePlace.ELSEWHERE) and "50/100" in held


def test_a_comparative_takes_no_rounding_on_a_page():
    # REFUTES: "more than 510 recoveries" against "505 persons have recovered" (505 rounds to 510 at its precision)
    result = _check("5ee3932ac9e77c0008cc9c69_3")
    assert result.verdict is Verdict.FIGURES_MISMATCH
    assert result.figures.nowhere[0].text == "510"
    assert _check("5ee3932ac9e77c0008cc9c69_4").verdict is Verdict.NO_QUOTE  # SUPPORTS: "516 persons have recovered"


def test_a_claims_bound_the_pages_bound_the_other_way_overlaps_is_skipped_with_the_pages_bound():
    # SUPPORTS: "under 500,000 copies" against "more than 490,000 copies": neither confirms nor refutes.
    result = _check("5ee39418c9e77c0008ccf4ff_1")
    assert result.verdict is Verdict.NO_QUOTE
    skipped = result.figures.figures[0]
    assert skipped.status is FigureStatus.SKIPPED
    assert "“more than 490,000”" in skipped.reason and "neither confirms nor refutes" in skipped.reason
    # REFUTES: "more than 2,000 employees" against "over 1,700": a bound on the claim's own side is still judged.
    assert _check("5ec55989c9e77c000842badb_3").verdict is Verdict.FIGURES_MISMATCH


def test_a_rank_the_claim_compares_is_skipped_with_the_rank_the_page_holds():
    # SUPPORTS: "richer than the 15th wealthiest" against "the 12th richest".
    result = _check("5ebe6f32c9e77c0008409840_1")
    assert result.verdict is Verdict.NO_QUOTE
    assert result.figures.figures[0].status is FigureStatus.SKIPPED
    assert result.figures.figures[0].reason.startswith("The page holds “12th”; “15th” is a comparison of ranks")
    # REFUTES: the same claim against "the 17th richest", a rank on the other side, stands nowhere.
    assert _check("5ebe6f32c9e77c0008409840_2").verdict is Verdict.FIGURES_MISMATCH
    # SUPPORTS: "behind the 40th largest economy" against "42nd largest".
    assert _check("5ed4de07c9e77c000848a1a3_4").verdict is Verdict.NO_QUOTE


def test_an_early_year_after_before_or_after_is_a_bound_in_time():
    # SUPPORTS: "before 1800" (read as a number: before figures_year_min) against "In May 1419".
    assert _placed(_check("5ee39419c9e77c0008ccfb11_4"))["1800"] == (FigureStatus.MATCHED, FigurePlace.PASSAGE)
    # SUPPORTS: "born after 1871" against "December 25 , 1872".
    assert _placed(_check("5ec284fec9e77c0008416f58_1"))["1871"] == (FigureStatus.MATCHED, FigurePlace.PASSAGE)
    # SUPPORTS: "before 1800" against "In 1406"; the same claim "after 1800" against "In 1963".
    assert _check("5ee39419c9e77c0008ccf8a2_1").verdict is Verdict.NO_QUOTE


def test_a_year_shaped_count_after_a_comparative_is_a_count():
    # SUPPORTS: "more than 2000 fatalities" against "2,001 deaths": "over 2000" counts, it names no year.
    placed = _placed(_check("5ee393b6c9e77c0008ccbbd3_4"))
    assert placed["2000"] == (FigureStatus.MATCHED, FigurePlace.PASSAGE)


def test_a_day_without_a_year_on_a_dated_bounds_side_is_skipped_with_its_reason():
    # SUPPORTS: "before April 10 , 2020" against "As of 9 April": the page leaves the year implicit.
    result = _check("5ee3932bc9e77c0008cca993_1")
    assert result.verdict is Verdict.NO_QUOTE
    date = next(f for f in result.figures.figures if f.text == "April 10 , 2020")
    assert date.status is FigureStatus.SKIPPED and "“9 April” without a year" in date.reason


def test_a_comparative_beside_two_of_its_words_is_judged_against_that_figure():
    # REFUTES: "under 8,500 passing yards" against "25 passing records including 9,008 passing yards".
    result = _check("5ed4de07c9e77c000848a0f0_2")
    assert result.verdict is Verdict.FIGURES_MISMATCH
    assert result.figures.nowhere[0].instead == "9,008"
    assert _check("5ed4de07c9e77c000848a0f0_1").verdict is Verdict.NO_QUOTE  # SUPPORTS: the revision that holds it


def test_a_percentage_is_held_by_a_rating_out_of_10_in_the_passage():
    # SUPPORTS: "an average rating of more than 43.5 %" against "an average rating of 4.4/10".
    result = _check("5ed4de0ac9e77c000848b463_1")
    assert result.verdict is Verdict.NO_QUOTE
    rating = next(f for f in result.figures.figures if f.text == "43.5 %")
    assert (rating.status, rating.where, rating.quote_text) == (FigureStatus.MATCHED, FigurePlace.PASSAGE, "4.4/10")


def test_a_day_of_another_month_on_a_dated_bounds_side_is_skipped_with_its_reason():
    # SUPPORTS: "before April 2020" against "On 31 March": the page leaves the year implicit.
    result = _check("5ee3932dc9e77c0008ccb7d1_2")
    assert result.verdict is Verdict.NO_QUOTE
    assert "“31 March” without a year" in result.figures.figures[0].reason


def test_a_comparative_beside_its_words_after_a_short_one_is_judged_against_that_figure():
    # SUPPORTS: "more than $ 40 million in North America" against "$ 44 million in North America and
    # $ 37 million in other territories": "in north" picks $ 44 million, not the closer $ 37 million.
    placed = _placed(_check("5ebe6f2ec9e77c0008407bcd_4"))
    assert placed["$ 40 million"] == (FigureStatus.MATCHED, FigurePlace.PASSAGE)
    # SUPPORTS: "more than 398 Hawaii COVID-19 occurrences" is not judged against "70 in Hawaii County".
    assert _check("5ee3932dc9e77c0008ccb50f_4").verdict is Verdict.NO_QUOTE


def test_a_count_the_page_writes_as_an_ordinal_of_the_same_number_is_skipped_with_its_reason():
    # SUPPORTS: "turned 64 years old" against "Sally Ride 's 64th birthday".
    result = _check("5ec7d50cc9e77c0008440f73_1")
    assert result.verdict is Verdict.NO_QUOTE
    age = next(f for f in result.figures.figures if f.text == "64")
    assert age.status is FigureStatus.SKIPPED and age.reason.startswith("The page holds “64th”")


def test_a_point_grouping_thousands_in_an_english_claim_is_read_both_ways():
    # SUPPORTS: "less than 300.000 professional employees" against "approximately 286,200 professionals".
    placed = _placed(_check("5ed4de03c9e77c0008489387_1"))
    assert placed["300.000"] == (FigureStatus.MATCHED, FigurePlace.PASSAGE)


def test_a_bound_in_time_whose_point_the_passage_gives_is_skipped_with_its_reason():
    # SUPPORTS: "sold after 2003" against "Since 2003": the page gives the bound's point itself.
    result = _check("5ec7d50cc9e77c0008440f36_1")
    assert result.verdict is Verdict.NO_QUOTE
    assert "gives “2003”, the point of the claim's “after 2003” itself" in result.figures.figures[0].reason
    # REFUTES: "Before December 2008" is not the point of the title's "( 2008 )": still judged, and flagged.
    assert _check("5ebbf32ac9e77c0009294d21_2").verdict is Verdict.FIGURES_MISMATCH


def test_a_month_and_year_against_the_month_named_alone_is_skipped_with_its_reason():
    # SUPPORTS: "in late February 2020" against "in late February to attend a conference".
    result = _check("5ee3932ac9e77c0008cc96a1_2")
    assert result.verdict is Verdict.NO_QUOTE
    assert result.figures.figures[0].reason.startswith("The passage closest to the claim names “February” without")


def test_a_rank_compared_is_judged_by_the_claims_words_against_a_rank_label():
    # SUPPORTS: "ranked above 26th" against "peaked at number 25": skipped with the page's rank.
    assert _check("5ed7ad01c9e77c00084a674a_4").verdict is Verdict.NO_QUOTE
    # REFUTES: against "number 28", never held by "the Billboard Hot 100".
    result = _check("5ed7ad01c9e77c00084a674a_3")
    assert result.verdict is Verdict.FIGURES_MISMATCH


def test_a_comparative_is_held_by_a_figure_near_its_noun_that_makes_it_true_not_only_the_nearest():
    # SUPPORTS: "more than 60 recoveries" against "recoveries reached 65 , with a total number of 58 deaths":
    # 58 is nearer in value, but 65 stands by "recoveries" and makes the claim true.
    result = _check("5ee393b7c9e77c0008ccc65a_4")
    assert _placed(result)["60"] == (FigureStatus.MATCHED, FigurePlace.PASSAGE)
    assert result.verdict is Verdict.NO_QUOTE
    # REFUTES: "More than 27 of the 33 cases": "of the" names no noun, so no other figure holds it.
    assert _check("5ee3932bc9e77c0008cca99a_3").verdict is Verdict.FIGURES_MISMATCH


def test_a_comparative_with_no_word_after_it_is_named_by_the_claim_s_word_before_it():
    # SUPPORTS: "made on a budget of under 70 crores." against "earned 73.32 crore worldwide, against a
    # production budget of 65 crore": 73.32 is nearer in value, but 65 stands by "budget" and makes it true.
    result = _check("5ec7d50dc9e77c0008442233_1")
    assert _placed(result)["70 crores"] == (FigureStatus.MATCHED, FigurePlace.PASSAGE)
    assert result.verdict is Verdict.NO_QUOTE


def test_a_word_glued_to_a_page_figure_is_read_apart_from_it():
    # SUPPORTS rows whose page lost a space: "3.8million", "of6.4/10", "35in Thackerville", "1986The".
    assert _placed(_check("5ece9462c9e77c00084669f6_4"))["3.75 million"][0] is FigureStatus.MATCHED
    assert _placed(_check("5ece9461c9e77c0008465d5b_2"))["6.4"][0] is FigureStatus.MATCHED
    assert _placed(_check("5ec7d50cc9e77c0008440fd9_4"))["35"][0] is FigureStatus.MATCHED
    assert _placed(_check("5ee39419c9e77c0008ccfb1a_2"))["1986"][0] is FigureStatus.MATCHED


def test_a_thousands_group_set_apart_by_spaces_around_its_comma_is_one_figure():
    result = _check("5ec55990c9e77c000842cfd3_1")  # SUPPORTS: "700 , 000 copies" against "700,000 copies"
    assert _placed(result)["700 , 000"][0] is FigureStatus.MATCHED
    assert result.verdict is Verdict.NO_QUOTE


def test_a_range_of_years_after_the_claims_bound_holds_it():
    # SUPPORTS: "compiled ... after 1900" against "From2000 to 2013": both ends lie after 1900.
    assert _check("5ebbf32bc9e77c00092951e6_1").verdict is Verdict.NO_QUOTE


def test_a_number_word_hyphened_to_its_unit_is_read_on_the_page():
    # SUPPORTS: "lasted more than 15 years" against "a protracted sixty-year guerrilla war".
    result = _check("5ee3949bc9e77c0008ccfeb7_4")
    assert _placed(result)["15"][0] is FigureStatus.MATCHED
    assert result.verdict is Verdict.NO_QUOTE


@pytest.mark.parametrize(
    "unique_id, figure",
    [
        ("5ebe6f2fc9e77c0008407d5b_4", "15"),  # "longer than 15 years" / "16-year career"
        ("5ee3932bc9e77c0008cca413_2", "57"),  # "older than 57" against "a 59-year-old man"
    ],
)
def test_a_comparative_of_length_or_age_says_what_it_says(unique_id, figure):
    result = _check(unique_id)
    # In the passage offered first or, when the title is offered first, elsewhere on the page: never nowhere.
    assert _placed(result)[figure][1] in (FigurePlace.PASSAGE, FigurePlace.ELSEWHERE)
    assert result.verdict is Verdict.NO_QUOTE


def _aeb_page(page_id: str) -> str:
    (path,) = (CORPUS / "html" / "aeb" / "html").glob(f"{page_id}*.html.gz")
    return gzip.decompress(path.read_bytes()).decode("utf-8", "replace")


@pytest.mark.parametrize(
    ("claim_text", "where"),
    [
        ("Eat 1–1.5 hours before your workout.", FigurePlace.ELSEWHERE),  # the page: "Eat 60–90 minutes before"
        ("Eat 4–5 hours before your workout.", FigurePlace.NOWHERE),
    ],
)
def test_a_figure_in_another_unit_of_its_system_is_held_on_the_page(claim_text, where, corpus):
    body = _aeb_page("5f03fc173ebc")  # html/aeb: a meal-prep plan, "Eat 60–90 minutes before your workout"
    url = "http://127.0.0.1/meal-prep"
    claim = Claim(id="c", text=claim_text, url=url, figure_text=claim_text)
    result = check_claim(claim, source(url, body.encode()), prepare(extract_html(body, "text/html")), Settings())
    (fig,) = result.figures.figures
    assert fig.where is where, fig.reason
    if where is FigurePlace.ELSEWHERE:
        assert "60–90 minutes" in fig.around and result.verdict is Verdict.NO_QUOTE
    else:
        assert result.verdict is Verdict.FIGURES_MISMATCH


def test_twice_alone_counts_events_and_is_not_read_as_a_multiplier():
    # SUPPORTS: "won ... twice, including 2013" against "two National Championships ... ( 2005 , and 2013 )"
    result = _check("5ec5598bc9e77c000842c02f_4")
    assert result.verdict is Verdict.NO_QUOTE, result.reasons
    assert [f.text for f in result.figures.figures] == ["2013"]
    # Before what it compares, "twice" is still a multiplier.
    assert [f.kind.value for f in read_figures("twice as many cases")] == ["multiplier"]


def test_a_percentage_after_the_word_version_is_no_software_version():
    # SUPPORTS: "a rating higher than 75.3 %" against "the PlayStation 4 version 75.43 % based on 44 reviews"
    result = _check("5ed7ad01c9e77c00084a64da_4")
    (rating,) = [f for f in result.figures.figures if f.text == "75.3 %"]
    assert rating.status is FigureStatus.MATCHED and rating.quote_text == "75.43 %", rating.reason
    assert [f.kind.value for f in read_figures("Python version 3.12 and 3.13")] == ["version", "version"]


def test_a_decade_the_page_does_not_name_stands_nowhere():
    # REFUTES: "began his career in the 1980s" against "an underground rapper in the 1880s"
    result = _check("5ee39418c9e77c0008ccf309_3")
    assert result.verdict is Verdict.FIGURES_MISMATCH, result.reasons
    assert result.figures.nowhere[0].text == "1980s"
