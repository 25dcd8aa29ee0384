"""A SQLite store file deleted or replaced under an open store is noticed, and nothing is said saved into it.

SQLite-only by nature (issue 16, 7): a team store on PostgreSQL has no file to lose.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from core.errors import StoreError
from core.models import Decision
from core.store import Store


def _gone(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def test_a_deleted_sqlite_store_file_refuses_every_write_with_what_happened(tmp_path: Path) -> None:
    path = tmp_path / "desk.sqlite3"
    store = Store(path)
    run_id = store.save_run({"summary": {}}, b"", "brief.md")
    assert store.problem() == ""
    _gone(path)
    said = (
        f"The store file {path} was deleted while the desk was running: nothing saved from now on would be kept,"
        " and runs and decisions saved earlier are gone once the desk restarts. Restart the desk to start a new"
        " store, or put the file back (from a backup) and restart."
    )
    assert store.problem() == said
    # SQLite alone would write on into the deleted file and report success.
    with pytest.raises(StoreError) as caught:
        store.save_decision(run_id, Decision(claim_id="c1", note="lost?"))
    assert str(caught.value).startswith(f"The evidence store at {path} cannot be written: The store file {path} was")
    with pytest.raises(StoreError):
        store.save_decision_change(run_id, "c1", "note", "lost?", seen_version=0)
    assert not path.exists()


def test_a_sqlite_store_file_replaced_by_another_is_noticed(tmp_path: Path) -> None:
    path, other = tmp_path / "desk.sqlite3", tmp_path / "other.sqlite3"
    store = Store(path)
    Store(other).close()
    os.replace(other, path)
    assert "was replaced by another file while the desk was running" in store.problem()
    with pytest.raises(StoreError):
        store.save_run({"summary": {}}, b"", "brief.md")
    assert Store(path).list_runs() == []  # nothing went into either file


def test_an_in_memory_sqlite_store_has_no_file_to_lose() -> None:
    assert Store(":memory:").problem() == ""
