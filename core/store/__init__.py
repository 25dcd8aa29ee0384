"""The evidence store: fetched sources, checked runs and the editor's decisions (``sqlite``).

``sqlite`` is the store itself; ``columns`` adds the columns later versions need to a store
file made by an earlier one; ``events`` records every change of a decision as an event with
its author, only when the record is still the one the editor saw; ``worklist`` lists runs as
a queue of work (assignment, decided n of m); ``identity`` notices a store file deleted,
replaced or made read-only under a running desk.
"""

from __future__ import annotations

from core.store.events import DecisionSave
from core.store.sqlite import SCHEMA, SCHEMA_VERSION, Store, now_iso, open_store, strip_fragment
from core.store.worklist import RunInfo, Work

__all__ = [
    "SCHEMA",
    "SCHEMA_VERSION",
    "DecisionSave",
    "RunInfo",
    "Store",
    "Work",
    "now_iso",
    "open_store",
    "strip_fragment",
]
