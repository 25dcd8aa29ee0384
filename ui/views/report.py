"""Report page: download the open run as annotated HTML, JSON, CSV and (for DOCX briefs) DOCX with comments.

Each file is built by core.report.exports when its button is clicked (the command line's own
path), from the run with the editor's current decisions attached. It refuses to render any
report or source page here.
"""

from __future__ import annotations

import streamlit as st

from core.errors import VerbatimError
from core.models import BriefFormat, Verdict
from core.report import ExportKind, comments_on_brief
from ui import draw, services, state

_LABELS = {
    ExportKind.HTML: (
        "Annotated HTML report",
        "Every claim with its verdict, reasons, highlighted quote and your decision.",
    ),
    ExportKind.JSON: ("JSON report", "The machine-readable report (schema 1), decisions included."),
    ExportKind.CSV: ("CSV table", "One row per claim, for a spreadsheet."),
    ExportKind.DOCX: ("DOCX with comments", "Your brief with a comment on every claim that is not verified."),
}

st.title("Report")
report = state.report_with_decisions()
if report is None:
    st.info("No run is open. Check a brief, or open a past run from History.")
    st.page_link("views/check.py", label="Check a brief", icon=":material/fact_check:")
    st.stop()

st.subheader(draw.md(report.brief_name))
st.html(draw.summary_bar_html(report.summary))
decided = sum(1 for d in report.decisions if d.decision)
st.caption(
    draw.md(
        f"{draw.count(len(report.results), 'claim', 'claims')} · {decided} decided by you · "
        f"run {report.run_id or 'unsaved'}"
    )
)

unchecked = [r for r in report.results if r.verdict in (Verdict.NOT_CHECKED, Verdict.BLOCKED, Verdict.DEAD_LINK)]
if unchecked:
    st.warning(
        f"{draw.count(len(unchecked), 'claim was', 'claims were')} not checked by the machine "
        "(blocked, dead link or unreadable source); "
        "the report lists each with its reason."
    )

brief_raw = b""
if report.run_id and report.brief_format is BriefFormat.DOCX:
    try:
        brief_raw = state.store().brief_raw(report.run_id)
    except VerbatimError as exc:
        st.warning(draw.md(f"The original DOCX of this run could not be read from the store ({exc}); no DOCX export."))

files = services.exports(report, brief_raw)
for kind, (label, what) in _LABELS.items():
    build, name, mime = files[kind]
    if kind is ExportKind.DOCX and not comments_on_brief(report, brief_raw):
        label, what = "DOCX report", "A Word document of the report (comments go on the brief itself for DOCX briefs)."
    col1, col2 = st.columns([1, 2])
    col1.download_button(label, data=build, file_name=name, mime=mime, key=f"dl|{kind}", on_click="ignore")
    col2.caption(what)
