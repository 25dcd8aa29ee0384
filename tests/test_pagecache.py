"""The page-text cache: a stored extraction is served again exactly, and only for the same code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import core.pagecache as pagecache
from core.extract import extract
from core.extract.ocr import tessdata
from core.match import PreparedPage, match_quote
from core.models import PageText, Source, SourceStatus, Unreadable
from core.settings import Settings
from core.store import Store
from tests.builders import scanned_pdf, source
from tests.servers import CORPUS, corpus_bytes

PAGES = [
    ("html/python/peps/pep-0632.html", "text/html; charset=utf-8"),
    ("html/wikipedia/Dog.html.gz", "text/html; charset=utf-8"),
    ("pdf/gold/kroger-press-release-2023.pdf", "application/pdf"),
]


def _source(relative: str, content_type: str) -> Source:
    return source(f"https://example.org/{relative}", corpus_bytes(relative), content_type=content_type)


@pytest.mark.parametrize(("relative", "content_type"), PAGES)
def test_round_trip_gives_the_same_page_text(relative: str, content_type: str) -> None:
    source = _source(relative, content_type)
    page = extract(source.body, content_type, source.url, Settings())
    assert not isinstance(page, Unreadable)
    again = pagecache.page_from_json(pagecache.page_to_json(page))
    assert again == page
    assert (again.blocks, again.footnotes, again.main, again.pages) == (
        page.blocks,
        page.footnotes,
        page.main,
        page.pages,
    )


def test_a_stored_extraction_is_used_instead_of_extracting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(tmp_path / "s.sqlite3")
    source = _source(*PAGES[0])
    settings = Settings(page_cache_entries=0)  # no in-process cache: only the store can serve it
    first = pagecache.read_page(source, settings, store)
    assert isinstance(first, PreparedPage)

    def no_extraction(*args: object, **kwargs: object) -> None:
        raise AssertionError("extraction ran although the store held the page text")

    monkeypatch.setattr(pagecache, "extract", no_extraction)
    second = pagecache.read_page(source, settings, store)
    assert isinstance(second, PreparedPage) and second.page == first.page
    quote = "In Python 3.10 and 3.11, distutils will be formally marked as deprecated."
    assert match_quote(quote, second).found


def test_other_extraction_code_never_reads_a_stored_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(tmp_path / "s.sqlite3")
    source = _source(*PAGES[0])
    settings = Settings(page_cache_entries=0)
    pagecache.read_page(source, settings, store)
    monkeypatch.setattr(pagecache, "EXTRACTOR", "another-version")
    calls: list[str] = []
    real = pagecache.extract

    def counting(*args: object, **kwargs: object) -> object:
        calls.append("extract")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pagecache, "extract", counting)
    pagecache.read_page(source, settings, store)
    assert calls == ["extract"]


def test_unreadable_is_cached_with_its_reason(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    body = b"\x00\x01\x02" * 5000
    source = Source(url="https://example.org/x", status=SourceStatus.OK, content_type="text/html", body=body)
    first = pagecache.read_page(source, Settings(page_cache_entries=0), store)
    assert isinstance(first, Unreadable)
    assert pagecache.read_page(source, Settings(page_cache_entries=0), store) == first


def test_memory_cache_is_bounded_by_text_size() -> None:
    # Three real pages, a budget that holds only the last one: the older two are evicted.
    settings = Settings(page_cache_entries=10, page_cache_max_chars=1)
    sources = [_source(*p) for p in PAGES]
    for s in sources:
        pagecache.read_page(s, settings)
    kept = [pagecache._RECENT.get((s.sha256, s.content_type)) for s in sources]
    assert [k is not None for k in kept] == [False, False, True]


def test_hidden_parts_and_ocr_pages_survive_the_store() -> None:
    # The Washington Post page hides its badge panels until opened (core/extract/html.py).
    page = extract(corpus_bytes("html/readability/wapo-2/source.html.gz"), "text/html")
    assert isinstance(page, PageText) and page.hidden
    again = pagecache.page_from_json(json.loads(json.dumps(pagecache.page_to_json(page))))
    assert isinstance(again, PageText) and again.hidden == page.hidden and again.ocr_pages == ()


@pytest.mark.skipif(tessdata() is None, reason="Tesseract is not installed (make setup installs it)")
def test_a_scan_read_without_ocr_is_not_served_when_ocr_is_on(tmp_path: Path) -> None:
    body = scanned_pdf((CORPUS / "pdf" / "gold" / "kroger-press-release-2023.pdf").read_bytes(), dpi=150)
    store = Store(tmp_path / "s.sqlite3")
    source = Source(
        url="https://example.org/scan.pdf", status=SourceStatus.OK, content_type="application/pdf", body=body
    )
    assert isinstance(pagecache.read_page(source, Settings(), store), Unreadable)
    read = pagecache.read_page(source, Settings(ocr=True), store)
    assert isinstance(read, PreparedPage) and read.page.ocr_pages == (1, 2, 3)
