"""Checks as jobs on a team store (PostgreSQL): the queue, the workers, the team-wide per-host limit.

``queue`` puts a check on procrastinate's queue with its ``records`` row (run id chosen when
queued, the brief file, the fetch settings, who asked); ``worker`` runs ``python -m core worker``;
``work`` runs one job and saves its run once; ``limiter`` holds ``max_per_host`` across every
worker; ``schema`` applies the queue's tables once. With a SQLite store none of this is used:
the desk checks in its own process.
"""

from __future__ import annotations

from core.jobs.limiter import PostgresHostLimiter
from core.jobs.queue import queue_check
from core.jobs.records import JobRecord, JobState, SourceProgress, get_job, list_jobs, progress
from core.jobs.schema import connect, ensure_schema

__all__ = [
    "JobRecord",
    "JobState",
    "PostgresHostLimiter",
    "SourceProgress",
    "connect",
    "ensure_schema",
    "get_job",
    "list_jobs",
    "progress",
    "queue_check",
]
