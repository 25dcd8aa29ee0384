"""The evidence store: fetched sources, checked runs and the editor's decisions, on SQLite or PostgreSQL.

``Store(target)`` opens a SQLite file (``Settings.db_path``, ``$VERBATIM_DB``), ``":memory:"``
for ``--no-cache``, or a team store by ``postgresql://`` URL, and applies the migrations it
lacks (``migrate``). Every statement here is written once, with ``?`` placeholders, in SQL
both engines read (``engine``). Every write is committed at once, so a reload, a closed tab or
a restart loses nothing. No driver exception leaves the store: one that cannot be opened, read
or written raises ``core.errors.StoreError``, whose message names the store and what to do.
URLs are stored without their ``#fragment``: the fragment is never sent to the server, so
``page#a`` and ``page#b`` are the same evidence.

It refuses to fetch, extract or judge anything: it keeps what it is given and gives it back.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.models import Assignment, Decision, DecisionEvent, Origin, Source, SourceStatus
from core.settings import Settings
from core.store import bodies, events, migrate, worklist
from core.store.engine import Engine
from core.store.events import DecisionSave, Taken
from core.store.sqlite import SqliteEngine
from core.store.target import is_postgres
from core.store.worklist import RunInfo, Work

# A source's bytes are the bodies row of its sha256 (bodies), none for a fetch without bytes.
#: Run ids drawn before giving up: two runs of one second share an id once in 16 million draws.
_ID_DRAWS = 8

_SELECT_SOURCE = (
    "SELECT s.url, s.final_url, s.status, s.http_status, s.headers, s.content_type, s.sha256, s.fetched_at, b.body,"
    " s.origin, s.reason, s.drift, s.addresses FROM sources s LEFT JOIN bodies b ON b.sha256 = s.sha256"
)
_INSERT_SOURCE = (
    "INSERT INTO sources (url, final_url, status, http_status, headers, content_type, sha256, fetched_at,"
    " origin, reason, drift, addresses) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
)


def now_iso() -> str:
    """Return the current UTC time as ISO 8601 with seconds."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def strip_fragment(url: str) -> str:
    """Return the URL without its ``#fragment`` (never sent to a server)."""
    return url.split("#", 1)[0]


def open_store(settings: Settings) -> Store:
    """Return the store the settings ask for: in memory when use_cache is off, else db_path (a file or a URL)."""
    return Store(
        settings.db_path if settings.use_cache else ":memory:",
        busy_timeout=settings.store_busy_timeout,
        pool_size=settings.store_pool_size,
    )


def engine_for(target: Path | str, *, busy_timeout: float | None = None, pool_size: int | None = None) -> Engine:
    """Return the engine of a target (not migrated): SQLite for a path or ":memory:", else PostgreSQL; or StoreError."""
    defaults = Settings()
    timeout = defaults.store_busy_timeout if busy_timeout is None else busy_timeout
    if is_postgres(target):
        from core.store.postgres import PostgresEngine  # psycopg is loaded only for a team store

        return PostgresEngine(str(target), timeout=timeout, pool_size=pool_size or defaults.store_pool_size)
    return SqliteEngine(target, busy_timeout=timeout)


class Store:
    """The evidence store (a class, not a dataclass: it owns an engine and its connections)."""

    def __init__(self, target: Path | str, *, busy_timeout: float | None = None, pool_size: int | None = None) -> None:
        """Open (and create, and migrate) the store at target: a path, ":memory:" or a postgresql:// URL.

        Raises StoreError when it cannot be opened, reached or migrated.
        """
        self._engine = engine_for(target, busy_timeout=busy_timeout, pool_size=pool_size)
        self.path = self._engine.path
        self.in_memory = self._engine.in_memory
        try:
            #: The migrations this open applied (empty when the store was up to date).
            self.applied = migrate.upgrade(self._engine)
        except BaseException:
            self._engine.close()
            raise

    @property
    def backend(self) -> str:
        """Return "sqlite" or "postgresql"."""
        return self._engine.backend

    @property
    def label(self) -> str:
        """Return how messages name this store: its path, "in memory", or host:port/database (no password)."""
        return self._engine.label

    @property
    def named(self) -> str:
        """Return the store as a sentence names it: "the team store at host:port/db", "the evidence store at PATH"."""
        if self.backend == "postgresql":
            return f"the team store at {self.label}"
        return "the evidence store in memory" if self.in_memory else f"the evidence store at {self.label}"

    @property
    def engine(self) -> Engine:
        """Return the engine under the store (for the store's own tools: copy, migrations, their tests)."""
        return self._engine

    # ------------------------------------------------------------------ plumbing

    def problem(self) -> str:
        """Return why what is saved now would not be kept (file deleted, replaced, read-only), or ""."""
        return self._engine.problem()

    def close(self) -> None:
        """Close the store's connections; the store is unusable afterwards."""
        self._engine.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def journal_mode(self) -> str:
        """Return SQLite's journal mode ("wal" for a file store, "memory" in memory; "" on PostgreSQL)."""
        return self._engine.journal_mode() if isinstance(self._engine, SqliteEngine) else ""

    # ------------------------------------------------------------------ sources

    def save_source(self, source: Source) -> None:
        """Keep one fetch (its bytes, status and reason) as evidence; failures are kept too."""
        with self._engine.write() as c:
            # The bytes are kept once, under their own sha256; a fetch without bytes keeps the one it was given.
            sha = bodies.keep(c, source.body) or source.sha256
            c.execute(
                _INSERT_SOURCE,
                (
                    strip_fragment(source.url),
                    source.final_url,
                    source.status.value,
                    source.http_status,
                    json.dumps([list(h) for h in source.headers]),
                    source.content_type,
                    sha,
                    source.fetched_at or now_iso(),
                    source.origin,
                    source.reason,
                    int(source.drift),
                    "" if source.addresses is None else json.dumps([list(a) for a in source.addresses]),
                ),
            )

    def latest_source(self, url: str, origins: Sequence[Origin] = ()) -> Source | None:
        """Return the newest readable (ok) stored copy of url, of the given origins if any, or None."""
        with self._engine.read() as c:
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
            row = c.execute(_SELECT_SOURCE + " WHERE s.id = ?", (found,)).fetchone()
        return _source_from_row(row)

    def source_history(self, url: str, limit: int = 20) -> list[Source]:
        """Return every stored fetch of url, newest first, failures included (empty when none)."""
        with self._engine.read() as c:
            rows = c.execute(
                _SELECT_SOURCE + " WHERE s.url = ? ORDER BY s.id DESC LIMIT ?",
                (strip_fragment(url), limit),
            ).fetchall()
        return [_source_from_row(r) for r in rows]

    # ------------------------------------------------------------------ runs

    def save_run(
        self, report_json: dict[str, Any], brief_raw: bytes = b"", brief_name: str = "", *, run_id: str | None = None
    ) -> str:
        """Keep a checked brief's report (the brief file, the agent that asked as its "client"); return the run id.

        With a run_id given the run is inserted once: saving the same id again changes nothing
        and returns it (a job finished twice keeps its first report).
        """
        # Milliseconds: runs saved within one second still list in the order they were made.
        created = datetime.now(UTC).isoformat(timespec="milliseconds")
        name = brief_name or str(report_json.get("brief_name", ""))
        client = str(report_json.get("client", ""))
        for _ in range(_ID_DRAWS):
            chosen = run_id or f"{created[:19].replace(':', '').replace('-', '')}-{secrets.token_hex(3)}"
            if self._insert_run(chosen, name, created, report_json, brief_raw, client) or run_id is not None:
                return chosen
            # A drawn id another run of the same second already has: draw again, never drop this run.
        raise self._engine.error("written", f"no free run id was drawn in {_ID_DRAWS} tries")

    def _insert_run(
        self, run_id: str, name: str, created: str, report_json: dict[str, Any], brief_raw: bytes, client: str
    ) -> bool:
        """Insert a run unless its id is taken; return whether it was inserted."""
        with self._engine.write() as c:
            cur = c.execute(
                "INSERT INTO runs (run_id, brief_name, created_at, summary_json, report_json, brief_raw, client,"
                " claims) VALUES (?,?,?,?,?,?,?,?) ON CONFLICT (run_id) DO NOTHING",
                (
                    run_id,
                    name,
                    created,
                    _summary_json(report_json),
                    json.dumps(report_json),
                    brief_raw,
                    client,
                    worklist.claims_in(report_json),
                ),
            )
            return bool(cur.rowcount)

    def update_run(self, run_id: str, report_json: dict[str, Any]) -> None:
        """Replace a run's report (after a re-check); raise KeyError when the run does not exist."""
        with self._engine.write() as c:
            cur = c.execute(
                "UPDATE runs SET report_json = ?, summary_json = ?, claims = ? WHERE run_id = ?",
                (json.dumps(report_json), _summary_json(report_json), worklist.claims_in(report_json), run_id),
            )
            if cur.rowcount == 0:
                raise KeyError(f"no stored run {run_id!r}")

    def load_run(self, run_id: str) -> dict[str, Any] | None:
        """Return a run's report JSON, or None when no run has that id."""
        text = self.load_run_text(run_id)
        if text is None:
            return None
        data: dict[str, Any] = json.loads(text)
        return data

    def load_run_text(self, run_id: str) -> str | None:
        """Return a run's report JSON as stored, unparsed (core.report.cached_report reads it), or None if none."""
        with self._engine.read() as c:
            row = c.execute("SELECT report_json FROM runs WHERE run_id = ?", (run_id,)).fetchone()
        return None if row is None else str(row[0])

    def brief_raw(self, run_id: str) -> bytes:
        """Return the brief file of a run as uploaded, or b"" when none was kept or the run is unknown."""
        with self._engine.read() as c:
            row = c.execute("SELECT brief_raw FROM runs WHERE run_id = ?", (run_id,)).fetchone()
        return bytes(row[0]) if row and row[0] is not None else b""

    def list_runs(self, limit: int = 100, show: Work = Work.ALL, editor: str = "", email: str = "") -> list[RunInfo]:
        """Return the newest runs first that the filter shows (editor or email: whose are "mine"), at most limit."""
        with self._engine.read() as c:
            return worklist.listed(c, limit, show, editor, email)

    def assign_run(self, run_id: str, editor: str, *, by: str) -> Assignment:
        """Assign a run to editor ("" gives it back), recorded as by's event; raise KeyError for an unknown run."""
        while True:  # two assignments at once: both are kept, in the order they got in
            try:
                with self._engine.write() as c:
                    return worklist.assign(c, run_id, editor, by, events.moment())
            except Taken:
                continue

    def assignments(self, run_id: str) -> list[Assignment]:
        """Return a run's assignments, newest first (empty when it was never assigned)."""
        with self._engine.read() as c:
            return worklist.assignments(c, run_id)

    def editors(self) -> list[str]:
        """Return every name that has decided, assigned or been assigned in this store, sorted."""
        with self._engine.read() as c:
            return worklist.editors(c)

    # ------------------------------------------------------------------ decisions (core.store.events)

    def save_decision(self, run_id: str, decision: Decision, *, author: str = "") -> None:
        """Keep the editor's whole decision on one claim of a run over an earlier one, one event per field changed."""
        while True:  # unchecked: another save in between is recorded first, and this one after it
            try:
                with self._engine.write() as c:
                    events.save_whole(c, run_id, decision, events.moment(), author)
                    return
            except Taken:
                continue

    def save_decision_change(
        self, run_id: str, claim_id: str, field: str, value: Any, seen_version: int, *, author: str = "", at: str = ""
    ) -> DecisionSave:
        """Save one field of a decision still at seen_version, else return the newer one; DecisionError on bad input.

        ``at`` is when the change was made (default: now); a change kept while the store was away keeps its own.
        """
        try:
            with self._engine.write() as c:
                return events.save_change(
                    c, run_id, claim_id, field, value, seen_version, at or events.moment(), author
                )
        except Taken:  # another save on the same version committed first
            with self._engine.read() as c:
                return events.refused(c, run_id, claim_id, seen_version)

    def decisions(self, run_id: str) -> list[Decision]:
        """Return the editor's decisions on a run, in claim id order (empty when none)."""
        with self._engine.read() as c:
            return events.decisions(c, run_id)

    def decision_history(
        self, run_id: str, claim_id: str | None = None, *, limit: int | None = None, offset: int = 0
    ) -> list[DecisionEvent]:
        """Return the changes of a claim's decision (or the run's), newest first, limit of them from offset."""
        with self._engine.read() as c:
            return events.history(c, run_id, claim_id, limit, offset)

    # ------------------------------------------------------------------ extracted text (a cache)

    def load_page_text(self, body_sha256: str, content_type: str, extractor: str) -> dict[str, Any] | None:
        """Return the cached extraction of a body, or None when there is none for this extractor."""
        with self._engine.read() as c:
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
        with self._engine.write() as c:
            c.execute(
                "INSERT INTO page_texts (body_sha256, content_type, extractor, page_json) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (body_sha256, content_type, extractor) DO UPDATE SET page_json = excluded.page_json",
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
