"""The address policy and the connection guard that keep the fetcher out of the user's network.

Two layers, both needed:

1. ``check_url`` refuses a URL before any network use: not http(s), credentials in it, a
   port other than ``allowed_ports``, a host outside the allowlist, or a host that is itself
   an IP address (in any spelling: ``2130706433``, ``0x7f000001``, ``127.1``, ``[::ffff:7f00:1]``)
   that is not a public internet address.
2. ``GuardedBackend`` is an httpcore network backend: on EVERY new connection it resolves the
   name itself, checks every address it got, and connects only to an address it checked. A
   name that resolved to a public address once and to 127.0.0.1 the next time is refused on
   the new connection (DNS rebinding). TLS still uses the URL's host name for SNI and
   certificate checks, because httpcore starts TLS with the origin's name, not the address.

``allow_private`` (``--allow-private``) lifts the address rule (loopback, private, link-local,
multicast, reserved, unspecified) AND the port rule: intranet services and test servers
listen on any port. It never lifts the scheme rule, the credentials rule or the allowlist.

Exceptions: ``Refused`` (a policy refusal, carrying an editor's reason) and ``NameNotFound``
(the host name does not resolve) are raised through httpx unchanged; everything else is
httpcore's own. This module never follows redirects, reads bodies or decides verdicts.
"""

from __future__ import annotations

import ipaddress
import re
import socket
import ssl
import threading
import time
import typing
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpcore
import httpx

from core.fetch.clock import SYSTEM, Clock
from core.settings import Settings

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
#: host, port -> the addresses it resolves to (as strings); raises NameNotFound.
Resolver = Callable[[str, int], Sequence[str]]
#: address, port, timeout -> a connected stream. Tests replace it to prove no socket is opened.
Connector = Callable[[str, int, float | None], httpcore.NetworkStream]

SCHEMES = ("http", "https")
#: Schemes that run code or read local files when opened: always refused by name.
_DANGEROUS_SCHEMES = frozenset({"javascript", "vbscript", "data", "file", "blob", "filesystem"})
_HINT_PRIVATE = "If this is your own intranet, run again with --allow-private."
# NAT64 embeds an IPv4 address in the last 32 bits; a private one must not slip through.
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_SHARED = ipaddress.IPv4Network("100.64.0.0/10")
_NUMERIC_HOST = re.compile(r"^[0-9a-fx.]+$", re.IGNORECASE)


class Refused(Exception):
    """The policy refused a URL or an address; ``rule`` names the rule, ``reason`` is for the editor."""

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(reason)
        self.rule = rule
        self.reason = reason


class NameNotFound(Exception):
    """The host name does not resolve to any address (``temporary``: the look-up itself failed)."""

    def __init__(self, host: str, detail: str = "", *, temporary: bool = False) -> None:
        super().__init__(f"{host}: {detail}" if detail else host)
        self.host = host
        self.temporary = temporary


#: getaddrinfo errors that say the name does not exist; any other means the look-up failed
#: (no network, the name server not answering), which says nothing about the source.
_NO_SUCH_NAME = frozenset(e for e in (socket.EAI_NONAME, getattr(socket, "EAI_NODATA", None)) if e is not None)


@dataclass(frozen=True)
class Policy:
    """What may be fetched: private addresses, ports, domains."""

    allow_private: bool = False
    allowed_ports: tuple[int, ...] = (80, 443)
    allowed_domains: tuple[str, ...] = ()

    @classmethod
    def from_settings(cls, settings: Settings) -> Policy:
        """Return the policy the settings describe, domains normalised to lower-case ASCII."""
        domains = tuple(d for d in (normalise_domain(x) for x in settings.allowed_domains) if d)
        return cls(settings.allow_private, tuple(settings.allowed_ports), domains)


@dataclass(frozen=True)
class Target:
    """A URL the policy accepted: its scheme, host (lower-case ASCII), port and IP if literal."""

    url: str
    scheme: str
    host: str
    port: int
    ip: IPAddress | None = None


# --------------------------------------------------------------------------- addresses


def address_problem(ip: IPAddress) -> str | None:
    """Return why an address is not a public internet address ("loopback, this computer", ...), or None."""
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if embedded is None and ip in _NAT64:
            embedded = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if embedded is not None:
            inner = address_problem(embedded)
            if inner is not None:
                return f"{inner}, an IPv4 address written as IPv6"
    if ip.is_unspecified:
        return "unspecified, which reaches this computer"
    if ip.is_loopback:
        return "loopback, this computer"
    if ip.is_link_local:
        return "link-local, where cloud metadata services such as 169.254.169.254 live"
    if ip.is_multicast:
        return "multicast"
    if isinstance(ip, ipaddress.IPv4Address) and ip in _SHARED:
        return "shared carrier-grade NAT space"
    if ip.is_reserved:
        return "reserved"
    if ip.is_private:
        return "private network"
    if not ip.is_global:
        return "not routed on the public internet"
    return None


def parse_ip_host(host: str) -> IPAddress | None:
    """Return the IP address a URL host spells (odd IPv4 spellings included), or None for a name."""
    h = host.strip("[]")
    try:
        return ipaddress.ip_address(h)
    except ValueError:
        pass
    # inet_aton reads what browsers and resolvers read: 2130706433, 0x7f000001, 127.1, 0177.0.0.1.
    if _NUMERIC_HOST.match(h) and any(c.isdigit() for c in h):
        try:
            return ipaddress.IPv4Address(socket.inet_aton(h))
        except OSError:
            return None
    return None


def check_address(host: str, address: str, policy: Policy) -> Refused | None:
    """Return the refusal for connecting to address (resolved from host), or None when allowed."""
    if policy.allow_private:
        return None
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return Refused("address", f"The host {host} resolved to {address!r}, which is not an IP address.")
    problem = address_problem(ip)
    if problem is None:
        return None
    literal = parse_ip_host(host)
    subject = f"The address {host}" if literal is not None else f"The host {host} resolves to {address}, which"
    return Refused(
        "private_address",
        f"{subject} is not a public internet address ({problem}): Verbatim does not fetch from private or"
        f" local networks. {_HINT_PRIVATE}",
    )


# --------------------------------------------------------------------------- URLs


def normalise_domain(domain: str) -> str:
    """Return a domain as lower-case ASCII without a leading "*." or trailing dot ("" if unusable)."""
    d = domain.strip().lower().removeprefix("*.").strip(".")
    if "://" in d:
        d = urlsplit(d).hostname or ""
    try:
        return d.encode("idna").decode("ascii") if d else ""
    except UnicodeError:
        return d


def in_allowlist(host: str, domains: Iterable[str]) -> bool:
    """Return True when host is one of domains or a subdomain of one."""
    return any(host == d or host.endswith("." + d) for d in domains)


def check_url(url: str, policy: Policy) -> Target | Refused:
    """Return the checked target of an http(s) URL, or the Refused saying which rule it breaks."""
    text = url.strip()
    shown = text if len(text) <= 80 else text[:77] + "..."
    if not text:
        return Refused("malformed", "The claim's link is empty: add the source's web address to the brief.")
    if any(c.isspace() or ord(c) < 32 for c in text):
        return Refused("malformed", f"The link {shown!r} contains spaces or control characters: fix it in the brief.")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as e:
        return Refused("malformed", f"The link {shown!r} is malformed ({e}): fix it in the brief.")
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        # A script or local scheme is named as refused whatever follows it ("javascript:a.b()"),
        # never mistaken for a mistyped web address.
        typo = not scheme or (not parts.netloc and "." in parts.path.split("/")[0])
        if typo and scheme not in _DANGEROUS_SCHEMES:
            return Refused(
                "scheme", f"The link {shown!r} does not start with http:// or https://: fix it in the brief."
            )
        return Refused(
            "scheme",
            f"Verbatim fetches only http and https links; {scheme}: links are refused"
            " (they could read this computer's files or run code). Supply the source yourself if you have it.",
        )
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        return Refused(
            "credentials",
            f"The link {scheme}://…@{parts.hostname or ''} carries a user name or password; Verbatim never"
            " sends credentials. Remove them from the link, or supply the page yourself.",
        )
    try:
        parsed = httpx.URL(text)
        host = parsed.raw_host.decode("ascii").lower().rstrip(".")
    except (httpx.InvalidURL, UnicodeError, ValueError) as e:
        # httpx rejects some spellings browsers accept (0177.0.0.1): name the address, not the syntax.
        odd = parse_ip_host(parts.hostname or "")
        refusal = check_address(parts.hostname or "", str(odd), policy) if odd is not None else None
        return refusal or Refused("malformed", f"The link {shown!r} is malformed ({e}): fix it in the brief.")
    if not host:
        return Refused("malformed", f"The link {shown!r} has no host name: fix it in the brief.")
    port = port if port is not None else (443 if scheme == "https" else 80)
    if policy.allowed_domains and not in_allowlist(host, policy.allowed_domains):
        return Refused(
            "allowlist",
            f"{host} is outside the allowed domains ({', '.join(policy.allowed_domains)}). Add it with"
            " --allow-domain if this source should be read.",
        )
    ip = parse_ip_host(host)
    if ip is not None:
        refusal = check_address(host, str(ip), policy)
        if refusal is not None:
            return refusal
    if not policy.allow_private and port not in policy.allowed_ports:
        allowed = ", ".join(str(p) for p in policy.allowed_ports)
        return Refused(
            "port",
            f"The link uses port {port}; only ports {allowed} are fetched, because other ports usually"
            f" belong to internal services. {_HINT_PRIVATE}",
        )
    return Target(text, scheme, host, port, ip)


# --------------------------------------------------------------------------- deadline

_local = threading.local()


@contextmanager
def deadline(at: float, clock: Clock = SYSTEM) -> Iterator[None]:
    """Bound every connect, read and write of this thread's connections by the deadline at (clock.now() seconds)."""
    previous = getattr(_local, "deadline", None)
    _local.deadline = (at, clock)
    try:
        yield
    finally:
        _local.deadline = previous


def remaining() -> float | None:
    """Return the seconds left before this thread's deadline, or None when there is none."""
    bound: tuple[float, Clock] | None = getattr(_local, "deadline", None)
    if bound is None:
        return None
    at, clock = bound
    return at - clock.now()


def _bounded(timeout: float | None, exc: type[Exception]) -> float | None:
    left = remaining()
    if left is None:
        return timeout
    if left <= 0:
        raise exc("the deadline for this source has passed")
    return left if timeout is None else min(timeout, left)


# --------------------------------------------------------------------------- resolving and connecting

# Lookups run here so that a stuck resolver cannot outlive the source's deadline.
_resolver_pool = ThreadPoolExecutor(max_workers=16, thread_name_prefix="verbatim-dns")


def system_resolver(host: str, port: int) -> list[str]:
    """Return the addresses the system resolver gives for host, in its order; raise NameNotFound."""
    future = _resolver_pool.submit(socket.getaddrinfo, host, port, 0, socket.SOCK_STREAM)
    try:
        infos = future.result(timeout=_bounded(None, httpcore.ConnectTimeout))
    except FutureTimeout:
        raise httpcore.ConnectTimeout(f"resolving {host} took too long") from None
    except socket.gaierror as e:
        raise NameNotFound(host, str(e), temporary=e.errno not in _NO_SUCH_NAME) from None
    addresses: list[str] = []
    for info in infos:
        address = str(info[4][0])
        if address not in addresses:
            addresses.append(address)
    if not addresses:
        raise NameNotFound(host, "no addresses")
    return addresses


def system_connector(address: str, port: int, timeout: float | None) -> httpcore.NetworkStream:
    """Return a TCP stream connected to address:port (an address the guard already checked)."""
    return httpcore.SyncBackend().connect_tcp(address, port, timeout=timeout, socket_options=[])


class _DeadlineStream(httpcore.NetworkStream):
    """A stream whose reads and writes never outlive the source's deadline."""

    def __init__(self, inner: httpcore.NetworkStream) -> None:
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _bounded(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, _bounded(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(
        self, ssl_context: typing.Any, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.NetworkStream:
        inner = self._inner.start_tls(ssl_context, server_hostname, _bounded(timeout, httpcore.ConnectTimeout))
        return _DeadlineStream(inner)

    def get_extra_info(self, info: str) -> typing.Any:
        return self._inner.get_extra_info(info)


class GuardedBackend(httpcore.NetworkBackend):
    """An httpcore backend that resolves, checks every address, and connects only to checked ones."""

    def __init__(self, policy: Policy, resolver: Resolver | None = None, connector: Connector | None = None) -> None:
        self.policy = policy
        self.resolver: Resolver = resolver or system_resolver
        self.connector: Connector = connector or system_connector

    def checked_addresses(self, host: str, port: int) -> list[str]:
        """Return host's addresses when every one is allowed; raise Refused or NameNotFound otherwise."""
        literal = parse_ip_host(host)
        addresses = [str(literal)] if literal is not None else list(self.resolver(host, port))
        if not addresses:
            raise NameNotFound(host, "no addresses")
        for address in addresses:
            refusal = check_address(host, address, self.policy)
            if refusal is not None:
                raise refusal
        # An IPv4-mapped IPv6 address is connected to as the IPv4 address it stands for.
        out = []
        for address in addresses:
            ip = ipaddress.ip_address(address.split("%", 1)[0])
            mapped = ip.ipv4_mapped if isinstance(ip, ipaddress.IPv6Address) else None
            out.append(str(mapped) if mapped is not None else address)
        return out

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[typing.Any] | None = None,
    ) -> httpcore.NetworkStream:
        addresses = self.checked_addresses(host, port)
        error: Exception | None = None
        for address in addresses:
            try:
                stream = self.connector(address, port, _bounded(timeout, httpcore.ConnectTimeout))
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as e:
                error = e
                continue
            return _DeadlineStream(stream)
        assert error is not None  # addresses is never empty here
        raise error

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[typing.Any] | None = None
    ) -> httpcore.NetworkStream:
        raise Refused("unix_socket", "Verbatim never connects to local sockets.")

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


class GuardedTransport(httpx.HTTPTransport):
    """httpx's own transport with its connection pool built on GuardedBackend; proxies never used."""

    def __init__(
        self,
        policy: Policy,
        *,
        resolver: Resolver | None = None,
        connector: Connector | None = None,
        max_keepalive: int = 10,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        super().__init__(trust_env=False)
        self.backend = GuardedBackend(policy, resolver, connector)
        self._pool = httpcore.ConnectionPool(
            ssl_context=ssl_context or httpx.create_ssl_context(trust_env=False),
            max_connections=None,
            max_keepalive_connections=max_keepalive,
            keepalive_expiry=5.0,
            network_backend=self.backend,
        )
