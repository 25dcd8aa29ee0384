"""The word prints only ever skip pages where the exact matcher could not find a quote.

Quotes found on a real page (glued note numbers and ellipses among them) need only words the
page holds, so their page is never skipped; a quote with a word the page lacks is skipped.
"""

from __future__ import annotations

import pytest

from core.check.elsewhere import Readable, first_holders, word_prints
from core.match import match_quote, needed_words
from core.settings import Settings
from tests.builders import corpus_page

SRE = "html/readability/google-sre-book-1/source.html.gz"
FOUND = [
    "Respectively, these alerts are classified as tickets, email alerts,22 and pages.",
    "Respectively, these alerts are classified as tickets, email alerts, and pages.",
    "an average latency of 100 ms at 1,000 requests per second, 1% of requests might easily take 5 seconds.23",
    '22Sometimes known as "alert spam," as they are rarely read or acted on.',
    "Respectively, these alerts are classified … email alerts,22 and pages.",
]


@pytest.mark.parametrize("quote", FOUND)
def test_a_found_quote_needs_only_words_its_page_holds(quote: str) -> None:
    page = corpus_page(SRE)
    assert match_quote(quote, page).found
    assert needed_words(quote) and needed_words(quote) <= page.postings.keys()


def test_the_first_other_page_holding_the_quote_is_named_and_unlikely_pages_are_not_read() -> None:
    sre, pep = corpus_page(SRE), corpus_page("html/python/peps/pep-0632.html")
    pages = [Readable("pep", ("a", "html"), word_prints(pep)), Readable("sre", ("b", "html"), word_prints(sre))]
    read: list[str] = []

    def again(url: str):  # the pages as the store would give them back
        read.append(url)
        return {"pep": pep, "sre": sre}[url]

    wanted = [(0, FOUND[0], ("c", "html")), (1, "No page of these holds this zebra giraffe sentence", ("c", "html"))]
    assert first_holders(pages, wanted, again, Settings()) == {0: (2, "sre")}
    assert read == ["sre"]  # the PEP lacks the quote's words: not read again
