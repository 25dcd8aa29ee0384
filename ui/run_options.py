"""The options a run was checked with beside this tab's: shown on a deep link, offered in one click, and the
words of an action (adopt a passage, re-fetch) that this tab's options refuse.

A run opened by its link in a new tab meets the Check page's default options, which may refuse what the
run's own allowed (its stored copies from a private address, a domain outside the list). Drawing only: the
refusal comes from core.check (copy_refusal, fetch_refusal), its words from core.report.wording. It refuses
to change the options without the editor's click.
"""

from __future__ import annotations

import streamlit as st

from core.check import copy_refusal, fetch_refusal
from core.models import CheckPolicy, Report
from core.report.wording import policy_words, refusal_words
from ui import draw, state


def _differs(report: Report) -> bool:
    return report.policy is not None and report.policy != state.fetch_policy()


def _use(policy: CheckPolicy) -> None:
    """Make the run's options this tab's (a callback: the Check page's option widgets are not drawn here)."""
    st.session_state["opt_private"] = policy.allow_private
    st.session_state["opt_domains"] = ", ".join(policy.allowed_domains)
    st.session_state["vb_flash"] = f"This tab now uses the run's options: {policy_words(policy)}."


def offer(report: Report, key: str) -> None:
    """Draw the one click that makes the run's options this tab's, when they differ."""
    if report.policy is not None and _differs(report):
        st.button(
            "Use the run's options",
            key=f"use_run_options|{key}",
            on_click=_use,
            args=(report.policy,),
            help=f"Private addresses and domains as this run was checked: {policy_words(report.policy)}",
        )


def note(report: Report) -> None:
    """Say, on the review of a run, that this tab's options are not the run's (and offer the run's)."""
    if report.policy is None or not _differs(report):
        return
    st.info(
        draw.md(
            f"This run was checked with {policy_words(report.policy)}; this tab's options are "
            f"{policy_words(state.fetch_policy())}. Adopting a passage, re-checking and re-fetching take this "
            "tab's options."
        )
    )
    offer(report, "review")


def refusal(report: Report, url: str, *, fetch: bool) -> str:
    """Return what this tab's options refuse for an action on url (a fetch, or its stored copy), or ""."""
    settings = state.fetch_settings()
    refused = fetch_refusal(url, settings) if fetch else None
    what = f"fetching {url}"
    if refused is None:
        # The stored copy records the addresses the page came from: a fetch would meet the same rule.
        refused = copy_refusal(state.store(), url, settings)
        what = f"the stored copy of {url}"
    if refused is None:
        return ""
    return refusal_words(report.policy, state.fetch_policy(), what, refused.reason)
