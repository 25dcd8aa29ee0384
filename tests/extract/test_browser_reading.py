"""Pages read as a browser reads them: HTML5 parsing, "needs JavaScript" only with evidence, hidden parts kept apart."""

from __future__ import annotations

import gzip
from pathlib import Path

from core.extract import extract, extract_html
from core.match import match_quote, prepare
from core.models import FlagKind, PageText, Unreadable
from tests.servers import CORPUS, DATA

PAGES = DATA / "pages"
AEB = CORPUS / "html" / "aeb" / "html"
READABILITY = CORPUS / "html" / "readability"
GIVEWELL = "ad9e9e596f21a6812fae27b5d9d622359826c368e471d7d5ff9ac4676eaac9cd"


def _gz(path: Path) -> bytes:
    return gzip.decompress(path.read_bytes())


def _text(body: bytes) -> PageText:
    page = extract(body, "text/html")
    assert isinstance(page, PageText), page
    return page


def test_a_page_closing_html_before_body_is_read_as_a_browser_reads_it() -> None:
    # The real GiveWell post with one edit, "</head>" -> "</head></html>": libxml2 gave 0 characters
    # and "needs JavaScript"; a browser (and the HTML5 algorithm) shows the whole post.
    edited = _text((PAGES / "givewell-html-closed-before-body.html").read_bytes())
    original = _text(_gz(AEB / f"{GIVEWELL}.html.gz"))
    assert len(edited.text) > 10_000
    assert edited.text == original.text
    # The first sentence of the post, as the benchmark's people wrote it down (aeb ground truth).
    quote = "In July 2018, we recommended a $5.1 million grant to Evidence Action Beta to create a program"
    assert match_quote(quote, prepare(edited)).found


def test_text_after_an_element_libxml2_thinks_is_not_void_is_kept() -> None:
    # readability's visibility-hidden page: <embed src="foo.swf"/> is void in HTML5; the paragraph
    # after it is shown by every browser.
    page = _text(_gz(READABILITY / "visibility-hidden" / "source.html.gz"))
    assert page.text.endswith("sunt in culpa qui officia deserunt mollit anim id est laborum.")
    assert page.text.count("Duis aute irure dolor") == 1  # the other one is under visibility:hidden


def test_a_short_page_without_scripts_is_just_short() -> None:
    # readability's invalid-attributes page: 49 characters of real text and no script at all.
    page = _text(_gz(READABILITY / "invalid-attributes" / "source.html.gz"))
    assert 0 < len("".join(page.text.split())) < 200


def test_a_page_whose_scripts_build_it_needs_javascript() -> None:
    # A React shell (tests/data/extract/js-shell.html) with its bundle but an empty root.
    body = (DATA / "extract" / "js-shell.html").read_bytes().replace(b' id="root"', b' id="main-view"')
    result = extract(body, "text/html")
    assert isinstance(result, Unreadable)
    assert "its scripts build the page" in result.reason


def test_a_page_of_empty_markup_and_no_script_holds_no_text() -> None:
    result = extract(b"<html><body><div><span></span></div></body></html>", "text/html", url="https://example.org/e")
    assert isinstance(result, Unreadable)
    assert result.reason.startswith("The source https://example.org/e holds no text")


def test_text_hidden_until_opened_is_found_with_its_flag() -> None:
    # The Washington Post's badge descriptions sit in display:none panels a reader opens.
    page = _text(_gz(READABILITY / "wapo-2" / "source.html.gz"))
    prepared = prepare(page)
    hidden = "SuperFan badge holders consistently post smart, timely comments about Washington area sports and teams."
    found = match_quote(hidden, prepared)
    assert found.found
    assert FlagKind.HIDDEN in [f.kind for f in found.flags]
    shown = match_quote("The Washington Post's fact-checking team", prepared)
    assert FlagKind.HIDDEN not in [f.kind for f in shown.flags]


def test_a_quote_shown_and_hidden_is_matched_where_it_is_shown() -> None:
    # readability's hidden-nodes page: the same paragraph is shown once and hidden twice.
    page = _text(_gz(READABILITY / "hidden-nodes" / "source.html.gz"))
    quote = "At vero eos et accusam et justo duo dolores et ea rebum."
    found = match_quote(quote, prepare(page))
    [(start, _)] = page.hidden
    assert found.found and found.fragments[0].span is not None and found.fragments[0].span[1] < start
    assert FlagKind.HIDDEN not in [f.kind for f in found.flags]


def test_a_hidden_inline_part_leaves_the_shown_sentence_whole() -> None:
    # A "read more" remainder or a COinS span inside a sentence: the shown text reads on across it.
    page = extract_html(
        "<p>The quick brown fox <span style='display:none'>(hidden note)</span>jumps over the lazy dog.</p>"
    )
    assert page.text.split("\n") == ["The quick brown fox jumps over the lazy dog.", "(hidden note)"]
    assert page.hidden == ((len(page.text) - len("(hidden note)"), len(page.text)),)


def test_a_closed_details_shows_its_summary_and_hides_its_body() -> None:
    page = extract_html("<details><summary>Shipping</summary><p>Ships within two days.</p></details><p>After.</p>")
    assert page.text == "Shipping\nAfter.\nShips within two days."
    opened = extract_html("<details open><summary>Shipping</summary><p>Ships within two days.</p></details>")
    assert opened.hidden == ()


def test_hiding_classes_count_as_whole_tokens_and_desktop_widths() -> None:
    page = extract_html(
        '<div class="overflow-hidden">Overflow clipped, shown.</div><div class="hidden md:block">Desktop, shown.</div>'
        '<div class="collapse show">Opened, shown.</div><div class="collapse">Collapsed.</div>'
    )
    start = page.hidden[0][0]
    assert page.text[:start].split("\n")[:3] == ["Overflow clipped, shown.", "Desktop, shown.", "Opened, shown."]
    assert page.text[start:] == "Collapsed."


def test_a_hundred_thousand_hidden_elements_are_read_up_to_the_limit_with_a_reason() -> None:
    body = b"<p>" + b"A visible sentence of ordinary words. " * 10 + b"</p>"
    body += b"".join(b"<div hidden>hidden part %d</div>" % i for i in range(100_000))
    page = _text(body)
    assert page.text.startswith("A visible sentence")
    assert page.text.endswith("hidden part 4999")
    assert (
        'The page hides 100,000 parts until a reader opens them (tabs, accordions, "read more"); only the first '
        "5,000 were read. A quote from a later hidden part will not be found: paste the text of the part you quote."
    ) in page.warnings
