"""Decisions as append-only events with an author: no lost update, a history, bad input refused (issue 14, 2-3, 6).

Two Store objects on one store stand for two editors' desks. Every test that takes
``store_target`` runs on SQLite and on PostgreSQL; one whose name says "sqlite" is about a file.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from core.errors import DecisionError
from core.models import Choice, Decision, DecisionEvent
from core.store import Store
from core.store import events as events_module

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


def test_a_change_on_a_stale_version_is_refused_with_who_changed_what(store_target: str) -> None:
    store = Store(store_target)
    first = store.save_decision_change("r1", "c1", "decision", "accept", seen_version=0, author="Ada")
    assert first.saved and (first.decision.decision, first.decision.version) == (Choice.ACCEPT, 1)
    assert first.decision.decided_by == "Ada"
    # Another tab still at version 0 writes a note: refused, and it is handed the accept it did not see.
    stale = store.save_decision_change("r1", "c1", "note", "The figure is rounded", seen_version=0, author="Bo")
    assert not stale.saved and stale.decision.decision == Choice.ACCEPT and stale.decision.note == ""
    assert [(e.field, e.before, e.after, e.author) for e in stale.missed] == [("decision", "", "accept", "Ada")]
    fresh = store.save_decision_change("r1", "c1", "note", "The figure is rounded", seen_version=1, author="Bo")
    assert fresh.saved
    [kept] = store.decisions("r1")
    assert (kept.decision, kept.note, kept.version) == (Choice.ACCEPT, "The figure is rounded", 2)
    assert kept.decided_by == "Bo"
    assert [(e.seq, e.field, e.author) for e in store.decision_history("r1", "c1")] == [
        (2, "note", "Bo"),
        (1, "decision", "Ada"),
    ]


def test_a_no_that_withdraws_an_accept_is_two_events_and_a_stale_accept_cannot_bypass_it(store_target: str) -> None:
    store = Store(store_target)
    store.save_decision_change("r1", "c1", "decision", "accept", seen_version=0, author="Ada")
    no = store.save_decision_change("r1", "c1", "same_period", False, seen_version=1, author="Bo")
    assert no.saved and no.decision.version == 3 and no.decision.decision == Choice.NONE
    assert [(e.seq, e.field, e.before, e.after) for e in store.decision_history("r1", "c1")] == [
        (3, "decision", "accept", ""),
        (2, "same_period", "", "no"),
        (1, "decision", "", "accept"),
    ]
    assert not store.save_decision_change("r1", "c1", "decision", "accept", seen_version=1, author="Ada").saved
    again = store.save_decision_change("r1", "c1", "decision", "accept", seen_version=3, author="Ada")
    # Saved on the fresh version, and the one decision rule withdrew the accept: nothing to record.
    assert again.saved and again.decision.decision == Choice.NONE and again.decision.same_period is False
    assert store.decisions("r1")[0].version == 3


def test_two_first_changes_at_once_keep_only_one(store_target: str) -> None:
    a, b = Store(store_target), Store(store_target)
    assert a.save_decision_change("r1", "c1", "decision", "reject", seen_version=0, author="Ada").saved
    late = b.save_decision_change("r1", "c1", "note", "fine", seen_version=0, author="Bo")
    assert not late.saved and late.decision.decision == Choice.REJECT and late.decision.decided_by == "Ada"


class _Interleaved:
    """A connection that lets another desk save right after this one has read the decision (the race, made sure)."""

    def __init__(self, conn: Any, other: Store) -> None:
        self.conn, self.other, self.done = conn, other, False

    def execute(self, sql: str, args: tuple[object, ...] = ()) -> Any:
        cursor = self.conn.execute(sql, args)
        if sql.startswith("SELECT MAX(seq) FROM decision_events") and not self.done:  # the last read
            self.done = True
            assert self.other.save_decision_change("r1", "c1", "note", "theirs", seen_version=0, author="Ada").saved
        return cursor


def test_the_key_refuses_the_second_of_two_saves_that_read_the_same_version(store_target: str) -> None:
    mine, theirs = Store(store_target), Store(store_target)
    if mine.backend == "postgresql":  # the store's own transaction: the other desk commits while it is open
        with pytest.raises(events_module.Taken), mine.engine.write() as conn:
            events_module.save_change(_Interleaved(conn, theirs), "r1", "c1", "note", "mine", 0, "t", "Bo")
    else:  # SQLite's writes take the file's lock first (BEGIN IMMEDIATE): the race needs a plain connection
        conn = sqlite3.connect(store_target)
        with pytest.raises(events_module.Taken):
            events_module.save_change(_Interleaved(conn, theirs), "r1", "c1", "note", "mine", 0, "t", "Bo")
        conn.rollback()
    assert [(d.note, d.version, d.decided_by) for d in mine.decisions("r1")] == [("theirs", 1, "Ada")]
    assert [e.after for e in mine.decision_history("r1")] == ["theirs"]


def test_many_editors_at_once_lose_no_update(store_target: str) -> None:
    """Eight desks change one note; each refused save is made again on the newer version, as "save mine" does."""
    saved: list[tuple[int, str]] = []
    lock = threading.Lock()
    Store(store_target).close()  # made once, as a newsroom's store is, before the desks open it

    def editor(n: int) -> None:
        store = Store(store_target)
        seen = 0
        for i in range(15):
            while True:
                got = store.save_decision_change("r1", "c1", "note", f"{n}-{i}", seen_version=seen, author=f"e{n}")
                seen = got.decision.version
                if got.saved:
                    with lock:
                        saved.append((seen, f"{n}-{i}"))
                    break
                assert got.decision.note != f"{n}-{i}"  # refused with the newer record, never with its own

    threads = [threading.Thread(target=editor, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    store = Store(store_target)
    history = store.decision_history("r1", "c1")
    assert sorted(saved) == sorted((e.seq, e.after) for e in history)
    assert [e.seq for e in reversed(history)] == list(range(1, 8 * 15 + 1))
    assert [e.before for e in reversed(history)][1:] == [e.after for e in reversed(history)][:-1]
    assert store.decisions("r1")[0].note == history[0].after


def test_a_whole_decision_saved_the_old_way_is_an_event_per_field_and_moves_the_version_on(store_target: str) -> None:
    store = Store(store_target)
    store.save_decision("r1", Decision(claim_id="c1", decision=Choice.ACCEPT, note="ok"), author="Ada")
    assert not store.save_decision_change("r1", "c1", "note", "x", seen_version=0).saved
    assert [(e.field, e.after) for e in store.decision_history("r1", "c1")] == [("note", "ok"), ("decision", "accept")]
    store.save_decision("r1", Decision(claim_id="c1", decision=Choice.ACCEPT, note="ok"), author="Ada")
    assert store.decisions("r1")[0].version == 2  # nothing changed, nothing recorded


@pytest.mark.parametrize(
    ("field", "value", "seen", "message"),
    [
        (
            "verdict",
            "verified",
            0,
            "'verdict' is not a field of a decision (one of decision, note, same_period, same_metric,"
            " same_population): nothing was saved for claim c1.",
        ),
        ("decision", "maybe", 0, "'maybe' is not a decision (accept, reject, needs_edit, or '' for none)"),
        ("same_period", "yes", 0, "The answer to same_period is yes (True), no (False) or not answered (None)"),
        ("note", 3, 0, "A note is text, not int"),
        (
            "note",
            "x",
            7,
            "The decision on claim c1 of run r1 is at version 1 in the store, and this change was made on version 7,"
            " which the store never held: reload the run to see the decision as stored, then make the change again.",
        ),
    ],
)
def test_bad_input_is_refused_with_a_clear_message_and_nothing_recorded(
    store_target: str, field: str, value: object, seen: int, message: str
) -> None:
    store = Store(store_target)
    store.save_decision_change("r1", "c1", "note", "first", seen_version=0)
    with pytest.raises(DecisionError) as refused:
        store.save_decision_change("r1", "c1", field, value, seen_version=seen)
    assert message in str(refused.value)
    assert [e.after for e in store.decision_history("r1")] == ["first"]
    assert store.decisions("r1")[0].version == 1


def test_a_history_of_ten_thousand_events_is_read_a_page_at_a_time(store_target: str) -> None:
    store = Store(store_target)
    # Written directly, a thousand rows a statement: ten thousand saves one by one would only slow the test.
    with store.engine.write() as conn:
        for first in range(1, 10_001, 1000):
            rows = [(n, f"note {n - 1}", f"note {n}") for n in range(first, first + 1000)]
            values = ", ".join("('r1', 'c1', ?, 'note', ?, ?, 'Ada', '2026-12-01T10:00:00+00:00')" for _ in rows)
            sql = (
                f"INSERT INTO decision_events (run_id, claim_id, seq, field, before, after, author, at) VALUES {values}"  # noqa: S608
            )
            conn.execute(sql, [value for row in rows for value in row])  # every value a parameter
        conn.execute(
            "INSERT INTO decisions (run_id, claim_id, note, decided_at, version, decided_by)"
            " VALUES ('r1', 'c1', 'note 10000', '2026-12-01T10:00:00+00:00', 10000, 'Ada')"
        )
    first = store.decision_history("r1", "c1", limit=20)
    assert [e.seq for e in first] == list(range(10_000, 9_980, -1))
    last = store.decision_history("r1", "c1", limit=20, offset=9_990)
    assert [e.seq for e in last] == list(range(10, 0, -1))
    assert store.save_decision_change("r1", "c1", "note", "one more", seen_version=10_000).decision.version == 10_001


def test_history_events_are_records_of_the_whole_change(store_target: str) -> None:
    store = Store(store_target)
    store.save_decision_change("r1", "c1", "same_metric", True, seen_version=0, author="Ada")
    store.save_decision_change("r1", "c2", "note", "<script>x</script>", seen_version=0, author="Bo")
    [newest, oldest] = sorted(store.decision_history("r1"), key=lambda e: e.claim_id, reverse=True)
    assert oldest == DecisionEvent(
        run_id="r1", claim_id="c1", seq=1, field="same_metric", before="", after="yes", author="Ada", at=oldest.at
    )
    assert newest.after == "<script>x</script>" and newest.at >= oldest.at
    assert store.decision_history("r2") == []


def test_a_sqlite_store_file_of_the_first_schema_opens_keeps_its_rows_and_versions(tmp_path: Path) -> None:
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
        conn.execute("ALTER TABLE decisions ADD COLUMN version INTEGER NOT NULL DEFAULT 0")  # issue 16's column
        conn.execute(
            "INSERT INTO decisions (run_id, claim_id, decision, note, decided_at, version)"
            " VALUES ('r1', 'c2', 'reject', '', 't', 4)"
        )
    store = Store(path)
    assert store.decisions("r1") == [
        Decision(claim_id="c1", decision=Choice.ACCEPT, note="ok", decided_at="t"),
        Decision(claim_id="c2", decision=Choice.REJECT, decided_at="t"),
    ]
    assert [d.version for d in store.decisions("r1")] == [0, 4]
    assert store.latest_source("https://a.example/").addresses is None  # type: ignore[union-attr]
    assert store.save_decision_change("r1", "c1", "note", "still ok", seen_version=0, author="Ada").saved
    assert not store.save_decision_change("r1", "c2", "note", "x", seen_version=3).saved
    assert store.save_decision_change("r1", "c2", "note", "x", seen_version=4).decision.version == 5
    store.close()
    again = Store(path)  # opening it again changes nothing
    assert [(d.note, d.version, d.decided_by) for d in again.decisions("r1")] == [("still ok", 1, "Ada"), ("x", 5, "")]
    assert [e.seq for e in again.decision_history("r1", "c2")] == [5]


def test_editors_saving_on_the_same_version_at_once_keep_exactly_one_change(store_target: str) -> None:
    stores = [Store(store_target) for _ in range(6)]  # six desks, each its own connection(s)
    stores[0].save_decision_change("r1", "c1", "decision", "accept", seen_version=0)
    start = threading.Barrier(len(stores))
    saved: list[tuple[int, bool]] = []

    def edit(i: int) -> None:
        start.wait()
        saved.append((i, stores[i].save_decision_change("r1", "c1", "note", f"editor {i}", seen_version=1).saved))

    threads = [threading.Thread(target=edit, args=(i,)) for i in range(len(stores))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    winners = [i for i, ok in saved if ok]
    assert len(saved) == len(stores) and len(winners) == 1
    [kept] = stores[0].decisions("r1")
    assert (kept.note, kept.version, kept.decision) == (f"editor {winners[0]}", 2, Choice.ACCEPT)
    assert [e.after for e in stores[0].decision_history("r1", "c1")] == [f"editor {winners[0]}", "accept"]
    for s in stores:
        s.close()


def test_events_beyond_the_current_state_never_block_a_claim(store_target: str) -> None:
    """A store copied into another may hold an event its decisions row does not show: saves go on after it."""
    store = Store(store_target)
    store.save_decision_change("r1", "c1", "note", "mine", 0, author="Ada")
    with store.engine.write() as conn:  # as a copy leaves it: an event seq 2 beside a decisions row at version 1
        conn.execute(
            "INSERT INTO decision_events (run_id, claim_id, seq, field, before, after, author, at)"
            " VALUES ('r1', 'c1', 2, 'note', 'mine', 'copied', 'Bo', 't')"
        )
    assert not store.save_decision_change("r1", "c1", "note", "again", 1, author="Ada").saved
    assert store.save_decision_change("r1", "c1", "note", "again", 2, author="Ada").decision.version == 3
    store.save_decision("r1", Decision(claim_id="c1", note="whole"), author="Ada")  # never loops on a taken seq
    assert [e.seq for e in store.decision_history("r1", "c1")] == [4, 3, 2, 1]
