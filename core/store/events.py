"""The editor's decisions as append-only events: every change of one field, with its author, recorded once.

A change names one field and the version its tab last read. The version of a decision is
the seq of its latest event (decisions table, ``version``): when the store holds a newer one
the change is refused and the newer record returned with the events the tab missed, so that
the editor sees who changed what while they were reading. The new record is made through
``Decision.changed`` (the one decision rule: a "no" withdraws an accept), so a change may
give two events (the answer, then the withdrawn accept). Events and the current state are
written in one transaction; the primary key on (run_id, claim_id, seq) lets only the first of
two saves on one version through, on SQLite and PostgreSQL alike. It refuses to merge two
editors' changes, to rewrite or delete an event, and to record a field that is not a decision's.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

import psycopg

from core.errors import DecisionError
from core.models import Choice, Decision, DecisionEvent
from core.store.engine import Conn

#: The fields of a decision an editor changes one at a time.
FIELDS = ("decision", "note", *Decision.QUESTIONS)

SELECT = (
    "SELECT claim_id, decision, note, same_period, same_metric, same_population, decided_at, version, decided_by"
    " FROM decisions WHERE run_id = ?"
)
_EVENTS = "SELECT run_id, claim_id, seq, field, before, after, author, at FROM decision_events WHERE run_id = ?"
#: What a database says when a row with the same key is already there: another save was first.
TAKEN = (sqlite3.IntegrityError, psycopg.IntegrityError)
#: At most this many of the changes a refused save missed are handed back (the history has them all).
MISSED_SHOWN = 20


@dataclass(frozen=True)
class DecisionSave:
    """What one change gave: the decision now stored, whether this change made it, and what the tab missed.

    ``missed`` (refused saves only): the events recorded after the version the tab saw, oldest
    first, at most MISSED_SHOWN of them; empty for changes made before events were recorded.
    """

    decision: Decision
    saved: bool
    missed: tuple[DecisionEvent, ...] = ()


class Taken(Exception):
    """Another save took the seq this one wanted (not a VerbatimError: the store answers it with the newer record)."""


def moment() -> str:
    """Return the time of a change: UTC ISO 8601 to the millisecond, so two changes in one second keep their order."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _yes_no(value: bool | None) -> int | None:
    return None if value is None else int(value)


def _bool(value: int | None) -> bool | None:
    return None if value is None else bool(value)


def as_text(field: str, value: Any) -> str:
    """Return a field's value as an event records it: the choice, the note, "yes", "no" or ""."""
    if field in Decision.QUESTIONS:
        return "" if value is None else ("yes" if value else "no")
    return str(value)


def checked(claim_id: str, field: str, value: Any) -> Any:
    """Return value as the field holds it; raise DecisionError when the field or the value is not a decision's."""
    if field not in FIELDS:
        raise DecisionError(
            f"{field!r} is not a field of a decision (one of {', '.join(FIELDS)}): nothing was saved for"
            f" claim {claim_id}."
        )
    if field == "decision":
        try:
            return Choice(value)
        except ValueError:
            raise DecisionError(
                f"{value!r} is not a decision (accept, reject, needs_edit, or '' for none): nothing was saved for"
                f" claim {claim_id}."
            ) from None
    if field == "note" and not isinstance(value, str):
        raise DecisionError(f"A note is text, not {type(value).__name__}: nothing was saved for claim {claim_id}.")
    if field in Decision.QUESTIONS and value is not None and not isinstance(value, bool):
        raise DecisionError(
            f"The answer to {field} is yes (True), no (False) or not answered (None), not {value!r}: nothing was"
            f" saved for claim {claim_id}."
        )
    return value


def from_row(r: tuple[Any, ...]) -> Decision:
    """Return the Decision a row of SELECT holds."""
    return Decision(
        claim_id=r[0],
        decision=Choice(r[1]),
        note=r[2],
        same_period=_bool(r[3]),
        same_metric=_bool(r[4]),
        same_population=_bool(r[5]),
        decided_at=r[6],
        version=int(r[7]),
        decided_by=r[8],
    )


def event_from_row(r: tuple[Any, ...]) -> DecisionEvent:
    """Return the DecisionEvent a row of the events table holds."""
    return DecisionEvent(
        run_id=r[0], claim_id=r[1], seq=int(r[2]), field=r[3], before=r[4], after=r[5], author=r[6], at=r[7]
    )


def stored(conn: Conn, run_id: str, claim_id: str) -> Decision:
    """Return the stored decision on a claim (an empty one at version 0), at the seq of its latest event.

    The two agree whenever this module wrote them; a store copied into another may hold events
    beyond its decisions row, and a version behind them would have every save refused for ever.
    """
    row = conn.execute(SELECT + " AND claim_id = ?", (run_id, claim_id)).fetchone()
    found = from_row(row) if row is not None else Decision(claim_id=claim_id)
    latest = conn.execute(
        "SELECT MAX(seq) FROM decision_events WHERE run_id = ? AND claim_id = ?", (run_id, claim_id)
    ).fetchone()[0]
    return replace(found, version=int(latest)) if latest is not None and int(latest) > found.version else found


def _events(run_id: str, old: Decision, new: Decision, first: str, author: str, at: str) -> list[DecisionEvent]:
    """Return the events that turn old into new, the named field first, numbered on from old's version."""
    order = [first, *(f for f in FIELDS if f != first)]
    changed = [
        (f, as_text(f, getattr(old, f)), as_text(f, getattr(new, f)))
        for f in order
        if as_text(f, getattr(old, f)) != as_text(f, getattr(new, f))
    ]
    return [
        DecisionEvent(
            run_id=run_id,
            claim_id=old.claim_id,
            seq=old.version + i,
            field=f,
            before=before,
            after=after,
            author=author,
            at=at,
        )
        for i, (f, before, after) in enumerate(changed, start=1)
    ]


def _record(conn: Conn, run_id: str, new: Decision, events: list[DecisionEvent]) -> None:
    """Append the events and write the current state; raise Taken when another save has one of their seqs."""
    try:
        for e in events:
            conn.execute(
                "INSERT INTO decision_events (run_id, claim_id, seq, field, before, after, author, at)"
                " VALUES (?,?,?,?,?,?,?,?)",
                (e.run_id, e.claim_id, e.seq, e.field, e.before, e.after, e.author, e.at),
            )
    except TAKEN as exc:
        raise Taken(str(exc)) from exc
    conn.execute(
        "INSERT INTO decisions (run_id, claim_id, decision, note, same_period, same_metric, same_population,"
        " decided_at, version, decided_by) VALUES (?,?,?,?,?,?,?,?,?,?) ON CONFLICT (run_id, claim_id) DO UPDATE"
        " SET decision = excluded.decision, note = excluded.note, same_period = excluded.same_period,"
        " same_metric = excluded.same_metric, same_population = excluded.same_population,"
        " decided_at = excluded.decided_at, version = excluded.version, decided_by = excluded.decided_by",
        (
            run_id,
            new.claim_id,
            new.decision.value,
            new.note,
            _yes_no(new.same_period),
            _yes_no(new.same_metric),
            _yes_no(new.same_population),
            new.decided_at,
            new.version,
            new.decided_by,
        ),
    )


def save_change(
    conn: Conn, run_id: str, claim_id: str, field: str, value: Any, seen: int, at: str, author: str
) -> DecisionSave:
    """Record one field's change when the decision is still at version ``seen``; else return the newer one.

    Raises DecisionError for a field or value that is not a decision's, or a version the store
    never held; Taken when another save on the same version got in first (the caller rolls back).
    """
    value = checked(claim_id, field, value)
    current = stored(conn, run_id, claim_id)
    if current.version > seen:
        return refused(conn, run_id, claim_id, seen)
    if current.version < seen:
        raise DecisionError(
            f"The decision on claim {claim_id} of run {run_id} is at version {current.version} in the store, and"
            f" this change was made on version {seen}, which the store never held: reload the run to see the"
            " decision as stored, then make the change again."
        )
    new = current.changed(**{field: value})
    events = _events(run_id, current, new, field, author, at)
    if not events:  # nothing changes (the rule withdrew the accept it asked for, or the same value again)
        return DecisionSave(current, saved=True)
    new = replace(new, decided_at=at, decided_by=author, version=events[-1].seq)
    _record(conn, run_id, new, events)
    return DecisionSave(new, saved=True)


def save_whole(conn: Conn, run_id: str, decision: Decision, at: str, author: str) -> Decision:
    """Record a whole decision over whatever is stored, one event per field that differs; return it as stored.

    Unchecked (the caller means to replace the decision); raises Taken when another save got in
    first, for the caller to try again on the newer version.
    """
    for name in FIELDS:
        checked(decision.claim_id, name, getattr(decision, name))
    current = stored(conn, run_id, decision.claim_id)
    events = _events(run_id, current, decision, "decision", author, at)
    if not events:
        return current
    new = replace(decision, decided_at=decision.decided_at or at, decided_by=author, version=events[-1].seq)
    _record(conn, run_id, new, events)
    return new


def refused(conn: Conn, run_id: str, claim_id: str, seen: int) -> DecisionSave:
    """Return the refusal of a change made on version ``seen``: the decision stored now and what came after seen."""
    rows = conn.execute(
        _EVENTS + " AND claim_id = ? AND seq > ? ORDER BY seq DESC LIMIT ?", (run_id, claim_id, seen, MISSED_SHOWN)
    ).fetchall()
    return DecisionSave(
        stored(conn, run_id, claim_id), saved=False, missed=tuple(reversed([event_from_row(r) for r in rows]))
    )


def decisions(conn: Conn, run_id: str) -> list[Decision]:
    """Return the decisions on a run as they stand, in claim id order."""
    return [from_row(r) for r in conn.execute(SELECT + " ORDER BY claim_id", (run_id,)).fetchall()]


def history(conn: Conn, run_id: str, claim_id: str | None, limit: int | None, offset: int) -> list[DecisionEvent]:
    """Return the events of a claim (or of the whole run), newest first, a page of ``limit`` from ``offset``."""
    # A claim's own order is its seq (clocks of two machines may disagree); a run's is the time.
    where, args, order = (
        ("", [run_id], " ORDER BY at DESC, claim_id, seq DESC")
        if claim_id is None
        else (" AND claim_id = ?", [run_id, claim_id], " ORDER BY seq DESC")
    )
    page = " LIMIT ? OFFSET ?" if limit is not None else ""
    rows = conn.execute(
        _EVENTS + where + order + page,
        (*args, *((limit, offset) if limit is not None else ())),
    ).fetchall()
    return [event_from_row(r) for r in rows]
