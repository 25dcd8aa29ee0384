"""Fetching sources safely: the address policy (``netguard``), the fetcher, body decoding and the reasons.

``Fetcher`` reads URLs only as ``netguard``'s ``Policy`` allows, checked again on every
connection; ``body`` decodes and sniffs what arrived; ``reasons`` words every failure;
``allowlist`` reads the domains an editor allows.
"""

from __future__ import annotations

from core.fetch.allowlist import parse_allowlist
from core.fetch.fetcher import Fetcher, host_key, supplied_source
from core.fetch.netguard import Policy, Refused, check_url

__all__ = ["Fetcher", "Policy", "Refused", "check_url", "host_key", "parse_allowlist", "supplied_source"]
