"""Words that a page's markup splits: where two elements' texts meet inside a word, as a second reading.

A browser shows ``<a>expand</a><a>ed</a>`` as "expanded", and so does the extractor. Text taken
from the same page by a tool that puts a space at every tag ("expand ed", "Tour tre k",
"Updated Police" from ``<span>Updated</span><a>Police...``) is still the page's words: a space
where the markup splits a word is typography. Each such joint is recorded as an uncertain word
boundary (``PageText.line_ends``: a space inserted there), which the matcher reads only for a
quote its own reading misses (``core.match.alternative``), and maps back to the page's characters.

It refuses joints that could change what the page says: between two digits ("$1<sup>99</sup>"),
in scripts written without spaces, and where both halves are words the page uses on their own
while the second goes on in lower case ("<b>not</b>able" is never "not able"). A case change
("Updated|Police") is a boundary a reader sees, whatever the words.
"""

from __future__ import annotations

import re

from core.models import LineEnd

# Letters and digits of scripts written with spaces (CJK has a token per character already).
_LAST_SPACED = "\u2fff"
_WORD_LEFT = re.compile(r"[^\W_]+\Z")
_WORD_RIGHT = re.compile(r"[^\W_]+")
# Characters looked at on each side of a joint for its halves: longer words are not split ones.
_REACH = 40


def is_joint(before: str, after: str) -> bool:
    """Return True when two texts meeting with no space between them meet inside a word."""
    return (
        before.isalnum()
        and after.isalnum()
        and before <= _LAST_SPACED
        and after <= _LAST_SPACED
        and not (before.isdigit() and after.isdigit())
    )


def _stands_alone(lowered: str, word: str) -> bool:
    """Return True when ``word`` (lower case) is somewhere in the text as a whole word of its own."""
    # Led by the word itself, so that the scan runs in C from one place the word ends a run to the
    # next: a word of a letters-in-spans page stands inside thousands of longer runs.
    for m in re.finditer(rf"{re.escape(word)}(?![^\W_])", lowered):
        i = m.start()
        if i == 0 or not (lowered[i - 1].isalnum() or lowered[i - 1] == "_"):
            return True
    return False


def word_joints(text: str, joints: list[int], limit: int) -> tuple[LineEnd, ...]:
    """Return the joints a quote may read as a space (at most ``limit``), as insertions of one space."""
    if not joints:
        return ()
    lowered: str | None = None
    alone: dict[str, bool] = {}  # each word looked up once: a page of letters in spans asks the same few
    kept: list[LineEnd] = []
    for at in joints:
        if len(kept) >= limit:
            break
        left = _WORD_LEFT.search(text, max(0, at - _REACH), at)
        right = _WORD_RIGHT.match(text, at, at + _REACH)
        if left is None or right is None:
            continue
        head, tail = left.group(), right.group()
        if not (head[-1].islower() and tail[0].isupper()):
            if lowered is None:  # searched on its own: none of its positions is used
                lowered = text.lower()
            both = True
            for word in (head.lower(), tail.lower()):
                if word not in alone:
                    alone[word] = _stands_alone(lowered, word)
                both = both and alone[word]
            if both:
                continue
        kept.append((at, at, " ", True))
    return tuple(kept)
