"""Who is working on what: a run's assignment on the Review page, and the words the History page lists runs with.

An assignment is an event in the store (who assigned whom, and when); the latest one stands.
The names offered are whoever is at the desk, the editors who have decided, assigned or been
assigned in this store, and every address of the desk's editor list, signed in yet or not
(core.store.offered). Someone who may not decide sees the assignment and cannot change it.
Every name is escaped (names come from the identity provider). It refuses to assign a run
that is not stored.
"""

from __future__ import annotations

import streamlit as st

from core.errors import VerbatimError
from core.models import Assignment
from core.store import RunInfo, Work, offered
from ui import auth, decision_log, draw, state

#: The History page's filters, in the words the page shows.
WORK_WORDS = {
    Work.ALL: "All",
    Work.MINE: "Mine",
    Work.UNASSIGNED: "Unassigned",
    Work.UNDECIDED: "Undecided",
    Work.DONE: "Done",
}


def _person(name: str, me: str, email: str = "") -> str:
    """Return "you" for the editor at the desk (by name, or by the address an assignment was made to)."""
    return "you" if name == me or (email and name.strip().lower() == email.strip().lower()) else name


def assigned_words(latest: Assignment | None, me: str, email: str = "") -> str:
    """Return who a run is assigned to, by whom and when ("Assigned to Ada by Bo at 10:42 UTC."), or that nobody is."""
    if latest is None or not latest.assigned_to:
        return "Not assigned to anyone."
    by = f" by {_person(latest.assigned_by, me)}" if latest.assigned_by else ""
    return f"Assigned to {_person(latest.assigned_to, me, email)}{by} at {decision_log.clock(latest.at)}."


def work_words(info: RunInfo, me: str, email: str = "") -> str:
    """Return who is working on a run, for the History page: assigned to, decided n of m, who decided last and when."""
    who = f"assigned to {_person(info.assigned_to, me, email)}" if info.assigned_to else "not assigned"
    done = f"decided {info.decided} of {draw.count(info.claims, 'claim', 'claims')}"
    last = ""
    if info.last_decided_at:
        by = f" by {_person(info.last_decided_by, me)}" if info.last_decided_by else ""
        last = f" · last change{by} at {decision_log.clock(info.last_decided_at)}"
    return f"{who} · {done}{last}"


#: The names the store knows, read once per session (the Review page is drawn on every click).
_EDITORS = "vb_editors"


def _editors() -> list[str]:
    if _EDITORS not in st.session_state:
        st.session_state[_EDITORS] = state.store().editors()
    names: list[str] = st.session_state[_EDITORS]
    return names


def _assign(run_id: str, name: str) -> None:
    try:
        state.store().assign_run(run_id, name, by=auth.editor().name)
    except VerbatimError as exc:  # a run the store holds is always there: KeyError would be a bug
        st.session_state["vb_flash_error"] = f"The run could not be assigned: {exc}"
        return
    me = auth.editor().name
    st.session_state["vb_flash"] = f"Assigned to {_person(name, me)}." if name else "The run is assigned to nobody now."
    st.session_state.pop(_EDITORS, None)  # read again: the names may have grown


def _picked(run_id: str, key: str) -> None:
    _assign(run_id, st.session_state.get(key) or "")


def assignment_bar(run_id: str) -> None:
    """Draw who the run is assigned to and, for someone who may decide, "Assign to me" and a choice of editors."""
    me = auth.editor()
    try:
        made = state.store().assignments(run_id)
        names = _editors()
    except VerbatimError as exc:
        st.caption(draw.md(f"Who this run is assigned to could not be read: {exc}"))
        return
    latest = made[0] if made else None
    current = latest.assigned_to if latest else ""
    words, pick, take = st.columns([3, 2, 1], vertical_alignment="bottom")
    words.caption(draw.md(assigned_words(latest, me.name, me.email)))
    if not me.may_decide:
        return
    options = ["", *offered(names, auth.configured_editors(), me.name, me.email, current)]
    key = f"assign|{run_id}|{len(made)}"  # a new key once the assignment changed: the box shows the new one
    pick.selectbox(
        "Assign to",
        options,
        index=options.index(current),
        format_func=lambda n: n or "nobody",
        key=key,
        on_change=_picked,
        args=(run_id, key),
    )
    if current != me.name:
        take.button("Assign to me", key=f"assign_me|{run_id}", on_click=_assign, args=(run_id, me.name))
