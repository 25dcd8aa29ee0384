"""The desk's session: one Store per browser session, the open run, and the editor's decisions.

The store is the truth: a run is loaded from it by id (``?run=ID``), decisions are written to
it on every change, and the session only keeps what it read so that a widget change never
re-checks anything. A change the store cannot take now (away, locked, full) goes to the desk's
outbox (core.store.outbox), and is shown as made until it is saved. This module refuses to check
briefs or draw anything beyond messages.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import streamlit as st

from core.errors import DecisionError, StoreError, StoreUnreachable, VerbatimError
from core.fetch import checked_under, parse_allowlist
from core.models import CheckPolicy, Decision, Report
from core.report import ReportFormatError, cached_report
from core.settings import Settings
from core.store import DecisionSave, outbox, shown
from core.store.events import moment
from ui import auth, draw

_STORE = "vb_store"
_SETTINGS = "vb_settings"
_REPORT = "vb_report"
_DECISIONS = "vb_decisions"
_CONFLICTS = "vb_conflicts"
_MINE = "vb_outbox_mine"  # ids of the waiting changes this tab made
_BORN = "vb_born"  # when this tab's session began: a reload adopts the conflicts of changes made before it
#: Claims whose widgets show the decision again on their next draw (a waiting change was saved or refused).
RESHOW = "vb_reshow"


def settings() -> Settings:
    """Return the session's base settings (from the environment), made once per session."""
    if _SETTINGS not in st.session_state:
        st.session_state[_SETTINGS] = Settings.from_env()
    return st.session_state[_SETTINGS]


#: The Check page's address options: the one place every fetch takes its policy from, whatever starts it.
OPTIONS = ("opt_private", "opt_domains")


def keep_options() -> None:
    """Keep the Check page's options on other pages (Streamlit drops the value of a widget not drawn)."""
    for key in OPTIONS:
        if key in st.session_state:
            st.session_state[key] = st.session_state[key]


def fetch_settings() -> Settings:
    """Return the settings with the address and OCR options in force now, as the Check page shows them."""
    ss = st.session_state
    return settings().with_(
        allowed_domains=parse_allowlist(ss.get("opt_domains", "")),
        allow_private=bool(ss.get("opt_private")),
        ocr=bool(ss.get("opt_ocr")),
    )


def fetch_policy() -> CheckPolicy:
    """Return the address policy in force now (the Check page's options)."""
    return checked_under(fetch_settings())


def _desk_settings() -> Settings:
    """Return the settings the desk's own store calls take: a short wait, so that a click never freezes the page."""
    return settings().with_(store_busy_timeout=settings().desk_store_timeout)


def store() -> Any:
    """Return the session's Store, opened once per session on Settings.db_path."""
    if _STORE not in st.session_state:
        from core.store import open_store

        desk = _desk_settings()  # read here: the courier's thread has no session to read settings from
        opened = open_store(desk)
        st.session_state[_STORE] = opened
        if not opened.in_memory:  # the outbox's courier opens this store itself to save what waits for it
            the_outbox().serve(opened.label, lambda: open_store(desk))
    return st.session_state[_STORE]


def the_outbox() -> outbox.Outbox:
    """Return the desk's outbox (one per process): changes the store could not take, until it takes them."""
    return outbox.shared(settings().outbox_dir, retry_every=settings().outbox_retry_every)


def outbox_key(run_id: str) -> tuple[str, str, str]:
    """Return whose waiting changes this tab shows: (store label, run id, editor); the store need not answer."""
    if _STORE in st.session_state:
        label = st.session_state[_STORE].label
    else:
        target = settings().db_path
        label = shown(target if isinstance(target, str) else target.expanduser())
    return (label, run_id, auth.editor().name)


#: The run this tab could not read because the store did not answer (it is tried again while changes wait).
UNREAD = "vb_unread"


def born() -> str:
    """Return when this tab's session began (a reload begins a new one)."""
    return st.session_state.setdefault(_BORN, moment())


def mine(change_id: str) -> bool:
    """Return whether this tab made a waiting change, or began after it was made (a reload of the tab that did)."""
    return change_id in st.session_state.setdefault(_MINE, set())


def current_report() -> Report | None:
    """Return the run open in this session, or None."""
    return st.session_state.get(_REPORT)


def current_run_id() -> str:
    """Return the id of the open run, or "" when none is open."""
    report = current_report()
    return report.run_id if report else ""


def set_report(report: Report) -> None:
    """Make a report the open run: keep it, its decisions, and its id in the page URL."""
    st.session_state[_REPORT] = report
    decisions = {d.claim_id: d for d in report.decisions}
    if report.run_id:
        try:
            decisions.update({d.claim_id: d for d in store().decisions(report.run_id)})
        except VerbatimError as exc:  # the review stays usable; the editor is told decisions did not load
            st.error(draw.md(f"Could not read the saved decisions of run {report.run_id}: {exc}"))
        st.query_params["run"] = report.run_id
        # Changes still waiting for the store are shown as the editor made them (a reload must not undo them).
        for change in the_outbox().waiting(outbox_key(report.run_id)):
            base = decisions.get(change.claim_id) or Decision(claim_id=change.claim_id)
            decisions[change.claim_id] = base.changed(**{change.field: change.value})
    st.session_state[_DECISIONS] = decisions


def decisions() -> dict[str, Decision]:
    """Return the editor's decisions of the open run, claim id -> Decision."""
    return st.session_state.setdefault(_DECISIONS, {})


#: The one message that says a change was kept by the store.
SAVED = "Saved."
#: How every message about a change kept for a store that could not take it begins.
NOT_YET = "Not saved yet:"


def _cannot(exc: StoreError | outbox.Late) -> str:
    """Return why the store did not take a change, as the end of a sentence naming it ("is not answering")."""
    if isinstance(exc, StoreUnreachable | outbox.Late):
        return "is not answering"
    why = exc.why.lower()
    if "locked" in why or "busy" in why:
        return "is locked by another program"
    if "full" in why:
        return f"cannot be written: {exc.why}"
    return f"cannot be written now: {exc.why}"


def waiting_words(named: str, cannot: str, kept: outbox.Kept) -> str:
    """Return the message for a change kept for a store that did not take it: what is kept, where, and what next."""
    where = (
        "Your change is kept by the desk (a reload or another browser finds it)"
        if kept is outbox.Kept.DISK
        else "Your change is kept by the desk until it restarts (the desk's own disk refused to keep a copy)"
    )
    return f"{NOT_YET} {named} {cannot}. {where} and will be saved as soon as the store takes it."


@dataclass(frozen=True)
class Conflict:
    """A change the store refused: the field, the value this editor tried ("mine"), and the newer record it met.

    ``waiting`` is the id of the outbox's change it was (one kept while the store was away), or "".
    """

    field: str
    mine: Any
    refused: DecisionSave
    waiting: str = ""


def hold_conflict(claim_id: str, found: Conflict) -> None:
    """Show a refused change of a waiting one for the editor to settle (unless one is shown already)."""
    st.session_state.setdefault(_CONFLICTS, {}).setdefault(claim_id, found)


def conflict(claim_id: str) -> Conflict | None:
    """Return the change of this claim's decision the store refused and the editor has not settled, or None."""
    return st.session_state.setdefault(_CONFLICTS, {}).get(claim_id)


def keep_theirs(claim_id: str) -> None:
    """Settle a refused change by keeping the newer record (already shown): the editor's value is dropped."""
    settled = st.session_state.setdefault(_CONFLICTS, {}).pop(claim_id, None)
    if settled is not None and settled.waiting:
        the_outbox().settle(settled.waiting)


def save_mine(claim_id: str) -> tuple[Decision, str]:
    """Settle a refused change by saving the editor's value on the version just read; a newer change is caught again."""
    refused = st.session_state.setdefault(_CONFLICTS, {}).pop(claim_id, None)
    if refused is None:
        return decisions().get(claim_id) or Decision(claim_id=claim_id), "Nothing to save: the change was settled."
    if refused.waiting:
        the_outbox().settle(refused.waiting)
    return save_change(claim_id, refused.field, refused.mine)


def save_change(claim_id: str, field: str, value: Any) -> tuple[Decision, str]:
    """Save one field of a claim's decision on the version this tab last saw; return the decision now and a message.

    The message is "Saved." only when the store kept the change; otherwise it says why not: another
    editor or tab saved first (the decision returned is the newer one, to be shown instead, and the
    refused change is kept for the editor to settle: ``conflict``), the user may only read (signed
    in but not an editor), the store could not take it now (it is kept in the outbox and saved when
    the store answers: "Not saved yet: ..."), or the store file was deleted under the desk.
    """
    seen = decisions().get(claim_id) or Decision(claim_id=claim_id)
    if not auth.editor().may_decide:  # never trust a disabled widget: a reader's change is refused here
        return seen, f"Not saved: {auth.refusal_now()}"
    run_id = current_run_id()
    if not run_id:
        decisions()[claim_id] = seen.changed(**{field: value})
        return decisions()[claim_id], "This run has no id in the store: the decision is kept only until the tab closes."
    box, key = the_outbox(), outbox_key(run_id)
    queue = box.waiting(key, held=False)
    # Made on top of this tab's own waiting change (or one a reload found), never another live tab's: no merge.
    ahead = [c for c in box.waiting(key) if c.claim_id == claim_id and (mine(c.id) or c.at < born())]
    change = outbox.Waiting(
        id=outbox.new_id(), store=key[0], run_id=run_id, claim_id=claim_id, editor=key[2], field=field,
        value=value, seen=seen.version, at=moment(), after=ahead[-1].id if ahead else "",
    )  # fmt: skip
    try:
        if queue:  # changes wait for this store already: this one goes behind them, and the page waits for nothing
            raise _Behind()
        # Bounded: a store that accepts and never answers (a hung server, a cut network) holds a thread, not the page.
        outcome = outbox.within(
            settings().desk_store_timeout + 1,
            store().save_decision_change,
            run_id, claim_id, field, value, seen.version, author=key[2], at=change.at,
        )  # fmt: skip
    except (_Behind, outbox.Late, StoreError) as exc:
        if isinstance(exc, StoreError) and store().problem():  # a store file deleted: saving later would lose it too
            decisions()[claim_id] = seen.changed(**{field: value})
            return decisions()[claim_id], f"Not saved: {exc} The change is kept in this tab only."
        kept = box.keep(change)
        st.session_state.setdefault(_MINE, set()).add(change.id)
        decisions()[claim_id] = seen.changed(**{field: value})
        cannot = _behind_words(queue) if isinstance(exc, _Behind) else _cannot(exc)
        return decisions()[claim_id], waiting_words(store().named, cannot, kept)
    except DecisionError as exc:
        decisions()[claim_id] = seen.changed(**{field: value})
        return decisions()[claim_id], f"Not saved: {exc} The change is kept in this tab only."
    decisions()[claim_id] = outcome.decision
    conflicts = st.session_state.setdefault(_CONFLICTS, {})
    if not outcome.saved:
        conflicts[claim_id] = Conflict(field=field, mine=value, refused=outcome)
        return outcome.decision, "Not saved: this decision was changed while you were reading."
    conflicts.pop(claim_id, None)
    return outcome.decision, SAVED


class _Behind(Exception):
    """This change waits behind others for the same store (never leaves save_change)."""


def _behind_words(queue: list[outbox.Waiting]) -> str:
    return f"has not taken {'the change' if len(queue) == 1 else f'the {len(queue)} changes'} you made before it yet"


def store_problem() -> str:
    """Return why the session's store would not keep what is saved (deleted, replaced, read-only), or ""."""
    if _STORE not in st.session_state:
        return ""
    return st.session_state[_STORE].problem()


def report_with_decisions() -> Report | None:
    """Return the open run with the editor's current decisions attached (for the exports)."""
    report = current_report()
    if report is None:
        return None
    return replace(report, decisions=tuple(decisions().values()))


def load_run(run_id: str) -> str:
    """Open a stored run by id; return "" on success or a message saying why it could not be opened."""
    try:
        text = store().load_run_text(run_id)
    except VerbatimError as exc:
        st.session_state[UNREAD] = run_id
        return f"Could not read run {run_id} from the store: {exc}"
    st.session_state.pop(UNREAD, None)
    if text is None:
        where = shown(settings().db_path)
        return f"There is no run {run_id} in the store at {where}. Open one from History or check a brief."
    try:  # read once per desk while its stored text is the same, whichever tab opens it
        report = cached_report(text, settings().report_cache_runs)
    except ReportFormatError as exc:
        return f"Run {run_id} is stored but could not be read back ({exc}). Check the brief again."
    set_report(replace(report, run_id=run_id))
    return ""


def sync_run_from_url() -> str:
    """Open the run named by ``?run=`` when it is not the open one; return an error message or ""."""
    wanted = st.query_params.get("run", "")
    if wanted and wanted != current_run_id():
        return load_run(wanted)
    if not wanted and current_run_id():
        # Page switches drop query parameters; put the open run back so the URL reopens it.
        st.query_params["run"] = current_run_id()
    return ""
