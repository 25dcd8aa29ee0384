"""History page: the runs kept in the store, newest first, each reopenable in the review; who is working on what.

It lists what Store.list_runs returns for the filter chosen (all, mine, unassigned, undecided,
done), with each run's assignment and how far its decisions are, and opens a run by id; it
refuses to delete anything.
"""

from __future__ import annotations

import streamlit as st

from core.errors import VerbatimError
from core.store import Work, shown
from ui import assignment, auth, draw, state

st.title("History")
editor = auth.editor()
me = editor.name
show = st.segmented_control(
    "Show", list(Work), format_func=assignment.WORK_WORDS.__getitem__, default=Work.ALL, key="hist_show"
)
show = Work(show or Work.ALL)  # a second click on the chosen filter unselects it: all again
try:
    runs = state.store().list_runs(limit=200, show=show, editor=me, email=editor.email)
except VerbatimError as exc:
    st.error(draw.md(f"The past runs could not be read from the store ({exc})."))
    st.stop()

if not runs and show is Work.ALL:
    st.info("No runs yet. Check a brief and it will be listed here.")
    st.page_link("views/check.py", label="Check a brief", icon=":material/fact_check:")
    st.stop()
if not runs:
    st.info(f"No runs to show under {assignment.WORK_WORDS[show]}.")
    st.stop()

st.caption(draw.md(f"{draw.count(len(runs), 'run', 'runs')} in {shown(state.settings().db_path)}"))
for info in runs:
    with st.container(border=True):
        left, right = st.columns([4, 1])
        left.html(
            f"<b>{draw.esc(info.brief_name or 'unnamed brief')}</b> "
            f'<span class="muted">{draw.esc(info.created_at)} · run {draw.esc(info.run_id)}'
            + (f" · asked by agent {draw.esc(info.client)}" if info.client else "")
            + "</span>"
            + f'<div class="work">{draw.esc(assignment.work_words(info, me, editor.email))}</div>'
            + draw.summary_bar_html(dict(info.summary))
        )
        if right.button("Open", key=f"hist|{info.run_id}"):
            problem = state.load_run(info.run_id)
            if problem:
                st.error(draw.md(problem))
            else:
                st.switch_page("views/review.py")
