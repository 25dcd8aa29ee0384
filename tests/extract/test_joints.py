"""Words a page's markup splits (core/extract/joints.py): read as shown, and with the space a tool puts there."""

from __future__ import annotations

from core.extract import extract_html, html_page_text
from core.match import match_quote, prepare
from core.settings import Settings
from tests.builders import corpus_page

AEB = "html/aeb/html/"
# <a>expand</a><span><a>ed</a></span>: "expanded" on screen, "expand ed" from a tool that spaces every tag.
EUROPA = AEB + "42aad16bde9288623543642a9ce1a396be83e2db44aa2ff8cbbfe46e14abd7cc.html.gz"
# <span>Updated</span><a>Police Identify ...</a>: a label run into a headline.
PLANO = AEB + "51d066b0602c9421d8d6410bc4b931700978409a3faa2a984e8fbde519ad7241.html.gz"
# <a>book</a><a>review</a>: two tags, each a word the page uses on its own.
TAGS = AEB + "30b771a40a4e96156d398716c877deef54b05d091770d2717c98e4c6b670010c.html.gz"


def test_a_word_split_by_markup_is_found_as_shown_and_with_the_tool_s_space() -> None:
    page = corpus_page(EUROPA)
    shown = match_quote("Today that mission scope may well have expanded to Jupiter’s moon Europa", page)
    spaced = match_quote("Today that mission scope may well have expand ed to Jupiter’s moon Europa", page)
    assert shown.found and spaced.found
    # The match stands on the page's own characters, as the shown one does.
    assert spaced.fragments[0].span == shown.fragments[0].span
    assert not spaced.flags


def test_words_run_together_by_markup_are_found_apart() -> None:
    page = corpus_page(PLANO)
    assert "UpdatedPolice Identify Man" in page.page.text
    assert match_quote("Updated Police Identify Man, Woman Found Dead in Plano Apartment", page).found


def test_two_words_of_the_page_in_lower_case_are_not_split() -> None:
    page = corpus_page(TAGS)
    assert "bookreview" in page.page.text
    assert not match_quote("Tell us what YOU think...\ncomments\nbook review\nFree scooter", page).found
    assert match_quote("Tell us what YOU think...\ncomments\nbookreview\nFree scooter", page).found


def test_digits_and_spaced_out_words_are_not_split() -> None:
    # "$1<sup>99</sup>" is a price; a quote "1 99" is not the page's.
    page = prepare(extract_html("<p>The lamp costs $1<sup>99</sup> in every store this week.</p>", "text/html"))
    assert not page.page.line_ends
    assert not match_quote("The lamp costs $1 99 in every store", page).found
    # Without the joint: "not" + "able" each stand alone on this page.
    html = "<p>This is <b>not</b>able work. It is not able to run. Able or not.</p>"
    assert not match_quote("This is not able work", prepare(extract_html(html, "text/html"))).found


def test_a_page_of_letters_each_in_its_own_element_keeps_a_bounded_number_of_joints() -> None:
    html = "<p>" + "".join(f"<span>{c}</span>" for c in "abcdefghij" * 5_000) + "</p>"
    page, _ = html_page_text(html, settings=Settings(max_word_joints=100))
    assert len(page.text) == 50_000
    assert len(page.line_ends) == 100
