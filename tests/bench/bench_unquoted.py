"""Benchmark: evidence and figures of 300 claims without a quote over 60 real pages, against their whole check.

Pages are the first 60 readability test pages of ../shared/corpus/html/readability/ (news,
blogs, documentation). From each page's text, five sentences holding a digit (or, short of
those, any sentences) become claims without a quote, one in two with its first number changed,
as a brief of an agent that cites pages without quoting them. The whole check runs offline, every
page stored beforehand and read in this process (``extract_workers=0``); the time spent offering
passages (``candidates``) and placing the claim's figures on the page (``place_figures``) is
measured inside that same run, so the share is of the very check it is part of.
"""

from __future__ import annotations

import gzip
import json
import re
import time
from collections.abc import Callable
from typing import Any

import core.check.claims as claims_module
from core.brief import read_brief
from core.check import check_brief
from core.extract import extract_html
from core.fetch import supplied_source
from core.models import Brief
from core.settings import Settings
from core.store import Store
from core.text import split_sentences
from tests.servers import CORPUS

PAGES = 60
PER_PAGE = 5
ROUNDS = 3  # whole checks of the same brief; the machine's noise is one round's, not the measure's
_NUMBER = re.compile(r"(?<![\d.])(\d+)(?![\d.])")


def _pages() -> list[tuple[str, bytes]]:
    folders = sorted(p for p in (CORPUS / "html/readability").iterdir() if (p / "source.html.gz").is_file())
    return [
        (f"https://bench.example/{p.name}", gzip.decompress((p / "source.html.gz").read_bytes()))
        for p in folders[:PAGES]
    ]


def _claims(url: str, body: bytes) -> list[dict[str, str]]:
    text = extract_html(body, "text/html").text
    sentences = [text[a:b] for a, b in split_sentences(text) if 40 <= b - a <= 300]
    picked = [s for s in sentences if any(c.isdigit() for c in s)][:PER_PAGE]
    picked += [s for s in sentences if s not in picked][: PER_PAGE - len(picked)]
    out = []
    for i, sentence in enumerate(picked):
        claim = _NUMBER.sub(lambda m: str(int(m.group(1)) + 7), sentence, count=1) if i % 2 else sentence
        out.append({"claim": " ".join(claim.split()), "url": url})
    return out


def _timed(call: Callable[..., Any], spent: list[float]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return call(*args, **kwargs)
        finally:
            spent.append(time.perf_counter() - started)

    return wrapper


def run() -> list[str]:
    """Return the benchmark's line: evidence and figures as a share of the whole check (the median round)."""
    settings = Settings(use_cache=False, extract_workers=0)
    pages = _pages()
    claims = [c for url, body in pages for c in _claims(url, body)]
    claims = (claims * 2)[: PAGES * PER_PAGE]  # a page short of five sentences leaves room: repeat from the start
    brief = read_brief(json.dumps(claims).encode(), "bench.json")
    rounds = sorted((_round(brief, pages, settings) for _ in range(ROUNDS)), key=lambda r: (r[0] + r[1]) / r[2])
    ranking, placing, whole, flagged = rounds[len(rounds) // 2]  # the median round by share: one slow round is noise
    evidence = ranking + placing
    return [
        f"evidence and figures of {PAGES * PER_PAGE} unquoted claims over {PAGES} pages: {evidence:.2f} s of a"
        f" {whole:.2f} s whole check ({100 * evidence / whole:.1f}%, target at most 10%; median of {ROUNDS} rounds):"
        f" passages offered {ranking:.2f} s, figures placed {placing:.2f} s; {flagged} figures_mismatch"
    ]


def _round(brief: Brief, pages: list[tuple[str, bytes]], settings: Settings) -> tuple[float, float, float, int]:
    """Return one whole check's evidence times (passages, figures), its own time, and its figures_mismatch count.

    Each round stores the pages afresh: a store that has read a page once keeps its text, and the
    next check of it would be spared the reading that a check of a new brief pays.
    """
    store = Store(":memory:")
    for url, body in pages:
        supplied_source(url, body, "text/html", store=store, settings=settings)
    ranking: list[float] = []
    placing: list[float] = []
    originals = claims_module.candidates, claims_module.place_figures
    claims_module.candidates = _timed(originals[0], ranking)  # type: ignore[assignment]
    claims_module.place_figures = _timed(originals[1], placing)  # type: ignore[assignment]
    try:
        started = time.perf_counter()
        report = check_brief(brief, settings, store=store, offline=True)
        whole = time.perf_counter() - started
    finally:
        claims_module.candidates, claims_module.place_figures = originals
    flagged = sum(1 for r in report.results if r.verdict == "figures_mismatch")
    return sum(ranking), sum(placing), whole, flagged
