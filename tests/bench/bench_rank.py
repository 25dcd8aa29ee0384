"""Benchmark: ranking one unquoted claim's evidence on a 1 MB page, against a plain BM25 over the page's sentences.

The page is the extracted text of real aeb news pages joined until it holds 1,000,000
characters (bench_diagnose's page). The claims are 40 sentences of that page, each with every
third word dropped and a figure's neighbour kept, so that they read like a paraphrase with
the page's words. ``core.diagnose.rank.rank`` is timed per claim (median, 90th percentile,
maximum) on the prepared page, its sentence index built by a first untimed call, as in a check
of a brief where the page is prepared once.

The baseline is plain Okapi BM25 (k1 1.2, b 0.75) over the same sentences and the same
tokens (the matcher's), its index (each sentence's term counts, each term's document
frequency) built once ahead of the timing, scoring every sentence that holds a query word:
no stems, no figures, no passages of two sentences, no held and lacked terms. The ratio is
the ranking's median time over the baseline's.
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
import time
from collections import Counter

from core.diagnose.rank import rank
from core.diagnose.terms import STOPWORDS
from core.diagnose.words import quote_words
from core.match import PreparedPage, prepare
from core.settings import Settings
from tests.bench.bench_diagnose import PAGE_CHARS, _page

CLAIMS = 40


class PlainBM25:
    """Okapi BM25 over a prepared page's sentences (the baseline). Not a dataclass: an index built once."""

    def __init__(self, prepared: PreparedPage) -> None:
        n = len(prepared.words)
        bounds = [0, *(k for k in prepared.break_list if 0 < k < n), n]
        self.docs = [Counter(prepared.words[a:b]) for a, b in itertools.pairwise(bounds)]
        self.lengths = [b - a for a, b in itertools.pairwise(bounds)]
        self.avgdl = n / max(len(self.docs), 1)
        self.df: Counter[str] = Counter()
        self.postings: dict[str, list[int]] = {}
        for j, doc in enumerate(self.docs):
            self.df.update(doc.keys())
            for k in doc:
                self.postings.setdefault(k, []).append(j)

    def top(self, query: list[str], n: int = 3) -> list[int]:
        total = len(self.docs)
        scores: dict[int, float] = {}
        for k in set(query):
            df = self.df.get(k, 0)
            if not df:
                continue
            idf = math.log(1 + (total - df + 0.5) / (df + 0.5))
            for j in self.postings[k]:
                tf = self.docs[j][k]
                norm = 1.2 * (1 - 0.75 + 0.75 * self.lengths[j] / self.avgdl)
                scores[j] = scores.get(j, 0.0) + idf * tf * 2.2 / (tf + norm)
        return sorted(scores, key=lambda j: -scores[j])[:n]


def _claims(prepared: PreparedPage, rng: random.Random) -> list[str]:
    n = len(prepared.words)
    bounds = [0, *(k for k in prepared.break_list if 0 < k < n), n]
    sentences = [(a, b) for a, b in itertools.pairwise(bounds) if 12 <= b - a <= 40]
    out = []
    for a, b in rng.sample(sentences, CLAIMS):
        text = prepared.page.text[prepared.ostarts[a] : prepared.oends[b - 1]]
        words = text.split()
        out.append(" ".join(w for i, w in enumerate(words) if i % 3 != 2 or any(c.isdigit() for c in w)))
    return out


def run() -> list[str]:
    settings = Settings()
    prepared = prepare(_page(PAGE_CHARS))
    claims = _claims(prepared, random.Random(20261202))
    rank(claims[0], prepared, settings)  # the page's sentence index, built once per page
    times = []
    for claim in claims:
        started = time.perf_counter()
        rank(claim, prepared, settings)
        times.append(time.perf_counter() - started)
    plain = PlainBM25(prepared)
    queries = [[k for k in quote_words(c)[1].keys if k not in STOPWORDS] for c in claims]
    base = []
    for q in queries:
        started = time.perf_counter()
        plain.top(q)
        base.append(time.perf_counter() - started)
    ours, theirs = statistics.median(times), statistics.median(base)
    p90 = sorted(times)[int(0.9 * len(times)) - 1]
    return [
        f"rank one claim on a {len(prepared.page.text) / 1e6:.1f} MB page ({len(plain.docs):,} sentences):"
        f" median {ours * 1000:.1f} ms, p90 {p90 * 1000:.1f} ms, max {max(times) * 1000:.1f} ms;"
        f" plain BM25 over the same sentences median {theirs * 1000:.1f} ms; ratio {ours / theirs:.1f}x",
    ]
