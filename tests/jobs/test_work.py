"""One queued check run in process: its run saved once under its run id, the record done, bad briefs failed."""

from __future__ import annotations

import pytest

from core.errors import StoreError, StoreUnreachable
from core.jobs import JobState, connect, ensure_schema, get_job, progress, queue_check
from core.jobs.work import Worker
from core.models import Brief
from core.settings import Settings
from core.store import Store
from tests.jobs.team import HostGauge, claims_brief, slow_claims
from tests.pg import PostgresServer
from tests.servers import LoopbackServer

SETTINGS = Settings(allow_private=True)


def _runs(url: str) -> list[tuple[str, int]]:
    with Store(url) as store:
        return [(r.run_id, len(store.load_run(r.run_id)["claims"])) for r in store.list_runs()]


def _brief(server: LoopbackServer, claims: int = 6, sources: int = 3, tag: str = "b") -> Brief:
    return claims_brief(
        slow_claims(server, HostGauge(), sources=sources, claims=claims, delay=0.0, tag=tag), f"{tag}.json"
    )


def test_the_schema_applied_twice_changes_nothing(pg_url: str) -> None:
    ensure_schema(pg_url)
    with connect(pg_url) as conn:
        tables = conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1").fetchall()
    ensure_schema(pg_url)
    with connect(pg_url) as conn:
        again = conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1").fetchall()
    assert again == tables
    assert ("jobs",) in tables and ("job_sources",) in tables and ("procrastinate_jobs",) in tables
    assert ("runs",) in tables  # the queue and the store: one database
    with connect(pg_url) as conn:
        recorded = conn.execute("SELECT version, name FROM schema_migrations WHERE version = 4").fetchall()
    assert recorded == [(4, "jobs")]


def test_a_queued_check_keeps_its_run_id_settings_and_who_asked(team_url: str, server: LoopbackServer) -> None:
    brief = _brief(server)
    settings = SETTINGS.with_(allowed_domains=("127.0.0.1",), ocr=True)
    record = queue_check(team_url, brief, settings, refresh=True, queued_by="Ada Editor")
    with connect(team_url) as conn:
        stored = get_job(conn, record.job_id)
        (task,) = conn.execute("SELECT args, queueing_lock, status FROM procrastinate_jobs").fetchall()
    assert stored == record
    assert (stored.state, stored.queued_by, stored.claims, stored.sources) == (JobState.QUEUED, "Ada Editor", 6, 3)
    asked = (stored.allow_private, stored.allowed_domains, stored.ocr, stored.refresh)
    assert asked == (True, ("127.0.0.1",), True, True)
    assert task == ({"job_id": record.job_id}, record.run_id, "todo")


def test_a_job_saves_its_run_once_under_its_run_id(team_url: str, worker: Worker, server: LoopbackServer) -> None:
    record = queue_check(team_url, _brief(server), SETTINGS, queued_by="Ada")
    worker.run(record.job_id)
    worker.run(record.job_id)  # a retry of a job already done does nothing
    with connect(team_url) as conn:
        done = get_job(conn, record.job_id)
        states = {p.state for p in progress(conn, record.job_id)}
    assert (done.state, done.attempts, done.error) == (JobState.DONE, 1, "")
    assert _runs(team_url) == [(record.run_id, 6)]
    assert states == {"fetched"}
    with Store(team_url) as store:
        assert store.load_run(record.run_id)["run_id"] == record.run_id


def test_a_run_saved_by_a_worker_that_died_before_marking_it_done_is_not_saved_again(
    team_url: str, worker: Worker, server: LoopbackServer
) -> None:
    record = queue_check(team_url, _brief(server), SETTINGS)
    worker.run(record.job_id)
    with connect(team_url) as conn:  # as if the worker died between saving the run and marking the job done
        conn.execute("UPDATE jobs SET state = 'running' WHERE job_id = %s", (record.job_id,))
    worker.run(record.job_id)
    with connect(team_url) as conn:
        again = get_job(conn, record.job_id)
    assert (again.state, again.attempts) == (JobState.DONE, 2)
    assert _runs(team_url) == [(record.run_id, 6)]


def test_an_unreadable_brief_fails_with_its_message_and_the_next_job_runs(
    team_url: str, worker: Worker, server: LoopbackServer
) -> None:
    good = _brief(server)
    bad = Brief(name="scan.docx", format="docx", claims=(), raw=b"\x00\x01 not a zip archive at all")
    broken = queue_check(team_url, bad, SETTINGS)
    fine = queue_check(team_url, good, SETTINGS)
    worker.run(broken.job_id)
    worker.run(fine.job_id)
    with connect(team_url) as conn:
        failed, done = get_job(conn, broken.job_id), get_job(conn, fine.job_id)
    assert failed.state is JobState.FAILED
    assert failed.error.startswith("scan.docx is not a Word document: it is not a .docx (zip) archive")
    assert done.state is JobState.DONE
    assert _runs(team_url) == [(fine.run_id, 6)]


def test_a_check_that_keeps_killing_its_worker_ends_failed_and_says_so(
    team_url: str, worker: Worker, server: LoopbackServer
) -> None:
    record = queue_check(team_url, _brief(server), SETTINGS)
    with connect(team_url) as conn:  # three starts that never finished
        conn.execute("UPDATE jobs SET state = 'running', attempts = 3 WHERE job_id = %s", (record.job_id,))
    worker.run(record.job_id)
    with connect(team_url) as conn:
        failed = get_job(conn, record.job_id)
    assert failed.state is JobState.FAILED
    assert failed.error == (
        "The check of b.json was started 3 times and never finished: a worker stopped each time (killed, or out of"
        " memory). Check the workers' logs, then queue the brief again."
    )
    assert _runs(team_url) == []


def test_queueing_on_a_database_that_does_not_exist_says_which_and_what_to_change(
    server: LoopbackServer, pg_server: PostgresServer
) -> None:
    url = pg_server.url("no_such_database")
    with pytest.raises(StoreError) as caught:
        queue_check(url, _brief(server), SETTINGS)
    where = f"127.0.0.1:{pg_server.port}/no_such_database"
    # The server answers and refuses: a refusal, not an outage to wait out.
    assert not isinstance(caught.value, StoreUnreachable)
    assert str(caught.value) == (
        f'The team store at {where} cannot be opened: database "no_such_database" does not exist. Check that'
        " VERBATIM_DB (on the command line, --db) names the team's database and that its user may write there, or"
        " ask whoever runs the team's PostgreSQL."
    )
