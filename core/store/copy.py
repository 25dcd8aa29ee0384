"""Copy one store into another without doubling anything: a single-user SQLite file into the team store.

Every table both stores have is copied, on the columns both have, so the tables later
migrations add (decision events) come along without a change here. A row already in the
target is skipped, known by its identity: the table's primary key (a run is its run_id, a body
its sha256, a decision its run and claim), or for a table numbered by an auto id, its natural
key in NATURAL_KEYS (a fetch is its url, fetched_at and sha256; a decision event its run,
claim and seq). The auto id is never copied: the target numbers its own rows, in the source's
order. A skipped row whose record in the target holds other values (both desks changed it after
an earlier copy) is counted and named: the target's is kept and the source left as it is, so
nothing is lost and the editor can compare (tables in COMPARED only: a decision's current state
follows its events). The whole copy is one transaction in the target: one that fails leaves it unchanged.
It refuses to copy a store into itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.store.engine import Conn, Engine

#: For tables keyed by an auto-numbered id: the columns that make two rows the same record.
NATURAL_KEYS = {"sources": ("url", "fetched_at", "sha256"), "decision_events": ("run_id", "claim_id", "seq")}
#: Bookkeeping of each store itself, never copied: each records its own migrations, and job records
#: belong beside the queue that ran them (a single-user store has none; its runs are what is copied).
NOT_COPIED = frozenset({"schema_migrations", "schema_version", "jobs", "job_sources"})
#: Tables whose records change in place or fork, where a row that differs means the file holds something the
#: target lacks: a run re-checked, an event numbered alike on both sides, an assignment changed.
COMPARED = frozenset({"runs", "decision_events", "assignments"})
#: How many keys of rows that differ between the two stores a copy names per table.
SHOWN_DIFFERING = 5
#: Copied first, in this order (a later table may refer to them); the rest follow by name.
FIRST = ("runs", "bodies", "sources", "decisions")


@dataclass(frozen=True)
class Copied:
    """One table's copy: rows copied, rows skipped as already there, and of those the ones that differ there."""

    table: str
    copied: int
    skipped: int
    #: Skipped rows whose record in the target holds other values (both stores changed it since an
    #: earlier copy): the target's are kept, the source is left as it is; their keys, the first few.
    differing: tuple[str, ...] = ()
    differing_count: int = 0


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _order(tables: set[str]) -> list[str]:
    return [t for t in FIRST if t in tables] + sorted(tables - set(FIRST))


def _copy_table(src: Engine, read: Conn, dst: Engine, write: Conn, table: str) -> Copied:
    wanted = set(dst.columns(write, table))
    cols = [c for c in src.columns(read, table) if c in wanted]
    pk = dst.primary_key(write, table)
    numbered = pk == ["id"]
    if numbered:
        cols.remove("id")
    key = list(NATURAL_KEYS.get(table, ())) or (pk if pk and not numbered else cols)
    key = [k for k in key if k in cols] or cols
    names = ", ".join(_q(c) for c in cols)
    order = "id" if numbered else ", ".join(_q(c) for c in (pk or cols))
    # The identifiers come from the stores' own catalogs (the target's tables are the migrations'), never input.
    rows = read.execute(f"SELECT {names} FROM {_q(table)} ORDER BY {order}")  # noqa: S608
    insert = f"INSERT INTO {_q(table)} ({names}) VALUES ({', '.join('?' for _ in cols)})"  # noqa: S608
    copied = skipped = 0
    differing: list[str] = []
    by_key = pk if pk and not numbered and not NATURAL_KEYS.get(table) else key
    while (row := rows.fetchone()) is not None:
        values: dict[str, Any] = dict(zip(cols, row, strict=True))
        where = " AND ".join(f"{_q(k)} IS NULL" if values[k] is None else f"{_q(k)} = ?" for k in by_key)
        args = tuple(values[k] for k in by_key if values[k] is not None)
        if by_key is pk:
            done = write.execute(insert + " ON CONFLICT DO NOTHING", tuple(row)).rowcount
        else:
            there = write.execute(f"SELECT 1 FROM {_q(table)} WHERE {where}", args).fetchone()  # noqa: S608
            done = 0 if there is not None else write.execute(insert, tuple(row)).rowcount
        if not done and table in COMPARED:
            theirs = write.execute(f"SELECT {names} FROM {_q(table)} WHERE {where}", args).fetchone()  # noqa: S608
            if theirs is not None and tuple(map(_plain, theirs)) != tuple(map(_plain, row)):
                differing.append(" / ".join(str(values[k]) for k in by_key))
        copied += done
        skipped += 1 - done
    return Copied(table, copied, skipped, tuple(differing[:SHOWN_DIFFERING]), len(differing))


def _plain(value: Any) -> Any:
    """Return a column's value as both drivers compare it (PostgreSQL hands bytea back as memoryview at times)."""
    return bytes(value) if isinstance(value, memoryview) else value


def copy_store(src: Engine, dst: Engine) -> list[Copied]:
    """Copy every row of src the dst lacks, table by table; return the counts (raises StoreError when either fails)."""
    if (src.backend, src.label) == (dst.backend, dst.label):
        raise dst.error("written", "it is the store being copied: a store cannot be copied into itself")
    with src.read() as read, dst.write() as write:
        tables = (set(src.tables(read)) & set(dst.tables(write))) - NOT_COPIED
        return [_copy_table(src, read, dst, write, t) for t in _order(tables)]
