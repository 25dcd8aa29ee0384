"""Real worker processes on one PostgreSQL: one killed mid-job, the team's per-host limit, a database down or missing.

Each test starts ``python -m core worker`` processes against a real throwaway PostgreSQL and
checks briefs whose sources are slow loopback copies of corpus pages, counted per host.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from core.jobs import JobRecord, JobState, connect, list_jobs, progress, queue_check
from core.models import Brief
from core.settings import Settings
from core.store import Store
from tests.jobs.conftest import DownServer
from tests.jobs.team import HostGauge, claims_brief, slow_claims, start_worker, stop, wait_for
from tests.pg import PostgresServer
from tests.servers import LoopbackServer

SETTINGS = Settings(allow_private=True)


def _briefs(
    server: LoopbackServer, gauge: HostGauge, count: int, *, sources: int, claims: int, delay: float
) -> list[Brief]:
    return [
        claims_brief(slow_claims(server, gauge, sources=sources, claims=claims, delay=delay, tag=f"b{i}"), f"b{i}.json")
        for i in range(count)
    ]


def _jobs(url: str) -> list[JobRecord]:
    with connect(url) as conn:
        return list_jobs(conn)


def _all_ended(url: str) -> bool:
    return all(j.state in (JobState.DONE, JobState.FAILED) for j in _jobs(url))


def _claim_ids(url: str, run_id: str) -> list[str]:
    with Store(url) as store:
        report = store.load_run(run_id)
    return [c["id"] for c in report["claims"]] if report else []


def test_a_worker_killed_mid_job_leaves_it_to_another_that_finishes_it(
    team_url: str, server: LoopbackServer, tmp_path: Path
) -> None:
    gauge = HostGauge()
    briefs = _briefs(server, gauge, 3, sources=8, claims=16, delay=0.4)
    queued = [queue_check(team_url, b, SETTINGS, queued_by="Ada") for b in briefs]
    log = tmp_path / "workers.log"
    workers = [start_worker(team_url, log) for _ in range(2)]
    try:

        def mid_job() -> JobRecord | None:
            with connect(team_url) as conn:
                for job in list_jobs(conn):
                    fetched = [p for p in progress(conn, job.job_id) if p.state == "fetched"]
                    if job.state is JobState.RUNNING and fetched:
                        return job
            return None

        victim = wait_for("a job with a source fetched", mid_job)
        pid = int(victim.worker.rsplit(":", 1)[1])
        assert pid in {w.pid for w in workers}
        os.kill(pid, signal.SIGKILL)
        wait_for("every job ended", lambda: _all_ended(team_url), timeout=180, every=0.3)
    finally:
        stop(*workers)
    jobs = {j.job_id: j for j in _jobs(team_url)}
    with Store(team_url) as store:
        runs = sorted(r.run_id for r in store.list_runs())
    assert runs == sorted(q.run_id for q in queued)  # each run saved exactly once
    for q in queued:
        assert jobs[q.job_id].state is JobState.DONE, jobs[q.job_id].error
        assert _claim_ids(team_url, q.run_id) == [f"c{k}" for k in range(1, 17)]  # every claim, once
    retried = jobs[victim.job_id]
    assert retried.attempts == 2
    assert retried.worker != victim.worker
    with connect(team_url) as conn:
        assert conn.execute("SELECT count(*) FROM procrastinate_jobs WHERE status = 'doing'").fetchone() == (0,)
    assert "its worker stopped; queued again" in log.read_text()


def test_the_per_host_limit_holds_across_two_workers(team_url: str, server: LoopbackServer, tmp_path: Path) -> None:
    gauge = HostGauge()
    briefs = _briefs(server, gauge, 2, sources=10, claims=10, delay=0.3)
    queued = [queue_check(team_url, b, SETTINGS) for b in briefs]
    log = tmp_path / "workers.log"
    workers = [start_worker(team_url, log) for _ in range(2)]
    try:
        wait_for("both jobs ended", lambda: _all_ended(team_url), timeout=180, every=0.3)
    finally:
        stop(*workers)
    jobs = {j.job_id: j for j in _jobs(team_url)}
    assert [jobs[q.job_id].state for q in queued] == [JobState.DONE, JobState.DONE]
    assert jobs[queued[0].job_id].worker != jobs[queued[1].job_id].worker  # one job each, at the same time
    assert len(gauge.headers) == 20
    assert gauge.peak == Settings().max_per_host  # each worker alone would have allowed this much again


def test_a_worker_started_on_a_database_that_is_down_says_so_and_keeps_trying(
    down: DownServer, server: LoopbackServer, tmp_path: Path
) -> None:
    log = tmp_path / "worker.log"
    worker = start_worker(down.url, log)
    try:
        wait_for("two tries", lambda: log.read_text().count("cannot reach") >= 2, timeout=60)
        assert worker.poll() is None  # still trying
        down.start()
        wait_for("the queued job done", lambda: _all_ended(down.url), timeout=120, every=0.3)
    finally:
        stop(worker)

    said = log.read_text()
    assert f"cannot reach the team store at {down.where}: Connection refused. " in said
    assert "psycopg.pool" not in said
    assert "Trying again in 2 s; start the database, or check VERBATIM_DB (--db)." in said
    (job,) = _jobs(down.url)
    assert job.state is JobState.DONE
    assert len(_claim_ids(down.url, job.run_id)) == 4


def test_a_worker_started_on_a_database_that_does_not_exist_stops_at_once_and_says_what_to_change(
    pg_server: PostgresServer, tmp_path: Path
) -> None:
    log = tmp_path / "worker.log"
    worker = start_worker(pg_server.url("no_such_database"), log)
    try:
        status = worker.wait(60)  # the server answers and refuses: waiting for it would wait for ever
    finally:
        stop(worker)

    said = log.read_text()
    assert status == 2
    assert "cannot reach" not in said
    where = f"127.0.0.1:{pg_server.port}/no_such_database"
    assert f'stopped: The team store at {where} cannot be opened: database "no_such_database" does not exist. ' in said
    assert "names the team's database" in said


def test_a_database_that_goes_away_mid_check_makes_the_job_wait_and_resume(
    down: DownServer, server: LoopbackServer, tmp_path: Path
) -> None:
    down.start()
    gauge = HostGauge()
    brief = claims_brief(slow_claims(server, gauge, sources=12, claims=12, delay=0.4, tag="away"), "away.json")
    queued = queue_check(down.url, brief, SETTINGS)
    log = tmp_path / "worker.log"
    worker = start_worker(down.url, log)
    try:

        def fetching() -> bool:
            with connect(down.url) as conn:
                return any(p.state == "fetched" for p in progress(conn, queued.job_id))

        wait_for("the check under way", fetching)
        down.stop()
        wait_for("the job waiting", lambda: "the team store is unreachable" in log.read_text(), 60)
        time.sleep(3)  # down for a while: the job keeps waiting
        down.start()
        wait_for("both jobs ended", lambda: _all_ended(down.url), timeout=180, every=0.3)
    finally:
        stop(worker)
    jobs = {j.job_id: j for j in _jobs(down.url)}
    assert jobs[queued.job_id].state is JobState.DONE, jobs[queued.job_id].error
    assert jobs[queued.job_id].attempts == 1  # the outage is no attempt: only a worker that stops mid-job is
    with Store(down.url) as store:
        assert len(store.list_runs()) == 2  # the job queued before, and this one: each once
    assert _claim_ids(down.url, queued.run_id) == [f"c{k}" for k in range(1, 13)]
    assert f"job {queued.job_id}: the team store is unreachable (" in log.read_text()
