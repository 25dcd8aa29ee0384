"""Check a whole brief in bounded memory: each source fetched, read once and let go as soon as its claims are decided.

Claims are grouped by source, so that each page is read (extracted, or taken from the text the
store keeps) and prepared once, by ``core.check.source``. Pages are read as they arrive from the
fetcher, while the rest are still being fetched, in a pool of worker processes
(``core.check.pool``, one per core) or, for a few pages or ``extract_workers=0``, in this
process. At most ``check_pages_ahead`` fetched pages wait beyond one per reader, so bodies never
pile up; a page's bytes stay in the store, and its prepared text lives only while its claims are
checked. A failed quote is then looked for on the brief's other pages (``core.check.elsewhere``).
Progress, and each claim's result as soon as it is decided, are reported on the caller's thread.
"""

from __future__ import annotations

import dataclasses
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from datetime import UTC, datetime
from typing import Any

from core.check.claims import _internal, _isolated, offline_source
from core.check.elsewhere import Readable, first_holders
from core.check.pool import Lost, PagePool, shared_pool
from core.check.source import SourceOutcome, SourceTask, check_source, checked_on, lost_source, without_body
from core.diagnose import misattributed
from core.fetch import Fetcher, Policy, Progress, checked_under
from core.fetch.shown import masked_brief
from core.match import PreparedPage, prepare
from core.models import Brief, Claim, ClaimResult, FetchState, PageText, Report, Source, SourceStatus
from core.pagecache import page_from_json, page_to_json, recent_page, stored_text, text_key
from core.settings import Settings
from core.store import Store

#: Called with each claim's result as soon as it is decided (in the order sources finish, not brief order).
ResultSink = Callable[[ClaimResult], None]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _pool(settings: Settings, sources: int) -> PagePool | None:
    """Return the pool to read pages in, or None to read them here (no workers asked, or too few pages to pay)."""
    if settings.extract_workers == 0:
        return None
    pool = shared_pool(settings.extract_workers)
    if not pool.started and sources < settings.extract_pool_min_pages:
        return None
    return pool


def _lost_reason(lost: Lost, url: str) -> str:
    return (
        f"{lost.reason} ({url}): the page may be built to crash or stall readers, or be far larger than a"
        " page should. Nothing else of the brief was affected. Open the page yourself, or supply its text."
    )


class _Run:
    """The state of one brief's check (a class: it is mutable, filled in as sources finish)."""

    def __init__(self, brief: Brief, settings: Settings, store: Store | None, on_result: ResultSink | None) -> None:
        self.settings, self.store, self.on_result = settings, store, on_result
        self.groups: dict[str, list[tuple[int, Claim]]] = {}
        for i, claim in enumerate(brief.claims):
            self.groups.setdefault(claim.url, []).append((i, claim))
        self.results: list[ClaimResult | None] = [None] * len(brief.claims)
        self.sources: dict[str, Source] = {}
        self.prints: dict[str, bytes] = {}
        # Without a store the page texts (never their indexes) are kept for the misattribution pass.
        self.texts: dict[str, PageText] = {}

    def task(self, url: str, source: Source) -> SourceTask | None:
        """Return the task of reading a readable source, or None after deciding its claims here (source failed)."""
        self.sources[url] = without_body(source)
        if source.status is not SourceStatus.OK:
            self.finish(
                url,
                SourceOutcome(
                    results=tuple(
                        (i, _isolated(c, self.sources[url], None, self.settings, {})) for i, c in self.groups[url]
                    )
                ),
            )
            return None
        # A page this process prepared lately is checked from memory: the store's text is not read for it.
        held = recent_page(source, self.settings) is not None
        stored = None if held else stored_text(source, self.settings, self.store)
        return SourceTask(
            source=source if stored is None else without_body(source),
            claims=tuple(self.groups[url]),
            settings=self.settings,
            stored=None if stored is None else page_to_json(stored),
        )

    def finish(self, url: str, outcome: SourceOutcome) -> None:
        if outcome.text is not None:
            if self.store is not None:
                self.store.save_page_text(*text_key(self.sources[url], self.settings), outcome.text)
            elif "unreadable" not in outcome.text:
                page = page_from_json(outcome.text)
                if isinstance(page, PageText):
                    self.texts[url] = page
        if outcome.prints is not None:
            self.prints[url] = outcome.prints
        for i, result in outcome.results:
            self.results[i] = result
            if self.on_result is not None:
                self.on_result(result)

    def reread(self, url: str) -> PreparedPage | None:
        """Return a page of the brief prepared again from the text kept of it (not kept in memory after), or None."""
        page = self.texts.get(url) or stored_text(self.sources[url], self.settings, self.store)
        return prepare(page) if isinstance(page, PageText) else None

    def misattribution(self, urls: list[str]) -> None:
        """Add to each failed quote's diagnosis the first other source of the brief holding it verbatim."""
        pages = [
            Readable(u, (text_key(self.sources[u], self.settings)[0], self.sources[u].content_type), self.prints[u])
            for u in urls
            if u in self.prints
        ]
        keys = {p.url: p.key for p in pages}
        wanted = [
            (i, (r.claim.quote or "").strip(), keys[r.claim.url])
            for i, r in enumerate(self.results)
            if r is not None
            and r.match is not None
            and not r.match.found
            and r.near_miss is not None
            and r.claim.url in keys
        ]
        for i, (n, url) in first_holders(pages, wanted, self.reread, self.settings).items():
            result = self.results[i]
            assert result is not None and result.near_miss is not None
            self.results[i] = dataclasses.replace(result, near_miss=misattributed(result.near_miss, n, url))


def _fetching(
    urls: list[str],
    events: queue.Queue[tuple[str, Any]],
    gate: threading.Semaphore,
    *,
    settings: Settings,
    store: Store | None,
    refresh: bool,
    fetcher: Fetcher | None,
    offline: bool,
) -> None:
    """Fetch (or read offline) every URL, putting progress and each source on the queue as it comes."""

    def progress(url: str, state: FetchState, detail: str) -> None:
        events.put(("progress", (url, state, detail)))

    def arrived(url: str, source: Source) -> None:
        gate.acquire()  # wait while enough fetched pages wait for a reader
        events.put(("source", (url, source)))

    try:
        if offline:
            policy = Policy.from_settings(settings)
            for url in urls:
                source = offline_source(url, store, policy)
                progress(
                    url, FetchState.CACHED if source.status is SourceStatus.OK else FetchState.FAILED, source.reason
                )
                arrived(url, source)
        elif fetcher is not None:
            fetcher.fetch_all(urls, refresh=refresh, progress=progress, arrived=arrived)
        else:
            with Fetcher(settings, store) as own:
                own.fetch_all(urls, refresh=refresh, progress=progress, arrived=arrived)
        events.put(("fetched", None))
    except BaseException as exc:  # a bug while fetching: raised on the caller's thread
        events.put(("failed", exc))


def check_brief(
    brief: Brief,
    settings: Settings,
    *,
    store: Store | None = None,
    refresh: bool = False,
    progress: Progress | None = None,
    fetcher: Fetcher | None = None,
    offline: bool = False,
    on_result: ResultSink | None = None,
) -> Report:
    """Return the report of a brief: every claim in brief order with its verdict and reasons.

    ``offline`` uses stored copies only and never touches the network (the bundled sample).
    ``on_result`` is called on this thread with each claim's result as soon as it is decided, in
    the order sources finish (not brief order); the report's diagnosis of a failed quote may
    then add that another source of the brief holds it. Progress is reported on this thread too.
    """
    # Where a brief becomes a run: no password of a URL is kept past here (callers that keep the
    # brief's own file mask it with it: the CLI, core.api, the desk and the job queue).
    brief = masked_brief(brief, file=False)
    urls = list(dict.fromkeys(c.url for c in brief.claims))
    run = _Run(brief, settings, store, on_result)
    pool = _pool(settings, len(urls))
    ahead = (pool.size if pool is not None else 1) + settings.check_pages_ahead
    gate = threading.Semaphore(ahead)
    events: queue.Queue[tuple[str, Any]] = queue.Queue()
    reading: dict[Future[object], tuple[str, SourceTask]] = {}
    thread = threading.Thread(
        target=_fetching,
        args=(urls, events, gate),
        kwargs={"settings": settings, "store": store, "refresh": refresh, "fetcher": fetcher, "offline": offline},
        name="verbatim-check-fetch",
        daemon=True,
    )
    thread.start()
    fetched, failure = False, None
    while not fetched or reading:
        kind, data = events.get()
        if kind == "progress":
            if progress is not None:
                progress(*data)
        elif kind == "source":
            url, source = data
            task = run.task(url, source)
            recent = recent_page(source, settings) if task is not None and pool is not None else None
            if task is None:
                gate.release()
            elif pool is None or recent is not None:  # a page this process holds already is checked here
                run.finish(url, check_source(task) if recent is None else checked_on(task, recent))
                gate.release()
            else:
                future = pool.submit(check_source, task, settings.extract_timeout)
                reading[future] = (url, task)
                future.add_done_callback(lambda f: events.put(("read", f)))
        elif kind == "read":
            future = data
            url, task = reading.pop(future)
            gate.release()
            try:
                value = future.result()
            except Exception as exc:  # a bug in a worker's task: that source's claims carry it, the brief goes on
                value = lost_source(task, _internal(url, exc))
            if isinstance(value, Lost):
                value = lost_source(task, _lost_reason(value, url))
            run.finish(url, value)
        elif kind == "fetched":
            fetched = True
        else:
            fetched, failure = True, data
    thread.join()
    if isinstance(failure, BaseException):
        raise failure
    run.misattribution(urls)
    return Report(
        brief_name=brief.name,
        brief_format=brief.format,
        checked_at=_now(),
        results=tuple(r for r in run.results if r is not None),
        uncited=brief.uncited,
        warnings=brief.warnings,
        policy=checked_under(settings),
        unused_links=brief.unused_links,
    )
