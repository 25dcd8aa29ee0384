"""``make bench`` for the matcher: time per quote on prepared pages against a naive checker.

Every honest quote of the evaluation (tests/quality/eval_match.py) is matched against its own
prepared page. The baseline, measured in the same run, is what a naive checker does for each
quote: normalise the whole page again and search the quote as a substring. The baseline runs
on a fixed sample of quotes (every ``BASELINE_EVERY``-th), since it is slow by design; on
that sample both are timed ``REPEATS`` times per quote and the best kept, so that the ratio
compares the two methods rather than the moments the shared machine was busy, in ``ROUNDS``
alternating rounds whose median ratio is reported (with every round's). Last, a quote
that stands 10,000 times on one page: every place counted, the first 500 checked for context.
"""

from __future__ import annotations

import gc
import statistics
import time

from core.match import match_quote, prepare
from core.match.matcher import _parts
from core.models import PageKind, PageText
from core.text.normalise import normalise
from tests.bench.run import best_of
from tests.quality.eval_match import cases, prepared

BASELINE_EVERY = 40
REPEATS = 5
ROUNDS = 3  # alternating rounds of baseline and ours; the median ratio is reported


def _naive(quote: str, text: str) -> bool:
    return normalise(quote).text in normalise(text).text


def _naive_places(quote: str, text: str) -> int:
    """Count a quote's places as a naive checker would: normalise the page, find each, look before it for "not"."""
    page, q = normalise(text).text, normalise(quote).text
    places, at = 0, page.find(q)
    while at >= 0:
        places += 1
        _ = "not" in page[max(0, at - 30) : at].split()
        at = page.find(q, at + 1)
    return places


def _many_places() -> str:
    """Return the line for a quote standing 10,000 times on one page: ours (counted, checked) against naive."""
    sentence = "This is an experimental feature and therefore is not enabled by default."
    page = PageText(text="\n".join([sentence] * 10_000), kind=PageKind.TEXT)
    prepared_page = prepare(page)
    quote = "an experimental feature and therefore"
    m = match_quote(quote, prepared_page)
    ours = best_of(lambda: match_quote(quote, prepared_page), REPEATS, _parts.cache_clear)
    naive = best_of(lambda: _naive_places(quote, page.text), REPEATS)
    ms = 1000
    return (
        f"a quote standing {m.occurrence_count:,} times ({len(m.occurrences)} checked for context): "
        f"{ours * ms:.1f} ms, naive normalise + find each + look for 'not' {naive * ms:.1f} ms "
        f"({naive / ours:.1f}x; bounded: the page's places past the limit are only counted)"
    )


def run() -> list[str]:
    """Return result lines: per-quote times, the baseline's, and their ratio."""
    items = []
    for case in cases():
        page = prepared(case.name, case.html)
        items.extend((page, q) for q in case.quotes)
    ours: list[float] = []
    for page, q in items:
        _parts.cache_clear()  # each quote tokenised from scratch, as a first check does
        t0 = time.perf_counter()
        match_quote(q, page)
        ours.append(time.perf_counter() - t0)
    sample = items[::BASELINE_EVERY]
    # Alternating rounds, each timing the baseline and then ours on the sample: the ratio of one
    # round swings with what else the shared machine runs, the median of the rounds far less.
    rounds: list[tuple[float, float]] = []
    for _ in range(ROUNDS):
        naive: list[float] = []
        ours_sample: list[float] = []
        gc.collect()
        for page, q in sample:
            naive.append(best_of(lambda page=page, q=q: _naive(q, page.page.text), REPEATS))
        gc.collect()  # the naive pass leaves megabytes of garbage; do not bill its collection to ours
        for page, q in sample:
            ours_sample.append(best_of(lambda page=page, q=q: match_quote(q, page), REPEATS, _parts.cache_clear))
        rounds.append((statistics.median(naive), statistics.median(ours_sample)))
    ratios = sorted(n / o for n, o in rounds)
    naive_ms = statistics.median(n for n, _ in rounds)
    ours_ms = statistics.median(o for _, o in rounds)
    largest = max((p for p, _ in items), key=lambda p: len(p.page.text))
    t0 = time.perf_counter()
    prepare(largest.page)
    prep = time.perf_counter() - t0
    t0 = time.perf_counter()
    normalise(largest.page.text)
    norm = time.perf_counter() - t0
    ms = 1000
    ratio = statistics.median(ratios)
    return [
        f"quotes matched: {len(items)} on {len({id(p) for p, _ in items})} prepared pages",
        f"match_quote median {statistics.median(ours) * ms:.3f} ms, p95 "
        f"{statistics.quantiles(ours, n=20)[-1] * ms:.3f} ms, total {sum(ours):.2f} s (target: median <= 1 ms)",
        f"baseline (normalise page + substring per quote) median {naive_ms * ms:.2f} ms "
        f"on {len(sample)} quotes; ours on the same quotes {ours_ms * ms:.3f} ms: "
        f"{ratio:.0f}x faster (target: >= 20x; median of {ROUNDS} alternating rounds: "
        f"{', '.join(f'{r:.0f}x' for r in ratios)})",
        f"prepare() of the largest page ({len(largest.page.text):,} characters) {prep * ms:.0f} ms "
        f"= {prep / norm:.1f}x one normalise() of it ({norm * ms:.0f} ms), paid once per page",
        _many_places(),
    ]
