"""Real browser: two signed-in editors while the store is away, PostgreSQL stopped 20 s or SQLite locked (issue 24, 1).

Each editor changes a decision while the store cannot take it and is told it is kept; one
reloads while it is still away, one closes the browser and signs in again; when the store is
back every change is in it, 0 lost, and each editor sees what became of theirs: saved, or met
the other's and chosen. The PostgreSQL server is the module's own (stopped and started again);
the sign-in provider is on loopback.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator

import pytest

from core.models import Choice
from core.report import to_json
from core.store import Store
from tests.browser.desk import Desk, start_desk
from tests.browser.identity import Provider, desk_secrets, person, provider
from tests.browser.records import sample_report
from tests.browser.test_editors import _choose
from tests.browser.test_signin import _context, _sign_in
from tests.pg import MISSING, PostgresServer, find_bindir, running_server

pytestmark = pytest.mark.browser

ANN = person("ann", "Ann Editor", "ann@example.org")
BEN = person("ben", "Ben Editor", "ben@example.org")
TEAM = {"editors": ["ann@example.org", "ben@example.org"]}
#: The outage the issue measured: long enough for the outbox to try many times and for a reload in between.
OUTAGE_MS = 20_000
SAVED_LATER = re.compile(r"Saved at \d\d:\d\d UTC: your change \(.*\), kept while the store was away")


@pytest.fixture(scope="module")
def idp() -> Iterator[Provider]:
    with provider([ANN, BEN]) as running:
        yield running


@pytest.fixture(scope="module")
def server() -> Iterator[PostgresServer]:
    if find_bindir() is None:
        pytest.fail(MISSING)
    with running_server() as running:
        yield running


def _team_desk(request: pytest.FixtureRequest, tmp_path_factory, idp: Provider, db: str) -> Desk:
    """Start the team desk on db; it is stopped when the test ends, passed or failed."""
    try:
        desk = start_desk(
            tmp_path_factory.mktemp("outage"),
            secrets=desk_secrets(idp.metadata_url, verbatim=TEAM),
            env={"VERBATIM_DB": db},
        )
    except RuntimeError as exc:
        pytest.fail(str(exc))
    request.addfinalizer(desk.stop)
    return desk


def _editor(request: pytest.FixtureRequest, chromium, desk: Desk, who: str, run_id: str):
    """Return a signed-in editor's browser context and page on claim c1; the context is closed when the test ends."""
    context, page = _context(chromium)
    request.addfinalizer(context.close)
    _sign_in(page, desk, who)
    page.goto(f"{desk.url}/review?run={run_id}&claim=c1")
    page.get_by_role("radiogroup", name="Decision").wait_for()
    return context, page


def _note(page, text: str) -> None:
    page.get_by_label("Note").fill(text)
    page.get_by_label("Note").press("Control+Enter")


def test_two_editors_lose_nothing_while_postgresql_is_stopped_for_20_s(
    request: pytest.FixtureRequest, tmp_path_factory, idp: Provider, server: PostgresServer, chromium
) -> None:
    url = server.new_database()
    with Store(url) as store:
        run_id = store.save_run(to_json(sample_report()), b"", "hand-built.md")
    desk = _team_desk(request, tmp_path_factory, idp, url)
    _, ann = _editor(request, chromium, desk, "ann", run_id)
    _, ben = _editor(request, chromium, desk, "ben", run_id)
    away = f"Not saved yet: the team store at 127.0.0.1:{server.port}/{url.rsplit('/', 1)[1]} is not answering."
    try:
        server.halt()
        stopped = ann.evaluate("Date.now()")
        _choose(ann, "Decision", "Accept")
        ann.get_by_text(away).wait_for()
        ann.get_by_text("Your change is kept by the desk (a reload or another browser finds it)").first.wait_for()
        _note(ben, "The figure is rounded")
        ben.get_by_text(away).wait_for()

        ann.reload()  # while the store is still away: the run cannot be read, the change is still kept
        ann.get_by_text(f"Could not read run {run_id} from the store").wait_for()
        ann.get_by_text("1 change of yours to this run wait for the store").wait_for()
        ann.wait_for_timeout(max(0, OUTAGE_MS - (ann.evaluate("Date.now()") - stopped)))
    finally:
        server.resume()

    # Ann's reloaded tab opens the run by itself and says her accept was saved.
    ann.get_by_text(SAVED_LATER).wait_for(timeout=30_000)
    checked = ann.get_by_role("radiogroup", name="Decision").locator("label:has(input:checked)")
    assert checked.inner_text().strip() == "Accept"
    # Ben's note was made on the version before Ann's accept: he gets the usual choice, and saves his.
    ben.get_by_text("Changed by Ann Editor at ").wait_for(timeout=30_000)
    ben.get_by_text("Yours: Note “The figure is rounded”").wait_for()
    ben.get_by_role("button", name="Put theirs aside and save mine").click()
    ben.get_by_text("Saved.", exact=True).wait_for()
    with Store(url) as store:
        [stored] = [d for d in store.decisions(run_id) if d.claim_id == "c1"]
        history = [(e.author, e.field, e.after) for e in reversed(store.decision_history(run_id, "c1"))]
    assert (stored.decision, stored.note) == (Choice.ACCEPT, "The figure is rounded")
    assert history == [("Ann Editor", "decision", "accept"), ("Ben Editor", "note", "The figure is rounded")]


def test_two_editors_lose_nothing_while_the_store_file_is_locked(
    request: pytest.FixtureRequest, tmp_path_factory, idp: Provider, chromium
) -> None:
    folder = tmp_path_factory.mktemp("locked-store")
    db = folder / "team.sqlite3"
    with Store(db) as store:
        run_id = store.save_run(to_json(sample_report()), b"", "hand-built.md")
    desk = _team_desk(request, tmp_path_factory, idp, str(db))
    _, ann = _editor(request, chromium, desk, "ann", run_id)
    ben_browser, ben = _editor(request, chromium, desk, "ben", run_id)
    locked = f"Not saved yet: the evidence store at {db} is locked by another program."
    other = sqlite3.connect(str(db), isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another program holds the write lock (a CLI writing a large run)
        _choose(ann, "Decision", "Reject")
        ann.get_by_text(locked).wait_for()
        _note(ann, "Wrong year")  # behind the first: no wait at all
        ann.get_by_text("has not taken the change you made before it yet").wait_for()
        ben.goto(f"{desk.url}/review?run={run_id}&claim=c2")
        ben.get_by_role("radiogroup", name="Decision").wait_for()
        _choose(ben, "Decision", "Accept")
        ben.get_by_text(locked).wait_for()
        ben_browser.close()  # Ben closes his browser and opens it again: a new sign-in, nothing of the old tab
        _, ben = _editor(request, chromium, desk, "ben", run_id)
        ben.goto(f"{desk.url}/review?run={run_id}&claim=c2")
        ben.get_by_text("has not taken it yet").wait_for()
        checked = ben.get_by_role("radiogroup", name="Decision").locator("label:has(input:checked)")
        assert checked.inner_text().strip() == "Accept"

        ann.reload()  # reads go on while the file is locked: the changes kept are shown as made
        ann.get_by_role("radiogroup", name="Decision").wait_for()
        ann.get_by_text("has not taken it yet").wait_for()
        assert ann.get_by_label("Note").input_value() == "Wrong year"
        checked = ann.get_by_role("radiogroup", name="Decision").locator("label:has(input:checked)")
        assert checked.inner_text().strip() == "Reject"
        with Store(db) as store:
            assert store.decisions(run_id) == []
    finally:
        other.rollback()
        other.close()
    ann.get_by_text(SAVED_LATER).wait_for(timeout=30_000)
    ben.get_by_text(SAVED_LATER).wait_for(timeout=30_000)
    with Store(db) as store:
        kept = {d.claim_id: (d.decision, d.note, d.decided_by) for d in store.decisions(run_id)}
    assert kept == {
        "c1": (Choice.REJECT, "Wrong year", "Ann Editor"),
        "c2": (Choice.ACCEPT, "", "Ben Editor"),
    }
