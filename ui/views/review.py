"""Review page: the open run's claims in brief order, filtered by verdict, one opened at a time.

The run comes from the session (or ``?run=ID``, loaded by app.py); a widget change only
filters or pages what is already in memory, it never re-checks. Cards are drawn a page at
a time so that a brief of a thousand claims stays quick, in a fragment: a filter, a page, an
opened claim or a decision reruns that list alone, not the whole desk; a click that changes
what the page around it says (the count of decided claims, a change waiting for the store, a
message, the options) or the run itself draws the page again whole. It refuses to re-judge anything.
"""

from __future__ import annotations

import math

import streamlit as st

from core.models import Verdict
from core.report.offered import has_finding
from core.report.wording import FINDING_WORDS, policy_words
from ui import assignment, brief_links, claim_view, draw, run_options, state

PAGE_SIZE = 20
_FINDINGS = "vb_findings"  # (the report they were read from, finding -> indexes of its claims)
_SAYS = "vb_page_says"  # what the page around the list said when it was last drawn whole (_page_says)

report = state.current_report()
if report is None:
    st.title("Review")
    st.info("No run is open. Check a brief, or open a past run from History.")
    st.page_link("views/check.py", label="Check a brief", icon=":material/fact_check:")
    st.page_link("views/history.py", label="Past runs", icon=":material/history:")
    st.stop()

run = report.run_id or "unsaved"
flash = st.session_state.pop("vb_flash", "")
if flash:
    st.success(draw.md(flash))
flash_error = st.session_state.pop("vb_flash_error", "")
if flash_error:
    st.error(draw.md(flash_error))

st.title(f"Review: {draw.md(report.brief_name)}")
n_decided = sum(1 for d in state.decisions().values() if d.decision)
checked_under = f" with {policy_words(report.policy)}" if report.policy is not None else ""
st.caption(
    f"{draw.count(len(report.results), 'claim', 'claims')} · {n_decided} decided · "
    f"checked {draw.md(report.checked_at)}{draw.md(checked_under)} · run {draw.md(run)}. "
    "A verified quote is on the page word for word; whether it supports the claim is your judgement."
)
run_options.note(report)  # a run opened by its link in a new tab: this tab's options may not be the run's
if report.run_id:
    assignment.assignment_bar(report.run_id)
for warning in report.warnings:
    st.warning(draw.md(warning))
if report.uncited:
    with st.expander(f"{draw.count(len(report.uncited), 'sentence cites', 'sentences cite')} no source (not checked)"):
        for sentence in report.uncited[:200]:
            st.text(sentence)
brief_links.unused_links(report)

summary = report.summary
st.html(draw.summary_bar_html(summary))
present = [v.value for v in Verdict if summary[v.value]]
# A long unquoted brief: go first to the figures that stand nowhere on their page and to the signs (core's findings).
# Read once per report (a change sets a new one), not on every click: 2,000 claims cost ~25 ms a rerun.
held = st.session_state.get(_FINDINGS)
if held is None or held[0] is not report:
    held = (report, {k: frozenset(i for i, r in enumerate(report.results) if has_finding(r, k)) for k in FINDING_WORDS})
    st.session_state[_FINDINGS] = held
having = held[1]


def _page_says() -> tuple[object, ...]:
    """Return what the page around the list says: decided count, changes waiting, messages (a lost store's), options."""
    ss = st.session_state
    waiting = bool(report.run_id) and bool(state.the_outbox().waiting(state.outbox_key(report.run_id)))
    decided_now = sum(1 for d in state.decisions().values() if d.decision)
    messages = (bool(ss.get("vb_flash")), bool(ss.get("vb_flash_error")), state.store_problem())
    return (decided_now, waiting, messages, state.fetch_policy())


st.session_state[_SAYS] = _page_says()


def _open(open_key: str, claim_id: str) -> None:
    """Open a claim beside its source ("" closes it): a callback, so the click's own rerun draws it, and no other."""
    st.session_state[open_key] = claim_id
    if claim_id:
        st.query_params["claim"] = claim_id
    else:
        st.query_params.pop("claim", None)


@st.fragment
def claims_list() -> None:
    """Draw the filters, the page of cards and the opened claim: a click here reruns only this part of the page."""
    if _page_says() != st.session_state.get(_SAYS):
        # A click here changed what the page around the list says (a decision counted, a change kept for a store
        # that is away and watched from the sidebar, a message, the options): the whole page is drawn again.
        st.rerun(scope="app")
    found = {k: len(having[k]) for k in FINDING_WORDS}
    chosen = st.pills(
        "Show only",
        present,
        selection_mode="multi",
        format_func=lambda v: f"{Verdict(v).label} ({summary[v]})",
        key=f"filter|{run}",
    )
    firsts = (
        st.pills(
            "Go first to",
            [k for k, n in found.items() if n],
            selection_mode="multi",
            format_func=lambda k: f"{FINDING_WORDS[k]} ({found[k]})",
            key=f"findings|{run}",
        )
        if any(found.values())
        else []
    )
    decided = state.decisions()

    numbered = [
        (i + 1, r)
        for i, r in enumerate(report.results)
        if (not chosen or r.verdict.value in chosen) and (not firsts or any(i in having[k] for k in firsts))
    ]
    if not numbered:
        st.info("No claims to show." if report.results else "This run has no claims.")
        return

    pages = math.ceil(len(numbered) / PAGE_SIZE)
    page_no = 1
    if pages > 1:
        page_no = int(
            st.number_input(
                f"Page (of {pages}, {PAGE_SIZE} claims each; {len(numbered)} claims shown)",
                min_value=1,
                max_value=pages,
                value=1,
                step=1,
                key=f"page|{run}|{','.join(chosen or [])}|{','.join(firsts or [])}",
            )
        )
    shown = numbered[(page_no - 1) * PAGE_SIZE : page_no * PAGE_SIZE]

    open_key = f"open|{run}"
    opened = st.session_state.get(open_key) or st.query_params.get("claim", "")

    for number, result in shown:
        cid = result.claim.id
        with st.container(border=True, key=f"card-{number}"):
            st.html(draw.card_html(result, number))
            words = claim_view.card_words(decided.get(cid))
            if words:
                st.caption(draw.md(words))
            if opened == cid:
                st.button("Close", key=f"close|{cid}", on_click=_open, args=(open_key, ""))
                claim_view.claim_detail(result, report)
            else:
                st.button("Open beside its source", key=f"openbtn|{cid}", on_click=_open, args=(open_key, cid))


claims_list()
