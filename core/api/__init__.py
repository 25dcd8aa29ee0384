"""Verbatim for other programs: the stable Python API (``calls``), and the MCP server over it (``server``).

``check_claims`` and ``check_brief`` return a ``Report`` whose ``to_json()`` is DESIGN.md's JSON
contract and whose ``passed`` is the ``--strict`` gate; ``for_agent()`` (``feedback``) says per
claim what the verdict means; ``get_source`` (``evidence``) reads the stored evidence of a URL.
The MCP server (``python -m core mcp``) lives in ``core.api.server`` and is not imported here:
the Python API does not load the MCP SDK.
"""

from __future__ import annotations

from core.api.calls import Report, StoreLike, check_brief, check_claims
from core.api.evidence import get_source
from core.api.feedback import MEANINGS, NEAR_MISS_WARNING
from core.errors import BriefError, RequestError, StoreError, VerbatimError
from core.models import STRICT_FAILURES, ClaimResult, Verdict
from core.settings import Settings
from core.store import Store

__all__ = [
    "MEANINGS",
    "NEAR_MISS_WARNING",
    "STRICT_FAILURES",
    "BriefError",
    "ClaimResult",
    "Report",
    "RequestError",
    "Settings",
    "Store",
    "StoreError",
    "StoreLike",
    "VerbatimError",
    "Verdict",
    "check_brief",
    "check_claims",
    "get_source",
]
