"""A claim's telling terms for finding its evidence: figures, names (capitalised words), other words, stems.

Terms are read with the matcher's tokens (``core.text``) and the figures rules
(``core.figures``), each kept as the claim writes it, so that what a passage holds and lacks is
said in the claim's own words. It only reads a claim; ranking the page is ``core.diagnose.rank``'s.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from core.diagnose.words import has_digit, quote_words
from core.figures import read_figures
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


class TermKind(StrEnum):
    """What a claim's term is: a figure, a name (a capitalised word, a proper noun) or another word."""

    FIGURE = "figure"
    NAME = "name"
    WORD = "word"


@dataclass(frozen=True)
class Term:
    """One telling term of a claim: the page tokens it is made of, its kind, and how the claim writes it."""

    keys: tuple[str, ...]
    kind: TermKind
    text: str
    options: tuple[tuple[str, ...], ...] = ()  # other token spellings of a figure ("thirty": ("30",))


def claim_terms(claim: str, settings: Settings) -> tuple[Term, ...]:
    """Return the claim's figures, names and telling words (each once, in claim order), at most rank_max_terms."""
    text = claim[: settings.rank_claim_max_chars]
    norm, w, breaks = quote_words(text)
    figures: list[Term] = []
    taken: set[int] = set()
    for f in read_figures(text)[: settings.rank_max_terms]:
        lo, hi = norm_range(norm.offsets, f.start, f.end)
        idx = [i for i in range(len(w)) if lo <= w.starts[i] < hi]
        keys = tuple(w.keys[i] for i in idx)
        options: tuple[tuple[str, ...], ...] = ()
        if not any(map(has_digit, keys)) and f.value is not None and f.value == f.value.to_integral_value():
            options = ((str(int(f.value)),),)  # "thirty" is "30"
        if keys:
            figures.append(Term(keys, TermKind.FIGURE, f.text, options))
            taken.update(idx)
    names: list[Term] = []
    words: list[Term] = []
    i = 0
    while i < len(w):
        k = w.keys[i]
        if i in taken or not telling(k):
            i += 1
            continue
        j = i
        opens = i == 0 or (i - 1) in breaks
        after = norm.original_span(w.starts[i + 1], w.ends[i + 1]) if i + 1 < len(w) and i not in breaks else None
        # "Ralph Breaks the Internet…": a capitalised word opening the sentence is a name when one follows it.
        if _is_name(
            text, norm.original_span(w.starts[i], w.ends[i]), opens and not (after and _is_name(text, after, False))
        ):
            # "New York Times": consecutive capitalised words of one sentence are one name.
            while (
                j + 1 < len(w)
                and j not in breaks
                and j + 1 not in taken
                and telling(w.keys[j + 1])
                and _is_name(text, norm.original_span(w.starts[j + 1], w.ends[j + 1]), False)
            ):
                j += 1
            s, e = norm.original_span(w.starts[i], w.ends[j])
            names.append(Term(tuple(w.keys[i : j + 1]), TermKind.NAME, text[s:e]))
        elif not has_digit(k):
            s, e = norm.original_span(w.starts[i], w.ends[i])
            words.append(Term((k,), TermKind.WORD, text[s:e]))
        i = j + 1
    seen: set[tuple[str, ...]] = set()
    out = []
    for t in (*figures, *names, *words):
        if t.keys not in seen:
            seen.add(t.keys)
            out.append(t)
    return tuple(out[: settings.rank_max_terms])


def norm_range(offsets: Sequence[int], start: int, end: int) -> tuple[int, int]:
    """Return the normalised span of original characters [start, end)."""
    return bisect.bisect_left(offsets, start), bisect.bisect_left(offsets, end)


@functools.lru_cache(maxsize=65536)  # a claim's and a page's tokens are told again and again
def telling(k: str) -> bool:
    if has_digit(k):
        return True
    if len(k) == 1:
        return k.isalpha() and not k.isascii() and _wide(k)  # a character of a script written without spaces
    return k not in STOPWORDS


def _wide(c: str) -> bool:
    return "\u3040" <= c <= "\u30ff" or "\u3400" <= c <= "\u9fff" or "\uf900" <= c <= "\ufaff" or c >= "\U00020000"


def _is_name(text: str, span: tuple[int, int], first: bool) -> bool:
    """Return True for a capitalised word: a name, unless it only opens the sentence ("Exposure can…")."""
    word = text[span[0] : span[1]]
    if not word[:1].isupper():
        return False
    # "COVID", "McDonald", "iPhone": a capital past the first letter is a name even at a sentence start.
    return not first or any(c.isupper() for c in word[1:])


@functools.lru_cache(maxsize=65536)  # a page's and a brief's words recur: each is cut once
def stem(word: str) -> str:
    """Return a word with its common English endings cut ("deaths" and "death", "increased" and "increases" alike)."""
    w = word.removesuffix("'s").removesuffix("’s")
    if len(w) <= 3 or not w.isalpha():
        return w
    for suffix, repl, least in _SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= least:
            w = w[: len(w) - len(suffix)] + repl
            break
    return w[:-1] if len(w) > 4 and w.endswith("e") else w


# (ending, replacement, shortest stem left): plurals, past tenses, -ing and -ly forms.
_SUFFIXES = (
    ("ies", "y", 2),
    ("sses", "ss", 2),
    ("ing", "", 3),
    ("ed", "", 3),
    ("es", "", 4),
    ("ss", "ss", 0),
    ("us", "us", 0),
    ("is", "is", 0),
    ("s", "", 3),
    ("ly", "", 4),
)


def forms(word: str, post: Mapping[str, Sequence[int]]) -> set[str]:
    """Return the page's words of the word's stem: the word itself and its endings that the page holds."""
    return {word} | {g for g in _form_guesses(word) if g in post}


@functools.lru_cache(maxsize=16384)  # the same for every page: only which of them a page holds differs
def _form_guesses(word: str) -> tuple[str, ...]:
    """Return the words of the word's stem it may have on a page: its stem with each common ending."""
    root = stem(word)
    bases = {root, root + "e", root[:-1] + "ie" if root.endswith("y") else root}
    return tuple(g for g in {b + end for b in bases for end in _ENDINGS} if stem(g) == root)


_ENDINGS = ("", "s", "es", "d", "ed", "ing", "ly", "'s", "’s")
