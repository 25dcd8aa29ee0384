"""AppTest of the desk stepping through every place a repeated quote stands (a real check of a real page)."""

from __future__ import annotations

from core.check import check_claim
from core.settings import Settings
from tests.builders import claim, corpus_page, report, source
from tests.servers import corpus_bytes
from tests.ui.test_pages import _all_html, _no_exceptions, _open, _saved_run

WHATSNEW_312 = "html/python/whatsnew/3.12.html"
URL = "https://docs.python.org/3/whatsnew/3.12.html"


def test_the_editor_steps_from_the_flagged_place_to_the_other() -> None:
    c = claim("c1", "Error messages now show where the error is.", URL, "include the exact location of the error")
    result = check_claim(c, source(URL, corpus_bytes(WHATSNEW_312)), corpus_page(WHATSNEW_312), Settings())
    at = _open(_saved_run(report(result)))
    at.button(key="openbtn|c1").click().run()
    _no_exceptions(at)
    page = _all_html(at)
    # The flagged place first: its negation marked beside the quote.
    assert '<mark class="flagged"' in page and "doesn’t" in page
    assert any("2 places on the page" in c.value for c in at.caption)
    stepper = at.select_slider(key="places-c1")
    assert stepper.value == 0
    stepper.set_value(1).run()
    _no_exceptions(at)
    after = _all_html(at)
    assert "error messages for f-strings are more precise and" in after
