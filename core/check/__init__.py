"""Checking briefs and claims: the face of the stage where DESIGN.md's data flow meets.

``claims`` decides each claim's verdict against its page and re-checks claims of a report;
``brief`` checks a whole brief in bounded memory, grouping claims by source, reading pages as they
arrive in ``pool``'s worker processes (``worker``) through ``source``, and finding misattributed
quotes afterwards through ``elsewhere``.
"""

from __future__ import annotations

from core.check.brief import ResultSink, check_brief
from core.check.claims import adopt_quote, check_claim, copy_refusal, decide, fetch_refusal, recheck_claim
from core.report.wording import FOUND_IS_NOT_SUPPORT

__all__ = [
    "FOUND_IS_NOT_SUPPORT",
    "ResultSink",
    "adopt_quote",
    "check_brief",
    "check_claim",
    "copy_refusal",
    "decide",
    "fetch_refusal",
    "recheck_claim",
]
