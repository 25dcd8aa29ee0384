"""A store file locked by another program: the change is kept, a reload shows it, then it is saved (issue 24, 1).

AppTest sessions on one real SQLite file; another connection holds its write lock, as a CLI
writing a large run would. The desk's outbox (VERBATIM_OUTBOX, per test) saves by itself.
"""

from __future__ import annotations

import re
import sqlite3
import time

from core.models import Choice
from core.settings import Settings
from tests.ui.test_decisions import _desk
from tests.ui.test_pages import _no_exceptions, _plain, _saved_run, _store


def _captions(at) -> list[str]:
    return [_plain(c.value) for c in at.caption]


def test_changes_made_while_the_store_file_is_locked_are_kept_shown_after_a_reload_and_saved(as_editor) -> None:
    run_id = _saved_run()
    key = f"dec|{run_id}|c1|"
    where = Settings.from_env().db_path
    as_editor("Ada")
    ada = _desk(run_id)
    other = sqlite3.connect(str(where), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another program holds the file's write lock
    try:
        ada.radio(key=key + "choice").set_value("accept").run()
        _no_exceptions(ada)
        assert (
            "Not saved yet: the evidence store at "
            f"{where} is locked by another program. Your change is kept by the desk (a reload or another"
            " browser finds it) and will be saved as soon as the store takes it."
        ) in _captions(ada)
        ada.text_area(key=key + "note").set_value("Check the year").run()
        assert any(
            c.startswith("Not saved yet:") and "has not taken the change you made before it yet" in c
            for c in _captions(ada)
        )
        assert _store().decisions(run_id) == []

        reloaded = _desk(run_id)  # the same editor reloads the tab: a new session
        _no_exceptions(reloaded)
        assert reloaded.radio(key=key + "choice").value == "accept"
        assert reloaded.text_area(key=key + "note").value == "Check the year"
        assert any(c.startswith("Not saved yet:") and "has not taken it yet" in c for c in _captions(reloaded))
        assert any("2 changes of yours to this run wait for the store" in _plain(w.value) for w in reloaded.warning)
    finally:
        other.rollback()
        other.close()

    for _ in range(100):  # the outbox tries every couple of seconds by itself
        stored = _store().decisions(run_id)
        if stored and stored[0].note == "Check the year":
            break
        time.sleep(0.1)
    [stored] = _store().decisions(run_id)
    assert (stored.decision, stored.note, stored.decided_by, stored.version) == (
        Choice.ACCEPT,
        "Check the year",
        "Ada",
        2,
    )

    reloaded.run()
    _no_exceptions(reloaded)
    assert any(
        re.fullmatch(
            r"Saved at \d\d:\d\d UTC: your change \(Note “Check the year”\), kept while the store was away,"
            r" is in the store now\.",
            c,
        )
        for c in _captions(reloaded)
    ), _captions(reloaded)
    ada.run()
    ada.radio(key=key + "same_metric").set_value("yes").run()  # on the version the outbox saved: no conflict
    assert "Saved." in _captions(ada)
    assert [w for w in ada.warning if _plain(w.value).startswith("Changed by")] == []


def test_a_full_disk_is_said_and_a_change_kept_in_memory_says_until_when() -> None:
    from core.errors import StoreError
    from core.store.outbox import Kept
    from ui import state

    full = StoreError("/data/verbatim.sqlite3", "written", "database or disk is full")
    assert state.waiting_words("the evidence store at /data/verbatim.sqlite3", state._cannot(full), Kept.MEMORY) == (
        "Not saved yet: the evidence store at /data/verbatim.sqlite3 cannot be written: database or disk is full."
        " Your change is kept by the desk until it restarts (the desk's own disk refused to keep a copy) and will"
        " be saved as soon as the store takes it."
    )
