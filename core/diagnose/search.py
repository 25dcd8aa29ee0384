"""Words, sentence breaks and a fast closest-passage search over normalised page text.

The near-miss diagnosis (core/diagnose.py) uses these to find the page's own passage closest
to a quote that the exact matcher did not find. Everything works on text from
``core.text.normalise`` so that the diagnosis forgives exactly what the matcher forgives. The search
never scans every window of a page: the quote's longer words and word pairs are located with
``str.find``, vote for where the quote would start, and only the best few regions are aligned
word by word (rapidfuzz). This module refuses to decide anything: a similarity score explains a
failure, it never verifies a quote (DESIGN.md, principle 1).
"""

from __future__ import annotations

import bisect
import re
import time
from dataclasses import dataclass
from typing import Protocol

from rapidfuzz import fuzz
from rapidfuzz.distance import Indel, Levenshtein

from core.models import PageText
from core.settings import Settings
from core.text.normalise import Normalised
from core.text.tokens import MARKER

# A word or number: "3.12", "1,29,940", "don't", "25%", "$5" and "€ 3" are one token each.
# Hyphens, brackets and other punctuation separate tokens and are never compared.
TOKEN = re.compile(r"(?:[$€£¥₹]\s?)?\w+(?:(?:(?<=\d)[.,](?=\d)|'(?=\w))\w+)*(?:\s?%)?")
# A sentence break between two tokens: an end mark or an ellipsis in the text between them.
_BREAK = re.compile(r"[.!?…]")
_SENTENCE_END = re.compile(r"[.!?…]+[\"')\]]*(?= )")
# Grouping commas as the matcher reads them: threes (1,000,000) or Indian twos (1,29,940).
_GROUPED = re.compile(r"(?<![\d,])\d{1,3}(?:(?:,\d{3})+|(?:,\d{2})+,\d{3})(?![\d,]|,\d)")


def key(surface: str) -> str:
    """Return a token's comparison key: no spaces inside, no grouping commas in numbers."""
    k = surface.replace(" ", "")
    return _GROUPED.sub(lambda m: m.group().replace(",", ""), k) if "," in k else k


def has_digit(k: str) -> bool:
    """Return True when a token holds a digit (a figure)."""
    return any(c.isdigit() for c in k)


@dataclass(frozen=True)
class Words:
    """Tokens of a stretch of normalised text: keys and their spans in that text."""

    keys: tuple[str, ...]
    starts: tuple[int, ...]
    ends: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.keys)

    def cut(self, lo: int, hi: int) -> Words:
        """Return tokens lo..hi-1 (spans unchanged)."""
        return Words(self.keys[lo:hi], self.starts[lo:hi], self.ends[lo:hi])


def words(text: str, start: int = 0, end: int | None = None) -> Words:
    """Return the tokens of text[start:end] (spans in text), reference markers left out."""
    keys: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    stop = len(text) if end is None else end
    # The matcher skips reference markers ("[12]", "[citation needed]") on both sides; so do we.
    marks = [m.span() for m in MARKER.finditer(text, start, stop)] if "[" in text[start:stop] else []
    for m in TOKEN.finditer(text, start, stop):
        if marks and any(a <= m.start() < b for a, b in marks):
            continue
        keys.append(key(m.group()))
        starts.append(m.start())
        ends.append(m.end())
    return Words(tuple(keys), tuple(starts), tuple(ends))


def text_breaks(text: str, w: Words) -> frozenset[int]:
    """Return the token indices j with a sentence break between token j and token j + 1."""
    return frozenset(j for j in range(len(w) - 1) if _BREAK.search(text, w.ends[j], w.starts[j + 1]))


def _wordchar(c: str) -> bool:
    return c.isalnum() or c == "_"


class PageIndex:
    """Block and page boundaries of one page, looked up by bisection.

    Not a dataclass: a cache built once per page (cheap) and queried many times.
    """

    def __init__(self, page: PageText, norm: Normalised) -> None:
        self.page = page
        self.norm = norm
        self.text = norm.text
        self.blocks = sorted(page.blocks)
        self.block_starts = [s for s, _ in self.blocks]
        self.block_ends = sorted(e for _, e in self.blocks)
        self.page_starts = [s for _, s, _ in page.pages]
        self.footnotes = sorted(page.footnotes)
        self.footnote_starts = [s for s, _ in self.footnotes]

    def words(self, nstart: int, nend: int) -> Words:
        """Return the page's tokens in normalised text[nstart:nend], footnote markers left out."""
        w = words(self.text, nstart, nend)
        if not self.footnotes:
            return w
        keep = [i for i in range(len(w)) if not self._in_footnote(self.orig(w.starts[i]))]
        if len(keep) == len(w):
            return w
        return Words(tuple(w.keys[i] for i in keep), tuple(w.starts[i] for i in keep), tuple(w.ends[i] for i in keep))

    def _in_footnote(self, opos: int) -> bool:
        i = bisect.bisect_right(self.footnote_starts, opos) - 1
        return i >= 0 and opos < self.footnotes[i][1]

    def orig(self, npos: int) -> int:
        """Return the original character index of normalised position npos."""
        offsets = self.norm.offsets
        return offsets[npos] if 0 <= npos < len(offsets) else self.norm.original_length

    def to_norm(self, opos: int) -> int:
        """Return the first normalised position at or after original position opos."""
        return bisect.bisect_left(self.norm.offsets, opos)

    def orig_span(self, nstart: int, nend: int) -> tuple[int, int]:
        """Return the original span of normalised text[nstart:nend]."""
        return self.norm.original_span(nstart, nend)

    def block_break(self, nend: int, nstart: int) -> bool:
        """Return True when a block ends between normalised positions nend and nstart."""
        a = self.orig(nend - 1) + 1 if nend > 0 else 0
        b = self.orig(nstart)
        if self.block_ends:
            i = bisect.bisect_left(self.block_ends, a)
            return i < len(self.block_ends) and self.block_ends[i] <= b
        return "\n" in self.page.text[a:b]

    def is_break(self, w: Words, j: int) -> bool:
        """Return True when a sentence or block break lies between page tokens j and j + 1."""
        if j < 0 or j + 1 >= len(w):
            return True
        return bool(_BREAK.search(self.text, w.ends[j], w.starts[j + 1])) or self.block_break(
            w.ends[j], w.starts[j + 1]
        )

    def breaks(self, w: Words) -> frozenset[int]:
        """Return the token indices j of page words with a sentence or block break after token j."""
        return frozenset(j for j in range(len(w) - 1) if self.is_break(w, j))

    def block_of(self, opos: int) -> tuple[int, int]:
        """Return the original span of the block holding original position opos."""
        text = self.page.text
        if not self.blocks:
            end = text.find("\n", opos)
            return text.rfind("\n", 0, opos) + 1, len(text) if end < 0 else end
        i = bisect.bisect_right(self.block_starts, opos) - 1
        if i >= 0 and self.blocks[i][1] >= opos:
            return self.blocks[i]
        # Between blocks: the gap itself, so that a sentence never runs into a neighbour.
        lo = self.blocks[i][1] if i >= 0 else 0
        hi = self.blocks[i + 1][0] if i + 1 < len(self.blocks) else len(text)
        return lo, hi

    def page_of(self, opos: int) -> int | None:
        """Return the PDF page number holding original position opos, or None for other sources."""
        if not self.page_starts:
            return None
        i = bisect.bisect_right(self.page_starts, opos) - 1
        return self.page.pages[max(i, 0)][0]

    def sentence(self, npos: int, limit: int) -> tuple[int, int]:
        """Return the normalised span of the sentence around npos, snapped to whole tokens."""
        text = self.text
        lo = max(0, npos - limit)
        start = lo
        for m in _SENTENCE_END.finditer(text, lo, npos):
            start = m.end()
        m2 = _SENTENCE_END.search(text, npos, min(len(text), npos + limit))
        end = m2.end() if m2 else min(len(text), npos + limit)
        bs, be = self.block_of(self.orig(npos))
        start, end = max(start, self.to_norm(bs)), min(end, self.to_norm(be))
        w = self.words(start, max(end, start))
        if not w.keys:
            return npos, npos
        return w.starts[0], w.ends[-1]


class Prepared(Protocol):
    """What the diagnosis reads of core.match.matcher.PreparedPage: the page and its normalised text."""

    @property
    def page(self) -> PageText: ...

    @property
    def norm(self) -> Normalised: ...


_INDEXES: dict[int, PageIndex] = {}


def page_index(page: PageText, norm: Normalised) -> PageIndex:
    """Return the (cached) index of a page; rebuilt when another page comes."""
    cached = _INDEXES.get(id(norm))
    if cached is not None and cached.norm is norm and cached.page is page:
        return cached
    if len(_INDEXES) >= 16:
        _INDEXES.clear()
    index = PageIndex(page, norm)
    _INDEXES[id(norm)] = index
    return index


def find_all(text: str, surface: str, cap: int) -> list[int] | None:
    """Return the start of every whole-token occurrence of surface in text; None past cap."""
    out: list[int] = []
    n = len(surface)
    tries = 0
    p = text.find(surface)
    while p >= 0:
        tries += 1
        before_ok = p == 0 or not _wordchar(text[p - 1]) or not _wordchar(surface[0])
        after_ok = p + n >= len(text) or not _wordchar(text[p + n]) or not _wordchar(surface[-1])
        if before_ok and after_ok:
            out.append(p)
        if len(out) > cap or tries > 4 * cap:
            return None
        p = text.find(surface, p + 1)
    return out


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
        if i + 1 < len(q) and q.starts[i + 1] == q.ends[i] + 1 and qtext[q.ends[i]] == " ":
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
    text = index.text
    tol = max(40, len(qtext) // 4)
    buckets: dict[int, dict[int, float]] = {}
    ests: dict[int, list[int]] = {}
    for a, (surface, off) in enumerate(_anchors(qtext, q, settings.diagnose_max_anchors)):
        if time.monotonic() > deadline:
            break
        hits = find_all(text, surface, settings.diagnose_max_hits)
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
    for o in ops:
        if o.tag != "delete":
            continue
        run = q.keys[o.src_start : o.src_end]
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
        # Tokens touching the region's edges may be cut in half: leave them out.
        lo = 1 if a > 0 and region.keys and region.starts[0] == a else 0
        hi = len(region) - 1 if b < len(text) and region.keys and region.ends[-1] == b else len(region)
        region = region.cut(lo, hi)
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
