"""The review desk's one entry file (`make run`): navigation between Check, Review, Report, History.

It sets the page up, opens the run named by ``?run=ID`` so that a run's URL reopens it on
any page, and hands over to the chosen page. It holds the desk's one handler for bugs: an
exception that is not a VerbatimError (which pages show where they happen) is logged with its
traceback and shown as a message, and the desk stays up. With sign-in configured it lets nobody
past the sign-in gate (ui/signin.py) who is not signed in. It refuses to check or draw claims itself.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

# `streamlit run ui/app.py` puts ui/ on the path, not the project root that holds core/.
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

from core.errors import StoreError  # noqa: E402
from ui import draw, pending, signin, state  # noqa: E402

# An emoji favicon, drawn locally: a Material one is fetched from a font CDN, and the desk talks to no one.
st.set_page_config(page_title="Verbatim review desk", page_icon="✔", layout="wide")
st.html(f"<style>{(ROOT / 'assets' / 'desk.css').read_text(encoding='utf-8')}</style>")
# With sign-in configured, nobody past this line is anything but signed in (ui/signin.py stops the run).
signin.gate()

check = st.Page("views/check.py", title="Check", icon=":material/fact_check:", default=True)
review = st.Page("views/review.py", title="Review", icon=":material/rate_review:", url_path="review")
pages = [
    check,
    review,
    st.Page("views/report.py", title="Report", icon=":material/download:", url_path="report"),
    st.Page("views/history.py", title="History", icon=":material/history:", url_path="history"),
]
page = st.navigation(pages)
signin.who_am_i()

# A bare link with ?run=ID (the desk's root; and where sign-in returns) lands on the review of that run
# (and its ?claim=, when given), once per session.
if page.url_path == check.url_path and st.query_params.get("run") and not st.session_state.get("vb_landed"):
    st.session_state["vb_landed"] = True
    st.switch_page(review, query_params={k: st.query_params[k] for k in ("run", "claim") if st.query_params.get(k)})
st.session_state["vb_landed"] = True


def _open_run() -> str:
    """Return what stops the run named in the URL from opening ("" when nothing does)."""
    try:
        return state.sync_run_from_url()
    except StoreError as exc:  # a broken store must not take the whole desk down; core words the message
        return str(exc)


state.keep_options()
try:
    problem = _open_run()
    if problem:
        st.error(draw.md(problem))
    lost = state.store_problem()
    if lost:  # on every page, until the desk is restarted: nothing saved now would be kept
        st.error(draw.md(f"Nothing is being saved. {lost}"))
    pending.watch()  # changes kept while the store was away: said, and looked at again until saved
    page.run()
except Exception as exc:  # the one handler for bugs: decisions are saved as they change, so nothing is lost
    logging.getLogger("verbatim.desk").exception("Bug in the desk on page %s", page.url_path or "check")
    why = str(exc).rstrip(".") or "no message"
    st.error(
        draw.md(
            f"Something went wrong in the desk: {type(exc).__name__}: {why}. "
            "The error has been logged; your decisions are saved."
        )
    )
