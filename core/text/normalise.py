"""Typographic normalisation with a map back to the original characters.

One pure function, ``normalise`` (``normalise_text`` gives the same without the record),
used by matching, figures and diagnosis alike, so that all of them forgive exactly the same
things (DESIGN.md, "Matching rules"): Unicode NFKC, case folding, curly quotes and primes to
straight, every dash/hyphen/minus to "-", every kind of space (and line breaks) to one
space, soft hyphens and zero-width characters removed, and, for text that may carry them,
HTML entities decoded once.

It forgives typography only: it never drops a letter, digit or sign that a reader sees.
"""

from __future__ import annotations

import functools
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


@functools.lru_cache(maxsize=8192)
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
    return Normalised(*normalise_text(text, entities=entities), len(text))


# The offset map of a short text that only case folds, one to one: sliced, not built per quote.
_IDENTITY = tuple(range(4096))
# The curly quotes and dashes of Windows-1252 (the typography most pages and editors use), each
# folding to one ASCII character as _fold_char folds it, and the no-break space, a space.
_TYPOGRAPHIC = tuple(zip("\u201a\u201e\u2018\u2019\u201c\u201d\u2013\u2014\u00a0", "'\"''\"\"-- ", strict=True))


def one_to_one(text: str, *, entities: bool = False) -> str | None:
    """Return the normalised text of a text that normalises character for character into ASCII, else None.

    Most quotes are short printable ASCII, or would be but for curly quotes and dashes, with
    single spaces and no entity: only case folds, one to one, and the run-by-run path of
    ``normalise_text`` would give exactly this, several times more slowly. Its offset map is the
    identity, so that a reader of such a text may take positions in it for positions in text.
    """
    if len(text) > len(_IDENTITY):
        return None
    plain = text if text.isascii() else _typographic_ascii(text)
    if (
        plain is not None
        and plain.isprintable()
        and "  " not in plain
        and plain[:1] != " "
        and plain[-1:] != " "
        and not (entities and "&" in plain)
    ):
        return plain.lower()
    return None


def normalise_text(text: str, *, entities: bool = False) -> tuple[str, tuple[int, ...]]:
    """Return what ``normalise`` records, the normalised text and its offset map, without the record."""
    plain = one_to_one(text, entities=entities)
    if plain is not None:
        return plain, _IDENTITY[: len(plain)]
    if entities and "&" in text:
        source, base = _decode_entities(text)
    else:
        source, base = text, None
    out: list[str] = []
    offsets: list[int] = []
    last_space = True  # drop leading white space
    simple_end = -1  # where the last one-to-one run ended, to join a combining mark to its letter
    for m in _SEGMENT.finditer(source):
        simple_run, space_run, other_run = m.groups()
        if simple_run is not None:
            out.append(simple_run.lower() if simple_run.isascii() else _fold_simple(simple_run))
            offsets.extend(range(m.start(), m.end()))
            last_space = False
            simple_end = m.end()
        elif space_run is not None:
            if not last_space:
                out.append(" ")
                offsets.append(m.start())
                last_space = True
        else:
            i = m.start()
            run = other_run
            if i > 0 and simple_end == i and unicodedata.combining(run[0]):
                # A combining mark belongs to the letter before it ("e" + U+0301 is "é"): take
                # that letter back so that NFKC composes the pair as it does for "é".
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
    return result, tuple(offsets)


def _typographic_ascii(text: str) -> str | None:
    """Return text with its curly quotes, dashes and no-break spaces folded to ASCII, or None when it holds others."""
    # str.replace, one character at a time: a few times faster than a codec or str.translate.
    for typographic, plain in _TYPOGRAPHIC:
        text = text.replace(typographic, plain)
    return text if text.isascii() else None


def _fold_simple(run: str) -> str:
    """Return a run of one-to-one characters folded, as run.translate(_SIMPLE) would."""
    # str.translate is slow on all but ASCII text: only the non-ASCII pieces use the table.
    pieces = _NON_ASCII.split(run)
    pieces[0::2] = [p.lower() for p in pieces[0::2]]
    pieces[1::2] = [p.translate(_SIMPLE) for p in pieces[1::2]]
    return "".join(pieces)


_NON_ASCII = re.compile(r"([^\x00-\x7f]+)")


def _one_to_one() -> tuple[dict[int, str], str]:
    """Return the characters that fold to exactly one other character, and a regex class of them.

    Covers the alphabets and punctuation most pages use (up to U+2FFF); they are folded by
    str.translate a whole run at a time. Everything else takes the per-character path.
    """
    table: dict[int, str] = {}
    for code in range(0x80, 0x3000):
        ch = chr(code)
        if ch.isspace() or unicodedata.category(ch)[0] in "MC" or ch in _INVISIBLE:
            continue
        folded = _fold_char(ch)
        if len(folded) == 1 and folded != " " and not unicodedata.combining(folded):
            table[code] = folded
    ranges: list[str] = []
    codes = sorted(table)
    start = prev = codes[0]
    for code in [*codes[1:], -1]:
        if code != prev + 1:
            ranges.append(re.escape(chr(start)) + ("" if start == prev else "-" + re.escape(chr(prev))))
            start = code
        prev = code
    return {c: f for c, f in table.items() if f != chr(c)}, "".join(ranges)


_SIMPLE_TABLE, _SIMPLE_CLASS = _one_to_one()
# ASCII upper case folds too when a run is translated rather than lower-cased.
_SIMPLE = {**_SIMPLE_TABLE, **{c: chr(c).lower() for c in range(ord("A"), ord("Z") + 1)}}
# Runs that need no per-character work: printable ASCII and one-to-one characters, with single
# spaces inside; then white space; then anything else, a character (and its marks) at a time.
_SEGMENT = re.compile(
    rf"([\x21-\x7e{_SIMPLE_CLASS}]+(?: [\x21-\x7e{_SIMPLE_CLASS}]+)*)|(\s+)|([^\x21-\x7e\s{_SIMPLE_CLASS}]+)"
)
