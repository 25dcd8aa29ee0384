"""The section a page's sentence stands under, read from the labels that open sections ("BACKGROUND:", "Results:").

A structured abstract, a report or a press release says what each of its parts is for: the
scene ("BACKGROUND:", "OBJECTIVE:", "Importance:"), how a study was made ("METHODS:", "Main
Outcomes and Measures:") and what it found ("RESULTS:", "Conclusions and Relevance:",
"Interpretation:"). The ranking (``core.diagnose.rank``) weighs a sentence by its section: the
scene shares a claim's topic words, the findings hold its evidence. Labels are read once a page
in its opening characters, and each holds until the next label. It reads; it never ranks.
"""

from __future__ import annotations

import bisect
import itertools
import re
import weakref
from collections.abc import Iterator, Sequence

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
