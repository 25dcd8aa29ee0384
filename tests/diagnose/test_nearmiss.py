"""Near-miss diagnosis on real pages: the passage, the named differences, and what it never does.

Pages are python.org and aeb news pages from the shared corpus, read by the real extractor and
prepared by the real matcher. Each case is a row: adding a case means adding a row.
"""

from __future__ import annotations

import copy
import dataclasses
import re

import pytest

from core.diagnose import candidates, diagnose, figures_near_miss, locate_figure
from core.diagnose.diff import describe
from core.match import PreparedPage, match_quote, prepare
from core.models import (
    DiffKind,
    DiffOp,
    Figure,
    FigureCheck,
    FigureKind,
    FigureStatus,
    Fragment,
    PageKind,
    PageText,
    QuoteMatch,
    Verdict,
)
from core.settings import Settings
from tests.builders import corpus_page, every
from tests.servers import CORPUS

WHATSNEW_311 = "html/python/whatsnew/3.11.html"
WHATSNEW_312 = "html/python/whatsnew/3.12.html"
WHATSNEW_313 = "html/python/whatsnew/3.13.html"
PEP_632 = "html/python/peps/pep-0632.html"


def failed(quote: str, name: str) -> tuple[PreparedPage, QuoteMatch]:
    prepared = corpus_page(name)
    match = match_quote(quote, prepared)
    assert not match.found, "the case needs a quote the exact matcher does not find"
    return prepared, match


def named(near, kind: str) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    return [(op.quote_words, op.page_words) for op in near.diff if op.kind == kind]


IGN = "html/aeb/html/287e4d9f4af31733aad6534aefb2bd00fb344ec8d6ebf1ac99dbc4d762da0ca4.html.gz"  # an IGN deals page

# (page, quote, kind, quote words, page words): each a real sentence changed in one place.
DRIFTS = [
    (IGN, "Eric Song is IGN's deal curator and spends 5% of his pay on stuff he posts.", "figure_changed", "5%", "25%"),
    (WHATSNEW_311, "CPython 3.11 is an average of 25% faster than CPython 3.9", "figure_changed", "3.9", "3.10"),
    (
        WHATSNEW_313,
        "This is an experimental feature and therefore is enabled by default.",
        "negation_dropped",
        "",
        "not",
    ),
    (
        PEP_632,
        "In Python 3.10 and 3.11, distutils will not be formally marked as deprecated.",
        "negation_added",
        "not",
        "",
    ),
    (PEP_632, "In Python 3.10 and 3.11, distutils will be marked as deprecated.", "word_dropped", "", "formally"),
    (
        PEP_632,
        "In Python 3.10 and 3.11, distutils will be formally and quietly marked as deprecated.",
        "word_added",
        "and quietly",
        "",
    ),
    (
        PEP_632,
        "In Python 3.10 and 3.11, distutils will be formally marked as obsolete.",
        "word_replaced",
        "obsolete",
        "deprecated",
    ),
    (
        WHATSNEW_313,
        "This is an experimental feature and therefore is by default not enabled.",
        "reordered",
        "not enabled",
        "not enabled",
    ),
]


@pytest.mark.parametrize(("name", "quote", "kind", "quote_words", "page_words"), DRIFTS)
def test_difference_is_named(name: str, quote: str, kind: str, quote_words: str, page_words: str) -> None:
    prepared, match = failed(quote, name)
    near = diagnose(quote, prepared, match, {})
    assert (quote_words, page_words) in named(near, kind), near.diff
    assert near.passage is not None
    # The passage is the page's own characters, at its own place.
    assert prepared.page.text[near.passage.start : near.passage.end] == near.passage.text
    assert near.passage.score >= Settings().near_miss_min_score
    assert "Closest passage" in near.summary


def test_figure_change_is_told_in_words() -> None:
    quote = "Eric Song is IGN's deal curator and spends 5% of his pay on stuff he posts."
    prepared, match = failed(quote, IGN)
    near = diagnose(quote, prepared, match, {})
    assert near.passage is not None
    assert near.passage.text == "Eric Song is IGN's deal curator and spends 25% of his pay on stuff he posts"
    assert 'the page says "25%" where the quote says "5%"' in near.summary
    assert [op.kind for op in near.diff] == ["equal", "figure_changed", "equal"]


def test_spliced_sentences_across_a_dropped_full_stop() -> None:
    # PEP 632: "... formally marked as deprecated. All known issues will be closed at this time."
    quote = "distutils will be formally marked as deprecated all known issues will be closed at this time"
    prepared, match = failed(quote, PEP_632)
    near = diagnose(quote, prepared, match, {})
    assert named(near, "spliced") == [("deprecated all", "deprecated. All")]
    assert near.passage is not None and near.passage.text.endswith("closed at this time")


def test_spliced_from_two_distant_sentences() -> None:
    # PEP 632: the head of one sentence, the tail of another three sentences later.
    head = "Setuptools has recently integrated a complete copy of distutils"
    tail = "can respond to bug reports more quickly"
    prepared = corpus_page(PEP_632)
    assert match_quote(head, prepared).found and match_quote(tail, prepared).found
    quote = f"{head} and {tail}"
    _, match = failed(quote, PEP_632)
    near = diagnose(quote, prepared, match, {})
    spliced = named(near, "spliced")
    assert spliced, near.diff
    assert spliced[0][0] == tail
    assert tail in spliced[0][1]
    assert near.passage is not None and near.passage.text.startswith(head)
    assert "separate sentences" in near.summary


def test_spliced_words_found_verbatim_elsewhere_are_told_without_a_false_contrast() -> None:
    # PEP 703: the quote's tail is word for word in another sentence; "the page has X where the
    # quote has X" would read as a difference where there is none.
    words = "to let it run Python code without the global interpreter lock"
    said = describe(DiffOp(kind=DiffKind.SPLICED, quote_words=words, page_words=words))
    assert said == f'the quote joins words from separate sentences: "{words}" stands in another sentence of the page'
    assert "where the quote has" in describe(
        DiffOp(kind=DiffKind.SPLICED, quote_words="deprecated all", page_words="deprecated. All")
    )


def test_ellipsis_quote_is_diagnosed_on_its_failing_part() -> None:
    quote = "In Python 3.10 and 3.11, distutils will be formally marked as deprecated … All known issues will be shut"
    prepared, match = failed(quote, PEP_632)
    assert [f.found for f in match.fragments] == [True, False]
    near = diagnose(quote, prepared, match, {})
    assert "Part 2 of the quote's 2 parts" in near.summary
    assert ("shut", "closed") in named(near, "word_replaced")


def test_cut_negation_names_the_words_cut_away() -> None:
    quote = "enabled by default. The free-threaded mode requires a different executable"
    prepared = corpus_page(WHATSNEW_313)
    match = match_quote(quote, prepared)
    assert match.found and match.blocking
    near = diagnose(quote, prepared, match, {})
    assert named(near, "cut_away") == [("", "not")]
    assert near.summary.startswith('The quote is on the page word for word, but it cuts away "not".')
    assert near.passage is not None and near.passage.text == quote


def test_misattribution_names_the_other_source() -> None:
    quote = "In Python 3.10 and 3.11, distutils will be formally marked as deprecated."
    own, match = failed(quote, WHATSNEW_312)
    others = {
        "https://docs.python.org/3.12/whatsnew/3.12.html": own,
        "https://peps.python.org/pep-0632/": corpus_page(PEP_632),
    }
    near = diagnose(quote, own, match, others)
    assert near.found_in_source == "https://peps.python.org/pep-0632/"
    assert near.summary.startswith("Found verbatim in source 2 of this brief (https://peps.python.org/pep-0632/)")
    assert "still not verified for this claim" in near.summary


def test_no_misattribution_when_no_other_source_holds_it() -> None:
    quote = "CPython 3.11 is an average of 5% faster than CPython 3.10"
    own, match = failed(quote, WHATSNEW_311)
    near = diagnose(quote, own, match, {"https://peps.python.org/pep-0632/": corpus_page(PEP_632)})
    assert near.found_in_source is None
    assert "verbatim" not in near.summary


@pytest.mark.parametrize(
    ("name", "claim", "figure", "words"),
    [
        (PEP_632, "Code importing distutils stops working in Python 3.12", "3.12", "no longer work"),
        (
            PEP_632,
            "distutils was to be deprecated formally in Python 3.10 and 3.11",
            "3.10",
            "formally marked as deprecated",
        ),
    ],
)
def test_candidates_for_a_claim_without_quote(name: str, claim: str, figure: str, words: str) -> None:
    prepared = corpus_page(name)
    offered = candidates(claim, prepared)
    assert 1 <= len(offered) <= 3
    assert any(words in c.text for c in offered), [c.text for c in offered]
    if figure:
        assert figure in offered[0].text
    for c in offered:
        # Copied exactly from the page, so that adopting one goes through the exact matcher.
        assert prepared.page.text[c.start : c.end] == c.text
        assert match_quote(c.text, prepared).found, c.text


def test_candidates_put_sentences_with_the_claims_figure_first() -> None:
    prepared = corpus_page(WHATSNEW_311)
    offered = candidates("CPython 3.11 is 25% faster", prepared)
    with_figure = ["25%" in c.text for c in offered]
    assert with_figure[0]
    assert with_figure == sorted(with_figure, reverse=True)


def test_figure_located_elsewhere_on_the_page() -> None:
    prepared = corpus_page(WHATSNEW_311)
    spans = locate_figure("25%", prepared)
    every(spans, lambda span: prepared.page.text[span[0] : span[1]].startswith("25"))
    check = FigureCheck(figures=(Figure(text="25%", status=FigureStatus.MISSING, kind=FigureKind.PERCENT),))
    near = figures_near_miss(check, prepared)
    assert near is not None and near.passage is not None
    assert "25%" in near.passage.text
    assert "“25%” is not in the quote, but the page has it" in near.summary
    nowhere = figures_near_miss(FigureCheck(figures=(Figure(text="97.3%", status=FigureStatus.MISSING),)), prepared)
    assert nowhere is not None and "appears nowhere on the page" in nowhere.summary


def test_figures_mismatch_diagnosis_through_diagnose() -> None:
    prepared = corpus_page(PEP_632)
    quote = "In Python 3.10 and 3.11, distutils will be formally marked as deprecated."
    match = match_quote(quote, prepared)
    assert match.found and not match.blocking
    check = FigureCheck(figures=(Figure(text="3.12", status=FigureStatus.MISSING, kind=FigureKind.VERSION),))
    near = diagnose(quote, prepared, match, {}, figures=check)
    assert "“3.12” is not in the quote, but the page has it 3 times" in near.summary
    assert near.passage is not None and "3.12" in near.passage.text


def test_typography_only_difference_is_reported_as_a_matcher_bug() -> None:
    # A matcher that wrongly says "not found" for a quote that is on the page word for word.
    quote = "In Python 3.10 and 3.11, distutils will be formally marked as deprecated."
    prepared = corpus_page(PEP_632)
    assert match_quote(quote, prepared).found
    wrong = QuoteMatch(quote=quote, fragments=(Fragment(text=quote, found=False),))
    near = diagnose(quote, prepared, wrong, {})
    assert [op.kind for op in near.diff] == ["typography_only"]
    assert "matcher bug" in near.summary


@pytest.mark.parametrize(
    "quote",
    [
        "Die Katze schläft gern auf dem warmen Sofa neben dem Ofen.",
        "الرياضيات هي دراسة القياس والحساب والهندسة",
        "这是一个完全不同的文字系统中的句子",
    ],
)
def test_no_close_passage_for_a_quote_from_nowhere(quote: str) -> None:
    prepared, match = failed(quote, WHATSNEW_311)
    near = diagnose(quote, prepared, match, {})
    assert near.passage is None and near.diff == ()
    assert near.summary.startswith("No close passage")


def test_five_thousand_word_quote_gives_an_answer() -> None:
    prepared = corpus_page(WHATSNEW_313)
    # Real words of the page, without the dots that would split it into ellipsis fragments.
    words = [w for w in prepared.page.text.split() if "." not in w and "…" not in w]
    quote = " ".join(words[1000:6000]).replace(" the ", " a ")
    _, match = failed(quote, WHATSNEW_313)
    near = diagnose(quote, prepared, match, {})
    assert near.summary.startswith("No close passage searched: the quote has")


def test_long_quote_within_the_word_limit_is_diagnosed() -> None:
    prepared = corpus_page(WHATSNEW_313)
    text = prepared.page.text
    start = text.index("This is an experimental feature")
    quote = text[start : start + 1500].replace("not enabled", "enabled")
    _, match = failed(quote, WHATSNEW_313)
    near = diagnose(quote, prepared, match, {})
    assert ("", "not") in named(near, "negation_dropped")


def test_exhausted_budget_says_no_close_passage() -> None:
    quote = "CPython 3.11 is an average of 5% faster than CPython 3.10"
    prepared, match = failed(quote, WHATSNEW_311)
    near = diagnose(quote, prepared, match, {}, Settings(diagnose_budget_seconds=0.0))
    assert near.passage is None
    assert "within the diagnosis time limit" in near.summary


@pytest.mark.slow
def test_twenty_megabyte_page_gives_an_answer() -> None:
    base = corpus_page(WHATSNEW_313).page.text
    text = (base + "\n") * (20_000_000 // len(base) + 1)
    big = prepare(PageText(text=text, kind=PageKind.TEXT))
    quote = "This is an experimental feature and therefore is enabled by default."
    match = match_quote(quote, big)
    near = diagnose(quote, big, match, {})
    assert near.summary  # an answer, whether a passage or "no close passage"
    assert near.passage is None or ("", "not") in named(near, "negation_dropped")


def test_diagnosis_never_changes_the_match() -> None:
    quote = "This is an experimental feature and therefore is enabled by default."
    prepared, match = failed(quote, WHATSNEW_313)
    before = copy.deepcopy(match)
    near = diagnose(quote, prepared, match, {"https://peps.python.org/pep-0632/": corpus_page(PEP_632)})
    assert dataclasses.astuple(match) == dataclasses.astuple(before)
    assert not isinstance(near, QuoteMatch)
    assert not any(isinstance(v, QuoteMatch | Verdict) for v in dataclasses.astuple(near))


def test_aeb_news_page_dropped_word() -> None:
    name = "html/aeb/html/" + sorted(p.name for p in (CORPUS / "html" / "aeb" / "html").glob("*.html.gz"))[3]
    prepared = corpus_page(name)
    sentence = next(
        m.group()
        for m in re.finditer(r"[A-Z][^.!?\n]{80,200}[.!?]", prepared.page.text)
        if match_quote(m.group(), prepared).found and len(m.group().split()) > 12
    )
    words = sentence.split()
    quote = " ".join(words[:6] + words[7:])
    _, match = failed(quote, name)
    near = diagnose(quote, prepared, match, {})
    assert (words[6].strip(",;:")) in " ".join(pw for _, pw in named(near, "word_dropped"))
