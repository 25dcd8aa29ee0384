"""The page pool: a worker that dies or overruns its time costs its own page only, and the pool goes on.

Real worker processes read real corpus pages: one is killed with SIGKILL while it reads (what
the kernel does to a process a hostile page blew up), another page overruns a time limit set
below what the largest corpus page takes to read.
"""

from __future__ import annotations

import json
import os
import signal
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.check import check_brief
from core.check.pool import Lost, PagePool
from core.check.source import SourceOutcome, SourceTask, check_source
from core.models import Brief, Verdict
from core.settings import Settings
from core.store import Store
from tests.builders import claim, source
from tests.servers import LoopbackServer, corpus_bytes

# 8 MB of 80,000 short paragraphs: about 2.5 s to read here, ten times the longest limit the tests below set,
# where the corpus's largest page (1.6 MB) now reads in 0.2-0.3 s and raced the 0.3 s limit on a fresh machine.
_PARAGRAPH = '<div class="c"><p>Words of a long page, sentence {0}, with <a href="/x{0}">a link</a>.</p></div>'
SLOW = ("<html><body>" + "".join(_PARAGRAPH.format(i) for i in range(80_000)) + "</body></html>").encode()
PEP = "html/python/peps/pep-0632.html"
PEP_QUOTE = "In Python 3.10 and 3.11, distutils will be formally marked as deprecated"


def _task(relative: str, quote: str = PEP_QUOTE, body: bytes | None = None) -> SourceTask:
    url = f"http://example.org/{relative}"
    return SourceTask(
        source=source(url, corpus_bytes(relative) if body is None else body, content_type="text/html; charset=utf-8"),
        claims=((0, claim("c1", "It says so.", url, quote)),),
        settings=Settings(),
    )


@pytest.fixture
def pool() -> Iterator[PagePool]:
    made = PagePool(1)
    yield made
    made.close()


def test_a_worker_killed_while_reading_loses_that_page_only(pool: PagePool) -> None:
    reading = pool.submit(check_source, _task("slow", body=SLOW), timeout=600)
    step = threading.Event()
    while not reading.running() or not pool.pids():
        step.wait(0.01)
    os.kill(pool.pids()[0], signal.SIGKILL)
    lost = reading.result(timeout=60)
    assert lost == Lost("The page's reader crashed (killed by SIGKILL) while reading it")
    # A new worker takes the next page.
    after = pool.submit(check_source, _task(PEP), timeout=600).result(timeout=120)
    assert isinstance(after, SourceOutcome)
    assert [r.verdict for _, r in after.results] == [Verdict.VERIFIED]


def test_a_page_overrunning_its_time_is_stopped_and_the_worker_replaced(pool: PagePool) -> None:
    warm = pool.submit(check_source, _task(PEP), timeout=600).result(timeout=120)
    assert isinstance(warm, SourceOutcome)
    first = pool.pids()
    lost = pool.submit(check_source, _task("slow", body=SLOW), timeout=0.01).result(timeout=60)
    assert lost == Lost("The page's reader took longer than 0.01 s while reading it")
    again = pool.submit(check_source, _task(PEP), timeout=600).result(timeout=120)
    assert isinstance(again, SourceOutcome) and pool.pids() != first


def test_a_page_its_reader_cannot_finish_is_that_claim_s_not_checked(tmp_path: Path, server: LoopbackServer) -> None:
    from core.brief import read_brief

    def brief(*pairs: tuple[str, str]) -> Brief:
        claims = [{"claim": "It says so.", "url": url, "quote": quote} for url, quote in pairs]
        return read_brief(json.dumps({"claims": claims}).encode(), "brief.json")

    big = server.add("/big", SLOW + b"<!-- a copy never read before -->")
    pep = server.add("/pep", corpus_bytes(PEP))
    # No page from an earlier test held in this process's memory: the first check below starts the pool.
    settings = Settings(allow_private=True, db_path=tmp_path / "v.sqlite3", extract_workers=1, page_cache_entries=0)
    store = Store(settings.db_path)
    # The PEP's text is stored and the shared pool warm: the limit below meets the long page's reading alone.
    check_brief(brief((pep, PEP_QUOTE)), settings.with_(extract_pool_min_pages=1), store=store)
    report = check_brief(
        brief((big, "words of a long page"), (pep, PEP_QUOTE)), settings.with_(extract_timeout=0.3), store=store
    )
    stopped, fine = report.results
    assert stopped.verdict is Verdict.NOT_CHECKED
    assert stopped.reasons[0] == (
        f"The page's reader took longer than 0.3 s while reading it ({big}): the page may be built to crash or"
        " stall readers, or be far larger than a page should. Nothing else of the brief was affected."
        " Open the page yourself, or supply its text."
    )
    assert fine.verdict is Verdict.VERIFIED


def test_a_handful_of_pages_is_read_in_process_unless_the_pool_already_runs() -> None:
    from core.check.brief import _pool

    settings = Settings(extract_workers=3)  # a size no other test asks for: a pool not started yet
    assert _pool(settings, settings.extract_pool_min_pages - 1) is None
    assert _pool(settings.with_(extract_workers=0), 1000) is None
    pool = _pool(settings, settings.extract_pool_min_pages)
    assert pool is not None and pool.size == 3 and not pool.started  # started by its first page, not before
