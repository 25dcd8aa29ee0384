"""The stored evidence for a URL: how it was fetched, its sha256, and the page's text around a span.

It only reads the store, so an agent can read what was checked instead of fetching it again.
It never fetches, and it refuses a URL that the current fetch policy would not fetch: a copy
stored under a more permissive policy is not handed out under a stricter one.
"""

from __future__ import annotations

from typing import Any

from core.errors import RequestError
from core.fetch import Policy, Refused, check_url
from core.models import SourceStatus, Unreadable
from core.pagecache import read_page
from core.settings import Settings
from core.store import Store


def _window(text: str, start: int | None, end: int | None, chars: int) -> tuple[int, int]:
    """Return the excerpt's bounds: ``chars`` either side of [start, end), or the page's opening."""
    if start is None and end is None:
        return 0, min(len(text), chars)
    a = start if start is not None else end or 0
    b = end if end is not None else a
    if not 0 <= a <= b <= len(text):
        raise RequestError(
            f"The span {a}-{b} is not inside the page's text, which has {len(text)} characters: give the start and "
            "end of a matched fragment as check_claims returned them."
        )
    return max(0, a - chars), min(len(text), b + chars)


def get_source(
    url: str,
    *,
    store: Store,
    settings: Settings,
    start: int | None = None,
    end: int | None = None,
    chars: int | None = None,
) -> dict[str, Any]:
    """Return the newest stored evidence of url and the page text around [start, end) (the opening when no span).

    Raises RequestError when the policy refuses the URL or nothing is stored for it.
    """
    refused = check_url(url, Policy.from_settings(settings))
    if isinstance(refused, Refused):
        raise RequestError(f"This server does not read {url!r}: {refused.reason}")
    history = store.source_history(url, limit=1)
    if not history:
        raise RequestError(
            f"No evidence is stored for {url}: check a claim that cites it first (check_claims), then ask again."
        )
    source = history[0]
    evidence: dict[str, Any] = {
        "url": source.url,
        "final_url": source.final_url,
        "status": source.status.value,
        "http_status": source.http_status,
        "content_type": source.content_type,
        "sha256": source.sha256,
        "fetched_at": source.fetched_at,
        "origin": source.origin,
        "reason": source.reason,
        "text_chars": None,
        "excerpt": None,
    }
    if source.status is not SourceStatus.OK:
        return evidence
    page = read_page(source, settings, store)
    if isinstance(page, Unreadable):
        return {**evidence, "reason": page.reason}
    text = page.page.text
    most = settings.evidence_max_chars
    a, b = _window(text, start, end, min(most // 2, settings.context_chars if chars is None else max(0, chars)))
    cut = b - a > most  # a span as long as the page must not flood the agent's context either
    b = a + most if cut else b
    excerpt = {"text": text[a:b], "start": a, "end": b, "span_start": start, "span_end": end, "cut": cut}
    return {**evidence, "text_chars": len(text), "excerpt": excerpt}
