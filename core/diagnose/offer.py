"""A ranked passage as the editor is offered it: its page text, the claim's terms it holds and lacks, their marks.

``core.diagnose.rank`` ranks a page's sentences and passages for a claim without a quote; this
module turns one of them (tokens [lo, hi) of the prepared page) into a ``Candidate``: the page
text copied exactly (cut around the claim's terms when long), which of the claim's words, names
and figures it holds and lacks as the claim writes them, and where the held ones stand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass

from core.diagnose.page_index import PageIndex, Prepared
from core.diagnose.terms import Term, TermKind, stem, telling
from core.models import Candidate, Span, Terms

_Keys = tuple[tuple[str, str], ...]  # a spelling's telling tokens (all of them when none tells), each with its stem


@dataclass(frozen=True)
class Asked:
    """A claim's terms as passages are read for them, each spelling's keys and stems worked out once a claim.

    ``relatives`` are the page words counted for each claim token (``family.related``), ``spellings``
    each term's spellings (its keys, then its options) as (token, "~" + stem) pairs, ``keys`` every
    token of every term, looked for when a long sentence is cut.
    """

    terms: tuple[Term, ...]
    relatives: Mapping[str, frozenset[str]]
    spellings: tuple[tuple[_Keys, ...], ...]
    keys: frozenset[str]
    marks: tuple[tuple[frozenset[str], ...], ...]  # each spelling's tokens and stems, marked where it is held


def asked(terms: tuple[Term, ...], relatives: Mapping[str, frozenset[str]]) -> Asked:
    """Return the claim's terms and relatives as passages are read for them."""

    def told(spelling: tuple[str, ...]) -> _Keys:
        wanted = [k for k in spelling if telling(k)] or list(spelling)
        return tuple((k, "~" + stem(k)) for k in dict.fromkeys(wanted))

    spellings = tuple(tuple(told(sp) for sp in (t.keys, *t.options)) for t in terms)
    keys = frozenset(k for t in terms for spelling in (t.keys, *t.options) for k in spelling)
    marks = tuple(tuple(frozenset(k for pair in sp for k in pair) for sp in t) for t in spellings)
    return Asked(terms, relatives, spellings, keys, marks)


@dataclass(frozen=True)
class Placed:
    """Where a ranked passage is offered: its tokens [lo, hi) (cut when long) and its page text [start, end)."""

    lo: int
    hi: int
    start: int
    end: int


def place(index: PageIndex, prepared: Prepared, lo: int, hi: int, claim: Asked, limit: int) -> Placed:
    """Return where a passage of tokens [lo, hi) is offered: cut around the claim's terms when long, its marks kept.

    Worked out before the passage is read for the claim's terms, so that a passage whose words were
    offered already (a table of contents repeating a heading) costs no reading.
    """
    starts, ends = prepared.starts, prepared.ends
    if ends[hi - 1] - starts[lo] > limit:
        lo, hi = _cut(prepared, lo, hi, claim.keys, limit)
    s, e = index.orig_span(starts[lo], ends[hi - 1])
    # The sentence's own closing marks ("." or ".)") belong to it; the next token or a space ends them.
    text = index.page.text
    stop = index.orig(starts[hi]) if hi < len(starts) else len(text)
    while e < stop and not text[e].isspace() and e - s < limit + 4:
        e += 1
    return Placed(lo, hi, s, e)


def offer(index: PageIndex, prepared: Prepared, at: Placed, score: float, claim: Asked) -> Candidate:
    """Return a placed passage's page text, the claim's terms it holds and lacks, and where they stand.

    A term written through the page words ranked for it (``family.related``: "VTE" for "venous
    thromboembolism", "favorable" for "favourable") is held, and those words are marked.
    """
    relatives = claim.relatives
    inside = prepared.words[at.lo : at.hi]
    holds: dict[TermKind, list[str]] = {k: [] for k in TermKind}
    lacks: dict[TermKind, list[str]] = {k: [] for k in TermKind}
    stems = {k: "~" + stem(k) for k in set(inside)}  # each distinct word's stem, once
    present = stems.keys() | stems.values()
    wanted: list[Set[str]] = []  # each held term's words and stems, marked in the passage
    none: frozenset[str] = frozenset()
    for term, spellings, marks in zip(claim.terms, claim.spellings, claim.marks, strict=True):
        # A term is held when the passage holds each of its telling words, in any order ("10 March
        # 2020" holds "March 10, 2020"; "Wuhan Jinyintan Hospital" holds "Wuhan Hospital").
        found = next((i for i, sp in enumerate(spellings) if _held(sp, present)), -1)
        if found >= 0:
            holds[term.kind].append(term.text)
            wanted.append(marks[found])
            continue
        found = next((i for i, sp in enumerate(spellings) if _held(sp, present, relatives)), -1)
        if found < 0:
            lacks[term.kind].append(term.text)
            continue
        holds[term.kind].append(term.text)
        kin = {f for k, _ in spellings[found] for f in relatives.get(k, none) if f in present}
        wanted.append(marks[found] | kin)
    return Candidate(
        text=index.page.text[at.start : at.end],
        start=at.start,
        end=at.end,
        score=round(score, 1),
        page=index.page_of(at.start),
        holds=_terms_of(holds),
        lacks=_terms_of(lacks),
        highlights=_highlights(index, prepared, at, stems, wanted),
    )


def _highlights(
    index: PageIndex, prepared: Prepared, at: Placed, stems: Mapping[str, str], wanted: Sequence[Set[str]]
) -> tuple[Span, ...]:
    """Return the page spans of the passage's tokens whose word or stem (``stems``) a held term wants.

    One pass over the passage for all the terms: the spans are merged, so whose term marked a token is moot.
    """
    every = set().union(*wanted)
    marked = {k for k, st in stems.items() if k in every or st in every}
    starts, ends, words = prepared.starts, prepared.ends, prepared.words
    return _merged([index.orig_span(starts[i], ends[i]) for i in range(at.lo, at.hi) if words[i] in marked])


def _held(keys: _Keys, present: Set[str], relatives: Mapping[str, frozenset[str]] | None = None) -> bool:
    # "~" marks a stem: "adds" holds the claim's "added"; with relatives, a page word counted for the key holds it.
    if relatives is None:
        return all(k in present or st in present for k, st in keys)
    none: frozenset[str] = frozenset()
    return all(k in present or st in present or not relatives.get(k, none).isdisjoint(present) for k, st in keys)


def _cut(prepared: Prepared, lo: int, hi: int, keys: frozenset[str], limit: int) -> tuple[int, int]:
    """Return tokens [lo, hi) of a long sentence, at most limit characters, holding the most of the claim's terms."""
    starts, ends, words = prepared.starts, prepared.ends, prepared.words
    hits = [i for i in range(lo, min(hi, lo + 200_000)) if words[i] in keys] or [lo]
    best, best_count, right = (hits[0], hits[0]), 0, 0
    for left, a in enumerate(hits):
        right = max(right, left)
        while right + 1 < len(hits) and ends[hits[right + 1]] - starts[a] <= limit:
            right += 1
        if right - left + 1 > best_count:
            best, best_count = (a, hits[right]), right - left + 1
    a, b = best
    # Widen to the limit on whole tokens, the sentence's own edges kept.
    while b + 1 < hi and ends[b + 1] - starts[a] <= limit:
        b += 1
    while a - 1 >= lo and ends[b] - starts[a - 1] <= limit:
        a -= 1
    return a, b + 1


def _merged(spans: list[Span]) -> tuple[Span, ...]:
    out: list[Span] = []
    for a, b in sorted(set(spans)):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return tuple(out)


def _terms_of(found: dict[TermKind, list[str]]) -> Terms:
    return Terms(
        words=tuple(found[TermKind.WORD]), names=tuple(found[TermKind.NAME]), figures=tuple(found[TermKind.FIGURE])
    )
