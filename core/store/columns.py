"""Columns added to the store after its first schema, added in place to a store file made earlier.

Each is an ``ALTER TABLE ... ADD COLUMN`` with a default, run only when the column is
missing: a store file of any earlier version opens unchanged otherwise, and nothing is ever
dropped or rewritten. (A later issue folds these into numbered SQL migrations.)
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

#: table, column, declaration: what each column records, and why its default is safe for old rows.
ADDED = (
    # JSON list of [host, address] pairs a fetch connected to; '' = not recorded (a copy older than the column).
    ("sources", "addresses", "TEXT NOT NULL DEFAULT ''"),
    # Raised by one on every saved change of a decision: a tab's change is kept only on the version it saw.
    ("decisions", "version", "INTEGER NOT NULL DEFAULT 0"),
    # The MCP client's name (the agent that asked) on runs made through the gate; '' = an editor or the CLI.
    ("runs", "client", "TEXT NOT NULL DEFAULT ''"),
)


def add_missing(conn: sqlite3.Connection) -> None:
    """Add every column of ADDED that the store's tables lack (the caller commits)."""
    for table, column, declaration in ADDED:
        have = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        if column not in have:
            conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")


def apply_0003(conn: sqlite3.Connection) -> None:
    """Apply migrations/0003_decision_events.sql, each statement once (until the migration runner lands)."""
    sql = re.sub(r"--[^\n]*", "", (Path(__file__).with_name("migrations") / "0003_decision_events.sql").read_text())
    for statement in filter(str.strip, sql.split(";")):
        try:
            conn.execute(statement)
        except sqlite3.OperationalError as exc:
            if "duplicate column" not in str(exc):  # a store this code opened before: the column is there
                raise
