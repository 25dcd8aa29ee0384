"""One per-host limit for the whole team: HostLimiter's slots as PostgreSQL session advisory locks.

A slot is the lock (hash of the host, slot number) held by this process's dedicated connection,
so ``Settings.max_per_host`` holds across every worker on every machine, not per process; a
worker that dies loses its connection, and the server releases its slots at once. Free slots
elsewhere are noticed by polling (``cond.wait`` never sleeps longer than ``poll`` seconds), since
another process's release cannot wake this one. While the database is unreachable no slot is
free: fetches wait, and resume once a new connection is made. It refuses to schedule: that
stays in core.fetch.concurrency.
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
import time

import psycopg

from core.fetch.concurrency import HostLimiter
from core.jobs.schema import connect


def host_lock_key(host: str) -> int:
    """Return the signed 32-bit advisory lock key of a host (the same on every machine)."""
    return int.from_bytes(hashlib.sha256(host.encode("utf-8")).digest()[:4], "big", signed=True)


class _PollingCondition(threading.Condition):
    """A condition whose waits end after ``poll`` seconds at most: a slot freed by another process wakes no one."""

    def __init__(self, poll: float) -> None:
        super().__init__()
        self.poll = poll

    def wait(self, timeout: float | None = None) -> bool:
        return super().wait(self.poll if timeout is None else min(timeout, self.poll))


class PostgresHostLimiter(HostLimiter):
    """HostLimiter's interface over advisory locks (a class, not a dataclass: it owns a connection)."""

    def __init__(self, url: str, per_host: int, *, poll: float = 0.05, reconnect_every: float = 1.0) -> None:
        super().__init__(per_host)
        self.url = url
        self.cond = _PollingCondition(poll)
        self.reconnect_every = reconnect_every
        self._conn: psycopg.Connection[tuple[object, ...]] | None = None
        self._next_connect = 0.0
        self._slots: dict[str, list[int]] = {}  # host -> slot numbers this process's connection holds

    def _connection(self) -> psycopg.Connection[tuple[object, ...]] | None:
        if self._conn is None and time.monotonic() >= self._next_connect:
            self._next_connect = time.monotonic() + self.reconnect_every
            try:
                self._conn = connect(self.url)
            except Exception:  # unreachable: no slot is free until a later try connects
                self._conn = None
        return self._conn

    def _lost(self) -> None:
        """Forget a broken connection: the server has released every slot it held."""
        if self._conn is not None:
            with contextlib.suppress(psycopg.Error):
                self._conn.close()
        self._conn = None
        self._slots.clear()

    def try_take(self, host: str) -> bool:
        """Take a team-wide slot for host if one is free (the caller holds ``cond``); return whether it did."""
        if self.busy[host] >= self.per_host:
            return False
        conn = self._connection()
        if conn is None:
            return False
        held = self._slots.setdefault(host, [])
        key = host_lock_key(host)
        for slot in range(self.per_host):
            if slot in held:  # a session's advisory locks are re-entrant: never take one twice
                continue
            try:
                row = conn.execute("SELECT pg_try_advisory_lock(%s, %s)", (key, slot)).fetchone()
            except psycopg.Error:
                self._lost()
                return False
            if row is not None and row[0]:
                held.append(slot)
                self.busy[host] += 1
                return True
        return False

    def release(self, host: str) -> None:
        """Give back a slot for host (to the whole team) and wake anyone waiting here."""
        with self.cond:
            self.busy[host] -= 1
            held = self._slots.get(host)
            if held and self._conn is not None:
                slot = held.pop()
                try:
                    self._conn.execute("SELECT pg_advisory_unlock(%s, %s)", (host_lock_key(host), slot))
                except psycopg.Error:
                    self._lost()
            self.cond.notify_all()

    def close(self) -> None:
        """Close the connection, giving back every slot it holds."""
        with self.cond:
            self._lost()
