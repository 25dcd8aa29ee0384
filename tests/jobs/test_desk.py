"""The desk on a team store: Check queues the brief, the page follows the job (queued, running, done, failed) and
opens the review when a worker has saved the run; an unreachable store is said, and nothing is lost (AppTest).

The desk runs on a real team store ($VERBATIM_DB is a database of the throwaway PostgreSQL), the
queue is the real one in the same database, and the worker runs in this process.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.jobs import PostgresHostLimiter, connect, list_jobs
from core.jobs.work import Worker
from core.settings import Settings
from core.store import Store
from tests.builders import sample_on_loopback
from tests.pg import PostgresServer
from tests.servers import LoopbackServer

APP = Path(__file__).resolve().parents[2] / "ui" / "app.py"


def _plain(markdown: str) -> str:
    return re.sub(r"\\(.)", r"\1", markdown)


@pytest.fixture
def desk(team_url: str, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("VERBATIM_DB", team_url)
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    at.checkbox(key="opt_private").check().run()
    return at


def _queue(at: AppTest, text: str) -> None:
    at.text_area(key="brief_text").set_value(text).run()
    at.button(key="check_button").click().run()


def _run_jobs(team_url: str) -> None:
    """Run every queued job as a worker would."""
    store = Store(team_url)
    limiter = PostgresHostLimiter(team_url, 2)
    worker = Worker(team_url, store, limiter, Settings(), name="desk-test:1", say=lambda _: None)
    with connect(team_url) as conn:
        ids = [j.job_id for j in list_jobs(conn)]
    for job_id in ids:
        worker.run(job_id)
    limiter.close()
    store.close()


def test_a_queued_check_is_followed_until_a_worker_has_run_it(
    desk: AppTest, team_url: str, server: LoopbackServer
) -> None:
    _queue(desk, sample_on_loopback(server))
    assert not desk.exception, [e.value for e in desk.exception]
    (status,) = [s for s in desk.status]
    assert status.label == "Queued: waiting for a free worker (python -m core worker): 10 claims of pasted brief"
    # The page looks again every few seconds: between two looks the job is still running, never shown ✓ done.
    assert status.state == "running"
    progress = "\n".join(h.proto.body for h in desk.html)
    assert "⏳ waiting: 6" in progress
    team = desk.dataframe[0].value
    assert list(team["state"]) == ["queued"] and list(team["brief"]) == ["pasted brief"]
    with connect(team_url) as conn:
        (job,) = list_jobs(conn)
    assert job.queued_by and job.allow_private is True
    _run_jobs(team_url)
    desk.run()
    assert not desk.exception, [e.value for e in desk.exception]
    assert desk.query_params["run"] == job.run_id  # the review of the run the worker saved is open
    assert "vb_job" not in desk.session_state
    assert [t.value for t in desk.title] == ["Review: pasted brief"]


def test_a_failed_job_shows_its_message(desk: AppTest, team_url: str) -> None:
    _queue(desk, "A claim [cited](http://127.0.0.1:9/page) says “a quote from the page here”.")
    with connect(team_url) as conn:
        conn.execute("UPDATE jobs SET brief_raw = %s", (b"\x00\x01binary",))  # a file no worker can read
    _run_jobs(team_url)
    desk.run()
    (status,) = [s for s in desk.status]
    assert status.label.startswith("The check failed:")
    assert any(
        "pasted brief is not a brief Verbatim can read: it holds binary data." in _plain(e.value) for e in desk.error
    )


def test_an_unreachable_team_store_is_said_and_the_check_is_kept(
    desk: AppTest, pg_server: PostgresServer, server: LoopbackServer
) -> None:
    _queue(desk, sample_on_loopback(server))
    job = desk.session_state["vb_job"]
    job.url = pg_server.url("gone_away")
    desk.run()
    assert not desk.exception, [e.value for e in desk.exception]
    assert any(_plain(w.value).startswith("The team store is unreachable: ") for w in desk.warning)
    assert desk.session_state["vb_job"] is job  # the page looks again later; the job is not forgotten
