"""The PostgreSQL engine: a team store reached by URL through a psycopg 3 connection pool.

One pool per database URL in a process, shared by every Store opened on it (each desk session
opens its own Store) and closed with the last of them. A connection is checked as it leaves the
pool, so a server restarted under a running desk costs nothing but the one check: the store
works again without a restart. Once a call found the server away, the next ones ask it with one
direct connection instead of waiting out the pool's timeout (refused at once while it is down).
While the server does not answer, every call raises a ``StoreError`` saying the team store
cannot be reached and what to do. Statements arrive with ``?`` placeholders and are translated
here (``%s``, and ``%`` doubled). No psycopg exception leaves this module, and no message
shows the URL's user or password.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

from core.errors import TEAM_STORE_REMEDY, TEAM_STORE_UNREACHABLE, StoreError, StoreUnreachable
from core.store.engine import Conn, Cursor
from core.store.target import shown

#: The advisory lock that serialises migrations across every process opening the database.
MIGRATION_LOCK = 0x7665726261746D  # "verbatm"

# The pool logs every failed reconnection; the StoreError already says it, once, where it matters.
logging.getLogger("psycopg.pool").addHandler(logging.NullHandler())


@functools.lru_cache(maxsize=1024)
def translate(sql: str) -> str:
    """Return a statement with ``?`` placeholders as psycopg reads it (``%s``; a literal ``%`` doubled)."""
    out: list[str] = []
    quoted = False
    for ch in sql:
        if ch == "'":
            quoted = not quoted  # '' inside a literal toggles twice: still inside
        if ch == "%":
            out.append("%%")
        elif ch == "?" and not quoted:
            out.append("%s")
        else:
            out.append(ch)
    return "".join(out)


class _Conn:
    """psycopg's connection with the store's placeholders (a class: it wraps a live connection)."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self._conn = conn

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Cursor:
        return self._conn.execute(translate(sql), tuple(parameters))


def _unreachable(exc: BaseException) -> bool:
    """Return whether a driver error means the server is not there (down, restarting, network), not a refusal."""
    if isinstance(exc, psycopg.OperationalError):
        state, text = exc.sqlstate or "", str(exc)
        if state.startswith(("08", "57P")) or "the database system is" in text:  # lost, or shutting down/starting
            return True
        # No state and no FATAL: libpq never reached a server (refused, timed out, no such host, cut off).
        # A FATAL is the server answering and refusing: no such database, no such user, a wrong password.
        return state == "" and "FATAL:" not in text
    return False


def driver_error(label: str, action: str, exc: BaseException) -> StoreError:
    """Return the StoreError a driver error means: StoreUnreachable when the server is not there, else a refusal.

    The one classifier of PostgreSQL errors (the store, the queue and the workers use it): a server that is
    down is waited for; one that answers and refuses (no such database, a wrong password) is said at once,
    with what to change.
    """
    if _unreachable(exc):
        return not_answering(label, _first_line(exc))
    return StoreError(label, action, _first_line(exc), kind="team store", remedy=TEAM_STORE_REMEDY)


def not_answering(label: str, why: str, action: str = "reached") -> StoreUnreachable:
    """Return the StoreUnreachable saying the team store ``label`` cannot be ``action`` because its server is away."""
    return StoreUnreachable(label, action, why, kind="team store", remedy=TEAM_STORE_UNREACHABLE)


def _first_line(exc: BaseException) -> str:
    """Return the cause of a driver error as one short sentence (libpq's own words, without its hints)."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    # libpq: 'connection failed: connection to server at "127.0.0.1", port 5433 failed: Connection refused'
    text = text.rsplit("failed: ", 1)[-1] if "failed: " in text else text
    return text.removeprefix("FATAL:").strip().rstrip(".")


class _Shared:
    """One pool and how many open Stores use it (a class: it is mutated under the registry's lock)."""

    def __init__(self, pool: ConnectionPool[psycopg.Connection[Any]]) -> None:
        self.pool = pool
        self.users = 0
        #: Set when a call found the server away: the next calls ask the server directly (refused at once)
        #: instead of waiting out the pool's timeout, until one gets through.
        self.away = False


_POOLS: dict[tuple[str, float, int], _Shared] = {}
_POOLS_LOCK = threading.Lock()


class PostgresEngine:
    """A PostgreSQL database reached by URL (a class, not a dataclass: it holds a share of a pool)."""

    backend = "postgresql"
    in_memory = False
    path: Path | None = None

    def __init__(self, url: str, *, timeout: float, pool_size: int) -> None:
        """Open a pooled connection to the database at url; raise StoreError when it cannot be reached."""
        self.url = url
        self.label = shown(url)
        self._timeout = timeout
        self._key = (url, timeout, pool_size)
        with _POOLS_LOCK:
            shared = _POOLS.get(self._key)
            if shared is None:
                # A first, direct connection: a wrong URL or a server that is not there is said at once, in
                # libpq's words, instead of after the pool's whole wait.
                try:
                    psycopg.connect(url, connect_timeout=self._connect_timeout).close()
                except psycopg.Error as exc:
                    raise self._error("opened", exc) from exc
                shared = _POOLS[self._key] = _Shared(self._pool(pool_size))
            shared.users += 1
            self._shared: _Shared | None = shared

    @property
    def _connect_timeout(self) -> int:
        return max(2, round(self._timeout))  # libpq's own minimum is 2 s

    def _pool(self, size: int) -> ConnectionPool[psycopg.Connection[Any]]:
        return ConnectionPool(
            self.url,
            min_size=0,
            max_size=size,
            timeout=self._timeout,
            # Give up a failed reconnection at once: the next call tries again, so a server back after
            # an outage is used at once instead of after a back-off.
            reconnect_timeout=0,
            check=ConnectionPool.check_connection,
            kwargs={"connect_timeout": self._connect_timeout},
            open=True,
            name=self.label,
        )

    def _error(self, action: str, exc: BaseException) -> StoreError:
        if isinstance(exc, PoolTimeout):  # the pool only says it waited: ask the server for the reason
            cause = self._direct_failure()
            if cause is not None:
                return driver_error(self.label, action, cause)
            return not_answering(self.label, f"no connection within {self._timeout:g} s")
        return driver_error(self.label, action, exc)

    def _direct_failure(self) -> psycopg.Error | None:
        """Return why a direct connection fails now (None when it succeeds)."""
        try:
            psycopg.connect(self.url, connect_timeout=self._connect_timeout).close()
        except psycopg.Error as exc:
            return exc
        return None

    @contextmanager
    def _connection(self, action: str, *, transaction: bool) -> Iterator[psycopg.Connection[Any]]:
        if self._shared is None:
            raise self.error(action, "the store was closed")
        if self._shared.away:
            # A server known to be away: one direct connection says whether it is back, in libpq's time
            # (at once when refused), so that a page never waits the pool's whole timeout on every call.
            cause = self._direct_failure()
            if cause is not None:
                raise driver_error(self.label, action, cause) from cause
            self._shared.away = False
        try:
            # The pool's context commits when the block ends normally and rolls back otherwise.
            with self._shared.pool.connection() as conn:
                if transaction:
                    with conn.transaction():
                        yield conn
                else:
                    yield conn
        except (psycopg.Error, PoolTimeout) as exc:
            error = self._error(action, exc)
            if isinstance(error, StoreUnreachable) and self._shared is not None:
                self._shared.away = True
            raise error from exc

    @contextmanager
    def read(self) -> Iterator[Conn]:
        """Hold a pooled connection for reading; raise StoreError when it fails."""
        with self._connection("read", transaction=False) as conn:
            yield _Conn(conn)

    @contextmanager
    def write(self, action: str = "written") -> Iterator[Conn]:
        """Hold one transaction, committed when the block ends; raise StoreError when it fails."""
        with self._connection(action, transaction=True) as conn:
            yield _Conn(conn)

    @contextmanager
    def exclusive(self) -> Iterator[Conn]:
        """Hold one transaction under the migrations' advisory lock: another process waits for it to end."""
        with self._connection("opened", transaction=True) as conn:
            wrapped = _Conn(conn)
            wrapped.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
            yield wrapped

    def columns(self, conn: Conn, table: str) -> list[str]:
        """Return the columns of a table in order (empty when there is no such table)."""
        rows = conn.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema()"
            " AND table_name = ? ORDER BY ordinal_position",
            (table,),
        ).fetchall()
        return [str(r[0]) for r in rows]

    def primary_key(self, conn: Conn, table: str) -> list[str]:
        """Return the columns of a table's primary key in key order (empty when it has none)."""
        rows = conn.execute(
            "SELECT k.column_name FROM information_schema.table_constraints c"
            " JOIN information_schema.key_column_usage k"
            " ON k.constraint_name = c.constraint_name AND k.table_schema = c.table_schema"
            " WHERE c.table_schema = current_schema() AND c.table_name = ? AND c.constraint_type = 'PRIMARY KEY'"
            " ORDER BY k.ordinal_position",
            (table,),
        ).fetchall()
        return [str(r[0]) for r in rows]

    def tables(self, conn: Conn) -> list[str]:
        """Return the names of the store's tables."""
        rows = conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
            " AND table_type = 'BASE TABLE' ORDER BY table_name"
        ).fetchall()
        return [str(r[0]) for r in rows]

    def error(self, action: str, why: str, remedy: str = "") -> StoreError:
        """Return the StoreError for this store that says it cannot be ``action`` and why."""
        return StoreError(self.label, action, why, kind="team store", remedy=remedy or TEAM_STORE_REMEDY)

    def problem(self) -> str:
        """Return "": a database server has no file to delete under the desk (an outage raises StoreError)."""
        return ""

    def close(self) -> None:
        """Give back this Store's share of the pool; the last one closes it."""
        with _POOLS_LOCK:
            shared, self._shared = self._shared, None
            if shared is None:
                return
            shared.users -= 1
            if shared.users == 0:
                del _POOLS[self._key]
                shared.pool.close()
