"""Glue between the desk's pages and core: one call per editor action, no Streamlit here.

A check runs in a worker thread so that the page script can keep drawing progress: the
worker only puts (url, state, detail) events on a queue and never touches Streamlit, and the
page script drains the queue on its own thread (Streamlit's elements are not thread-safe).
The worker's outcome is a Future: a report, or the exception the check raised, raised again
on the page's thread. This module refuses to decide verdicts or build markup; it only calls
core and reports.
"""

from __future__ import annotations

import queue
import re
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_for
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from core.brief import BRIEF_EXTENSIONS, parse_markdown, read_brief
from core.brief.docx_archive import checkpoint, watched
from core.check import adopt_quote, check_brief, recheck_claim
from core.extract.ocr import page_image as _page_image
from core.fetch import Fetcher, supplied_source
from core.fetch.shown import masked_brief
from core.models import Brief, ClaimResult, FetchState, Report, Source, Verdict
from core.report import MEDIA_TYPES, ExportKind, to_json
from core.report import exports as report_exports
from core.samples import SAMPLE_BRIEF
from core.samples import load_samples as _load_samples
from core.settings import Settings

#: The states a source goes through, in the order the progress display lists them.
STATES = tuple(FetchState)

#: Upload types the Check page accepts: every file name ending a brief reader reads. With their dots:
#: to Streamlit a bare "text" means any text/* file, not the ending ".text".
BRIEF_TYPES = list(BRIEF_EXTENSIONS)


def parse_pasted(text: str) -> Brief:
    """Return the pasted text read as a Markdown brief; raises core.errors.BriefError when unreadable."""
    return masked_brief(parse_markdown(text, "pasted brief"))


def read_uploaded(data: bytes, filename: str, settings: Settings) -> Brief:
    """Return the uploaded brief; raises core.errors.BriefError with a message for the editor."""
    return masked_brief(read_brief(data, filename, settings))


class _Outcome:
    """The outcome of a job's one worker thread (a mixin of methods: each job owns ``_future``)."""

    _future: Future[Any] | None

    @property
    def done(self) -> bool:
        """Return True once the worker has finished (with its result or an error)."""
        return self._future is not None and self._future.done()

    def wait(self, timeout: float) -> None:
        """Block up to timeout seconds for the worker to finish."""
        if self._future is not None:
            wait_for([self._future], timeout)

    def result(self) -> Any:
        """Return the worker's result (a Brief, a Report); raises what it raised (a VerbatimError, or a bug)."""
        if self._future is None:
            raise RuntimeError(f"{type(self).__name__}.result() before start()")
        return self._future.result()


@dataclass
class ReadJob(_Outcome):
    """One upload read in a worker thread, so that the page can show how far it got and the editor can stop it."""

    data: bytes
    name: str
    settings: Settings
    #: What the read is doing ("unpacking", "paragraphs", "claims"), done so far, of how many.
    progress: tuple[str, int, int] = ("", 0, 0)
    _stop: threading.Event = field(default_factory=threading.Event)
    _future: Future[Brief] | None = None

    def start(self) -> ReadJob:
        """Start reading."""
        worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="verbatim-read")
        self._future = worker.submit(self._work)
        worker.shutdown(wait=False)
        return self

    def _work(self) -> Brief:
        def note(what: str, done: int, total: int) -> None:
            self.progress = (what, done, total)  # one tuple, replaced whole: the page reads it as it is

        with watched(note, self._stop.is_set):
            brief = masked_brief(read_brief(self.data, self.name, self.settings))
            # A stop asked after the read's last look (while its claims were found) still stops: nothing is checked.
            checkpoint(self.name, "claims", 1, 1)
            return brief

    def cancel(self) -> None:
        """Ask the read to stop at its next look (it then raises core.brief.docx_archive.ReadCancelled)."""
        self._stop.set()

    @property
    def cancelled(self) -> bool:
        """Return True once the editor asked the read to stop."""
        return self._stop.is_set()


def sample_brief() -> tuple[bytes, str]:
    """Return the bundled sample brief's bytes and file name."""
    return SAMPLE_BRIEF.read_bytes(), SAMPLE_BRIEF.name


def load_samples(store: Any) -> None:
    """Store the sample's bundled source copies so that checking the sample needs no network."""
    _load_samples(store)


def check_function() -> Callable[..., Report]:
    """Return core.check.check_brief (one seam, so page tests can run the page on a faked check)."""
    return check_brief


@dataclass
class CheckJob(_Outcome):
    """One check of one brief in a worker thread, with its progress events and outcome."""

    brief: Brief
    settings: Settings
    store: Any
    refresh: bool = False
    offline: bool = False
    events: queue.Queue[tuple[str, str, str]] = field(default_factory=queue.Queue)
    states: dict[str, tuple[str, str]] = field(default_factory=dict)
    seconds: float = 0.0
    # Claims decided so far, per verdict value: core reports each claim as soon as it is decided.
    decided: dict[str, int] = field(default_factory=dict)
    _results: queue.Queue[str] = field(default_factory=queue.Queue)
    _future: Future[Report] | None = None

    def start(self) -> CheckJob:
        """Start the check; every claim's URL starts as "waiting"."""
        for claim in self.brief.claims:
            self.states.setdefault(claim.url, ("waiting", ""))
        worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="verbatim-check")
        self._future = worker.submit(self._work, check_function())
        worker.shutdown(wait=False)  # the one check runs on; nothing else is ever submitted
        return self

    def _progress(self, url: str, state: str, detail: str = "") -> None:
        self.events.put((url, state, detail))

    def _decided(self, result: ClaimResult) -> None:
        self._results.put(result.verdict.value)

    def _work(self, check: Callable[..., Report]) -> Report:
        began = time.perf_counter()
        try:
            return check(
                self.brief,
                self.settings,
                store=self.store,
                refresh=self.refresh,
                progress=self._progress,
                offline=self.offline,
                on_result=self._decided,
            )
        finally:
            self.seconds = time.perf_counter() - began

    def drain(self) -> bool:
        """Apply queued progress events to ``states``; return True when anything changed."""
        changed = False
        # This thread is the queue's only reader: an event seen here is still there to take.
        while not self.events.empty():
            url, state, detail = self.events.get_nowait()
            self.states[url] = (state, detail)
            changed = True
        while not self._results.empty():
            verdict = self._results.get_nowait()
            self.decided[verdict] = self.decided.get(verdict, 0) + 1
            changed = True
        return changed

    def tally(self) -> dict[str, int]:
        """Return the claims decided so far per verdict, in precedence order (the summary of a report)."""
        return {v.value: self.decided.get(v.value, 0) for v in Verdict}


def save_run(store: Any, report: Report, brief: Brief) -> Report:
    """Store the report as a run (unless check_brief already did) and return it with its run id."""
    if report.run_id:
        return report
    run_id = store.save_run(to_json(report), brief.raw, brief.name)
    return replace(report, run_id=run_id)


def update_run(store: Any, report: Report) -> None:
    """Write a changed report (after a re-check or an adopted quote) back to its run."""
    if report.run_id:
        store.update_run(report.run_id, to_json(report))


def recheck_with_supplied(
    report: Report,
    claim_id: str,
    url: str,
    body: bytes,
    content_type: str,
    filename: str,
    settings: Settings,
    store: Any = None,
) -> Report:
    """Return the report with the claims citing url re-checked against a source the editor supplied."""
    source = supplied_source(url, body, content_type, filename, settings=settings)
    return recheck_claim(report, claim_id, source, settings, store)


def adopt(report: Report, claim_id: str, quote: str, settings: Settings, store: Any, by: str = "") -> Report:
    """Return the report with a candidate passage adopted as the claim's quote by the editor ``by``, re-checked."""
    return adopt_quote(report, claim_id, quote, settings, store, by)


def refetch(report: Report, url: str, settings: Settings, store: Any) -> Report:
    """Return the report with every claim citing url re-checked against a fresh copy of it."""
    claim_id = next(r.claim.id for r in report.results if r.claim.url == url)
    with Fetcher(settings, store) as fetcher:
        source = fetcher.fetch(url, refresh=True)
    # recheck_claim re-checks every claim that cites the same URL.
    return recheck_claim(report, claim_id, source, settings, store)


def exports(report: Report, brief_raw: bytes) -> dict[ExportKind, tuple[Callable[[], bytes], str, str]]:
    """Return the report's downloads, built by core.report.exports when clicked: kind -> (builder, name, MIME type).

    The DOCX is the brief itself with comments when the brief was a DOCX whose bytes are
    stored, and a new DOCX report otherwise (core.report.comments_on_brief).
    """
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", report.brief_name.rsplit(".", 1)[0])[:60] or "brief"
    return {
        kind: (partial(_export, report, kind, brief_raw), f"{stem}-verbatim.{kind.value}", MEDIA_TYPES[kind])
        for kind in ExportKind
    }


def _export(report: Report, kind: ExportKind, brief_raw: bytes) -> bytes:
    return report_exports(report, (kind,), brief_raw=brief_raw)[kind]


def page_image(source: Source, number: int, store: Any) -> bytes | None:
    """Return a PNG of the source PDF's page ``number`` (its stored bytes when the report holds none), or None."""
    body = source.body
    if not body and source.sha256:
        body = next((s.body for s in store.source_history(source.url) if s.sha256 == source.sha256), b"")
    return _page_image(body, number) if body else None


# --------------------------------------------------------------------------- checks as jobs (team store)


def team_queue(store: Any, settings: Settings) -> str:
    """Return the team store's PostgreSQL URL when checks run as jobs there, or "" (SQLite: checked here)."""
    return str(settings.db_path) if store.backend == "postgresql" else ""


@dataclass
class QueuedCheck:
    """A check queued in the team store, followed by the desk until a worker has run it."""

    url: str
    job_id: int
    brief_name: str
    urls: tuple[str, ...]


def queue_check(
    url: str, brief: Brief, raw: bytes, settings: Settings, *, refresh: bool, offline: bool, queued_by: str
) -> QueuedCheck:
    """Queue the check of brief for the workers; raises StoreError when the team store cannot be reached."""
    from core.jobs import queue_check as queue

    record = queue(
        url, replace(brief, raw=brief.raw or raw), settings, refresh=refresh, offline=offline, queued_by=queued_by
    )
    return QueuedCheck(url, record.job_id, brief.name, tuple(dict.fromkeys(c.url for c in brief.claims)))


def queued_view(job: QueuedCheck, recent: int = 10) -> tuple[Any, dict[str, tuple[str, str]], list[Any]]:
    """Return a queued check's record, its sources' states (brief order), and the team's newest checks.

    Raises StoreError when the team store cannot be reached (the check goes on in the workers).
    """
    from core.jobs import connect, get_job, list_jobs, progress

    with connect(job.url) as conn:
        record = get_job(conn, job.job_id)
        rows = progress(conn, job.job_id)
        team = list_jobs(conn, recent)
    states = {u: ("waiting", "") for u in job.urls}
    states.update({p.url: (p.state, p.detail) for p in rows})
    return record, states, team
