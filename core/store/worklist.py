"""The run list as a queue of work: who each run is assigned to, how far its decisions are, who decided last.

One query answers the History page, whatever the filter: each run's small columns from the
``runs_listed`` index and, per run, correlated look-ups on the decisions and assignments
tables' keys, filtered and limited in the database. No report is read to count claims (a
run's ``claims`` is written with its report) and no query is made per run. An assignment is
an append-only event like a decision's: the latest one stands, "" gives the run back.
It refuses to decide who may assign: that is the desk's sign-in (ui.auth).
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from core.models import Assignment
from core.store.engine import Conn, Engine
from core.store.events import TAKEN, Taken


class Work(enum.StrEnum):
    """Which runs the list shows."""

    ALL = "all"
    MINE = "mine"  # assigned to the editor asking
    UNASSIGNED = "unassigned"
    UNDECIDED = "undecided"  # some claim still has no decision
    DONE = "done"  # every claim has a decision


@dataclass(frozen=True, kw_only=True)
class RunInfo:
    """One stored run as the run list shows it: id, brief, time, verdict counts, who is working on it.

    ``client``: the agent that asked ("" if none); ``assigned_to``: "" = nobody; ``decided`` of
    ``claims`` have a decision; ``last_decided_by`` and ``_at``: the latest change ("" if none).
    """

    run_id: str
    brief_name: str
    created_at: str
    summary: dict[str, int] = field(default_factory=dict, compare=False)
    client: str = ""
    assigned_to: str = ""
    claims: int = 0
    decided: int = 0
    last_decided_by: str = ""
    last_decided_at: str = ""


_LISTED = (
    "SELECT r.run_id, r.brief_name, r.created_at, r.summary_json, r.client, r.claims,"
    " (SELECT COUNT(*) FROM decisions d WHERE d.run_id = r.run_id AND d.decision <> '') AS decided,"
    " (SELECT d.decided_by FROM decisions d WHERE d.run_id = r.run_id"
    "  ORDER BY d.decided_at DESC, d.claim_id LIMIT 1) AS last_by,"
    " (SELECT MAX(d.decided_at) FROM decisions d WHERE d.run_id = r.run_id) AS last_at,"
    " (SELECT a.assigned_to FROM assignments a WHERE a.run_id = r.run_id ORDER BY a.seq DESC LIMIT 1) AS assigned_to"
    " FROM runs r"
)

_WHERE = {
    Work.ALL: "",
    # Mine: assigned by name, or to the address the desk's editor list names (before a first sign-in).
    Work.MINE: " WHERE (q.assigned_to = ? OR (? <> '' AND LOWER(q.assigned_to) = ?))",
    Work.UNASSIGNED: " WHERE COALESCE(q.assigned_to, '') = ''",
    Work.UNDECIDED: " WHERE q.decided < q.claims",
    Work.DONE: " WHERE q.decided >= q.claims",
}


def claims_in(report_json: dict[str, Any]) -> int:
    """Return how many claims a report has (its claims list, else the sum of its summary's counts)."""
    claims = report_json.get("claims")
    if isinstance(claims, list):
        return len(claims)
    summary = report_json.get("summary")
    return sum(v for v in summary.values() if isinstance(v, int)) if isinstance(summary, dict) else 0


def count_claims(engine: Engine, conn: Conn) -> None:
    """Write the claim count of every run saved before runs had one, from its summary (migration 0003's step)."""
    for run_id, summary in conn.execute("SELECT run_id, summary_json FROM runs WHERE claims IS NULL").fetchall():
        conn.execute(
            "UPDATE runs SET claims = ? WHERE run_id = ?", (claims_in({"summary": json.loads(summary)}), run_id)
        )


def listed(conn: Conn, limit: int, show: Work, editor: str, email: str = "") -> list[RunInfo]:
    """Return the runs the filter shows (editor, or their address: whose are "mine"), newest first, at most limit."""
    # Both parts are constants of this module; every value is a parameter.
    sql = f"SELECT * FROM ({_LISTED}) q{_WHERE[show]} ORDER BY q.created_at DESC, q.run_id DESC LIMIT ?"  # noqa: S608
    args = (editor, email, email.strip().lower(), limit) if show is Work.MINE else (limit,)
    return [
        RunInfo(
            run_id=run_id,
            brief_name=name,
            created_at=created,
            summary=(counts := json.loads(summary)),
            client=client,
            claims=claims_in({"summary": counts}) if claims is None else int(claims),
            decided=int(decided),
            last_decided_by=last_by or "",
            last_decided_at=last_at or "",
            assigned_to=assigned or "",
        )
        for run_id, name, created, summary, client, claims, decided, last_by, last_at, assigned in conn.execute(
            sql, args
        ).fetchall()
    ]


def assign(conn: Conn, run_id: str, editor: str, by: str, at: str) -> Assignment:
    """Append an assignment of the run to editor ("" = nobody); raise KeyError for an unknown run, Taken on a race."""
    if conn.execute("SELECT 1 FROM runs WHERE run_id = ?", (run_id,)).fetchone() is None:
        raise KeyError(f"no stored run {run_id!r}")
    seq = int(conn.execute("SELECT COALESCE(MAX(seq), 0) FROM assignments WHERE run_id = ?", (run_id,)).fetchone()[0])
    made = Assignment(run_id=run_id, seq=seq + 1, assigned_to=editor, assigned_by=by, at=at)
    try:
        conn.execute(
            "INSERT INTO assignments (run_id, seq, assigned_to, assigned_by, at) VALUES (?,?,?,?,?)",
            (made.run_id, made.seq, made.assigned_to, made.assigned_by, made.at),
        )
    except TAKEN as exc:
        raise Taken(str(exc)) from exc
    return made


def assignments(conn: Conn, run_id: str) -> list[Assignment]:
    """Return a run's assignments, newest first (empty when it was never assigned)."""
    rows = conn.execute(
        "SELECT run_id, seq, assigned_to, assigned_by, at FROM assignments WHERE run_id = ? ORDER BY seq DESC",
        (run_id,),
    ).fetchall()
    return [Assignment(run_id=a, seq=int(b), assigned_to=c, assigned_by=d, at=e) for a, b, c, d, e in rows]


def offered(known: Iterable[str], configured: Iterable[str], me: str, email: str = "", current: str = "") -> list[str]:
    """Return the names assignment offers, sorted: the store's names, the desk's configured editors, me, current.

    A configured editor (an address of the [verbatim] editors list or VERBATIM_EDITORS) is offered whether or not
    they have signed in yet; the address of the editor at the desk stands as their name (shown still while a run
    is assigned to it). Each name once, whatever its case.
    """
    mine = email.strip().lower()
    names = [*(n for n in (*known, *configured) if n.strip().lower() != mine), me, current]
    seen: dict[str, str] = {}
    for name in names:
        if name and name.casefold() not in seen:
            seen[name.casefold()] = name
    return sorted(seen.values(), key=str.casefold)


def editors(conn: Conn) -> list[str]:
    """Return every name that has decided, assigned or been assigned, sorted (empty when none)."""
    rows = conn.execute(
        "SELECT author FROM decision_events UNION SELECT decided_by FROM decisions"
        " UNION SELECT assigned_to FROM assignments UNION SELECT assigned_by FROM assignments"
    ).fetchall()
    return sorted({r[0] for r in rows if r[0]}, key=str.casefold)
