"""The task queue: procrastinate on the team store's PostgreSQL, one task "check a brief".

``queue_check`` writes the job's record (core.jobs.records) and defers the task with the
record's id; the run id is chosen here, once, so a retried job saves the same run. The task is
deferred with a ``queueing_lock`` of its run id, so one run is never queued twice. A worker's
``app`` (``worker_app``) registers the task with the function that runs it. It refuses to run
checks itself: core.jobs.work does, in a worker.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable
from datetime import UTC, datetime

import psycopg
from procrastinate import App, PsycopgConnector
from procrastinate import exceptions as queue_errors

from core.fetch.shown import masked_brief
from core.jobs import records
from core.jobs.schema import connect, failed, unreachable
from core.models import Brief
from core.settings import Settings

#: The task's name in procrastinate's tables, and the queue it goes on.
TASK = "verbatim.check_brief"
QUEUE = "checks"


def new_run_id() -> str:
    """Return a fresh run id, in the store's spelling (time first, so that ids sort by time)."""
    created = datetime.now(UTC).isoformat(timespec="milliseconds")
    return f"{created[:19].replace(':', '').replace('-', '')}-{secrets.token_hex(3)}"


def queue_app(url: str) -> App:
    """Return a procrastinate app on the team store, for deferring (open it before use)."""
    return App(connector=PsycopgConnector(conninfo=url))


def worker_app(url: str, run: Callable[[int], None]) -> App:
    """Return a procrastinate app whose check task calls run(job_id)."""
    app = queue_app(url)

    def check_brief(job_id: int) -> None:
        run(job_id)

    app.task(name=TASK, queue=QUEUE)(check_brief)
    return app


def queue_check(
    url: str,
    brief: Brief,
    settings: Settings,
    *,
    refresh: bool = False,
    offline: bool = False,
    queued_by: str = "",
) -> records.JobRecord:
    """Queue a check of brief with these fetch settings; return its record (StoreError: the queue is unreachable)."""
    run_id = new_run_id()
    with connect(url) as conn:
        try:
            record = records.add_job(
                conn,
                run_id=run_id,
                brief_name=brief.name,
                brief_raw=masked_brief(brief).raw,  # kept in the team store: no URL's password in it
                settings=settings,
                refresh=refresh,
                offline=offline,
                queued_by=queued_by,
                claims=len(brief.claims),
                sources=len({c.url for c in brief.claims}),
            )
        except psycopg.OperationalError as exc:
            raise failed(url, exc, "written") from exc
        app = queue_app(url)
        try:
            with app.open():
                app.configure_task(TASK, queue=QUEUE, queueing_lock=run_id).defer(job_id=record.job_id)
        except (queue_errors.ConnectorException, psycopg.Error) as exc:
            # The record without its task would wait for ever: say so in it, and to the editor.
            why = str(exc).strip() or type(exc).__name__
            with contextlib.suppress(psycopg.Error):
                records.end_job(conn, record.job_id, records.JobState.FAILED, f"It could not be queued: {why}.")
            raise unreachable(url, f"the check could not be queued ({why})", "written") from exc
    return record
