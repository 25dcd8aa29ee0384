"""Evaluation of the near-miss diagnosis on mutated quotes over the real aeb news pages.

Pages are read as the checker reads them: core.extract.read.extract_html, then core.match.matcher.prepare.

For sentences that the exact matcher finds on their page, one word or number is changed,
dropped, added, negated, un-negated or moved, or two sentences in a row are spliced (the full
stop between them dropped); the mutated quote must then fail the matcher
(mutations it still finds are not counted). For each failed quote we ask: is the closest
passage the original sentence (its span overlaps the sentence by at least 80% both ways),
does the diff name the mutated word or number, and is the kind of difference the right one.
Misses go to tests/quality/diagnose_misses.txt with their cause.

Figures: ``passage_original_pct`` and ``diff_names_mutation_pct`` (higher is better; floors 98
and 95 from issue 6), ``kind_named_pct`` (higher), ``typography_only_count`` (lower: each one
is a matcher bug or a diagnosis bug), ``mutated_quotes_count`` (higher: how much was measured).
"""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from core.diagnose import diagnose
from core.match import PreparedPage, match_quote
from core.match.negation import is_negation
from core.models import NearMiss
from tests.builders import corpus_page
from tests.servers import CORPUS

HERE = Path(__file__).resolve().parent
AEB = CORPUS / "html" / "aeb"
#: What this evaluation reads, relative to the corpus (tests/quality/corpus.py digests it).
CORPUS_FILES = ("html/aeb/ground-truth.json", "html/aeb/html/*.html.gz")
SENTENCES_PER_PAGE = 4
_SENTENCE = re.compile(r"[^.!?\n]*?[A-Za-z][^.!?\n]*[.!?]")
_WORD = re.compile(r"[A-Za-z]+")
_NUMBER = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)*(?![\w])")
_AUX = re.compile(r"\b(is|are|was|were|can|will|has|have|had|does|did|would|could|should)\b(?!['’])")
_NEG = re.compile(r"\b(not|never|no)\b ")


@dataclass(frozen=True)
class Mutation:
    """A sentence of a page changed in one place: kind, the quote, and the words involved."""

    page_id: str
    kind: str  # expected DiffOp kind
    sentence: str
    start: int  # the sentence's span in page.text
    end: int
    quote: str
    word: str  # the word or number changed (as the quote or the page has it)


def load_page(page_id: str) -> PreparedPage:
    """Return an aeb page as the checker reads it (extractor, then matcher), kept for the run."""
    return corpus_page(f"html/aeb/html/{page_id}.html.gz")


def page_ids() -> list[str]:
    """Return the aeb page ids in a fixed order."""
    return sorted(json.loads((AEB / "ground-truth.json").read_text()))


def _swap(words: list[str], rng: random.Random) -> tuple[list[str], str] | None:
    spots = [i for i in range(1, len(words) - 2) if words[i].lower() != words[i + 1].lower()]
    if not spots:
        return None
    i = rng.choice(spots)
    out = list(words)
    out[i], out[i + 1] = out[i + 1], out[i]
    # Moving either word past the other is the same change: naming either is right.
    return out, f"{words[i]} {words[i + 1]}"


def _mutate(kind: str, sentence: str, vocabulary: list[str], rng: random.Random) -> tuple[str, str] | None:
    """Return (quote, mutated word) for one kind of change, or None when the sentence offers none."""
    words = sentence.split(" ")
    inner = range(1, len(words) - 1)
    if kind == "figure_changed":
        nums = list(_NUMBER.finditer(sentence))
        if not nums:
            return None
        m = rng.choice(nums)
        digits = m.group()
        pos = rng.choice([i for i, c in enumerate(digits) if c.isdigit()])
        new = str((int(digits[pos]) + rng.randint(1, 8)) % 10)
        changed = digits[:pos] + new + digits[pos + 1 :]
        return sentence[: m.start()] + changed + sentence[m.end() :], changed
    if kind == "word_replaced":
        spots = [
            i for i in inner if _WORD.fullmatch(words[i]) and len(words[i]) > 3 and not is_negation(words[i].lower())
        ]
        if not spots:
            return None
        i = rng.choice(spots)
        new = rng.choice([v for v in vocabulary if v.lower() != words[i].lower()])
        return " ".join([*words[:i], new, *words[i + 1 :]]), new
    if kind == "word_dropped":
        spots = [i for i in inner if _WORD.fullmatch(words[i]) and not is_negation(words[i].lower())]
        if not spots:
            return None
        i = rng.choice(spots)
        return " ".join([*words[:i], *words[i + 1 :]]), words[i]
    if kind == "word_added":
        i = rng.choice(list(inner))
        new = rng.choice(vocabulary)
        return " ".join([*words[:i], new, *words[i:]]), new
    if kind == "negation_added":
        aux = list(_AUX.finditer(sentence))
        if not aux:
            return None
        m = rng.choice(aux)
        return sentence[: m.end()] + " not" + sentence[m.end() :], "not"
    if kind == "negation_dropped":
        neg = list(_NEG.finditer(sentence))
        if not neg:
            return None
        m = rng.choice(neg)
        return sentence[: m.start()] + sentence[m.end() :], m.group(1)
    if kind == "reordered":
        swapped = _swap(words, rng)
        return (" ".join(swapped[0]), swapped[1]) if swapped else None
    raise ValueError(kind)


KINDS = (
    "figure_changed",
    "word_replaced",
    "word_dropped",
    "word_added",
    "negation_added",
    "negation_dropped",
    "reordered",
)


def mutations(limit_pages: int | None = None) -> Iterator[tuple[Mutation, PreparedPage]]:
    """Yield every mutated quote of the eval with its page; the sentences are found verbatim first."""
    for page_id in page_ids()[:limit_pages]:
        prepared = load_page(page_id)
        text = prepared.page.text
        rng = random.Random(page_id)
        # No negations among the words put in: adding "nobody" is a negation, not a plain word.
        vocabulary = sorted(w for w in set(_WORD.findall(text)) if len(w) > 3 and not is_negation(w.lower()))
        if not vocabulary:
            continue
        sentences = []
        for m in _SENTENCE.finditer(text):
            s = m.group().strip()
            n = len(s.split())
            # A sentence with an ellipsis is several quotes in one (the matcher splits it): left out.
            if "…" in s or "..." in s or "  " in s or not 10 <= n <= 45 or text.count(s) != 1:
                continue
            if match_quote(s, prepared).found:
                start = text.index(s)
                sentences.append((s, start, start + len(s)))
        # Two sentences in a row, the full stop between them dropped: a splice the matcher refuses.
        for (a, a0, _a1), (b, _b0, b1) in itertools.pairwise(sentences):
            if text[a0 : a0 + len(a) + 1 + len(b)] == f"{a} {b}" and a[-1] == "." and b[0].isupper():
                quote = f"{a[:-1]} {b[0].lower()}{b[1:]}"
                yield Mutation(page_id, "spliced", f"{a} {b}", a0, b1, quote, a.split()[-1].rstrip(".")), prepared
                break
        rng.shuffle(sentences)
        for s, start, end in sentences[:SENTENCES_PER_PAGE]:
            for kind in KINDS:
                made = _mutate(kind, s, vocabulary, rng)
                if made is not None:
                    yield Mutation(page_id, kind, s, start, end, made[0], made[1]), prepared


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(0, min(a[1], b[1]) - max(a[0], b[0]))


def _tokens(text: str) -> set[str]:
    return {t.lower() for t in re.findall(r"\w+(?:[.,']\w+)*", text)}


def judge(m: Mutation, near: NearMiss) -> tuple[bool, bool, bool, str]:
    """Return (passage is the sentence, diff names the word, kind right, cause of any miss)."""
    if near.passage is None:
        return False, False, False, f"no passage: {near.summary}"
    span = (near.passage.start, near.passage.end)
    shared = _overlap(span, (m.start, m.end))
    original = shared >= 0.8 * (m.end - m.start) and shared >= 0.8 * (span[1] - span[0])
    named_ops = [op for op in near.diff if op.kind not in ("equal", "typography_only")]
    wanted = _tokens(m.word)
    names = any(wanted & (_tokens(op.quote_words) | _tokens(op.page_words)) for op in named_ops)
    kind = any(op.kind == m.kind and wanted & (_tokens(op.quote_words) | _tokens(op.page_words)) for op in named_ops)
    cause = ""
    if not (original and names and kind):
        got = "; ".join(f"{op.kind}: {op.quote_words!r} / {op.page_words!r}" for op in named_ops) or "no difference"
        cause = f"passage {'ok' if original else 'WRONG: ' + near.passage.text[:120]!r}; diff: {got}"
    return original, names, kind, cause


def evaluate() -> dict[str, float | int]:
    """Return the diagnosis figures over the aeb corpus; write the misses file."""
    total = original = names = kinds = typography = skipped = 0
    misses: list[str] = []
    for m, prepared in mutations():
        match = match_quote(m.quote, prepared)
        if match.found:
            skipped += 1
            continue
        near = diagnose(m.quote, prepared, match, {})
        total += 1
        typography += any(op.kind == "typography_only" for op in near.diff)
        ok_passage, ok_names, ok_kind, cause = judge(m, near)
        original += ok_passage
        names += ok_names
        kinds += ok_kind
        if cause:
            misses.append(f"[{m.page_id[:12]} {m.kind}] word {m.word!r}\n  quote: {m.quote}\n  {cause}\n")
    (HERE / "diagnose_misses.txt").write_text(
        f"{len(misses)} of {total} mutated quotes with a miss "
        f"({skipped} mutations still found verbatim, not counted)\n\n" + "\n".join(misses)
    )
    pct = lambda n: round(100.0 * n / total, 2) if total else 0.0  # noqa: E731
    return {
        "passage_original_pct": pct(original),
        "diff_names_mutation_pct": pct(names),
        "kind_named_pct": pct(kinds),
        "typography_only_count": typography,
        "mutated_quotes_count": total,
    }


if __name__ == "__main__":
    for k, v in evaluate().items():
        print(f"{k:<28} {v}")
