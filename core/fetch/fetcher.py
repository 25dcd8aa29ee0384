"""Fetching a brief's sources: safely, politely, and with every failure told apart.

``Fetcher.fetch`` reads one URL; ``Fetcher.fetch_all`` reads many at once through
``core.fetch.concurrency`` (at most ``max_concurrency`` sources at a time and ``max_per_host``
requests per host, each URL once, progress reported on the caller's thread; ``limiter=`` takes a
per-host limit shared beyond this fetcher, such as core.jobs' across all workers). Every URL and every
redirect is checked by ``core.fetch.policy`` before use, and every new connection is checked
again after DNS by ``core.fetch.netguard``. Each
outcome is a ``Source``: status ok with the exact bytes, or blocked / dead_link /
not_checked with a reason an editor can act on. Expected failures never raise.

With a store, a stored copy is used unless ``refresh=True`` (origin "cache"; copies the
editor supplied or the samples brought keep origin "editor"/"sample"). A fresh copy whose
text differs from the newest stored fetched copy has ``drift=True``: the text is compared
through ``core.extract.read.extract`` when that module is present, else the sha256 of the bytes.
Deadlines and Retry-After waits are measured by the fetcher's ``core.fetch.clock`` (tests pass a fake).

It refuses to extract text, match quotes or decide verdicts; it ignores environment proxies.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from urllib.parse import urljoin

import httpx

from core.errors import DecodeError, NameNotFound, Refused, TooLarge
from core.fetch import netguard
from core.fetch.body import ACCEPT_ENCODING, decide_type, decode_stream
from core.fetch.clock import SYSTEM, Clock
from core.fetch.concurrency import HostLimiter, Progress, fetch_each, host_key
from core.fetch.netguard import Connector, Policy, Resolver, check_url
from core.fetch.reasons import (
    connect_reason,
    failure,
    retry_wait,
    status_failure,
    timeout_reason,
    too_large,
    via,
)
from core.fetch.stored import EDITORS_COPIES, UNPROVEN, stored_refusal
from core.models import FetchState, Origin, Source, SourceStatus
from core.settings import Settings
from core.store import Store, now_iso, strip_fragment

ACCEPT = "text/html,application/xhtml+xml,application/pdf;q=0.9,text/plain;q=0.8,*/*;q=0.5"
_REDIRECTS = (301, 302, 303, 307, 308)
_LIVE_ORIGINS = EDITORS_COPIES  # copies that came from no fetch: used whatever the policy says


class Fetcher:
    """Reads sources for one run (a class, not a dataclass: it owns an HTTP client and threads)."""

    def __init__(
        self,
        settings: Settings,
        store: Store | None = None,
        *,
        resolver: Resolver | None = None,
        transport: httpx.BaseTransport | None = None,
        connector: Connector | None = None,
        clock: Clock | None = None,
        limiter: HostLimiter | None = None,
    ) -> None:
        self.settings = settings
        self.store = store
        # Deadlines and Retry-After waits are measured by this clock (tests pass a fake one).
        self.clock = clock or SYSTEM
        self.policy = Policy.from_settings(settings)
        # A caller's transport (tests) gets the address check before each request instead.
        self._precheck = netguard.GuardedBackend(self.policy, resolver) if transport is not None else None
        self.transport = transport or netguard.GuardedTransport(
            self.policy,
            resolver=resolver,
            connector=connector,
            # Room to keep every allowed connection: closing one to open another would let a
            # host briefly see more connections than max_per_host.
            max_keepalive=settings.max_concurrency * settings.max_per_host,
        )
        self._client = httpx.Client(
            transport=self.transport,
            trust_env=False,
            follow_redirects=False,
            timeout=httpx.Timeout(
                connect=settings.connect_timeout,
                read=settings.read_timeout,
                write=settings.read_timeout,
                pool=settings.total_deadline,
            ),
            headers={"User-Agent": settings.user_agent, "Accept": ACCEPT, "Accept-Encoding": ACCEPT_ENCODING},
        )
        # A caller's limiter (core.jobs: one per host for every worker of the team) or this run's own.
        self._limiter = limiter or HostLimiter(settings.max_per_host)

    def close(self) -> None:
        """Close the connections this fetcher keeps open."""
        self._client.close()

    def __enter__(self) -> Fetcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ public

    def fetch(self, url: str, *, refresh: bool = False) -> Source:
        """Return the source at url: ok with its bytes, or blocked/dead_link/not_checked with the reason."""
        return replace(self._fetch_key(strip_fragment(url.strip()), refresh, _no_progress), url=url)

    def fetch_all(
        self,
        urls: Sequence[str],
        *,
        refresh: bool = False,
        progress: Progress | None = None,
        arrived: Callable[[str, Source], None] | None = None,
    ) -> dict[str, Source]:
        """Return every URL's source, each distinct URL fetched once, several at a time; never raises for a URL.

        ``arrived``, when given, is handed each URL's source as soon as it is read (on a fetching
        thread), and the sources returned then hold no bodies: the caller has them, the store keeps them.
        """
        by_key: dict[str, list[str]] = {}
        for u in urls:
            by_key.setdefault(strip_fragment(u.strip()), []).append(u)

        def report(key: str, state: FetchState, detail: str) -> None:
            if progress is not None:
                for u in by_key[key]:
                    progress(u, state, detail)

        def fetch(key: str, emit: Progress) -> Source:
            source = self._fetch_key(key, refresh, emit)
            if arrived is None:
                return source
            for u in by_key[key]:
                arrived(u, replace(source, url=u))
            return replace(source, body=b"")

        results = fetch_each(
            list(by_key),
            fetch,
            self._limiter,
            self.settings.max_concurrency,
            report,
        )
        return {u: replace(results[key], url=u) for key, us in by_key.items() for u in us}

    # ------------------------------------------------------------------ one source

    def _fetch_key(self, key: str, refresh: bool, emit: Progress) -> Source:
        stored = self.store.latest_source(key) if self.store is not None else None
        if stored is not None and not refresh:
            if stored.origin in _LIVE_ORIGINS:
                emit(key, FetchState.CACHED, f"supplied copy of {stored.fetched_at}")
                return stored
            refusal = stored_refusal(stored, self.policy)
            if refusal is None:
                emit(key, FetchState.CACHED, f"stored copy of {stored.fetched_at}")
                # Drift is news of the run that fetched the new copy; reading it again is not a change.
                return replace(stored, origin=Origin.CACHE, drift=False)
            if refusal.rule != UNPROVEN:  # what this policy would not fetch, it does not serve from the store either
                emit(key, FetchState.FAILED, refusal.reason)
                return failure(key, SourceStatus.BLOCKED, refusal.reason)
        emit(key, FetchState.FETCHING, host_key(key))
        try:
            source = self._network(key)
        except (httpx.InvalidURL, UnicodeError, ValueError) as e:
            # A spelling the policy let through but a library cannot parse is this link's problem only.
            reason = f"The link {key!r} cannot be fetched: it could not be parsed ({e}). Fix the link in the brief."
            source = failure(key, SourceStatus.BLOCKED, reason)
        if self.store is not None:
            if source.status is SourceStatus.OK:
                previous = self.store.latest_source(key, origins=(Origin.FETCHED, Origin.SAMPLE))
                if previous is not None and not _same_content(previous, source):
                    source = replace(source, drift=True)
            self.store.save_source(source)
            if source.status is not SourceStatus.OK and stored is not None and stored.origin in _LIVE_ORIGINS:
                # A refresh that fails must not hide the copy the editor supplied.
                emit(key, FetchState.CACHED, f"fresh fetch failed; using the supplied copy of {stored.fetched_at}")
                return stored
        if source.status is SourceStatus.OK:
            emit(key, FetchState.FETCHED, f"{source.http_status} · {len(source.body):,} bytes")
        else:
            emit(key, FetchState.FAILED, source.reason)
        return source

    def _network(self, url: str) -> Source:
        s = self.settings
        # The deadline, moved on by every wait for a slot of the host's queue: the time is the requests' own.
        at = [self.clock.now() + s.total_deadline]
        jar = httpx.Cookies()  # per source: no cookie ever travels from one source to another
        chain: list[str] = []
        hops: list[tuple[str, str]] = []  # (host, address) of every connection: kept with the copy
        current = url
        with netguard.deadline(at[0], self.clock):
            for _ in range(s.max_redirects + 1):
                target = check_url(current, self.policy)
                if isinstance(target, Refused):
                    return failure(url, SourceStatus.BLOCKED, via(chain, current, target.reason), current)
                chain.append(current)
                outcome = self._get(url, target, jar, at, chain, hops)
                if isinstance(outcome, Source):
                    return replace(outcome, addresses=tuple(hops))
                if strip_fragment(outcome) in (strip_fragment(c) for c in chain):
                    return failure(
                        url,
                        SourceStatus.NOT_CHECKED,
                        f"The link redirects in a loop ({' → '.join([*chain, outcome])}): the site is misconfigured."
                        " Try the final page's address yourself.",
                        current,
                    )
                current = outcome
        return failure(
            url,
            SourceStatus.NOT_CHECKED,
            f"The link redirected more than {s.max_redirects} times (last to {current}); Verbatim stops there."
            " Cite the final page's address instead.",
            current,
        )

    def _get(
        self,
        url: str,
        target: netguard.Target,
        jar: httpx.Cookies,
        at: list[float],
        chain: list[str],
        hops: list[tuple[str, str]],
    ) -> Source | str:
        """Return the Source, or the next URL of a redirect; retries 429/5xx as settings allow."""
        s = self.settings
        attempt = 0
        answered: Source | None = None  # what the server answered last, when it is asked again
        while True:
            try:
                queued = self.clock.now()
                with self._limiter.slot(target.host):
                    at[0] += max(0.0, self.clock.now() - queued)  # the wait in the host's queue is not counted
                    with netguard.deadline(at[0], self.clock):
                        checked: list[str] = []
                        if self._precheck is not None:
                            checked = self._precheck.checked_addresses(target.host, target.port)
                        request = self._client.build_request("GET", target.url)
                        jar.set_cookie_header(request)
                        # The transport, not Client.send: the client would parse every Location
                        # itself and raise on odd ones; redirects are this module's business.
                        response = self.transport.handle_request(request)
                        response.request = request
                        hops.append((target.host, _peer(response) or (checked[0] if checked else "")))
                        try:
                            status = response.status_code
                            if status in _REDIRECTS and response.headers.get("location"):
                                jar.extract_cookies(response)
                                # urljoin keeps the Location as written, so the policy judges what was sent.
                                return urljoin(target.url, response.headers["location"].strip())
                            if 200 <= status < 300:
                                return self._read(url, target, response, at[0])
                            wait = retry_wait(response, attempt, s, self.clock)
                            answered = status_failure(url, target.url, response, attempt, s, self.clock)
                            if wait is None or attempt >= s.max_retries or self.clock.now() + wait > at[0]:
                                return answered
                        finally:
                            response.close()
            except Refused as r:
                return failure(url, SourceStatus.BLOCKED, via(chain[:-1], target.url, r.reason), target.url)
            except NameNotFound as e:
                if e.temporary:
                    reason = (
                        f"The host name {e.host} could not be looked up: this computer may be offline or its name"
                        " server is not answering. Try again later, or supply the page yourself."
                    )
                    return failure(url, SourceStatus.NOT_CHECKED, via(chain[:-1], target.url, reason), target.url)
                reason = (
                    f"The host name {e.host} does not resolve: the site does not exist (possibly an invented"
                    " source) or this computer is offline. Check the link."
                )
                return failure(url, SourceStatus.DEAD_LINK, via(chain[:-1], target.url, reason), target.url)
            except httpx.TimeoutException as e:
                if answered is not None:  # the server did answer: that is the news, not the retry's timeout
                    return replace(answered, reason=f"{answered.reason} Asked again, it did not answer in time.")
                reason = timeout_reason(e, target, at[0], s, self.clock)
                return failure(url, SourceStatus.NOT_CHECKED, reason, target.url)
            except httpx.ConnectError as e:
                return failure(url, SourceStatus.NOT_CHECKED, connect_reason(e, target), target.url)
            except httpx.TransportError as e:
                reason = (
                    f"The connection to {target.host} broke off ({type(e).__name__}: {e}): the server sent"
                    " something that is not valid HTTP. Try again later or supply the page yourself."
                )
                return failure(url, SourceStatus.NOT_CHECKED, reason, target.url)
            attempt += 1
            self.clock.sleep(wait)

    def _read(self, url: str, target: netguard.Target, response: httpx.Response, at: float) -> Source:
        s = self.settings
        cap = s.max_body_bytes
        status = response.status_code
        declared = response.headers.get("content-type", "")
        length = response.headers.get("content-length", "")
        if length.isdigit() and int(length) > cap:
            return failure(url, SourceStatus.NOT_CHECKED, too_large(cap, int(length)), target.url, status)
        raw_seen = 0

        def raw() -> Iterator[bytes]:
            nonlocal raw_seen
            for chunk in response.iter_raw():
                raw_seen += len(chunk)
                if raw_seen > cap:
                    raise TooLarge
                yield chunk

        pieces: list[bytes] = []
        size = 0
        decision = None
        try:
            for piece in decode_stream(raw(), response.headers.get("content-encoding", "")):
                size += len(piece)
                if size > cap:
                    raise TooLarge
                pieces.append(piece)
                if decision is None and size >= s.sniff_bytes:
                    decision = decide_type(declared, b"".join(pieces)[: s.sniff_bytes])
                    if decision.refusal:
                        return failure(url, SourceStatus.NOT_CHECKED, decision.refusal, target.url, status)
        except TooLarge:
            return failure(url, SourceStatus.NOT_CHECKED, too_large(cap), target.url, status)
        except DecodeError as e:
            reason = f"The page could not be unpacked: {e}. Try again later or supply the page yourself."
            return failure(url, SourceStatus.NOT_CHECKED, reason, target.url, status)
        body = b"".join(pieces)
        del pieces
        if decision is None:
            decision = decide_type(declared, body[: s.sniff_bytes])
            if decision.refusal:
                return failure(url, SourceStatus.NOT_CHECKED, decision.refusal, target.url, status)
        return Source(
            url=url,
            status=SourceStatus.OK,
            reason=decision.note,
            final_url=target.url,
            http_status=status,
            content_type=decision.content_type,
            headers=tuple(response.headers.multi_items()),
            body=body,
            sha256=hashlib.sha256(body).hexdigest(),
            fetched_at=now_iso(),
        )


# --------------------------------------------------------------------------- helpers


def _no_progress(url: str, state: FetchState, detail: str) -> None:
    return None


def _peer(response: httpx.Response) -> str:
    """Return the address the response's connection is connected to ("" when the transport does not say)."""
    stream = response.extensions.get("network_stream")
    if stream is None:
        return ""
    # The address the guard checked and connected to (a test's connector may route it elsewhere).
    checked = stream.get_extra_info(netguard.CHECKED_ADDRESS)
    if checked:
        return str(checked)
    peer = stream.get_extra_info("server_addr")
    return str(peer[0]) if isinstance(peer, tuple) and peer else ""


def _same_content(a: Source, b: Source) -> bool:
    """Return True when two copies hold the same text (extracted when possible, else the same bytes)."""
    if a.sha256 == b.sha256:
        return True
    try:
        # H-extract's module, imported late: fetching works (comparing bytes) without it.
        extract = importlib.import_module("core.extract.read").extract
    except (ImportError, AttributeError):
        return False
    ta = extract(a.body, a.content_type, a.url)
    tb = extract(b.body, b.content_type, b.url)
    text_a, text_b = getattr(ta, "text", None), getattr(tb, "text", None)
    return text_a is not None and text_a == text_b
