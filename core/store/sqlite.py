"""The evidence store: fetched sources, checked runs and the editor's decisions, in SQLite.

One file (``Settings.db_path``, ``$VERBATIM_DB``) or ``":memory:"`` for ``--no-cache``. The
schema below is plain SQL that PostgreSQL also reads, apart from two spellings noted beside
it (``INTEGER PRIMARY KEY`` is ``BIGSERIAL PRIMARY KEY`` there, ``BLOB`` is ``BYTEA``).
Every write is committed at once, so a reload, a closed tab or a restart loses nothing.

Threads: one connection guarded by a lock (Streamlit runs each session in its own thread);
WAL mode lets other processes (the CLI beside the desk) read while this one writes.
No ``sqlite3.Error`` leaves this module: a store that cannot be opened, read or written raises
``core.errors.StoreError``, whose message names the store and what the editor can do.
URLs are stored without their ``#fragment``: the fragment is never sent to the server, so
``page#a`` and ``page#b`` are the same evidence.

It refuses to fetch, extract or judge anything: it keeps what it is given and gives it back.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.errors import StoreError
from core.models import Assignment, Decision, DecisionEvent, Origin, Source, SourceStatus
from core.settings import Settings
from core.store import columns, events, identity, worklist
from core.store.events import DecisionSave, Taken
from core.store.worklist import RunInfo, Work

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS sources (
    id INTEGER PRIMARY KEY,                 -- PostgreSQL: BIGSERIAL PRIMARY KEY
    url TEXT NOT NULL,
    final_url TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL,
    http_status INTEGER,
    headers TEXT NOT NULL DEFAULT '[]',     -- JSON list of [name, value] pairs
    content_type TEXT NOT NULL DEFAULT '',
    sha256 TEXT NOT NULL DEFAULT '',
    fetched_at TEXT NOT NULL,
    body BLOB,                              -- PostgreSQL: BYTEA
    origin TEXT NOT NULL DEFAULT 'fetched',
    reason TEXT NOT NULL DEFAULT '',
    drift INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS sources_by_url ON sources (url, id);
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY,
    brief_name TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    summary_json TEXT NOT NULL DEFAULT '{}',
    report_json TEXT NOT NULL,
    brief_raw BLOB,                         -- PostgreSQL: BYTEA
    client TEXT NOT NULL DEFAULT ''         -- the agent's MCP client name; added later (columns.ADDED)
);
CREATE INDEX IF NOT EXISTS runs_by_time ON runs (created_at);
CREATE TABLE IF NOT EXISTS decisions (
    run_id TEXT NOT NULL,
    claim_id TEXT NOT NULL,
    decision TEXT NOT NULL DEFAULT '',
    note TEXT NOT NULL DEFAULT '',
    same_period INTEGER,                    -- 1 yes, 0 no, NULL not answered
    same_metric INTEGER,
    same_population INTEGER,
    decided_at TEXT NOT NULL,
    PRIMARY KEY (run_id, claim_id)
);
CREATE TABLE IF NOT EXISTS page_texts (      -- extracted text, a cache: derivable from sources.body
    body_sha256 TEXT NOT NULL,
    content_type TEXT NOT NULL,
    extractor TEXT NOT NULL,                -- changes whenever the extraction code changes
    page_json TEXT NOT NULL,
    PRIMARY KEY (body_sha256, content_type, extractor)
);
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
"""

_SELECT_SOURCE = (
    "SELECT url, final_url, status, http_status, headers, content_type, sha256, fetched_at, body, origin, reason,"
    " drift, addresses FROM sources WHERE url = ?"
)
_SELECT_SOURCE_BY_ID = (
    "SELECT url, final_url, status, http_status, headers, content_type, sha256, fetched_at, body, origin, reason,"
    " drift, addresses FROM sources WHERE id = ?"
)
_INSERT_SOURCE = (
    "INSERT INTO sources (url, final_url, status, http_status, headers, content_type, sha256, fetched_at, body,"
    " origin, reason, drift, addresses) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)"
)


def now_iso() -> str:
    """Return the current UTC time as ISO 8601 with seconds."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def strip_fragment(url: str) -> str:
    """Return the URL without its ``#fragment`` (never sent to a server)."""
    return url.split("#", 1)[0]


def open_store(settings: Settings) -> Store:
    """Return the store the settings ask for: in memory when use_cache is off, else db_path."""
    return Store(settings.db_path if settings.use_cache else ":memory:", busy_timeout=settings.store_busy_timeout)


class Store:
    """The SQLite evidence store (a class, not a dataclass: it owns a connection and a lock)."""

    def __init__(self, path: Path | str, *, busy_timeout: float | None = None) -> None:
        """Open (and create) the store at path, or in memory for ":memory:"; raise StoreError when it cannot."""
        timeout = Settings().store_busy_timeout if busy_timeout is None else busy_timeout
        self.in_memory = str(path) == ":memory:"
        self.path: Path | None = None
        self._lock = threading.RLock()
        if not self.in_memory:
            self.path = Path(path).expanduser()
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(self.path, "opened", exc.strerror or str(exc)) from exc
        with self._errors("opened"):
            # One connection shared by threads under self._lock: check_same_thread only guards
            # against unlocked sharing, which the lock already rules out.
            self._conn = sqlite3.connect(
                ":memory:" if self.path is None else str(self.path), timeout=timeout, check_same_thread=False
            )
            try:
                self._create()
            except sqlite3.Error:
                self._conn.close()
                raise
        # The file just opened: a file deleted or put in its place later is told apart from it.
        self._identity = identity.identify(self.path) if self.path is not None else None

    def _create(self) -> None:
        with self._lock:
            if not self.in_memory:
                self._conn.execute("PRAGMA journal_mode=WAL")
                self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.executescript(SCHEMA)
            columns.add_missing(self._conn)
            columns.apply_0003(self._conn)  # until the migration runner lands
            worklist.count_claims(self._conn)
            if self._conn.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] == 0:
                self._conn.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION,))
            self._conn.commit()

    # ------------------------------------------------------------------ plumbing

    @contextmanager
    def _errors(self, action: str) -> Iterator[None]:
        """Turn SQLite's errors into a StoreError saying the store could not be ``action`` ("read", ...)."""
        try:
            yield
        except sqlite3.Error as exc:
            raise StoreError(self.path, action, str(exc)) from exc

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """Hold the lock for one committed write; raise StoreError when it fails or would be lost."""
        lost = self.problem()
        if lost:  # SQLite would write on into a deleted or replaced file: no one would see it again
            raise StoreError(self.path, "written", lost.rstrip("."))
        with self._lock, self._errors("written"), self._conn:
            yield self._conn

    def problem(self) -> str:
        """Return why what is saved now would not be kept (file deleted, replaced, read-only), or ""."""
        return identity.problem(self.path, self._identity) if self.path is not None else ""

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """Hold the lock for reading; raise StoreError when it fails."""
        with self._lock, self._errors("read"):
            yield self._conn

    def close(self) -> None:
        """Close the connection; the store is unusable afterwards."""
        with self._lock, self._errors("closed"):
            self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def journal_mode(self) -> str:
        """Return SQLite's journal mode ("wal" for a file store, "memory" in memory)."""
        with self._read() as c:
            return str(c.execute("PRAGMA journal_mode").fetchone()[0])

    # ------------------------------------------------------------------ sources

    def save_source(self, source: Source) -> None:
        """Keep one fetch (its bytes, status and reason) as evidence; failures are kept too."""
        row = (
            strip_fragment(source.url),
            source.final_url,
            source.status.value,
            source.http_status,
            json.dumps([list(h) for h in source.headers]),
            source.content_type,
            source.sha256,
            source.fetched_at or now_iso(),
            source.body,
            source.origin,
            source.reason,
            int(source.drift),
            "" if source.addresses is None else json.dumps([list(a) for a in source.addresses]),
        )
        with self._tx() as c:
            c.execute(_INSERT_SOURCE, row)

    def latest_source(self, url: str, origins: Sequence[Origin] = ()) -> Source | None:
        """Return the newest readable (ok) stored copy of url, of the given origins if any, or None."""
        with self._read() as c:
            # Bodies are large: pick the row by its small columns first, then read that one body.
            found = None
            for row_id, origin in c.execute(
                "SELECT id, origin FROM sources WHERE url = ? AND status = ? ORDER BY id DESC",
                (strip_fragment(url), SourceStatus.OK.value),
            ).fetchall():
                if not origins or origin in origins:
                    found = row_id
                    break
            if found is None:
                return None
            row = c.execute(_SELECT_SOURCE_BY_ID, (found,)).fetchone()
        return _source_from_row(row)

    def source_history(self, url: str, limit: int = 20) -> list[Source]:
        """Return every stored fetch of url, newest first, failures included (empty when none)."""
        with self._read() as c:
            rows = c.execute(
                _SELECT_SOURCE + " ORDER BY id DESC LIMIT ?",
                (strip_fragment(url), limit),
            ).fetchall()
        return [_source_from_row(r) for r in rows]

    # ------------------------------------------------------------------ runs

    def save_run(self, report_json: dict[str, Any], brief_raw: bytes = b"", brief_name: str = "") -> str:
        """Keep a checked brief's report (the brief file, the agent that asked as its "client"); return the run id."""
        # Milliseconds: runs saved within one second still list in the order they were made.
        created = datetime.now(UTC).isoformat(timespec="milliseconds")
        run_id = f"{created[:19].replace(':', '').replace('-', '')}-{secrets.token_hex(3)}"
        name = brief_name or str(report_json.get("brief_name", ""))
        client = str(report_json.get("client", ""))
        with self._tx() as c:
            c.execute(
                "INSERT INTO runs (run_id, brief_name, created_at, summary_json, report_json, brief_raw, client)"
                " VALUES (?,?,?,?,?,?,?)",
                (run_id, name, created, _summary_json(report_json), json.dumps(report_json), brief_raw, client),
            )
            c.execute("UPDATE runs SET claims = ? WHERE run_id = ?", (worklist.claims_in(report_json), run_id))
        return run_id

    def update_run(self, run_id: str, report_json: dict[str, Any]) -> None:
        """Replace a run's report (after a re-check); raise KeyError when the run does not exist."""
        with self._tx() as c:
            cur = c.execute(
                "UPDATE runs SET report_json = ?, summary_json = ? WHERE run_id = ?",
                (json.dumps(report_json), _summary_json(report_json), run_id),
            )
            if cur.rowcount == 0:
                raise KeyError(f"no stored run {run_id!r}")
            c.execute("UPDATE runs SET claims = ? WHERE run_id = ?", (worklist.claims_in(report_json), run_id))

    def load_run(self, run_id: str) -> dict[str, Any] | None:
        """Return a run's report JSON, or None when no run has that id."""
        with self._read() as c:
            row = c.execute("SELECT report_json FROM runs WHERE run_id = ?", (run_id,)).fetchone()
        if row is None:
            return None
        data: dict[str, Any] = json.loads(row[0])
        return data

    def brief_raw(self, run_id: str) -> bytes:
        """Return the brief file of a run as uploaded, or b"" when none was kept or the run is unknown."""
        with self._read() as c:
            row = c.execute("SELECT brief_raw FROM runs WHERE run_id = ?", (run_id,)).fetchone()
        return bytes(row[0]) if row and row[0] is not None else b""

    def list_runs(self, limit: int = 100, show: Work = Work.ALL, editor: str = "") -> list[RunInfo]:
        """Return the newest runs first that the filter shows (editor: whose are "mine"), at most limit of them."""
        with self._read() as c:
            return worklist.listed(c, limit, show, editor)

    def assign_run(self, run_id: str, editor: str, *, by: str) -> Assignment:
        """Assign a run to editor ("" gives it back), recorded as by's event; raise KeyError for an unknown run."""
        while True:  # two assignments at once: both are kept, in the order they got in
            try:
                with self._tx() as c:
                    return worklist.assign(c, run_id, editor, by, events.moment())
            except Taken:
                continue

    def assignments(self, run_id: str) -> list[Assignment]:
        """Return a run's assignments, newest first (empty when it was never assigned)."""
        with self._read() as c:
            return worklist.assignments(c, run_id)

    def editors(self) -> list[str]:
        """Return every name that has decided, assigned or been assigned in this store, sorted."""
        with self._read() as c:
            return worklist.editors(c)

    # ------------------------------------------------------------------ decisions (core.store.events)

    def save_decision(self, run_id: str, decision: Decision, *, author: str = "") -> None:
        """Keep the editor's whole decision on one claim of a run over an earlier one, one event per field changed."""
        while True:  # unchecked: another save in between is recorded first, and this one after it
            try:
                with self._tx() as c:
                    events.save_whole(c, run_id, decision, events.moment(), author)
                    return
            except Taken:
                continue

    def save_decision_change(
        self, run_id: str, claim_id: str, field: str, value: Any, seen_version: int, *, author: str = ""
    ) -> DecisionSave:
        """Save one field of a decision still at seen_version, else return the newer one; DecisionError on bad input."""
        try:
            with self._tx() as c:
                return events.save_change(c, run_id, claim_id, field, value, seen_version, events.moment(), author)
        except Taken:  # another save on the same version committed first
            with self._read() as c:
                return events.refused(c, run_id, claim_id, seen_version)

    def decisions(self, run_id: str) -> list[Decision]:
        """Return the editor's decisions on a run, in claim id order (empty when none)."""
        with self._read() as c:
            return events.decisions(c, run_id)

    def decision_history(
        self, run_id: str, claim_id: str | None = None, *, limit: int | None = None, offset: int = 0
    ) -> list[DecisionEvent]:
        """Return the changes of a claim's decision (or the run's), newest first, limit of them from offset."""
        with self._read() as c:
            return events.history(c, run_id, claim_id, limit, offset)

    # ------------------------------------------------------------------ extracted text (a cache)

    def load_page_text(self, body_sha256: str, content_type: str, extractor: str) -> dict[str, Any] | None:
        """Return the cached extraction of a body, or None when there is none for this extractor."""
        with self._read() as c:
            row = c.execute(
                "SELECT page_json FROM page_texts WHERE body_sha256 = ? AND content_type = ? AND extractor = ?",
                (body_sha256, content_type, extractor),
            ).fetchone()
        if row is None:
            return None
        data = json.loads(row[0])
        return data if isinstance(data, dict) else None

    def save_page_text(self, body_sha256: str, content_type: str, extractor: str, page: dict[str, Any]) -> None:
        """Keep the extraction of a body so that a re-check need not extract it again."""
        with self._tx() as c:
            c.execute(
                "INSERT OR REPLACE INTO page_texts (body_sha256, content_type, extractor, page_json)"
                " VALUES (?, ?, ?, ?)",
                (body_sha256, content_type, extractor, json.dumps(page, ensure_ascii=False)),
            )


def _summary_json(report_json: dict[str, Any]) -> str:
    summary = report_json.get("summary", {})
    return json.dumps(summary if isinstance(summary, dict) else {})


def _source_from_row(row: tuple[Any, ...]) -> Source:
    url, final_url, status, http_status, headers, ctype, sha, fetched_at, body, origin, reason, drift, hops = row
    return Source(
        url=url,
        status=SourceStatus(status),
        reason=reason,
        final_url=final_url,
        http_status=http_status,
        content_type=ctype,
        headers=tuple((str(k), str(v)) for k, v in json.loads(headers)),
        body=bytes(body) if body is not None else b"",
        sha256=sha,
        fetched_at=fetched_at,
        origin=Origin(origin),
        drift=bool(drift),
        addresses=tuple((str(h), str(a)) for h, a in json.loads(hops)) if hops else None,
    )
