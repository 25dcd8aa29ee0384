"""Benchmark: fetching 50 sources spread over 10 loopback addresses, each answer delayed 300 ms.

Times fetch_all against fetching the same URLs one by one (measured in the same run), reports
the most connections and requests each address saw at once (never above max_per_host), and
the memory a run of 50 sources of 5 MB each adds (measured in a child process, so that the
servers' own memory is not counted). Linux routes all of 127.0.0.0/8 to the loopback device.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from core.fetch import Fetcher
from core.models import SourceStatus
from core.settings import Settings
from tests.fetch_servers import Gauge, quick
from tests.servers import LoopbackServer

ADDRESSES = [f"127.0.0.{i}" for i in range(1, 11)]
SOURCES = 50
DELAY = 0.3
BIG = 5 << 20
REPO = Path(__file__).resolve().parents[2]


@dataclass
class Connections:
    """Counts a server's open connections (idle keep-alive ones included) and their peak."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    now: int = 0
    peak: int = 0

    def watch(self, server: LoopbackServer) -> None:
        inner = server.httpd.finish_request

        def counted(request: object, client_address: object) -> None:
            with self.lock:
                self.now += 1
                self.peak = max(self.peak, self.now)
            try:
                inner(request, client_address)  # type: ignore[arg-type]
            finally:
                with self.lock:
                    self.now -= 1

        server.httpd.finish_request = counted  # type: ignore[method-assign]


def _servers(body: bytes, delay: float) -> tuple[list[LoopbackServer], list[Gauge], list[Connections], list[str]]:
    servers, gauges, conns, urls = [], [], [], []
    for address in ADDRESSES:
        server = quick(LoopbackServer(address))
        gauge, conn = Gauge(), Connections()
        conn.watch(server)
        server.start()
        servers.append(server)
        gauges.append(gauge)
        conns.append(conn)
    for i in range(SOURCES):
        server, gauge = servers[i % len(servers)], gauges[i % len(servers)]
        server.routes[f"/s{i}"] = gauge.delayed(body, delay)
        urls.append(server.url(f"/s{i}"))
    return servers, gauges, conns, urls


def _timing(variants: list[Settings]) -> list[str]:
    body = b"<html><body><p>" + b"A sentence of a source page. " * 300 + b"</p></body></html>"
    lines = []
    servers, gauges, conns, urls = _servers(body, DELAY)
    try:
        with Fetcher(variants[0]) as f:
            started = time.perf_counter()
            for u in urls:
                f.fetch(u)
            one_by_one = time.perf_counter() - started
        for settings in variants:
            for g in gauges:
                g.peak = 0
            for c in conns:
                c.peak = c.now
            with Fetcher(settings) as f:
                started = time.perf_counter()
                got = f.fetch_all(urls)
                together = time.perf_counter() - started
            ok = sum(s.status is SourceStatus.OK for s in got.values())
            peak_requests = max(g.peak for g in gauges)
            peak_conns = max(c.peak for c in conns)
            limit = settings.max_per_host
            verdict = "within" if max(peak_requests, peak_conns) <= limit else "OVER"
            lines += [
                f"fetch_all, {SOURCES} sources on {len(ADDRESSES)} addresses, 300 ms each, max_concurrency="
                f"{settings.max_concurrency}, max_per_host={limit}: {together:.2f} s vs one by one {one_by_one:.2f} s"
                f" (x{one_by_one / together:.1f} faster; {ok}/{SOURCES} read; floor {_floor(settings):.2f} s;"
                " target <= 1.5 s)",
                f"  peak per address: {peak_conns} connections, {peak_requests} requests at once ({verdict} the"
                f" limit of {limit})",
            ]
    finally:
        for s in servers:
            s.stop()
    return lines


def _floor(settings: Settings) -> float:
    at_once = min(settings.max_concurrency, settings.max_per_host * len(ADDRESSES))
    return -(-SOURCES // at_once) * DELAY


_CHILD = """
import json, sys
from core.fetch import Fetcher
from core.settings import Settings
urls = json.loads(sys.stdin.read())
def status_mb(key):
    for line in open("/proc/self/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024
# VmHWM, not ru_maxrss: Linux carries ru_maxrss over exec from the (large) parent bench process.
before = status_mb("VmRSS")
f = Fetcher(Settings(allow_private=True))
got = f.fetch_all(urls)
kept = sum(len(s.body) for s in got.values())
peak = status_mb("VmHWM")
print(json.dumps({"before": before, "peak": peak, "after": status_mb("VmRSS"), "kept": kept}))
"""


def _memory() -> list[str]:
    body = (b"<p>All work and no play makes Jack a dull boy.</p>\n" * (BIG // 51 + 1))[:BIG]
    servers, _, _, urls = _servers(body, 0.0)
    try:
        done = subprocess.run(
            [sys.executable, "-c", _CHILD], input=json.dumps(urls), capture_output=True, text=True, cwd=REPO, check=True
        )
    finally:
        for s in servers:
            s.stop()
    m = json.loads(done.stdout)
    growth = m["peak"] - m["before"]
    kept = m["kept"] / (1 << 20)
    return [
        f"memory, {SOURCES} sources of 5 MB: peak RSS growth {growth:.0f} MB for {kept:.0f} MB of bodies kept"
        f" (x{growth / kept:.2f} the bodies; target < 400 MB)",
    ]


def run() -> list[str]:
    """Return the benchmark's result lines."""
    defaults = Settings(allow_private=True)
    # The defaults, and the earlier default of 10 at once for comparison (its floor is 1.5 s).
    return _timing([defaults, defaults.with_(max_concurrency=10)]) + _memory()


if __name__ == "__main__":
    print("\n".join(run()))
