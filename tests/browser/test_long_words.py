"""Real browser: a 4,000-character word wraps on every view of the run and in the HTML report (issue 16, 9).

The word stands where a brief or a page puts it: in the claim, its quote, its URL, the page's
context and a reason. No view may grow wider than the window.
"""

from __future__ import annotations

import pytest

from core.report import ExportKind, exports, to_json
from core.store import Store
from tests.browser.conftest import Watched
from tests.browser.desk import Desk
from tests.browser.records import LONG_WORD as WORD
from tests.browser.records import long_word_report

pytestmark = pytest.mark.browser


def _width(w: Watched) -> tuple[int, int]:
    """Return the widest element's scroll width (a box that scrolls sideways counts too) and the window's."""
    return w.page.evaluate(
        "() => [Math.max(...Array.from(document.querySelectorAll('body *')).map(e => e.scrollWidth)),"
        " window.innerWidth]"
    )


def test_a_four_thousand_character_word_wraps_on_every_view_and_in_the_report(
    desk: Desk, watched: Watched, tmp_path
) -> None:
    page = watched.page
    report = long_word_report()
    run_id = Store(desk.db).save_run(to_json(report), b"", "long-word.md")
    page.goto(f"{desk.url}/review?run={run_id}")
    page.locator(".sumbar").first.wait_for()
    scroll, window = _width(watched)
    assert scroll <= window, f"the review is {scroll} px wide in a {window} px window"
    page.get_by_role("button", name="Open beside its source").first.click()
    page.get_by_text("Your decision").wait_for()
    scroll, window = _width(watched)
    assert scroll <= window, f"the opened claim is {scroll} px wide in a {window} px window"
    for name in ("Report", "History"):
        page.get_by_role("link", name=name).click()
        page.wait_for_timeout(800)
        scroll, window = _width(watched)
        assert scroll <= window, f"the {name} page is {scroll} px wide in a {window} px window"

    html = tmp_path / "report.html"
    html.write_bytes(exports(report, (ExportKind.HTML,))[ExportKind.HTML])
    page.goto(html.as_uri())
    scroll, window = _width(watched)
    assert scroll <= window, f"the HTML report is {scroll} px wide in a {window} px window"
    assert WORD in page.inner_text("body").replace("\n", "")  # wrapped, not cut
