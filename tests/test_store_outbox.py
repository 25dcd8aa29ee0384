"""The outbox: a change the store could not take is kept, survives a restart, and is saved on its version (issue 24, 1).

Real stores only: a SQLite file locked by another connection, a SQLite file on a full disk (a
tiny tmpfs, as root), a PostgreSQL server of the test's own stopped and started again.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.errors import StoreError, StoreUnreachable
from core.models import Choice
from core.store import Store
from core.store.events import moment
from core.store.outbox import Fate, Kept, Late, Outbox, Waiting, new_id, within
from tests.pg import MISSING, PostgresServer, find_bindir, running_server

REPORT = {"schema": 1, "brief_name": "brief.md", "summary": {"verified": 1}, "claims": [{"id": "c1"}]}


def _change(store: Store, run_id: str, field: str, value: object, seen: int = 0, *, after: str = "", by: str = "Ada"):
    at = moment()
    return Waiting(
        id=new_id(), store=store.label, run_id=run_id, claim_id="c1", editor=by, field=field, value=value,
        seen=seen, at=at, after=after,
    )  # fmt: skip


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(tmp_path / "store.sqlite3", busy_timeout=0.2) as s:
        yield s


@pytest.fixture
def locked(store: Store) -> Iterator[sqlite3.Connection]:
    """Another program holding the store file's write lock until the test lets go."""
    other = sqlite3.connect(str(store.path), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield other
    finally:
        if other.in_transaction:
            other.rollback()
        other.close()


def test_a_change_the_locked_file_refused_is_kept_and_saved_on_its_version_when_the_lock_goes(
    store: Store, locked: sqlite3.Connection, tmp_path: Path
) -> None:
    run_id = "r1"
    change = _change(store, run_id, "decision", "accept")
    with pytest.raises(StoreError) as caught:
        store.save_decision_change(run_id, "c1", "decision", "accept", 0, author="Ada", at=change.at)
    assert "locked" in caught.value.why
    box = Outbox(tmp_path / "outbox", courier=False)
    box.serve(store.label, lambda: store)
    assert box.keep(change) is Kept.DISK
    assert (tmp_path / "outbox" / f"{change.id}.json").exists()
    assert box.deliver() == []  # still locked: it waits on
    assert box.answering(store.label) is False
    assert [c.id for c in box.waiting(change.key())] == [change.id]

    locked.rollback()
    [outcome] = box.deliver()
    assert outcome.fate is Fate.SAVED and outcome.decision.decision is Choice.ACCEPT
    assert box.waiting(change.key()) == [] and not (tmp_path / "outbox" / f"{change.id}.json").exists()
    [event] = store.decision_history(run_id, "c1")
    assert (event.author, event.field, event.after, event.at) == ("Ada", "decision", "accept", change.at)


def test_waiting_changes_outlive_the_desk_and_are_saved_by_the_next_one(store: Store, tmp_path: Path) -> None:
    first = Outbox(tmp_path / "outbox", courier=False)
    note = _change(store, "r1", "note", "Check the year")
    first.keep(note)
    again = Outbox(tmp_path / "outbox", courier=False)  # a desk started afresh on the same machine
    assert again.waiting(note.key()) == [note]
    again.serve(store.label, lambda: store)
    [outcome] = again.deliver()
    assert outcome.fate is Fate.SAVED and store.decisions("r1")[0].note == "Check the year"


def test_a_saved_change_is_never_neither_waiting_nor_done(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page asks the outbox between the courier's steps: it must find the change waiting or done, never lost.

    CI saw the reloaded tab of an editor open the run while the courier was removing the saved change's
    file: the change was no longer waiting and not yet done, so the tab never said it was saved.
    """
    box = Outbox(tmp_path / "outbox", courier=False)
    box.serve(store.label, lambda: store)
    change = _change(store, "r1", "decision", "accept")
    box.keep(change)
    looks: list[tuple[list[str], list[str]]] = []
    unlink = Path.unlink

    def looking(path: Path, missing_ok: bool = False) -> None:  # the courier's last step: the change's file goes
        looks.append(([c.id for c in box.waiting(change.key())], [o.change.id for o in box.outcomes(change.key())]))
        unlink(path, missing_ok=missing_ok)

    monkeypatch.setattr(Path, "unlink", looking)
    [outcome] = box.deliver()
    assert outcome.fate is Fate.SAVED
    assert looks == [([], [change.id])]


def test_a_change_made_on_top_of_a_waiting_one_is_saved_after_it_on_the_version_it_got(
    store: Store, tmp_path: Path
) -> None:
    box = Outbox(tmp_path / "outbox", courier=False)
    box.serve(store.label, lambda: store)
    first = _change(store, "r1", "same_period", False)
    second = _change(store, "r1", "note", "Period differs", after=first.id)  # made on version 0 too, after it
    box.keep(second)
    box.keep(first)
    outcomes = box.deliver()
    assert [(o.change.id, o.fate) for o in outcomes] == [(first.id, Fate.SAVED), (second.id, Fate.SAVED)]
    [stored] = store.decisions("r1")
    assert (stored.same_period, stored.note, stored.version) == (False, "Period differs", 2)


def test_a_waiting_change_that_meets_another_editors_is_held_for_the_editor_never_merged(
    store: Store, tmp_path: Path
) -> None:
    box = Outbox(tmp_path / "outbox", courier=False)
    box.serve(store.label, lambda: store)
    mine = _change(store, "r1", "note", "The figure is rounded")
    box.keep(mine)
    store.save_decision_change("r1", "c1", "decision", "accept", 0, author="Grace")  # while it waited
    [outcome] = box.deliver()
    assert outcome.fate is Fate.CONFLICT and outcome.save is not None
    assert [(e.author, e.field) for e in outcome.save.missed] == [("Grace", "decision")]
    assert store.decisions("r1")[0].note == ""  # nothing merged
    assert box.deliver() == []  # held: not tried again until the editor chooses
    assert box.waiting(mine.key()) == [mine] and box.waiting(mine.key(), held=False) == []
    assert [o.fate for o in box.outcomes(mine.key())] == [Fate.CONFLICT]
    box.settle(mine.id)
    assert box.waiting(mine.key()) == [] and box.outcomes(mine.key()) == []
    assert not (tmp_path / "outbox" / f"{mine.id}.json").exists()


def test_a_change_whose_commit_got_in_before_its_answer_was_lost_is_not_saved_twice(
    store: Store, tmp_path: Path
) -> None:
    box = Outbox(tmp_path / "outbox", courier=False)
    box.serve(store.label, lambda: store)
    change = _change(store, "r1", "decision", "reject")
    store.save_decision_change("r1", "c1", "decision", "reject", 0, author="Ada", at=change.at)  # answer lost
    box.keep(change)
    [outcome] = box.deliver()
    assert outcome.fate is Fate.SAVED
    assert len(store.decision_history("r1", "c1")) == 1


def test_a_change_the_store_will_never_take_is_refused_with_its_reason_and_dropped(
    store: Store, tmp_path: Path
) -> None:
    box = Outbox(tmp_path / "outbox", courier=False)
    box.serve(store.label, lambda: store)
    change = _change(store, "r1", "decision", "accept", seen=5)  # a version the store never held
    box.keep(change)
    [outcome] = box.deliver()
    assert outcome.fate is Fate.REFUSED and "which the store never held" in outcome.why
    assert box.waiting(change.key()) == []


def test_the_courier_saves_by_itself_once_the_lock_goes(
    store: Store, locked: sqlite3.Connection, tmp_path: Path
) -> None:
    box = Outbox(tmp_path / "outbox", retry_every=0.1)
    box.serve(store.label, lambda: store)
    change = _change(store, "r1", "decision", "needs_edit")
    box.keep(change)  # starts the courier
    locked.rollback()
    for _ in range(100):
        if box.outcomes(change.key()):
            break
        time.sleep(0.05)
    assert [o.fate for o in box.outcomes(change.key())] == [Fate.SAVED]
    assert store.decisions("r1")[0].decision is Choice.NEEDS_EDIT


# --------------------------------------------------------------------------- a full disk


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Path]:
    """A real, tiny file system (tmpfs, mounted as root) to fill up."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs to fill needs root (the CI runs as root)")
    where = tmp_path / "small"
    where.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(where)], check=True)
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def _fill(folder: Path) -> Path:
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"\0" * 1024)
    except OSError:
        pass  # no space left: the disk is full
    finally:
        os.close(fd)
    return filler


def test_on_a_full_disk_the_store_refuses_and_the_outbox_keeps_the_change_in_memory(
    full_disk: Path, tmp_path: Path
) -> None:
    with Store(full_disk / "store.sqlite3", busy_timeout=0.2) as store:
        store.save_decision_change("r1", "c1", "note", "first", 0, author="Ada")
        filler = _fill(full_disk)
        box = Outbox(full_disk / "outbox", courier=False)  # the desk's own disk is the full one too
        box.serve(store.label, lambda: store)
        change = _change(store, "r1", "note", "x" * 200_000, seen=1)
        with pytest.raises(StoreError) as caught:
            store.save_decision_change("r1", "c1", "note", change.value, 1, author="Ada", at=change.at)
        assert "full" in caught.value.why
        assert box.keep(change) is Kept.MEMORY
        assert box.where(change.id) is Kept.MEMORY
        assert box.deliver() == []
        filler.unlink()
        [outcome] = box.deliver()
        assert outcome.fate is Fate.SAVED and store.decisions("r1")[0].note == change.value


# --------------------------------------------------------------------------- PostgreSQL stopped


@pytest.fixture
def own_server() -> Iterator[PostgresServer]:
    if find_bindir() is None:
        pytest.fail(MISSING)
    with running_server() as server:
        yield server


def test_a_change_made_while_postgresql_is_stopped_is_saved_when_it_is_back(
    own_server: PostgresServer, tmp_path: Path
) -> None:
    url = own_server.new_database()
    store = Store(url, busy_timeout=2)
    run_id = store.save_run(REPORT, b"", "brief.md")
    box = Outbox(tmp_path / "outbox", courier=False)
    box.serve(store.label, lambda: Store(url, busy_timeout=2))
    own_server.halt()
    try:
        change = _change(store, run_id, "decision", "accept")
        with pytest.raises(StoreUnreachable):
            store.save_decision_change(run_id, "c1", "decision", "accept", 0, author="Ada", at=change.at)
        with pytest.raises(StoreUnreachable):  # known away: asked directly, refused again
            store.decisions(run_id)
        box.keep(change)
        assert box.deliver() == [] and box.answering(store.label) is False
    finally:
        own_server.resume()
    [outcome] = box.deliver()
    assert outcome.fate is Fate.SAVED
    assert [d.decision for d in store.decisions(run_id)] == [Choice.ACCEPT]
    store.close()


def _cluster(server: PostgresServer) -> list[int]:
    """Return the process ids of the server: its postmaster (first line of postmaster.pid) and its children."""
    main = int((server.datadir / "postmaster.pid").read_text().split()[0])
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        if int(fields[1]) == main:
            children.append(int(stat.parent.name))
    return [main, *children]


def test_a_server_that_accepts_and_never_answers_holds_a_thread_not_the_caller_and_nothing_is_saved_twice(
    own_server: PostgresServer, tmp_path: Path
) -> None:
    url = own_server.new_database()
    store = Store(url, busy_timeout=2)
    run_id = store.save_run(REPORT, b"", "brief.md")
    store.decisions(run_id)  # a pooled connection, open: the next call goes straight to the server
    box = Outbox(tmp_path / "outbox", courier=False)
    box.serve(store.label, lambda: store)
    hung = _cluster(own_server)
    for pid in hung:
        os.kill(pid, signal.SIGSTOP)  # the server's processes, by id: it holds every connection and answers none
    try:
        change = _change(store, run_id, "note", "Hung server")
        with pytest.raises(Late):
            within(1.0, store.save_decision_change, run_id, "c1", "note", "Hung server", 0, author="Ada", at=change.at)
        box.keep(change)
    finally:
        for pid in hung:
            os.kill(pid, signal.SIGCONT)
    [outcome] = box.deliver()
    assert outcome.fate is Fate.SAVED  # whether the held call or the outbox got in first, it is saved once
    assert [(e.author, e.after) for e in store.decision_history(run_id, "c1")] == [("Ada", "Hung server")]
    store.close()
