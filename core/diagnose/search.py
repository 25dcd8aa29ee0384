"""A fast closest-passage search over a page's words: where a quote the matcher did not find drifted.

The near-miss diagnosis (``core.diagnose.nearmiss``) uses it to find the page's own passage
closest to a failed quote. It works on the matcher's tokens and breaks (``core.diagnose.page_index``)
so that the diagnosis forgives exactly what the matcher forgives. The search never scans every
window of a page: the quote's longer words and word pairs are located with ``str.find``, vote
for where the quote would start, and only the best few regions are aligned word by word
(rapidfuzz). This module refuses to decide anything: a similarity score explains a failure, it
never verifies a quote (DESIGN.md, principle 1).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from rapidfuzz import fuzz
from rapidfuzz.distance import Indel, Levenshtein

from core.diagnose.page_index import PageIndex
from core.diagnose.words import Words, has_digit
from core.settings import Settings


@dataclass(frozen=True)
class Passage:
    """The closest passage: page words of its region, the passage's slice of them, its score."""

    region: Words
    lo: int
    hi: int
    score: float

    @property
    def start(self) -> int:
        return self.region.starts[self.lo]

    @property
    def end(self) -> int:
        return self.region.ends[self.hi - 1]


def _anchors(qtext: str, q: Words, max_anchors: int) -> list[tuple[str, int]]:
    """Return (surface, offset in qtext) for the quote's most telling words and word pairs."""
    seg_len = 8
    segments: dict[int, list[tuple[int, str, int]]] = {}
    for i in range(len(q)):
        s = qtext[q.starts[i] : q.ends[i]]
        segments.setdefault(i // seg_len, []).append((len(s) + (3 if has_digit(s) else 0), s, q.starts[i]))
        # Two tokens with one space or nothing between them ("is not", "25%", "首都") are one anchor.
        if i + 1 < len(q) and qtext[q.ends[i] : q.starts[i + 1]] in ("", " "):
            pair = qtext[q.starts[i] : q.ends[i + 1]]
            segments[i // seg_len].append((len(pair) + 4, pair, q.starts[i]))
    keys = sorted(segments)
    per = max(2, -(-6 // max(1, len(keys))))
    if len(keys) * per > max_anchors:
        step = len(keys) / (max_anchors // per)
        keys = [keys[int(i * step)] for i in range(max_anchors // per)]
    out: list[tuple[str, int]] = []
    for k in keys:
        seen: set[str] = set()
        for _, s, off in sorted(segments[k], reverse=True):
            if s not in seen:
                seen.add(s)
                out.append((s, off))
            if len(seen) >= per:
                break
    return out


def _regions(
    qtext: str, q: Words, index: PageIndex, settings: Settings, deadline: float, exclude: tuple[int, int] | None
) -> list[int]:
    """Return likely normalised start positions of the quote on the page, best first."""
    tol = max(40, len(qtext) // 4)
    buckets: dict[int, dict[int, float]] = {}
    ests: dict[int, list[int]] = {}
    for a, (surface, off) in enumerate(_anchors(qtext, q, settings.diagnose_max_anchors)):
        if time.monotonic() > deadline:
            break
        hits = index.find_all(surface, settings.diagnose_max_hits)
        if not hits:
            continue
        weight = 1.0 / len(hits)
        for p in hits:
            if exclude and exclude[0] <= p < exclude[1]:
                continue
            est = p - off
            b = est // tol
            slot = buckets.setdefault(b, {})
            slot[a] = max(slot.get(a, 0.0), weight)
            ests.setdefault(b, []).append(est)
    scored = []
    for b in buckets:
        merged = dict(buckets[b])
        for a, w in buckets.get(b + 1, {}).items():
            merged[a] = max(merged.get(a, 0.0), w)
        scored.append((sum(merged.values()), b))
    scored.sort(reverse=True)
    out: list[int] = []
    taken: set[int] = set()
    for _, b in scored:
        if b in taken or len(out) >= settings.diagnose_regions:
            continue
        taken.update((b - 1, b, b + 1))
        pooled = sorted(ests[b] + ests.get(b + 1, []))
        out.append(pooled[len(pooled) // 2])
    return out


def _align(q: Words, qjoined: str, region: Words, index: PageIndex) -> Passage | None:
    """Return the best passage of region for the quote, or None when no word is shared."""
    ops = Indel.opcodes(q.keys, region.keys)
    eq = [(o.src_start, o.src_end, o.dest_start, o.dest_end) for o in ops if o.tag == "equal"]
    if not eq:
        return None
    gap = max(3, len(q) // 3)
    chains: list[list[tuple[int, int, int, int]]] = [[eq[0]]]
    for blk in eq[1:]:
        prev = chains[-1][-1]
        if blk[2] - prev[3] > gap or blk[0] - prev[1] > gap:
            chains.append([blk])
        else:
            chains[-1].append(blk)
    chain = max(chains, key=lambda c: sum(b[1] - b[0] for b in c))
    width = 1 if len(q) > 200 else 4
    starts: set[int] = set()
    ends: set[int] = set()
    # A quote's first or last words may be changed or dropped: from each likely first (last)
    # shared word, also reach back (ahead) a few page words, never across a page break.
    for q1, _, p1, _ in chain[:width]:
        starts.add(p1)
        for d in range(1, min(q1 + 2, p1, 4) + 1):
            if index.is_break(region, p1 - d):
                break
            starts.add(p1 - d)
    for _, q2, _, p2 in chain[-width:]:
        ends.add(p2)
        for d in range(1, min(len(q) - q2 + 2, len(region) - p2, 4) + 1):
            if index.is_break(region, p2 + d - 2):
                break
            ends.add(p2 + d)
    # Fewest word edits wins; on a tie the longer passage, so that a changed or dropped word at
    # the quote's edge is shown against the page's word rather than left outside the passage.
    best: tuple[int, int, int, int] | None = None
    for s in starts:
        for e in ends:
            if e > s:
                rank = (Levenshtein.distance(q.keys, region.keys[s:e]), s - e, s, e)
                best = rank if best is None or rank < best else best
    if best is None:
        return None
    s, e = _moved_edges(q, region, best[2], best[3], index)
    return Passage(region, s, e, fuzz.ratio(qjoined, " ".join(region.keys[s:e])))


def _moved_edges(q: Words, region: Words, s: int, e: int, index: PageIndex) -> tuple[int, int]:
    """Return the passage widened over words the quote moved to its edge from just beyond it.

    "is by default not enabled" for the page's "is not enabled by default": the passage must
    hold "by default" for the diff to say the words were moved rather than added.
    """
    ops = Indel.opcodes(q.keys, region.keys[s:e])
    if not ops:
        return s, e
    s0, e0 = s, e
    # Page words of the passage the quote lacks: a quote word among them moved inside the passage.
    lacked = {k for o in ops if o.tag == "insert" for k in region.keys[s + o.dest_start : s + o.dest_end]}
    for x, o in enumerate(ops):
        if o.tag != "delete":
            continue
        # A word the quote put where the page has another ("Hazama" for "they") replaced it, not moved.
        replaced = any(0 <= y < len(ops) and ops[y].tag == "insert" for y in (x - 1, x + 1))
        run = q.keys[o.src_start : o.src_end]
        if replaced or all(k in lacked for k in run):
            continue
        for d in range(len(run), min(len(run) + 3, len(region) - e0) + 1):
            if index.is_break(region, e0 + d - 2):
                break
            if all(k in region.keys[e0 : e0 + d] for k in run):
                e = max(e, e0 + d)
                break
        for d in range(len(run), min(len(run) + 3, s0) + 1):
            if index.is_break(region, s0 - d):
                break
            if all(k in region.keys[s0 - d : s0] for k in run):
                s = min(s, s0 - d)
                break
    return s, e


def closest_passage(
    qtext: str,
    q: Words,
    index: PageIndex,
    settings: Settings,
    deadline: float,
    exclude: tuple[int, int] | None = None,
) -> Passage | None:
    """Return the page passage closest to the quote's words, or None when nothing shares a word."""
    if not q.keys:
        return None
    qjoined = " ".join(q.keys)
    text = index.text
    # Room for words the quote dropped or added; more room only invites a stray earlier match.
    slack = len(qtext) // 5 + 24
    best: Passage | None = None
    for est in _regions(qtext, q, index, settings, deadline, exclude):
        if time.monotonic() > deadline:
            break
        a, b = max(0, est - slack), min(len(text), est + len(qtext) + slack)
        region = index.words(a, b)
        if exclude:
            keep = [i for i in range(len(region)) if not (exclude[0] <= region.starts[i] < exclude[1])]
            if keep and len(keep) < len(region):
                # Keep the longest run of tokens outside the excluded passage.
                runs: list[list[int]] = [[keep[0]]]
                for i in keep[1:]:
                    (runs[-1].append(i) if i == runs[-1][-1] + 1 else runs.append([i]))
                run = max(runs, key=len)
                region = region.cut(run[0], run[-1] + 1)
        found = _align(q, qjoined, region, index)
        if found and (best is None or found.score > best.score):
            best = found
    return best
