"""``python -m core worker``: run queued checks from the team store, on any machine that reaches it.

One procrastinate worker (LISTEN/NOTIFY wakes it when a check is queued; it polls as well) runs up
to ``concurrency`` checks at once, and beside it a watch for jobs whose worker stopped sending
heartbeats (killed, frozen, cut off): each such job goes back on the queue, and the next free
worker starts it again. Started against a database that is down, or losing it on the way, the
worker says so and keeps trying until it is back; a server that answers and refuses (no such
database, a wrong password) stops it at once with status 2 and what to change. SIGINT or SIGTERM
stops it after the checks it is running. It refuses to check anything itself: core.jobs.work runs
each job.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import time
from collections.abc import Callable
from typing import TextIO

from procrastinate import App

from core.errors import StoreError, StoreUnreachable
from core.jobs.limiter import PostgresHostLimiter
from core.jobs.queue import TASK, worker_app
from core.jobs.records import worker_name
from core.jobs.schema import ensure_schema
from core.jobs.work import Worker
from core.settings import DB_ENV, Settings
from core.store import Store, is_postgres, shown

#: What a worker needs, said when it is started without it.
NEEDS_POSTGRES = (
    "python -m core worker runs the checks queued in a team store on PostgreSQL: set VERBATIM_DB (or --db) to its"
    " postgresql:// URL. With a SQLite store there is no queue: the desk checks each brief itself."
)

_log = logging.getLogger("verbatim.jobs")


def main(args: argparse.Namespace, err: TextIO) -> int:
    """Return the exit status of ``worker``: 2 when the store is not PostgreSQL or refuses it, else 0 once stopped."""
    url = args.db or os.environ.get(DB_ENV, "")
    if not is_postgres(url):
        err.write(f"error: {NEEDS_POSTGRES}\n")
        return 2
    settings = Settings.from_env()
    changes = {"worker_heartbeat": args.heartbeat, "worker_stalled_after": args.stalled_after}
    settings = settings.with_(**{k: v for k, v in changes.items() if v is not None})
    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
    logging.getLogger("psycopg.pool").setLevel(logging.ERROR)  # the worker says an unreachable store once a try
    return serve(url, settings, concurrency=max(1, args.concurrency), err=err, open_store=lambda: Store(url))


def serve(
    url: str,
    settings: Settings,
    *,
    concurrency: int = 1,
    err: TextIO,
    open_store: Callable[[], Store],
) -> int:
    """Run jobs until SIGINT or SIGTERM (0), waiting out a server that is away; 2 when the server refuses."""
    stop = _Stop()
    name = worker_name()

    def say(text: str) -> None:
        err.write(f"worker {name}: {text}\n")
        err.flush()

    while not stop.asked:
        try:
            ensure_schema(url)
            store = open_store()
        except StoreUnreachable as exc:
            say(
                f"cannot reach the team store at {shown(url)}: {exc.why}. Trying again in"
                f" {settings.worker_retry_every:g} s; start the database, or check VERBATIM_DB (--db)."
            )
            stop.sleep(settings.worker_retry_every)
            continue
        except StoreError as exc:  # the server answers and refuses: waiting will not change that
            say(f"stopped: {exc}")
            return 2
        limiter = PostgresHostLimiter(url, settings.max_per_host)
        worker = Worker(url, store, limiter, settings, name=name, say=say)
        app = worker_app(url, worker.run)
        say(f"running up to {concurrency} checks at once from {shown(url)}")
        try:
            asyncio.run(_run(app, settings, concurrency, name, stop, say))
        except Exception as exc:  # the database went away under procrastinate: start again once it is back
            again = f"trying again in {settings.worker_retry_every:g} s"
            say(f"lost the team store at {shown(url)} ({_brief(exc)}); {again}")
        finally:
            limiter.close()
            store.close()
        if not stop.asked:
            stop.sleep(settings.worker_retry_every)
    say("stopped")
    return 0


def _brief(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


class _Stop:
    """Whether SIGINT/SIGTERM asked the worker to stop (a class, not a dataclass: it holds the task to cancel)."""

    def __init__(self) -> None:
        self.asked = False
        self.task: asyncio.Task[None] | None = None

    def __call__(self) -> None:
        self.asked = True
        if self.task is not None:
            self.task.cancel()  # procrastinate then finishes the checks it is running, and starts none

    def sleep(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        with _signals(self):
            while not self.asked and time.monotonic() < end:
                time.sleep(0.05)


@contextlib.contextmanager
def _signals(stop: _Stop):  # type: ignore[no-untyped-def]
    """Route SIGINT and SIGTERM to stop while out of the event loop."""
    previous = {s: signal.signal(s, lambda *_: stop()) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


async def _run(
    app: App, settings: Settings, concurrency: int, name: str, stop: _Stop, say: Callable[[str], None]
) -> None:
    loop = asyncio.get_running_loop()
    for s in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(s, stop)
    async with app.open_async():
        work = asyncio.create_task(
            app.run_worker_async(
                name=name,
                concurrency=concurrency,
                install_signal_handlers=False,
                update_heartbeat_interval=settings.worker_heartbeat,
                stalled_worker_timeout=settings.worker_stalled_after,
                fetch_job_polling_interval=max(1.0, settings.worker_heartbeat),
                delete_jobs="successful",  # the job records keep the history; the queue stays small
            )
        )
        stop.task = work
        watch = asyncio.create_task(_retry_stalled(app, settings, say))
        try:
            await work
        except asyncio.CancelledError:
            if not stop.asked:
                raise
        finally:
            stop.task = None
            watch.cancel()
            for s in (signal.SIGINT, signal.SIGTERM):
                loop.remove_signal_handler(s)
    if not stop.asked:  # procrastinate stops on its own when a heartbeat cannot be written
        raise ConnectionError("the worker could not write its heartbeat")


async def _retry_stalled(app: App, settings: Settings, say: Callable[[str], None]) -> None:
    """Put back on the queue every check whose worker stopped sending heartbeats."""
    while True:
        await asyncio.sleep(settings.worker_heartbeat)
        try:
            stalled = await app.job_manager.get_stalled_jobs(
                task_name=TASK, seconds_since_heartbeat=settings.worker_stalled_after
            )
            for job in stalled:
                try:
                    await app.job_manager.retry_job(job)
                except Exception as exc:  # another worker put it back first
                    _log.debug("job %s was put back by another worker: %s", job.id, exc)
                    continue
                say(f"job {job.task_kwargs.get('job_id')}: its worker stopped; queued again")
            await app.job_manager.prune_stalled_workers(settings.worker_stalled_after)
        except Exception as exc:  # the database is away: the worker loop notices and reconnects
            _log.debug("stalled-job watch: %s", exc)
