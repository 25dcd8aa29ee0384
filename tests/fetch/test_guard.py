"""The fetcher and the address policy together, on real loopback servers.

Without --allow-private every loopback URL, in every spelling, is blocked and the server sees
no request at all; with it, the same pages are read. Names are resolved by a stub (StubNet)
whose connect step fails the test for any address but the one it routes to loopback, so no
test opens a connection outside loopback.
"""

from __future__ import annotations

import ssl
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from core.fetch import Fetcher
from core.fetch.netguard import GuardedTransport, NameNotFound, Policy, shared_tls
from core.models import SourceStatus
from core.settings import Settings
from tests.fetch_servers import (
    PUBLIC,
    StubNet,
    TLSServer,
    V6Server,
    make_certificate,
    page,
    redirect,
    running,
    serve_quick,
)
from tests.servers import LoopbackServer, Reply

# How a URL can spell this machine. "{port}" is the test server's port.
SPELLINGS = [
    "127.0.0.1",
    "2130706433",
    "0x7f000001",
    "127.1",
    "127.0.1",
    "0x7f.0.0.1",
    "[::ffff:127.0.0.1]",
    "[::ffff:7f00:1]",
    "localhost",
]


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    """A loopback server that stops within 50 ms (the shared fixture's stop waits up to 0.5 s)."""
    with serve_quick() as s:
        yield s


@pytest.fixture
def pep(server: LoopbackServer) -> bytes:
    body, ctype = page("pep-0632")
    server.add("/pep-0632/", body, ctype)
    return body


@pytest.mark.parametrize("host", SPELLINGS)
def test_loopback_in_any_spelling_is_blocked_and_never_contacted(
    server: LoopbackServer, pep: bytes, settings: Settings, host: str
) -> None:
    with Fetcher(settings.with_(allow_private=False)) as f:
        source = f.fetch(f"http://{host}:{server.port}/pep-0632/")
    assert source.status is SourceStatus.BLOCKED
    assert "--allow-private" in source.reason
    # An address is refused for what it is; a name first meets the port rule (its lookup would come after).
    assert ("loopback, this computer" if host != "localhost" else "The link uses port") in source.reason
    assert server.requests == []


@pytest.mark.parametrize("host", SPELLINGS)
def test_loopback_in_any_spelling_is_read_with_allow_private(
    server: LoopbackServer, pep: bytes, settings: Settings, host: str
) -> None:
    with Fetcher(settings) as f:
        source = f.fetch(f"http://{host}:{server.port}/pep-0632/")
    assert source.status is SourceStatus.OK, source.reason
    assert source.body == pep
    assert server.requests == ["/pep-0632/"]


@pytest.fixture
def v6() -> Iterator[LoopbackServer]:
    try:
        server = V6Server()
    except OSError:
        pytest.skip("this machine has no IPv6 loopback (::1)")
    with running(server) as s:
        yield s


def test_ipv6_loopback_blocked_then_read_with_allow_private(v6: LoopbackServer, settings: Settings) -> None:
    body, ctype = page("whatsnew-3.11")
    url = v6.add("/3.11.html", body, ctype)
    with Fetcher(settings.with_(allow_private=False)) as f:
        blocked = f.fetch(url)
    assert blocked.status is SourceStatus.BLOCKED and v6.requests == []
    with Fetcher(settings) as f:
        read = f.fetch(url)
    assert read.status is SourceStatus.OK and read.body == body


def test_public_name_is_read_through_the_checked_address(server: LoopbackServer, settings: Settings) -> None:
    body, ctype = page("pep-0632")
    server.add("/pep-0632/", body, ctype)
    net = StubNet({"peps.example": [[PUBLIC]]}, loopback_port=server.port)
    with Fetcher(settings.with_(allow_private=False), resolver=net.resolve, connector=net.connect) as f:
        source = f.fetch("http://peps.example/pep-0632/")
    assert source.status is SourceStatus.OK and source.body == body
    assert net.connects == [(PUBLIC, 80)]


@pytest.mark.parametrize("answers", [["10.0.0.5"], ["169.254.169.254"], [PUBLIC, "192.168.0.10"], ["fd00::1"]])
def test_name_resolving_to_a_private_address_is_blocked_before_connecting(
    settings: Settings, answers: list[str]
) -> None:
    net = StubNet({"intranet.example": [answers]})
    with Fetcher(settings.with_(allow_private=False), resolver=net.resolve, connector=net.connect) as f:
        source = f.fetch("https://intranet.example/wiki")
    assert source.status is SourceStatus.BLOCKED
    assert source.reason.startswith("The host intranet.example resolves to ")
    assert net.connects == []


def test_dns_rebinding_is_refused_on_the_new_connection(server: LoopbackServer, settings: Settings) -> None:
    body, ctype = page("pep-0632")
    # Connection: close, so that the second fetch needs a new connection and a new lookup.
    server.add("/page", body, ctype, headers={"Connection": "close"})
    net = StubNet({"rebind.example": [[PUBLIC], ["127.0.0.1"]]}, loopback_port=server.port)
    with Fetcher(settings.with_(allow_private=False), resolver=net.resolve, connector=net.connect) as f:
        first = f.fetch("http://rebind.example/page")
        second = f.fetch("http://rebind.example/page", refresh=True)
    assert first.status is SourceStatus.OK
    assert second.status is SourceStatus.BLOCKED
    assert second.reason.startswith("The host rebind.example resolves to 127.0.0.1, which is not a public")
    assert net.lookups == ["rebind.example", "rebind.example"]
    assert net.connects == [(PUBLIC, 80)]
    assert server.requests == ["/page"]


def test_redirect_from_allowed_host_to_loopback_is_blocked(server: LoopbackServer, settings: Settings) -> None:
    server.routes["/go"] = redirect(f"http://127.0.0.1:{server.port}/secret")
    server.add("/secret", b"<p>internal admin page</p>")
    net = StubNet({"news.example": [[PUBLIC]]}, loopback_port=server.port)
    with Fetcher(settings.with_(allow_private=False), resolver=net.resolve, connector=net.connect) as f:
        source = f.fetch("http://news.example/go")
    assert source.status is SourceStatus.BLOCKED
    assert source.reason.startswith(f"The link redirected to http://127.0.0.1:{server.port}/secret, which Verbatim")
    assert server.requests == ["/go"]


def test_redirect_to_a_name_resolving_privately_is_blocked(server: LoopbackServer, settings: Settings) -> None:
    server.routes["/go"] = redirect("http://metadata.example/latest/")
    net = StubNet({"news.example": [[PUBLIC]], "metadata.example": [["169.254.169.254"]]}, server.port)
    with Fetcher(settings.with_(allow_private=False), resolver=net.resolve, connector=net.connect) as f:
        source = f.fetch("http://news.example/go")
    assert source.status is SourceStatus.BLOCKED
    assert "metadata.example resolves to 169.254.169.254" in source.reason
    assert net.connects == [(PUBLIC, 80)]


def test_redirect_leaving_the_allowlist_is_blocked_without_lookup(server: LoopbackServer, settings: Settings) -> None:
    server.routes["/go"] = redirect("http://other.example/page")
    net = StubNet({"news.example": [[PUBLIC]], "other.example": [[PUBLIC]]}, loopback_port=server.port)
    strict = settings.with_(allow_private=False, allowed_domains=("news.example",))
    with Fetcher(strict, resolver=net.resolve, connector=net.connect) as f:
        source = f.fetch("http://news.example/go")
    assert source.status is SourceStatus.BLOCKED
    assert "other.example is outside the allowed domains (news.example)" in source.reason
    assert net.lookups == ["news.example"]


def test_unresolvable_name_is_a_dead_link_possibly_invented(settings: Settings) -> None:
    net = StubNet({})
    with Fetcher(settings, resolver=net.resolve, connector=net.connect) as f:
        source = f.fetch("https://journal-of-invented-results.example/2024/study")
    assert source.status is SourceStatus.DEAD_LINK
    assert source.reason == (
        "The host name journal-of-invented-results.example does not resolve: the site does not exist (possibly"
        " an invented source) or this computer is offline. Check the link."
    )


def test_a_failed_name_look_up_is_not_checked_never_a_dead_link(settings: Settings) -> None:
    # Offline, or the name server not answering, says nothing about whether the source exists.
    def offline(host: str, port: int) -> list[str]:
        raise NameNotFound(host, "Temporary failure in name resolution", temporary=True)

    def never(address: str, port: int, timeout: float | None) -> object:
        raise AssertionError("no connection may be attempted")

    with Fetcher(settings, resolver=offline, connector=never) as f:  # type: ignore[arg-type]
        source = f.fetch("https://docs.python.org/3/whatsnew/3.11.html")
    assert source.status is SourceStatus.NOT_CHECKED
    assert source.reason == (
        "The host name docs.python.org could not be looked up: this computer may be offline or its name server"
        " is not answering. Try again later, or supply the page yourself."
    )


def test_system_resolver_tells_a_missing_name_from_a_failed_look_up(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    from core.fetch import netguard

    for errno, temporary in ((socket.EAI_NONAME, False), (socket.EAI_AGAIN, True), (socket.EAI_FAIL, True)):

        def fail(*args: object, errno: int = errno) -> object:
            raise socket.gaierror(errno, "stub")

        monkeypatch.setattr(netguard.socket, "getaddrinfo", fail)
        with pytest.raises(NameNotFound) as caught:
            netguard.system_resolver("site.example", 443)
        assert caught.value.temporary is temporary


def test_environment_proxies_are_ignored(
    server: LoopbackServer, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    body, ctype = page("pep-0632")
    url = server.add("/p", body, ctype)
    with serve_quick() as proxy:
        for var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
            monkeypatch.setenv(var, proxy.url(""))
        monkeypatch.delenv("NO_PROXY", raising=False)
        monkeypatch.delenv("no_proxy", raising=False)
        with Fetcher(settings) as f:
            source = f.fetch(url)
        assert proxy.requests == []
    assert source.body == body and server.requests == ["/p"]


def _certificate(tmp_path: Path, name: str) -> tuple[Path, Path]:
    """Return a self-signed certificate for name and its key, made in tmp_path (skips without openssl)."""
    made = make_certificate(tmp_path, name)
    if made is None:
        pytest.skip("the openssl tool is needed to make a test certificate")
    return made


def test_https_keeps_sni_and_host_of_the_name(tmp_path: Path, settings: Settings) -> None:
    cert, key = _certificate(tmp_path, "secure.example")
    body, ctype = page("pep-0632")
    tls = TLSServer(cert, key)
    tls.add("/pep", body, ctype)
    seen_host: list[str] = []

    def record_host(h: BaseHTTPRequestHandler) -> None:
        seen_host.append(h.headers["Host"])
        h.send_error(404)

    tls.routes["/host"] = Reply(handler=record_host)
    with running(tls):
        net = StubNet({"secure.example": [[PUBLIC]]}, loopback_port=tls.port)
        strict = settings.with_(allow_private=False)
        context = ssl.create_default_context(cafile=str(cert))
        transport = GuardedTransport(
            Policy.from_settings(strict), resolver=net.resolve, connector=net.connect, ssl_context=context
        )
        with Fetcher(strict, transport=transport, resolver=net.resolve) as f:
            source = f.fetch("https://secure.example/pep")
            f.fetch("https://secure.example/host")
    assert source.status is SourceStatus.OK and source.body == body
    assert tls.sni and set(tls.sni) == {"secure.example"}
    assert seen_host == ["secure.example"]
    assert net.connects[0] == (PUBLIC, 443)


def test_https_certificate_for_another_name_is_not_checked(tmp_path: Path, settings: Settings) -> None:
    cert, key = _certificate(tmp_path, "other.example")
    tls = TLSServer(cert, key)
    tls.add("/p", b"<p>hi</p>")
    with running(tls):
        net = StubNet({"secure.example": [[PUBLIC]]}, loopback_port=tls.port)
        strict = settings.with_(allow_private=False)
        context = ssl.create_default_context(cafile=str(cert))
        transport = GuardedTransport(
            Policy.from_settings(strict), resolver=net.resolve, connector=net.connect, ssl_context=context
        )
        with Fetcher(strict, transport=transport, resolver=net.resolve) as f:
            source = f.fetch("https://secure.example/p")
    assert source.status is SourceStatus.NOT_CHECKED
    assert source.reason.startswith("The secure connection to secure.example failed (")
    assert tls.requests == []


def test_every_fetcher_shares_one_tls_context_that_still_checks_certificates(
    tmp_path: Path, settings: Settings
) -> None:
    cert, key = _certificate(tmp_path, "secure.example")
    tls = TLSServer(cert, key)
    tls.add("/p", b"<p>hi</p>")
    strict = settings.with_(allow_private=False)
    with running(tls):
        net = StubNet({"secure.example": [[PUBLIC]]}, loopback_port=tls.port)
        first = GuardedTransport(Policy.from_settings(strict), resolver=net.resolve, connector=net.connect)
        second = GuardedTransport(Policy.from_settings(strict), resolver=net.resolve, connector=net.connect)
        with Fetcher(strict, transport=first, resolver=net.resolve) as f:
            source = f.fetch("https://secure.example/p")
    assert first._pool._ssl_context is second._pool._ssl_context is shared_tls()
    # The shared context knows only the bundled authorities: a certificate the test made itself is refused.
    assert source.status is SourceStatus.NOT_CHECKED
    assert source.reason.startswith("The secure connection to secure.example failed (")
    assert tls.requests == []
