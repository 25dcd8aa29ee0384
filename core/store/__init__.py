"""The evidence store: fetched sources, checked runs and the editor's decisions, on SQLite or PostgreSQL.

``store`` is the store itself, over one of two engines (``engine``: the face they share;
``sqlite``: a file or memory; ``postgres``: a team store by URL, pooled); ``target`` reads what
VERBATIM_DB names and shows it without a password; ``migrate`` applies the numbered SQL files
of ``migrations/``; ``bodies`` keeps each fetched body once, under its sha256; ``columns`` adds
the columns of store files made before migrations; ``events`` records every change of a
decision as an event with its author, only when the record is still the one the editor saw;
``worklist`` lists runs as a queue of work (assignment, decided n of m, who decided last);
``identity`` notices a store file deleted, replaced or made read-only under a running desk;
``outbox`` keeps a decision's change the store could not take on the desk's machine, and saves it
on its version when the store answers.
"""

from __future__ import annotations

from core.store.events import DecisionSave
from core.store.store import Store, now_iso, open_store, strip_fragment
from core.store.target import is_postgres, shown
from core.store.worklist import RunInfo, Work, offered

__all__ = [
    "DecisionSave",
    "RunInfo",
    "Store",
    "Work",
    "is_postgres",
    "now_iso",
    "offered",
    "open_store",
    "shown",
    "strip_fragment",
]
