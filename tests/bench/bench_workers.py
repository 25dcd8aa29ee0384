"""Benchmark: 20 briefs of 100 claims over 200 loopback sources (300 ms each), checked by 1, 2 and 4 workers.

The workers are ``python -m core worker`` processes on a throwaway PostgreSQL (tests/pg.py), timed
from the first brief queued to the last job done; the baseline is the single-process check of the
same briefs on the same kind of store, one after another as the desk checks them, measured in the
same run (and once more on a SQLite file, the single-user desk). Each
brief cites 10 sources, one on each of 10 loopback addresses (Linux routes all of 127.0.0.0/8 to
the loopback device), so four workers at once would put 8 requests on a host without the team-wide
limit: the most requests any host saw at once is reported against ``max_per_host``.
Every configuration starts from an empty store, so every source is fetched and every page extracted.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from core.check import check_brief
from core.jobs import connect, ensure_schema, list_jobs, queue_check
from core.models import Brief
from core.report import to_json
from core.settings import Settings
from core.store import Store
from tests.fetch_servers import quick
from tests.jobs.team import HostGauge, claims_brief, slow_claims, start_worker, stop, wait_for
from tests.pg import PostgresServer, find_bindir
from tests.servers import LoopbackServer

BRIEFS, CLAIMS, HOSTS, DELAY = 20, 100, 10, 0.3
WORKERS = (1, 2, 4)
SETTINGS = Settings(allow_private=True)


def _briefs(servers: list[LoopbackServer], gauges: list[HostGauge]) -> list[Brief]:
    """Return BRIEFS claims files, each citing one fresh source on every host, CLAIMS claims in all."""
    briefs = []
    for b in range(BRIEFS):
        claims = []
        for h, (server, gauge) in enumerate(zip(servers, gauges, strict=True)):
            claims += slow_claims(
                server, gauge, sources=1, claims=CLAIMS // HOSTS, delay=DELAY, tag=f"b{b}", first=b + h
            )
        briefs.append(claims_brief([{**c, "id": f"c{i + 1}"} for i, c in enumerate(claims)], f"brief-{b}.json"))
    return briefs


def _single_process(briefs: list[Brief], target: Path | str) -> float:
    started = time.perf_counter()
    with Store(target) as store:
        for brief in briefs:
            report = check_brief(brief, SETTINGS, store=store)
            store.save_run(to_json(report), brief.raw, brief.name)
    return time.perf_counter() - started


def _workers(n: int, briefs: list[Brief], pg: PostgresServer, folder: Path) -> float:
    url = pg.new_database()
    ensure_schema(url)
    log = folder / f"workers-{n}.log"
    workers = [start_worker(url, log) for _ in range(n)]
    try:
        wait_for(f"{n} workers up", lambda: log.read_text().count("running up to") >= n, timeout=60)
        started = time.perf_counter()
        for brief in briefs:
            queue_check(url, brief, SETTINGS, queued_by="bench")

        def all_done() -> bool:
            with connect(url) as conn:
                jobs = list_jobs(conn, BRIEFS)
            return len(jobs) == BRIEFS and all(j.state in ("done", "failed") for j in jobs)

        wait_for("every brief checked", all_done, timeout=600, every=0.05)
        seconds = time.perf_counter() - started
    finally:
        stop(*workers)
    with Store(url) as store:
        runs = store.list_runs(BRIEFS + 1)
        claims = sorted({len(store.load_run(r.run_id)["claims"]) for r in runs})
    assert (len(runs), claims) == (BRIEFS, [CLAIMS]), f"{n} workers: {len(runs)} runs, claims per run {claims}"
    return seconds


def run() -> list[str]:
    bindir = find_bindir()
    if bindir is None:
        return ["skipped: PostgreSQL's server programs are not installed (make setup)"]
    servers = [quick(LoopbackServer(f"127.0.0.{i}")).start() for i in range(1, HOSTS + 1)]
    gauges = [HostGauge() for _ in servers]
    pg = PostgresServer(bindir).start()
    lines = []
    try:
        briefs = _briefs(servers, gauges)
        with tempfile.TemporaryDirectory(prefix="verbatim-bench-") as tmp:
            folder = Path(tmp)
            single = _single_process(briefs, pg.new_database())
            peak = max(g.peak for g in gauges)
            lines.append(
                f"{BRIEFS} briefs x {CLAIMS} claims, {BRIEFS * HOSTS} sources at {DELAY * 1000:.0f} ms:"
                f" single process on PostgreSQL {single:.1f} s (baseline; most requests at once on a host: {peak})"
            )
            on_file = _single_process(briefs, folder / "single.sqlite3")
            lines.append(f"single process on SQLite (the desk as before): {on_file:.1f} s ({on_file / single:.2f}x)")
            for n in WORKERS:
                for g in gauges:
                    g.peak = 0
                seconds = _workers(n, briefs, pg, folder)
                peak = max(g.peak for g in gauges)
                held = "held" if peak <= SETTINGS.max_per_host else "BROKEN"
                lines.append(
                    f"{n} worker{'s' if n > 1 else ' '} on PostgreSQL: {seconds:.1f} s ({seconds / single:.2f}x the"
                    f" single process); most requests at once on a host: {peak} (limit {SETTINGS.max_per_host}: {held})"
                )
    finally:
        pg.stop()
        for s in servers:
            s.stop()
    return lines
