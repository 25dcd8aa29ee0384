"""Prepared page text, kept so that re-checking a stored source does not extract it again.

Extraction (readability for main content above all) is the slow step of a check: about half
a second per large page. Its result depends only on the body's bytes, the content type and the
extraction code, so it is cached twice: in this process (prepared pages, a small LRU) and in
the store (the PageText as JSON, keyed by the body's sha256 and a fingerprint of the
extraction code, so that a change of code never serves a stale text). The cache never decides
anything: a miss just extracts again.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from core.extract import extract
from core.match import PreparedPage, prepare
from core.models import PageKind, PageText, Source, Unreadable
from core.settings import Settings
from core.store import Store


def extraction_files() -> list[Path]:
    """Return every file whose code decides a page's text: the extract and models packages, the limits."""
    core = Path(__file__).resolve().parent
    return [*sorted((core / "extract").glob("*.py")), *sorted((core / "models").glob("*.py")), core / "settings.py"]


def fingerprint(paths: list[Path]) -> str:
    """Return a short hash of the files' names (relative to core/) and contents."""
    core = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.relative_to(core).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


#: Changes whenever the extraction code changes, so stored texts of older code are ignored.
EXTRACTOR = fingerprint(extraction_files())


def page_to_json(page: PageText | Unreadable) -> dict[str, Any]:
    """Return a page (or the reason it has no text) as plain JSON data."""
    if isinstance(page, Unreadable):
        return {"unreadable": page.reason}
    return {
        "text": page.text,
        "kind": page.kind,
        "blocks": page.blocks,
        "footnotes": page.footnotes,
        "main": page.main,
        "pages": page.pages,
        "hidden": page.hidden,
        "ocr_pages": page.ocr_pages,
        "line_ends": page.line_ends,
        "title": page.title,
        "warnings": page.warnings,
        "charset_note": page.charset_note,
    }


def page_from_json(data: dict[str, Any]) -> PageText | Unreadable:
    """Return the page that ``page_to_json`` gave ``data`` for."""
    if "unreadable" in data:
        return Unreadable(str(data["unreadable"]))

    def spans(key: str) -> tuple[tuple[int, int], ...]:
        return tuple((int(a), int(b)) for a, b in data.get(key, ()))

    return PageText(
        text=str(data["text"]),
        kind=PageKind(data["kind"]),
        blocks=spans("blocks"),
        footnotes=spans("footnotes"),
        main=spans("main"),
        pages=tuple((int(n), int(a), int(b)) for n, a, b in data.get("pages", ())),
        hidden=spans("hidden"),
        ocr_pages=tuple(int(n) for n in data.get("ocr_pages", ())),
        line_ends=tuple((int(a), int(b), str(r), bool(t)) for a, b, r, t in data.get("line_ends", ())),
        title=str(data.get("title", "")),
        warnings=tuple(str(w) for w in data.get("warnings", ())),
        charset_note=str(data.get("charset_note", "")),
    )


class _Recent:
    """A small thread-safe LRU of prepared pages (a class: it holds a lock and mutable order)."""

    def __init__(self) -> None:
        self._items: OrderedDict[tuple[str, str], PreparedPage | Unreadable] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str]) -> PreparedPage | Unreadable | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: tuple[str, str], value: PreparedPage | Unreadable, limit: int, max_chars: int) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > limit or (len(self._items) > 1 and self._chars() > max_chars):
                self._items.popitem(last=False)

    def _chars(self) -> int:
        return sum(len(v.page.text) for v in self._items.values() if isinstance(v, PreparedPage))


_RECENT = _Recent()


def text_key(source: Source, settings: Settings) -> tuple[str, str, str]:
    """Return the (body sha256, content type, extractor) a source's page text is stored under."""
    sha = source.sha256 or hashlib.sha256(source.body).hexdigest()
    # OCR on or off reads a scanned PDF differently: each has its own entries.
    return sha, source.content_type, f"{EXTRACTOR}+ocr" if settings.ocr else EXTRACTOR


def stored_text(source: Source, settings: Settings, store: Store | None) -> PageText | Unreadable | None:
    """Return the page text the store keeps for this source's body under today's extractor, or None."""
    if store is None:
        return None
    stored = store.load_page_text(*text_key(source, settings))
    return page_from_json(stored) if stored is not None else None


def extract_text(source: Source, settings: Settings) -> PageText | Unreadable:
    """Return the page text of a fetched source's body, or why it has none (no cache asked or filled)."""
    return extract(source.body, source.content_type, source.final_url or source.url, settings)


def _recent_key(source: Source, settings: Settings) -> tuple[str, str]:
    sha = text_key(source, settings)[0]
    return sha, f"{source.content_type}\0ocr" if settings.ocr else source.content_type


def recent_page(source: Source, settings: Settings) -> PreparedPage | Unreadable | None:
    """Return the source's page if this process prepared it lately (the small LRU), else None."""
    return _RECENT.get(_recent_key(source, settings)) if settings.page_cache_entries > 0 else None


def remember_page(source: Source, settings: Settings, page: PreparedPage | Unreadable) -> None:
    """Keep a prepared page in this process's small LRU, for the next check that reads the same bytes."""
    if settings.page_cache_entries > 0:
        _RECENT.put(_recent_key(source, settings), page, settings.page_cache_entries, settings.page_cache_max_chars)


def read_page(source: Source, settings: Settings, store: Store | None = None) -> PreparedPage | Unreadable:
    """Return the prepared page text of a fetched source, or why it holds no text to match."""
    recent = recent_page(source, settings)
    if recent is not None:
        return recent
    page = stored_text(source, settings, store)
    if page is None:
        page = extract_text(source, settings)
        if store is not None:
            store.save_page_text(*text_key(source, settings), page_to_json(page))
    result = page if isinstance(page, Unreadable) else prepare(page)
    remember_page(source, settings, result)
    return result
