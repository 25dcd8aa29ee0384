"""The guarded connection: every new connection resolves, checks each address, and keeps the deadline.

``GuardedBackend`` is an httpcore network backend: on EVERY new connection it resolves the
name itself, checks every address it got against the policy (``core.fetch.policy``), and
connects only to an address it checked. A name that resolved to a public address once and to
127.0.0.1 the next time is refused on the new connection (DNS rebinding). TLS still uses the
URL's host name for SNI and certificate checks, because httpcore starts TLS with the origin's
name, not the address. ``deadline`` bounds every connect, read and write of a source in time.

Exceptions: ``Refused`` (a policy refusal, carrying an editor's reason) and ``NameNotFound``
(the host name does not resolve) are raised through httpx unchanged; everything else is
httpcore's own. The policy's names are reachable from here too (``netguard.check_url``).
This module never follows redirects, reads bodies or decides verdicts.
"""

from __future__ import annotations

import ipaddress
import socket
import ssl
import threading
import time
import typing
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager
from functools import cache

import httpcore
import httpx

from core.errors import NameNotFound, Refused
from core.fetch.clock import SYSTEM, Clock
from core.fetch.policy import (
    SCHEMES,
    IPAddress,
    Policy,
    Target,
    address_problem,
    check_address,
    check_url,
    in_allowlist,
    normalise_domain,
    parse_ip_host,
)

__all__ = [
    "CHECKED_ADDRESS",
    "SCHEMES",
    "Connector",
    "GuardedBackend",
    "GuardedTransport",
    "IPAddress",
    "NameNotFound",
    "Policy",
    "Refused",
    "Resolver",
    "Target",
    "address_problem",
    "check_address",
    "check_url",
    "deadline",
    "in_allowlist",
    "normalise_domain",
    "parse_ip_host",
    "remaining",
    "system_connector",
    "system_resolver",
]

#: host, port -> the addresses it resolves to (as strings); raises NameNotFound.
Resolver = Callable[[str, int], Sequence[str]]
#: address, port, timeout -> a connected stream. Tests replace it to prove no socket is opened.
Connector = Callable[[str, int, float | None], httpcore.NetworkStream]

#: getaddrinfo errors that say the name does not exist; any other means the look-up failed
#: (no network, the name server not answering), which says nothing about the source.
_NO_SUCH_NAME = frozenset(e for e in (socket.EAI_NONAME, getattr(socket, "EAI_NODATA", None)) if e is not None)


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


#: The extra-info key under which a guarded stream names the checked address it is connected to.
CHECKED_ADDRESS = "verbatim_checked_address"


class _DeadlineStream(httpcore.NetworkStream):
    """A stream whose reads and writes never outlive the source's deadline; it knows the address it was checked for."""

    def __init__(self, inner: httpcore.NetworkStream, address: str = "") -> None:
        self._inner = inner
        self._address = address

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
        return _DeadlineStream(inner, self._address)

    def get_extra_info(self, info: str) -> typing.Any:
        if info == CHECKED_ADDRESS:
            return self._address
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
            return _DeadlineStream(stream, address)
        assert error is not None  # addresses is never empty here
        raise error

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[typing.Any] | None = None
    ) -> httpcore.NetworkStream:
        raise Refused("unix_socket", "Verbatim never connects to local sockets.")

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


@cache
def shared_tls() -> ssl.SSLContext:
    """Return the one TLS context of this process: certificate checks on, the bundled CA list, no proxy variables.

    Building one reads and parses the whole CA bundle (about 50 ms). A context is safe to share
    between threads and connections, so every fetcher of the process uses this one instead of
    building two (httpx's transport builds its own first) for every check.
    """
    return httpx.create_ssl_context(trust_env=False)


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
        tls = ssl_context or shared_tls()
        super().__init__(verify=tls, trust_env=False)  # its own pool, replaced below, takes the same context
        self.backend = GuardedBackend(policy, resolver, connector)
        self._pool = httpcore.ConnectionPool(
            ssl_context=tls,
            max_connections=None,
            max_keepalive_connections=max_keepalive,
            keepalive_expiry=5.0,
            network_backend=self.backend,
        )
