"""The team store's queue tables: procrastinate's schema and migration 0004 (job records), applied once.

``connect`` opens a connection to the team store's PostgreSQL and turns "cannot connect" into the
store's own ``StoreError`` (core.store.postgres.driver_error): ``StoreUnreachable`` when the server
is not there, a refusal (no such database, a wrong password) otherwise; it names the database,
never its password. ``ensure_schema`` is called by every worker and desk on start: the store's
migration runner applies 0004_jobs.sql (each migration once), then, under a transaction-scoped
advisory lock so that two processes starting at once do not both create them, procrastinate's
tables are created only where missing: a second start changes nothing.
It refuses to migrate procrastinate's schema across versions: upgrading the package is its own step
(see the README's "Workers").
"""

from __future__ import annotations

import psycopg
from procrastinate.schema import SchemaManager

from core.errors import StoreError, StoreUnreachable
from core.store import Store, shown
from core.store.postgres import driver_error, not_answering

#: One advisory lock key (a fixed 64-bit number) for "someone is creating the queue's tables".
_SCHEMA_LOCK = 0x5645_5242_4A4F_4253  # "VERBJOBS"


def connect(url: str, *, autocommit: bool = True, timeout: float = 5.0) -> psycopg.Connection[tuple[object, ...]]:
    """Return a new connection to the team store; raise StoreError when it cannot (StoreUnreachable: no server)."""
    try:
        return psycopg.connect(url, autocommit=autocommit, connect_timeout=max(1, round(timeout)))
    except psycopg.Error as exc:
        raise failed(url, exc) from exc


def failed(url: str, exc: BaseException, action: str = "opened") -> StoreError:
    """Return the StoreError a driver error on the team store at url means, in the store's own words."""
    return driver_error(shown(url), action, exc)


def unreachable(url: str, why: str, action: str = "reached") -> StoreUnreachable:
    """Return the StoreUnreachable saying the team store at url cannot be ``action``, and why."""
    return not_answering(shown(url), why, action)


def ensure_schema(url: str) -> None:
    """Create the queue's tables and the job records where missing; a second call changes nothing."""
    Store(url).close()  # the store's migration runner applies 0004_jobs (the job records), each migration once
    with connect(url, autocommit=False) as conn:
        try:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
                row = conn.execute("SELECT to_regclass('procrastinate_jobs')").fetchone()
                if row is None or row[0] is None:
                    conn.execute(SchemaManager.get_schema())  # its own SQL, no parameters
        except psycopg.OperationalError as exc:
            raise failed(url, exc) from exc
