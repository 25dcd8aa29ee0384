"""Benchmark: a claim whose figure the quote lacks, checked on a page of 300,000 numbers.

Where else on the page a missing figure appears is diagnosis, and on a page made of numbers
that search is nearly the whole cost of the check; ``figures_elsewhere_budget_seconds`` caps
it (tests/fetch/test_hostile.py checks what is found, this measures how long it takes). The
baseline, measured in the same run, is the same claim checked against a page of the quote's
paragraph and a paragraph of plain words (a page too short reads as needing JavaScript).
Reading every figure of the page without a budget is timed on a twentieth of the page and
scaled up to the whole page (a linear extrapolation, stated in the output).
"""

from __future__ import annotations

import time

from core.brief import read_brief
from core.check import check_brief
from core.extract import extract_html
from core.fetch import supplied_source
from core.figures import check_figures, read_figures
from core.models import PageText
from core.settings import Settings
from core.store import Store

QUOTE = "In Python 3.10 and 3.11, distutils will be formally marked as deprecated"
CLAIM = "PEP 632 planned to deprecate distutils in Python 3.10 and 3.11 for 412,345 projects."
NUMBERS = " ".join(f"{n:,}" for n in range(300_000, 600_000))
URL = "https://peps.python.org/pep-0632/"
REPEAT = 3  # best of
WORDS = "The rest of this page talks about packaging in plain words and holds no figure at all. " * 25


def _body(filler: str, copy: int) -> bytes:
    """Return the page; each copy differs by a word, so that no cache of page text or figures serves it."""
    return f"<html><body><p>{QUOTE}.</p><p>{filler}</p><p>Copy {chr(97 + copy)}.</p></body></html>".encode()


def _figures(page: PageText, settings: Settings) -> float:
    started = time.perf_counter()
    check = check_figures(CLAIM, QUOTE, page, settings)
    took = time.perf_counter() - started
    assert len(check.missing) == 1, check
    return took


def _whole_check(body: bytes, settings: Settings) -> float:
    """Return the seconds a check of the claim takes offline, its page stored (no network)."""
    store = Store(":memory:")
    supplied_source(URL, body, "text/html", store=store, settings=settings)
    brief = read_brief(f'[{{"claim": "{CLAIM}", "url": "{URL}", "quote": "{QUOTE}"}}]'.encode(), "bench.json")
    started = time.perf_counter()
    report = check_brief(brief, settings, store=store, offline=True)
    took = time.perf_counter() - started
    assert report.results[0].verdict == "figures_mismatch", report.results[0].reasons
    return took


def run() -> list[str]:
    """Return the benchmark's lines: the numbers page against a page of words, and the unbudgeted read."""
    settings = Settings(use_cache=False)
    budget = settings.figures_elsewhere_budget_seconds
    baseline = min(_figures(extract_html(_body(WORDS, i), "text/html"), settings) for i in range(REPEAT))
    numbers = min(_figures(extract_html(_body(NUMBERS, i), "text/html"), settings) for i in range(REPEAT))
    whole_small = min(_whole_check(_body(WORDS, REPEAT + i), settings) for i in range(REPEAT))
    whole_big = min(_whole_check(_body(NUMBERS, REPEAT + i), settings) for i in range(REPEAT))
    twentieth = NUMBERS[: len(NUMBERS) // 20]
    started = time.perf_counter()
    read_figures(twentieth)
    unbudgeted = (time.perf_counter() - started) * 20
    return [
        f"figures check, missing figure looked for on a page of 300,000 numbers: {numbers * 1000:.0f} ms vs"
        f" {baseline * 1000:.1f} ms on a page of words (x{numbers / baseline:,.0f});"
        f" budget {budget * 1000:.0f} ms ({numbers / budget:.2f}x the budget)",
        f"whole check of the claim, offline (extract, match, figures, diagnosis): {whole_big:.2f} s vs"
        f" {whole_small * 1000:.0f} ms for the page of words (x{whole_big / whole_small:,.0f})",
        f"reading every figure of the numbers page without a budget: {unbudgeted:.1f} s, extrapolated from a"
        f" twentieth ({unbudgeted / numbers:.0f}x the budgeted check)",
    ]


if __name__ == "__main__":
    print("\n".join(run()))
