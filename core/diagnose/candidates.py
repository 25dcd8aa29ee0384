"""Passages the editor may adopt for a claim without a quote, and where a claim's figure stands.

``candidates`` ranks the page's sentences for a claim's text (those holding the claim's figures
first) and returns each copied exactly from the page text, so that an adopted passage goes
through the exact matcher and the figures check like any other quote. ``locate_figure`` and
``figures_near_miss`` say where on the page a figure missing from the quote does appear.
Like all of the diagnosis, this module explains and refuses to decide: a candidate is an
offer, never a verified quote.
"""

from __future__ import annotations

from core.diagnose.page_index import PageIndex, Prepared, page_index
from core.diagnose.rank import rank
from core.diagnose.words import Words, has_digit, quote_words
from core.models import Candidate, FigureCheck, NearMiss, Span
from core.settings import Settings


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


def candidates(
    claim_text: str, prepared: Prepared, settings: Settings | None = None, n: int = 3
) -> tuple[Candidate, ...]:
    """Return up to n passages of the page best holding the claim (core.diagnose.rank); () when none shares a word."""
    found, _ = rank(claim_text, prepared, settings or Settings(), n)
    return found


def _trim(index: PageIndex, s: int, e: int, limit: int) -> tuple[int, int]:
    """Return a sentence span cut to at most limit characters, on whole words, from its start."""
    if e - s <= limit:
        return s, e
    w = index.words(s, s + limit)
    return (w.starts[0], w.ends[-1]) if w.keys else (s, e)
