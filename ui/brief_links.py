"""Draw how the brief was read: a claim's citation reading, and the links of the brief no claim cites.

The words come from ``core.report.brief_links`` (the reports say the same); everything from the
brief is shown as text (``st.text``) or escaped (``draw.md``), never as Markdown or HTML.
"""

from __future__ import annotations

import streamlit as st

from core.models import ClaimResult, Report
from core.report.brief_links import citation_words, unused_lines
from ui import draw

#: Shown at most, so a 10,000-entry bibliography cannot flood the page.
_MOST = 300


def citation_caption(result: ClaimResult) -> None:
    """Draw how the claim's citation was read, when the reader said."""
    if words := citation_words(result.claim):
        st.caption(draw.md(words))


def unused_links(report: Report) -> None:
    """Draw the brief's links that no claim cites, with where and why, in a closed expander."""
    lines = unused_lines(report.unused_links)
    if not lines:
        return
    label = draw.count(len(lines), "link of the brief no claim cites", "links of the brief no claim cites")
    with st.expander(f"{label} (not checked)"):
        for line in lines[:_MOST]:
            st.text(line)
        if len(lines) > _MOST:
            st.caption(f"… and {len(lines) - _MOST} more; the JSON report lists them all.")
