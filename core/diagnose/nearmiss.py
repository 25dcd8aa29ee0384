"""Near-miss diagnosis: where and how a quote drifted from its page.

For a quote the exact matcher did not find, ``diagnose`` returns the page's own closest
passage (snapped to whole words, in the page's original characters, with its similarity and
its PDF page), a word diff with each difference named (``core.diagnose.diff``), and whether the
quote is word for word on another source of the same brief (misattribution). For a quote that
was found but cut, it names the words cut away; for a figures mismatch, where on the page the
claim's figure does appear. ``candidates`` offers passages for a claim without a quote
(``core.diagnose.candidates``).

It explains and never decides: it returns a NearMiss only, never a verdict or a QuoteMatch, and
it never changes the match it is given (DESIGN.md, principle 1). Its work is bounded by
``Settings.diagnose_budget_seconds``; past it, or when nothing is close, it says "no close
passage" rather than hold the review up.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping

from core.diagnose.candidates import candidates, figures_near_miss, locate_figure, passage_candidate
from core.diagnose.diff import Show, describe, word_diff
from core.diagnose.page_index import PageIndex, page_index
from core.diagnose.search import Passage, closest_passage
from core.diagnose.words import Words, count_words, quote_words
from core.match import PreparedPage, match_quote
from core.models import Candidate, DiffKind, DiffOp, FigureCheck, FlagKind, Fragment, NearMiss, QuoteMatch
from core.settings import Settings
from core.text import Normalised

__all__ = ["candidates", "diagnose", "figures_near_miss", "locate_figure", "misattributed"]

#: The context flags that name page words the quote cut away.
_CUTS = frozenset({FlagKind.NEGATION_CUT, FlagKind.CONDITION_CUT, FlagKind.HEDGE_CUT})


def _pct(score: float) -> str:
    return f"{score:.0f}%"


def _where(c: Candidate) -> str:
    return f"page {c.page}" if c.page is not None else f"at character {c.start:,}"


def _found_elsewhere(
    quote: str, prepared: PreparedPage, others: Mapping[str, PreparedPage], settings: Settings
) -> tuple[int, str] | None:
    """Return (1-based number, URL) of the first other source holding the quote verbatim."""
    # The exact matcher alone may say "verbatim"; it is fast, so the time budget does not cut it.
    for n, (url, other) in enumerate(others.items(), start=1):
        if other is not prepared and match_quote(quote, other, settings).found:
            return n, url
    return None


def _diagnose_text(
    text: str, index: PageIndex, settings: Settings, deadline: float
) -> tuple[Candidate | None, tuple[DiffOp, ...], str]:
    """Return the closest passage to one quote text, its named diff, and a sentence about it."""
    qn, q, q_breaks = quote_words(text)
    if not q.keys:
        return None, (), "No close passage: the quote has no words to look for."
    if len(q) > settings.diagnose_max_quote_words:
        return (
            None,
            (),
            (
                f"No close passage searched: the quote has {len(q):,} words, more than the "
                f"{settings.diagnose_max_quote_words:,} the diagnosis compares; check it against the page by hand."
            ),
        )
    found = closest_passage(qn.text, q, index, settings, deadline)
    late = time.monotonic() > deadline
    if found is None or found.score < settings.near_miss_min_score:
        if late:
            return (
                None,
                (),
                (
                    f"No close passage found within the diagnosis time limit ({settings.diagnose_budget_seconds:g} s): "
                    "the page or the quote is too large to search in full; look for the words on the page by hand."
                ),
            )
        best = f" (the best shares only {_pct(found.score)} of its words)" if found else ""
        return (
            None,
            (),
            (
                f"No close passage: nothing on the page comes near the quote{best}. The quote may come from "
                "another page, be paraphrased or be invented."
            ),
        )
    passage = found.region.cut(found.lo, found.hi)
    candidate = passage_candidate(index, found.start, found.end, found.score)
    ops = word_diff(q, passage, q_breaks, index.breaks(passage), _shower(text, qn, q), _page_shower(index, passage))
    candidate, ops = _far_splice(qn, q, candidate, ops, found, index, settings, deadline)
    return candidate, ops, ""


def _shower(original: str, norm: Normalised, w: Words) -> Show:
    def show(a: int, b: int) -> str:
        if b <= a:
            return ""
        s, e = norm.original_span(w.starts[a], w.ends[b - 1])
        return original[s:e]

    return show


def _page_shower(index: PageIndex, w: Words) -> Show:
    def show(a: int, b: int) -> str:
        if b <= a:
            return ""
        s, e = index.orig_span(w.starts[a], w.ends[b - 1])
        return index.page.text[s:e]

    return show


def _far_splice(
    qn: Normalised,
    q: Words,
    candidate: Candidate,
    ops: tuple[DiffOp, ...],
    found: Passage,
    index: PageIndex,
    settings: Settings,
    deadline: float,
) -> tuple[Candidate, tuple[DiffOp, ...]]:
    """Return the passage and diff with a "spliced" op when the quote's head or tail stands elsewhere."""
    named = (
        DiffKind.WORD_ADDED,
        DiffKind.NEGATION_ADDED,
        DiffKind.WORD_REPLACED,
        DiffKind.NEGATION_DROPPED,
        DiffKind.FIGURE_CHANGED,
    )
    for at_end in (True, False):
        op = ops[-1] if at_end else ops[0]
        if op.kind not in named or not op.quote_words:
            continue
        run = count_words(op.quote_words)
        if run < max(settings.splice_min_words, len(q) // 4) or run >= len(q):
            continue
        part = q.cut(len(q) - run, len(q)) if at_end else q.cut(0, run)
        other = closest_passage(qn.text, part, index, settings, deadline, exclude=(found.start, found.end))
        # Words the quote replaced need strong evidence before they count as taken from elsewhere.
        wanted = settings.splice_min_score if op.page_words else settings.near_miss_min_score
        if other is None or other.score < wanted:
            continue
        far = passage_candidate(index, other.start, other.end, other.score)
        spliced = DiffOp(kind=DiffKind.SPLICED, quote_words=op.quote_words, page_words=far.text)
        kept = [o for o in ops if o.kind is DiffKind.EQUAL]
        if op.page_words and kept:
            # The page words the quote did not take are no part of the closest passage.
            text = candidate.text
            if at_end:
                cut = text.rfind(kept[-1].page_words) + len(kept[-1].page_words)
                candidate = dataclasses.replace(candidate, text=text[:cut], end=candidate.start + cut)
            else:
                cut = text.find(kept[0].page_words)
                candidate = dataclasses.replace(candidate, text=text[cut:], start=candidate.start + cut)
        return candidate, ((*ops[:-1], spliced) if at_end else (spliced, *ops[1:]))
    return candidate, ops


def _found(
    quote: str,
    match: QuoteMatch,
    index: PageIndex,
    figures: FigureCheck | None,
    prepared: PreparedPage,
    settings: Settings,
) -> NearMiss:
    """Return the diagnosis of a quote the matcher found: words cut away, figures elsewhere."""
    spans = [f.span for f in match.fragments if f.span is not None]
    passage = None
    if spans:
        s, e = min(a for a, _ in spans), max(b for _, b in spans)
        passage = Candidate(text=index.page.text[s:e], start=s, end=e, score=100.0, page=index.page_of(s))
    cuts = [f for f in match.blocking if f.kind in _CUTS]
    if cuts and passage is not None:
        text = index.page.text
        before: list[DiffOp] = []
        after: list[DiffOp] = []
        for f in cuts:
            # The words cut are the flag's page words outside the quote's own span.
            if f.span is not None and f.span[0] < passage.start:
                cut = text[f.span[0] : passage.start].strip() or f.page_words
                before.append(DiffOp(kind=DiffKind.CUT_AWAY, page_words=cut))
            elif f.span is not None and f.span[1] > passage.end:
                cut = text[passage.end : f.span[1]].strip() or f.page_words
                after.append(DiffOp(kind=DiffKind.CUT_AWAY, page_words=cut))
            else:
                before.append(DiffOp(kind=DiffKind.CUT_AWAY, page_words=f.page_words))
        diff = (*before, DiffOp(kind=DiffKind.EQUAL, quote_words=quote, page_words=passage.text), *after)
        said = "; ".join(describe(op).replace("the quote ", "it ", 1) for op in diff if op.kind is DiffKind.CUT_AWAY)
        messages = " ".join(f.message for f in cuts)
        summary = f"The quote is on the page word for word, but {said}. {messages}"
        return NearMiss(summary=summary, passage=passage, diff=diff)
    if figures is not None and figures.missing:
        near = figures_near_miss(figures, prepared, settings)
        if near is not None:
            return near
    if match.too_short:
        return NearMiss(
            summary="The quote is on the page, but it is too short to show what the page says.", passage=passage
        )
    return NearMiss(summary="The quote is on the page word for word; there is no drift to show.", passage=passage)


def diagnose(
    quote: str,
    prepared: PreparedPage,
    match: QuoteMatch,
    others: Mapping[str, PreparedPage],
    settings: Settings | None = None,
    *,
    figures: FigureCheck | None = None,
) -> NearMiss:
    """Return the diagnosis of a quote against its page; "no close passage" when nothing is near.

    ``others`` are the brief's sources (URL -> prepared page) in brief order; the claim's own
    page may be among them and is skipped, and "source N" counts them from 1. ``figures``, when
    given, lets a figures mismatch say where the claim's figure appears on the page.
    """
    settings = settings or Settings()
    deadline = time.monotonic() + settings.diagnose_budget_seconds
    index = page_index(prepared)
    if match.found:
        return _found(quote, match, index, figures, prepared, settings)
    failing = [f for f in match.fragments if not f.found] or [Fragment(text=quote, found=False)]
    text = failing[0].text
    candidate, diff, note = _diagnose_text(text, index, settings, deadline)
    elsewhere = _found_elsewhere(quote, prepared, others, settings)
    parts: list[str] = []
    if len(match.fragments) > 1:
        k = match.fragments.index(failing[0]) + 1
        parts.append(
            f"Part {k} of the quote's {len(match.fragments)} parts (split at the ellipses) is not on the page."
        )
    if candidate is None:
        parts.append(note)
    else:
        named = [describe(op) for op in diff if op.kind is not DiffKind.EQUAL]
        shown = "; ".join(named[:3]) + ("; and more" if len(named) > 3 else "")
        head = (
            "The quote differs from the page by typography only"
            if diff and diff[0].kind is DiffKind.TYPOGRAPHY_ONLY
            else "Not on the page as quoted"
        )
        parts.append(f"{head}. Closest passage ({_where(candidate)}, {_pct(candidate.score)} similar): {shown}.")
    near = NearMiss(summary=" ".join(parts), passage=candidate, diff=diff)
    return misattributed(near, *elsewhere) if elsewhere else near


def misattributed(near: NearMiss, n: int, url: str) -> NearMiss:
    """Return the diagnosis saying first that source n of the brief (at url) holds the quote verbatim."""
    note = (
        f"Found verbatim in source {n} of this brief ({url}), not on the source this claim cites: "
        "it is still not verified for this claim; cite that source if it supports the claim."
    )
    return dataclasses.replace(near, summary=f"{note} {near.summary}".strip(), found_in_source=url)
