"""A negation against a side that words no denial at all: the shared words decide though the rest is paraphrased.

The claim comparison (core.match.compare) leaves a negation undecided when the other side says
neither what it denies first nor most of the rest, since the other side may word the same denial
its own way ("resistant to infection" for "not susceptible to infection"). It can do so only with
some denial: a negation, a denial or lessening word ("lacks", "lower", "only"), a negating affix
("harmless") or a comparison of equality ("did as well as others"). Where the other side's
sentences holding the shared words have none (``Side.denies_nothing``), the shared words decide:
"Cats are not susceptible to infection" parts from "SARS-CoV-2 has infected cat population".
A name says which thing a sentence is about, not what it says of it, and decides nothing here;
nor does a bound of a number, which core.match.bounds judges. An emphatic "does" ("does
significantly help") is what a "does not" leaves when its "not" is dropped: against it the shared
words, or the subject, decide though the verbs differ.
"""

from __future__ import annotations

from core.figures.vocab import NEGATABLE
from core.match.claim_words import denied_verb, is_content
from core.match.negation import FINITE_VERBS, clause_break, clause_start, gap
from core.match.side import NUMBER, Side

# Comparators a negation may bound a number with ("not over $ 15 million", "less than 45 % ... are not"):
# the figures rules' own list (``core.figures.vocab.NEGATABLE``), as words, longest first.
COMPARATORS = tuple(tuple(c.split()) for c in sorted(NEGATABLE, key=lambda c: (-len(c), c)))
# Words that open a clause of its own before a negation: its subject is then no plain one of the sentence.
_OPENS_CLAUSE = frozenset(
    "that which who whom whose whether if when because since although though while as and or but than".split()  # noqa: SIM905
)
_CURRENCY = frozenset("$€£¥")
_DO = frozenset({"do", "does", "did"})
# Words before a "do" that make it a question's, an inversion's or a pro-verb's, not an emphatic one.
_NOT_EMPHATIC = frozenset("how what why where when who which so nor neither only as than if whether".split())  # noqa: SIM905


def said_plainly(side: Side, other: Side, k: int, shared: list[int]) -> bool:
    """Return True when other says the words the negation at k shares with it only in sentences that deny nothing.

    Shared names decide nothing, and a negation of a bound ("not over $ 15 million") is left to its number.
    """
    if bounds_number(side, k):
        return False
    places = [j for i in shared if not side.is_name(i) for j in other.places[side.stems[i]]]
    return bool(places) and all(other.denies_nothing(j, side) for j in places)


def plain_subject(side: Side, other: Side, k: int) -> tuple[int, int] | None:
    """Return (a subject word, its place on other) when other says the subject of the negation at k and denies nothing.

    "Some patients hospitalized with COVID-19 had not new-onset psychosis" against "COVID-19 patients
    can develop psychotic symptoms": the negation opens the sentence's first predicate, governs
    words of its own, and the other side says its subject ("patients") only where it words no denial.
    Not for a negation in a clause after another ("Python supports it and Ruby does not"), after a
    colon or a quotation mark, or one of a bound.
    """
    words = side.p.words
    a = clause_start(side.p, k)
    if a != side.sentence_of[k][0] and gap(side.p, a).strip() != ",":
        return None  # "with the consensus : `` … without showing": an other's words
    if bounds_number(side, k) or not any(is_content(w) for w in words[k + 1 : side.sentence_of[k][1]]):
        return None
    own = side.own.get(k)
    before = [i for i in range(a, k) if i != own]
    if any(words[i] in FINITE_VERBS or words[i] in _OPENS_CLAUSE or words[i].endswith("n't") for i in before):
        return None
    for i in before:
        if not is_content(words[i]) or side.stems[i] not in other.places or side.is_name(i) or side.polarity[i]:
            continue
        places = other.places[side.stems[i]]
        if all(other.denies_nothing(j, side) for j in places):
            return i, places[0]
    return None


def bounds_number(side: Side, k: int) -> bool:
    """Return True when the clause of the negation at k bounds a number ("over $ 15 million", "less than 45 %")."""
    words = side.p.words
    a, b = clause_start(side.p, k), side.sentence_of[k][1]
    for i in range(a, b):
        for c in COMPARATORS:
            at = i + len(c)
            if tuple(words[i:at]) != c:
                continue
            at += at < b and words[at] in _CURRENCY
            if at < b and NUMBER.match(words[at]):
                return True
    return False


def emphatic(side: Side, other: Side, k: int, shared: list[int]) -> bool:
    """Return True when other affirms with an emphatic "does" what the "does not" at k denies of shared words.

    "Hydroxychloroquine does significantly help patients hospitalized" against "These results do not
    support the use of HCQ in patients hospitalised": the shared words decide though the verbs differ.
    """
    own = side.own.get(k)
    if own is None or denied_verb(side.p.words[own]) not in _DO:
        return False
    return any(
        first <= j < end
        for first, end in (other.sentence_of[t] for t in _emphatic_dos(other))
        for i in shared
        for j in other.places[side.stems[i]]
    )


def emphatic_subject(side: Side, other: Side, k: int) -> tuple[int, int] | None:
    """Return (a subject word, its place on other) when other affirms with an emphatic "do" of what the negation denies.

    "The majority of children do have a significantly high risk" against "Whereas most COVID-19 cases
    in children are not severe": the emphatic "do" says the other thing of the subject ("children").
    """
    words = side.p.words
    own = side.own.get(k)
    dos = _emphatic_dos(other)
    for i in range(clause_start(side.p, k), k):
        if i == own or not is_content(words[i]) or side.is_name(i) or side.stems[i] not in other.places:
            continue
        for j in other.places[side.stems[i]]:
            first, end = other.sentence_of[j]
            if any(first <= t < end for t in dos):
                return i, j
    return None


def _emphatic_dos(other: Side) -> list[int]:
    """Return the tokens of other's emphatic, affirmed "do", "does" and "did" ("does significantly help")."""
    words = other.p.words
    out: list[int] = []
    for t in (t for t, w in enumerate(words) if w in _DO and not other.polarity[t] and t not in other.p.breaks):
        v = t + 1
        while v < len(words) - 1 and words[v].endswith("ly") and v not in other.p.breaks:
            v += 1  # "does significantly help"
        if v >= len(words) or v in other.p.breaks or not words[v].isalpha():
            continue
        if not (is_content(words[v]) or words[v] == "have"):
            continue  # "did it", "do so", "does this": no verb after it ("do have" has one)
        if t == 0 or words[t - 1] in _NOT_EMPHATIC or clause_break(other.p, t) or words[v].endswith("ing"):
            continue  # "how did they", "so do I", "Did it": a question or an inversion
        out.append(t)
    return out
