"""A brief checked in bounded memory gives the very report of the check that held every page to the end.

The reference below is the single-process check as it was: every page read and prepared first,
all of them held, then every claim checked with every other page at hand for misattribution.
The brief is made of real corpus pages served on loopback, with found, altered, misattributed
and quote-less claims, a second URL for the same bytes, and a dead link.
"""

from __future__ import annotations

import dataclasses
import json
import weakref
from pathlib import Path
from typing import Any

import pytest

import core.check.source as source_module
from core.check import check_brief, check_claim
from core.fetch import Fetcher
from core.match import PreparedPage
from core.models import Brief, ClaimResult, SourceStatus, Verdict
from core.pagecache import read_page
from core.report import to_json
from core.settings import Settings
from core.store import Store
from tests.bench.bench_big import corpus_pages
from tests.servers import LoopbackServer


def _brief(server: LoopbackServer) -> Brief:
    from core.brief import read_brief

    pages = corpus_pages()[::24]  # aeb and readability pages, python docs and a gold PDF
    urls = [server.add(f"/p{k}", body, ctype) for k, (_, body, ctype, _) in enumerate(pages)]
    twin = server.add("/twin", pages[0][1], pages[0][2])  # the same bytes as page 0 under another URL
    claims: list[dict[str, Any]] = []
    for k, (_, _, _, sentences) in enumerate(pages):
        claims.append({"claim": f"It says: {sentences[0]}", "url": urls[k], "quote": sentences[0]})
        altered = sentences[1].split()
        altered[len(altered) // 2] = "zebra"
        claims.append({"claim": "It says so.", "url": urls[k], "quote": " ".join(altered)})
        # A quote of this page cited against the next one: found verbatim in another source.
        claims.append({"claim": "It says so.", "url": urls[(k + 1) % len(urls)], "quote": sentences[2]})
    claims.append({"claim": "The twin says so.", "url": twin, "quote": pages[0][3][1] + " zebra"})
    claims.append({"claim": "It says something.", "url": urls[1], "quote": ""})
    claims.append({"claim": "It is gone.", "url": server.url("/missing"), "quote": "no page holds these words"})
    return read_brief(json.dumps({"claims": claims}).encode(), "big.json")


def _held_every_page(brief: Brief, settings: Settings, store: Store) -> list[ClaimResult]:
    """Return the claims of the single-process check that held every page: the reference."""
    urls = list(dict.fromkeys(c.url for c in brief.claims))
    with Fetcher(settings, store) as fetcher:
        sources = fetcher.fetch_all(urls)
    pages = {u: read_page(s, settings, store) for u, s in sources.items() if s.status is SourceStatus.OK}
    prepared = {u: p for u in urls if isinstance(p := pages.get(u), PreparedPage)}
    results = [check_claim(c, sources[c.url], pages.get(c.url), settings, prepared) for c in brief.claims]
    return results


def _comparable(claims: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return the claims with the time of each failed fetch left out: a dead link is asked again by each run."""
    for c in claims:
        if c["source"]["status"] != SourceStatus.OK:
            c["source"].pop("fetched_at")
    return claims


@pytest.fixture
def checked(tmp_path: Path, server: LoopbackServer) -> tuple[Brief, Settings, Store]:
    settings = Settings(allow_private=True, db_path=tmp_path / "v.sqlite3", page_cache_entries=0)
    store = Store(settings.db_path)
    brief = _brief(server)
    check_brief(brief, settings.with_(extract_workers=0), store=store)  # every source fetched and stored once
    return brief, settings, store


@pytest.mark.parametrize("workers", [0, 2], ids=["in process", "two workers"])
def test_the_report_is_the_one_of_the_check_that_held_every_page(
    checked: tuple[Brief, Settings, Store], workers: int
) -> None:
    brief, settings, store = checked
    reference = _held_every_page(brief, settings, store)
    run = settings.with_(extract_workers=workers, extract_pool_min_pages=1)
    report = check_brief(brief, run, store=store)
    got = _comparable(to_json(report)["claims"])
    assert got == _comparable(to_json(dataclasses.replace(report, results=tuple(reference)))["claims"])
    verdicts = {c["verdict"] for c in got}
    assert {Verdict.VERIFIED, Verdict.QUOTE_NOT_FOUND, Verdict.NO_QUOTE, Verdict.DEAD_LINK} <= verdicts
    # The misattributed quotes were found on the page they came from, in brief order.
    assert sum(1 for c in got if (c["near_miss"] or {}).get("found_in_source")) >= len(got) // 4


def test_pages_are_read_once_and_released_before_the_check_ends(
    checked: tuple[Brief, Settings, Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    brief, settings, store = checked
    alive: list[weakref.ref[PreparedPage]] = []
    real_prepare = source_module.prepare

    def watched(page: Any) -> PreparedPage:
        prepared = real_prepare(page)
        alive.append(weakref.ref(prepared))
        return prepared

    monkeypatch.setattr(source_module, "prepare", watched)
    live_at_each_result: list[int] = []
    streamed: list[ClaimResult] = []

    def on_result(result: ClaimResult) -> None:
        streamed.append(result)
        live_at_each_result.append(sum(1 for ref in alive if ref() is not None))

    report = check_brief(brief, settings.with_(extract_workers=0), store=store, on_result=on_result)
    readable = {r.claim.url for r in report.results if r.source.status is SourceStatus.OK}
    assert len(alive) == len(readable)  # each source's page prepared once, for all of its claims
    assert live_at_each_result and max(live_at_each_result) == 0  # no prepared page outlives its claims
    assert sorted(r.claim.id for r in streamed) == sorted(r.claim.id for r in report.results)
    assert {r.source.body for r in report.results} == {b""}  # the store keeps the bytes, the report none
