"""Negated comparators ("not more than", "no fewer than") read as the opposite bound, in claim, quote and page alike."""

from __future__ import annotations

import pytest

from core.extract.read import extract_html
from core.figures import check_figures, read_figures
from core.figures.page import place_figures
from core.match import prepare
from core.models import Candidate, FigurePlace, FigureStatus

M, X = FigureStatus.MATCHED, FigureStatus.MISSING


@pytest.mark.parametrize(
    ("text", "hedge"),
    [
        ("The district had not more than 850 cases by the end of March.", "not more than"),
        ("Each household may bring no more than 20 kg of waste.", "no more than"),
        ("The plant must run for not less than 30 days a year.", "not less than"),
        ("No fewer than 300 people attended the vigil.", "no fewer than"),
        ("The loan is no less than $2 million.", "no less than"),
        # "not over", "not below"... are negated comparators as "not more than" is.
        ("By then the United Kingdom had not over 3,000 confirmed coronavirus cases .", "not over"),
        ("The film's approval rating is not below 59 % on Rotten Tomatoes .", "not below"),
        ("The number of confirmed cases in the state is not higher than 48,000 .", "not higher than"),
        # A "not" with its verb between still negates the comparator.
        ("By then Washington had not recorded less than 7,100 confirmed cases .", "not less than"),
        ("There had not been more than 850 positive tests in Uzbekistan .", "not more than"),
        ("New York State hasn't conducted over 680,000 coronavirus tests .", "not over"),
        # ...but not a "not only", nor a "not" of a clause joined on with "and".
        ("The tax is not only more than 5 % of income but rising .", "more than"),
        ("Prices did not fall and over 300 shops closed .", "over"),
    ],
)
def test_a_negated_comparator_is_read_whole_as_the_hedge(text, hedge):
    (fig,) = read_figures(text)
    assert fig.hedge == hedge


@pytest.mark.parametrize(
    ("claim", "quote", "status"),
    [
        # "not more than X" is at most X: held by a smaller figure, not by a larger one.
        ("The district had not more than 850 cases.", "The district reported 812 confirmed cases.", M),
        ("The district had not more than 850 cases.", "The district reported 912 confirmed cases.", X),
        # "no fewer than X" is at least X.
        ("No fewer than 300 people attended the vigil.", "Some 340 people attended the vigil on Sunday.", M),
        ("No fewer than 300 people attended the vigil.", "Only 240 people attended the vigil on Sunday.", X),
        # A negated bound in the quote is the same bound as the claim's own words: "at most" = "no more than".
        ("Each household may bring at most 20 kg of waste.", "Households may bring no more than 20 kg of waste.", M),
        ("The plant runs at least 30 days a year.", "The plant must run for not less than 30 days a year.", M),
        # ...and the opposite of the bound it negates: "more than 850" is not held by "not more than 850".
        ("The district had more than 850 cases.", "The district had not more than 850 cases.", X),
        ("Each household may bring up to 20 kg of waste.", "Households may bring no less than 20 kg of waste.", X),
        # The claim's negated "over" is at most: a quote's larger figure does not hold it.
        (
            "By then the United Kingdom had not over 3,000 confirmed coronavirus cases .",
            "By then there have been 3,269 confirmed cases in the United Kingdom .",
            X,
        ),
        (
            "The approval rating is not over 49 % .",
            "The film has an approval rating of 50 % , based on 26 critics .",
            X,
        ),
        (
            "The approval rating is not over 51 % .",
            "The film has an approval rating of 50 % , based on 26 critics .",
            M,
        ),
        # A negated bound in time holds its own point and the side it says (VitaminC's revisions).
        ("Grease was not released before 1978 .", "Grease is a 1977 American musical film .", X),
        ("Grease was not released before 1977 .", "Grease is a 1977 American musical film .", M),
        ("The European Space Agency was not founded before 1976 .", "Established in 1975 , ESA is in Paris .", X),
        ("Her son was not born after September 2 , 2015 .", "On September 3 , 2015 , she gave birth to a son .", X),
        ("The film was released no later than 2015 .", "The film was released in 2014 .", M),
        # A negated comparator takes no rounding: "not more than 112,000" excludes 112,113; its own bound holds.
        ("Germany has not registered more than 112,000 cases .", "112,113 cases have been reported .", X),
        ("The state has not less than 160,000 confirmed cases .", "There have been 159,937 confirmed cases .", X),
        ("The state has not less than 160,000 confirmed cases .", "There have been 160,000 confirmed cases .", M),
        ("The state has not more than 160,000 confirmed cases .", "There have been 160,000 confirmed cases .", M),
        (
            "By then Washington had not recorded less than 7,100 cases .",
            "Washington had 7,028 confirmed cases by then .",
            X,
        ),
    ],
)
def test_a_negated_comparator_is_compared_as_its_opposite_bound_with_a_quote(claim, quote, status):
    (fig,) = check_figures(claim, quote).figures
    assert fig.status is status, fig.reason


def _place(claim: str, sentence: str) -> tuple[FigureStatus, FigurePlace | None]:
    body = f"<html><body><h1>Outbreak</h1><p>{sentence}</p></body></html>"
    page = prepare(extract_html(body, "text/html")).page
    start = page.text.index(sentence[:10])
    passage = Candidate(text=page.text[start:], start=start, end=len(page.text))
    (fig,) = place_figures(claim, [passage], page).figures
    return fig.status, fig.where


def test_a_negated_comparator_is_judged_by_what_it_says_on_a_page():
    sentence = "As of 31 March , the district had reported 812 confirmed cases , with 12 deaths ."
    assert _place("The district had not more than 850 cases .", sentence) == (M, FigurePlace.PASSAGE)
    assert _place("The district had no fewer than 850 cases .", sentence) == (X, FigurePlace.NOWHERE)
    page_bound = "The district has had no more than 850 confirmed cases since the outbreak began ."
    assert _place("The district had at most 850 cases .", page_bound) == (M, FigurePlace.PASSAGE)
    assert _place("The district had more than 850 cases .", page_bound)[0] is not M


def test_a_bound_the_other_way_is_named_in_the_reason():
    (fig,) = check_figures("The district had more than 850 cases.", "The district had no more than 850 cases.").figures
    assert fig.reason == (
        "The quote holds no number within one rounding step of “850”: the quote's “no more than 850” bounds it"
        " the other way from the claim's “more than”."
    )
