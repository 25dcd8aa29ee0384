"""Benchmark: 50 editors recording decisions at once, each with its own Store on one store, with no lost update.

Each editor is a thread with a Store of its own (as each desk session and each machine has).
Two cases: all editors on the same 5 claims (most saves meet a newer version and are made
again on it, as "save mine" does), and each editor on claims of its own. The baseline in the
same run is the unchecked way: the same threads, each on a plain connection, reading the
claim's revision and writing it back with a plain UPDATE (no event, no check); it is faster
and loses updates, counted as writes minus the revisions that survive. The checked way's
lost updates are counted from what the store holds: every save either saved (and its event
is in the table with exactly its value) or was refused with a newer record, and the events
table holds exactly the saved ones. Both on SQLite (a file) and on PostgreSQL (a throwaway
cluster on loopback, tests/pg.py). The run list of 3,000 runs (SQLite) is timed against a bare
SELECT of the runs table.
"""

from __future__ import annotations

import sqlite3
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg

from core.errors import StoreError
from core.store import Store, Work
from core.store.postgres import translate
from tests.pg import MISSING, PostgresServer, find_bindir

EDITORS = 50
SAVES = 20  # per editor: each ends saved (made again on the newer version until it is)
SHARED_CLAIMS = 5
RUN = "bench-run"
RUNS = 3_000


def _threads(work: Callable[[int], None]) -> float:
    """Run work(n) for every editor at once; return the wall time from the start signal to the last one done."""
    start = threading.Barrier(EDITORS + 1)

    def one(n: int) -> None:
        start.wait()
        work(n)

    threads = [threading.Thread(target=one, args=(n,)) for n in range(EDITORS)]
    for t in threads:
        t.start()
    start.wait()
    began = time.perf_counter()
    for t in threads:
        t.join()
    return time.perf_counter() - began


def _claim(n: int, i: int, shared: bool) -> str:
    return f"c{i % SHARED_CLAIMS}" if shared else f"e{n}-c{i % SHARED_CLAIMS}"


def _checked(target: str, shared: bool) -> tuple[float, int, int, int]:
    """Return wall time, saves, refusals and lost updates of the editors saving through the store."""
    stores = [Store(target) for _ in range(EDITORS)]
    outcomes: list[list[tuple[str, int, str, bool, int]]] = [[] for _ in range(EDITORS)]

    def work(n: int) -> None:
        seen: dict[str, int] = {}
        for i in range(SAVES):
            claim, value = _claim(n, i, shared), f"editor {n} save {i}"
            while True:
                got = stores[n].save_decision_change(RUN, claim, "note", value, seen.get(claim, 0), author=f"e{n}")
                outcomes[n].append((claim, seen.get(claim, 0), value, got.saved, got.decision.version))
                seen[claim] = got.decision.version
                if got.saved:
                    break

    took = _threads(work)
    for s in stores:
        s.close()
    return took, *_lost(target, [o for per in outcomes for o in per])


def _lost(target: str, outcomes: list[tuple[str, int, str, bool, int]]) -> tuple[int, int, int]:
    """Return saves, refusals and lost updates: what the store holds against what every save was told."""
    with Store(target) as store:
        held = {(e.claim_id, e.seq, e.after) for e in store.decision_history(RUN)}
        current = {d.claim_id: d for d in store.decisions(RUN)}
    saved = {(claim, version, value) for claim, _, value, ok, version in outcomes if ok}
    refused = [(seen, version) for _, seen, _, ok, version in outcomes if not ok]
    lost = len(saved ^ held)  # a save told "saved" that is not held, or an event no save was told of
    lost += sum(1 for seen, version in refused if version <= seen)  # refused without a newer record
    newest = {}
    for claim, seq, value in held:
        if seq > newest.get(claim, (0, ""))[0]:
            newest[claim] = (seq, value)
    lost += sum(1 for c, (seq, value) in newest.items() if (current[c].version, current[c].note) != (seq, value))
    return len(saved), len(refused), lost


class _Plain:
    """A plain connection to the store's database, no Store around it: the baseline's (``?`` placeholders)."""

    def __init__(self, target: str) -> None:
        self.pg = target.startswith("postgresql://")
        if self.pg:
            self.conn: Any = psycopg.connect(target)
        else:
            self.conn = sqlite3.connect(target, timeout=60, check_same_thread=False)
            self.conn.execute("PRAGMA synchronous=NORMAL")  # as the Store sets it: the file is in WAL mode already

    def execute(self, sql: str, args: tuple[object, ...] = ()) -> Any:
        return self.conn.execute(translate(sql) if self.pg else sql, args)


def _unchecked(target: str, shared: bool) -> tuple[float, int, int]:
    """Return wall time, writes and lost updates of the same editors writing with a plain UPDATE."""
    conns = [_Plain(target) for _ in range(EDITORS)]
    for claim in {_claim(n, i, shared) for n in range(EDITORS) for i in range(SAVES)}:
        conns[0].execute(
            "INSERT INTO decisions (run_id, claim_id, decided_at, version) VALUES ('baseline', ?, '', 0)", (claim,)
        )
    conns[0].conn.commit()

    def work(n: int) -> None:
        c = conns[n]
        for i in range(SAVES):
            claim = _claim(n, i, shared)
            (rev,) = c.execute(
                "SELECT version FROM decisions WHERE run_id = 'baseline' AND claim_id = ?", (claim,)
            ).fetchone()
            c.execute(
                "UPDATE decisions SET note = ?, version = ?, decided_at = 't' WHERE run_id = 'baseline'"
                " AND claim_id = ?",
                (f"editor {n} save {i}", rev + 1, claim),
            )
            c.conn.commit()

    took = _threads(work)
    kept = sum(r[0] for r in conns[0].execute("SELECT version FROM decisions WHERE run_id = 'baseline'").fetchall())
    for c in conns:
        c.conn.close()
    return took, EDITORS * SAVES, EDITORS * SAVES - kept


def _save_run(store: Store, n: int) -> str:
    # A run id is the second plus 3 random bytes: thousands saved in one second can draw the same one.
    for _ in range(5):
        try:
            return store.save_run({"summary": {"verified": 20}, "claims": [{}] * 20}, brief_name=f"brief {n}")
        except StoreError:
            continue
    raise RuntimeError("five run ids drawn in a row were taken")


def _run_list(target: str) -> list[str]:
    with Store(target) as store:
        for n in range(RUNS):
            run = _save_run(store, n)
            if n % 3 == 0:
                store.assign_run(run, f"e{n % 7}", by="bench")
            if n % 2 == 0:
                store.save_decision_change(run, "c1", "decision", "accept", 0, author=f"e{n % 7}")
        conn = sqlite3.connect(target)
        bare = _best(
            lambda: conn.execute(
                "SELECT run_id, brief_name, created_at, summary_json FROM runs ORDER BY created_at DESC LIMIT 200"
            ).fetchall()
        )
        lines = [f"run list of {RUNS} runs, 200 shown; baseline bare SELECT of runs: {bare * 1000:.1f} ms"]
        for show in (Work.ALL, Work.MINE, Work.UNDECIDED, Work.DONE):
            t = _best(lambda show=show: store.list_runs(200, show, "e3"))  # type: ignore[misc]
            lines.append(f"  list_runs({show}): {t * 1000:.1f} ms ({t / bare:.1f}x bare SELECT)")
        conn.close()
    return lines


def _best(call: Callable[[], object], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        call()
        times.append(time.perf_counter() - began)
    return min(times)


def _backend_lines(name: str, target: str) -> list[str]:
    lines = [f"{name}: {EDITORS} editors, {SAVES} saved changes each"]
    for shared, words in ((True, f"on the same {SHARED_CLAIMS} claims"), (False, "on claims of their own")):
        took, saved, refused, lost = _checked(target, shared)
        base, writes, base_lost = _unchecked(target, shared)
        rate, base_rate = saved / took, writes / base
        lines.append(
            f"  {words}: {rate:.0f} decisions/s recorded ({saved} saved, {refused} refused and made again on the"
            f" newer version, {lost} lost updates); unchecked UPDATE baseline {base_rate:.0f}/s"
            f" ({base_lost} of {writes} updates lost); checked at {rate / base_rate:.2f}x the baseline's rate"
        )
        plain = _Plain(target)  # the next case starts from no decisions
        plain.execute("DELETE FROM decisions")
        plain.execute("DELETE FROM decision_events")
        plain.conn.commit()
        plain.conn.close()
    return lines


def run() -> list[str]:
    """Return the decisions-per-second lines (checked against unchecked, lost updates) and the run-list lines."""
    with tempfile.TemporaryDirectory(prefix="verbatim-bench-decisions-") as tmp:
        target = str(Path(tmp) / "team.sqlite3")
        Store(target).close()  # made once, as a newsroom's store is, before the editors open it
        lines = _backend_lines("SQLite", target)
        lines += _run_list(str(Path(tmp) / "runs.sqlite3"))
    bindir = find_bindir()
    if bindir is None:
        return [*lines, f"PostgreSQL: not measured ({MISSING})"]
    server = PostgresServer(bindir).start()
    try:
        url = server.new_database()
        Store(url).close()
        lines += _backend_lines("PostgreSQL (a throwaway cluster on loopback)", url)
    finally:
        server.stop()
    return lines


if __name__ == "__main__":
    print("\n".join(run()))
