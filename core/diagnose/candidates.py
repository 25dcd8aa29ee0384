"""Passages the editor may adopt for a claim without a quote, and where a claim's figure stands.

``candidates`` ranks the page's sentences for a claim's text (those holding the claim's figures
first) and returns each copied exactly from the page text, so that an adopted passage goes
through the exact matcher and the figures check like any other quote. ``locate_figure`` and
``figures_near_miss`` say where on the page a figure missing from the quote does appear.
Like all of the diagnosis, this module explains and refuses to decide: a candidate is an
offer, never a verified quote.
"""

from __future__ import annotations

import math
import time

from core.diagnose.page_index import PageIndex, Prepared, page_index
from core.diagnose.words import Words, has_digit, quote_words
from core.models import Candidate, FigureCheck, NearMiss, Span
from core.settings import Settings

# Words too common to tell one sentence from another.
_STOP = """
    a an the and or but if of to in on at by for with from as is are was were be been being it its
    this that these those there their they them he she his her we our you your i not no so than then
    into over under about after before between during has have had do does did can could will would
    should may might must also which who whom whose what when where why how all any each more most
    other some such only own same very just up out off per
"""
STOPWORDS = frozenset(_STOP.split())


def passage_candidate(index: PageIndex, nstart: int, nend: int, score: float) -> Candidate:
    """Return the page's original text for normalised span [nstart, nend) as a Candidate."""
    s, e = index.orig_span(nstart, nend)
    return Candidate(text=index.page.text[s:e], start=s, end=e, score=round(score, 1), page=index.page_of(s))


def _figure_keys(w: Words) -> set[str]:
    """Return the figures of some words, "25 %", "25 percent" and "25 per cent" read as "25%"."""
    out: set[str] = set()
    for i, k in enumerate(w.keys):
        if not has_digit(k):
            continue
        out.add(k)
        nxt = w.keys[i + 1 : i + 3]
        if nxt[:1] in (("%",), ("percent",)) or nxt == ("per", "cent"):
            out.add(k + "%")
    return out


def _surfaces(figure: str) -> list[str]:
    """Return the normalised spellings a figure may have on a page."""
    norm, w, _ = quote_words(figure)
    out = [norm.text.strip()]
    if w.keys[1:] == ("%",) and has_digit(w.keys[0]):
        digits = w.keys[0]
        out += [digits + "%", digits + " %", digits + " percent", digits + " per cent"]
    if len(w) == 1 and w.keys[0].isdigit() and len(w.keys[0]) >= 4:
        out.append(f"{int(w.keys[0]):,}")
    return list(dict.fromkeys(out))


def locate_figure(text: str, prepared: Prepared, settings: Settings | None = None) -> tuple[Span, ...]:
    """Return the spans in page.text where a figure appears (its usual spellings), () when nowhere."""
    settings = settings or Settings()
    index = page_index(prepared)
    spans: set[Span] = set()
    for surface in _surfaces(text):
        hits = index.find_all(surface, settings.candidate_max_hits) or []
        spans.update(index.orig_span(p, p + len(surface)) for p in hits)
    return tuple(sorted(spans))


def figures_near_miss(figures: FigureCheck, prepared: Prepared, settings: Settings | None = None) -> NearMiss | None:
    """Return where on the page each figure missing from the quote appears; None when none is missing."""
    settings = settings or Settings()
    if not figures.missing:
        return None
    index = page_index(prepared)
    said: list[str] = []
    found: list[Candidate] = []
    for f in figures.missing:
        spans = f.elsewhere or locate_figure(f.text, prepared, settings)
        if not spans:
            said.append(f"The claim's figure “{f.text}” is not in the quote and appears nowhere on the page.")
            continue
        here = []
        for s, _ in spans[:3]:
            a, b = index.sentence(index.to_norm(s), settings.sentence_max_chars)
            here.append(passage_candidate(index, a, b, 100.0))
        times = "once" if len(spans) == 1 else f"{len(spans)} times"
        where = f"page {here[0].page}" if here[0].page is not None else f"at character {here[0].start:,}"
        said.append(
            f"The claim's figure “{f.text}” is not in the quote, but the page has it {times}; "
            f"first {where}: “{here[0].text}”."
        )
        found += here
    return NearMiss(summary=" ".join(said), passage=found[0] if found else None, candidates=tuple(found))


def _terms(claim: str) -> list[tuple[str, str]]:
    """Return (key, normalised surface) of the claim's telling words, figures and longer words first."""
    norm, w, _ = quote_words(claim)
    seen: dict[str, str] = {}
    for i, k in enumerate(w.keys):
        end = w.ends[i]
        if has_digit(k) and w.keys[i + 1 : i + 2] == ("%",):
            k, end = k + "%", w.ends[i + 1]  # "25%" is the figure, not "25"
        elif not has_digit(k) and (len(k) < 3 or k in STOPWORDS):
            continue
        seen.setdefault(k, norm.text[w.starts[i] : end])
    return sorted(seen.items(), key=lambda kv: (not has_digit(kv[0]), -len(kv[0])))


def candidates(
    claim_text: str, prepared: Prepared, settings: Settings | None = None, n: int = 3
) -> tuple[Candidate, ...]:
    """Return up to n sentences of the page closest to the claim (figures first); () when none shares a word."""
    settings = settings or Settings()
    deadline = time.monotonic() + settings.diagnose_budget_seconds
    index = page_index(prepared)
    terms = _terms(claim_text)[: settings.candidate_max_terms]
    figures = {k for k, _ in terms if has_digit(k)}
    hits: list[tuple[int, str]] = []
    weights: dict[str, float] = {}
    for k, surface in terms:
        if time.monotonic() > deadline:
            break
        found = index.find_all(surface, settings.candidate_max_hits)
        # A word found on every other line tells nothing; a rare one tells a lot.
        weights[k] = 1.0 / math.log2(2 + len(found)) if found is not None else 0.05
        hits += [(p, k) for p in found or ()]
    total = sum(weights.values()) or 1.0
    hits.sort()
    spans: dict[tuple[int, int], set[str]] = {}
    span = (0, 0)  # the sentence of the last hit; empty before the first
    for p, k in hits:
        if not span[0] <= p < span[1]:
            if time.monotonic() > deadline:
                break
            span = index.sentence(p, settings.sentence_max_chars)
            if span[1] <= span[0]:
                continue
        spans.setdefault(span, set()).add(k)
    scored = {span: 100.0 * sum(weights[k] for k in held) / total for span, held in spans.items()}
    # Figures come first among sentences that are close at all: a heading holding only "3.13"
    # is no candidate for a claim about 3.13's free-threaded mode.
    floor = max(scored.values(), default=0.0) * settings.candidate_relative_floor
    ranked = []
    for (s, e), score in scored.items():
        if score < floor:
            continue
        group = 0
        if figures:
            present = figures & _figure_keys(index.words(s, e)) if spans[(s, e)] & figures else set()
            group = 0 if present == figures else 1 if present else 2
        ranked.append((group, -score, s, e))
    ranked.sort()
    out: list[Candidate] = []
    seen: set[str] = set()
    for _, neg, s, e in ranked:
        s, e = _trim(index, s, e, settings.candidate_max_chars)
        c = passage_candidate(index, s, e, -neg)
        # The same words in a table of contents and in the text are one offer, not two.
        if " ".join(c.text.split()).lower() in seen:
            continue
        seen.add(" ".join(c.text.split()).lower())
        out.append(c)
        if len(out) >= n:
            break
    return tuple(out)


def _trim(index: PageIndex, s: int, e: int, limit: int) -> tuple[int, int]:
    """Return a sentence span cut to at most limit characters, on whole words, from its start."""
    if e - s <= limit:
        return s, e
    w = index.words(s, s + limit)
    return (w.starts[0], w.ends[-1]) if w.keys else (s, e)
