"""One claim opened beside its source: evidence, diagnosis, the editor's decision, ways out.

Drawing only: the markup comes from ui.draw (escaped), the actions call ui.services, and
every decision is written to the store the moment a widget changes. It refuses to decide a
verdict or to show a source page live: only the page text that core returned is shown.
"""

from __future__ import annotations

import streamlit as st

from core.errors import VerbatimError
from core.extract import SOURCE_EXTENSIONS
from core.models import Choice, ClaimResult, Decision, FlagKind, Report, Verdict
from core.report.marks import quote_marks
from core.report.offered import unquoted
from core.report.wording import DECISION_CHOICES, QUESTIONS, adopted_words, decision_words, policy_words
from ui import auth, brief_links, decision_log, draw, guard, offer_view, pending, run_options, services, state
from ui.places import place_stepper

CHOICES = list(DECISION_CHOICES)
ANSWERS = ["", "yes", "no"]
ANSWER_WORDS = decision_log.ANSWER_WORDS
_TO_ANSWER = {None: "", True: "yes", False: "no"}
_FROM_ANSWER = {"": None, "yes": True, "no": False}


def _key(claim_id: str, part: str) -> str:
    return f"dec|{state.current_run_id()}|{claim_id}|{part}"


def card_words(decision: Decision | None) -> str:
    """Return the decision as a short line for a card, in the report's words, or "" when there is none."""
    if decision is None or not (decision.decision or decision.note):
        return ""
    note = f" — {decision.note}" if decision.note else ""
    return f"Editor: {decision_words(decision.decision)}{note}"


def _answers(claim_id: str) -> dict[str, bool | None]:
    """Return the answers the claim's widgets show, question -> True, False or None (not answered)."""
    return {name: _FROM_ANSWER[st.session_state.get(_key(claim_id, name), "")] for name in QUESTIONS}


def _show(claim_id: str, decision: Decision) -> None:
    """Put a decision into the claim's widgets (from a callback, before they are drawn again)."""
    ss = st.session_state
    # A plain string: the radio's options are strings, and Streamlit refuses an enum member among them.
    ss[_key(claim_id, "choice")] = str(decision.decision) if decision.decision in CHOICES else ""
    ss[_key(claim_id, "note")] = decision.note
    for name in QUESTIONS:
        ss[_key(claim_id, name)] = _TO_ANSWER[getattr(decision, name)]


def _shown_after_save(claim_id: str, wanted: str, decision: Decision, message: str) -> None:
    """Show what the store holds after a save, and why an accept asked for is not there."""
    ss = st.session_state
    if message == state.SAVED and wanted == Choice.ACCEPT and decision.decision != Choice.ACCEPT:
        ss[_key(claim_id, "blocked_msg")] = True  # core's rule withdrew the accept: the editor is told why
    _show(claim_id, decision)
    ss[_key(claim_id, "save_msg")] = message


def _on_change(claim_id: str, field: str) -> None:
    """Save the one field the editor changed, on the version this tab saw; show what the store holds now."""
    ss = st.session_state
    raw = ss.get(_key(claim_id, "choice" if field == "decision" else field), "")
    value = _FROM_ANSWER[raw] if field in QUESTIONS else raw
    wanted = ss.get(_key(claim_id, "choice"), "")
    _shown_after_save(claim_id, wanted, *state.save_change(claim_id, field, value))


def _keep_theirs(claim_id: str) -> None:
    state.keep_theirs(claim_id)
    st.session_state[_key(claim_id, "save_msg")] = "Kept their change; yours was not saved."


def _save_mine(claim_id: str) -> None:
    conflict = state.conflict(claim_id)
    wanted = str(conflict.mine) if conflict is not None and conflict.field == "decision" else ""
    _shown_after_save(claim_id, wanted, *state.save_mine(claim_id))


def decision_form(result: ClaimResult) -> None:
    """Draw the editor's decision on one claim; every change is saved to the store at once."""
    cid = result.claim.id
    saved = state.decisions().get(cid) or Decision(claim_id=cid)
    ss = st.session_state
    told = pending.news(cid)  # a change kept while the store was away: saved, refused, or still waiting
    if told is not None:
        _show(cid, saved)
        ss[_key(cid, "save_msg")] = told
    # A plain string: the radio's options are strings, and Streamlit refuses an enum member among them.
    ss.setdefault(_key(cid, "choice"), str(saved.decision) if saved.decision in CHOICES else "")
    ss.setdefault(_key(cid, "note"), saved.note)
    for name in QUESTIONS:
        ss.setdefault(_key(cid, name), _TO_ANSWER[getattr(saved, name)])

    st.markdown("**Your decision**")
    reader = not auth.editor().may_decide  # a reader sees the decision and cannot change it (state refuses too)
    if reader:
        st.info(draw.md(auth.refusal_now()))
    cols = st.columns(3)
    for col, (name, label) in zip(cols, QUESTIONS.items(), strict=True):
        col.radio(
            f"{label}?",
            ANSWERS,
            format_func=ANSWER_WORDS.__getitem__,
            key=_key(cid, name),
            on_change=_on_change,
            args=(cid, name),
            disabled=reader,
        )
    nos = Decision(claim_id=cid, **_answers(cid)).answered_no
    st.radio(
        "Decision",
        CHOICES,
        format_func=DECISION_CHOICES.__getitem__,
        key=_key(cid, "choice"),
        horizontal=True,
        on_change=_on_change,
        args=(cid, "decision"),
        disabled=reader,
    )
    if nos:
        said = ", ".join(f"{QUESTIONS[name].lower()}?" for name in nos)
        st.warning(f"Accept is blocked: you answered no to {draw.md(said)}")
    if ss.pop(_key(cid, "blocked_msg"), False):
        st.error("Accept was withdrawn: a claim cannot be accepted while any question is answered no.")
    st.text_area("Note", key=_key(cid, "note"), on_change=_on_change, args=(cid, "note"), height=80, disabled=reader)
    guard.uncommitted_notes()
    conflict = state.conflict(cid)
    msg = ss.get(_key(cid, "save_msg"))
    if conflict is not None:
        decision_log.conflict_panel(cid, conflict, keep=_keep_theirs, mine=_save_mine)
    elif msg:
        st.caption(draw.md(msg))
    decision_log.history(cid, state.decisions().get(cid))


def _apply(new: Report, done: str) -> None:
    try:
        services.update_run(state.store(), new)
    except VerbatimError as exc:
        st.session_state["vb_flash"] = f"{done}, but the run could not be saved to the store: {exc}"
    else:
        st.session_state["vb_flash"] = done
    state.set_report(new)
    st.rerun()


def ways_out(result: ClaimResult, report: Report) -> None:
    """Draw the actions that get a claim out of a dead end: supply the source, adopt a passage, re-fetch."""
    cid, url = result.claim.id, result.claim.url
    if not auth.editor().may_decide:  # each way out re-checks the run: a reader only reads (the refusal is shown above)
        return
    # The options in force now, as the Check page shows them: never those of an earlier check in this tab.
    settings = state.fetch_settings()
    if result.verdict in (Verdict.NOT_CHECKED, Verdict.DEAD_LINK):
        with st.expander("Supply the source yourself", expanded=True):
            st.caption(
                "Upload the source file or paste its text; the claim is re-checked against it "
                "and the report says the evidence came from you."
            )
            up = st.file_uploader("Source file", type=list(SOURCE_EXTENSIONS), key=f"src_up|{cid}")
            pasted = st.text_area("…or paste the page text", key=f"src_paste|{cid}", height=120)
            if st.button("Re-check against this source", key=f"src_go|{cid}"):
                if up is not None:
                    body, ctype, fname = up.getvalue(), up.type or "", up.name
                elif pasted.strip():
                    body, ctype, fname = pasted.encode("utf-8"), "text/plain; charset=utf-8", "pasted text"
                else:
                    st.error("Nothing supplied: upload the source file or paste its text first.")
                    return
                try:
                    new = services.recheck_with_supplied(report, cid, url, body, ctype, fname, settings, state.store())
                except VerbatimError as exc:
                    st.error(draw.md(f"The supplied source could not be used for claim {cid}: {exc}"))
                else:
                    _apply(new, f"Claim {cid} re-checked against the source you supplied")
    st.caption(
        draw.md(
            f"Re-fetching takes the options in force now (Check page, Options): {policy_words(state.fetch_policy())}."
        )
    )
    if st.button(
        "Re-fetch this source",
        key=f"refetch|{cid}",
        help="Fetch a fresh copy of the cited URL and re-check every claim citing it",
    ):
        refused = run_options.refusal(report, url, fetch=True)
        if refused:  # said before any request, with the run's options one click away
            st.error(draw.md(f"Not re-fetched: {refused}"))
            run_options.offer(report, f"refetch|{cid}")
            return
        with st.spinner(draw.md(f"Fetching a fresh copy of {url}…")):
            try:
                new = services.refetch(report, url, settings, state.store())
            except VerbatimError as exc:
                st.error(draw.md(f"Re-fetching {url} failed: {exc}"))
                return
        _apply(new, f"Re-fetched {url} and re-checked the claims citing it")


def ocr_page_image(result: ClaimResult) -> None:
    """Draw the scanned page a quote was read from by OCR: the image, not the OCR text, is the evidence."""
    ctx = result.context
    if result.match is None or ctx is None or ctx.page is None:
        return
    if not any(f.kind is FlagKind.OCR for f in result.match.flags):
        return
    png = services.page_image(result.source, ctx.page, state.store())
    if png is None:
        st.caption(f"The image of PDF page {ctx.page} could not be drawn: open the PDF to check the OCR text.")
        return
    st.image(png, caption=f"PDF page {ctx.page} as scanned: the text above was read from it by OCR; check the quote")


def claim_detail(result: ClaimResult, report: Report) -> None:
    """Draw one claim beside its source: evidence on the right, decision and figures on the left."""
    left, right = st.columns(2, gap="medium")
    with left:
        st.markdown("**Claim**")
        marked = draw.marked(result.claim.text, draw.claim_spans(result))
        marked = f'<span class="unquoted">{marked}</span>' if unquoted(result) else marked
        st.html(f'<p class="claim">{marked}</p>')
        brief_links.citation_caption(result)
        quote = result.claim.quote
        if quote:
            st.markdown("**Quote offered**")
            st.html(f'<blockquote class="q">{draw.marked(quote, quote_marks(result))}</blockquote>')
            if adopted := adopted_words(result.claim.adopted_by):
                st.caption(draw.md(adopted[0].upper() + adopted[1:] + "."))
        st.markdown("**Figures**")
        st.html(draw.figures_table_html(result))
        flags = result.match.flags if result.match else ()
        if flags:
            st.markdown("**Context flags**")
            st.html(
                "<ul>"
                + "".join(
                    f"<li>{'blocks verified' if f.blocking else 'information'}: {draw.esc(f.message)}"
                    + (f" — page says: <q>{draw.esc(f.page_words)}</q>" if f.page_words else "")
                    + (f" — claim says: <q>{draw.esc(f.claim_words)}</q>" if f.claim_words else "")
                    + "</li>"
                    for f in flags
                )
                + "</ul>"
            )
        decision_form(result)
    with right:
        if unquoted(result):  # no quote: the page's closest passage stands beside the claim, to read and adopt
            offer_view.offered_panel(result, report, _apply)
        else:
            st.markdown("**Source text around the match**")
            st.html(draw.context_html(result, state.settings().report_context_max_chars))
        place_stepper(result, state.settings().report_context_max_chars)
        ocr_page_image(result)
        if result.near_miss is not None:
            st.html(draw.near_miss_html(result.near_miss))
        st.markdown("**Evidence**")
        st.html(draw.source_meta_html(result.source, result.claim.quote))
        ways_out(result, report)
