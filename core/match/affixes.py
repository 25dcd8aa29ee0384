"""Words that deny with an affix: "asymptomatic" is "not symptomatic", "harmless" "without harm", "unidentified".

``denied_roots(word)`` returns the stems of the word a negating prefix or suffix stands on, for the
claim comparison (core.match.side) to read the word as that one denied where the other side holds
it ("were asymptomatic" against "did not exhibit symptoms"). The lists are English, as the
comparison is. A prefix that denies in some words only ("in-", "im-", "dis-", "a-") counts on the
endings of adjectives, or on a short list, so that "inform", "discover" or "along" deny nothing;
even then a root counts only where the other side holds it, which the caller checks.
"""

from __future__ import annotations

from functools import lru_cache

from core.match.claim_words import word_stem

# Words whose roots are kept read: a page's vocabulary is a few thousand words.
_CACHED = 16384
# Prefixes that deny the word they stand on in almost every word, with the shortest root each takes.
_PLAIN = (("non", 4), ("un", 4))
# "in-", "im-", "il-", "ir-": they deny adjectives ("inactive", "impossible", "illegal", "irrelevant").
_LATIN = ("in", "im", "il", "ir")
_ADJECTIVE_ENDINGS = (
    "ive", "ent", "ant", "ate", "able", "ible", "al", "ous", "ic", "ect", "ete", "id", "ure", "ite", "ular",
)  # fmt: skip
# Words in "in-" of those endings that deny nothing: an inpatient is a patient.
_NOT_DENIED = frozenset("inpatient inpatients invaluable inflammable".split())  # noqa: SIM905
# "a-" denies adjectives of Greek roots ("asymptomatic", "atypical", "asexual", "apolitical").
_GREEK_ENDINGS = ("ic", "ical", "al")
# "dis-" denies these roots (as their stems); "discover", "display", "disease" deny nothing.
_DIS_ROOTS = frozenset(
    word_stem(w)
    for w in """agree appear approve allow believe continue connect honest like obey prove qualify satisfied similar
    advantage trust respect regard comfort""".split()  # noqa: SIM905
)
# "-less" denies its root ("harmless", "symptomless"); these words say something else.
_LESS_WORDS = frozenset("unless regardless nevertheless nonetheless countless doubtless bless".split())  # noqa: SIM905
_LESS = ("lessness", "lessly", "less")
# Endings an adjective adds to its noun ("symptomatic" of "symptom"), tried when the plain stem is not held.
_NOUN_ENDINGS = ("atic", "ical", "ic", "al")


def _roots(root: str) -> set[str]:
    """Return the stems a root may be held as: itself, and its noun when it is an adjective ("symptomatic")."""
    out = {word_stem(root)}
    for ending in _NOUN_ENDINGS:
        if root.endswith(ending) and len(root) - len(ending) >= 4:
            out.add(word_stem(root[: -len(ending)]))
    return out


@lru_cache(maxsize=_CACHED)
def denied_roots(word: str) -> frozenset[str]:
    """Return the stems of the word a negating affix of ``word`` stands on; empty when it has none."""
    if not word.isalpha():
        return frozenset()
    out = set(_plain_roots(word))
    if word not in _NOT_DENIED:
        for prefix in _LATIN:
            root = word[len(prefix) :]
            if word.startswith(prefix) and len(root) >= 5 and root.endswith(_ADJECTIVE_ENDINGS):
                out |= _roots(root)
    return frozenset(out)


def denies_alone(word: str) -> bool:
    """Return True when ``word`` denies with an affix that denies in almost every word it stands on.

    "unreported", "harmless", "asymptomatic", "disagree"; not "in-" and its kin, which deny in some
    words only ("inactive", but "initial", "interval", "indicate"): such a word is read as denying
    only where the other side holds its root (``denied_roots``, read by core.match.side).
    """
    return word.isalpha() and bool(_plain_roots(word))


@lru_cache(maxsize=_CACHED)
def _plain_roots(word: str) -> frozenset[str]:
    """Return the stems the affixes of ``word`` other than "in-" and its kin deny."""
    out: set[str] = set()
    for prefix, shortest in _PLAIN:
        if word.startswith(prefix) and len(word) - len(prefix) >= shortest:
            out |= _roots(word[len(prefix) :])
    if word.startswith("a") and len(word) >= 7 and word.endswith(_GREEK_ENDINGS):
        out |= _roots(word[1:])
    if word.startswith("dis") and word_stem(word[3:]) in _DIS_ROOTS:
        out.add(word_stem(word[3:]))
    if word not in _LESS_WORDS:
        for suffix in _LESS:
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                out |= _roots(word[: -len(suffix)])
                break
    return frozenset(out)
