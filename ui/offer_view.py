"""The passage offered for a claim without a quote, drawn beside the claim, with one click to adopt it.

Drawing only: the passages, their held words, what they lack and their signs come from core
(``core.report.offered``, ``core.report.wording``); adopting one calls ui.services, which puts it
through the exact matcher and the claim-vs-quote comparison like any quote (core.check.adopt_quote),
recorded as chosen by the editor at the desk.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from core.errors import VerbatimError
from core.models import ClaimResult, Report
from core.report.offered import Offer, offers
from core.report.wording import OFFERED_IS_NOT_CHECKED
from ui import auth, draw, run_options, services, state


def offer_html(offer: Offer) -> str:
    """Return one offered passage: its signs first, the passage with the claim's words it holds marked, holds, lacks."""
    label = "The passage offered first" if offer.index == 0 else f"Passage offered {offer.index + 1}"
    signs = (
        '<ul class="signs">' + "".join(f"<li>Sign: {draw.esc(s)}</li>" for s in offer.signs) + "</ul>"
        if offer.signs
        else ""
    )
    page = offer.candidate.page
    where = f' <span class="muted">(PDF page {int(page)})</span>' if page is not None else ""
    holds = f'<p class="muted holds">Holds the claim\u2019s: {draw.esc(offer.holds)}</p>' if offer.holds else ""
    lacks = f'<p class="muted lacks">Lacks the claim\u2019s: {draw.esc(offer.lacks)}</p>' if offer.lacks else ""
    return (
        f'<div class="offer" data-offer="{offer.index}"><div class="offer-label">{draw.esc(label)}{where}</div>'
        f'{signs}<blockquote class="q">{draw.segments_html(offer.segments)}</blockquote>{holds}{lacks}</div>'
    )


def _adopt(
    result: ClaimResult, report: Report, offer: Offer, apply: Callable[[Report, str], None], refused: str
) -> None:
    cid = result.claim.id
    if refused:  # this tab's options refuse the stored copy the passage would be checked against
        st.error(draw.md(f"Not adopted: {refused}"))
        return
    who = auth.editor()
    try:
        new = services.adopt(report, cid, offer.candidate.text, state.fetch_settings(), state.store(), by=who.name)
    except VerbatimError as exc:
        st.error(draw.md(f"The passage could not be adopted for claim {cid}: {exc}"))
    else:
        apply(new, f"Claim {cid} re-checked with the adopted passage as its quote")


def offered_panel(result: ClaimResult, report: Report, apply: Callable[[Report, str], None]) -> None:
    """Draw the passage offered first beside the claim (no click needed), the next ones folded, each adoptable."""
    found = offers(result)
    st.markdown("**The page's passage closest to the claim**")
    st.caption(OFFERED_IS_NOT_CHECKED)
    if not found:
        st.caption("The page offered no passage close to this claim.")
        return
    may = auth.editor().may_decide  # a reader sees the passages and cannot adopt one (the refusal is shown left)
    refused = run_options.refusal(report, result.claim.url, fetch=False) if may else ""
    if refused:
        st.warning(draw.md(refused))
        run_options.offer(report, f"adopt|{result.claim.id}")
    first, rest = found[0], found[1:]
    st.html(offer_html(first))
    if may and st.button("Adopt this passage as the quote", key=f"adopt|{result.claim.id}|0", type="primary"):
        _adopt(result, report, first, apply, refused)
    if rest:
        with st.expander(f"The next {draw.count(len(rest), 'passage', 'passages')} offered"):
            for offer in rest:
                st.html(offer_html(offer))
                if may and st.button("Adopt this passage as the quote", key=f"adopt|{result.claim.id}|{offer.index}"):
                    _adopt(result, report, offer, apply, refused)
