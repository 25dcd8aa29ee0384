"""A quote read as the matcher compares it: normalised, tokenised, with the breaks it shows.

``quote_tokens`` is the one reading of a quote's text, used by the matcher (through
``quote_part``, one ellipsis fragment at a time) and by the diagnosis, so that both see the
same tokens and the same breaks. It reads; it refuses to look anything up on a page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.text.breaks import quote_breaks, weak_breaks
from core.text.normalise import Normalised, normalise_text
from core.text.tokens import SIGN, blank, join_clitics, tokenise

_BRACKET = re.compile(r"[)\]}]")


@dataclass(frozen=True)
class QuoteTokens:
    """A quote's normalised text, its tokens with their spans in it, and the breaks before each token."""

    norm: Normalised
    words: list[str]
    starts: list[int]
    ends: list[int]
    breaks: list[bool]
    signs: int  # how many tokens are signs (%, $...) rather than words


def _read(text: str) -> tuple[str, tuple[int, ...], list[str], list[int], list[int], list[bool], int]:
    """Return a quote's normalised text and offsets, tokens, their starts and ends, breaks before each, and signs."""
    normal, offsets = normalise_text(text, entities=True)
    work = blank(normal, ())
    words, starts, ends = tokenise(work)
    join_clitics(work, words, starts, ends, text, offsets)
    if not words:
        signs = 0
    elif work.isascii():
        signs = work.count("%") + work.count("$")  # the only signs ASCII holds
    else:
        signs = len(SIGN.findall(work))
    return normal, offsets, words, starts, ends, quote_breaks(text, offsets, starts, ends), signs


def quote_tokens(text: str) -> QuoteTokens:
    """Return a quote's text read as the matcher reads it (entities decoded, markers blanked)."""
    normal, offsets, words, starts, ends, breaks, signs = _read(text)
    return QuoteTokens(Normalised(normal, offsets, len(text)), words, starts, ends, breaks, signs)


@dataclass(frozen=True)
class QuotePart:
    """One ellipsis fragment of a quote, tokenised: its words and the breaks before each."""

    text: str
    words: tuple[str, ...]
    breaks: tuple[bool, ...]
    chars: int  # length of the normalised fragment
    counted: int  # words and numbers, for "too short"
    ostarts: tuple[int, ...] = ()  # each word's start in text
    weak: tuple[int, ...] = ()  # words whose break is a full stop kept only inside a bracket


def quote_part(text: str, *, with_starts: bool = False) -> QuotePart | None:
    """Return a quote fragment normalised and tokenised, or None when it holds no word."""
    # The matcher reads every fragment of every quote: no QuoteTokens record on its way.
    normal, offsets, words, starts, ends, breaks, signs = _read(text)
    if not words:
        return None
    ostarts = tuple([offsets[s] for s in starts]) if with_starts else ()
    weak = weak_breaks(text, offsets, starts, ends) if any(breaks) and _BRACKET.search(text) else ()
    return QuotePart(text, tuple(words), tuple(breaks), len(normal), len(words) - signs, ostarts, weak)
