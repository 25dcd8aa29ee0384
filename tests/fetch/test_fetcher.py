"""Fetching real corpus pages from loopback servers: encodings, limits, statuses and redirects.

Loopback needs --allow-private, so these tests run with it (the conftest settings); the tests
of what is refused without it are in test_fetch_guard.py. The fetcher measures its deadlines
and waits by a FakeClock here: the tests assert which deadline and which waits it decided on,
never how long a fetch took.
"""

from __future__ import annotations

import email.utils
import hashlib
import tracemalloc
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from core.fetch import Fetcher
from core.models import SourceStatus
from core.settings import Settings
from tests.fetch_servers import (
    PAGES,
    FakeClock,
    Gauge,
    bomb,
    chunked,
    dribble,
    encoded,
    endless,
    page,
    redirect,
    sequence,
    serve_quick,
    stall,
)
from tests.servers import LoopbackServer, Reply, corpus_bytes


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    """A loopback server that stops within 50 ms (the shared fixture's stop waits up to 0.5 s)."""
    with serve_quick() as s:
        yield s


@pytest.fixture
def fast(settings: Settings) -> Settings:
    """Loopback allowed, with short waits so that retries and deadlines finish quickly."""
    return settings.with_(retry_backoff=0.01, max_retry_after=2.0, total_deadline=5.0, read_timeout=2.0)


@pytest.fixture
def clock() -> FakeClock:
    """The fetcher's clock: time stands still but for the sleeps it records."""
    return FakeClock()


@pytest.fixture
def fetcher(fast: Settings, clock: FakeClock) -> Iterator[Fetcher]:
    with Fetcher(fast, clock=clock) as f:
        yield f


CODINGS = ["identity", "gzip", "deflate", "deflate-raw", "br", "zstd"]


@pytest.fixture(scope="module")
def shared_server() -> Iterator[LoopbackServer]:
    """One server for the many encoding cases (each uses its own path)."""
    with serve_quick() as s:
        yield s


@pytest.mark.parametrize("coding", CODINGS)
@pytest.mark.parametrize("name", sorted(PAGES))
def test_corpus_page_arrives_byte_for_byte_in_every_encoding(
    shared_server: LoopbackServer, fetcher: Fetcher, name: str, coding: str
) -> None:
    server = shared_server
    body, ctype = page(name)
    server.routes[f"/{name}/{coding}"] = encoded(body, ctype, coding)
    source = fetcher.fetch(server.url(f"/{name}/{coding}"))
    assert source.status is SourceStatus.OK, source.reason
    assert source.body == body
    assert source.sha256 == hashlib.sha256(body).hexdigest()
    assert source.content_type == ctype
    assert source.http_status == 200
    assert source.final_url == server.url(f"/{name}/{coding}")
    assert source.origin == "fetched" and source.fetched_at
    if coding != "identity":
        assert ("content-encoding", "deflate" if coding == "deflate-raw" else coding) in source.headers


def test_chunked_answer_is_joined(server: LoopbackServer, fetcher: Fetcher) -> None:
    body, ctype = page("whatsnew-3.11")
    server.routes["/c"] = chunked(body, ctype, pieces=9)
    source = fetcher.fetch(server.url("/c"))
    assert source.status is SourceStatus.OK and source.body == body


def test_close_delimited_answer_is_read_to_the_end(server: LoopbackServer, fetcher: Fetcher) -> None:
    server.routes["/t"] = endless(3 << 20, declare_length=False)
    source = fetcher.fetch(server.url("/t"))
    assert source.status is SourceStatus.OK and len(source.body) == 3 << 20


def test_concatenated_gzip_members_are_one_body(server: LoopbackServer, fetcher: Fetcher) -> None:
    import gzip

    body, ctype = page("pep-0632")
    half = len(body) // 2
    wire = gzip.compress(body[:half]) + gzip.compress(body[half:])
    server.routes["/m"] = Reply(wire, headers={"Content-Type": ctype, "Content-Encoding": "gzip"})
    assert fetcher.fetch(server.url("/m")).body == body


def test_wrong_charset_keeps_bytes_and_header_for_extraction(server: LoopbackServer, fetcher: Fetcher) -> None:
    # The Arabic Wikipedia page is UTF-8; the server claims Latin-1. The fetcher must not re-encode:
    # choosing between header, <meta> and detection is extraction's job, on the untouched bytes.
    body = corpus_bytes("html/wikipedia/ar-Mathematics.html.gz")
    server.add("/ar", body, "text/html; charset=iso-8859-1")
    source = fetcher.fetch(server.url("/ar"))
    assert source.status is SourceStatus.OK
    assert source.body == body and "رياضيات".encode() in source.body
    assert source.content_type == "text/html; charset=iso-8859-1"


# --------------------------------------------------------------------------- limits


# A dribbling server sends every byte well within the read timeout, so only the whole-source
# deadline can stop it. The fake clock moves 0.05 s at each look and the fetcher looks before
# every read: the deadline passes after a few dozen reads, long before the body is complete
# (left alone, the fetch would end with the whole body read, status ok).


def test_dribbling_server_cannot_hold_a_check(server: LoopbackServer, fast: Settings) -> None:
    server.routes["/slow"] = dribble(2000, every=0.001)
    clock = FakeClock(tick=0.05)
    with Fetcher(fast.with_(total_deadline=2.0), clock=clock) as f:
        source = f.fetch(server.url("/slow"))
    assert source.status is SourceStatus.NOT_CHECKED
    assert source.reason == (
        f"Fetching {server.url('/slow')} took longer than the 2 s allowed per source (the server answered too"
        " slowly). Try again later or supply the page yourself."
    )
    assert clock.sleeps == [] and len(server.requests) == 1


def test_dribbled_headers_are_bounded_too(server: LoopbackServer, fast: Settings) -> None:
    server.routes["/slowhead"] = dribble(2000, every=0.001, headers_too=True)
    clock = FakeClock(tick=0.1)
    with Fetcher(fast.with_(total_deadline=1.5), clock=clock) as f:
        source = f.fetch(server.url("/slowhead"))
    assert source.status is SourceStatus.NOT_CHECKED
    assert source.reason.startswith(f"Fetching {server.url('/slowhead')} took longer than the 1.5 s allowed")
    assert source.http_status is None  # stopped before the status line was complete


@pytest.mark.parametrize("after_headers", [True, False])
def test_silent_server_gives_read_timeout(server: LoopbackServer, fast: Settings, after_headers: bool) -> None:
    server.routes["/stall"] = stall(after_headers=after_headers, seconds=5)
    with Fetcher(fast.with_(read_timeout=0.5, total_deadline=4.0)) as f:
        source = f.fetch(server.url("/stall"))
    assert source.status is SourceStatus.NOT_CHECKED
    assert source.reason == "127.0.0.1 stopped answering for 0.5 s. Try again later or supply the page yourself."


@pytest.mark.parametrize("coding", ["gzip", "deflate", "br", "zstd"])
def test_decompression_bomb_stops_at_the_cap(server: LoopbackServer, fast: Settings, coding: str) -> None:
    wire = bomb(coding, 64)  # 64 MB of blank page in well under a megabyte
    assert len(wire) < 1 << 20
    server.routes["/bomb"] = Reply(wire, headers={"Content-Type": "text/html", "Content-Encoding": coding})
    with Fetcher(fast.with_(max_body_bytes=2 << 20)) as f:
        tracemalloc.start()
        try:
            source = f.fetch(server.url("/bomb"))
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert source.status is SourceStatus.NOT_CHECKED
    assert source.reason.startswith("The source is larger than the 2 MB Verbatim reads")
    assert peak < 16 << 20, f"{peak / 1e6:.0f} MB held while decoding: the bomb was inflated, not capped"


@pytest.mark.parametrize("declare_length", [True, False])
def test_50_mb_body_is_refused_at_the_default_cap(
    server: LoopbackServer, settings: Settings, declare_length: bool
) -> None:
    server.routes["/big"] = endless(50 << 20, declare_length=declare_length)
    with Fetcher(settings) as f:
        source = f.fetch(server.url("/big"))
    assert source.status is SourceStatus.NOT_CHECKED
    assert "than the 25 MB Verbatim reads" in source.reason
    assert ("(52 MB)" in source.reason) is declare_length  # known in advance only when declared
    assert source.body == b""


# --------------------------------------------------------------------------- statuses

STATUSES = [
    (404, SourceStatus.DEAD_LINK, "The server answered 404 Not Found: the page does not exist (possibly an invented"),
    (410, SourceStatus.DEAD_LINK, "The server answered 410 Gone: the page was removed (possibly an invented source"),
    (401, SourceStatus.NOT_CHECKED, "The server answered 401 Unauthorized: the page needs a login or sits behind"),
    (403, SourceStatus.NOT_CHECKED, "The server answered 403 Forbidden: the page needs a login or sits behind a pay"),
    (429, SourceStatus.NOT_CHECKED, "The server answered 429 Too Many Requests (rate limited) (3 tries); Verbatim w"),
    (500, SourceStatus.NOT_CHECKED, "The server answered 500 Internal Server Error (3 tries): the site is failing"),
    (502, SourceStatus.NOT_CHECKED, "The server answered 502 Bad Gateway (3 tries): the site is failing right now."),
    (503, SourceStatus.NOT_CHECKED, "The server answered 503 Service Unavailable (3 tries): the site is failing"),
    (501, SourceStatus.NOT_CHECKED, "The server answered 501 Not Implemented: the site is failing right now."),
    (418, SourceStatus.NOT_CHECKED, "The server answered 418 I'm a Teapot: Verbatim cannot read the page."),
]


@pytest.mark.parametrize(("code", "status", "reason"), STATUSES)
def test_each_status_is_told_apart(
    server: LoopbackServer,
    fetcher: Fetcher,
    fast: Settings,
    clock: FakeClock,
    code: int,
    status: SourceStatus,
    reason: str,
) -> None:
    server.add("/s", b"<h1>no</h1>", status=code)
    source = fetcher.fetch(server.url("/s"))
    assert source.status is status
    assert source.reason.startswith(reason), source.reason
    assert source.http_status == code
    assert "invented source" not in source.reason.replace("possibly an invented source", "")
    retried = code in (429, 500, 502, 503, 504)
    assert len(server.requests) == (fast.max_retries + 1 if retried else 1)
    # Between tries it waits the backoff, doubled each time: 0.01 s, then 0.02 s.
    assert clock.sleeps == ([0.01, 0.02] if retried else [])


@pytest.mark.parametrize("asked", ["1", "http-date"])
def test_retry_after_is_honoured_then_the_page_is_read(
    server: LoopbackServer, fetcher: Fetcher, clock: FakeClock, asked: str
) -> None:
    body, ctype = page("pep-0632")
    if asked == "http-date":  # one second after the fake clock's now
        asked = email.utils.formatdate(clock.wall() + 1, usegmt=True)
    limited = Reply(b"slow down", status=429, headers={"Content-Type": "text/plain", "Retry-After": asked})
    server.routes["/r"] = sequence([limited, Reply(body, headers={"Content-Type": ctype})])
    source = fetcher.fetch(server.url("/r"))
    assert source.status is SourceStatus.OK and source.body == body
    assert clock.sleeps == [1.0]  # it waited the second it was asked to, once
    assert len(server.requests) == 2


@pytest.mark.parametrize("asked", [1000, 3600])
def test_retry_after_longer_than_we_wait_gives_up_at_once(
    server: LoopbackServer, fetcher: Fetcher, fast: Settings, clock: FakeClock, asked: int
) -> None:
    server.add("/r", b"later", status=429, headers={"Retry-After": str(asked)})
    source = fetcher.fetch(server.url("/r"))
    assert asked > fast.max_retry_after
    assert source.status is SourceStatus.NOT_CHECKED
    assert source.reason == (
        f"The server answered 429 Too Many Requests (rate limited) and asked to wait {asked} s, longer than Verbatim"
        " waits. Try again later with --refresh, or supply the page yourself."
    )
    assert clock.sleeps == []  # not waited at all, not even the settings' maximum
    assert len(server.requests) == 1


def test_retry_after_past_the_deadline_is_not_waited(server: LoopbackServer, fast: Settings) -> None:
    # 2 s is within max_retry_after, but the source's deadline comes first: asking again is pointless.
    server.add("/r", b"later", status=503, headers={"Retry-After": "2"})
    clock = FakeClock()
    with Fetcher(fast.with_(total_deadline=1.0), clock=clock) as f:
        source = f.fetch(server.url("/r"))
    assert (source.status, source.http_status) == (SourceStatus.NOT_CHECKED, 503)
    assert clock.sleeps == [] and len(server.requests) == 1


def test_503_then_200_is_read(server: LoopbackServer, fetcher: Fetcher, clock: FakeClock) -> None:
    body, ctype = page("whatsnew-3.11")
    down = Reply(b"down", status=503, headers={"Content-Type": "text/plain"})
    server.routes["/u"] = sequence([down, Reply(body, headers={"Content-Type": ctype})])
    assert fetcher.fetch(server.url("/u")).body == body
    assert clock.sleeps == [0.01]


def test_connection_refused_is_not_checked(fetcher: Fetcher) -> None:
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    source = fetcher.fetch(f"http://127.0.0.1:{port}/")
    assert source.status is SourceStatus.NOT_CHECKED
    assert source.reason.startswith(f"Could not connect to 127.0.0.1:{port} (")


def test_honest_user_agent_and_encodings_offered(server: LoopbackServer, fetcher: Fetcher, fast: Settings) -> None:
    gauge = Gauge()
    server.routes["/ua"] = gauge.delayed(b"<p>hi</p>", 0.0)
    fetcher.fetch(server.url("/ua"))
    sent = gauge.headers[0]
    assert sent["user-agent"] == fast.user_agent
    assert [c.strip() for c in sent["accept-encoding"].split(",")] == ["gzip", "deflate", "br", "zstd"]
    assert "cookie" not in sent and "authorization" not in sent


# --------------------------------------------------------------------------- redirects


def test_redirect_chain_is_followed(server: LoopbackServer, fetcher: Fetcher) -> None:
    body, ctype = page("pep-0632")
    server.routes["/r1"] = redirect("/r2", 301)
    server.routes["/r2"] = redirect(server.url("/r3"), 302)
    server.routes["/r3"] = redirect("final?x=1", 307)
    server.add("/final?x=1", body, ctype)
    source = fetcher.fetch(server.url("/r1"))
    assert source.status is SourceStatus.OK and source.body == body
    assert source.final_url == server.url("/final?x=1")
    assert server.requests == ["/r1", "/r2", "/r3", "/final?x=1"]


def test_endless_redirects_stop_after_the_limit(server: LoopbackServer, fetcher: Fetcher, fast: Settings) -> None:
    for i in range(20):
        server.routes[f"/e{i}"] = redirect(f"/e{i + 1}")
    source = fetcher.fetch(server.url("/e0"))
    assert source.status is SourceStatus.NOT_CHECKED
    assert source.reason.startswith(f"The link redirected more than {fast.max_redirects} times (last to ")
    assert len(server.requests) == fast.max_redirects + 1


def test_redirect_loop_is_named(server: LoopbackServer, fetcher: Fetcher) -> None:
    server.routes["/a"] = redirect("/b")
    server.routes["/b"] = redirect("/a#again")
    source = fetcher.fetch(server.url("/a"))
    assert source.status is SourceStatus.NOT_CHECKED
    assert source.reason.startswith("The link redirects in a loop (")
    assert server.requests == ["/a", "/b"]


@pytest.mark.parametrize(
    ("location", "words"),
    [
        ("file:///etc/passwd", "file: links are refused"),
        ("javascript:alert(1)", "javascript: links are refused"),
        ("http://user:pw@127.0.0.1/x", "carries a user name or password"),
    ],
)
def test_redirect_to_a_refused_url_is_blocked(
    server: LoopbackServer, fetcher: Fetcher, location: str, words: str
) -> None:
    server.routes["/go"] = redirect(location)
    source = fetcher.fetch(server.url("/go"))
    assert source.status is SourceStatus.BLOCKED
    shown = location.replace(":pw@", ":***@")  # a redirect's password is never kept, even in the reason
    assert source.reason.startswith(f"The link redirected to {shown}, which Verbatim refused to follow.")
    assert words in source.reason
    assert server.requests == ["/go"]


def test_redirect_leaving_the_allowlist_is_blocked(server: LoopbackServer, fast: Settings, tmp_path: Path) -> None:
    server.routes["/go"] = redirect(f"http://localhost:{server.port}/other")
    server.add("/other", b"<p>elsewhere</p>")
    with Fetcher(fast.with_(allowed_domains=("127.0.0.1",))) as f:
        source = f.fetch(server.url("/go"))
    assert source.status is SourceStatus.BLOCKED
    assert "localhost is outside the allowed domains (127.0.0.1)" in source.reason
    assert server.requests == ["/go"]


def _consent_wall(h: BaseHTTPRequestHandler) -> None:
    # Like a consent wall: first visit sets a cookie and redirects; the page needs the cookie.
    if h.path == "/article":
        h.send_response(302)
        h.send_header("Location", "/article?consented=1")
        h.send_header("Set-Cookie", "consent=yes; Path=/")
        h.send_header("Content-Length", "0")
        h.end_headers()
        return
    ok = "consent=yes" in (h.headers.get("Cookie") or "")
    body = page("pep-0632")[0] if ok else b"<p>please accept cookies</p>"
    h.send_response(200 if ok else 403)
    h.send_header("Content-Type", "text/html; charset=utf-8")
    h.send_header("Content-Length", str(len(body)))
    h.end_headers()
    h.wfile.write(body)


def test_cookies_follow_redirects_of_one_source_only(server: LoopbackServer, fetcher: Fetcher) -> None:
    server.routes["/article"] = Reply(handler=_consent_wall)
    server.routes["/article?consented=1"] = Reply(handler=_consent_wall)
    first = fetcher.fetch(server.url("/article"))
    assert first.status is SourceStatus.OK and first.body == page("pep-0632")[0]
    # Another source on the same site starts without that cookie.
    other = fetcher.fetch(server.url("/article?consented=1"))
    assert other.status is SourceStatus.NOT_CHECKED and other.http_status == 403


def test_non_ascii_paths_are_sent_percent_encoded(server: LoopbackServer, fetcher: Fetcher) -> None:
    body = corpus_bytes("html/wikipedia/ar-Mathematics.html.gz")
    server.add("/wiki/%D8%B1%D9%8A%D8%A7%D8%B6%D9%8A%D8%A7%D8%AA", body)
    source = fetcher.fetch(server.url("/wiki/رياضيات"))
    assert source.status is SourceStatus.OK and source.body == body
