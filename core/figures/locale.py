"""How a text writes its numbers: decimal comma or point, and digit groups set apart by spaces.

``writes_decimal_comma(text)`` guesses from the text's own most common words whether it is
written in a language that puts a comma before decimals ("2,5 %", "5.500 Einwohner"); English
and unknown text keep the decimal point. ``regroup`` rewrites a normalised text's numbers into
the one form the figures reader reads (grouping commas, a decimal point) without changing its
length, so that every span still maps back: with a decimal comma "2,5" is 2.5 and "5.500" is
5500; in any language "5 500 000" (two groups or more set apart by spaces) is 5500000, and a
comma before one or two digits with a percent sign, a currency or a scale after it ("2,5 %")
is a decimal comma. A single "5 500" set apart by a plain space is a number only in a language
that groups digits so; in English it stays two numbers. This module rewrites digits; it refuses
to read figures.
"""

from __future__ import annotations

import functools
import re
from collections import Counter

# The most common short words of languages, counted on the text; each a word that is rare in
# the others. English first: it is the desk's default.
_COMMON_WORDS: dict[str, frozenset[str]] = {
    lang: frozenset(words.split())
    for lang, words in {
        "en": "the and of to is that with for was are this from have which",
        "de": "der die und das ist nicht mit von den zu sich auch eine wird",
        "fr": "le la les et des est une pour dans que qui sur pas avec",
        "es": "el los las y del por una para con que se como más",
        "pt": "os e do da não uma para com que são dos das mais",
        "it": "il di che è per una non sono gli della del con",
        "nl": "de het en van een niet dat zijn met voor ook wordt",
        "ru": "и в не на что с по это как из",
        "pl": "i w nie na się że jest do to z",
        "sv": "och att det som är en på inte för med",
        "tr": "ve bir bu için ile da olarak",
        "id": "yang dan di ini itu dengan untuk dari",
    }.items()
}
_LANGS_OF: dict[str, tuple[str, ...]] = {
    word: tuple(lang for lang, words in _COMMON_WORDS.items() if word in words)
    for word in frozenset().union(*_COMMON_WORDS.values())
}
_DIGIT = re.compile(r"\d")  # one search in C, not a generator over every character
_WORD = re.compile(r"[^\W\d_]+")
_SAMPLE_CHARS = 20_000  # enough words to tell a language, cheap on a page of megabytes
_MIN_HITS = 5

# A number of a decimal-comma language: grouped with "." or with spaces, with an optional
# decimal comma ("5.500", "5 500,25"), or a decimal comma alone ("2,5", "1,234"). Each pattern opens
# with its first digit and looks behind it after ("\d(?<![\d.,]\d)": no digit, point or comma before
# it): searched from digit to digit, where one opening with the look behind is tried at every character.
_LOCAL_NUMBER = re.compile(
    r"\d(?<![\d.,]\d)(?:\d{0,2}(?:(?P<sep>[. ])\d{3})(?:(?P=sep)\d{3})*(?:,\d+)?|\d*,\d+)(?![\d]|[.,]\d)"
)
# Any language: two space groups or more, and a decimal comma that a sign or scale word explains.
_SPACED = re.compile(r"\d(?<![\d.,]\d)\d{0,2}(?: \d{3}){2,}(?![\d]|[.,]\d)")
_COMMA_BEFORE_UNIT = re.compile(
    r"\d(?<![\d.,]\d)\d*,\d{1,2}(?=\s?(?:%|‰|€|\$|£|¥|₹|percent|per cent|prozent|pour cent|por ciento"
    r"|mio|mrd|million|billion|milliard|milliarden|millionen"
    r"|meters?|metres?|km|kilometers?|kilometres?|cm|mm|kg|grams?|litres?|liters?)(?![a-z]))"
)


@functools.lru_cache(maxsize=64)
def writes_decimal_comma(text: str) -> bool:
    """Return True when the text's own words say it is in a language that writes a decimal comma."""
    counts = dict.fromkeys(_COMMON_WORDS, 0)
    # Each distinct piece between spaces counted once: thousands of pieces, a few hundred distinct. A piece
    # of letters only is one word, the common ones found by one set intersection; the pattern cuts the
    # others ("(the", "l'eau") into their words.
    pieces = Counter(text[:_SAMPLE_CHARS].lower().split())
    found = Counter({word: pieces[word] for word in pieces.keys() & _LANGS_OF.keys()})
    for piece, n in pieces.items():
        if not piece.isalpha():
            for word in _WORD.findall(piece):
                if word in _LANGS_OF:
                    found[word] += n
    for word, n in found.items():
        for lang in _LANGS_OF[word]:
            counts[lang] += n
    best = max(counts, key=lambda lang: counts[lang])
    runner_up = max(n for lang, n in counts.items() if lang != best)
    return best != "en" and counts[best] >= _MIN_HITS and counts[best] >= 2 * runner_up


# What an ASCII text needs for the guess to change its reading: a digit, a point, comma or spaces, a digit.
_MAY_REGROUP = re.compile(r"\d(?:[.,]|\s+)\d")


def comma_for(page: str, text: str) -> bool:
    """Return ``writes_decimal_comma(page)`` for reading text of the page, unguessed (False) when it cannot matter.

    The guess changes only a number written with a point, comma or space between digits
    (``regroup``); an ASCII text without one is read alike either way, and the page need not be guessed.
    """
    if text.isascii() and _MAY_REGROUP.search(text) is None:
        return False
    return writes_decimal_comma(page)


def regroup(w: str, decimal_comma: bool) -> str:
    """Return the normalised text with its numbers in the reader's form (same length): "5,500", "2.5"."""
    if _DIGIT.search(w) is None:
        return w
    if decimal_comma:
        w = _LOCAL_NUMBER.sub(_swap, w)
    w = _SPACED.sub(lambda m: m.group().replace(" ", ","), w)
    return _COMMA_BEFORE_UNIT.sub(lambda m: m.group().replace(",", "."), w)


def _swap(m: re.Match[str]) -> str:
    """Return "5.500,25" or "5 500,25" as "5,500.25", and "2,5" as "2.5"."""
    sep = m.group("sep")
    return m.group().replace(",", "\0").replace(sep, ",").replace("\0", ".") if sep else m.group().replace(",", ".")
