"""A quote read as the matcher compares it: normalised, tokenised, with the breaks it shows.

``quote_tokens`` is the one reading of a quote's text, used by the matcher (through
``quote_part``, one ellipsis fragment at a time) and by the diagnosis, so that both see the
same tokens and the same breaks. It reads; it refuses to look anything up on a page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from core.text.breaks import quote_breaks, weak_breaks
from core.text.normalise import Normalised, normalise_text, one_to_one
from core.text.tokens import SIGN, blank, plain_tokens, tokenise

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
    words, starts, ends = tokenise(work, text, offsets)
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


class QuotePart(NamedTuple):
    """One ellipsis fragment of a quote, tokenised: its words and the breaks before each."""

    # Not a dataclass: one is built for every fragment of every quote a check reads, and a
    # named tuple is built several times faster than a frozen dataclass; it is as immutable.

    text: str
    words: tuple[str, ...]
    breaks: tuple[bool, ...]
    chars: int  # length of the normalised fragment
    counted: int  # words and numbers, for "too short"
    ostarts: tuple[int, ...] = ()  # each word's start in text
    weak: tuple[int, ...] = ()  # words whose break is a full stop kept only inside a bracket


# Characters that stand between a quote's tokens or around them, never in one, in plain ASCII.
_NOT_IN_TOKEN = "".join(chr(c) for c in range(32, 127) if not re.fullmatch(r"[a-z0-9%$]", chr(c)))


def _plain_part(text: str) -> QuotePart | None:
    """Return a plain fragment read the quick way, or None when it needs the full reading.

    Plain: it normalises one to one into ASCII, and no sentence mark stands between its first
    token and its last, so that no token has a break before it; its tokens are then read by
    ``plain_tokens``. Most quotes are plain, and they are read as ``quote_part`` reads them.
    """
    normal = one_to_one(text, entities=True)
    if normal is None:
        return None
    inner = normal.strip(_NOT_IN_TOKEN)
    if "." in inner or "!" in inner or "?" in inner:
        return None
    work = blank(normal, ())
    words = plain_tokens(work)
    if not words:
        return None
    signs = work.count("%") + work.count("$")
    return QuotePart(text, tuple(words), (False,) * len(words), len(normal), len(words) - signs)


def quote_part(text: str, *, with_starts: bool = False) -> QuotePart | None:
    """Return a quote fragment normalised and tokenised, or None when it holds no word."""
    plain = None if with_starts else _plain_part(text)
    if plain is not None:
        return plain
    # The matcher reads every fragment of every quote: no QuoteTokens record on its way.
    normal, offsets, words, starts, ends, breaks, signs = _read(text)
    if not words:
        return None
    ostarts = tuple([offsets[s] for s in starts]) if with_starts else ()
    weak = weak_breaks(text, offsets, starts, ends) if any(breaks) and _BRACKET.search(text) else ()
    return QuotePart(text, tuple(words), tuple(breaks), len(normal), len(words) - signs, ostarts, weak)
