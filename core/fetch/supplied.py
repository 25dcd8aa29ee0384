"""Sources the editor supplies (an upload or a paste), judged by the same type and size rules as a fetch.

A supplied copy has origin "editor" and its reason says so; it is stored when a store is
given, as evidence of what the verdict rests on. This module never opens a connection.
"""

from __future__ import annotations

import hashlib
import mimetypes
from dataclasses import replace

from core.fetch.body import TEXT, decide_type, sniff
from core.fetch.reasons import failure, too_large
from core.models import Origin, Source, SourceStatus
from core.settings import Settings
from core.store import Store, now_iso


def supplied_source(
    url: str,
    body: bytes,
    content_type: str,
    filename: str = "",
    *,
    store: Store | None = None,
    settings: Settings | None = None,
) -> Source:
    """Return the editor's upload or paste as a source (origin "editor", stored if given a store), or not_checked."""
    s = settings or Settings()
    declared = content_type or (mimetypes.guess_type(filename)[0] or "" if filename else "")
    if not declared and sniff(body[: s.sniff_bytes]) == TEXT:
        declared = "text/plain; charset=utf-8"
    what = f"the file {filename}" if filename else "the pasted text"
    if len(body) > s.max_body_bytes:
        source = failure(url, SourceStatus.NOT_CHECKED, too_large(s.max_body_bytes, len(body)), url)
        return replace(source, origin=Origin.EDITOR)
    decision = decide_type(declared, body[: s.sniff_bytes])
    if decision.refusal:
        return replace(failure(url, SourceStatus.NOT_CHECKED, decision.refusal, url), origin=Origin.EDITOR)
    source = Source(
        url=url,
        status=SourceStatus.OK,
        reason=f"Evidence supplied by the editor ({what}), not fetched by Verbatim. {decision.note}".strip(),
        final_url=url,
        content_type=decision.content_type,
        body=body,
        sha256=hashlib.sha256(body).hexdigest(),
        fetched_at=now_iso(),
        origin=Origin.EDITOR,
    )
    if store is not None:
        store.save_source(source)
    return source
