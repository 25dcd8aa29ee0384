"""A team store whose PostgreSQL goes away, or was never there: a StoreError saying so and what to do, then recovery.

Each test that stops a server starts a PostgresServer of its own, so the session's server stays up.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from core.errors import TEAM_STORE_UNREACHABLE, StoreError, StoreUnreachable
from core.models import Choice, Decision
from core.store import Store, shown
from tests.pg import MISSING, PostgresServer, find_bindir, running_server

REPORT = {"schema": 1, "brief_name": "brief.md", "summary": {"verified": 1}, "claims": [{"id": "c1"}]}


@pytest.fixture
def own_server() -> Iterator[PostgresServer]:
    """A server of the test's own, to stop and start again without touching the session's."""
    if find_bindir() is None:
        pytest.fail(MISSING)
    with running_server() as server:
        yield server


def _unreachable(url: str, why: str = "Connection refused") -> str:
    return f"The team store at {shown(url)} cannot be reached: {why}. {TEAM_STORE_UNREACHABLE}"


def test_a_database_that_goes_away_mid_use_is_said_and_used_again_when_back(own_server: PostgresServer) -> None:
    url = own_server.new_database()
    store = Store(url, busy_timeout=2)
    run_id = store.save_run(REPORT, b"# brief", "brief.md")
    store.save_decision(run_id, Decision(claim_id="c1", decision=Choice.ACCEPT))
    own_server.halt()  # the pool still holds the connection the calls above used
    with pytest.raises(StoreError) as saving:
        store.save_decision(run_id, Decision(claim_id="c1", decision=Choice.REJECT, note="second look"))
    assert str(saving.value) == _unreachable(url)
    assert (saving.value.action, saving.value.store) == ("reached", shown(url))
    assert isinstance(saving.value, StoreUnreachable)  # what a job waits out
    with pytest.raises(StoreError) as reading:
        store.list_runs()
    assert str(reading.value) == _unreachable(url)
    own_server.resume()
    # The same Store, no restart: the refused change was not saved, the earlier ones are all there.
    assert [d.decision for d in store.decisions(run_id)] == [Choice.ACCEPT]
    store.save_decision(run_id, Decision(claim_id="c1", decision=Choice.REJECT, note="second look"))
    assert [(d.decision, d.note) for d in store.decisions(run_id)] == [(Choice.REJECT, "second look")]
    assert store.load_run(run_id) == REPORT
    store.close()


def test_a_url_to_a_port_where_nothing_listens_is_refused_at_once() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # bound, never listening: nothing answers there
        url = f"postgresql://editor:s3cret@127.0.0.1:{port}/verbatim"
        with pytest.raises(StoreError) as caught:
            Store(url, busy_timeout=2)
    assert str(caught.value) == _unreachable(url) and isinstance(caught.value, StoreUnreachable)
    assert "s3cret" not in str(caught.value) and "editor" not in str(caught.value)


def test_a_database_that_does_not_exist_is_named_with_what_to_do(pg_server: PostgresServer) -> None:
    url = pg_server.url("no_such_database")
    with pytest.raises(StoreError) as caught:
        Store(url, busy_timeout=2)
    assert not isinstance(caught.value, StoreUnreachable)  # the server answered: waiting will not help
    assert str(caught.value) == (
        f'The team store at {shown(url)} cannot be opened: database "no_such_database" does not exist.'
        " Check that VERBATIM_DB (on the command line, --db) names the team's database and that its user may"
        " write there, or ask whoever runs the team's PostgreSQL."
    )
