"""Glue between the desk's pages and core: one call per editor action, no Streamlit here.

A check runs in a worker thread so that the page script can keep drawing progress: the
worker only puts (url, state, detail) events on a queue and never touches Streamlit, and the
page script drains the queue on its own thread (Streamlit's elements are not thread-safe).
This module refuses to decide verdicts or build markup; it only calls core and reports.
"""

from __future__ import annotations

import json
import queue
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from core import report as report_writers
from core.brief import BriefError, parse_markdown, read_brief
from core.check import adopt_quote, check_brief, recheck_claim
from core.fetch import Fetcher, supplied_source
from core.figures import read_figures
from core.models import Brief, Report
from core.samples import SAMPLE_BRIEF
from core.samples import load_samples as _load_samples
from core.settings import Settings

#: The states a source goes through, in the order the progress display lists them.
STATES = ("waiting", "fetching", "fetched", "cached", "failed")

#: Upload types the Check page accepts (the brief readers' formats).
BRIEF_TYPES = ["md", "markdown", "txt", "docx", "pdf", "json", "csv"]


def parse_pasted(text: str) -> Brief:
    """Return the pasted text read as a Markdown brief; raises core.brief.read.BriefError when unreadable."""
    return parse_markdown(text, "pasted brief")


def read_uploaded(data: bytes, filename: str, settings: Settings) -> Brief:
    """Return the uploaded brief; raises core.brief.read.BriefError with a message for the editor."""
    return read_brief(data, filename, settings)


def brief_error_types() -> tuple[type[BaseException], ...]:
    """Return the exception types that mean "this brief cannot be read" (shown, not raised)."""
    return (BriefError,)


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
class CheckJob:
    """One check of one brief in a worker thread, with its progress events and outcome."""

    brief: Brief
    settings: Settings
    store: Any
    refresh: bool = False
    offline: bool = False
    events: queue.Queue[tuple[str, str, str]] = field(default_factory=queue.Queue)
    states: dict[str, tuple[str, str]] = field(default_factory=dict)
    report: Report | None = None
    error: BaseException | None = None
    seconds: float = 0.0
    _thread: threading.Thread | None = None

    def start(self) -> CheckJob:
        """Start the check; every claim's URL starts as "waiting"."""
        for claim in self.brief.claims:
            self.states.setdefault(claim.url, ("waiting", ""))
        self._thread = threading.Thread(target=self._work, name="verbatim-check", daemon=True)
        self._thread.start()
        return self

    def _progress(self, url: str, state: str, detail: str = "") -> None:
        self.events.put((url, state, detail))

    def _work(self) -> None:
        check_brief = check_function()
        began = time.perf_counter()
        try:
            self.report = check_brief(
                self.brief,
                self.settings,
                store=self.store,
                refresh=self.refresh,
                progress=self._progress,
                offline=self.offline,
            )
        except BaseException as exc:  # shown to the editor by the page; the desk stays up
            self.error = exc
        self.seconds = time.perf_counter() - began

    def drain(self) -> bool:
        """Apply queued progress events to ``states``; return True when anything changed."""
        changed = False
        while True:
            try:
                url, state, detail = self.events.get_nowait()
            except queue.Empty:
                return changed
            self.states[url] = (state, detail)
            changed = True

    @property
    def done(self) -> bool:
        """Return True once the worker has finished (with a report or an error)."""
        return self._thread is not None and not self._thread.is_alive()

    def wait(self, timeout: float) -> None:
        """Block up to timeout seconds for the worker to finish."""
        if self._thread is not None:
            self._thread.join(timeout)


def save_run(store: Any, report: Report, brief: Brief) -> Report:
    """Store the report as a run (unless check_brief already did) and return it with its run id."""
    if report.run_id:
        return report
    run_id = store.save_run(report_writers.to_json(report), brief.raw, brief.name)
    return replace(report, run_id=run_id)


def update_run(store: Any, report: Report) -> None:
    """Write a changed report (after a re-check or an adopted quote) back to its run."""
    if report.run_id:
        store.update_run(report.run_id, report_writers.to_json(report))


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


def adopt(report: Report, claim_id: str, quote: str, settings: Settings, store: Any) -> Report:
    """Return the report with a candidate passage adopted as the claim's quote and re-checked."""
    return adopt_quote(report, claim_id, quote, settings, store)


def refetch(report: Report, url: str, settings: Settings, store: Any) -> Report:
    """Return the report with every claim citing url re-checked against a fresh copy of it."""
    claim_id = next(r.claim.id for r in report.results if r.claim.url == url)
    with Fetcher(settings, store) as fetcher:
        source = fetcher.fetch(url, refresh=True)
    # recheck_claim re-checks every claim that cites the same URL.
    return recheck_claim(report, claim_id, source, settings, store)


def quote_figure_spans(quote: str) -> list[tuple[int, int]]:
    """Return the spans of the figures in a quote (for flagging)."""
    return [(f.start, f.end) for f in read_figures(quote) if 0 <= f.start < f.end <= len(quote)]


def exports(report: Report, brief_raw: bytes) -> dict[str, tuple[Callable[[], bytes], str, str]]:
    """Return the report's downloads, built only when clicked: kind -> (builder, file name, MIME type).

    The DOCX is the brief itself with comments when the brief was a DOCX whose bytes are
    stored, and a new DOCX report otherwise.
    """
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", report.brief_name.rsplit(".", 1)[0])[:60] or "brief"
    docx_brief = brief_raw if report.brief_format == "docx" and brief_raw else None
    return {
        "html": (lambda: report_writers.to_html(report).encode("utf-8"), f"{stem}-verbatim.html", "text/html"),
        "json": (
            lambda: json.dumps(report_writers.to_json(report), ensure_ascii=False, indent=2).encode("utf-8"),
            f"{stem}-verbatim.json",
            "application/json",
        ),
        "csv": (lambda: report_writers.to_csv(report).encode("utf-8"), f"{stem}-verbatim.csv", "text/csv"),
        "docx": (
            lambda: report_writers.to_docx(report, docx_brief),
            f"{stem}-verbatim.docx",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        ),
    }
