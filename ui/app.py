"""The review desk's one entry file (`make run`): navigation between Check, Review, Report, History.

It sets the page up, opens the run named by ``?run=ID`` so that a run's URL reopens it on
any page, and hands over to the chosen page. It refuses to check or draw claims itself.
"""

from __future__ import annotations

import sys
from pathlib import Path

# `streamlit run ui/app.py` puts ui/ on the path, not the project root that holds core/.
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

from ui import state  # noqa: E402

st.set_page_config(page_title="Verbatim review desk", page_icon=":material/fact_check:", layout="wide")
st.html(f"<style>{(ROOT / 'assets' / 'desk.css').read_text(encoding='utf-8')}</style>")

# A bare link with ?run=ID lands on the review of that run; otherwise the desk opens on Check.
opening_run = bool(st.query_params.get("run"))
pages = [
    st.Page("views/check.py", title="Check", icon=":material/fact_check:", url_path="check", default=not opening_run),
    st.Page("views/review.py", title="Review", icon=":material/rate_review:", url_path="review", default=opening_run),
    st.Page("views/report.py", title="Report", icon=":material/download:", url_path="report"),
    st.Page("views/history.py", title="History", icon=":material/history:", url_path="history"),
]
page = st.navigation(pages)

problem = ""
try:
    problem = state.sync_run_from_url()
except Exception as exc:  # a broken store must not take the whole desk down
    problem = f"The evidence store could not be opened ({exc}). Set VERBATIM_DB to a writable file."
if problem:
    st.error(problem)

page.run()
