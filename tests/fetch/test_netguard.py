"""The address policy on its own: addresses, odd spellings, URLs, allowlists, and the connection
guard with a stubbed resolver whose connect step fails the test if it is ever reached.

No test here opens a connection: every address outside loopback is only ever classified.
"""

from __future__ import annotations

import ipaddress

import httpcore
import pytest

from core.fetch.netguard import (
    GuardedBackend,
    NameNotFound,
    Policy,
    Refused,
    Target,
    address_problem,
    check_url,
    deadline,
    in_allowlist,
    normalise_domain,
    parse_ip_host,
    remaining,
)
from core.settings import Settings
from tests.fetch_servers import PUBLIC, FakeClock, Timeouts

STRICT = Policy()
OPEN = Policy(allow_private=True)

# address, the words its refusal must name ("" for a public address)
ADDRESSES = [
    ("127.0.0.1", "loopback"),
    ("127.255.255.254", "loopback"),
    ("10.1.2.3", "private"),
    ("172.16.0.1", "private"),
    ("192.168.1.1", "private"),
    ("169.254.169.254", "link-local"),
    ("0.0.0.0", "unspecified"),
    ("224.0.0.1", "multicast"),
    ("240.0.0.1", "reserved"),
    ("100.64.0.1", "carrier-grade NAT"),
    ("198.18.0.1", "private"),  # benchmarking range
    ("::1", "loopback"),
    ("::", "unspecified"),
    ("fe80::1", "link-local"),
    ("fc00::1", "private"),
    ("ff02::1", "multicast"),
    ("::ffff:127.0.0.1", "loopback, this computer, an IPv4 address written as IPv6"),
    ("::ffff:10.0.0.1", "private network, an IPv4 address written as IPv6"),
    ("::ffff:169.254.169.254", "link-local"),
    ("64:ff9b::a00:1", "private network, an IPv4 address written as IPv6"),  # NAT64 of 10.0.0.1
    ("2002:7f00:1::", "loopback"),  # 6to4 of 127.0.0.1
    (PUBLIC, ""),
    ("8.8.8.8", ""),
    ("2606:4700:4700::1111", ""),
]


@pytest.mark.parametrize(("address", "words"), ADDRESSES)
def test_address_problem(address: str, words: str) -> None:
    problem = address_problem(ipaddress.ip_address(address))
    if words:
        assert problem is not None and words in problem
    else:
        assert problem is None


# spelling in a URL -> the address it means
SPELLINGS = [
    ("127.0.0.1", "127.0.0.1"),
    ("2130706433", "127.0.0.1"),
    ("0x7f000001", "127.0.0.1"),
    ("0X7F000001", "127.0.0.1"),
    ("127.1", "127.0.0.1"),
    ("127.0.1", "127.0.0.1"),
    ("0177.0.0.1", "127.0.0.1"),
    ("0x7f.0.0.1", "127.0.0.1"),
    ("[::1]", "::1"),
    ("[::ffff:127.0.0.1]", "::ffff:7f00:1"),
    ("3232235777", "192.168.1.1"),
    ("0xa9fea9fe", "169.254.169.254"),
]


@pytest.mark.parametrize(("host", "meant"), SPELLINGS)
def test_odd_spellings_are_read_as_addresses(host: str, meant: str) -> None:
    assert parse_ip_host(host) == ipaddress.ip_address(meant)


@pytest.mark.parametrize("host", ["example.com", "cafe.be", "1.2.3.4.example", "deadbeef.org", "xn--bcher-kva.de"])
def test_names_are_not_addresses(host: str) -> None:
    assert parse_ip_host(host) is None


# URL -> rule that refuses it under the strict default policy
REFUSED = [
    ("file:///etc/passwd", "scheme"),
    ("javascript:alert(1)", "scheme"),
    ("data:text/html,<h1>hi</h1>", "scheme"),
    ("ftp://example.com/file.txt", "scheme"),
    ("gopher://example.com/", "scheme"),
    ("www.example.com/page", "scheme"),
    ("http://user:secret@example.com/", "credentials"),
    ("https://token@example.com/", "credentials"),
    ("http://example.com:8080/", "port"),
    ("https://example.com:22/", "port"),
    ("", "malformed"),
    ("http://", "malformed"),
    ("http://exa mple.com/", "malformed"),
    ("http://[::1/", "malformed"),
    ("http://example.com:99999/", "malformed"),
    ("http://127.0.0.1/", "private_address"),
    ("http://2130706433/", "private_address"),
    ("http://0x7f000001/", "private_address"),
    ("http://127.1/", "private_address"),
    ("http://0177.0.0.1/", "private_address"),
    ("http://[::1]/", "private_address"),
    ("http://[::ffff:127.0.0.1]/", "private_address"),
    ("http://[::ffff:7f00:1]/", "private_address"),
    ("http://169.254.169.254/latest/meta-data/", "private_address"),
    ("http://0xa9fea9fe/latest/meta-data/", "private_address"),
    ("http://10.0.0.1/", "private_address"),
    ("http://192.168.1.1/admin", "private_address"),
    ("http://0.0.0.0/", "private_address"),
    ("http://[fe80::1]/", "private_address"),
    ("http://224.0.0.1/", "private_address"),
]


@pytest.mark.parametrize(("url", "rule"), REFUSED)
def test_refused_urls_name_their_rule(url: str, rule: str) -> None:
    result = check_url(url, STRICT)
    assert isinstance(result, Refused), result
    assert result.rule == rule
    assert result.reason.endswith(".")


def test_private_refusal_tells_the_editor_about_allow_private() -> None:
    result = check_url("http://2130706433/page", STRICT)
    assert isinstance(result, Refused)
    assert result.reason == (
        "The address 2130706433 is not a public internet address (loopback, this computer): Verbatim does not"
        " fetch from private or local networks. If this is your own intranet, run again with --allow-private."
    )


def test_scheme_refusal_wording() -> None:
    result = check_url("file:///etc/passwd", OPEN)
    assert isinstance(result, Refused)
    assert result.reason == (
        "Verbatim fetches only http and https links; file: links are refused (they could read this computer's"
        " files or run code). Supply the source yourself if you have it."
    )


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8501/",
        "http://2130706433:8080/x",
        "http://[::1]:9000/",
        "http://10.0.0.1/",
        "http://intranet:81/",
    ],
)
def test_allow_private_lifts_addresses_and_ports(url: str) -> None:
    assert isinstance(check_url(url, OPEN), Target)


@pytest.mark.parametrize(
    ("url", "rule"),
    [("file:///etc/passwd", "scheme"), ("javascript:alert(1)", "scheme"), ("http://u:p@127.0.0.1/", "credentials")],
)
def test_allow_private_never_lifts_scheme_or_credentials(url: str, rule: str) -> None:
    result = check_url(url, OPEN)
    assert isinstance(result, Refused) and result.rule == rule


def test_public_url_is_accepted_with_default_ports() -> None:
    https = check_url("https://peps.python.org/pep-0632/#abstract", STRICT)
    http = check_url("HTTP://Docs.Python.ORG./3/whatsnew/3.11.html", STRICT)
    assert isinstance(https, Target) and (https.host, https.port) == ("peps.python.org", 443)
    assert isinstance(http, Target) and (http.host, http.port, http.scheme) == ("docs.python.org", 80, "http")


ALLOW = Policy.from_settings(Settings(allowed_domains=("Python.org", "*.wikipedia.org", "https://example.net/x")))


@pytest.mark.parametrize(
    ("url", "allowed"),
    [
        ("https://python.org/", True),
        ("https://peps.python.org/pep-0632/", True),
        ("https://docs.python.org./3/", True),
        ("https://en.wikipedia.org/wiki/Dog", True),
        ("https://example.net/page", True),
        ("https://evilpython.org/", False),
        ("https://python.org.evil.com/", False),
        ("https://wikipedia.org.example.com/", False),
        ("https://example.org/", False),
        ("http://" + PUBLIC + "/", False),
    ],
)
def test_allowlist_covers_subdomains_only(url: str, allowed: bool) -> None:
    result = check_url(url, ALLOW)
    if allowed:
        assert isinstance(result, Target)
    else:
        assert isinstance(result, Refused) and result.rule == "allowlist"
        assert "--allow-domain" in result.reason


def test_allowlist_domains_are_normalised() -> None:
    assert ALLOW.allowed_domains == ("python.org", "wikipedia.org", "example.net")
    assert normalise_domain("Bücher.DE.") == "xn--bcher-kva.de"
    assert in_allowlist("shop.xn--bcher-kva.de", ["xn--bcher-kva.de"])


# --------------------------------------------------------------------------- the connection guard


class NoConnect:
    """A connector that fails the test: the guard must refuse before any socket is opened."""

    def __call__(self, address: str, port: int, timeout: float | None) -> httpcore.NetworkStream:
        pytest.fail(f"connect step reached for {address}:{port}")


@pytest.mark.parametrize(
    "answers",
    [
        ["10.0.0.5"],
        ["169.254.169.254"],
        ["127.0.0.1"],
        ["::1"],
        ["::ffff:192.168.0.1"],
        [PUBLIC, "10.0.0.5"],  # every address is checked, not just the first
        ["fd12:3456::1", PUBLIC],
    ],
)
def test_guard_refuses_private_answers_before_connecting(answers: list[str]) -> None:
    lookups: list[str] = []

    def resolver(host: str, port: int) -> list[str]:
        lookups.append(host)
        return answers

    backend = GuardedBackend(STRICT, resolver, NoConnect())
    with pytest.raises(Refused) as caught:
        backend.connect_tcp("news.example", 80, timeout=1.0)
    assert lookups == ["news.example"]
    assert caught.value.rule == "private_address"
    assert "The host news.example resolves to" in caught.value.reason
    assert "--allow-private" in caught.value.reason


def test_guard_connects_only_to_the_checked_address() -> None:
    calls: list[tuple[str, int]] = []

    def connector(address: str, port: int, timeout: float | None) -> httpcore.NetworkStream:
        calls.append((address, port))
        return httpcore.MockStream([])

    backend = GuardedBackend(STRICT, lambda host, port: [PUBLIC], connector)
    backend.connect_tcp("news.example", 443, timeout=1.0)
    assert calls == [(PUBLIC, 443)]


def test_guard_connects_to_mapped_ipv6_as_ipv4_when_private_is_allowed() -> None:
    calls: list[str] = []

    def connector(address: str, port: int, timeout: float | None) -> httpcore.NetworkStream:
        calls.append(address)
        return httpcore.MockStream([])

    GuardedBackend(OPEN, lambda h, p: ["::ffff:127.0.0.1"], connector).connect_tcp("intranet", 80)
    assert calls == ["127.0.0.1"]


def test_guard_checks_every_new_connection_so_rebinding_is_refused() -> None:
    answers = iter([[PUBLIC], ["127.0.0.1"]])
    calls: list[str] = []

    def connector(address: str, port: int, timeout: float | None) -> httpcore.NetworkStream:
        calls.append(address)
        return httpcore.MockStream([])

    backend = GuardedBackend(STRICT, lambda h, p: next(answers), connector)
    backend.connect_tcp("rebind.example", 80)
    with pytest.raises(Refused):
        backend.connect_tcp("rebind.example", 80)
    assert calls == [PUBLIC]


def test_guard_passes_unresolvable_names_on() -> None:
    def resolver(host: str, port: int) -> list[str]:
        raise NameNotFound(host, "stub")

    with pytest.raises(NameNotFound):
        GuardedBackend(STRICT, resolver, NoConnect()).connect_tcp("invented.example", 443)


def test_guard_refuses_unix_sockets() -> None:
    with pytest.raises(Refused):
        GuardedBackend(OPEN, None, NoConnect()).connect_unix_socket("/var/run/docker.sock")


def test_guard_resolves_localhost_itself_and_refuses_it() -> None:
    # The system resolver answers "localhost" from the hosts file: no query leaves the machine.
    with pytest.raises(Refused) as caught:
        GuardedBackend(STRICT, None, NoConnect()).connect_tcp("localhost", 80, timeout=1.0)
    assert "The host localhost resolves to" in caught.value.reason


# --------------------------------------------------------------------------- the per-source deadline


def test_deadline_bounds_every_connect_read_and_write_by_the_time_left_on_its_clock() -> None:
    clock = FakeClock()
    steps = Timeouts(lambda address, port, timeout: httpcore.MockStream([b"a", b"b", b"c"]))
    backend = GuardedBackend(OPEN, lambda h, p: [PUBLIC], steps)
    with deadline(3.0, clock):
        stream = backend.connect_tcp("news.example", 80, timeout=5.0)  # 3 s left: less than asked
        stream.read(10, timeout=2.0)  # 2 s asked, 3 s left: as asked
        clock.advance(2.5)
        assert remaining() == 0.5
        stream.read(10, timeout=2.0)
        stream.write(b"x", timeout=None)  # no timeout of its own: still only what is left
        clock.advance(0.5)
        with pytest.raises(httpcore.ReadTimeout, match="the deadline for this source has passed"):
            stream.read(10, timeout=2.0)
        with pytest.raises(httpcore.WriteTimeout):
            stream.write(b"x", timeout=2.0)
    assert remaining() is None  # the deadline belongs to the with-block
    assert steps.seen == [("connect", 3.0), ("read", 2.0), ("read", 0.5), ("write", 0.5)]
    assert clock.sleeps == []
