"""Bodies stored by content: one ``bodies`` row per sha256, however many fetches share the bytes.

The key is always computed here from the bytes, never taken on trust from the record that
brings them, so a body can only be found under its own digest. An empty body has no row (a
failed fetch keeps its metadata alone). ``move_bodies`` is migration 0002's Python step: it moves
the bodies that ``sources`` held inline, one at a time (a store holds hundreds of large pages).
"""

from __future__ import annotations

import hashlib

from core.store.engine import Conn, Engine


def digest(body: bytes) -> str:
    """Return the hex sha256 of body, the key it is stored under."""
    return hashlib.sha256(body).hexdigest()


def keep(conn: Conn, body: bytes) -> str:
    """Store body once under its sha256 (nothing when it is already there or empty); return the sha256 ("" if empty)."""
    if not body:
        return ""
    key = digest(body)
    if conn.execute("SELECT 1 FROM bodies WHERE sha256 = ?", (key,)).fetchone() is None:
        # Two writers of the same new body at once: the key lets one insert through, and both are the same bytes.
        conn.execute("INSERT INTO bodies (sha256, body) VALUES (?, ?) ON CONFLICT (sha256) DO NOTHING", (key, body))
    return key


def move_bodies(engine: Engine, conn: Conn) -> None:
    """Move every body held in ``sources.body`` into ``bodies``, setting ``sources.sha256`` to the bytes' own digest."""
    ids = [int(r[0]) for r in conn.execute("SELECT id FROM sources WHERE body IS NOT NULL ORDER BY id").fetchall()]
    for row_id in ids:
        stored, sha = conn.execute("SELECT body, sha256 FROM sources WHERE id = ?", (row_id,)).fetchone()
        key = keep(conn, bytes(stored))
        if key and key != sha:  # a copy saved without its digest, or with another's: the bytes decide
            conn.execute("UPDATE sources SET sha256 = ? WHERE id = ?", (key, row_id))
