"""The team store's queue tables: procrastinate's schema and migration 0004 (job records), applied once.

``connect`` opens a connection to the team store's PostgreSQL and turns "cannot connect" into a
``StoreError`` that names the database (never its password). ``ensure_schema`` is called by every
worker and desk on start: the store's migration runner applies 0004_jobs.sql (each migration once),
then, under a transaction-scoped advisory lock so that two processes starting at once do not both
create them, procrastinate's tables are created only where missing: a second start changes nothing.
It refuses to migrate procrastinate's schema across versions: upgrading the package is its own step
(see the README's "Workers").
"""

from __future__ import annotations

import psycopg
from procrastinate.schema import SchemaManager

from core.errors import TEAM_STORE_UNREACHABLE, StoreUnreachable
from core.store import Store, shown

#: One advisory lock key (a fixed 64-bit number) for "someone is creating the queue's tables".
_SCHEMA_LOCK = 0x5645_5242_4A4F_4253  # "VERBJOBS"


def connect(url: str, *, autocommit: bool = True, timeout: float = 5.0) -> psycopg.Connection[tuple[object, ...]]:
    """Return a new connection to the team store; raise StoreUnreachable when the database cannot be reached."""
    try:
        return psycopg.connect(url, autocommit=autocommit, connect_timeout=max(1, round(timeout)))
    except psycopg.Error as exc:
        raise unreachable(url, exc) from exc


def unreachable(url: str, exc: BaseException, action: str = "reached") -> StoreUnreachable:
    """Return the StoreUnreachable saying the team store at url cannot be ``action``, in the store's own words."""
    return StoreUnreachable(shown(url), action, _first_line(exc), kind="team store", remedy=TEAM_STORE_UNREACHABLE)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0].rstrip(".") if text else type(exc).__name__


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
            raise unreachable(url, exc) from exc
