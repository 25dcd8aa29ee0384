"""The evidence store on a real SQLite file and a real PostgreSQL alike: sources, runs, decisions, restarts, threads.

Every test that takes ``store_target`` runs on both engines; one whose name says "sqlite" is about
the file itself (its journal, its path, a file another program holds).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from core.errors import StoreError, VerbatimError
from core.models import Choice, Decision, Origin, Source, SourceStatus
from core.settings import Settings
from core.store import RunInfo, Store, open_store
from tests.builders import source
from tests.servers import corpus_bytes


def _source(
    url: str, body: bytes, *, origin: Origin = Origin.FETCHED, status: SourceStatus = SourceStatus.OK
) -> Source:
    """Return a source with every field set, so that a round trip through the store is checked whole."""
    ok = status is SourceStatus.OK
    return source(
        url,
        body,
        status=status,
        reason="" if ok else "The server answered 404 Not Found",
        final_url=url.split("#")[0] + "?final",
        http_status=200 if ok else 404,
        content_type="text/html; charset=utf-8",
        headers=(("content-type", "text/html; charset=utf-8"), ("set-cookie", "a=1"), ("set-cookie", "b=2")),
        sha256=hashlib.sha256(body).hexdigest(),
        fetched_at="2026-11-29T19:00:00+00:00",
        origin=origin,
    )


REPORT = {"schema": 1, "brief_name": "brief.md", "summary": {"verified": 2, "dead_link": 1}, "claims": [{"id": "c1"}]}


def test_source_round_trips_every_field(store_target: str) -> None:
    body = corpus_bytes("html/python/peps/pep-0632.html")
    original = _source("https://peps.python.org/pep-0632/", body)
    with Store(store_target) as store:
        store.save_source(original)
        back = store.latest_source("https://peps.python.org/pep-0632/#abstract")
    assert back is not None
    assert back == original
    assert (back.body, back.headers, back.sha256, back.origin) == (body, original.headers, original.sha256, "fetched")


def test_latest_source_is_the_newest_readable_copy(store_target: str) -> None:
    url = "https://docs.python.org/3/whatsnew/3.11.html"
    with Store(store_target) as store:
        assert store.latest_source(url) is None
        store.save_source(_source(url, b"<p>first</p>"))
        store.save_source(_source(url, b"<p>second</p>", origin=Origin.EDITOR))
        store.save_source(_source(url, b"", status=SourceStatus.DEAD_LINK))
        newest = store.latest_source(url)
        fetched = store.latest_source(url, origins=(Origin.FETCHED,))
        history = store.source_history(url)
    assert newest is not None and newest.body == b"<p>second</p>" and newest.origin == "editor"
    assert fetched is not None and fetched.body == b"<p>first</p>"
    assert [s.status.value for s in history] == ["dead_link", "ok", "ok"]


def test_a_sqlite_store_file_is_made_with_its_folders_and_uses_wal(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "verbatim.sqlite3"
    with Store(path) as store:
        assert (store.journal_mode(), store.backend, store.label) == ("wal", "sqlite", str(path))
    assert path.is_file()


def test_everything_survives_a_restart(store_target: str) -> None:
    path = store_target
    store = Store(path)
    store.save_source(_source("https://example.org/a", b"<p>a</p>"))
    run_id = store.save_run(REPORT, b"# brief\n", "brief.md")
    store.save_decision(
        run_id,
        Decision(
            claim_id="c1",
            decision=Choice.ACCEPT,
            note="checked by hand",
            same_period=True,
            same_metric=None,
            same_population=False,
        ),
    )
    store.close()

    again = Store(path)
    assert again.latest_source("https://example.org/a") is not None
    assert again.load_run(run_id) == REPORT
    assert again.brief_raw(run_id) == b"# brief\n"
    (decision,) = again.decisions(run_id)
    assert decision == Decision(
        claim_id="c1",
        decision=Choice.ACCEPT,
        note="checked by hand",
        same_period=True,
        same_metric=None,
        same_population=False,
        decided_at=decision.decided_at,
    )
    assert decision.decided_at
    (listed,) = again.list_runs()
    assert listed == RunInfo(
        run_id=run_id,
        brief_name="brief.md",
        created_at=listed.created_at,
        claims=1,
        decided=1,
        last_decided_at=decision.decided_at,
    )
    assert again.list_runs()[0].summary == {"verified": 2, "dead_link": 1}
    again.close()


def test_a_run_s_stored_text_is_the_json_saved_and_follows_every_update(store_target: str) -> None:
    # The desk keeps runs read back by the digest of this text (core.report.cached_report): it must change with the run.
    with Store(store_target) as store:
        run_id = store.save_run(REPORT, brief_name="b.md")
        saved = store.load_run_text(run_id)
        assert saved is not None and json.loads(saved) == REPORT == store.load_run(run_id)
        store.update_run(run_id, {**REPORT, "summary": {"verified": 3}})
        updated = store.load_run_text(run_id)
        assert updated is not None and updated != saved
        assert json.loads(updated)["summary"] == {"verified": 3}


def test_runs_are_listed_newest_first_and_updated(store_target: str) -> None:
    with Store(store_target) as store:
        ids = []
        for i in range(3):
            ids.append(store.save_run({**REPORT, "summary": {"verified": i}}, brief_name=f"b{i}.md"))
            time.sleep(0.01)
        listed = store.list_runs(limit=2)
        store.update_run(ids[0], {**REPORT, "summary": {"verified": 9}})
        assert store.load_run(ids[0])["summary"] == {"verified": 9}  # type: ignore[index]
        assert [r.summary for r in store.list_runs() if r.run_id == ids[0]] == [{"verified": 9}]
        with pytest.raises(KeyError):
            store.update_run("no-such-run", REPORT)
        assert store.load_run("no-such-run") is None
        assert store.load_run_text("no-such-run") is None
        assert store.brief_raw("no-such-run") == b""
    assert [r.run_id for r in listed] == [ids[2], ids[1]]
    assert [r.brief_name for r in listed] == ["b2.md", "b1.md"]
    assert len(set(ids)) == 3


def test_brief_name_falls_back_to_the_report(store_target: str) -> None:
    with Store(store_target) as store:
        run_id = store.save_run(REPORT)
        assert store.list_runs()[0].brief_name == "brief.md"
        assert store.brief_raw(run_id) == b""


def test_a_run_keeps_the_agent_that_asked(store_target: str) -> None:
    store = Store(store_target)
    agent = store.save_run({"summary": {}, "client": "research-agent"}, brief_name="claims")
    editor = store.save_run({"summary": {}}, brief_name="brief.md")
    assert {r.run_id: r.client for r in store.list_runs()} == {agent: "research-agent", editor: ""}
    store.close()


def test_a_run_saved_under_its_id_is_saved_once(store_target: str) -> None:
    with Store(store_target) as store:
        first = store.save_run({**REPORT, "summary": {"verified": 1}}, b"# one", "one.md", run_id="job-42")
        # The same job finished again (a worker retried): nothing changes, the same id comes back.
        again = store.save_run({**REPORT, "summary": {"verified": 7}}, b"# two", "two.md", run_id="job-42")
        other = store.save_run(REPORT)
        runs = {r.run_id: r for r in store.list_runs()}
        assert (first, again) == ("job-42", "job-42") and other != "job-42"
        assert set(runs) == {"job-42", other}
        assert (runs["job-42"].brief_name, runs["job-42"].summary) == ("one.md", {"verified": 1})
        assert store.brief_raw("job-42") == b"# one"


def test_a_sqlite_store_made_before_runs_had_a_client_gains_the_column(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as old:  # the runs table as stores made before the MCP server have it
        old.execute(
            "CREATE TABLE runs (run_id TEXT PRIMARY KEY, brief_name TEXT NOT NULL DEFAULT '', created_at TEXT NOT"
            " NULL, summary_json TEXT NOT NULL DEFAULT '{}', report_json TEXT NOT NULL, brief_raw BLOB)"
        )
        old.execute("INSERT INTO runs VALUES ('r1', 'old.md', '2026-01-01T00:00:00', '{}', '{}', NULL)")
    old.close()
    store = Store(path)
    new = store.save_run({"summary": {}, "client": "research-agent"}, brief_name="claims")
    assert {r.run_id: r.client for r in store.list_runs()} == {"r1": "", new: "research-agent"}


def test_decision_is_upserted(store_target: str) -> None:
    with Store(store_target) as store:
        run_id = store.save_run(REPORT)
        store.save_decision(run_id, Decision(claim_id="c2", decision=Choice.NEEDS_EDIT, note="figure off"))
        store.save_decision(run_id, Decision(claim_id="c1", decision=Choice.REJECT))
        store.save_decision(
            run_id,
            Decision(
                claim_id="c2",
                decision=Choice.ACCEPT,
                note="fixed",
                same_period=True,
                same_metric=True,
                same_population=True,
                decided_at="2026-11-29T20:00:00+00:00",
            ),
        )
        got = store.decisions(run_id)
        assert store.decisions("other-run") == []
    assert [d.claim_id for d in got] == ["c1", "c2"]
    assert got[1] == Decision(
        claim_id="c2",
        decision=Choice.ACCEPT,
        note="fixed",
        same_period=True,
        same_metric=True,
        same_population=True,
        decided_at="2026-11-29T20:00:00+00:00",
    )
    assert got[0].decided_at  # filled in when the editor's record had none
    assert got[0].same_period is None


def test_a_sqlite_memory_store_keeps_nothing_on_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    store = open_store(Settings(use_cache=False, db_path=tmp_path / "never.sqlite3"))
    assert store.in_memory and store.journal_mode() == "memory"
    store.save_run(REPORT)
    assert len(store.list_runs()) == 1
    assert list(tmp_path.iterdir()) == []


def test_open_store_uses_the_settings_path(tmp_path: Path) -> None:
    path = tmp_path / "x" / "v.sqlite3"
    with open_store(Settings(db_path=path)) as store:
        store.save_run(REPORT)
        assert store.backend == "sqlite"
    assert path.is_file()


def test_open_store_opens_a_team_store_by_url(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERBATIM_DB", pg_url)
    settings = Settings.from_env()
    assert settings.db_path == pg_url  # kept whole: as a Path the URL's "//" would collapse
    with open_store(settings) as store:
        run_id = store.save_run(REPORT)
        assert (store.backend, store.path, store.in_memory) == ("postgresql", None, False)
    with Store(pg_url) as again:
        assert again.load_run(run_id) == REPORT


def test_concurrent_readers_and_a_writer(store_target: str) -> None:
    path = store_target
    writer = Store(path)
    readers = [Store(path) for _ in range(3)]  # other connections, as another process would have
    body = corpus_bytes("html/python/peps/pep-0703.html")
    errors: list[BaseException] = []
    done = threading.Event()
    seen: list[int] = []

    def write() -> None:
        try:
            for i in range(40):
                writer.save_source(_source(f"https://peps.python.org/{i}", body))
                writer.save_run({**REPORT, "summary": {"verified": i}})
        except BaseException as e:
            errors.append(e)
        finally:
            done.set()

    def read(store: Store) -> None:
        try:
            while not done.is_set():
                runs = store.list_runs()
                seen.append(len(runs))
                for r in runs[:3]:
                    assert store.load_run(r.run_id) is not None
                store.latest_source("https://peps.python.org/0")
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=write)] + [threading.Thread(target=read, args=(r,)) for r in readers]
    # and the same Store shared by threads, as Streamlit sessions share one
    threads += [threading.Thread(target=read, args=(writer,)) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == []
    assert len(readers[0].list_runs()) == 40
    assert seen and max(seen) <= 40
    for s in [writer, *readers]:
        s.close()


# --------------------------------------------------------------------------- a store that cannot be used

REMEDY = (
    "Set VERBATIM_DB (on the command line, --db) to a file you can write to, or run with --no-cache to keep nothing."
)


def _unusable(tmp_path: Path) -> list[tuple[Path, str]]:
    """Return store paths no one can open (root included: no permission bit is involved), each with its cause."""
    a_file = tmp_path / "a-file"
    a_file.write_text("a file where a folder should be")
    not_a_db = tmp_path / "notes.sqlite3"
    not_a_db.write_bytes(b"not a database" + bytes(range(256)) * 20)
    a_folder = tmp_path / "a-folder"
    a_folder.mkdir()
    return [
        (a_file / "store.sqlite3", "File exists"),
        (Path("/dev/null/verbatim.sqlite3"), "File exists"),
        (not_a_db, "file is not a database"),
        (a_folder, "unable to open database file"),
    ]


def test_a_sqlite_store_that_cannot_be_opened_names_itself_and_what_to_do(tmp_path: Path) -> None:
    for path, why in _unusable(tmp_path):
        with pytest.raises(StoreError) as caught:
            Store(path)
        assert str(caught.value) == f"The evidence store at {path} cannot be opened: {why}. {REMEDY}"
        # One base for every expected failure of core, and no raw sqlite3.Error for callers to know about.
        assert isinstance(caught.value, VerbatimError) and not isinstance(caught.value, sqlite3.Error)
        assert (caught.value.store, caught.value.action, caught.value.why) == (path, "opened", why)


def test_open_store_raises_the_same_store_error_for_a_sqlite_path(tmp_path: Path) -> None:
    path, why = _unusable(tmp_path)[0]
    with pytest.raises(StoreError) as caught:
        open_store(Settings(db_path=path))
    assert str(caught.value) == f"The evidence store at {path} cannot be opened: {why}. {REMEDY}"


def test_a_write_a_locked_sqlite_file_refuses_is_a_store_error(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    store = Store(path, busy_timeout=0)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another program holds the file: writes cannot wait for it
    try:
        with pytest.raises(StoreError) as caught:
            store.save_run(REPORT)
        assert str(caught.value) == f"The evidence store at {path} cannot be written: database is locked. {REMEDY}"
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert store.list_runs() == []  # nothing half-written, and the store still works
    store.save_run(REPORT)
    assert len(store.list_runs()) == 1
    store.close()


def test_a_read_of_a_closed_store_is_a_store_error(store_target: str) -> None:
    store = Store(store_target)
    store.close()
    with pytest.raises(StoreError) as caught:
        store.list_runs()
    if store.backend == "sqlite":
        assert str(caught.value).startswith(f"The evidence store at {store_target} cannot be read: Cannot operate")
    else:
        assert str(caught.value).startswith(f"The team store at {store.label} cannot be read: the store was closed.")


def test_a_read_of_a_closed_sqlite_memory_store_is_a_store_error() -> None:
    store = Store(":memory:")
    store.close()
    with pytest.raises(StoreError) as caught:
        store.list_runs()
    assert str(caught.value).startswith("The evidence store in memory cannot be read: Cannot operate on a closed")


def test_two_runs_that_draw_the_same_id_are_both_kept(store_target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import secrets

    draws = iter(["aaaaaa", "aaaaaa", "bbbbbb"])  # the second run draws the first one's id, then a free one
    monkeypatch.setattr(secrets, "token_hex", lambda n: next(draws))
    with Store(store_target) as store:
        first = store.save_run({"brief_name": "one.md", "claims": []})
        second = store.save_run({"brief_name": "two.md", "claims": []})
        assert first.endswith("-aaaaaa") and second != first  # "-bbbbbb", or the next second's "-aaaaaa"
        assert store.load_run(first) == {"brief_name": "one.md", "claims": []}
        assert store.load_run(second) == {"brief_name": "two.md", "claims": []}
