"""Benchmark: diagnosing one failed quote on a 1 MB page, against scanning every window with partial_ratio.

The page is the extracted text of real aeb news pages joined until it holds 1,000,000
characters. The quotes are 40 sentences of that page, each with one word replaced, so that the
exact matcher fails them. The diagnosis is timed per quote (median, 90th percentile, maximum;
the page's small block index is built by the first call and reused, as in a check of a brief).

The baseline is the simple way: slide a window of twice the quote's length over the normalised
page, starting at every word, and keep the best ``rapidfuzz.fuzz.partial_ratio``. Scanning all
of a 1 MB page this way takes many seconds per quote, so the baseline is capped: it scores the
first BASELINE_WINDOWS windows of each of BASELINE_QUOTES quotes, and its time for the whole
page is that time scaled by (all windows / windows scored): a linear extrapolation, stated in
the output. The bad-input cases (a 20 MB page, a 5,000-word quote, another script) are timed
against the budget, which is the setting the diagnosis must stay within.
"""

from __future__ import annotations

import gzip
import random
import re
import statistics
import time

from rapidfuzz import fuzz

from core.diagnose import diagnose
from core.extract import extract_html
from core.match import match_quote, prepare
from core.models import Fragment, PageKind, PageText, QuoteMatch
from core.settings import Settings
from core.text.normalise import normalise
from tests.servers import CORPUS

PAGE_CHARS = 1_000_000
QUOTES = 40
BASELINE_QUOTES = 5
BASELINE_WINDOWS = 4000
_SENTENCE = re.compile(r"[A-Z][^.!?\n]{60,240}[.!?]")


def _page(chars: int) -> PageText:
    """Return real aeb page text joined to at least ``chars`` characters, one block per line."""
    parts: list[str] = []
    total = 0
    paths = sorted((CORPUS / "html" / "aeb" / "html").glob("*.html.gz"))
    while total < chars:
        for path in paths:
            text = extract_html(gzip.decompress(path.read_bytes())).text
            parts.append(text)
            total += len(text) + 1
            if total >= chars:
                break
    text = "\n".join(parts)
    blocks = tuple((m.start(), m.end()) for m in re.finditer(r"[^\n]+", text))
    return PageText(text=text, kind=PageKind.TEXT, blocks=blocks)


def _quotes(prepared, rng: random.Random) -> list[str]:  # type: ignore[no-untyped-def]
    text = prepared.page.text
    sentences = [m.group() for m in _SENTENCE.finditer(text) if text.count(m.group()) == 1]
    rng.shuffle(sentences)
    out = []
    for s in sentences:
        words = s.split()
        i = rng.randrange(2, len(words) - 2)
        quote = " ".join([*words[:i], "zebra", *words[i + 1 :]])
        if match_quote(s, prepared).found and not match_quote(quote, prepared).found:
            out.append(quote)
        if len(out) >= QUOTES:
            break
    return out


def _baseline(quote: str, page_norm: str) -> tuple[float, int, int]:
    """Return (seconds for the capped scan, windows scored, windows in the whole page)."""
    q = normalise(quote).text
    width = 2 * len(q)
    starts = [0] + [m.end() for m in re.finditer(r" ", page_norm)]
    started = time.perf_counter()
    best = 0.0
    for s in starts[:BASELINE_WINDOWS]:
        best = max(best, fuzz.partial_ratio(q, page_norm[s : s + width]))
    return time.perf_counter() - started, min(BASELINE_WINDOWS, len(starts)), len(starts)


def _timed(quote: str, prepared, settings: Settings) -> tuple[float, str]:  # type: ignore[no-untyped-def]
    match = QuoteMatch(quote=quote, fragments=(Fragment(text=quote, found=False),))
    started = time.perf_counter()
    near = diagnose(quote, prepared, match, {}, settings)
    return time.perf_counter() - started, near.summary


def run() -> list[str]:
    """Return the benchmark's lines: diagnosis times and the baseline ratio, then bad inputs."""
    settings = Settings()
    rng = random.Random(6)
    prepared = prepare(_page(PAGE_CHARS))
    quotes = _quotes(prepared, rng)
    times = []
    for q in quotes:
        match = match_quote(q, prepared)
        started = time.perf_counter()
        diagnose(q, prepared, match, {}, settings)
        times.append(time.perf_counter() - started)
    cold, warm = times[0], sorted(times[1:])
    median = statistics.median(warm)
    p90 = warm[int(0.9 * (len(warm) - 1))]
    scans = [_baseline(q, prepared.norm.text) for q in quotes[:BASELINE_QUOTES]]
    whole = statistics.median(t * total / scored for t, scored, total in scans)
    lines = [
        f"page: {len(prepared.page.text):,} characters of real aeb text; "
        f"{len(quotes)} failed quotes (one word replaced)",
        f"diagnose one failed quote: median {median * 1000:.1f} ms, p90 {p90 * 1000:.1f} ms, "
        f"max {warm[-1] * 1000:.1f} ms (first call {cold * 1000:.1f} ms, target median <= 50 ms)",
        f"baseline partial_ratio over every word-start window (2x quote length): {whole:.2f} s per quote, "
        f"extrapolated from {scans[0][1]:,} of {scans[0][2]:,} windows on {len(scans)} quotes",
        f"ratio: the diagnosis is {whole / median:,.0f}x faster than the baseline scan",
    ]
    # Bad input: a 20 MB page (prepared before the clock starts: the diagnosis reads the
    # matcher's own tokens and breaks, whose cost is the matcher's), a 5,000-word quote, another script.
    base = prepared.page.text
    big_text = "\n".join([base] * (20_000_000 // len(base) + 1))
    big = prepare(PageText(text=big_text, kind=PageKind.TEXT))
    words = [w for w in base.split() if "." not in w]
    cases = [
        ("20 MB page, failed quote", quotes[0], big),
        ("5,000-word quote, 1 MB page", " ".join(words[5000:10000]), prepared),
        ("1,500-word quote, 1 MB page", " ".join(words[5000:6500]), prepared),
        ("Arabic quote, 1 MB English page", "الرياضيات هي دراسة القياس والحساب والهندسة والمفاهيم الحديثة", prepared),
    ]
    for label, quote, page in cases:
        took, summary = _timed(quote, page, settings)
        lines.append(
            f"{label}: {took * 1000:.0f} ms against a budget of {settings.diagnose_budget_seconds * 1000:.0f} ms "
            f"({took / settings.diagnose_budget_seconds:.2f}x the budget): {summary[:70]}"
        )
    return lines


if __name__ == "__main__":
    for line in run():
        print(line)
