"""The per-source deadline counts from the request's own start, not from its wait in the per-host queue (issue 16, 8).

Sixty sources on one loopback host that answers 500 after a short pause, two requests at a
time: the last ones wait seconds for a slot. Each source's own requests and retry waits take
well under its deadline, so every reason must name what the server answered, never a timeout.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from core.fetch import Fetcher
from core.models import SourceStatus
from core.settings import Settings
from tests.fetch_servers import serve_quick
from tests.servers import LoopbackServer, Reply

SOURCES = 60


def _failing(handler) -> None:
    time.sleep(0.08)  # a busy server: the queue of this host grows while it thinks
    body = b"<h1>Internal Server Error</h1>"
    handler.send_response(500)
    handler.send_header("Content-Type", "text/html")
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    with serve_quick() as s:
        for i in range(SOURCES):
            s.routes[f"/report-{i}"] = Reply(handler=_failing)
        yield s


def test_many_500s_behind_one_host_queue_are_named_as_500s_not_timeouts(
    server: LoopbackServer, settings: Settings
) -> None:
    # 60 sources x 3 tries x 80 ms on 2 slots: the host's queue takes about 7 s, the deadline is 3 s.
    s = settings.with_(total_deadline=3.0, max_per_host=2, max_retries=2, retry_backoff=0.1)
    urls = [server.url(f"/report-{i}") for i in range(SOURCES)]
    with Fetcher(s) as f:
        sources = f.fetch_all(urls)
    reasons = {u: src.reason for u, src in sources.items()}
    assert len(reasons) == SOURCES
    timed_out = [u for u, r in reasons.items() if "took longer" in r or "stopped answering" in r]
    assert timed_out == []
    for src in sources.values():
        assert src.status is SourceStatus.NOT_CHECKED and src.http_status == 500
        assert src.reason == (
            "The server answered 500 Internal Server Error (3 tries): the site is failing right now."
            " Try again later with --refresh, or supply the page yourself."
        )
    assert len(server.requests) == SOURCES * 3


def test_a_retry_that_runs_out_of_time_still_names_what_the_server_answered(
    server: LoopbackServer, settings: Settings
) -> None:
    asked: list[int] = []

    def once_then_silent(handler) -> None:
        asked.append(1)
        if len(asked) > 1:
            time.sleep(3)  # the second try hangs past the deadline
        _failing(handler)

    server.routes["/flaky"] = Reply(handler=once_then_silent)
    with Fetcher(settings.with_(total_deadline=1.0, retry_backoff=0.05)) as f:
        source = f.fetch(server.url("/flaky"))
    assert (source.status, source.http_status) == (SourceStatus.NOT_CHECKED, 500)
    assert source.reason == (
        "The server answered 500 Internal Server Error: the site is failing right now. Try again later with"
        " --refresh, or supply the page yourself. Asked again, it did not answer in time."
    )
