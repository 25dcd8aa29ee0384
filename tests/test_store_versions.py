"""A decision change is kept only on the version its tab saw, on both engines; older store files gain the columns."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from core.models import Choice, Decision
from core.store import Store

#: The schema as the first Verbatim wrote it (before decisions had a version and sources their addresses).
FIRST_SCHEMA = """
CREATE TABLE sources (id INTEGER PRIMARY KEY, url TEXT NOT NULL, final_url TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL, http_status INTEGER, headers TEXT NOT NULL DEFAULT '[]',
    content_type TEXT NOT NULL DEFAULT '', sha256 TEXT NOT NULL DEFAULT '', fetched_at TEXT NOT NULL, body BLOB,
    origin TEXT NOT NULL DEFAULT 'fetched', reason TEXT NOT NULL DEFAULT '', drift INTEGER NOT NULL DEFAULT 0);
CREATE INDEX sources_by_url ON sources (url, id);
CREATE TABLE runs (run_id TEXT PRIMARY KEY, brief_name TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL,
    summary_json TEXT NOT NULL DEFAULT '{}', report_json TEXT NOT NULL, brief_raw BLOB);
CREATE INDEX runs_by_time ON runs (created_at);
CREATE TABLE decisions (run_id TEXT NOT NULL, claim_id TEXT NOT NULL, decision TEXT NOT NULL DEFAULT '',
    note TEXT NOT NULL DEFAULT '', same_period INTEGER, same_metric INTEGER, same_population INTEGER,
    decided_at TEXT NOT NULL, PRIMARY KEY (run_id, claim_id));
CREATE TABLE page_texts (body_sha256 TEXT NOT NULL, content_type TEXT NOT NULL, extractor TEXT NOT NULL,
    page_json TEXT NOT NULL, PRIMARY KEY (body_sha256, content_type, extractor));
CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO schema_version VALUES (1);
"""


def test_a_change_on_a_stale_version_is_refused_and_the_newer_decision_returned(store_target: str) -> None:
    store = Store(store_target)
    first = store.save_decision_change("r1", "c1", "decision", "accept", seen_version=0)
    assert first.saved and (first.decision.decision, first.decision.version) == (Choice.ACCEPT, 1)
    # Another tab still at version 0 writes a note: refused, and it is handed the accept it did not see.
    stale = store.save_decision_change("r1", "c1", "note", "The figure is rounded", seen_version=0)
    assert not stale.saved and stale.decision.decision == Choice.ACCEPT and stale.decision.note == ""
    fresh = store.save_decision_change("r1", "c1", "note", "The figure is rounded", seen_version=1)
    assert fresh.saved
    [kept] = store.decisions("r1")
    assert (kept.decision, kept.note, kept.version) == (Choice.ACCEPT, "The figure is rounded", 2)


def test_a_stale_accept_cannot_bypass_a_no(store_target: str) -> None:
    store = Store(store_target)
    store.save_decision_change("r1", "c1", "decision", "accept", seen_version=0)
    assert store.save_decision_change("r1", "c1", "same_period", False, seen_version=1).saved
    assert not store.save_decision_change("r1", "c1", "decision", "accept", seen_version=1).saved
    again = store.save_decision_change("r1", "c1", "decision", "accept", seen_version=2)
    # Saved on the fresh version, and the one decision rule withdrew the accept.
    assert again.saved and again.decision.decision == Choice.NONE and again.decision.same_period is False


def test_two_first_changes_at_once_keep_only_one(store_target: str) -> None:
    a, b = Store(store_target), Store(store_target)
    assert a.save_decision_change("r1", "c1", "decision", "reject", seen_version=0).saved
    late = b.save_decision_change("r1", "c1", "note", "fine", seen_version=0)
    assert not late.saved and late.decision.decision == Choice.REJECT


def test_a_whole_decision_saved_the_old_way_also_moves_the_version_on(store_target: str) -> None:
    store = Store(store_target)
    store.save_decision("r1", Decision(claim_id="c1", decision=Choice.ACCEPT))
    assert not store.save_decision_change("r1", "c1", "note", "x", seen_version=0).saved


def test_a_sqlite_store_file_of_the_first_schema_opens_keeps_its_rows_and_gains_the_columns(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as conn:  # the schema as the first version wrote it: no version, no addresses
        conn.executescript(FIRST_SCHEMA)
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
