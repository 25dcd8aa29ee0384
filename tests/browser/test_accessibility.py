"""axe-core's WCAG 2.1 AA rules on every page of the desk, in each state an editor meets, in Debian's Chromium.

Check, a check in progress, Review, a claim opened, Report, History and the sign-in page each pass with no
violation (issue 24, 8: captions were at 3.9:1). The decision controls are reached and set with the keyboard
alone, and the store keeps what was set. A deep link to a page (``/review?run=ID``) asks the server nothing
at the page's path: no 404 in the browser (issue 24, 7).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from core.store import Store
from tests.browser.axe import violations
from tests.browser.conftest import Watched
from tests.browser.desk import Desk, slow_page, start_desk
from tests.browser.identity import Provider, desk_secrets, person, provider
from tests.browser.test_desk import _allow_private
from tests.servers import LoopbackServer, Reply, serve

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def sources() -> Iterator[LoopbackServer]:
    with serve() as s:
        s.routes["/slow.html"] = Reply(handler=slow_page(4))
        yield s


def _clean(w: Watched, state: str) -> None:
    w.page.wait_for_timeout(300)  # Streamlit finishes drawing what the last message sent
    found = violations(w.page)
    assert found == [], f"{state}: " + "\n".join(found)


def _not_found(w: Watched) -> list[str]:
    return [e for e in w.errors if "404" in e]


def test_every_page_passes_wcag_21_aa(desk: Desk, watched: Watched, sources: LoopbackServer) -> None:
    page = watched.page
    page.goto(desk.url)
    page.get_by_role("button", name="Try the sample brief").wait_for()
    _clean(watched, "Check")

    slow = sources.url("/slow.html")
    page.get_by_label("Paste a brief (Markdown or plain text)").fill(
        f'Distutils goes away ([PEP 632]({slow})): "In Python 3.10 and 3.11, distutils will be formally marked '
        'as deprecated".\n'
    )
    _allow_private(watched)  # the text area's blur reruns the form while the options are opened
    page.get_by_role("button", name="Check", exact=True).click()
    page.locator('.progress tr[data-state="fetching"]').wait_for(timeout=10_000)
    _clean(watched, "a check in progress")
    page.get_by_text("Review: pasted brief").wait_for(timeout=60_000)

    page.goto(desk.url)
    page.get_by_role("button", name="Try the sample brief").click()
    page.get_by_text("Review: python-releases.md").wait_for(timeout=90_000)
    page.locator(".sumbar").first.wait_for()
    page.wait_for_url("**run=**")
    run_id = page.url.split("run=", 1)[1].split("&", 1)[0]
    _clean(watched, "Review")
    page.get_by_role("button", name="Open beside its source").first.click()
    page.get_by_role("radiogroup", name="Decision").wait_for()
    _clean(watched, "a claim opened")

    watched.errors.clear()
    for path, ready in (("review", ".sumbar"), ("report", "[data-testid=stDownloadButton]"), ("history", "h1")):
        page.goto(f"{desk.url}/{path}?run={run_id}")  # a deep link, as a new tab opens it
        page.locator(ready).first.wait_for(timeout=30_000)
        _clean(watched, path.title())
    assert _not_found(watched) == [], "a deep link asked the server for a missing path"


def test_a_deep_link_asks_no_page_path_for_the_server(desk: Desk, watched: Watched) -> None:
    missing: list[str] = []
    watched.page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    for path in ("review", "report", "history"):
        watched.page.goto(f"{desk.url}/{path}")
        watched.page.locator("h1").first.wait_for()
        watched.page.wait_for_timeout(500)
    # Before the fix: /review/_stcore/health and /review/_stcore/host-config, and the same for each page.
    assert missing == [] and _not_found(watched) == []


def test_a_decision_is_reached_and_set_with_the_keyboard_alone(desk: Desk, watched: Watched) -> None:
    page = watched.page
    page.goto(desk.url)
    page.get_by_role("button", name="Try the sample brief").click()
    page.get_by_text("Review: python-releases.md").wait_for(timeout=90_000)
    page.wait_for_url("**run=**")
    run_id = page.url.split("run=", 1)[1].split("&", 1)[0]

    def tab_to(found: str, limit: int = 120) -> None:
        for _ in range(limit):
            page.keyboard.press("Tab")
            if page.evaluate(f"() => !!document.activeElement && {found}"):
                return
        raise AssertionError(f"Tab never reached {found}")

    page.evaluate("() => document.activeElement && document.activeElement.blur()")  # nothing has the focus
    tab_to("document.activeElement.innerText.trim() === 'Open beside its source'")
    page.keyboard.press("Enter")
    page.get_by_role("radiogroup", name="Decision").wait_for()
    in_decision = "!!document.activeElement.closest('[role=radiogroup][aria-label=\"Decision\"]')"
    tab_to(in_decision)
    # Arrow keys move a radio group's choice, as in any form: Undecided -> Accept.
    page.keyboard.press("ArrowRight")
    page.get_by_text("Saved.").wait_for()
    tab_to("document.activeElement.tagName === 'TEXTAREA'")
    page.keyboard.type("Checked by keyboard")
    page.keyboard.press("Control+Enter")
    page.get_by_text("Editor: Accepted — Checked by keyboard").wait_for()
    claim_id = page.evaluate("() => { const u = new URL(window.location.href); return u.searchParams.get('claim'); }")
    (decision,) = [d for d in Store(desk.db).decisions(run_id) if d.claim_id == claim_id]
    assert decision.decision == "accept" and decision.note == "Checked by keyboard"


ANN = person("ann", "Ann Editor", "ann@example.org")


@pytest.fixture(scope="module")
def idp() -> Iterator[Provider]:
    with provider([ANN]) as running:
        yield running


def test_the_sign_in_page_passes_wcag_21_aa(tmp_path_factory, idp: Provider, watched: Watched) -> None:
    secrets = desk_secrets(idp.metadata_url, verbatim={"editors": ["ann@example.org"]})
    team = start_desk(tmp_path_factory.mktemp("signin"), secrets=secrets)
    try:
        watched.page.goto(team.url)
        watched.page.get_by_role("button", name="Sign in", exact=True).wait_for()
        _clean(watched, "sign-in")
        watched.page.get_by_role("button", name="Sign in", exact=True).click()
        watched.page.wait_for_url("**/oauth2/authorize**")
        watched.page.get_by_role("button", name="ann", exact=True).click()
        watched.page.wait_for_url(f"{team.url}/**")
        watched.page.get_by_text("Ann Editor").first.wait_for()
        _clean(watched, "signed in, Check")
    finally:
        team.stop()
