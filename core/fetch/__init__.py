"""Fetching sources safely: the address policy, the guarded connection, the fetcher, bodies and reasons.

``Fetcher`` reads URLs only as ``policy``'s ``Policy`` allows, checked again on every
connection by ``netguard``; ``concurrency`` schedules many at once within the per-host limit;
``body`` decodes and sniffs what arrived; ``supplied`` takes the editor's own copies;
``stored`` says whether a stored copy may be served under the policy in force;
``hostname`` names what makes a link unparseable;
``reasons`` words every failure; ``allowlist`` reads the domains an editor allows.
"""

from __future__ import annotations

from core.errors import Refused
from core.fetch.allowlist import parse_allowlist
from core.fetch.concurrency import Progress, host_key
from core.fetch.fetcher import Fetcher
from core.fetch.policy import Policy, check_url, checked_under
from core.fetch.stored import UNPROVEN, stored_refusal
from core.fetch.supplied import supplied_source

__all__ = [
    "UNPROVEN",
    "Fetcher",
    "Policy",
    "Progress",
    "Refused",
    "check_url",
    "checked_under",
    "host_key",
    "parse_allowlist",
    "stored_refusal",
    "supplied_source",
]
