"""The figures check against labelled claim/quote pairs, and the reader on tricky inputs.

Each row of tests/data/figures_cases.json is one claim/quote pair with the expected status of
every figure of the claim (tests/data/README_figures.md says where the rows came from).
Adding a case means adding a row.
"""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from core.figures import check_figures, read_figures
from core.models import FigureStatus, PageKind, PageText
from core.text.normalise import normalise
from tests.builders import corpus_text
from tests.servers import DATA

CASES = json.loads((DATA / "figures_cases.json").read_text(encoding="utf-8"))


def _flat(text: str) -> str:
    return " ".join(normalise(text).text.split())


def test_table_is_big_and_mostly_real():
    real = [c for c in CASES if not c["source"].startswith("synthetic")]
    assert len(CASES) >= 80
    assert len(real) > len(CASES) / 2
    assert len({c["id"] for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", [c for c in CASES if not c["source"].startswith("synthetic")], ids=lambda c: c["id"])
def test_real_quotes_are_on_their_corpus_page(case, corpus):
    assert _flat(case["quote"]) in _flat(corpus_text(case["source"])), f"{case['id']}: quote not in {case['source']}"


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['id']}-{c['rule'][:40]}")
def test_figures_case(case):
    check = check_figures(case["claim"], case["quote"])
    got = {f.text: f.status.value for f in check.figures}
    assert got == case["expect"], "; ".join(
        f"{f.text}: {f.status.value} {f.quote_text!r} {f.reason}" for f in check.figures
    )
    for f in check.figures:
        assert f.span is not None and case["claim"][slice(*f.span)] == f.text
        if f.status is FigureStatus.MATCHED:
            assert f.quote_text and f.quote_text in case["quote"]
        else:
            assert f.reason.endswith("."), f.reason
            assert f.text in f.reason or f.reason.startswith(("The quote's", "The claim's")), f.reason


# --------------------------------------------------------------------------- reading tricky inputs

D = Decimal
READ_CASES = [
    # (text, [(figure text, kind, value, high)])  value/high None when not numeric
    ("1,29,940", [("1,29,940", "number", D(129940), None)]),
    ("525k", [("525k", "number", D(525000), None)]),
    ("1\u2009000\u2009000 users", [("1\u2009000\u2009000", "number", D(1000000), None)]),
    ("1 000 users", [("1", "number", D(1), None), ("000", "number", D(0), None)]),  # an ordinary space never groups
    ("($479) million", [("($479) million", "money", D(-479000000), None)]),
    ("71,350 euro ($78,770)", [("71,350 euro", "money", D(71350), None), ("$78,770", "money", D(78770), None)]),
    ("−3.2%", [("−3.2%", "percent", D("-3.2"), None)]),
    (
        "gh-90564 and x86-64 and COVID-19",
        [("gh-90564", "label", D(90564), None), ("x86-64", "label", D(64), None), ("COVID-19", "label", D(19), None)],
    ),
    ("35 basis points", [("35 basis points", "points", D("0.35"), None)]),
    ("3 percentage points", [("3 percentage points", "points", D(3), None)]),
    ("25 per cent", [("25 per cent", "percent", D(25), None)]),
    ("$5.0 – $5.2 billion", [("$5.0 – $5.2 billion", "money", D(5 * 10**9), D("5.2") * 10**9)]),
    ("between 10 and 60 percent", [("10 and 60 percent", "percent", D(10), D(60))]),
    ("between two and 20 times", [("two and 20 times", "multiplier", D(2), D(20))]),
    ("1.25x", [("1.25x", "multiplier", D("1.25"), None)]),
    ("twenty-five", [("twenty-five", "number", D(25), None)]),
    ("one hundred and fifty-two", [("one hundred and fifty-two", "number", D(152), None)]),
    ("two hundred million", [("two hundred million", "number", D(200_000_000), None)]),
    ("one of the two", []),  # small number words alone are words, not figures
    ("a quarter of users", [("a quarter", "percent", D(25), None)]),
    ("in the quarter", []),
    ("1½ years", [("1½", "number", D("1.5"), None)]),
    ("1\u20442 cup of sugar", [("1\u20442", "number", D("0.5"), None)]),  # the fraction slash "½" normalises to
    ("about 2\u20443 of voters", [("2\u20443", "percent", D(200) / 3, None)]),  # a share, not 2 and 3
    ("Two thirds of the residents", [("Two thirds", "percent", D(100) / 3 * 2, None)]),  # not the word "two"
    ("About 1 in 4 adults smoke", [("1 in 4", "percent", D(25), None)]),
    ("one in every five homes", [("one in every five", "percent", D(20), None)]),
    ("he scored 5 in 2019", [("5", "number", D(5), None), ("2019", "year", D(2019), None)]),  # no share of a year
    ("10⁸", [("10⁸", "number", D(10**8), None)]),
    ("2**30", [("2**30", "number", D(2**30), None)]),
    ("1.2.3.4", [("1.2.3.4", "unreadable", None, None)]),
    ("3.9.0", [("3.9.0", "version", None, None)]),
    ("03/04/2023", [("03/04/2023", "unreadable", None, None)]),
    ("2022-10-24", [("2022-10-24", "date", None, None)]),
    ("5m people", [("5", "number", D(5), None)]),  # "m" without money may be metres
    ("€3m", [("€3m", "money", D(3000000), None)]),
    ("90-day warranty", [("90", "number", D(90), None)]),
    ("EPS of $4.45¹", [("$4.45", "money", D("4.45"), None)]),  # a superscript after a decimal is a footnote
    ("the S&P 500 index", [("S&P 500", "label", D(500), None)]),
    ("24/7 support", [("24/7", "unreadable", None, None)]),
    ("Rule 10b5-1 plans", [("10b5-1", "label", D(1), None)]),
]


@pytest.mark.parametrize(("text", "expected"), READ_CASES, ids=[c[0] for c in READ_CASES])
def test_read_figures(text, expected):
    got = [(f.text, f.kind, f.value, f.high) for f in read_figures(text)]
    assert got == expected
    for f in read_figures(text):
        assert text[f.start : f.end] == f.text


def test_read_figures_details():
    (f,) = read_figures("Python 3.11 was released")
    assert (f.kind, f.parts) == ("version", ("3", "11"))
    (f,) = read_figures("CINCINNATI, September 8, 2023 – The Kroger Co.")
    assert (f.kind, f.date) == ("date", (2023, 9, 8))
    assert read_figures("8 September 2023")[0].date == f.date
    assert [g.period for g in read_figures("FY27, FY2027, fiscal 2027")] == [("FY", 0, 2027, True)] * 3
    assert [g.period for g in read_figures("Q1 and the first quarter and 2Q23")] == [
        ("Q", 1, 0, False),
        ("Q", 1, 0, False),
        ("Q", 2, 2023, False),
    ]
    (f,) = read_figures("about 6,700")
    assert (f.hedge, f.precision) == ("about", D(100))
    (f,) = read_figures("90-day warranty")
    assert f.unit == "day"
    (f,) = read_figures("3 companies")
    assert f.standalone


# --------------------------------------------------------------------------- elsewhere on the page


def test_missing_figure_is_located_elsewhere_on_a_real_page(corpus):
    text = (corpus / "pdf/gold/kroger-press-release-2023.pdf.txt").read_text(encoding="utf-8")
    page = PageText(text=text, kind=PageKind.PDF)
    quote = "The LIFO charge for the quarter was $4 million"
    check = check_figures("Kroger's LIFO charge was $148 million in the quarter.", quote, page)
    (fig,) = check.figures
    assert fig.status is FigureStatus.MISSING
    assert fig.reason == "The quote holds no amount equal to “$148 million”: it has $4 million."
    assert fig.elsewhere, "the page says $148 million a few words later"
    assert [text[s:e] for s, e in fig.elsewhere] == ["$148 million"]


def test_missing_figure_not_on_the_page_has_no_elsewhere(corpus):
    text = (corpus / "pdf/gold/kroger-press-release-2023.pdf.txt").read_text(encoding="utf-8")
    check = check_figures(
        "The charge was $7.7 billion.",
        "Included in Kroger's results this quarter was a $1.4 billion charge",
        PageText(text=text, kind=PageKind.PDF),
    )
    (fig,) = check.figures
    assert fig.status is FigureStatus.MISSING and fig.elsewhere == ()


def test_elsewhere_finds_equivalent_writing_on_an_html_page(corpus):
    page = PageText(text=corpus_text("html/python/whatsnew/3.11.html"), kind=PageKind.HTML)
    check = check_figures(
        "Python 3.11 is 1.25 times faster.", "Python 3.11 is between 10-60% faster than Python 3.10.", page
    )
    missing = {f.text: f for f in check.missing}
    assert set(missing) == {"1.25 times"}
    assert [page.text[s:e] for s, e in missing["1.25 times"].elsewhere] == ["1.25x"]


def test_no_quote_means_every_checked_figure_is_missing():
    check = check_figures("Sales rose 12% to $33.9 billion at 3 stores.", "")
    assert [(f.text, f.status.value) for f in check.figures] == [
        ("12%", "missing"),
        ("$33.9 billion", "missing"),
        ("3", "skipped"),
    ]


def test_claim_without_figures_gives_an_empty_check():
    assert check_figures("Kroger grew digital sales.", "Grew digital sales 12%").figures == ()
