"""Which number words write which values: the one rule the figures reader reads by and a page's filter looks for.

The reader (``core.figures.read``) reads a figure in words from these tables: a whole number of one
word or two ("four", "twenty-nine"), with "hundred" and a scale after it ("nineteen hundred", "five
million", "2 thousand crore"), a fraction's share ("two thirds" as 66.7%), a multiplier ("twice").
``needed(low, high)`` says, from the same tables, which kinds of word (``WORD_KINDS``) a value from
low to high written in words holds one of, so that a page's piece holding none is never read for it
(``core.figures.on_page``). This module knows words; it refuses to read or compare figures.
"""

from __future__ import annotations

import re
from decimal import ROUND_CEILING, Decimal

from core.figures import vocab as v

# The scales a number in words takes after it, compound Indian ones first ("1.2 lakh crore" is 10**12).
WORD_SCALES = ("lakh crore", "thousand crore", "thousand", "million", "billion", "trillion", "lakh", "crore")
# The counts a fraction's word takes before it ("a third", "two thirds").
FRACTION_COUNTS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4}
# What a fraction's word and a multiplier's word cannot be written without.
FRACTION_NEEDLES = ("half", "halv", "third", "quarter", "fifth")
MULTIPLIER_NEEDLES = ("doubl", "twice", "tripl", "thrice", "quadrupl")
# The most a whole number in words with "hundred" writes ("ninety-nine hundred and ninety-nine"), and a half.
WORDS_MAX = Decimal("9999.5")

_UNITS = tuple(w for w, n in sorted(v.UNITS.items(), key=lambda item: item[1]) if 1 <= n <= 19)
_TENS = tuple(sorted(v.TENS, key=lambda w: v.TENS[w]))
# Each kind of word a figure in words needs, looked for alone in a text lowered: "one" to "ten" as
# words ("often" holds no "ten"), "eleven" to "nineteen", the tens, "hundred", each scale's last word,
# a fraction, a multiplier. Ordinal words make periods only ("first quarter").
WORD_KINDS: dict[str, re.Pattern[str]] = {
    **{w: re.compile(rf"(?<![a-z]){w}(?![a-z])") for w in _UNITS[:10]},
    **{w: re.compile(w) for w in (*_UNITS[10:], *_TENS, "hundred")},
    **{s.split()[-1]: re.compile(s.split()[-1]) for s in WORD_SCALES},
    "fraction": re.compile("|".join(FRACTION_NEEDLES)),
    "multiplier": re.compile("|".join(MULTIPLIER_NEEDLES)),
    # A share told as a count in another in words ("one in five"), as the reader reads it (``read._ONE_IN``).
    "share": re.compile(r"(?<![a-z])(?:" + "|".join(_UNITS[:9]) + r")\s+in\s"),
}
#: The word naming each whole number from 1 to 99 that a figure in words starts from ("twenty-nine": "twenty").
NUMBER_WORD = {n: _UNITS[n - 1] if n < 20 else _TENS[n // 10 - 2] for n in range(1, 100)}
# Each scale's value, by the last words of the scales that give it ("thousand crore" and "crore" end alike).
_SCALE_ENDS: dict[Decimal, set[str]] = {}
for _scale in WORD_SCALES:
    _SCALE_ENDS.setdefault(v.SCALE_WORD[_scale], set()).add(_scale.split()[-1])
_SHARES = tuple(share * count for share in set(v.FRACTION_WORDS.values()) for count in set(FRACTION_COUNTS.values()))
_MULTIPLES = (Decimal(min(v.MULTIPLIER_WORDS.values())), Decimal(max(v.MULTIPLIER_WORDS.values())))
# A span of more whole numbers than this in words needs any of the words that start them.
_MOST_HALVES = 40


def _first_half(low: Decimal, high: Decimal, a: Decimal, b: Decimal) -> Decimal | None:
    """Return the first whole number or half from a to b that lies from low to high, else None."""
    first = max(a, (low * 2).to_integral_value(rounding=ROUND_CEILING) / 2)
    return first if first <= min(b, high) else None


def needed(low: Decimal, high: Decimal) -> set[str]:
    """Return the kinds of number word (``WORD_KINDS``) one of which a figure from low to high in words holds."""
    out: set[str] = set()
    first = _first_half(low, high, Decimal(1), Decimal("99.5"))
    if first is not None:
        last = min(Decimal("99.5"), high)
        if (last - first) * 2 > _MOST_HALVES:
            out.update(NUMBER_WORD.values())
        else:
            out.update(NUMBER_WORD[int(first + Decimal(k) / 2)] for k in range(int((last - first) * 2) + 1))
    if _first_half(low, high, Decimal(100), WORDS_MAX) is not None:
        out.add("hundred")
    for scale, words in _SCALE_ENDS.items():
        if _first_half(low / scale, high / scale, Decimal(1), WORDS_MAX) is not None:
            out.update(words)
    if any(low <= share <= high for share in _SHARES):
        out.add("fraction")
    if _first_half(low, high, *_MULTIPLES) is not None:
        out.add("multiplier")
    return out
