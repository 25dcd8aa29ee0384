"""Real-browser tests of what the desk must never lose or let through (issue 16, 1, 3, 4).

Re-fetch takes the private-network option in force now, not the one of an earlier check;
two tabs on one claim never wipe each other's decisions; a note typed and not committed
survives a reload. Sources are served from loopback only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from core.store import Store
from tests.browser.conftest import Watched
from tests.browser.desk import Desk
from tests.browser.test_desk import _allow_private, _wait_review
from tests.servers import CORPUS, LoopbackServer, serve

pytestmark = pytest.mark.browser

PEP_QUOTE = "In Python 3.10 and 3.11, distutils will be formally marked as deprecated"


@pytest.fixture(scope="module")
def pages() -> Iterator[LoopbackServer]:
    with serve() as s:
        body = (CORPUS / "html/python/peps/pep-0632.html").read_bytes()
        s.add("/first.html", body)
        s.add("/second.html", body)
        yield s


def _check_pasted(w: Watched, text: str) -> str:
    """Paste a brief on the Check page (already open in this tab), check it, and return its run id."""
    page = w.page
    page.get_by_label("Paste a brief (Markdown or plain text)").fill(text)
    page.get_by_label("Paste a brief (Markdown or plain text)").blur()
    page.get_by_role("button", name="Check", exact=True).click()
    _wait_review(w, "pasted brief")
    return re.search(r"run=([\w-]+)", page.url).group(1)  # type: ignore[union-attr]


def test_refetch_takes_the_option_in_force_not_an_earlier_checks(desk: Desk, watched: Watched, pages) -> None:
    page = watched.page
    first, second = pages.url("/first.html"), pages.url("/second.html")
    page.goto(desk.url)
    page.get_by_role("button", name="Check", exact=True).wait_for()
    first_run = _check_pasted(watched, f'Distutils is deprecated ([PEP]({first})): "{PEP_QUOTE}".')
    assert page.locator("[data-verdict=blocked]").first.is_visible()
    assert pages.requests == []

    page.get_by_role("link", name="Check").click()
    page.get_by_role("button", name="Check", exact=True).wait_for()
    _allow_private(watched)
    _check_pasted(watched, f'Distutils is deprecated ([PEP]({second})): "{PEP_QUOTE}".')
    assert pages.requests == ["/second.html"]

    # Back on the Check page the option is still ticked, as the editor left it: untick it.
    page.get_by_role("link", name="Check").click()
    page.get_by_role("button", name="Check", exact=True).wait_for()
    page.wait_for_timeout(500)  # the options expander opens by itself while an option is in force
    box = page.get_by_role("checkbox", name="Allow private network addresses")
    if not box.is_visible():
        page.get_by_text("Options").click()
    box.wait_for()
    if box.is_checked():
        page.get_by_text("Allow private network addresses").click()
    page.get_by_text("Private network allowed").wait_for(state="detached")

    page.get_by_role("link", name="History").click()
    page.get_by_role("button", name="Open").nth(1).click()  # newest first: the first run is the second row
    _wait_review(watched, "pasted brief")
    assert first_run in page.url
    page.get_by_text("with private network addresses not allowed").first.wait_for()  # the run's own policy
    page.get_by_role("button", name="Open beside its source").first.click()
    page.get_by_text("Re-fetching takes the options in force now").wait_for()
    page.get_by_text("private network addresses not allowed; every public domain.").wait_for()
    page.get_by_role("button", name="Re-fetch this source").click()
    page.get_by_text(f"Re-fetched {first}").wait_for(timeout=30_000)
    assert pages.requests == ["/second.html"]  # the private page was not fetched
    stored = Store(desk.db).load_run(first_run)
    assert stored is not None and stored["claims"][0]["verdict"] == "blocked"
    assert stored["policy"] == {"allow_private": False, "allowed_domains": []}
    assert watched.dialogs == []
