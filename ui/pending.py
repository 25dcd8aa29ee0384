"""The changes waiting for the store, on every page: what is kept, then when each was saved or met a newer one.

The desk's outbox (core.store.outbox) saves waiting changes by itself, in a thread of its own;
this module only looks at it, never at the store, so a store that is away costs a page nothing.
While this tab's editor has changes waiting on the open run (or the run in the URL could not be
opened), a fragment in the sidebar looks again every ``desk_watch_every`` seconds and draws the
page again when one was saved or refused, or the run can be opened. A saved change is said on its
claim ("Saved at 10:42 UTC ..."); one that met a newer version is handed to the same choice as any
refused change (ui.decision_log). A tab learns only of changes it made, or that were made before it
began (a reload): two live tabs never settle each other's. It refuses to save or merge anything.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from core.settings import Settings
from core.store.outbox import Fate, Kept, Outcome, Waiting
from ui import decision_log, draw, state

_SEEN = "vb_outbox_seen"  # outcomes this tab has applied
_TOLD = "vb_outbox_told"  # waiting changes this tab has said on their claim
_NEWS = "vb_outbox_news"  # claim id -> the message its decision form shows next
_TICKS = "vb_outbox_ticks"  # the watcher's runs since the page was last drawn whole


def _adoptable(change: Waiting) -> bool:
    return state.mine(change.id) or change.at < state.born()


def saved_words(outcome: Outcome) -> str:
    """Return what the editor is told when a change kept while the store was away is saved."""
    c = outcome.change
    what = f"{decision_log.FIELD_WORDS.get(c.field, c.field)} {decision_log.value_words(c.field, _text(c))}"
    at = outcome.decision.decided_at
    when = f" at {decision_log.clock(at)}" if at else ""
    return f"Saved{when}: your change ({what}), kept while the store was away, is in the store now."


def _text(change: Waiting) -> str:
    from core.store.events import as_text

    return as_text(change.field, change.value)


def _unapplied(key: tuple[str, str, str]) -> list[Outcome]:
    """Return what became of this tab's changes (see _adoptable) that the tab has not applied yet, oldest first."""
    seen = st.session_state.setdefault(_SEEN, set())
    return [o for o in state.the_outbox().outcomes(key) if o.change.id not in seen and _adoptable(o.change)]


def news(claim_id: str) -> str | None:
    """Return (once) the message a claim's decision form shows about its waiting change, or None."""
    return st.session_state.setdefault(_NEWS, {}).pop(claim_id, None)


def _apply(key: tuple[str, str, str]) -> None:
    """Apply to this tab what became of its waiting changes on the open run, and say each on its claim."""
    box, seen, told = (
        state.the_outbox(),
        st.session_state.setdefault(_SEEN, set()),
        st.session_state.setdefault(_TOLD, set()),
    )
    said: dict[str, str] = st.session_state.setdefault(_NEWS, {})
    decisions = state.decisions()
    for outcome in _unapplied(key):
        change = outcome.change
        seen.add(change.id)
        cid = change.claim_id
        held = decisions.get(cid)
        if outcome.fate is Fate.SAVED:
            if held is None or outcome.decision.version >= held.version:
                decisions[cid] = outcome.decision
            said[cid] = saved_words(outcome)
        elif outcome.fate is Fate.CONFLICT and outcome.save is not None:
            decisions[cid] = outcome.decision
            state.hold_conflict(
                cid, state.Conflict(field=change.field, mine=change.value, refused=outcome.save, waiting=change.id)
            )
            said[cid] = "Not saved: this decision was changed while you were reading."
        else:
            said[cid] = f"Not saved: {outcome.why}"
    for change in box.waiting(key, held=False):
        if change.id in told or not _adoptable(change):
            continue
        told.add(change.id)
        if not state.mine(change.id):  # a reload: the tab that said it is gone
            said[change.claim_id] = state.waiting_words(
                state.store().named, "has not taken it yet", box.where(change.id) or Kept.MEMORY
            )


def _unsaid(key: tuple[str, str, str]) -> bool:
    """Return whether something became of a change of this tab that the tab has not applied yet."""
    return bool(_unapplied(key))


def watch() -> None:
    """Apply what became of this tab's waiting changes; while any wait, look again every few seconds."""
    state.born()  # on the session's first run: later changes of another live tab are never this one's
    wanted = st.query_params.get("run", "")
    open_run = state.current_run_id()
    run_id = open_run or wanted
    if not run_id:
        return
    key = state.outbox_key(run_id)
    if open_run:
        _apply(key)
    unread = bool(wanted) and wanted != open_run and st.session_state.get(state.UNREAD) == wanted
    # A change saved since _apply looked (the courier runs in its own thread) is still to be said:
    # the watcher draws the page again for it, so no moment between the two looks loses its news.
    if state.the_outbox().waiting(key) or unread or (open_run and _unsaid(key)):
        st.session_state[_TICKS] = 0  # the fragment's own runs count from here; this one is the page's
        with st.sidebar:
            _look(key, bool(open_run), unread)


def _look_body(key: tuple[str, str, str], opened: bool, unread: bool) -> Any:
    """Say what waits; draw the page again when something became of it, or the run in the URL may open now."""
    box = state.the_outbox()
    ticks = st.session_state[_TICKS] = st.session_state.get(_TICKS, 0) + 1
    if unread and ticks > 1:
        st.rerun(scope="app")  # the store did not answer: try the run again (a store known away refuses at once)
    if opened and _unsaid(key):
        st.rerun(scope="app")
    waiting = [c for c in box.waiting(key, held=False) if _adoptable(c)]
    if waiting:
        st.warning(
            draw.md(
                f"{state.NOT_YET} {draw.count(len(waiting), 'change', 'changes')} of yours to this run"
                " wait for the store. They are kept by the desk and saved as soon as it answers."
            )
        )


_look = st.fragment(run_every=Settings().desk_watch_every)(_look_body)
