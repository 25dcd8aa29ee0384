"""The run list as a queue of work: assignment as events, decided n of m, who decided last, filters (issue 14, 4).

Every test that takes ``store`` runs on SQLite and on PostgreSQL; one whose name says "sqlite" is about a file.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from core.models import Choice, Decision
from core.store import Store, Work, offered
from tests.test_store_events import FIRST_SCHEMA


def _report(claims: int) -> dict[str, object]:
    return {"schema": 1, "summary": {"verified": claims}, "claims": [{"id": f"c{i}"} for i in range(1, claims + 1)]}


@pytest.fixture
def store(store_target: str) -> Store:
    return Store(store_target)


def test_each_run_says_who_it_is_assigned_to_how_far_it_is_and_who_decided_last(store: Store) -> None:
    run = store.save_run(_report(3), brief_name="budget.md")
    store.assign_run(run, "Ada", by="Bo")
    store.save_decision_change(run, "c1", "decision", "accept", 0, author="Ada")
    time.sleep(0.002)  # changes are timed to the millisecond: this one is surely the later
    store.save_decision_change(run, "c2", "note", "ask the desk", 0, author="Cy")  # a note is not a decision
    [info] = store.list_runs()
    assert (info.assigned_to, info.claims, info.decided, info.last_decided_by) == ("Ada", 3, 1, "Cy")
    assert info.last_decided_at == store.decisions(run)[1].decided_at != ""


def test_an_assignment_is_an_event_and_the_latest_one_stands(store: Store) -> None:
    run = store.save_run(_report(1))
    store.assign_run(run, "Ada", by="Ada")
    store.assign_run(run, "Bo", by="Ada")
    store.assign_run(run, "", by="Bo")  # Bo gives it back
    assert [(a.seq, a.assigned_to, a.assigned_by) for a in store.assignments(run)] == [
        (3, "", "Bo"),
        (2, "Bo", "Ada"),
        (1, "Ada", "Ada"),
    ]
    assert store.list_runs()[0].assigned_to == ""
    assert store.editors() == ["Ada", "Bo"]
    with pytest.raises(KeyError):
        store.assign_run("no-such-run", "Ada", by="Ada")


def test_the_filters_show_mine_unassigned_undecided_and_done(store: Store) -> None:
    mine = store.save_run(_report(2), brief_name="mine")
    theirs = store.save_run(_report(1), brief_name="theirs")
    store.save_run(_report(1), brief_name="loose")
    store.assign_run(mine, "Ada", by="Ada")
    store.assign_run(theirs, "Bo", by="Ada")
    store.save_decision_change(theirs, "c1", "decision", "reject", 0, author="Bo")
    store.save_decision_change(mine, "c1", "decision", "accept", 0, author="Ada")

    def names(show: Work, editor: str = "") -> list[str]:  # runs saved within a millisecond: any order
        return sorted(r.brief_name for r in store.list_runs(show=show, editor=editor))

    assert names(Work.ALL) == ["loose", "mine", "theirs"]
    assert names(Work.MINE, "Ada") == ["mine"]
    assert names(Work.MINE, "Cy") == []
    assert names(Work.UNASSIGNED) == ["loose"]
    assert names(Work.UNDECIDED) == ["loose", "mine"]
    assert names(Work.DONE) == ["theirs"]
    store.save_decision_change(mine, "c2", "decision", "needs_edit", 0, author="Ada")
    assert names(Work.DONE) == ["mine", "theirs"]
    store.save_decision_change(mine, "c2", "decision", "", 1, author="Ada")  # withdrawn: work again
    assert names(Work.DONE) == ["theirs"]
    assert len(store.list_runs(limit=1)) == 1


def test_the_list_reads_no_report_and_asks_one_query_however_many_sqlite_runs(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")  # SQLite's trace counts the statements
    for n in range(30):
        run = store.save_run(_report(2), brief_name=f"brief {n}")
        store.save_decision(run, Decision(claim_id="c1", decision=Choice.ACCEPT), author="Ada")
        store.assign_run(run, "Ada", by="Ada")
    with store.engine.write() as conn:
        conn.execute("UPDATE runs SET report_json = 'not JSON at all'")  # a report read would fail
    asked: list[str] = []
    with store.engine.read() as conn:
        conn.set_trace_callback(asked.append)  # type: ignore[attr-defined]
    runs = store.list_runs(show=Work.UNDECIDED)
    with store.engine.read() as conn:
        conn.set_trace_callback(None)  # type: ignore[attr-defined]
    assert len(runs) == 30 and {(r.claims, r.decided, r.assigned_to) for r in runs} == {(2, 1, "Ada")}
    assert len(asked) == 1


def test_a_sqlite_run_saved_before_claims_were_counted_is_counted_from_its_summary(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.executescript(FIRST_SCHEMA)
        conn.execute(
            "INSERT INTO runs (run_id, brief_name, created_at, summary_json, report_json)"
            """ VALUES ('r1', 'old.md', '2026-01-01T00:00:00', '{"verified": 2, "dead_link": 1}', '{}')"""
        )
    store = Store(path)
    [info] = store.list_runs(show=Work.UNDECIDED)
    assert (info.run_id, info.claims, info.decided, info.assigned_to, info.last_decided_by) == ("r1", 3, 0, "", "")


def test_a_rechecked_run_keeps_its_count_up_to_date(store: Store) -> None:
    run = store.save_run(_report(1))
    store.update_run(run, _report(4))
    assert store.list_runs()[0].claims == 4


def test_a_run_assigned_to_a_configured_address_is_mine_once_signed_in(store: Store) -> None:
    # Issue 24, 6: assigned before Ann ever signed in, by the address the desk's editor list names.
    run = store.save_run(_report(1), brief_name="for ann")
    store.assign_run(run, "ann@example.org", by="Ada")
    mine = [r.brief_name for r in store.list_runs(show=Work.MINE, editor="Ann Editor", email="Ann@Example.org")]
    assert mine == ["for ann"]
    assert store.list_runs(show=Work.MINE, editor="Ann Editor") == []
    assert store.list_runs(show=Work.MINE, editor="Bo", email="bo@example.org") == []


def test_assignment_offers_every_configured_editor_signed_in_yet_or_not() -> None:
    configured = ["ann@example.org", "ben@example.org"]
    assert offered(["Cy"], configured, "Ada") == ["Ada", "ann@example.org", "ben@example.org", "Cy"]
    # The editor at the desk stands by name, not also by address; each name once, whatever its case.
    assert offered(["Ann Editor", "ann@example.org", "cy"], configured, "Ann Editor", "Ann@example.org", "Cy") == [
        "Ann Editor",
        "ben@example.org",
        "cy",
    ]
