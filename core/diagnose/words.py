"""The diagnosis's view of tokens: the matcher's own tokens (``core.text``) with their spans.

A quote is read by ``core.text.quote_tokens``, a page's words are the prepared page's tokens
(``core.diagnose.page_index``), so that the diagnosis forgives exactly what the matcher
forgives: "U.S." is "us", "1,29,940" is "129940", "25%" is "25" and "%", each CJK character a
token. This module only holds tokens; it refuses to search or to compare.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.text import Normalised, is_sign, quote_tokens


def has_digit(k: str) -> bool:
    """Return True when a token holds a digit (a number)."""
    return not k.isalpha() and any(c.isdigit() for c in k)  # a word of letters, most tokens, is answered in C


def is_figure_part(k: str) -> bool:
    """Return True for a token that is part of a figure: a number or a sign (``%``, ``$``...)."""
    return has_digit(k) or is_sign(k)


@dataclass(frozen=True)
class Words:
    """Tokens of a stretch of normalised text: keys and their spans in that text.

    ``first`` is the index of the first token among its page's tokens (0 for a quote), so that
    a page's breaks, kept by token index, can be asked about these words.
    """

    keys: tuple[str, ...]
    starts: tuple[int, ...]
    ends: tuple[int, ...]
    first: int = 0

    def __len__(self) -> int:
        return len(self.keys)

    def cut(self, lo: int, hi: int) -> Words:
        """Return tokens lo..hi-1 (spans unchanged)."""
        return Words(self.keys[lo:hi], self.starts[lo:hi], self.ends[lo:hi], self.first + lo)


def quote_words(text: str) -> tuple[Normalised, Words, frozenset[int]]:
    """Return a quote's normalised text, its tokens, and the indices j with a break after token j."""
    t = quote_tokens(text)
    breaks = frozenset(k - 1 for k, b in enumerate(t.breaks) if b)
    return t.norm, Words(tuple(t.words), tuple(t.starts), tuple(t.ends)), breaks


def count_words(text: str) -> int:
    """Return how many tokens the matcher reads in a text."""
    return len(quote_tokens(text).words)
