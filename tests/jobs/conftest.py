"""Fixtures of the worker tests: a team store (queue and runs) on the throwaway PostgreSQL, one worker in process."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from core.jobs import PostgresHostLimiter, ensure_schema, queue_check
from core.jobs.work import Worker
from core.settings import Settings
from core.store import Store
from tests.jobs.team import HostGauge, claims_brief, slow_claims
from tests.pg import MISSING, PostgresServer, find_bindir
from tests.servers import LoopbackServer


@pytest.fixture
def team_url(pg_url: str) -> str:
    """A team store on PostgreSQL: the store's tables, the job records and the queue's tables, in one database."""
    ensure_schema(pg_url)
    return pg_url


@pytest.fixture
def worker(team_url: str) -> Iterator[Worker]:
    """One worker in this process, as ``python -m core worker`` builds it, on the same team store."""
    store = Store(team_url)
    limiter = PostgresHostLimiter(team_url, Settings().max_per_host)
    said: list[str] = []
    yield Worker(team_url, store, limiter, Settings(worker_retry_every=0.2), name="test:1", say=said.append)
    limiter.close()
    store.close()


@dataclass
class DownServer:
    """A PostgreSQL cluster of its own that a test stops and starts again on the same port."""

    server: PostgresServer
    url: str

    @property
    def where(self) -> str:
        return f"127.0.0.1:{self.server.port}/{self.url.rsplit('/', 1)[1]}"

    def stop(self) -> None:
        self.server._run("pg_ctl", "-D", str(self.server.datadir), "-m", "fast", "-w", "stop")

    def start(self) -> None:
        s = self.server
        options = f"-p {s.port} -k {s.root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        s._run("pg_ctl", "-D", str(s.datadir), "-l", str(s.root / "log"), "-o", options, "-w", "start")


@pytest.fixture
def down(server: LoopbackServer) -> Iterator[DownServer]:
    """A team store with one check queued (4 claims on loopback), then stopped: the database is down."""
    bindir = find_bindir()
    if bindir is None:
        pytest.fail(MISSING)
    cluster = PostgresServer(bindir).start()
    try:
        url = cluster.new_database()
        ensure_schema(url)
        claims = slow_claims(server, HostGauge(), sources=2, claims=4, delay=0.2, tag="down")
        queue_check(url, claims_brief(claims, "down.json"), Settings(allow_private=True))
        gone = DownServer(cluster, url)
        gone.stop()
        yield gone
    finally:
        cluster.stop()
