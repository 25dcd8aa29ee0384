"""A quote that stands on the page more than once, and a quote in text hidden until opened.

Each case is a real corpus page where the quote stands in several places: before this rule
the matcher reported the one place no flag blocks and verified it; now every place is
checked, a flag at any place blocks, and the flagged place comes first. Hidden text is marked
by hand over a real page, as the extractor marks accordions and tabs.
"""

from __future__ import annotations

import pytest

from core.check import decide
from core.match import match_quote, prepare
from core.match.places import HIDDEN_WORDS
from core.models import FigureCheck, FlagKind, PageKind, PageText, Verdict
from core.settings import Settings
from tests.builders import corpus_page, every

WHATSNEW_312 = "html/python/whatsnew/3.12.html"
WHATSNEW_313 = "html/python/whatsnew/3.13.html"
PEP_684 = "html/python/peps/pep-0684.html"
PEP_695 = "html/python/peps/pep-0695.html"
AEB_FIRST_STEPS = "html/aeb/html/ec7fc408c5ce66c22692a3f696c682f3de794bacfaca405d9a0dac5957051e5a.html.gz"

# (page, quote, places, the page's words right before the flagged place)
REPEATED = [
    (WHATSNEW_312, "include the exact location of the error", 2, "doesn’t"),
    (PEP_684, "expected to be thread-safe and", 2, "not"),
    (PEP_695, "use the new type parameter syntax", 2, "not"),
]


@pytest.mark.parametrize(("name", "quote", "places", "negation"), REPEATED)
def test_a_negation_at_any_place_blocks(name: str, quote: str, places: int, negation: str) -> None:
    p = corpus_page(name)
    m = match_quote(quote, p)
    assert m.found and m.occurrence_count == places == len(m.occurrences)
    first = m.occurrences[0]
    assert first.blocking and not m.occurrences[-1].blocking
    # The fragment reports the flagged place, so the desk shows it first.
    assert m.fragments[0].span == first.span
    assert p.page.text[first.span[0] - len(negation) - 1 : first.span[0]].strip() == negation
    (flag,) = m.blocking
    assert flag.kind is FlagKind.NEGATION_CUT
    assert flag.message.startswith(
        f'One of the {places} places this quote stands on the page is right after "{negation}". The page says "'
    )
    assert decide(m, FigureCheck())[0] is Verdict.NEEDS_REVIEW


def test_places_come_in_page_order_after_the_flagged_one() -> None:
    m = match_quote("enabled by default", corpus_page(WHATSNEW_313))
    assert m.occurrence_count == len(m.occurrences) >= 2
    assert m.occurrences[0].blocking
    rest = [o.span[0] for o in m.occurrences[1:]]
    assert rest == sorted(rest)


def test_one_place_keeps_the_plain_wording() -> None:
    m = match_quote(
        "This is an experimental feature and therefore is not enabled by default", corpus_page(WHATSNEW_313)
    )
    assert m.occurrence_count == 1 and not m.flags


def test_a_quote_of_several_fragments_counts_no_places() -> None:
    m = match_quote("This is an experimental feature … therefore is not enabled by default", corpus_page(WHATSNEW_313))
    assert m.found and m.occurrence_count == 0 and m.occurrences == ()


def test_a_fragment_standing_after_a_negation_elsewhere_blocks() -> None:
    # Placed over "Prompts and tracebacks with color enabled by default", the second fragment also stands,
    # nearer the first, in "is not enabled by default. The free-threaded mode requires…".
    p = corpus_page(WHATSNEW_313)
    m = match_quote("The free-threaded mode … enabled by default", p)
    assert m.found
    (flag,) = m.blocking
    assert flag.kind is FlagKind.NEGATION_CUT
    assert p.page.text[flag.span[0] : flag.span[1]] == "not"
    assert flag.message.startswith(
        'The quote\'s part "enabled by default" also stands elsewhere on the page, no farther from its other '
        'parts; there, the page says "not enabled by default"'
    )
    assert decide(m, FigureCheck())[0] is Verdict.NEEDS_REVIEW


def test_a_short_fragments_far_place_is_no_other_reading() -> None:
    # The page's own "How…exactly…in the name of…": "How" stands in 19 places, one of them after "doesn’t";
    # a place farther from the quote's other fragments than the one placed is not where it was quoted from.
    m = match_quote(
        "How…exactly…in the name of whatever deity Jason may believe in…is Samantha or anyone not “in the biz” "
        "supposed to know this.",
        corpus_page("html/readability/medium-3/source.html.gz"),
    )
    assert m.found and not m.blocking


def test_a_quote_placed_in_page_order_has_no_reading_out_of_it() -> None:
    # "That’s what I’m about to cover… the first steps." stands in order on this page; its second fragment
    # also stands after "never", before the first, in no order the quote reads.
    m = match_quote("That’s what I’m about to cover … the first steps.", corpus_page(AEB_FIRST_STEPS))
    assert m.found and not m.blocking


# --------------------------------------------------------------------------- hidden text


def _hidden_over(name: str, *quotes: str):
    """Return the corpus page prepared with the place of each quote marked hidden until opened."""
    page = corpus_page(name).page
    spans = []
    for q in quotes:
        at = page.text.index(q)
        spans.append((at - 10, at + len(q) + 10))
    return prepare(page, spans)


SENTENCE_313 = "This is an experimental feature and therefore is not enabled by default"


def test_a_quote_only_in_hidden_text_is_found_with_an_information_flag() -> None:
    p = _hidden_over(WHATSNEW_313, SENTENCE_313)
    m = match_quote(SENTENCE_313, p)
    assert m.found and m.fragments[0].hidden and m.occurrences[0].hidden
    (flag,) = m.flags
    assert flag.kind is FlagKind.HIDDEN and not flag.blocking
    assert HIDDEN_WORDS in flag.message and flag.message.startswith("The quote was found in a part of the page")
    assert decide(m, FigureCheck())[0] is Verdict.VERIFIED


def test_shown_text_is_preferred_and_then_no_hidden_flag() -> None:
    page = corpus_page(WHATSNEW_313).page
    quote = "the free-threaded build"
    plain = match_quote(quote, prepare(page))
    assert plain.occurrence_count == 3 and not plain.flags
    first = plain.occurrences[0]  # the first in page order, nothing flagged
    m = match_quote(quote, prepare(page, [first.span]))
    assert [o.hidden for o in m.occurrences] == [False, False, True]
    assert m.fragments[0].span == m.occurrences[0].span != first.span
    assert not m.flags  # shown somewhere: no hidden flag
    every(m.occurrences, lambda o: not o.flags)


def test_a_flagged_place_comes_first_even_when_hidden() -> None:
    page = corpus_page(PEP_695).page
    quote = "use the new type parameter syntax"
    flagged = match_quote(quote, prepare(page)).occurrences[0]
    m = match_quote(quote, prepare(page, [flagged.span]))
    assert [(o.blocking, o.hidden) for o in m.occurrences] == [(True, True), (False, False)]
    assert m.blocking and not any(f.kind is FlagKind.HIDDEN for f in m.flags)


# --------------------------------------------------------------------------- bounded


def test_a_quote_standing_ten_thousand_times_is_counted_and_bounded() -> None:
    sentence = "The free-threaded mode requires a different executable."
    page = PageText(text=" ".join([sentence] * 10_000), kind=PageKind.TEXT)
    settings = Settings()
    m = match_quote("The free-threaded mode requires a different executable", prepare(page), settings)
    assert m.found and m.occurrence_count == 10_000
    assert len(m.occurrences) == settings.max_occurrences
    (flag,) = m.blocking
    assert flag.kind is FlagKind.TOO_MANY_PLACES
    assert flag.message == (
        "The quote stands on the page in 10,000 places; only the first 500 were checked for a negation or "
        "condition cut away. Quote a longer passage, so that it stands in one place."
    )


def test_past_the_counting_limit_the_count_says_at_least() -> None:
    page = PageText(text=" ".join(["It is free-threaded."] * 300), kind=PageKind.TEXT)
    settings = Settings(max_occurrences=10, max_occurrences_counted=100)
    m = match_quote("free-threaded", prepare(page), settings)
    assert m.occurrence_count == 100 and len(m.occurrences) == 10
    assert any("in at least 100 places" in f.message for f in m.blocking)


def test_every_place_carries_its_own_span_on_the_page() -> None:
    p = corpus_page(WHATSNEW_313)
    m = match_quote("enabled by default", p)
    every(m.occurrences, lambda o: p.page.text[o.span[0] : o.span[1]].lower() == "enabled by default")


def test_nested_hidden_ranges_hide_what_the_outer_one_holds() -> None:
    # A closed accordion inside a closed tab: the extractor may report both.
    page = corpus_page(WHATSNEW_313).page
    at = page.text.index(SENTENCE_313)
    p = prepare(page, [(at - 500, at + 500), (at - 400, at - 300)])
    m = match_quote(SENTENCE_313, p)
    assert m.fragments[0].hidden and m.flags[0].kind is FlagKind.HIDDEN
