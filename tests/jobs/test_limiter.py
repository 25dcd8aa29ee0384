"""The team-wide per-host limit: slots are advisory locks, so two processes (two connections) share max_per_host."""

from __future__ import annotations

from core.jobs import PostgresHostLimiter
from tests.jobs.team import wait_for
from tests.pg import PostgresServer


def test_two_limiters_share_the_slots_of_one_host(team_url: str) -> None:
    a, b = PostgresHostLimiter(team_url, 2), PostgresHostLimiter(team_url, 2)
    try:
        with a.cond:
            taken = [a.try_take("example.org"), a.try_take("example.org")]
        with b.cond:
            refused = b.try_take("example.org")
            other_host = b.try_take("example.com")
        a.release("example.org")
        with b.cond:
            freed = b.try_take("example.org")
            full_again = b.try_take("example.org")
    finally:
        a.close()
        b.close()
    assert taken == [True, True]
    assert (refused, other_host) == (False, True)
    assert (freed, full_again) == (True, False)


def test_the_slots_of_a_limiter_whose_connection_ends_are_free_at_once(team_url: str) -> None:
    dead, alive = PostgresHostLimiter(team_url, 1), PostgresHostLimiter(team_url, 1)
    try:
        with dead.cond:
            assert dead.try_take("example.org")
        with alive.cond:
            held_elsewhere = alive.try_take("example.org")
        dead.close()  # as when a worker dies: the server ends its session and every lock it held

        def take() -> bool:
            with alive.cond:
                return alive.try_take("example.org")

        after = wait_for("the dead session's slot", take, timeout=10)  # its backend exits a moment later
    finally:
        alive.close()
    assert (held_elsewhere, after) == (False, True)


def test_a_database_that_cannot_be_reached_leaves_no_slot_free_and_raises_nothing(pg_server: PostgresServer) -> None:
    limiter = PostgresHostLimiter(pg_server.url("no_such_database"), 2)
    with limiter.cond:
        taken = limiter.try_take("example.org")
    limiter.close()
    assert taken is False
