"""Fetching many sources at once: a global thread limit, a per-host limit, progress on the caller's thread.

``fetch_each`` runs one fetch function over distinct keys on at most ``threads`` worker
threads; a worker picks the next key whose host has a free ``HostLimiter`` slot, and that
slot serves the key's first request, so a host never sees more than ``per_host`` requests at
once. Events go through a queue and are reported from the calling thread (UI code may only
draw from the thread that called it). A bug in one fetch is re-raised on the caller's thread.
This module knows nothing of HTTP: it schedules.
"""

from __future__ import annotations

import queue
import threading
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import httpx

from core.models import FetchState, Source

#: url (or key), state, detail: what a fetch reports as it goes.
Progress = Callable[[str, FetchState, str], None]


def host_key(url: str) -> str:
    """Return the lower-case ASCII host of a URL, the key of the per-host limit ("" when unparsable)."""
    try:
        return httpx.URL(url.strip()).raw_host.decode("ascii").lower().rstrip(".")
    except (httpx.InvalidURL, UnicodeError, ValueError):
        return ""


class HostLimiter:
    """At most ``per_host`` slots per host (a class, not a dataclass: it owns a condition variable).

    A slot a worker took when it picked a key is held for that thread (``held``) and handed to
    the key's first request to the same host by ``slot``, instead of being given back and waited for again.
    """

    def __init__(self, per_host: int) -> None:
        self.per_host = max(1, per_host)
        self.cond = threading.Condition()
        self.busy: Counter[str] = Counter()
        self._held = threading.local()

    def try_take(self, host: str) -> bool:
        """Take a slot for host if one is free (the caller holds ``cond``); return whether it did."""
        if self.busy[host] >= self.per_host:
            return False
        self.busy[host] += 1
        return True

    def acquire(self, host: str) -> None:
        """Wait for and take a slot for host."""
        with self.cond:
            while not self.try_take(host):
                self.cond.wait()

    def release(self, host: str) -> None:
        """Give back a slot for host and wake anyone waiting."""
        with self.cond:
            self.busy[host] -= 1
            self.cond.notify_all()

    def hold(self, host: str | None) -> None:
        """Keep the slot just taken for host (None: none taken) for this thread's next ``slot``."""
        self._held.host = host

    def drop_held(self) -> None:
        """Give back the slot this thread holds, if any."""
        held = getattr(self._held, "host", None)
        if held is not None:
            self._held.host = None
            self.release(held)

    @contextmanager
    def slot(self, host: str) -> Iterator[None]:
        """Hold a slot for host for the duration: the one this thread holds for it, else a new one."""
        if getattr(self._held, "host", None) == host:
            self._held.host = None
        else:
            self.drop_held()
            self.acquire(host)
        try:
            yield
        finally:
            self.release(host)


def fetch_each(
    keys: Sequence[str],
    fetch: Callable[[str, Progress], Source],
    limiter: HostLimiter,
    threads: int,
    progress: Progress,
) -> dict[str, Source]:
    """Return fetch(key) for every distinct key, at most ``threads`` at once; ``progress`` runs on this thread."""
    # None is a worker saying it is done.
    events: queue.Queue[tuple[str, FetchState, str] | None] = queue.Queue()
    results: dict[str, Source] = {}
    errors: list[BaseException] = []
    pending = list(keys)

    def emit(key: str, state: FetchState, detail: str) -> None:
        events.put((key, state, detail))

    def worker() -> None:
        try:
            work()
        finally:
            events.put(None)

    def work() -> None:
        while True:
            with limiter.cond:
                picked = None
                while picked is None:
                    if not pending:
                        return
                    for i, key in enumerate(pending):
                        host = host_key(key)
                        if not host or limiter.try_take(host):
                            picked = pending.pop(i)
                            limiter.hold(host or None)
                            break
                    else:
                        limiter.cond.wait()
            try:
                results[picked] = fetch(picked, emit)
            except BaseException as e:  # a bug: re-raised on the caller's thread below
                errors.append(e)
                emit(picked, FetchState.FAILED, f"internal error: {e!r}")
            finally:
                limiter.drop_held()

    for key in pending:
        emit(key, FetchState.WAITING, "queued")
    workers = [
        threading.Thread(target=worker, name=f"verbatim-fetch-{i}", daemon=True)
        for i in range(min(threads, len(pending)))
    ]
    for t in workers:
        t.start()
    running = len(workers)
    while running:
        event = events.get()
        if event is None:
            running -= 1
        else:
            progress(*event)
    for t in workers:
        t.join()
    if errors:
        raise errors[0]
    return results
