"""The face both database engines show the store: statements with ``?`` placeholders, reads and committed writes.

``Conn`` is what a query is run on (``sqlite3.Connection`` is one as it is; the PostgreSQL
engine wraps psycopg's connection to translate the placeholders), ``Engine`` what opens them.
Every statement of the store is written once, in the SQL both engines read; an engine never
lets its driver's exceptions out: each becomes a ``StoreError`` naming the store and what to do.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol

from core.errors import StoreError


class Cursor(Protocol):
    """The result of one statement: its rows and how many rows it changed."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Conn(Protocol):
    """A connection inside one read or one transaction: run a statement with ``?`` placeholders."""

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Cursor: ...


class Engine(Protocol):
    """One database the store lives in (SQLite or PostgreSQL), and how its connections are had."""

    #: "sqlite" or "postgresql".
    backend: str
    #: How messages name the store (a path, "in memory", or host:port/database).
    label: str
    #: The SQLite file (None in memory and on PostgreSQL), and whether the store is in memory.
    path: Path | None
    in_memory: bool

    def read(self) -> AbstractContextManager[Conn]:
        """Return a context holding a connection to read on; errors become StoreError ("read")."""
        ...

    def write(self, action: str = "written") -> AbstractContextManager[Conn]:
        """Return a context holding one transaction, committed at its end; errors become StoreError."""
        ...

    def exclusive(self) -> AbstractContextManager[Conn]:
        """Return a context holding one transaction no other process runs at the same time (migrations)."""
        ...

    def columns(self, conn: Conn, table: str) -> list[str]:
        """Return the columns of a table in order (empty when there is no such table)."""
        ...

    def primary_key(self, conn: Conn, table: str) -> list[str]:
        """Return the columns of a table's primary key in key order (empty when it has none)."""
        ...

    def tables(self, conn: Conn) -> list[str]:
        """Return the names of the store's tables."""
        ...

    def error(self, action: str, why: str, remedy: str = "") -> StoreError:
        """Return the StoreError for this store that says it cannot be ``action`` and why (remedy: the default)."""
        ...

    def problem(self) -> str:
        """Return why what is saved now would not be kept, or "" (a SQLite file deleted under the desk)."""
        ...

    def close(self) -> None:
        """Release the engine's connections; the store is unusable afterwards."""
        ...
