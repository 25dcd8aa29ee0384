"""The abbreviations a page defines ("venous thromboembolism (VTE)"), for crediting a sentence that writes them.

A scientific abstract, a report or a government page writes a term out once, with its
abbreviation in brackets, and the abbreviation from then on: "Severe novel coronavirus
pneumonia (NCP) patients have abnormal blood coagulation… The incidence of VTE in patients
with severe NCP is 25%". A claim paraphrasing the finding writes the words ("venous
thromboembolism in patients with severe novel coronavirus pneumonia"), which the sentence
holding the evidence lacks. A definition is found by Schwartz and Hearst's rule (2003): the
bracketed abbreviation's letters stand, in order, in the words just before it, its first
letter opening one of them. The ranking (``core.diagnose.rank``) counts the abbreviation's
places as places of the defined words; this module only reads the definitions.
"""

from __future__ import annotations

import bisect
import re
import weakref
from collections.abc import Sequence

from core.diagnose.page_index import Prepared, page_index, per_page
from core.diagnose.terms import stem, telling

# A bracketed abbreviation: a letter, then up to 9 letters, digits or hyphens, closed or followed by ";" or ",".
_BRACKETED = re.compile(r"[(\[]\s*([A-Za-z][A-Za-z0-9\-]{1,9})\s*[)\];,]")
# Abbreviations are looked for in a page's first characters only: definitions open a text.
_DEFINITIONS_MAX_CHARS = 500_000

_CACHE: dict[int, tuple[weakref.ref[Prepared], dict[str, frozenset[str]]]] = {}


def abbreviations(word: str, prepared: Prepared) -> frozenset[str]:
    """Return the page's abbreviation tokens of a term holding the word ("vte" for "thromboembolism"), if any."""
    return defined_abbreviations(prepared).get(stem(word), frozenset())


def defined_abbreviations(prepared: Prepared) -> dict[str, frozenset[str]]:
    """Return each stem of a word the page defines an abbreviation with, and those abbreviations' tokens."""
    return per_page(_CACHE, prepared, lambda: _read(prepared))


def long_form(short: str, words: Sequence[str]) -> int | None:
    """Return how many of the words, read back from the last, spell the abbreviation's letters; None when none do.

    Schwartz and Hearst's rule: each letter or digit of the abbreviation, from its last, stands
    in the words in the same order, and its first letter opens a word.
    """
    letters = [c for c in short.lower() if c.isalnum()]
    text = " ".join(words)
    at = len(text) - 1
    for i in range(len(letters) - 1, -1, -1):
        c = letters[i]
        while at >= 0 and (text[at] != c or (i == 0 and at > 0 and text[at - 1] != " ")):
            at -= 1
        if at < 0:
            return None
        at -= 1
    return text[at + 1 :].count(" ") + 1


def _read(prepared: Prepared) -> dict[str, frozenset[str]]:
    """Return each defined word's stem with the abbreviations of the terms it is part of."""
    text = prepared.page.text
    index = page_index(prepared)
    words, starts, breaks = prepared.words, prepared.starts, prepared.breaks
    found: dict[str, set[str]] = {}
    for m in _BRACKETED.finditer(text, 0, _DEFINITIONS_MAX_CHARS):
        short = m.group(1)
        if not any(c.isupper() for c in short[1:]):
            continue  # "(see)", "(England)" or "(Ab)" is no abbreviation: "VTE", "nAb" and "RCTs" are
        k = bisect.bisect_left(starts, index.to_norm(m.start(1)))
        key = short.lower().removesuffix("s") if short.endswith("s") and short[:-1].isupper() else short.lower()
        if k >= len(words) or words[k] != short.lower():
            continue  # written as several tokens ("IL-6"): the page writes it as the matcher reads it
        reach = min(len(short) + 5, 2 * len(short))
        first = k
        while first > 0 and k - first < reach and first not in breaks:
            first -= 1  # the words before the bracket, in its sentence
        before = list(words[first:k])
        n = long_form(key, before)
        if n is None or (n == 1 and len(before[-1]) <= len(key)):
            continue
        for w in before[len(before) - n :]:
            if w.isalpha() and w != key and telling(w):
                found.setdefault(stem(w), set()).add(words[k])
    return {w: frozenset(a) for w, a in found.items()}
