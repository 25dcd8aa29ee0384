"""How a PDF block's lines are joined into one text, with the line-end decisions that could go the other way.

Line-end hyphens (measured in tests/quality/eval_pdf.py against "always join" and "always keep"):
a soft hyphen is dropped; the hyphen is kept before a capital or a digit ("COVID-/19"), after an
acronym ("FLAN-/based") and in a three-part compound ("markup-/and-mask"); otherwise the
document's own spelling elsewhere decides ("fine-/tuning" -> "finetuning" in a paper that writes
"finetuning"); without such evidence it is kept when both halves are words of the document
("data-/dependent") and dropped otherwise ("rea-/soning" -> "reasoning"). Words counted as
evidence never include the halves of a broken word. A text layer that lost the hyphen ("shoul" /
"der") is joined only when the whole word occurs in the document and neither half does.

Some of these decisions cannot be known from the text ("in-/depth" read as "indepth", an OCR
layer's "rela" / "tively" left as two words), and a quote copied from a PDF viewer may keep
"mod- els". Each such line end is recorded as an alternative: the characters at the line end and
what they read when the decision is taken the other way (core.match.alternative matches a quote
on that reading when the page's own misses). It refuses to offer a join of two halves that are
both words of the document ("not" / "able" never reads "notable"): a line break there may be
meaningful, and only the document's own vocabulary could say otherwise.
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import pairwise

from core.models import LineEnd

_HYPHENS = "-\u2010\u00ad"
_WORD_BEFORE = re.compile(r"(\w+)[-\u2010\u00ad]$")
_LAST_WORD = re.compile(r"(\w+)$")
_WORD_AFTER = re.compile(r"^(\w+)")
_HYPHENATED = re.compile(r"\b(\w+)[-\u2010](\w+)\b")
_WORDS = re.compile(r"\w+")
_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\u3000-\u303f]")
# A text layer without one hyphenated line end among this many, and with a few line ends whose
# whole word the document writes elsewhere ("passage" / "ways"), lost its hyphens (an OCR layer).
_LINE_ENDS_SEEN = 100
_LOST_SEEN = 2
# A compound the document writes at least this often, and more often than either half alone, is
# its word ("passageway" 29 times, "passage" 4): a break between two words may then be one.
_COMPOUND_SEEN = 3


class Vocabulary:
    """The words and hyphenated compounds a document writes, counted, and whether its text layer lost its hyphens.

    ``words`` counts every word but the halves of a hyphen-broken one; ``inner`` only words inside
    a line (neither first nor last), which no line-end decision can have made or broken. Not a
    dataclass: counters read by the line-end rules, never compared.
    """

    def __init__(self, blocks: list[list[str]]) -> None:
        self.words: Counter[str] = Counter()
        self.compounds: Counter[str] = Counter()
        self.inner: Counter[str] = Counter()
        for lines in blocks:
            broken = False  # the previous line ended in a hyphen: its first word is half a word
            for line in lines:
                lower = line.lower()
                found = _WORDS.findall(lower)
                ends_broken = lower[-1] in _HYPHENS
                self.words.update(found[int(broken) : len(found) - int(ends_broken)])
                self.inner.update(found[1:-1])
                self.compounds.update(f"{m.group(1)}-{m.group(2)}" for m in _HYPHENATED.finditer(lower))
                broken = ends_broken
        self.lost_hyphens = self._lost_hyphens(blocks)

    def _lost_hyphens(self, blocks: list[list[str]]) -> bool:
        """Return True when no line end keeps a hyphen and some are words the document writes whole."""
        ends = lost = 0
        for lines in blocks:
            for line, nxt in pairwise(lines):
                head, tail = _LAST_WORD.search(line), _WORD_AFTER.match(nxt)
                if line[-1] in _HYPHENS and tail:
                    return False
                if head and tail:
                    ends += 1
                    lost += self._attested(head.group(1), tail.group(1))
        return ends >= _LINE_ENDS_SEEN and lost >= _LOST_SEEN

    def _attested(self, head: str, tail: str) -> bool:
        """Return True when the document writes head+tail as one word and one half is no word of it."""
        joined = (head + tail).lower()
        return self.words[joined] > 0 and not (self.inner[head.lower()] and self.inner[tail.lower()])

    def may_join(self, head: str, tail: str) -> bool | None:
        """Return whether head and tail, the two sides of a line end, may read as one word.

        True when the document shows it, False when only a text layer that lost its hyphens
        does (the matcher flags a quote found so), None when they may not.
        """
        if not (head.isalpha() and tail.isalpha()):
            return None
        head_n, tail_n = self.inner[head.lower()], self.inner[tail.lower()]
        joined = self.words[(head + tail).lower()]
        if head_n and tail_n:
            # "not" / "able", "data" / "set": two words the break may mean, unless the document
            # itself writes them as one word, more often than either alone ("passage" / "way").
            return True if joined >= _COMPOUND_SEEN and joined > head_n and joined > tail_n else None
        if joined:
            return True  # one half is no word of the document, the whole word is ("admit" / "ting")
        # A text layer that lost its hyphens: two halves that are no words of it may be one ("rela" /
        # "tively"), or two rare words ("very" / "limited"); only a reader of the page can tell.
        return False if self.lost_hyphens and tail[0].islower() and not head_n and not tail_n else None


def join_lines(lines: list[str], vocabulary: Vocabulary) -> tuple[str, list[LineEnd]]:
    """Return the block's lines joined into one text, and the line ends that could be read the other way."""
    words, compounds = vocabulary.words, vocabulary.compounds
    out = lines[0]
    alternatives: list[LineEnd] = []
    for nxt in lines[1:]:
        before = _at_end(_WORD_BEFORE, out)
        before_word = _at_end(_LAST_WORD, out)
        after = _WORD_AFTER.match(nxt)
        at = len(out)
        if out[-1] in _HYPHENS and before and after:
            head, tail = before.group(1), after.group(1)
            if out[-1] != "\u00ad" and _keep_hyphen(head, tail, nxt[len(tail) :], words, compounds):
                out = out[:-1] + "-" + nxt
                if tail[0].islower() and vocabulary.may_join(head, tail):
                    alternatives.append((at - 1, at, "", True))  # "data-/dependent" may be "datadependent"
            else:
                out = out[:-1] + nxt
                alternatives.append((at - 1, at - 1, "-", True))  # "in-/depth" may be "in-depth"
        elif before_word and after and _lost_hyphen(before_word.group(1), after.group(1), words):
            out += nxt  # a hyphen the text layer lost
            alternatives.append((at, at, " ", True))
        elif _CJK.match(out[-1]) and _CJK.match(nxt[0]):
            out += nxt  # two CJK characters: no spaces between words
        else:
            out += " " + nxt
            join = vocabulary.may_join(before_word.group(1), after.group(1)) if before_word and after else None
            if join is not None:
                alternatives.append((at, at + 1, "", join))  # "rela" / "tively": a hyphen the text layer lost
    return out, alternatives


def _at_end(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """Return pattern's match at the end of text (pattern ends in "$"), reading only as much of its end as it needs.

    A block of thousands of lines grows its text line by line: searching all of it at every line
    end would take the square of its length.
    """
    window = 64
    while True:
        start = max(0, len(text) - window)
        match = pattern.search(text, start)
        if match is None or match.start() > start or start == 0:
            return match
        window *= 4  # the match may reach further back than the window: widen it


def _lost_hyphen(head: str, tail: str, words: Counter[str]) -> bool:
    """Return True for a word broken at a line end whose hyphen the text layer lost ("shoul" / "der")."""
    if not (head.isalpha() and tail.isalpha() and tail[0].islower()):
        return False
    # Neither half is a word of this document, and the whole word is (a recognised text layer).
    return words[head.lower()] <= 1 and words[tail.lower()] <= 1 and words[(head + tail).lower()] > 0


def _keep_hyphen(head: str, tail: str, rest: str, words: Counter[str], compounds: Counter[str]) -> bool:
    """Return True when a hyphen at a line end belongs to the word (a compound), False for a syllable break."""
    if not tail[0].islower() or not head[-1].isalpha() or (len(head) > 1 and head.isupper()):
        return True  # "COVID-19", "Anglo-Saxon", "FLAN-based": not a syllable break
    if rest.startswith(("-", "\u2010")):
        return True  # "markup-/and-mask": a compound of three parts
    compound = f"{head}-{tail}".lower()
    joined = f"{head}{tail}".lower()
    if compounds[compound] or words[joined]:
        return compounds[compound] > words[joined]  # the document's own spelling decides
    # No evidence elsewhere: two halves that are words of the document make a compound ("trade-/off").
    return len(head) > 2 and len(tail) > 2 and words[head.lower()] > 0 and words[tail.lower()] > 0
