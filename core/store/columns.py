"""Columns added to the store before numbered migrations, added in place to a store file made earlier.

A store file of an earlier Verbatim has the tables of migration 0001 but may lack these
columns; when 0001 is recorded for it, each missing one is added as an ``ALTER TABLE ... ADD
COLUMN`` with a default, so nothing is dropped or rewritten. A store made by migrations has
them all from 0001 on, and later columns come in later migrations, never here.
"""

from __future__ import annotations

from core.store.engine import Conn, Engine

#: table, column, declaration: what each column records, and why its default is safe for old rows.
ADDED = (
    # JSON list of [host, address] pairs a fetch connected to; '' = not recorded (a copy older than the column).
    ("sources", "addresses", "TEXT NOT NULL DEFAULT ''"),
    # Raised by one on every saved change of a decision: a tab's change is kept only on the version it saw.
    ("decisions", "version", "INTEGER NOT NULL DEFAULT 0"),
    # The MCP client's name (the agent that asked) on runs made through the gate; '' = an editor or the CLI.
    ("runs", "client", "TEXT NOT NULL DEFAULT ''"),
)


def add_missing(engine: Engine, conn: Conn) -> None:
    """Add every column of ADDED that the store's tables lack (inside the caller's transaction)."""
    for table, column, declaration in ADDED:
        if column not in engine.columns(conn, table):
            conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")
