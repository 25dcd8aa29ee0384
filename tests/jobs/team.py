"""Builders for the worker tests and bench: slow loopback copies of corpus pages, claims files, worker processes.

Every source is a real corpus page (the sample brief's python.org pages) served on loopback
under many paths, each answer delayed and counted by a ``HostGauge`` per server, so a test sees the
most requests one host had in flight at once across every worker process.
"""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.brief import read_brief
from core.models import Brief
from core.samples import SAMPLE_BRIEF
from core.settings import Settings
from tests.builders import ROOT, SAMPLE_PAGES
from tests.fetch_servers import Gauge
from tests.servers import LoopbackServer, Reply, corpus_bytes


class HostGauge(Gauge):
    """A Gauge whose count of a request ends just before its answer is sent, not after.

    The request is counted from its arrival to the moment before the answer goes out: a span
    that lies inside the time the fetcher holds the host's slot (taken before sending, given back
    after reading the answer), so the most seen at once never exceeds the limit that really held.
    Counting until after the write (``Gauge``) can see one more: on a busy machine the server's
    thread may be held up after the client has read the answer and another worker has sent its own.
    """

    def delayed(self, body: bytes, delay: float, content_type: str = "text/html; charset=utf-8") -> Reply:
        """Return a reply that waits ``delay`` seconds before answering body, counted by this gauge."""

        def write(h: http.server.BaseHTTPRequestHandler) -> None:
            with self.lock:
                self.now += 1
                self.peak = max(self.peak, self.now)
                self.headers.append({k.lower(): v for k, v in h.headers.items()})
            try:
                time.sleep(delay)
            finally:
                with self.lock:
                    self.now -= 1
            try:
                h.send_response(200)
                h.send_header("Content-Type", content_type)
                h.send_header("Content-Length", str(len(body)))
                h.end_headers()
                h.wfile.write(body)
                h.wfile.flush()
            except OSError:  # the fetcher went away (a worker killed mid-job)
                pass

        return Reply(handler=write)


def sample_rows() -> dict[str, list[dict[str, str | None]]]:
    """Return the sample brief's claims that cite a corpus page, by that page (claim, quote)."""
    brief = read_brief(SAMPLE_BRIEF.read_bytes(), SAMPLE_BRIEF.name)
    rows: dict[str, list[dict[str, str | None]]] = {}
    for c in brief.claims:
        if c.url in SAMPLE_PAGES:
            rows.setdefault(SAMPLE_PAGES[c.url], []).append({"claim": c.text, "quote": c.quote})
    return rows


def slow_claims(
    server: LoopbackServer, gauge: HostGauge, *, sources: int, claims: int, delay: float, tag: str, first: int = 0
) -> list[dict[str, str | None]]:
    """Return claims over ``sources`` slow copies of corpus pages on server (each answer delayed, counted by gauge).

    The copies take the corpus pages in turn, starting at the ``first``-th.
    """
    rows = sample_rows()
    pages = sorted(rows)
    urls = []
    for i in range(sources):
        page = pages[(first + i) % len(pages)]
        path = f"/{tag}/{i}/{page}"
        server.routes[path] = gauge.delayed(corpus_bytes(page), delay)
        urls.append((server.url(path), rows[page]))
    out = []
    for k in range(claims):
        url, page_rows = urls[k % len(urls)]
        row = page_rows[(k // len(urls)) % len(page_rows)]
        out.append({"id": f"c{k + 1}", "claim": row["claim"], "url": url, "quote": row["quote"]})
    return out


def claims_brief(claims: list[dict[str, Any]], name: str) -> Brief:
    """Return a claims file (JSON) read as the desk reads an upload."""
    data = json.dumps({"claims": claims}).encode()
    return read_brief(data, name, Settings(allow_private=True))


def start_worker(url: str, log: Path, *args: str) -> subprocess.Popen[bytes]:
    """Start ``python -m core worker`` on the team store at url (short heartbeats), its stderr in log."""
    env = {**os.environ, "VERBATIM_DB": url}
    command = [sys.executable, "-m", "core", "worker", "--db", url, "--heartbeat", "0.5", "--stalled-after", "3"]
    with log.open("ab") as out:
        return subprocess.Popen([*command, *args], cwd=ROOT, env=env, stdout=out, stderr=out)


def wait_for(what: str, holds: Callable[[], object], timeout: float = 120.0, every: float = 0.1) -> Any:
    """Return holds()'s first true value, polled every ``every`` seconds; fail with what after timeout seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = holds()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out waiting for {what}")


def stop(*workers: subprocess.Popen[bytes]) -> None:
    """Stop worker processes (SIGTERM, then SIGKILL for any still running after 20 s)."""
    for w in workers:
        if w.poll() is None:
            w.terminate()
    for w in workers:
        try:
            w.wait(20)
        except subprocess.TimeoutExpired:
            w.kill()
            w.wait(5)
