"""Job records and per-source progress rows (migration 0004): what a queued check is and how far it got.

One row per queued check in ``jobs`` (its run id, chosen when queued; the brief file; the fetch
settings it was asked with; who queued it; its state, attempts and error) and one row per source
in ``job_sources``, written by the worker as the check goes and read by the desk. State moves
queued -> running -> done | failed, and only forward: a record already done or failed is never
started again, so a retried job does no work twice. It refuses to run checks or touch the queue.
"""

from __future__ import annotations

import json
import os
import socket
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import psycopg

from core.settings import Settings
from core.store import now_iso

Connection = psycopg.Connection[tuple[Any, ...]]


class JobState(StrEnum):
    """Where a queued check is."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


@dataclass(frozen=True, kw_only=True)
class JobRecord:
    """One queued check as the desk shows it and a worker runs it."""

    job_id: int
    run_id: str
    brief_name: str
    state: JobState
    attempts: int = 0
    error: str = ""
    queued_by: str = ""
    worker: str = ""
    claims: int = 0
    sources: int = 0
    allow_private: bool = False
    allowed_domains: tuple[str, ...] = ()
    ocr: bool = False
    refresh: bool = False
    offline: bool = False
    queued_at: str = field(default="", compare=False)
    started_at: str = field(default="", compare=False)
    finished_at: str = field(default="", compare=False)

    def settings(self, base: Settings) -> Settings:
        """Return base with the fetch settings this check was asked with."""
        return base.with_(allow_private=self.allow_private, allowed_domains=self.allowed_domains, ocr=self.ocr)


@dataclass(frozen=True)
class SourceProgress:
    """One source of a job: its core.models.FetchState value and the detail shown beside it."""

    url: str
    state: str
    detail: str = ""


_COLUMNS = (
    "job_id, run_id, brief_name, state, attempts, error, queued_by, worker, claims, sources,"
    " allow_private, allowed_domains, ocr, refresh, offline, queued_at, started_at, finished_at"
)


def _record(row: tuple[Any, ...]) -> JobRecord:
    (job_id, run_id, name, state, attempts, error, by, worker, claims, sources) = row[:10]
    (private, domains, ocr, refresh, offline, queued_at, started_at, finished_at) = row[10:]
    return JobRecord(
        job_id=int(job_id),
        run_id=run_id,
        brief_name=name,
        state=JobState(state),
        attempts=attempts,
        error=error,
        queued_by=by,
        worker=worker,
        claims=claims,
        sources=sources,
        allow_private=bool(private),
        allowed_domains=tuple(json.loads(domains)),
        ocr=bool(ocr),
        refresh=bool(refresh),
        offline=bool(offline),
        queued_at=queued_at,
        started_at=started_at,
        finished_at=finished_at,
    )


def worker_name() -> str:
    """Return this process's name in job records: host and process id."""
    return f"{socket.gethostname()}:{os.getpid()}"


def add_job(
    conn: Connection,
    *,
    run_id: str,
    brief_name: str,
    brief_raw: bytes,
    settings: Settings,
    refresh: bool,
    offline: bool,
    queued_by: str,
    claims: int,
    sources: int,
) -> JobRecord:
    """Insert a queued job's record; return it."""
    row = conn.execute(
        "INSERT INTO jobs (run_id, brief_name, brief_raw, allow_private, allowed_domains, ocr, refresh, offline,"  # noqa: S608  # _COLUMNS: a constant, no input
        " queued_by, state, claims, sources, queued_at) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)"
        f" RETURNING {_COLUMNS}",
        (
            run_id,
            brief_name,
            brief_raw,
            int(settings.allow_private),
            json.dumps(list(settings.allowed_domains)),
            int(settings.ocr),
            int(refresh),
            int(offline),
            queued_by,
            JobState.QUEUED.value,
            claims,
            sources,
            now_iso(),
        ),
    ).fetchone()
    assert row is not None  # INSERT ... RETURNING returns the row it inserted
    return _record(row)


def start_job(conn: Connection, job_id: int, worker: str, *, resumed: bool = False) -> JobRecord | None:
    """Mark a queued (or interrupted running) job running; None when done, failed or unknown.

    Each start is one attempt more, except the same worker's resuming after the database was away:
    attempts count the workers that stopped mid-job (killed, out of memory), not outages.
    """
    row = conn.execute(
        "UPDATE jobs SET state = %s, attempts = attempts + %s, started_at = %s, worker = %s, error = ''"  # noqa: S608  # a constant
        f" WHERE job_id = %s AND state IN (%s, %s) RETURNING {_COLUMNS}",
        (
            JobState.RUNNING.value,
            0 if resumed else 1,
            now_iso(),
            worker,
            job_id,
            JobState.QUEUED.value,
            JobState.RUNNING.value,
        ),
    ).fetchone()
    return _record(row) if row is not None else None


def end_job(conn: Connection, job_id: int, state: JobState, error: str = "") -> None:
    """Mark a running job done or failed (with the message for the editor)."""
    conn.execute(
        "UPDATE jobs SET state = %s, error = %s, finished_at = %s WHERE job_id = %s",
        (state.value, error, now_iso(), job_id),
    )


def brief_file(conn: Connection, job_id: int) -> bytes:
    """Return the brief file a job was queued with (b"" when unknown)."""
    row = conn.execute("SELECT brief_raw FROM jobs WHERE job_id = %s", (job_id,)).fetchone()
    return bytes(row[0]) if row is not None and row[0] is not None else b""


def get_job(conn: Connection, job_id: int) -> JobRecord | None:
    """Return one job's record, or None when no job has that id."""
    row = conn.execute(f"SELECT {_COLUMNS} FROM jobs WHERE job_id = %s", (job_id,)).fetchone()  # noqa: S608
    return _record(row) if row is not None else None


def list_jobs(conn: Connection, limit: int = 50) -> list[JobRecord]:
    """Return the newest jobs first."""
    query = f"SELECT {_COLUMNS} FROM jobs ORDER BY job_id DESC LIMIT %s"  # noqa: S608  # a constant, no input
    rows = conn.execute(query, (limit,)).fetchall()
    return [_record(r) for r in rows]


def note_progress(conn: Connection, job_id: int, url: str, state: str, detail: str) -> None:
    """Record where one source of a job is."""
    conn.execute(
        "INSERT INTO job_sources (job_id, url, state, detail, updated_at) VALUES (%s,%s,%s,%s,%s)"
        " ON CONFLICT (job_id, url) DO UPDATE SET state = excluded.state, detail = excluded.detail,"
        " updated_at = excluded.updated_at",
        (job_id, url, state, detail, now_iso()),
    )


def progress(conn: Connection, job_id: int) -> list[SourceProgress]:
    """Return every source of a job with its state, in the order first noted."""
    rows = conn.execute(
        "SELECT url, state, detail FROM job_sources WHERE job_id = %s ORDER BY url", (job_id,)
    ).fetchall()
    return [SourceProgress(u, s, d) for u, s, d in rows]
