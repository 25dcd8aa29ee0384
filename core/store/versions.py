"""One change to the editor's decision, saved only when the stored record is still the one the editor saw.

Every saved change raises the decision's ``version`` by one. A change names one field and the
version its tab last read; when the store holds another version (another tab saved first) the
change is refused and the newer record returned, so that the tab shows it instead of writing
over it. The new record is made from the stored one through ``Decision.changed`` (the one
decision rule: a "no" withdraws an accept), so only the named field changes. The check carries
over to an append-only log of decision events: the version is then the number of the claim's
latest event, and a change is appended only while the version it names is still the latest.
It refuses to merge two editors' changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.models import Choice, Decision
from core.store.engine import Conn

#: The fields of a decision an editor changes one at a time.
FIELDS = ("decision", "note", *Decision.QUESTIONS)

SELECT = (
    "SELECT claim_id, decision, note, same_period, same_metric, same_population, decided_at, version"
    " FROM decisions WHERE run_id = ?"
)


@dataclass(frozen=True)
class DecisionSave:
    """What one change gave: the decision now stored, and whether this change is what made it."""

    decision: Decision
    saved: bool


def _yes_no(value: bool | None) -> int | None:
    return None if value is None else int(value)


def _bool(value: int | None) -> bool | None:
    return None if value is None else bool(value)


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
    )


def save_change(conn: Conn, run_id: str, claim_id: str, field: str, value: Any, seen: int, at: str) -> DecisionSave:
    """Apply one field's change to the stored decision when its version is still ``seen``; else return the newer one."""
    if field not in FIELDS:
        raise ValueError(f"not a field of a decision: {field!r}")
    row = conn.execute(SELECT + " AND claim_id = ?", (run_id, claim_id)).fetchone()
    stored = from_row(row) if row is not None else Decision(claim_id=claim_id)
    if stored.version != seen:
        return DecisionSave(stored, saved=False)
    new = stored.changed(**{field: value, "decided_at": at, "version": seen + 1})
    values = (
        new.decision.value,
        new.note,
        _yes_no(new.same_period),
        _yes_no(new.same_metric),
        _yes_no(new.same_population),
        at,
        new.version,
    )
    if row is None:
        # Two first changes at once: the primary key lets only one insert through.
        cur = conn.execute(
            "INSERT INTO decisions (decision, note, same_period, same_metric, same_population, decided_at, version,"
            " run_id, claim_id) VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT (run_id, claim_id) DO NOTHING",
            (*values, run_id, claim_id),
        )
    else:
        cur = conn.execute(
            "UPDATE decisions SET decision = ?, note = ?, same_period = ?, same_metric = ?, same_population = ?,"
            " decided_at = ?, version = ? WHERE run_id = ? AND claim_id = ? AND version = ?",
            (*values, run_id, claim_id, seen),
        )
    if cur.rowcount == 0:
        newer = conn.execute(SELECT + " AND claim_id = ?", (run_id, claim_id)).fetchone()
        return DecisionSave(from_row(newer) if newer is not None else stored, saved=False)
    return DecisionSave(new, saved=True)
