"""The SQLite engine: one file (or ``":memory:"``), one connection shared by threads under a lock, WAL.

Streamlit runs each session in its own thread: they share the one connection under the lock.
WAL lets other processes (the CLI beside the desk) read while this one writes. A write is one
``BEGIN IMMEDIATE`` transaction, so two processes never interleave half a change, and a
migration taken this way is applied by one process only. Before every write the file is
checked against the one opened (``identity``): SQLite would write on into a deleted or
replaced file and report success. No ``sqlite3.Error`` leaves this module.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from core.errors import STORE_REMEDY, StoreError
from core.store import identity
from core.store.engine import Conn


class SqliteEngine:
    """A SQLite database (a class, not a dataclass: it owns a connection and a lock)."""

    backend = "sqlite"

    def __init__(self, path: Path | str, *, busy_timeout: float) -> None:
        """Open (and create) the file at path, or a database in memory for ":memory:"; raise StoreError if not."""
        self.in_memory = str(path) == ":memory:"
        self.path: Path | None = None if self.in_memory else Path(path).expanduser()
        self.label = "in memory" if self.path is None else str(self.path)
        self._lock = threading.RLock()
        if self.path is not None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(self.path, "opened", exc.strerror or str(exc)) from exc
        with self._errors("opened"):
            # isolation_level=None: this module opens every transaction itself (BEGIN IMMEDIATE).
            # check_same_thread only guards against unlocked sharing, which the lock rules out.
            self._conn = sqlite3.connect(
                ":memory:" if self.path is None else str(self.path),
                timeout=busy_timeout,
                check_same_thread=False,
                isolation_level=None,
            )
            try:
                if self.path is not None:
                    self._conn.execute("PRAGMA journal_mode=WAL")
                    self._conn.execute("PRAGMA synchronous=NORMAL")
                # Reading the schema fails at once on a file that is not a database.
                self._conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            except sqlite3.Error:
                self._conn.close()
                raise
        # The file just opened: a file deleted or put in its place later is told apart from it.
        self._identity = identity.identify(self.path) if self.path is not None else None

    @contextmanager
    def _errors(self, action: str) -> Iterator[None]:
        """Turn SQLite's errors into a StoreError saying the store could not be ``action`` ("read", ...)."""
        try:
            yield
        except sqlite3.Error as exc:
            raise StoreError(self.path, action, str(exc)) from exc

    @contextmanager
    def read(self) -> Iterator[Conn]:
        """Hold the lock for reading; raise StoreError when it fails."""
        with self._lock, self._errors("read"):
            yield self._conn

    @contextmanager
    def write(self, action: str = "written") -> Iterator[Conn]:
        """Hold the lock for one committed write; raise StoreError when it fails or would be lost."""
        lost = self.problem()
        if lost:  # SQLite would write on into a deleted or replaced file: no one would see it again
            raise StoreError(self.path, action, lost.rstrip("."))
        with self._lock, self._errors(action):
            yield from self._transaction()

    @contextmanager
    def exclusive(self) -> Iterator[Conn]:
        """Hold one BEGIN IMMEDIATE transaction: no other connection writes until it ends."""
        with self._lock, self._errors("opened"):
            yield from self._transaction()

    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield self._conn
            self._conn.execute("COMMIT")
        except BaseException:
            if self._conn.in_transaction:
                self._conn.rollback()
            raise

    def columns(self, conn: Conn, table: str) -> list[str]:
        """Return the columns of a table in order (empty when there is no such table)."""
        return [str(row[1]) for row in conn.execute(f"PRAGMA table_info({table})").fetchall()]

    def primary_key(self, conn: Conn, table: str) -> list[str]:
        """Return the columns of a table's primary key in key order (empty when it has none)."""
        rows = conn.execute(f"PRAGMA table_info({table})").fetchall()
        return [str(r[1]) for r in sorted((r for r in rows if r[5]), key=lambda r: int(r[5]))]

    def tables(self, conn: Conn) -> list[str]:
        """Return the names of the store's tables."""
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").fetchall()
        return [str(r[0]) for r in rows if not str(r[0]).startswith("sqlite_")]

    def error(self, action: str, why: str, remedy: str = "") -> StoreError:
        """Return the StoreError for this store that says it cannot be ``action`` and why."""
        return StoreError(self.path, action, why, remedy=remedy or STORE_REMEDY)

    def problem(self) -> str:
        """Return why what is saved now would not be kept (file deleted, replaced, read-only), or ""."""
        return identity.problem(self.path, self._identity) if self.path is not None else ""

    def journal_mode(self) -> str:
        """Return SQLite's journal mode ("wal" for a file store, "memory" in memory)."""
        with self.read() as c:
            return str(c.execute("PRAGMA journal_mode").fetchone()[0])

    def close(self) -> None:
        """Close the connection; the store is unusable afterwards."""
        with self._lock, self._errors("closed"):
            self._conn.close()
