"""Stepping through every place a repeated quote stands on its page, the flagged place first.

Drawing only: the places, their order, their flags and their page text come from core
(``core.report.marks.at_place``, ``core.report.wording``), drawn as the first place is drawn.
"""

from __future__ import annotations

import streamlit as st

from core.models import ClaimResult
from core.report.marks import at_place
from core.report.wording import place_words, places_words
from ui import draw


def place_stepper(result: ClaimResult, max_chars: int) -> None:
    """Draw how many places the quote stands in, and let the editor step through those with page text."""
    match = result.match
    if match is None or match.occurrence_count < 2:
        return
    st.caption(places_words(match))
    steps = [i for i in range(len(match.occurrences)) if at_place(result, i) is not None]
    if len(steps) < 2:
        return
    index = st.select_slider(
        "Step through the places",
        options=steps,
        format_func=lambda i: place_words(match, i),
        key=f"places-{result.claim.id}",
    )
    seen = at_place(result, index)
    if seen is not None and index:
        st.html(draw.context_html(seen, max_chars))
