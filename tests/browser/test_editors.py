"""Real-browser tests of what the desk must never lose or let through (issue 16, 1, 3, 4).

Re-fetch takes the private-network option in force now, not the one of an earlier check;
two tabs on one claim never wipe each other's decisions; a note typed and not committed
survives a reload. Sources are served from loopback only.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest

from core.models import Choice
from core.report import to_json
from core.store import Store
from tests.browser.conftest import Watched
from tests.browser.desk import Desk
from tests.browser.records import sample_report
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
    box = page.get_by_role("checkbox", name="Allow private network addresses")
    box.wait_for(timeout=30_000)  # the options open by themselves while an option is in force: no click
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
    # The options in force refuse the private address: said before any request, in the policy's words.
    refusal = page.get_by_text("Not re-fetched: This run was checked with private network addresses not allowed")
    refusal.wait_for(timeout=30_000)
    assert "Change the options on the Check page to go on." in refusal.inner_text()
    assert pages.requests == ["/second.html"]  # the private page was not fetched
    stored = Store(desk.db).load_run(first_run)
    assert stored is not None and stored["claims"][0]["verdict"] == "blocked"
    assert stored["policy"] == {"allow_private": False, "allowed_domains": []}
    assert watched.dialogs == []


# --------------------------------------------------------------------------- two tabs, one claim


def _stored(desk: Desk, run_id: str, claim_id: str, holds, tries: int = 75):
    """Return the stored decision on a claim once holds(decision) is true; fail after tries looks 0.2 s apart."""
    found = None
    for _ in range(tries):
        with Store(desk.db) as store:
            found = next((d for d in store.decisions(run_id) if d.claim_id == claim_id), None)
        if found is not None and holds(found):
            return found
        time.sleep(0.2)
    raise AssertionError(f"the stored decision on {claim_id} never became what was expected: {found}")


def _tab(chromium, desk: Desk, run_id: str):
    """Return a page in a browser context of its own (another editor's window) on the run's claim c1."""
    context = chromium.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{desk.url}/review?run={run_id}&claim=c1")
    page.get_by_role("radiogroup", name="Decision").wait_for()
    return context, page


def _choose(page, group: str, option: str) -> None:
    page.get_by_role("radiogroup", name=group).get_by_text(option, exact=True).click()


#: One editor in two tabs: the desk says the other change was theirs, from another tab (issue 14, 3).
CHANGED = "Changed by you, in another tab or window, at "


def test_two_tabs_on_one_claim_never_wipe_each_others_decisions(desk: Desk, chromium) -> None:
    run_id = Store(desk.db).save_run(to_json(sample_report()), b"", "hand-built.md")
    ctx_a, a = _tab(chromium, desk, run_id)
    ctx_b, b = _tab(chromium, desk, run_id)
    try:
        _choose(a, "Decision", "Accept")
        _stored(desk, run_id, "c1", lambda d: d.decision == Choice.ACCEPT)

        # B still shows the claim undecided: its note is refused, both values are shown, and B saves its own.
        b.get_by_label("Note").fill("The figure is rounded")
        b.get_by_label("Note").press("Control+Enter")
        b.get_by_text(CHANGED).wait_for()
        b.get_by_text("Yours: Note “The figure is rounded”").wait_for()
        checked = b.get_by_role("radiogroup", name="Decision").locator("label:has(input:checked)")
        assert checked.inner_text().strip() == "Accept"  # the newer value is shown
        assert _stored(desk, run_id, "c1", lambda d: True).decision == Choice.ACCEPT
        b.get_by_role("button", name="Put theirs aside and save mine").click()
        _stored(desk, run_id, "c1", lambda d: d.note == "The figure is rounded" and d.decision == Choice.ACCEPT)

        # A answers "no" to "same period?" on its stale view: refused, then saved on the new version, and the
        # one decision rule withdraws the accept.
        _choose(a, "Same period?", "no")
        a.get_by_text(CHANGED).wait_for()
        assert a.get_by_label("Note").input_value() == "The figure is rounded"
        a.get_by_role("button", name="Put theirs aside and save mine").click()
        _stored(desk, run_id, "c1", lambda d: d.same_period is False and d.decision == Choice.NONE)

        # B still shows the accept and no answer: its stale note is refused, and B keeps theirs.
        b.get_by_label("Note").fill("The figure is rounded up")
        b.get_by_label("Note").press("Control+Enter")
        b.get_by_text(CHANGED).wait_for()
        stored = _stored(desk, run_id, "c1", lambda d: True)
        assert (stored.same_period, stored.decision) == (False, Choice.NONE)
        checked = b.get_by_role("radiogroup", name="Same period?").locator("label:has(input:checked)")
        assert checked.inner_text().strip() == "no"
        b.get_by_role("button", name="Keep theirs").click()
        b.get_by_text("Kept their change; yours was not saved.").wait_for()
        _choose(b, "Decision", "Accept")  # on the fresh view, the rule withdraws it
        b.get_by_text("Accept was withdrawn").wait_for()
        final = _stored(desk, run_id, "c1", lambda d: d.same_period is False)
        assert (final.decision, final.note) == (Choice.NONE, "The figure is rounded")

        changes = [e.field for e in Store(desk.db).decision_history(run_id, "c1")]
        assert changes == ["decision", "same_period", "note", "decision"]
        # Named by its count: while the page is drawn again, an older expander may still stand.
        b.get_by_text(f"History of this decision ({len(changes)} changes)").click()
        b.get_by_text("Same period? not answered → no").wait_for()
    finally:
        ctx_a.close()
        ctx_b.close()


# --------------------------------------------------------------------------- a note not committed


def test_a_note_typed_and_not_committed_survives_a_reload(desk: Desk, chromium) -> None:
    run_id = Store(desk.db).save_run(to_json(sample_report()), b"", "hand-built.md")
    context, page = _tab(chromium, desk, run_id)
    dialogs: list[str] = []

    def on_dialog(dialog) -> None:
        dialogs.append(dialog.type)
        dialog.dismiss()  # the editor stays on the page

    page.on("dialog", on_dialog)
    try:
        note = page.get_by_label("Note")
        note.click()
        note.press_sequentially("Check the year against the annual report")  # no click away, no Ctrl+Enter
        page.evaluate("() => { location.reload(); }")
        _stored(desk, run_id, "c1", lambda d: d.note == "Check the year against the annual report")
        assert dialogs == ["beforeunload"]  # the editor was warned
        page.reload()
        page.get_by_label("Note").wait_for()
        assert page.get_by_label("Note").input_value() == "Check the year against the annual report"
    finally:
        context.close()


# --------------------------------------------------------------------------- a long read


def test_a_long_docx_read_shows_progress_and_the_editor_can_stop_it(desk: Desk, watched: Watched, tmp_path) -> None:
    from tests.brief.test_docx_bounds import PROSE
    from tests.builders import docx_brief

    page = watched.page
    path = tmp_path / "long-brief.docx"
    path.write_bytes(docx_brief(PROSE, 60_000))  # about 12 MB of XML: seconds to read
    page.goto(desk.url)
    page.locator("input[type=file]").first.set_input_files(str(path))
    page.get_by_text("long-brief.docx will be checked").wait_for()
    page.get_by_role("button", name="Check", exact=True).click()
    page.get_by_text(re.compile(r"(Unpacking|Reading paragraphs of|Opening) long-brief\.docx")).first.wait_for()
    page.get_by_role("button", name="Stop reading").click()
    page.get_by_text("Reading long-brief.docx was cancelled.").wait_for(timeout=60_000)
    assert page.get_by_text("Review: long-brief.docx").count() == 0
    page.get_by_role("button", name="Check", exact=True).wait_for()  # the desk is the editor's again
