"""The evidence store: fetched sources, checked runs and the editor's decisions (``sqlite``).

``sqlite`` is the store itself; ``columns`` adds the columns later versions need to a store
file made by an earlier one; ``versions`` saves one field of a decision only when the record
is still the one the editor saw; ``identity`` notices a store file deleted, replaced or made
read-only under a running desk.
"""

from __future__ import annotations

from core.store.sqlite import SCHEMA, SCHEMA_VERSION, RunInfo, Store, now_iso, open_store, strip_fragment

__all__ = ["SCHEMA", "SCHEMA_VERSION", "RunInfo", "Store", "now_iso", "open_store", "strip_fragment"]
