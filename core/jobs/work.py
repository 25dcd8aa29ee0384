"""Run one queued check in a worker: read the brief it was queued with, check it, save the run once.

The run is saved under the run id chosen at queue time (``save_run(..., run_id=...)``: a second
save of the same id changes nothing), and only then is the record marked done, so a worker that
dies at any point leaves either nothing or the whole run, and the retry finishes the job. A brief
that cannot be read ends the job failed with the brief's own message; the other jobs go on. A
database that goes away mid-check makes the job wait and start the check again once it is back:
the sources fetched so far are in the store, so the second pass reads them from there.
It refuses to draw or decide anything: core.check does the checking.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import psycopg

from core.brief import BriefError, read_brief
from core.check import check_brief
from core.errors import StoreUnreachable
from core.fetch import Fetcher
from core.fetch.concurrency import HostLimiter
from core.jobs import records
from core.jobs.records import JobState
from core.jobs.schema import connect
from core.models import Brief, FetchState
from core.report import to_json
from core.settings import Settings
from core.store import Store

_log = logging.getLogger("verbatim.jobs")

#: A database that went away: the job waits for it instead of failing (one that answers and refuses is no outage).
_AWAY = (StoreUnreachable, psycopg.OperationalError)


@dataclass
class Worker:
    """What every job of one worker process shares: the queue's URL, the store, the team's host limit."""

    url: str
    store: Store
    limiter: HostLimiter
    settings: Settings
    name: str = ""
    #: Called with each job's state changes (tests and the CLI's log); never raises into the job.
    say: Callable[[str], None] = _log.info

    def run(self, job_id: int) -> None:
        """Run job job_id to its end (done or failed), waiting out any time the database is away."""
        resumed = False
        while True:
            try:
                self._attempt(job_id, resumed=resumed)
                return
            except _AWAY as exc:
                self.say(f"job {job_id}: the team store is unreachable ({exc}); waiting to resume")
                self._wait_for_database()
                resumed = True  # an outage is no attempt of its own

    def _wait_for_database(self) -> None:
        while True:
            time.sleep(self.settings.worker_retry_every)
            try:
                connect(self.url).close()
                return
            except StoreUnreachable:
                continue

    def _attempt(self, job_id: int, *, resumed: bool = False) -> None:
        with connect(self.url) as conn:
            record = records.start_job(conn, job_id, self.name or records.worker_name(), resumed=resumed)
            if record is None:
                return  # done or failed already (a retry of a job that finished), or never recorded
            self.say(f"job {job_id}: running (attempt {record.attempts}) {record.brief_name}")
            if self.store.load_run(record.run_id) is not None:
                # An attempt that died after saving the run and before marking the job done.
                records.end_job(conn, job_id, JobState.DONE)
                return
            if record.attempts > self.settings.job_max_attempts:
                records.end_job(conn, job_id, JobState.FAILED, _gave_up(record))
                return
            settings = record.settings(self.settings)
            raw = records.brief_file(conn, job_id)
            try:
                brief = read_brief(raw, record.brief_name, settings)
            except BriefError as exc:
                records.end_job(conn, job_id, JobState.FAILED, str(exc))
                self.say(f"job {job_id}: failed: {exc}")
                return
            try:
                report_json = self._check(conn, record, brief, settings)
            except _AWAY:
                raise
            except Exception as exc:  # a bug: the job says so, the worker goes on with the others
                records.end_job(conn, job_id, JobState.FAILED, f"The check stopped on an internal error: {exc!r}.")
                raise
            self.store.save_run(report_json, raw, record.brief_name, run_id=record.run_id)
            records.end_job(conn, job_id, JobState.DONE)
            self.say(f"job {job_id}: done, run {record.run_id}")

    def _check(
        self, conn: records.Connection, record: records.JobRecord, brief: Brief, settings: Settings
    ) -> dict[str, Any]:
        def progress(url: str, state: FetchState, detail: str) -> None:
            records.note_progress(conn, record.job_id, url, str(state), detail)

        with Fetcher(settings, self.store, limiter=self.limiter) as fetcher:
            report = check_brief(
                brief,
                settings,
                store=self.store,
                refresh=record.refresh,
                offline=record.offline,
                progress=progress,
                fetcher=fetcher,
            )
        # The stored JSON names its own run, as the desk's and the CLI's runs do.
        return to_json(replace(report, run_id=record.run_id))


def _gave_up(record: records.JobRecord) -> str:
    return (
        f"The check of {record.brief_name} was started {record.attempts - 1} times and never finished: a worker"
        " stopped each time (killed, or out of memory). Check the workers' logs, then queue the brief again."
    )
