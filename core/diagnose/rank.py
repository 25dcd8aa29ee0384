"""The evidence for a claim without a quote, best first: a page's passages ranked by BM25 and the claim's figures.

A passage is a sentence of the page, or two or three consecutive sentences of one block when
each of them holds something of the claim the others lack (the claim rests on them together).
Sentences are the matcher's own (``core.text``'s tokens and breaks, read from the prepared
page), so an offered passage is copied exactly from the page text and, adopted, goes through
the exact matcher like any quote. Scores are Okapi BM25 (each sentence a document, the claim's
telling terms the query, IDF over the page's sentences, a word's other forms, its derivational
family and the page's abbreviations of it counted: ``core.diagnose.family``), and a
sentence holding a figure of the claim's kind near the claim's value is raised, and a sentence
is weighed by the section label it stands under (``core.diagnose.sections``: "RESULTS:" raised,
"BACKGROUND:" and "METHODS:" lowered). BM25 is our
own, over the matcher's postings: measured on the claims corpus (``make eval`` section
``claims``), rank_bm25 and bm25s over the same sentences put the evidence first for 79.9% and
87.4% of VitaminC's supported claims, this ranking for 93%, with no second tokeniser. Each
passage says which of the claim's words, names and figures it holds and lacks, as the claim
writes them, and where the held ones stand in the page text (``core.diagnose.offer``). The ranking offers; it never
decides a verdict.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import math
import time
import weakref
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from core.diagnose.anaphora import credit_references
from core.diagnose.closeness import closeness, counts_nothing
from core.diagnose.family import related_all
from core.diagnose.offer import asked, offer, place
from core.diagnose.page_index import Prepared, page_index, per_page
from core.diagnose.sections import opening_scene, section_kinds, voices
from core.diagnose.terms import Term, TermKind, claim_terms, telling
from core.diagnose.words import has_digit
from core.figures import ReadFigure, read_figures
from core.models import Candidate, FigureKind
from core.settings import Settings


@dataclass(frozen=True)
class _Sentences:
    """A page's sentences as token ranges, and the block edges among them."""

    bounds: tuple[int, ...]  # sentence j is tokens [bounds[j], bounds[j + 1])
    edges: frozenset[int]  # token indices a block edge precedes
    of: Sequence[int]  # the sentence of token i, so that a word's postings are counted by sentence without a search
    # The figures of sentence j, read once a page: the claims of one brief citing one page share its best sentences.
    figures: dict[int, tuple[ReadFigure, ...]] = field(default_factory=dict, compare=False)
    # Whether sentence j holds a number, told once a page.
    numbered: dict[int, bool] = field(default_factory=dict, compare=False)


# --------------------------------------------------------------------------- the page's sentences

_SENTENCES: dict[int, tuple[weakref.ref[Prepared], _Sentences]] = {}


def _sentences(prepared: Prepared) -> _Sentences:
    return per_page(_SENTENCES, prepared, lambda: _read_sentences(prepared))


def _read_sentences(prepared: Prepared) -> _Sentences:
    n = len(prepared.words)
    bounds = (0, *(k for k in prepared.break_list if 0 < k < n), n) if n else (0,)
    page, offsets, starts, ends = prepared.page, prepared.norm.offsets, prepared.starts, prepared.ends
    edges: set[int] = set()
    # Block edges as core.match.page.PreparedPage finds them: the extractor's blocks, else blank lines.
    for block in page.blocks:
        for x in block:
            edge = bisect.bisect_left(offsets, x)
            k = bisect.bisect_left(starts, edge)
            if 0 < k < n and ends[k - 1] <= edge:
                edges.add(k)
    if not page.blocks:
        at = page.text.find("\n\n")
        while at >= 0:
            k = bisect.bisect_left(starts, bisect.bisect_left(offsets, at))
            edges.add(k)
            at = page.text.find("\n\n", at + 2)
    of = list(itertools.chain.from_iterable(itertools.repeat(j, b - a) for j, (a, b) in enumerate(pairwise(bounds))))
    return _Sentences(bounds, frozenset(edges), of)


# --------------------------------------------------------------------------- ranking


@dataclass(frozen=True)
class _Unit:
    """A passage: sentences first..last (inclusive) and its score."""

    first: int
    last: int
    score: float


def _rank_tokens(terms: tuple[Term, ...], settings: Settings) -> dict[str, float]:
    """Return each telling token of the claim's terms with its weight: a figure's digits and a name weigh more.

    A name written as one word of letters and digits ("COVID-19", "SARS-CoV-2", read as a figure) is
    one term of several tokens: they share its weight, or a sentence saying "COVID-19" would count
    twice a sentence holding another word of the claim, and "SARS-CoV-2" three times.
    """
    out: dict[str, float] = {}
    for term in terms:
        for spelling in (term.keys, *term.options):
            told = [k for k in spelling if telling(k)]
            one = term.kind is TermKind.FIGURE and any(map(str.isalpha, told)) and not any(map(str.isspace, term.text))
            for k in told:
                weight = 1.0 / len(told) if one else 1.0
                if term.kind is TermKind.FIGURE and has_digit(k):
                    weight *= settings.rank_figure_weight
                elif term.kind is TermKind.NAME:
                    weight *= settings.rank_name_weight
                out[k] = max(out.get(k, 0.0), weight)
    return out


def rank(
    claim_text: str, prepared: Prepared, settings: Settings, n: int = 3
) -> tuple[tuple[Candidate, ...], tuple[Term, ...]]:
    """Return the page's best n passages for the claim, best first, and its terms; none when none shares a word."""
    deadline = time.monotonic() + settings.diagnose_budget_seconds
    terms = claim_terms(claim_text, settings)
    sents = _sentences(prepared)
    bounds = sents.bounds
    total = len(bounds) - 1
    if total <= 0 or not terms:
        return (), terms
    avgdl = max(len(prepared.words) / total, 1.0)
    post: Mapping[str, Sequence[int]] = prepared.postings
    of = sents.of
    # tf[j][t]: how often the claim's token t (or a word of its stem) stands in sentence j.
    tf: dict[int, dict[str, float]] = {}
    idf: dict[str, float] = {}
    dfs: dict[str, int] = {}
    relatives: dict[str, frozenset[str]] = {}  # the page words counted for each claim token, to mark what they hold
    tokens = _rank_tokens(terms, settings)
    # Another form of the word ("deaths" for "death"), a word of its family ("recovered" for "recoveries") and
    # an abbreviation the page defines for it ("VTE" for "thromboembolism") count less than the word itself.
    kins = related_all(tokens, tokens.keys(), prepared, settings)
    for k, weight in tokens.items():
        if time.monotonic() > deadline:
            break
        kin = {f: value for f, value in kins[k].items() if f in post}
        relatives[k] = frozenset(kin)
        lists = [(post[f], value) for f, value in kin.items()]
        if not lists or sum(len(p) for p, _ in lists) > settings.rank_max_hits:
            continue  # a word the page never holds, or one on every other line, tells nothing
        held: dict[int, float] = {}
        for places, value in lists:
            for j in map(of.__getitem__, places):
                held[j] = held.get(j, 0.0) + value
        df = dfs[k] = len(held)
        idf[k] = weight * math.log(1 + (total - df + 0.5) / (df + 0.5))
        for j, count in held.items():
            tf.setdefault(j, {})[k] = count
    if not tf and total > settings.rank_figure_alone_max_sentences:
        return (), terms

    def part(j: int) -> dict[str, float]:
        dl = bounds[j + 1] - bounds[j]
        norm = settings.rank_k1 * (1 - settings.rank_b + settings.rank_b * dl / avgdl)
        return {t: idf[t] * c * (settings.rank_k1 + 1) / (c + norm) for t, c in tf[j].items()}

    parts = {j: part(j) for j in tf}
    _by_section(parts, prepared, sents, settings)
    _near_figures(claim_text, parts, prepared, sents, idf, settings, deadline)
    credit_references(parts, prepared, sents.bounds, terms, (idf, dfs, avgdl), settings)
    if not parts:
        return (), terms
    units = [_Unit(j, j, sum(p.values())) for j, p in parts.items()]
    units += list(_windows(parts, sents, prepared, settings))
    units.sort(key=lambda u: (-u.score, u.first, u.last))
    best = units[0].score
    out: list[Candidate] = []
    used: list[tuple[int, int]] = []
    seen: set[str] = set()
    index = page_index(prepared)
    claim = asked(terms, relatives)
    for u in units:
        if len(out) >= n or u.score <= 0 or u.score < best * settings.rank_relative_floor:
            break
        if any(u.first <= b and a <= u.last for a, b in used):
            continue  # a sentence already offered, alone or in a longer passage
        limit = settings.rank_window_max_chars if u.last > u.first else settings.candidate_max_chars
        at = place(index, prepared, bounds[u.first], bounds[u.last + 1], claim, limit)
        # The same words in a table of contents and in the text are one offer, not two.
        said = " ".join(index.page.text[at.start : at.end].split()).lower()
        if said in seen:
            continue
        seen.add(said)
        used.append((u.first, u.last))
        out.append(offer(index, prepared, at, u.score, claim))
    return tuple(out), terms


def _by_section(parts: dict[int, dict[str, float]], prepared: Prepared, sents: _Sentences, settings: Settings) -> None:
    """Scale each sentence's score by its section's factor: findings raised, scene and methods lowered.

    A page without section labels is read for its authors' voice (``sections.voice``): a finding
    they report is raised less than one under "RESULTS:", and their opening scene lowered alike.
    """
    factor = {"scene": settings.rank_scene_factor, "method": settings.rank_method_factor}
    factor["finding"] = settings.rank_finding_factor
    bounds = sents.bounds
    kinds = section_kinds(prepared, bounds)  # a label may cover thousands of sentences: look up the few scored
    if kinds:
        for j in parts.keys() & kinds.keys():
            parts[j] = {t: v * factor[kinds[j]] for t, v in parts[j].items()}
        return
    factor["finding"] = settings.rank_voice_finding_factor
    voiced = voices(prepared, bounds, sents.of)
    scene = opening_scene(voiced, settings.rank_scene_opening_sentences)
    for j in parts:
        kind = "scene" if j in scene else voiced.get(j, "")
        if kind:
            parts[j] = {t: v * factor[kind] for t, v in parts[j].items()}


# Kinds of figure whose values compare: money with money, a share with a share.
_VALUED = frozenset({FigureKind.NUMBER, FigureKind.PERCENT, FigureKind.POINTS, FigureKind.MONEY, FigureKind.MULTIPLIER})


def _near_figures(
    claim_text: str,
    parts: dict[int, dict[str, float]],
    prepared: Prepared,
    sents: _Sentences,
    idf: Mapping[str, float],
    settings: Settings,
    deadline: float,
) -> None:
    """Add to the best sentences' scores for a figure of the claim's kind near its value.

    A claim's figure is often not written as the page writes it: hedged ("more than 7,200" for
    7,351; "less than $79 million" for "$77.6 million"), rounded, or a comparison the page's
    figure settles. Only the sentences BM25 ranks best are read for figures, so that a large
    page costs a few sentences' reading; a short page's numbered sentences are read whole.
    """
    text = claim_text[: settings.rank_claim_max_chars]
    wanted = [f for f in read_figures(text) if f.kind in _VALUED and f.value and not counts_nothing(text, f)]
    if not wanted:
        return
    worth = settings.rank_near_figure_weight * max(idf.values(), default=math.log(1 + len(sents.bounds) - 1))
    words, bounds = prepared.words, sents.bounds
    ranked = heapq.nlargest(settings.rank_best_sentences, parts, key=lambda j: sum(parts[j].values()))
    told = sents.numbered

    def holds_number(j: int) -> bool:
        said = told.get(j)
        if said is None:
            said = told[j] = any(map(has_digit, words[bounds[j] : bounds[j + 1]]))
        return said

    numbered = (j for j in ranked if holds_number(j))
    best = list(itertools.islice(numbered, settings.rank_figures_reread))
    # On a short page (an abstract, an article's few sentences), every sentence holding a number is read:
    # the evidence may share no word with the claim ("earned more than $70 million": "it grossed $77,527,732").
    total = len(bounds) - 1
    small = total <= settings.rank_figure_alone_max_sentences
    alone = {j for j in range(total) if j not in parts and holds_number(j)} if small else set()
    index = page_index(prepared)
    for j in best + sorted(alone):
        if time.monotonic() > deadline:
            return
        found = sents.figures.get(j)
        if found is None:
            s, e = index.orig_span(prepared.starts[bounds[j]], prepared.ends[bounds[j + 1] - 1])
            text = index.page.text[s:e][: settings.candidate_max_chars * 2]
            found = sents.figures[j] = tuple(f for f in read_figures(text) if f.value)
        share = settings.rank_figure_alone_share if j in alone else 1.0
        for n, claim in enumerate(wanted):
            close = max((closeness(claim, f, settings) for f in found), default=0.0)
            if close > 0:
                parts.setdefault(j, {})[f"#figure{n}"] = worth * close * share


def _windows(
    parts: dict[int, dict[str, float]], sents: _Sentences, prepared: Prepared, settings: Settings
) -> Iterator[_Unit]:
    """Yield passages of 2 or 3 consecutive sentences of one block, each holding a term the others lack."""
    bounds, edges, starts, ends = sents.bounds, sents.edges, prepared.starts, prepared.ends
    # Only passages around the best sentences: a common word's thousand sentences make no evidence.
    top = heapq.nlargest(settings.rank_best_sentences, parts, key=lambda j: sum(parts[j].values()))
    for j in sorted({k for t in top for k in range(t - settings.rank_window_sentences + 1, t + 1) if k in parts}):
        held = [set(parts[j])]
        # Each size adds one sentence to the one before: only the added sentence's edge, score and length are new.
        for size in range(2, settings.rank_window_sentences + 1):
            last = j + size - 1
            if last >= len(bounds) - 1 or bounds[last] in edges or last not in parts:
                break
            if ends[bounds[last + 1] - 1] - starts[bounds[j]] > settings.rank_window_max_chars:
                break
            held.append(set(parts[last]))
            if any(not (h - set().union(*(held[:i] + held[i + 1 :]))) for i, h in enumerate(held)):
                continue
            best: dict[str, float] = {}
            for k in range(j, last + 1):
                for t, v in parts[k].items():
                    best[t] = max(best.get(t, 0.0), v)
            yield _Unit(j, last, sum(best.values()) * settings.rank_window_factor ** (size - 1))
