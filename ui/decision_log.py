"""A decision's history and a refused save, drawn under the claim's decision: who changed what, and when.

The history is the store's events, newest first, a page at a time (a claim may have thousands).
A refused save shows who changed the decision while the editor was reading, both values (theirs
and the one tried) and the choice: keep theirs, or save mine on the version just read. Every
name, note and value is escaped: a note and a name from the identity provider are untrusted text.
It refuses to merge two editors' changes or to save anything without the editor's choice.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import streamlit as st

from core.errors import VerbatimError
from core.models import Decision, DecisionEvent
from core.report.wording import QUESTIONS, decision_words, when
from core.store.events import as_text
from ui import auth, draw, state

#: Changes shown at once; "Show older changes" adds as many again.
PAGE = 20
#: A note longer than this is cut in the history (the whole note is in the form above it).
NOTE_SHOWN = 160

FIELD_WORDS = {"decision": "Decision", "note": "Note", **{name: f"{label}?" for name, label in QUESTIONS.items()}}
#: An answer to a question as the form offers it and the history shows it.
ANSWER_WORDS = {"": "not answered", "yes": "yes", "no": "no"}


def value_words(field: str, text: str) -> str:
    """Return a field's value (as an event records it) in the desk's words: "Accepted", "no", “the note”."""
    if field == "decision":
        return decision_words(text)
    if field in QUESTIONS:
        return ANSWER_WORDS.get(text, text)
    if not text:
        return "no note"
    return f"“{text[:NOTE_SHOWN]}…”" if len(text) > NOTE_SHOWN else f"“{text}”"


def clock(iso: str) -> str:
    """Return a time as "10:42 UTC" when it is today, else as the reports write it ("2026-11-29 18:02 UTC")."""
    try:
        moment = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return when(iso)
    if moment.tzinfo is not None and moment.astimezone(UTC).date() == datetime.now(UTC).date():
        return moment.astimezone(UTC).strftime("%H:%M UTC")
    return when(iso)


def changed_words(conflict: state.Conflict, me: str) -> str:
    """Return who changed the decision while the editor was reading, and when ("Changed by Ada at 10:42 UTC ...")."""
    newer = conflict.refused.decision
    latest = conflict.refused.missed[-1] if conflict.refused.missed else None
    by, at = (latest.author, latest.at) if latest is not None else (newer.decided_by, newer.decided_at)
    who = "you, in another tab or window," if by and by == me else (by or "another editor")
    return f"Changed by {who}{f' at {clock(at)}' if at else ''} while you were reading."


def _event_html(e: DecisionEvent, with_claim: bool = False) -> str:
    claim = f"claim {draw.esc(e.claim_id)} · " if with_claim else ""
    return (
        f'<li><span class="muted">{draw.esc(clock(e.at))}</span> · {claim}<b>{draw.esc(e.author or "unnamed")}</b>'
        f" · {draw.esc(FIELD_WORDS.get(e.field, e.field))} {draw.esc(value_words(e.field, e.before))}"
        f" → {draw.esc(value_words(e.field, e.after))}</li>"
    )


def conflict_panel(claim_id: str, conflict: state.Conflict, keep: Callable[..., Any], mine: Callable[..., Any]) -> None:
    """Draw a refused save: who changed the decision, both values, what else changed, and the editor's two choices."""
    field = conflict.field
    theirs = as_text(field, getattr(conflict.refused.decision, field))
    tried = as_text(field, conflict.mine)
    st.warning(draw.md(changed_words(conflict, auth.editor().name) + " Nothing was overwritten: choose which stands."))
    missed = conflict.refused.missed
    st.html(
        '<div class="conflict"><ul>'
        f"<li>Theirs: {draw.esc(FIELD_WORDS[field])} {draw.esc(value_words(field, theirs))}</li>"
        f"<li>Yours: {draw.esc(FIELD_WORDS[field])} {draw.esc(value_words(field, tried))}</li></ul>"
        + (
            '<p class="muted">What changed while you were reading:</p><ul class="history">'
            + "".join(_event_html(e) for e in reversed(missed))
            + "</ul>"
            if missed
            else ""
        )
        + "</div>"
    )
    left, right = st.columns(2)
    left.button("Keep theirs", key=f"keep|{claim_id}", on_click=keep, args=(claim_id,))
    right.button(
        "Put theirs aside and save mine",
        key=f"mine|{claim_id}",
        on_click=mine,
        args=(claim_id,),
        help="Saves your value on the version you see now; theirs stays in the history",
    )


def history(claim_id: str, decision: Decision | None) -> None:
    """Draw the changes of a claim's decision, newest first, PAGE at a time (nothing when the run is not stored)."""
    run_id = state.current_run_id()
    if not run_id:
        return
    key = f"hist|{run_id}|{claim_id}"
    shown = int(st.session_state.get(key, PAGE))
    try:
        events = state.store().decision_history(run_id, claim_id, limit=shown + 1)
    except VerbatimError as exc:
        st.caption(draw.md(f"The history of this decision could not be read: {exc}"))
        return
    older = len(events) > shown
    events = events[:shown]
    with st.expander(
        f"History of this decision ({draw.count(len(events), 'change', 'changes')}{'+' if older else ''})"
    ):
        if not events and not (decision and decision.version):
            st.caption("No changes yet.")
        if events:
            st.html('<ul class="history">' + "".join(_event_html(e) for e in events) + "</ul>")
        if older:
            st.button(
                "Show older changes",
                key=f"older|{claim_id}",
                on_click=lambda: st.session_state.__setitem__(key, shown + PAGE),
            )
        else:
            earlier = events[-1].seq - 1 if events else (decision.version if decision else 0)
            if earlier > 0:
                st.caption(
                    draw.count(earlier, "earlier change was", "earlier changes were")
                    + " made before the history was kept."
                )
