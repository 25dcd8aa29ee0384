"""A decision change is kept only on the version its tab saw; older store files gain the columns (issue 16, 3)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from core.models import Choice, Decision
from core.store import SCHEMA, Store


def test_a_change_on_a_stale_version_is_refused_and_the_newer_decision_returned(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    first = store.save_decision_change("r1", "c1", "decision", "accept", seen_version=0)
    assert first.saved and (first.decision.decision, first.decision.version) == (Choice.ACCEPT, 1)
    # Another tab still at version 0 writes a note: refused, and it is handed the accept it did not see.
    stale = store.save_decision_change("r1", "c1", "note", "The figure is rounded", seen_version=0)
    assert not stale.saved and stale.decision.decision == Choice.ACCEPT and stale.decision.note == ""
    fresh = store.save_decision_change("r1", "c1", "note", "The figure is rounded", seen_version=1)
    assert fresh.saved
    [kept] = store.decisions("r1")
    assert (kept.decision, kept.note, kept.version) == (Choice.ACCEPT, "The figure is rounded", 2)


def test_a_stale_accept_cannot_bypass_a_no(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    store.save_decision_change("r1", "c1", "decision", "accept", seen_version=0)
    assert store.save_decision_change("r1", "c1", "same_period", False, seen_version=1).saved
    assert not store.save_decision_change("r1", "c1", "decision", "accept", seen_version=1).saved
    again = store.save_decision_change("r1", "c1", "decision", "accept", seen_version=2)
    # Saved on the fresh version, and the one decision rule withdrew the accept.
    assert again.saved and again.decision.decision == Choice.NONE and again.decision.same_period is False


def test_two_first_changes_at_once_keep_only_one(tmp_path: Path) -> None:
    a, b = Store(tmp_path / "s.sqlite3"), Store(tmp_path / "s.sqlite3")
    assert a.save_decision_change("r1", "c1", "decision", "reject", seen_version=0).saved
    late = b.save_decision_change("r1", "c1", "note", "fine", seen_version=0)
    assert not late.saved and late.decision.decision == Choice.REJECT


def test_a_whole_decision_saved_the_old_way_also_moves_the_version_on(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    store.save_decision("r1", Decision(claim_id="c1", decision=Choice.ACCEPT))
    assert not store.save_decision_change("r1", "c1", "note", "x", seen_version=0).saved


def test_a_store_file_of_the_first_schema_opens_keeps_its_rows_and_gains_the_columns(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as conn:  # the schema as the first version wrote it: no version, no addresses
        conn.executescript(SCHEMA)
        conn.execute(
            "INSERT INTO decisions (run_id, claim_id, decision, note, decided_at)"
            " VALUES ('r1', 'c1', 'accept', 'ok', 't')"
        )
        conn.execute(
            "INSERT INTO sources (url, status, fetched_at, body) VALUES ('https://a.example/', 'ok', 't', x'00')"
        )
    store = Store(path)
    assert store.decisions("r1") == [Decision(claim_id="c1", decision=Choice.ACCEPT, note="ok", decided_at="t")]
    assert store.latest_source("https://a.example/").addresses is None  # type: ignore[union-attr]
    assert store.save_decision_change("r1", "c1", "note", "still ok", seen_version=0).saved
    store.close()
    assert Store(path).decisions("r1")[0].note == "still ok"  # opening it again changes nothing
