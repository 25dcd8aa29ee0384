"""``python -m core migrate`` and ``store copy``: a single-user SQLite store into a real PostgreSQL, nothing doubled."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from core.models import Choice, Decision, SourceStatus
from core.store import Store, shown
from core.store.migrate import known
from tests.builders import every, run_cli, source
from tests.servers import corpus_bytes

PEP = corpus_bytes("html/python/peps/pep-0632.html")
REPORT = {"schema": 1, "brief_name": "brief.md", "summary": {"verified": 1}, "claims": [{"id": "c1"}]}
TABLES = ("runs", "bodies", "sources", "decisions", "decision_events", "assignments", "page_texts")


def _desk(path: Path) -> tuple[Store, str]:
    """Return a single-user store with a run, its decisions, two fetches of one page, a failure and a cached text."""
    store = Store(path)
    run_id = store.save_run(REPORT, b"# brief", "brief.md")
    store.save_decision(run_id, Decision(claim_id="c1", decision=Choice.ACCEPT, note="by hand"))
    store.save_decision(run_id, Decision(claim_id="c2", decision=Choice.REJECT))
    store.save_source(source("https://peps.python.org/pep-0632/", PEP, fetched_at="2026-11-29T19:00:00+00:00"))
    store.save_source(source("https://peps.python.org/pep-0632/", PEP, fetched_at="2026-11-30T08:00:00+00:00"))
    store.save_source(source("https://gone.example/", b"", status=SourceStatus.DEAD_LINK))
    store.save_page_text("ab" * 32, "text/html", "x1", {"text": "page"})
    return store, run_id


def _lines(out: str) -> dict[str, str]:
    """Return table -> "N copied, M skipped (already there)" from the copy's report."""
    rows = (line.strip().split(": ", 1) for line in out.splitlines() if line.startswith("  "))
    return {table: counts for table, counts in rows}


def test_a_single_user_store_moves_into_the_team_store_without_loss(tmp_path: Path, pg_url: str) -> None:
    path = tmp_path / "desk.sqlite3"
    desk, run_id = _desk(path)
    desk.close()
    code, out, err = run_cli("store", "copy", str(path), pg_url)
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == (
        f"Copied the evidence store at {path} into the team store at {shown(pg_url)}; a row already there is"
        " skipped, never doubled:"
    )
    assert _lines(out) == {
        "runs": "1 copied, 0 skipped (already there)",
        "bodies": "1 copied, 0 skipped (already there)",
        "sources": "3 copied, 0 skipped (already there)",
        "decisions": "2 copied, 0 skipped (already there)",
        "decision_events": "3 copied, 0 skipped (already there)",
        "assignments": "0 copied, 0 skipped (already there)",
        "page_texts": "1 copied, 0 skipped (already there)",
    }
    with Store(path) as a, Store(pg_url) as b:
        assert b.load_run(run_id) == a.load_run(run_id) == REPORT
        assert b.brief_raw(run_id) == b"# brief"
        assert b.decisions(run_id) == a.decisions(run_id) and len(b.decisions(run_id)) == 2
        assert b.source_history("https://peps.python.org/pep-0632/") == a.source_history(
            "https://peps.python.org/pep-0632/"
        )
        assert b.latest_source("https://peps.python.org/pep-0632/").fetched_at == "2026-11-30T08:00:00+00:00"  # type: ignore[union-attr]
        assert b.source_history("https://gone.example/") == a.source_history("https://gone.example/")
        assert b.load_page_text("ab" * 32, "text/html", "x1") == {"text": "page"}
        assert b.list_runs() == a.list_runs()


def test_a_copy_into_a_store_that_holds_some_of_its_runs_doubles_nothing(tmp_path: Path, pg_url: str) -> None:
    path = tmp_path / "desk.sqlite3"
    desk, first = _desk(path)
    assert run_cli("store", "copy", str(path), pg_url)[0] == 0
    # The desk goes on: a new run, a new fetch, a decision on the new run; the team store gets its own too.
    second = desk.save_run({**REPORT, "summary": {"verified": 2}}, b"", "second.md")
    desk.save_decision(second, Decision(claim_id="c1", decision=Choice.ACCEPT))
    desk.save_source(source("https://peps.python.org/pep-0632/", PEP, fetched_at="2026-12-01T09:00:00+00:00"))
    desk.close()
    with Store(pg_url) as team:
        team.save_decision(first, Decision(claim_id="c1", decision=Choice.NEEDS_EDIT, note="team's later look"))
    code, out, err = run_cli("store", "copy", str(path), pg_url)
    assert (code, err) == (0, "")
    assert _lines(out) == {
        "runs": "1 copied, 1 skipped (already there)",
        "bodies": "0 copied, 1 skipped (already there)",
        "sources": "1 copied, 3 skipped (already there)",
        "decisions": "1 copied, 2 skipped (already there)",
        "decision_events": "1 copied, 3 skipped (already there)",
        "assignments": "0 copied, 0 skipped (already there)",
        "page_texts": "0 copied, 1 skipped (already there)",
    }
    with Store(pg_url) as team:
        assert {r.run_id for r in team.list_runs()} == {first, second}
        assert len(team.source_history("https://peps.python.org/pep-0632/")) == 3
        # The team's own later decision is kept, not overwritten by the desk's older one.
        assert [(d.claim_id, d.decision) for d in team.decisions(first)] == [
            ("c1", Choice.NEEDS_EDIT),
            ("c2", Choice.REJECT),
        ]
    code, out, _ = run_cli("store", "copy", str(path), pg_url)  # a third time: everything is there
    assert code == 0 and set(_lines(out)) == set(TABLES)
    every(_lines(out).values(), lambda counts: counts.startswith("0 copied"))


def test_a_copy_takes_every_table_both_stores_have(tmp_path: Path, pg_url: str) -> None:
    path = tmp_path / "desk.sqlite3"
    # A table a later migration adds (here 0003's decision events, keyed by their run, claim and seq).
    desk, team = Store(path), Store(pg_url)
    desk.save_decision_change("r1", "c1", "note", "v1", 0, author="Ada")
    desk.save_decision_change("r1", "c1", "note", "v2", 1, author="Ada")
    team.save_decision_change("r1", "c1", "note", "v1", 0, author="Ada")
    for store in (desk, team):
        store.close()
    code, out, _ = run_cli("store", "copy", str(path), pg_url)
    assert code == 0 and "  decision_events: 1 copied, 1 skipped (already there)" in out.splitlines()
    with Store(pg_url) as team, team.engine.read() as c:
        assert c.execute("SELECT seq, after FROM decision_events ORDER BY seq").fetchall() == [(1, "v1"), (2, "v2")]


def test_migrate_applies_what_is_missing_and_says_which(store_target: str) -> None:
    files = known()
    code, out, err = run_cli("migrate", "--db", store_target)
    assert (code, err) == (0, "")
    with Store(store_target) as store:
        named = store.named
    listed = ", ".join(m.label for m in files)
    assert out == f"Applied {len(files)} migrations to {named}: {listed}.\n"
    code, out, err = run_cli("migrate", "--db", store_target)  # run twice: nothing to do, nothing changed
    assert (code, out, err) == (
        0,
        f"Nothing to do: {named} has every migration this Verbatim knows (up to {files[-1].label}).\n",
        "",
    )


def test_migrate_without_db_takes_verbatim_db(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("VERBATIM_DB", str(tmp_path / "env.sqlite3"))
    code, out, _ = run_cli("migrate")
    assert code == 0 and out.startswith(
        f"Applied {len(known())} migrations to the evidence store at {tmp_path / 'env.sqlite3'}: "
    )


def test_copy_refuses_what_is_not_a_store_file_and_a_target_that_is_not_a_url(tmp_path: Path, pg_url: str) -> None:
    missing = tmp_path / "missing.sqlite3"
    code, out, err = run_cli("store", "copy", str(missing), pg_url)
    assert (code, out) == (2, "") and err == (
        f"error: {missing} is not a file: the first argument is the single-user desk's SQLite store file to copy"
        " from ($VERBATIM_DB on that desk, by default ~/.local/share/verbatim/verbatim.sqlite3).\n"
    )
    assert not missing.exists()  # not created by the attempt
    desk = tmp_path / "desk.sqlite3"
    Store(desk).close()
    code, _, err = run_cli("store", "copy", str(desk), str(tmp_path / "other.sqlite3"))
    assert code == 2 and err.startswith(f"error: {tmp_path / 'other.sqlite3'} is not a postgresql:// URL: the second")


def test_a_sqlite_file_that_is_not_a_verbatim_store_is_refused_and_left_unchanged(tmp_path: Path, pg_url: str) -> None:
    path = tmp_path / "notes.sqlite3"
    with sqlite3.connect(path) as other:  # another program's database
        other.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        other.execute("INSERT INTO notes (text) VALUES ('keep me')")
    other.close()
    code, out, err = run_cli("store", "copy", str(path), pg_url)
    assert (code, out) == (2, "")
    assert err == (
        f"error: The evidence store at {path} cannot be opened: it is a SQLite database of another program (its"
        " tables: notes), not a Verbatim store; nothing was changed in it. Set VERBATIM_DB (on the command line,"
        " --db) to a Verbatim store file, or to a new file name to start an empty store. Nothing was copied.\n"
    )
    with sqlite3.connect(path) as again:
        tables = [r[0] for r in again.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        assert tables == ["notes"] and again.execute("SELECT text FROM notes").fetchall() == [("keep me",)]
    again.close()
    with Store(pg_url) as team:
        assert team.list_runs() == []


def test_a_copy_to_a_team_store_that_cannot_be_reached_copies_nothing(tmp_path: Path) -> None:
    desk, _ = _desk(tmp_path / "desk.sqlite3")
    desk.close()
    url = "postgresql://verbatim:s3cret@127.0.0.1:9/verbatim"  # the discard port: nothing listens there
    code, out, err = run_cli("store", "copy", str(tmp_path / "desk.sqlite3"), url)
    assert (code, out) == (2, "")
    assert err.startswith("error: The team store at 127.0.0.1:9/verbatim cannot be reached: Connection refused.")
    assert err.endswith(" Nothing was copied.\n") and "s3cret" not in err


def test_a_claim_decided_on_both_desks_after_a_copy_is_named_and_the_file_keeps_its_change(
    tmp_path: Path, pg_url: str
) -> None:
    path = tmp_path / "desk.sqlite3"
    desk, run_id = _desk(path)
    assert run_cli("store", "copy", str(path), pg_url)[0] == 0
    # Both desks change c1 on the version they share: each history now has an event the other lacks, numbered alike.
    seen = desk.decisions(run_id)[0].version
    mine = desk.save_decision_change(run_id, "c1", "note", "desk's second look", seen, author="ann")
    desk.close()
    with Store(pg_url) as team:
        theirs = team.save_decision_change(run_id, "c1", "note", "team's second look", seen, author="ben")
    assert mine.saved and theirs.saved
    code, out, err = run_cli("store", "copy", str(path), pg_url)
    assert (code, err) == (0, "")
    assert _lines(out)["decision_events"] == "0 copied, 4 skipped (already there)"
    assert (
        f"Note: 1 row(s) of decision_events differ between the two stores ({run_id} / c1 / {seen + 1}): one or both"
        " were changed after an earlier copy. The team store's are kept and the file is left as it is; compare them"
        " before you retire the file."
    ) in out
    with Store(pg_url) as team, Store(path) as file:
        assert team.decisions(run_id)[0].note == "team's second look"
        assert file.decisions(run_id)[0].note == "desk's second look"  # nothing lost: the file still has it
