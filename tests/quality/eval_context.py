"""``make eval`` for context: repeated quotes, negations the flags used to miss, splices over abbreviations.

Case families drawn from the real pages of the matcher's evaluation (tests/quality/eval_match.py),
each judged by a rule written here, independent of the matcher's own:

- repeated: a run of 6 words that stands on its page more than once. Where one of its places
  comes right after a negation ("not", "doesn't"), the quote must never be verified and the
  place shown first must be a flagged one; where none does, it must be found, and the count of
  places must agree with a plain count of the page's words.
- not_only_cut: a quote starting at the "only"/"just" of "not only", "not just" (cut right
  after "not"): always flagged.
- not_only_inner_cut: the same quotes from the second word after the "only" ("for flavor" from
  "not only there for flavor"): always flagged.
- aside_negation: a quote that starts after a bracketed aside opened by a negation ("(without a
  GIL) between interpreters…"), alone or after an ellipsis over the aside: never flagged for it.
- ellipsis_negation: an honest quote with an inner negation cut out by an ellipsis, alone or
  with words on either side: always flagged.
- abbreviation_splice: a quote running over a sentence that ends in an abbreviation, an
  initial, a capital or an acronym ("Group D. The day") with its full stop dropped: never
  verified. initials_whole: a name's initial ("John M. Ford") quoted with its full stop: found.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Iterator
from itertools import pairwise

from core.match import PreparedPage, match_quote
from tests.quality.eval_match import CORPUS_FILES as MATCH_FILES
from tests.quality.eval_match import SEED, cases, prepared, would_verify

CORPUS_FILES = MATCH_FILES
GRAM = 6
PER_PAGE = 8  # repeated runs drawn per page, so that a page of menus does not fill the family
PER_KIND = 300
# A negation right before a place, or with one word between ("doesn't necessarily ensure"), in
# the same line; "not only" and "not just" before it widen rather than deny.
_NEGATION_BEFORE = re.compile(
    r"(?i)(?<![\w'’])(?:not|never|no|cannot|\w+n[’']t)[^\S\n]+(?!(?:only|just|merely|simply)\b)(?:\w+[^\S\n]+)?\Z"
)
_NOT_ONLY = re.compile(r"(?i)(?<![\w'’])(?:not|n[’']t)\s+((?:only|just|merely|simply)\s+(?:[^\s.!?]+\s+){3,}[^\s.!?]+)")
# A negation that opens a bracketed aside, and the words after the aside in the same line.
_ASIDE = re.compile(
    r"((?:[^\s.!?()]+ ){4})\((?:not|without|no|never)\b[^()\n.!?]{1,40}\) ((?:[^\s.!?()]+ ){4}[^\s.!?()]+)"
)
_INNER_NEGATION = re.compile(r"(?<=\s)(?:not|never|no|cannot|\w+n't)(?=\s)")
# A sentence that ends in a capital, an acronym or an abbreviation, and a next sentence that
# opens with a word only a sentence opens with.
_ENDS = re.compile(
    r"((?:\S+\s+){3}(?:[A-Z]|(?:[A-Z]\.){1,3}[A-Z]|etc|Inc|Ltd|Co|Corp|Jr|al|[\w-]+-[A-Z]))\.([)\]]\.)?\s+"
    r"((?:The|This|It|In|A|We|Our|He|She|They|But|And|That|For|If|When|As|On|However|Its|There)\s+(?:\S+\s+){2}\S+)"
)
_INITIAL = re.compile(r"\b[A-Z][a-z]+ [A-Z]\. [A-Z][a-z]{2,}(?=[\s,.;:])")


def _repeated(p: PreparedPage, rng: random.Random) -> Iterator[tuple[str, list[int], set[int]]]:
    """Yield (quote, the places' first tokens, the negated places' starts) for runs standing more than once.

    Every run with a negated place is yielded; of the others, PER_PAGE drawn at random.
    """
    places: dict[tuple[str, ...], list[int]] = defaultdict(list)
    words, breaks = p.words, p.breaks
    for i in range(len(words) - GRAM + 1):  # the last run too (it ends the page)
        if not any(k in breaks for k in range(i + 1, i + GRAM)):
            places[tuple(words[i : i + GRAM])].append(i)
    text = p.page.text
    runs = [(g, at) for g, at in places.items() if len(at) >= 2 and not any(w.isdigit() for w in g)]
    rng.shuffle(runs)
    clean = 0
    for _, at in runs:
        negated = {p.ostarts[i] for i in at if _NEGATION_BEFORE.search(text[max(0, p.ostarts[i] - 40) : p.ostarts[i]])}
        if not negated:
            clean += 1
            if clean > PER_PAGE:
                continue
        # A run that overlaps itself ("a a a a") is counted apart by a plain count, and one with
        # a sentence mark or an ellipsis of its own reads differently as a quote: left out.
        quote = p.original_text(at[0], at[0] + GRAM - 1)
        if any(b - a < GRAM for a, b in pairwise(at)) or re.search(r"[.!?…]", quote):
            continue
        yield quote, at, negated


def evaluate() -> dict[str, float | int]:
    """Return the context families' figures over the corpus."""
    rng = random.Random(SEED)
    t: dict[str, int] = defaultdict(int)
    honest_found: list[tuple[PreparedPage, str]] = []
    for case in cases():
        p = prepared(case.name, case.html)
        text = p.page.text
        for quote, at, negated in _repeated(p, rng):
            m = match_quote(quote, p)
            if negated:
                t["repeated_negated"] += 1
                t["repeated_negated_verified"] += would_verify(m)
                # The place the desk shows first is a flagged one (the negated place, or another flagged).
                t["repeated_negated_shown_first"] += bool(m.occurrences) and m.occurrences[0].blocking
            else:
                t["repeated_clean"] += 1
                t["repeated_clean_found"] += m.found
                t["repeated_clean_count_agrees"] += m.occurrence_count == len(at)
        for hit in _NOT_ONLY.finditer(text):
            quote = " ".join(hit.group(1).split())
            if t["not_only_cut"] >= PER_KIND or "\n" in hit.group(1):
                continue
            m = match_quote(quote, p)
            if m.found:
                t["not_only_cut"] += 1
                t["not_only_cut_flagged"] += any(f.kind == "negation_cut" and f.blocking for f in m.flags)
            # Cut further into what "not only" widens: from the second word after "only".
            words = quote.split()
            inner = words[2:]
            # The item "not only" widens ends at a comma or a contrast: a quote from there on cuts nothing.
            if len(inner) >= 4 and "," not in words[1] and inner[0].lower().rstrip(",") not in {"but", "yet", "also"}:
                m = match_quote(" ".join(inner), p)
                if m.found:
                    t["not_only_inner_cut"] += 1
                    t["not_only_inner_cut_flagged"] += any(f.kind == "negation_cut" and f.blocking for f in m.flags)
        for hit in _ASIDE.finditer(text):
            if t["aside_negation"] >= PER_KIND:
                break
            before, after = " ".join(hit.group(1).split()), " ".join(hit.group(2).split())
            for q in (after, f"{before} … {after}"):
                m = match_quote(q, p)
                if m.found:
                    t["aside_negation"] += 1
                    t["aside_negation_flagged"] += any(
                        f.kind == "negation_cut" and f.span is not None and f.span[0] < hit.start(2) for f in m.flags
                    )
        for hit in _ENDS.finditer(text):
            if t["abbreviation_splice"] >= PER_KIND or "\n" in hit.group(0):
                continue
            quote = f"{hit.group(1)}{')' if hit.group(2) else ''} {hit.group(3)}"
            t["abbreviation_splice"] += 1
            t["abbreviation_splice_verified"] += would_verify(match_quote(quote, p))
        for hit in _INITIAL.finditer(text):
            if t["initials_whole"] < PER_KIND:
                t["initials_whole"] += 1
                t["initials_whole_found"] += match_quote(hit.group(), p).found
        honest_found.extend((p, q) for q in case.quotes if _INNER_NEGATION.search(q))
    rng.shuffle(honest_found)
    for p, q in honest_found:
        if t["ellipsis_negation"] >= PER_KIND:
            break
        for v in _cuts(q):
            m = match_quote(v, p)
            if m.found:
                t["ellipsis_negation"] += 1
                t["ellipsis_negation_flagged"] += any(f.kind == "negation_cut" and f.blocking for f in m.flags)

    def pct(good: str, of: str) -> float:
        return round(100 * t[good] / t[of], 2) if t[of] else 0.0

    return {
        "repeated_negated_count": t["repeated_negated"],
        "repeated_negated_verified_count": t["repeated_negated_verified"],
        "repeated_negated_shown_first_pct": pct("repeated_negated_shown_first", "repeated_negated"),
        "repeated_clean_count": t["repeated_clean"],
        "repeated_clean_found_pct": pct("repeated_clean_found", "repeated_clean"),
        "repeated_clean_count_agrees_pct": pct("repeated_clean_count_agrees", "repeated_clean"),
        "not_only_cut_count": t["not_only_cut"],
        "not_only_cut_flagged_pct": pct("not_only_cut_flagged", "not_only_cut"),
        "not_only_inner_cut_count": t["not_only_inner_cut"],
        "not_only_inner_cut_flagged_pct": pct("not_only_inner_cut_flagged", "not_only_inner_cut"),
        "aside_negation_count": t["aside_negation"],
        "aside_negation_flagged_count": t["aside_negation_flagged"],
        "ellipsis_negation_count": t["ellipsis_negation"],
        "ellipsis_negation_flagged_pct": pct("ellipsis_negation_flagged", "ellipsis_negation"),
        "abbreviation_splice_count": t["abbreviation_splice"],
        "abbreviation_splice_verified_count": t["abbreviation_splice_verified"],
        "initials_whole_count": t["initials_whole"],
        "initials_whole_found_pct": pct("initials_whole_found", "initials_whole"),
    }


def _cuts(q: str) -> Iterator[str]:
    """Yield the quote with its first inner negation cut by an ellipsis: alone, with two words after, two before."""
    m = _INNER_NEGATION.search(q)
    if m is None:
        return
    before, after = q[: m.start()].split(), q[m.end() :].split()
    if len(before) < 4 or len(after) < 4:
        return
    yield " ".join(before) + " … " + " ".join(after)
    yield " ".join(before) + " … " + " ".join(after[2:])
    yield " ".join(before[:-2]) + " … " + " ".join(after)
