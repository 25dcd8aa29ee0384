"""Fixtures of the worker tests: the queue on the throwaway PostgreSQL, a results store, one worker in process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.jobs import PostgresHostLimiter, ensure_schema
from core.jobs.work import Worker
from core.settings import Settings
from core.store import Store


@pytest.fixture
def team_url(pg_url: str) -> str:
    """A PostgreSQL database with the queue's tables and the job records."""
    ensure_schema(pg_url)
    return pg_url


@pytest.fixture
def results(tmp_path: Path) -> Path:
    """Where workers keep runs and sources (a SQLite file until the store on PostgreSQL lands)."""
    return tmp_path / "results.sqlite3"


@pytest.fixture
def worker(team_url: str, results: Path) -> Iterator[Worker]:
    """One worker in this process, as ``python -m core worker`` builds it, with its said lines in ``said``."""
    store = Store(results)
    limiter = PostgresHostLimiter(team_url, Settings().max_per_host)
    said: list[str] = []
    yield Worker(team_url, store, limiter, Settings(worker_retry_every=0.2), name="test:1", say=said.append)
    limiter.close()
    store.close()
