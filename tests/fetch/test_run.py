"""A run's worth of fetching: many sources at once, progress, the evidence store, page drift,
sources the editor supplies, and bad input that must never stop the rest."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.fetch import Fetcher, supplied_source
from core.models import SourceStatus
from core.settings import Settings
from core.store import Store
from tests.builders import every
from tests.fetch_servers import Gauge, page, redirect, serve_quick
from tests.servers import LoopbackServer, corpus_bytes

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    """A loopback server that stops within 50 ms (the shared fixture's stop waits up to 0.5 s)."""
    with serve_quick() as s:
        yield s


def test_fetch_all_reads_each_url_once_and_keeps_every_key(server: LoopbackServer, settings: Settings) -> None:
    body, ctype = page("pep-0632")
    url = server.add("/pep", body, ctype)
    other = server.add("/other", *page("whatsnew-3.11"))
    urls = [url, url + "#abstract", other, url, url + "#:~:text=distutils"]
    with Fetcher(settings) as f:
        got = f.fetch_all(urls)
    assert set(got) == set(urls)
    every(urls, lambda u: got[u].url == u)
    assert got[url + "#abstract"].body == body
    assert sorted(server.requests) == ["/other", "/pep"]


def test_fetch_all_respects_the_per_host_limit(server: LoopbackServer, settings: Settings) -> None:
    gauge = Gauge()
    for i in range(8):
        server.routes[f"/slow{i}"] = gauge.delayed(b"<p>%d</p>" % i, 0.15)
    urls = [server.url(f"/slow{i}") for i in range(8)]
    with Fetcher(settings.with_(max_per_host=2, max_concurrency=6)) as f:
        got = f.fetch_all(urls)
    every(got.values(), lambda s: s.status is SourceStatus.OK)
    assert gauge.peak <= 2


def test_progress_reports_each_state_on_the_callers_thread(server: LoopbackServer, settings: Settings) -> None:
    ok = server.add("/ok", *page("pep-0632"))
    missing = server.url("/missing")
    seen: list[tuple[str, str]] = []
    threads: set[int] = set()

    def progress(url: str, state: str, detail: str) -> None:
        seen.append((url, state))
        threads.add(threading.get_ident())
        assert detail

    store = Store(":memory:")
    with Fetcher(settings, store) as f:
        f.fetch_all([ok, missing], progress=progress)
        seen_first = list(seen)
        seen.clear()
        f.fetch_all([ok], progress=progress)
    assert [s for u, s in seen_first if u == ok] == ["waiting", "fetching", "fetched"]
    assert [s for u, s in seen_first if u == missing] == ["waiting", "fetching", "failed"]
    assert seen == [(ok, "waiting"), (ok, "cached")]
    assert threads == {threading.get_ident()}


def test_bad_input_gets_a_reason_and_never_stops_the_rest(server: LoopbackServer, settings: Settings) -> None:
    body, ctype = page("pep-0632")
    good = server.add("/good", body, ctype)
    lying = server.add("/lying", body, "image/png")
    urls = [
        "file:///etc/passwd",
        "javascript:alert(document.cookie)",
        "data:text/html;base64,PGgxPmhpPC9oMT4=",
        "not a url at all",
        "http://",
        "https://exa mple.com/",
        good,
        lying,
        server.url("/missing"),
    ]
    with Fetcher(settings) as f:
        got = f.fetch_all(urls)
    assert [got[u].status.value for u in urls] == [
        "blocked", "blocked", "blocked", "blocked", "blocked", "blocked", "ok", "ok", "dead_link",
    ]  # fmt: skip
    every([u for u in urls if u not in (good, lying)], lambda u: got[u].reason)
    assert got[lying].content_type == "text/html"
    assert got[lying].reason == "The server called it image/png, but it is an HTML page; read as an HTML page."


LIES = [
    # corpus file, what the server claims, what is read, words of the reason (status ok unless refused)
    ("pdf/gold/kroger-press-release-2023.pdf", "text/html; charset=utf-8", "application/pdf", "it is a PDF"),
    ("pdf/gold/kroger-press-release-2023.pdf", "application/octet-stream", "application/pdf", "it is a PDF"),
    ("docx/python-docx/par-hyperlinks.docx", "application/octet-stream", DOCX, "it is a Word document"),
    ("html/python/peps/pep-0632.html", "", "text/html", "did not say what it sent, but it is an HTML page"),
    ("html/python/peps/pep-0632.html", "application/json", "text/html", "called it application/json"),
]


@pytest.mark.parametrize(("path", "claimed", "read_as", "words"), LIES)
def test_a_page_lying_about_its_type_is_read_as_what_it_is(
    server: LoopbackServer, settings: Settings, path: str, claimed: str, read_as: str, words: str
) -> None:
    body = corpus_bytes(path)
    url = server.add("/x", body, claimed)
    if not claimed:
        server.routes["/x"].headers.pop("Content-Type")
    with Fetcher(settings) as f:
        source = f.fetch(url)
    assert source.status is SourceStatus.OK
    assert source.content_type == read_as and source.body == body
    assert words in source.reason


@pytest.mark.parametrize(
    ("claimed", "body"),
    [
        ("text/html", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 40),
        ("video/mp4", b"\x00\x00\x00\x18ftypmp42" + bytes(range(256)) * 40),
        ("application/zip", corpus_bytes("docx/python-docx/par-hyperlinks.docx")[:4] + bytes(range(256)) * 40),
    ],
)
def test_binary_that_is_not_a_document_is_not_checked(
    server: LoopbackServer, settings: Settings, claimed: str, body: bytes
) -> None:
    url = server.add("/bin", body, claimed)
    with Fetcher(settings) as f:
        source = f.fetch(url)
    assert source.status is SourceStatus.NOT_CHECKED
    assert "supply" in source.reason and (claimed in source.reason or "not text" in source.reason)


# --------------------------------------------------------------------------- the store: cache and drift


def test_stored_copy_is_used_unless_refresh(server: LoopbackServer, settings: Settings, tmp_path: Path) -> None:
    body, ctype = page("pep-0632")
    url = server.add("/pep", body, ctype)
    store = Store(tmp_path / "evidence.sqlite3")
    with Fetcher(settings, store) as f:
        first = f.fetch(url)
        cached = f.fetch(url + "#section")
        fresh = f.fetch(url, refresh=True)
    assert first.origin == "fetched"
    assert cached.origin == "cache" and cached.body == body and cached.sha256 == first.sha256
    assert cached.url == url + "#section" and cached.fetched_at == first.fetched_at
    assert fresh.origin == "fetched" and fresh.drift is False
    assert server.requests == ["/pep", "/pep"]


def test_changed_page_is_reported_as_drift(server: LoopbackServer, settings: Settings) -> None:
    old, ctype = page("whatsnew-3.11")
    url = server.add("/w", old, ctype)
    store = Store(":memory:")
    with Fetcher(settings, store) as f:
        f.fetch(url)
        new = old.replace(b">25% faster</a>", b">60% faster</a>", 1)
        assert new != old
        server.add("/w", new, ctype)
        fresh = f.fetch(url, refresh=True)
        again = f.fetch(url)
    assert fresh.drift is True and fresh.body == new
    assert again.origin == "cache" and again.body == new and again.drift is False


def test_stored_copy_of_a_url_now_refused_is_not_served(server: LoopbackServer, settings: Settings) -> None:
    url = server.add("/p", *page("pep-0632"))
    store = Store(":memory:")
    with Fetcher(settings, store) as f:
        assert f.fetch(url).status is SourceStatus.OK
    with Fetcher(settings.with_(allow_private=False), store) as f:
        source = f.fetch(url)
    assert source.status is SourceStatus.BLOCKED


def test_failures_are_stored_but_never_served_as_evidence(server: LoopbackServer, settings: Settings) -> None:
    url = server.url("/gone")
    store = Store(":memory:")
    with Fetcher(settings, store) as f:
        assert f.fetch(url).status is SourceStatus.DEAD_LINK
        server.add("/gone", *page("pep-0632"))
        assert f.fetch(url).status is SourceStatus.OK
    assert [s.status.value for s in store.source_history(url)] == ["ok", "dead_link"]


# --------------------------------------------------------------------------- sources the editor supplies


def test_supplied_pdf_is_kept_and_used_for_its_url(settings: Settings) -> None:
    body = corpus_bytes("pdf/gold/kroger-press-release-2023.pdf")
    url = "https://ir.kroger.example/q2-2023.pdf"
    store = Store(":memory:")
    source = supplied_source(url, body, "", "kroger.pdf", store=store)
    assert source.status is SourceStatus.OK and source.origin == "editor"
    assert source.content_type == "application/pdf"
    assert source.reason == "Evidence supplied by the editor (the file kroger.pdf), not fetched by Verbatim."
    # The URL is refused by the policy (no such name is looked up), yet the supplied copy is used.
    with Fetcher(settings.with_(allowed_domains=("python.org",)), store) as f:
        used = f.fetch(url)
    assert used.origin == "editor" and used.body == body


def test_pasted_text_becomes_plain_text(settings: Settings) -> None:
    text = b"CPython 3.11 is an average of 25% faster than CPython 3.10."
    source = supplied_source("https://docs.python.example/3.11", text, "")
    assert source.content_type == "text/plain; charset=utf-8"
    assert source.reason == "Evidence supplied by the editor (the pasted text), not fetched by Verbatim."


def test_supplied_image_is_refused_with_a_reason() -> None:
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4
    source = supplied_source("https://x.example/chart", png, "image/png", "chart.png")
    assert source.status is SourceStatus.NOT_CHECKED and source.origin == "editor"
    assert "image/png" in source.reason


def test_failed_refresh_keeps_the_editors_copy(server: LoopbackServer, settings: Settings) -> None:
    url = server.url("/paywalled")
    server.add("/paywalled", b"<p>subscribe</p>", status=403)
    store = Store(":memory:")
    supplied_source(url, corpus_bytes("html/python/peps/pep-0632.html"), "text/html", store=store)
    with Fetcher(settings, store) as f:
        source = f.fetch(url, refresh=True)
    assert source.origin == "editor" and source.status is SourceStatus.OK
    assert server.requests == ["/paywalled"]


def test_redirect_chain_final_url_is_stored(server: LoopbackServer, settings: Settings) -> None:
    body, ctype = page("pep-0632")
    server.routes["/old"] = redirect("/new", 301)
    server.add("/new", body, ctype)
    store = Store(":memory:")
    with Fetcher(settings, store) as f:
        f.fetch(server.url("/old"))
    kept = store.latest_source(server.url("/old"))
    assert kept is not None and kept.final_url == server.url("/new") and kept.body == body
