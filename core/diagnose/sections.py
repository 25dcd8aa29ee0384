"""The section a page's sentence stands under, read from the labels that open sections ("BACKGROUND:", "Results:").

A structured abstract, a report or a press release says what each of its parts is for: the
scene ("BACKGROUND:", "OBJECTIVE:", "Importance:"), how a study was made ("METHODS:", "Main
Outcomes and Measures:") and what it found ("RESULTS:", "Conclusions and Relevance:",
"Interpretation:"). The ranking (``core.diagnose.rank``) weighs a sentence by its section: the
scene shares a claim's topic words, the findings hold its evidence. Labels are read once a page
in its opening characters, and each holds until the next label.

An abstract without labels says the same in its authors' voice (``voice``): "we found", "here we
show", "this study demonstrates" open its findings, "we aimed", "we conducted" its methods, and
what it says before its first sentence in that voice, within its opening sentences, sets the
scene ("The ongoing outbreak of COVID-19 has spread rapidly…"). It reads; it never ranks.
"""

from __future__ import annotations

import bisect
import itertools
import re
import weakref
from collections.abc import Iterator, Mapping, Sequence

from core.diagnose.page_index import Prepared, page_index, per_page

# A label opens the page, a line or a sentence: a few words and a colon ("Design, Setting, and Participants:").
_LABEL = re.compile(r"(?:^|(?<=[.!?:;)\]]\s)|(?<=\n))\s*(?:abstract\s+)?([A-Za-z][A-Za-z ,]{2,40}?)\s*:", re.I | re.M)
_SCENE_WORDS = """
    background backgrounds objective objectives importance aim aims purpose purposes rationale introduction
    context funding design setting settings participants exposure exposures intervention interventions
"""
_METHOD_WORDS = "methods method main outcome outcomes measures measure trial registration"
_FINDING_WORDS = "results result findings finding conclusions conclusion interpretation discussion implications"
#: A label's first word and the kind of section it opens.
KINDS: tuple[tuple[str, frozenset[str]], ...] = tuple(
    (kind, frozenset(words.split()))
    for kind, words in (("scene", _SCENE_WORDS), ("method", _METHOD_WORDS), ("finding", _FINDING_WORDS))
)
# Labels are read in a page's first characters only: an abstract's or a report's, not a book's.
_SECTION_MAX_CHARS = 200_000
_LABEL_MAX_WORDS = 5

_CACHE: dict[int, tuple[weakref.ref[Prepared], dict[int, str]]] = {}
# What _LABEL may hold before its colon (white space, letters, spaces, commas), read backwards: change both together.
_BEFORE_COLON = re.compile(r"[\sA-Za-z ,]*", re.I)


def _labels(text: str, end: int) -> Iterator[re.Match[str]]:
    """Yield what ``_LABEL.finditer(text, 0, end)`` yields, trying the pattern only on the run before each colon.

    A label's match ends at the first colon after its start and holds only white space, letters, spaces
    and commas before it: it starts in the run of those that ends at its colon (found on the text read
    backwards), so the pattern is tried there and nowhere else, not at every character of the page.
    """
    backwards = text[:end][::-1]
    colon = text.find(":", 0, end)
    while colon >= 0:
        at = len(backwards) - colon  # where text[colon - 1] stands read backwards
        run = _BEFORE_COLON.match(backwards, at)
        m = _LABEL.search(text, colon - (run.end() - at if run else 0), colon + 1)
        if m is not None:
            yield m
        colon = text.find(":", colon + 1, end)


def section_kinds(prepared: Prepared, bounds: Sequence[int]) -> dict[int, str]:
    """Return the kind ("scene", "method", "finding") of section each labelled sentence j stands under."""
    return per_page(_CACHE, prepared, lambda: _kinds(prepared, bounds))


def _kinds(prepared: Prepared, bounds: Sequence[int]) -> dict[int, str]:
    index = page_index(prepared)
    marks: list[tuple[int, str]] = []
    for m in _labels(prepared.page.text, _SECTION_MAX_CHARS):
        head = m.group(1).lower().replace(",", " ").split()
        if not head or len(head) > _LABEL_MAX_WORDS:
            continue
        kind = next((k for k, names in KINDS if head[0] in names), "")
        k = bisect.bisect_left(prepared.starts, index.to_norm(m.start(1)))
        marks.append((bisect.bisect_right(bounds, k) - 1, kind))
    out: dict[int, str] = {}
    for (j, kind), (nxt, _) in itertools.pairwise([*marks, (len(bounds) - 1, "")]):
        if kind:
            out.update((i, kind) for i in range(j, nxt))
    return out


# An author's "we", or "our study" / "these findings", followed by a verb that reports a finding ("we found",
# "these findings suggest") or one that says how the study was made ("we conducted"). Measured on the claims
# corpus's abstracts (make eval claims): a Check-COVID sentence "we found…" holds the labelled evidence 38% of
# the time, "we investigated…" 10%, any other 14%.
_STUDY = frozenset({"study", "analysis", "work", "report", "trial", "review", "results", "findings", "data"})
_REPORTED_WORDS = """
    found find finds show showed shown shows demonstrate demonstrated demonstrates report reported observed
    identified confirm confirmed estimate estimated calculated conclude concluded reveal revealed provide provides
    suggest suggests indicate indicates
"""
_MADE_WORDS = """
    aimed aim sought investigated investigate examined examine evaluated evaluate assessed assess analyzed
    analysed analyze analyse conducted conduct performed perform enrolled collected collect used use describe
    described review reviewed developed develop designed design measured measure compared compare
"""
_REPORTED, _MADE = frozenset(_REPORTED_WORDS.split()), frozenset(_MADE_WORDS.split())
# The authors' voice is looked for in a sentence's opening tokens: a clause of its own, not a table's cell.
_VOICE_MAX_TOKENS = 60


def voice(words: Sequence[str], first: int, last: int) -> str:
    """Return "finding" or "method" for the sentence of tokens [first, last) its authors' verb tells, else ""."""
    for i in range(first, min(last, first + _VOICE_MAX_TOKENS) - 1):
        kind = _tells(words, i, first)
        if kind:
            return kind
    return ""


def _tells(words: Sequence[str], i: int, first: int) -> str:
    """Return what token i of a sentence opening at token first tells of its voice ("we found": "finding"), or ""."""
    k = words[i]
    if k == "we" or (k in _STUDY and i > first and words[i - 1] in ("our", "this", "these", "the", "present")):
        if words[i + 1] in _REPORTED:
            return "finding"
        if words[i + 1] in _MADE:
            return "method"
    return ""


def voices(prepared: Prepared, bounds: Sequence[int], of: Sequence[int]) -> dict[int, str]:
    """Return ``voice`` of each sentence j that has one, read once a page where "we" and a study's words stand.

    ``of`` is each token's sentence. The same as asking ``voice`` of every sentence (each sentence's
    first token telling a voice, in text order, tells it), looking only where those words stand.
    """
    return per_page(_VOICES, prepared, lambda: _voices(prepared, bounds, of))


_VOICES: dict[int, tuple[weakref.ref[Prepared], dict[int, str]]] = {}


def _voices(prepared: Prepared, bounds: Sequence[int], of: Sequence[int]) -> dict[int, str]:
    words, post = prepared.words, prepared.postings
    out: dict[int, str] = {}
    for i in sorted(p for k in ("we", *_STUDY) for p in post.get(k, ())):
        j = of[i]
        first, last = bounds[j], bounds[j + 1]
        if j not in out and i < min(last, first + _VOICE_MAX_TOKENS) - 1:
            kind = _tells(words, i, first)
            if kind:
                out[j] = kind
    return out


def opening_scene(voiced: Mapping[int, str], most: int) -> range:
    """Return the sentences before a page's first in its authors' voice (``voices``), if one of its first most."""
    first = min(voiced, default=most)
    return range(first if first < most else 0)
