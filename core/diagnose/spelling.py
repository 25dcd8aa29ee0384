"""A word's other English spellings: British and American ("behaviour" and "behavior", "faecal" and "fecal").

A news claim and the study it paraphrases, or an answer and the page it cites, are often
written on two sides of the Atlantic: the claim's "behaviors" is the abstract's "behaviour",
its "hospitalisation" the page's "hospitalization". ``spellings`` returns the other spellings
by the regular correspondences (-our/-or, -ise/-ize, -yse/-yze, -tre/-ter, -ogue/-og,
-ence/-ense, a doubled "l" before an ending, "ae" and "oe" of Greek and Latin words); the
ranking (``core.diagnose.family.related``) looks them up only when the page holds no form of
the word as the claim spells it, with the irregular ones breame lists (1,700 pairs: "odour" and
"odor", "fibre" and "fiber", "neighbourhood" and "neighborhood", "yoghurt" and "yogurt"), a fifth
of which no rule spells. It only spells; it never says a page holds a word.
"""

from __future__ import annotations

import functools
import re

from breame.spelling import get_american_spelling, get_british_spelling

# (pattern, replacement), each tried both ways: the second pair is the first read backwards.
_ENDINGS = (
    (re.compile(r"(?<=\w\w\w)our(s|ed|ing|ite|ites|able|ful)?$"), r"or\1"),  # behaviour, favourite, colourful
    (re.compile(r"(?<=\w\w\w)or(s|ed|ing|ite|ites|able|ful)?$"), r"our\1"),
    (re.compile(r"(?<=\w\w\w)is(e|es|ed|ing|ation|ations|er|ers)$"), r"iz\1"),  # hospitalisation, organised
    (re.compile(r"(?<=\w\w\w)iz(e|es|ed|ing|ation|ations|er|ers)$"), r"is\1"),
    (re.compile(r"(?<=\w\w)ys(e|es|ed|ing)$"), r"yz\1"),  # analyse, paralysed
    (re.compile(r"(?<=\w\w)yz(e|es|ed|ing)$"), r"ys\1"),
    (re.compile(r"(?<=\w\w\w)tre(s|d)?$"), r"ter\1"),  # centre, litres
    (re.compile(r"(?<=\w\w\w)ter(s|ed)?$"), r"tre\1"),
    (re.compile(r"(?<=\w\w\w)ogue(s)?$"), r"og\1"),  # catalogue, dialogues
    (re.compile(r"(?<=\w\w\w)og(s)?$"), r"ogue\1"),
    (re.compile(r"(?<=\w\w\w[aeiou])nce(s)?$"), r"nse\1"),  # defence, licence
    (re.compile(r"(?<=\w\w\w[aeiou])nse(s)?$"), r"nce\1"),
    (re.compile(r"(?<=\w\w[aeiou])ll(ed|ing|er|ers)$"), r"l\1"),  # travelled, modelling, labelled
    (re.compile(r"(?<=\w\w[aeiou])l(ed|ing|er|ers)$"), r"ll\1"),
)
# "ae" and "oe" of Greek and Latin words: the British spelling keeps them ("haemorrhage", "oedema", "faecal").
_DIGRAPH = re.compile(r"ae|^oe|(?<=[ns]t)oe|(?<=h)oe(?=m)|(?<=rrh)oe")
_AMERICAN_STARTS = {
    "hem": "haem", "fec": "faec", "anem": "anaem", "anest": "anaest", "ped": "paed", "esoph": "oesoph",
    "estr": "oestr", "edem": "oedem", "etiol": "aetiol", "orthoped": "orthopaed", "diarrhe": "diarrhoe",
}  # fmt: skip
_SPELLING_MIN_CHARS = 5


@functools.lru_cache(maxsize=16384)  # a brief's words recur
def spellings(word: str) -> frozenset[str]:
    """Return the word's other English spellings, never the word: listed ones, and regular ones of long words."""
    if not word.isalpha():
        return frozenset()
    # The list's spellings are lower case: only a lower-case word is looked up in it ("Colour" is no "color").
    out = {get_american_spelling(word), get_british_spelling(word)} if word.islower() else set()
    if len(word) >= _SPELLING_MIN_CHARS:
        for pattern, repl in _ENDINGS:
            out.add(pattern.sub(repl, word))
        out.add(_DIGRAPH.sub(lambda m: m.group()[1:], word))  # haemorrhage -> hemorrhage, oedema -> edema
        for american, british in _AMERICAN_STARTS.items():
            if word.startswith(american) and not word.startswith(british):
                out.add(british + word[len(american) :])
    out.discard(word)
    return frozenset(out)
