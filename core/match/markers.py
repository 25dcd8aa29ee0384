"""Note numbers stuck to words in a quote copied from a browser: "alerts,22 and pages".

A page's superscript note marker (``<sup>22</sup>``) is skipped by the matcher, but copying
the rendered page glues its digits to the word or punctuation before it, or to the word after
it at the start of a note. When a fragment is not found as written, this module removes such
glued digits and accepts a match only where the page has a skipped note marker with exactly
those digits at exactly that place. It never drops digits anywhere else: "Python3" or "MP3"
stay words unless the page itself marks those digits as a note.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from core.match.page import PreparedPage
from core.text import QuotePart, quote_part

_GLUED = re.compile(
    # "alerts,22 and", "5 seconds.23 If", "user-visible?25", 'said."4'
    r"(?<=[^\W\d_][.,;:!?\"'”’)])[1-9]\d{0,2}(?=[\s\"'”’)]|$)"
    r"|(?<=[^\W\d_][.,;:!?][\"'”’)])[1-9]\d{0,2}(?=\s|$)"
    # "carnivore22 and": a letter, then the digits
    r"|(?<=[^\W\d_])[1-9]\d{0,2}(?=[\s.,;:!?\"'”’)]|$)"
    # "22Sometimes known as": a note's own number at its start
    r"|^[1-9]\d{0,2}(?=[^\W\d_])"
)


def unglued(text: str) -> tuple[QuotePart, list[tuple[int, str]]] | None:
    """Return the fragment read without its glued note numbers and the numbers removed, or None when none is glued."""
    removed = [(m.start(), m.group()) for m in _GLUED.finditer(text)]
    if not removed:
        return None
    pieces, pos = [], 0
    for start, digits in removed:
        pieces.append(text[pos:start])
        pos = start + len(digits)
    pieces.append(text[pos:])
    part = quote_part("".join(pieces), with_starts=True)
    return (part, removed) if part is not None else None


def glued_marker_match(p: PreparedPage, text: str, limit: int) -> tuple[QuotePart, list[int]] | None:
    """Return the fragment without glued note numbers and where it stands, or None when nowhere."""
    read = unglued(text)
    if read is None:
        return None
    part, removed = read
    # Where each removed number stood: before which word of the shortened fragment.
    at, shift = [], 0
    for start, digits in removed:
        at.append((bisect_left(part.ostarts, start - shift), digits))
        shift += len(digits)
    found = [i for i in p.find(part.words, part.breaks, limit, part.weak) if all(_note_at(p, i + j, d) for j, d in at)]
    kept = QuotePart(text, part.words, part.breaks, part.chars, part.counted, part.ostarts, part.weak)
    return (kept, found) if found else None


def _note_at(p: PreparedPage, k: int, digits: str) -> bool:
    """Return True when the page skips a note marker reading digits right before its token k."""
    a = p.ends[k - 1] if k > 0 else 0
    b = p.starts[k] if k < len(p.starts) else len(p.work)
    shown, kept = p.norm.text[a:b], p.work[a:b]
    return re.search(rf"(?<!\d){digits}(?!\d)", shown) is not None and digits not in kept
