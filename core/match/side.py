"""One side of the claim comparison (core.match.compare), read once: tokens, stems, negation scopes, polarities.

The claim and its evidence are each read as the matcher reads a page (core.match.page), with what
each negation governs (core.match.negation) and the polarity it gives every word.
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import TYPE_CHECKING

from core.match.affixes import denied_roots, denies_alone
from core.match.claim_words import DENIAL_WORDS, LESSENING, denied_verb, is_content, word_stem
from core.match.negation import (
    FINITE_VERBS,
    NOUN_NEGATIONS,
    clause_start,
    gap,
    in_name,
    is_negation,
    negations,
    parities,
    raised,
)
from core.match.page import PreparedPage, prepare
from core.models import PageKind, PageText

if TYPE_CHECKING:
    from core.figures.scan import ReadFigure

# Words before a negation that it may deny by ellipsis ("how pure the seizures were not").
BACK_WORDS = 4
_COMPOUNDS = frozenset({"non", "no", "zero"})
# A "no" or "zero" of a noun with no predicate after it is judged on the noun, not on the place or time
# a preposition after it names ("no reported cases in Brčko District" against "Brčko District has zero cases").
_DETERMINERS = frozenset({"no", "zero"})
_PLACES = frozenset("in at on from during since across within throughout inside outside near".split())  # noqa: SIM905
# Words either side of a shared word a denial worded as an ending stands within ("stopped supporting"):
# farther off ("at the end of 2005 , ... was the third best-selling") it says something else.
_NEAR = 8
# Particles a verb may be written with as one word ("going on", "ongoing"; "set up", "setup").
_PARTICLES = frozenset("on up out off over down back".split())  # noqa: SIM905
# Words after which a "not" names the alternative a comparison sets against ("more protective than not wearing").
_ALTERNATIVE = frozenset({"than", "versus", "vs"})
# The negations that name it there: "than not wearing a mask", "than never smokers", "than no treatment".
_NAMES_ALTERNATIVE = frozenset({"not", "never", "no"})
# Words of degree before a word that say little of it, close to the "none" an affix says ("mild symptoms",
# "asymptomatic"): a word denied by an affix does not part from them.
LITTLE = frozenset("mild minor few little slight slightly low moderate limited".split())  # noqa: SIM905
# A token that is a number, or starts one ("$75", "-3").
NUMBER = re.compile(r"[-$€£¥]?\d")


def _past(words: list[str], j: int) -> bool:
    """Return True when token j reads as a past verb after a noun ("masks exhibited"), not as "the infected" does."""
    return len(words[j]) > 4 and words[j].endswith("ed") and is_content(words[j - 1]) and not NUMBER.match(words[j - 1])


class Side:
    """One side of the comparison read once: tokens, stems, negation scopes and polarities."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.p: PreparedPage = prepare(PageText(text=text, kind=PageKind.TEXT))
        words = self.p.words
        self.stems = [word_stem(denied_verb(w)) if w.endswith("n't") else word_stem(w) for w in words]
        self.hyphened = [i for i in range(len(words) - 1) if self._hyphened(i)]
        self.sentence_of = sentences(self.p)
        found = negations(self.p, verbs=True)
        scopes = [(k, end) for k, end in found if self._denies(k, end)]
        # The negations that are a name's words ("We're Not Gonna Take It"), for core.match.names.
        self.named = [k for k, _ in found if not self._compound(k) and in_name(self.p, k)]
        # Where the words a negation is judged on end before its scope does ("no reported cases | in Brčko").
        self.until: dict[int, int] = {}
        self.scopes = [self._governed(k, end) for k, end in scopes]
        # "no-mask groups": the word a "no-" or "non-" stands on is denied, though no scope is.
        compounds = [(k + 1, k + 2) for k, _ in found if self._compound(k)]
        # The verb a negation stands on is denied with it: "doesn't" and "does not" deny "does".
        self.own = {k: self._own(k) for k, _, _, _ in self.scopes}
        ranges = [(a, b) for _, a, b, _ in self.scopes]
        ranges += [(o, o + 1) for (k, a, b, _) in self.scopes if (o := self.own[k]) is not None and not a <= o < b]
        self._ranges = ranges + compounds
        # The second halves of words written with a hyphen read as one (join_hyphens: "pre-symptomatic").
        self.joined: set[int] = set()
        # Words that deny with an affix, read against the other side (read_affixes).
        self.affixed: set[int] = set()
        # The side's figures with their tokens, read when first needed (core.match.bounds.placed).
        self.figures: list[tuple[ReadFigure, int]] | None = None
        # The tokens of its dates, read when first needed (core.match.bounds.time_tokens).
        self.times: set[int] | None = None
        self.polarity = parities(len(words), self._ranges)
        self.places: dict[str, list[int]] = {}
        for i, s in enumerate(self.stems):
            self.places.setdefault(s, []).append(i)
        self.content_stems = {st for st, w in zip(self.stems, words, strict=True) if is_content(w)}

    def _denies(self, k: int, end: int) -> bool:
        """Return True when the negation at token k denies the words it governs.

        "non-citizens" and "no-mask groups" are other words than "citizens" and "mask", "Faith No
        More" is a name, and "than not wearing a mask" the alternative of a comparison.
        """
        return not (self._compound(k) or in_name(self.p, k) or self._alternative(k))

    def _alternative(self, k: int) -> bool:
        """Return True when the negation at k names the alternative a comparison sets against ("than not wearing").

        "than not wearing a mask" and "than never smokers" deny nothing the sentence says: they are
        what the mask, or the smokers, are set against.
        """
        words = self.p.words
        return (
            k > 0 and words[k] in _NAMES_ALTERNATIVE and words[k - 1] in _ALTERNATIVE and (k - 1) not in self.p.breaks
        )

    def join_hyphens(self, other: Side) -> None:
        """Read a word written with a hyphen as the one word the other side writes without ("code-named", "codenamed").

        Only where the other side holds the joined word and not the first part: "pangolin-associated"
        keeps its "pangolin".
        """
        words = self.p.words
        for i in self.hyphened:
            joined = word_stem(words[i] + words[i + 1])
            if joined in other.places and self.stems[i] not in other.places:
                self._restem(i, joined)
                self.joined.add(i + 1)

    def join_particles(self, other: Side) -> None:
        """Read a verb and its particle as the one word the other side writes ("going on" as "ongoing").

        Either way round ("set up" as "setup"), only where the other side holds the joined word and not the verb.
        """
        words = self.p.words
        for i in range(len(words) - 1):
            if words[i + 1] not in _PARTICLES or (i + 1) in self.p.breaks or not words[i].isalpha():
                continue
            if self.stems[i] in other.places:
                continue
            joined = next(
                (
                    j
                    for j in (word_stem(words[i + 1] + words[i]), word_stem(words[i] + words[i + 1]))
                    if j in other.places
                ),
                None,
            )
            if joined is None:
                continue
            self._restem(i, joined)

    def read_affixes(self, other: Side) -> None:
        """Read a word that denies with an affix as its root denied, where the other side holds the root.

        "were asymptomatic" against "did not exhibit symptoms": the word is its root ("symptom") and
        a negation of its own, governing itself (core.match.affixes). Only where the other side holds
        the root and not the word itself, as a word of its own ("pre-symptomatic" is one word). A side
        that says the root too in the same sentence sets the two against each other ("pregnant and
        nonpregnant women"), and is read as written.
        """
        words = self.p.words
        added = False
        for i, w in enumerate(words):
            if self.stems[i] in other.places:
                continue
            roots = denied_roots(w)
            root = next((r for r in sorted(roots) if self._held(other, r)), None)
            if root is None or self.sentence_of[i] in {
                self.sentence_of[j] for r in roots for j in self.places.get(r, ())
            }:
                continue
            self._restem(i, root)
            self.scopes.append((i, i, i + 1, i))
            self.affixed.add(i)
            self._ranges.append((i, i + 1))
            added = True
        if added:
            self.scopes.sort()
            self.polarity = parities(len(words), self._ranges)

    def _restem(self, i: int, new: str) -> None:
        """Read word i under the stem new instead of its own, in every index of the side."""
        old = self.places[self.stems[i]]
        old.remove(i)
        if not old:
            del self.places[self.stems[i]]
        self.stems[i] = new
        self.places.setdefault(new, []).append(i)
        self.places[new].sort()
        self.content_stems.add(new)

    def around(self, i: int, reach: int, leave_out: frozenset[str] = frozenset()) -> set[str]:
        """Return the stems of the content words within ``reach`` tokens of token i, in its sentence.

        Numbers, negations and the words of ``leave_out`` say nothing of what the word is and are left out.
        """
        a, b = self.sentence_of[i]
        words = self.p.words
        return {
            self.stems[j]
            for j in range(max(a, i - reach), min(b, i + reach + 1))
            if j != i
            and is_content(words[j])
            and not NUMBER.match(words[j])
            and not is_negation(words[j])
            and words[j] not in leave_out
        }

    @staticmethod
    def _held(other: Side, root: str) -> bool:
        """Return True when other holds the root as a word of its own, not as the second half of a hyphened one."""
        return any(j not in other.joined for j in other.places.get(root, ()))

    def _hyphened(self, i: int) -> bool:
        """Return True when words i and i + 1 are one word written with a hyphen ("code-named"), no "no-" or "non-"."""
        words = self.p.words
        return (
            words[i].isalpha()
            and words[i + 1].isalpha()
            and words[i] not in _COMPOUNDS
            and (i + 1) not in self.p.breaks
            and gap(self.p, i + 1) == "-"
        )

    def _compound(self, k: int) -> bool:
        """Return True when the negation at token k is the "no-" or "non-" of a compound ("no-mask")."""
        return self.p.words[k] in _COMPOUNDS and k + 1 < len(self.p.words) and gap(self.p, k + 1) == "-"

    def _own(self, k: int) -> int | None:
        """Return the token of the verb the negation at k stands on: itself for "doesn't", "does" for "does not"."""
        words = self.p.words
        if words[k].endswith("n't"):
            return k
        if words[k] == "not" and k > 0 and words[k - 1] in FINITE_VERBS and (k - 1) not in self.p.breaks:
            return k - 1
        return None

    def _governed(self, k: int, end: int) -> tuple[int, int, int, int]:
        """Return (negation, first, end, decides from) of what the negation at k governs and is judged on.

        Its words after it in its clause; when none of those says anything ("you are not.", "may not
        be that"), the few words before it in its clause, which it denies by ellipsis. A negation of a
        noun ("no users have reported crashes") is judged on its predicate when it has one, so that
        "neither Linux nor Windows is supported" agrees with "Linux is not supported".
        """
        words = self.p.words
        if (clause := raised(self.p, k)) is not None:
            return k, clause[0], clause[1], clause[0]
        if not any(is_content(w) for w in words[k + 1 : end]):
            a = max(clause_start(self.p, k), k - BACK_WORDS)
            if any(is_content(w) for w in words[a:k]) or k + 1 == end:
                return k, a, k, a
        # "None of these surgical masks exhibited adequate filter performance": after "none of" the
        # predicate may start on a past verb, once a noun has named what is counted.
        partitive = k + 1 < end and words[k + 1] == "of"
        verb = next((j for j in range(k + 2, end) if words[j] in FINITE_VERBS or (partitive and _past(words, j))), None)
        decides = verb if verb is not None and words[k] in NOUN_NEGATIONS else k + 1
        if verb is None and words[k] in _DETERMINERS:
            self.until[k] = next((j for j in range(k + 2, end) if words[j] in _PLACES), end)
        return k, k + 1, self._listed(end), decides

    def _listed(self, end: int) -> int:
        """Return where a scope ending at ``end`` ends once a list after its colon is read into it.

        "eight African countries have yet to report a case : Botswana , Burundi , Comoros" says it of
        each one listed: a colon before items set apart by commas, with no verb of their own, to the
        sentence's end. Any other colon ends the scope ("is not enabled: you must turn it on").
        """
        words = self.p.words
        if end >= len(words) or end in self.p.breaks or ":" not in gap(self.p, end):
            return end
        last = self.sentence_of[end][1]
        items = words[end:last]
        gaps = [gap(self.p, j) for j in range(end + 1, last)]
        listed = any("," in g for g in gaps) and not any(":" in g or ";" in g for g in gaps)
        return last if listed and not any(w in FINITE_VERBS for w in items) else end

    def denies_nothing(self, i: int, against: Side) -> bool:
        """Return True when the sentence of token i words no denial: no negation, denial word or negating affix.

        Nor a word of lessening ("lower", "only"), nor a comparison of equality ("did as well as others"); a
        negation that denies nothing there (a name's, a comparison's alternative: "than never smokers") is none,
        and so is one that denies what ``against`` denies too ("failing to sell" for its "unable to sell").
        """
        a, b = self.sentence_of[i]
        said_too: set[int] = set()
        for k, first, end, _ in self.scopes:
            if not a <= k < b:
                continue
            if not self._denied_by(against, first, end):
                return False  # "has yet to report", "confirmed zero cases"
            said_too.update({k, *range(first, end)})
        words = self.p.words
        if any(self.polarity[j] for j in range(a, b) if j not in said_too):
            return False  # "no-mask groups"
        if any(words[j] == words[j + 2] == "as" and words[j - 1] in FINITE_VERBS for j in range(max(a, 1), b - 2)):
            return False  # "did as well as others", "is as safe as": a comparison of equality says no difference
        return not any(
            w in DENIAL_WORDS or w in LESSENING or denies_alone(w)
            for j, w in enumerate(words[a:b], a)
            if j not in said_too
        )

    def _denied_by(self, other: Side, first: int, end: int) -> bool:
        """Return True when other denies, wherever it says it, a content word of the words [first, end)."""
        return any(
            is_content(self.p.words[j])
            and (places := other.places.get(self.stems[j]))
            and all(other.polarity[x] for x in places)
            for j in range(first, end)
        )

    def is_name(self, i: int) -> bool:
        """Return True when token i is written as a name's ("iPhone", the "19" of "COVID-19") or is a number."""
        p = self.p
        text = p.page.text
        if NUMBER.match(p.words[i]) and not (i > 0 and gap(p, i) == "-"):
            return True
        while i > 0 and not text[p.ostarts[i]].isalpha() and gap(p, i) == "-":
            i -= 1
        word = text[p.ostarts[i] : p.oends[i]]
        if i == self.sentence_of[i][0]:
            word = word[1:]  # a sentence's first word has its capital whatever it is: "Nurses in particular"
        return any(c.isupper() for c in word)

    def sentence_words(self, i: int) -> set[str]:
        """Return the stems of the sentence holding token i."""
        a, b = self.sentence_of[i]
        return set(self.stems[a:b])

    def near_tokens(self, i: int) -> set[str]:
        """Return the words, as written (normalised), of token i's sentence within _NEAR words of it, none denied.

        A word a negation denies says the other thing: "not completely absent" words no absence.
        """
        a, b = self.sentence_of[i]
        return {self.p.words[j] for j in range(max(a, i - _NEAR), min(b, i + _NEAR + 1)) if not self.polarity[j]}

    def sentence_tokens(self, i: int) -> set[str]:
        """Return the words, as written (normalised), of the sentence holding token i."""
        a, b = self.sentence_of[i]
        return set(self.p.words[a:b])

    def shown(self, first: int, last: int) -> str:
        """Return the side's own words from token first to last (inclusive), "…" where cut."""
        n = len(self.p.words)
        a, b = max(0, first), min(n - 1, last)
        text = self.p.original_text(a, b)
        return ("…" if a > 0 else "") + text + ("…" if b < n - 1 else "")


def sentences(p: PreparedPage) -> list[tuple[int, int]]:
    """Return, for every token, the token range [a, b) of its sentence."""
    bounds = [0, *sorted(b for b in p.breaks if 0 < b < len(p.words)), len(p.words)]
    out: list[tuple[int, int]] = []
    for a, b in pairwise(bounds):
        out.extend([(a, b)] * (b - a))
    return out


def span(side: Side, first: int, last: int, offset: int | None) -> tuple[int, int]:
    a, b = side.p.ostarts[first], side.p.oends[last]
    base = offset or 0
    return a + base, b + base
