"""Typographic normalisation with a map back to the original characters.

One pure function, ``normalise``, used by matching, figures and diagnosis alike, so that
all of them forgive exactly the same things (DESIGN.md, "Matching rules"): Unicode NFKC,
case folding, curly quotes and primes to straight, every dash/hyphen/minus to "-", every
kind of space (and line breaks) to one space, soft hyphens and zero-width characters
removed, and, for text that may carry them, HTML entities decoded once.

It forgives typography only: it never drops a letter, digit or sign that a reader sees.
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass, field

# Characters a reader never sees: soft hyphen, zero-width space/joiners, word joiner, BOM.
_INVISIBLE = frozenset("\u00ad\u200b\u200c\u200d\u2060\ufeff\u180e")
_SINGLE_QUOTES = frozenset("\u2018\u2019\u201a\u201b\u2032\u2035\u0060\u00b4\u02bc\uff07")
_DOUBLE_QUOTES = frozenset("\u201c\u201d\u201e\u201f\u2033\u2036\u00ab\u00bb\uff02\u301d\u301e")
# Hyphen, non-breaking hyphen, figure dash, en/em dash, horizontal bar, minus, small/fullwidth hyphen-minus.
_DASHES = frozenset("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2043\ufe58\ufe63\uff0d\u2e3a\u2e3b")

# Runs that need no per-character work: printable ASCII other than space.
_SEGMENT = re.compile(r"([\x21-\x7e]+)|(\s+)|([^\x21-\x7e\s]+)")
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});?")


@dataclass(frozen=True)
class Normalised:
    """Normalised text and, for every normalised character, its index in the original."""

    text: str
    offsets: tuple[int, ...] = field(repr=False, compare=False)
    original_length: int = field(default=0, repr=False, compare=False)

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """Return the original (start, end) covering normalised text[start:end]."""
        if start >= end:
            pos = self.offsets[start] if start < len(self.offsets) else self.original_length
            return pos, pos
        ostart = self.offsets[start]
        oend = self.offsets[end] if end < len(self.offsets) else self.original_length
        # Several normalised characters may come from one original (ligature "ﬁ" -> "fi").
        if oend <= self.offsets[end - 1]:
            oend = self.offsets[end - 1] + 1
        return ostart, oend


def _decode_entities(text: str) -> tuple[str, list[int]]:
    """Return text with HTML entities decoded once, and each output char's input index."""
    out: list[str] = []
    offsets: list[int] = []
    pos = 0
    for m in _ENTITY.finditer(text):
        decoded = html.unescape(m.group(0))
        if decoded == m.group(0):
            continue
        out.append(text[pos : m.start()])
        offsets.extend(range(pos, m.start()))
        out.append(decoded)
        offsets.extend([m.start()] * len(decoded))
        pos = m.end()
    out.append(text[pos:])
    offsets.extend(range(pos, len(text)))
    return "".join(out), offsets


def _fold_char(ch: str) -> str:
    """Return the normalised form of one non-ASCII character or cluster (may be empty)."""
    if ch in _INVISIBLE:
        return ""
    if ch in _SINGLE_QUOTES:
        return "'"
    if ch in _DOUBLE_QUOTES:
        return '"'
    if ch in _DASHES:
        return "-"
    folded = unicodedata.normalize("NFKC", ch).casefold()
    # NFKC can itself produce quotes, dashes or spaces (fullwidth forms); fold those too.
    if any(c in _SINGLE_QUOTES or c in _DOUBLE_QUOTES or c in _DASHES or c.isspace() for c in folded):
        folded = "".join(
            "'"
            if c in _SINGLE_QUOTES
            else '"'
            if c in _DOUBLE_QUOTES
            else "-"
            if c in _DASHES
            else " "
            if c.isspace()
            else c
            for c in folded
        )
    # NFKC followed by case folding may leave a non-NFKC string (e.g. some Greek); settle it.
    return unicodedata.normalize("NFKC", folded)


def normalise(text: str, *, entities: bool = False) -> Normalised:
    """Return the normalised text with its offset map; never raises on any str."""
    if entities and "&" in text:
        source, base = _decode_entities(text)
    else:
        source, base = text, None
    out: list[str] = []
    offsets: list[int] = []
    last_space = True  # drop leading white space
    ascii_before = -1  # where the last ASCII run ended, to join a combining mark to its letter
    for m in _SEGMENT.finditer(source):
        ascii_run, space_run, other_run = m.groups()
        if ascii_run is not None:
            out.append(ascii_run.lower())
            offsets.extend(range(m.start(), m.end()))
            last_space = False
            ascii_before = m.end()
        elif space_run is not None:
            if not last_space:
                out.append(" ")
                offsets.append(m.start())
                last_space = True
        else:
            i = m.start()
            run = other_run
            if i > 0 and ascii_before == i and unicodedata.combining(run[0]):
                # A combining mark belongs to the ASCII letter before it ("e" + U+0301 is "é"):
                # take that letter back so that NFKC composes the pair as it does for "é".
                out[-1] = out[-1][:-1]
                offsets.pop()
                run = source[i - 1] + run
                i -= 1
            j = 0
            while j < len(run):
                # Keep a base character together with the combining marks that follow it.
                k = j + 1
                while k < len(run) and unicodedata.combining(run[k]):
                    k += 1
                folded = _fold_char(run[j:k])
                for c in folded:
                    if c == " ":
                        if last_space:
                            continue
                        last_space = True
                    else:
                        last_space = False
                    out.append(c)
                    offsets.append(i + j)
                j = k
    # Drop one trailing space so that "a b " and "a b" normalise alike.
    if out and out[-1] == " " and last_space:
        out.pop()
        offsets.pop()
    result = "".join(out)
    if base is not None:
        offsets = [base[o] for o in offsets]
    return Normalised(result, tuple(offsets), len(text))
