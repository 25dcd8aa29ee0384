"""A claim word's relatives on a page: its endings, the words of its derivational family, the abbreviations.

``core.diagnose.terms.forms`` finds a word's inflections ("deaths" for "death"). A news claim
paraphrasing a study also moves between a word and its derivational family: "infectious" for
the study's "infectiousness", "recoveries" for "505 persons have recovered", "hospitalized"
for "hospitalization". ``family`` finds those a page holds: a word whose stem, five letters
or more, is the other's stem with one of the common English derivational endings added or
taken off ("recover" + "y", "infectious" + "ness", "vaccin" + "ation"). ``related`` gives the
ranking (``core.diagnose.rank``) every page word counted for a claim's word, with its share.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Iterable, Mapping, Sequence, Set

from core.diagnose.abbreviations import defined_abbreviations
from core.diagnose.page_index import Prepared, per_page
from core.diagnose.spelling import spellings
from core.diagnose.terms import forms, stem
from core.settings import Settings

# Derivational endings of English words, after the stem rule has cut an inflection: "recover" + "y",
# "infectious" + "ness", "vaccin" + "ation", "hospitaliz" + "ation", "infect" + "ious".
_DERIVED = (
    "y", "ies", "ion", "ions", "ation", "ations", "ness", "ity", "ities", "ivity", "ous", "ious",
    "ment", "ments", "ism", "ist", "ists", "ance", "ence",
)  # fmt: skip
_INFLECTED = ("", "s", "es", "e", "ed", "d", "ing", "ly")
# A stem shorter than this has too many unrelated words beginning with it ("car", "care", "career").
_FAMILY_MIN_STEM = 5


def family(word: str, post: Mapping[str, Sequence[int]]) -> set[str]:
    """Return the page's words of the word's derivational family, other than the word's own forms."""
    return {g for g in _family_guesses(word) if g in post}


@functools.lru_cache(maxsize=4096)  # the same for every page: only which of them a page holds differs
def _family_guesses(word: str) -> tuple[str, ...]:
    """Return the words of the word's derivational family it may have on a page, its own forms left out."""
    root = stem(word)
    if len(root) < _FAMILY_MIN_STEM or not root.isalpha():
        return ()
    bases = {root}
    for end in _DERIVED:
        if root.endswith(end) and len(root) - len(end) >= _FAMILY_MIN_STEM:
            bases.add(root[: len(root) - len(end)])
    guesses = {b + d + i for b in bases for d in ("", *_DERIVED) for i in _INFLECTED}
    return tuple(g for g in guesses if stem(g) != root)


_OWN: dict[int, tuple[weakref.ref[Prepared], dict[tuple[str, tuple[float, float]], dict[str, float]]]] = {}


def _own(word: str, post: Mapping[str, Sequence[int]], shares: tuple[float, float]) -> dict[str, float]:
    """Return a claim word's forms, other spelling's forms and family on a page, each with its share."""
    stem_share, family_share = shares
    out = {f: (1.0 if f == word else stem_share) for f in forms(word, post)}
    if not any(f in post for f in out):
        for other in spellings(word):  # "behavior" for the claim's "behaviour"
            for f in forms(other, post):
                out.setdefault(f, stem_share)
    if family_share > 0 and not any(f in post for f in out):
        for f in family(word, post):
            out.setdefault(f, family_share)
    return out


def related(word: str, claim: Set[str], prepared: Prepared, settings: Settings) -> Mapping[str, float]:
    """Return the page words counted for a claim's word, each with its share of the word's own count.

    The word itself counts 1, another form of it ``rank_stem_share``, as does a form of its other
    spelling (``core.diagnose.spelling``) when the page holds no form of it, a word of its family
    ``rank_family_share`` when the page holds no form of the word, and an abbreviation the page
    defines for a term holding it ``rank_abbreviation_share`` unless the claim writes that
    abbreviation itself.
    """
    return related_all((word,), claim, prepared, settings)[word]


def related_all(
    words: Iterable[str], claim: Set[str], prepared: Prepared, settings: Settings
) -> dict[str, Mapping[str, float]]:
    """Return ``related`` for each of a claim's words, the page's caches looked up once for them all."""
    shares = (settings.rank_stem_share, settings.rank_family_share)
    known = per_page(_OWN, prepared, dict)  # the claims citing one page share its words: each is looked up once
    defined = defined_abbreviations(prepared) if settings.rank_abbreviation_share > 0 else {}
    out: dict[str, Mapping[str, float]] = {}
    for word in words:
        if not word.isalpha():
            out[word] = {word: 1.0}
            continue
        own = known.get((word, shares))
        if own is None:
            own = known[(word, shares)] = _own(word, prepared.postings, shares)
        short = defined.get(stem(word)) if defined else None
        short = short.difference(claim) if short else None  # those the claim writes itself are its own words
        if not short:
            out[word] = own  # most words: the page's own, shared (never changed by a caller)
            continue
        mine = dict(own)
        for a in short:
            mine.setdefault(a, settings.rank_abbreviation_share)
        out[word] = mine
    return out
