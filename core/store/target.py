"""What a store target names: a SQLite file, ":memory:", or a PostgreSQL database by URL, and how to show it.

A ``postgresql://`` URL may carry a password; every message that names the store shows it
through ``shown()``, which keeps host, port and database and drops the credentials.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from core.settings import POSTGRES_SCHEMES


def is_postgres(target: Path | str) -> bool:
    """Return whether the target is a PostgreSQL URL rather than a SQLite path."""
    return isinstance(target, str) and target.lower().startswith(POSTGRES_SCHEMES)


def shown(target: Path | str) -> str:
    """Return the target as messages show it: a path as is, a URL as host:port/database (no user, no password)."""
    if not is_postgres(target):
        return str(target)
    assert isinstance(target, str)
    parts = urlsplit(target)
    try:
        port = parts.port
    except ValueError:  # a port that is not a number: show none rather than fail while reporting a failure
        port = None
    host = parts.hostname or "localhost"
    if ":" in host:  # an IPv6 address, bracketed as in the URL
        host = f"[{host}]"
    database = parts.path.lstrip("/") or "postgres"
    return f"{host}:{port or 5432}/{database}"
