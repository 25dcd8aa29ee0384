"""The records of one run's outcome: the report, the policy it was checked under, the editor's decisions.

Split from ``records`` (the data flow up to ClaimResult) so each module stays short; like it,
this holds no logic beyond small derived properties and the one decision rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from core.models.kinds import BriefFormat, Choice, Verdict
from core.models.records import ClaimResult, UnusedLink


@dataclass(frozen=True, kw_only=True)
class Decision:
    """The editor's decision on one claim. Any "no" answer (False) blocks accept."""

    claim_id: str
    decision: Choice = Choice.NONE
    note: str = ""
    same_period: bool | None = None
    same_metric: bool | None = None
    same_population: bool | None = None
    decided_at: str = ""
    #: Who made the latest change (the editor's name; "" for a decision recorded under no name).
    decided_by: str = ""
    #: The seq of the decision's latest event (core.store.events): a tab's change is kept only on the version it saw.
    version: int = field(default=0, compare=False)

    #: The questions an editor answers on a claim (fields above), in the order they are asked.
    QUESTIONS: ClassVar[tuple[str, ...]] = ("same_period", "same_metric", "same_population")

    @property
    def answered_no(self) -> tuple[str, ...]:
        """Return the questions answered "no" ("same_period", ...), in the order they are asked."""
        return tuple(name for name in self.QUESTIONS if getattr(self, name) is False)

    @property
    def accept_blocked(self) -> bool:
        """Return True when an answer of "no" forbids accepting the claim."""
        return bool(self.answered_no)

    def changed(self, **change: Any) -> Decision:
        """Return this decision with the change applied; an accept is withdrawn while any answer is "no".

        The one decision rule: whether the editor picks accept with a "no" standing, or answers
        "no" to a claim already accepted, the result has no decision (Choice.NONE) and keeps the answers.
        """
        new = replace(self, **change)
        choice = Choice(new.decision)  # the desk's radio hands back the member's string
        return replace(new, decision=Choice.NONE if choice is Choice.ACCEPT and new.accept_blocked else choice)


@dataclass(frozen=True, kw_only=True)
class DecisionEvent:
    """One change of one field of a decision, as recorded: who, when, what it was and what it became.

    ``before`` and ``after`` are the field's value as text: a Choice value for "decision", the
    note itself, "yes", "no" or "" (not answered) for a question. ``seq`` numbers a claim's events from 1.
    """

    run_id: str
    claim_id: str
    seq: int
    field: str
    before: str
    after: str
    author: str
    at: str


@dataclass(frozen=True, kw_only=True)
class Assignment:
    """One assignment of a run: who it went to ("" = nobody: unassigned), who gave it, and when."""

    run_id: str
    seq: int
    assigned_to: str
    assigned_by: str
    at: str


@dataclass(frozen=True, kw_only=True)
class CheckPolicy:
    """The address policy a run was checked under: private networks allowed or not, and the domains allowed."""

    allow_private: bool = False
    allowed_domains: tuple[str, ...] = ()  # empty: every public domain


@dataclass(frozen=True, kw_only=True)
class Report:
    """The outcome of checking one brief; ``brief_format`` is None when a report read back does not say."""

    brief_name: str
    brief_format: BriefFormat | None
    checked_at: str
    results: tuple[ClaimResult, ...]
    uncited: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    run_id: str = ""
    decisions: tuple[Decision, ...] = ()
    #: The policy the run was checked under; None for a run stored before it was recorded.
    policy: CheckPolicy | None = None
    unused_links: tuple[UnusedLink, ...] = ()

    @property
    def summary(self) -> dict[str, int]:
        """Return the count of claims per verdict, every verdict present, in precedence order."""
        counts = {v.value: 0 for v in Verdict}
        for r in self.results:
            counts[r.verdict.value] += 1
        return counts

    def decision_for(self, claim_id: str) -> Decision | None:
        """Return the editor's decision on a claim, or None when there is none."""
        for d in self.decisions:
            if d.claim_id == claim_id:
                return d
        return None
