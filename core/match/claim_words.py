"""The claim comparison's words: which carry no claim, which word a denial, which hedges say the same.

``word_stem`` and ``is_content`` read words as ``core.match.compare`` compares them, on both sides
alike; the lists are English, as the comparison is.
"""

from __future__ import annotations

# Words that carry no claim of their own: a negation's head is the first word after it that is none of these.
FUNCTION_WORDS = frozenset(
    """a an the this that these those it its it's they them their there here to of in on at by for from with as
    and or if so than then be is are was were been being am do does did have has had having will would
    shall should can could may might must ever yet always already any anyone anything longer more much very also still
    even quite all both each every some such one i you he she we us our your his her my me who which what when
    where how why among between into through during within across upon via per onto toward towards throughout
    despite""".split()  # noqa: SIM905
)
# Words that word a denial as an ending or an absence: a side holding one the other lacks may say
# with it what the other says with a negation ("stopped supporting" for "no longer supports").
DENIAL_WORDS = frozenset(
    """stop stops stopped stopping cease ceases ceased end ends ended halt halted quit quits discontinue
    discontinued abandon abandoned drop dropped remove removed removes lack lacks lacked fail fails failed refuse
    refused deny denied absent unable disable disabled prevent prevented prohibit prohibited ban banned reject
    rejected exclude excluded excludes omit omitted avoid avoids avoided unlike instead rather""".split()  # noqa: SIM905
)
# Words that say less of something, or none, without a negation ("a lower risk", "reduced", "rarely", "free
# of", "only a few"): a sentence holding one may word what the other side denies with a "not".
LESSENING = frozenset(
    """less fewer lower lowest least smaller smallest reduce reduces reduced reducing decrease decreases decreased
    decreasing decline declines declined declining fall falls fell fallen falling shrink shrinks shrank shrunk
    rarely seldom only free mild minor few little slight slightly low moderate limited protect protects protected
    protecting protection prevents preventing""".split()  # noqa: SIM905
)
# Hedges of one family say the same hedge in other words: the claim keeping any keeps it.
HEDGE_FAMILIES: tuple[frozenset[str], ...] = (
    frozenset("may might could possibly potentially probably likely reportedly allegedly expected".split()),  # noqa: SIM905
    frozenset("estimated approximately roughly about around nearly almost some".split()),  # noqa: SIM905
    frozenset("experimental preliminary provisional tentatively proposed planned".split()),  # noqa: SIM905
)
_CONTRACTED = {"wo": "will", "ca": "can", "sha": "shall"}
# Verbs that say little beside their object, which other words say as well ("registered", "reported").
LIGHT_VERBS = frozenset(
    """record recorded register registered report reported confirm confirmed make made earn earned conduct
    conducted perform performed reach reached receive received get got see saw seen""".split()  # noqa: SIM905
)
# Verbs of two letters whose "-ing" the endings below leave whole ("going" is "go").
_SHORT_VERBS = {"going": "go", "doing": "do", "goes": "go"}
# British spellings read as the American ones: "hospitalised", "analysed", "organisation".
_SPELLINGS = (
    ("isations", "izations"), ("isation", "ization"), ("ising", "izing"), ("ised", "ized"), ("ises", "izes"),
    ("ise", "ize"), ("ysed", "yzed"), ("yse", "yze"),
)  # fmt: skip
# Endings whose final "s" is no plural's: "virus" is the stem of "viruses", "class" of "classes".
_NO_PLURAL = ("us", "ss", "is")
_SUFFIXES = ("ingly", "edly", "ions", "ion", "ing", "ed", "es", "s", "e", "ly")
# A number written out is its digits: "had four coronavirus deaths" counts the "4 deaths" of the page.
_WRITTEN = """zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen
    seventeen eighteen nineteen twenty""".split()  # noqa: SIM905
_NUMBER_WORDS = {w: str(n) for n, w in enumerate(_WRITTEN)}
# The same, as numbers: what a number written out counts.
WRITTEN_NUMBERS = {w: n for n, w in enumerate(_WRITTEN)}


def word_stem(word: str) -> str:
    """Return a word without its commonest English endings ("enabled", "enables", "enable" -> "enabl").

    An adjective in "-ical" is its "-ic" ("neurological" -> "neurologic"), and a number written out
    its digits ("four" -> "4"); "-ment" and "-ion" are the verb's endings ("mutation", "mutated" -> "mutat");
    a British "-ise" the American "-ize" ("hospitalised", "hospitalized"), and "going" is "go"; the "s" of
    "virus", "class" or "illness" is the word's own ("viruses" -> "virus").
    """
    word = word.removesuffix("'s")
    if word in _NUMBER_WORDS:
        return _NUMBER_WORDS[word]
    if word in _SHORT_VERBS:
        return _SHORT_VERBS[word]
    for british, american in _SPELLINGS if "is" in word or "ys" in word else ():
        if word.endswith(british) and len(word) - len(british) >= 4:
            word = word[: -len(british)] + american  # "hospitalised" is "hospitalized"
            break
    if word.endswith("ical") and len(word) > 6:
        return word[:-2]
    for noun in ("ments", "ment"):
        if word.endswith(noun) and len(word) - len(noun) >= 4:
            word = word[: -len(noun)]  # "improvement" is "improve", whose ending goes next
            break
    if word.endswith(_NO_PLURAL):
        return word  # "virus", "class", "illness", "crisis": their "s" is the word's, as "viruses" shows
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def is_content(word: str) -> bool:
    return word not in FUNCTION_WORDS and not word.endswith("n't") and any(c.isalnum() for c in word)


def denied_verb(word: str) -> str:
    """Return the verb a contraction with "n't" denies ("doesn't" -> "does", "won't" -> "will")."""
    base = word.removesuffix("n't")
    return _CONTRACTED.get(base, base)


__all__ = [
    "DENIAL_WORDS",
    "FUNCTION_WORDS",
    "HEDGE_FAMILIES",
    "LESSENING",
    "LIGHT_VERBS",
    "WRITTEN_NUMBERS",
    "denied_verb",
    "is_content",
    "word_stem",
]
