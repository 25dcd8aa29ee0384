"""The bundled sample brief and the stored copies of its sources.

The sample must be checked with no network at all: ``load_samples`` puts the bundled copies
into the evidence store as the stored copies of their URLs (origin "sample"), and the sample
is checked with ``offline=True``. This module never fetches anything.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from core.models import Origin, Source, SourceStatus

ASSETS = Path(__file__).resolve().parent.parent / "assets"
SAMPLES = ASSETS / "samples"
SAMPLE_BRIEF = SAMPLES / "python-releases.md"
_MANIFEST = SAMPLES / "sources.json"


@dataclass(frozen=True)
class _Entry:
    url: str
    file: str | None
    status: int
    content_type: str


def _entries() -> list[_Entry]:
    data = json.loads(_MANIFEST.read_text(encoding="utf-8"))
    return [_Entry(e["url"], e["file"], int(e["status"]), e["content_type"]) for e in data["sources"]]


def sample_urls() -> list[str]:
    """Return the URLs that have a bundled copy."""
    return [e.url for e in _entries()]


def sample_sources() -> list[Source]:
    """Return a Source for every bundled copy, with its exact bytes and sha256."""
    now = datetime.now(UTC).isoformat(timespec="seconds")
    out = []
    for e in _entries():
        body = gzip.decompress((SAMPLES / e.file).read_bytes()) if e.file else b""
        if e.status == 200:
            status, reason = SourceStatus.OK, "Bundled sample copy, checked offline."
        else:
            status = SourceStatus.DEAD_LINK
            reason = f"The server answered {e.status} Not Found: the page does not exist (possibly an invented source)."
        out.append(
            Source(
                url=e.url,
                status=status,
                reason=reason,
                final_url=e.url,
                http_status=e.status,
                content_type=e.content_type,
                headers=(("content-type", e.content_type),),
                body=body,
                sha256=hashlib.sha256(body).hexdigest(),
                fetched_at=now,
                origin=Origin.SAMPLE,
            )
        )
    return out


class SourceSink(Protocol):
    """Anything that keeps sources: core.store.Store, or a test's dict-backed stand-in."""

    def save_source(self, source: Source) -> None: ...


def load_samples(store: SourceSink) -> list[Source]:
    """Store every bundled copy as the stored copy of its URL; return the sources stored."""
    sources = sample_sources()
    for s in sources:
        store.save_source(s)
    return sources
