"""A whole page's figures, read piece by piece within a time budget, once per page text.

Only the page's lines that may hold a figure are read (a digit, or a word the figures reader reads a
figure from, ``vocab.MAY_HOLD_FIGURE``), cut at block breaks, else sentence ends, else spaces, so that
no figure is split; a page of a million numbers stops at the budget and says it was not read whole.
Each piece is read once a page. For one claim figure judged by value (``Sought``) only the pieces that
may hold a figure making it true are read: one whose digit strings (with any decimal mark, any scale
word after them) come within the figure's rounding, that writes its year's last two digits or its
time's hour, or holds a number word that may write its value ("twenty-nine", "a third"); the others
are told by a look at their digits, once a page. On the unquoted bench (``make bench``) this reads
a fifth of the pages' text.
This module reads; it refuses to compare figures (``core.figures.compare``).
"""

from __future__ import annotations

import bisect
import functools
import re
import threading
import time
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from core.figures import vocab as v
from core.figures.locale import comma_for
from core.figures.read import ReadFigure, read_figures
from core.figures.scan import shifted
from core.figures.words import WORD_KINDS
from core.settings import Settings
from core.text import split_sentences

_MAY_HOLD = re.compile(v.MAY_HOLD_FIGURE, re.IGNORECASE)
# The same test in two cheap steps, when the pattern is a digit or literal words (else None: the pattern
# decides alone): a digit, else a word in the line lowered. Case-blind matching takes these four letters
# for ASCII ones ("ſ" for "s"), which lowering alone would not; no other letter lowers to an ASCII one.
_ALTERNATIVES = v.MAY_HOLD_FIGURE.split("|")
_LITERAL = all(a == r"\d" or re.escape(a).replace("\\ ", " ") == a for a in _ALTERNATIVES)
# The literal words, each looked for alone in the text lowered.
_NEEDLES = tuple(a.lower() for a in _ALTERNATIVES if a != r"\d")
_WORDS = re.compile("|".join(_NEEDLES)) if _LITERAL and r"\d" in _ALTERNATIVES else None
_DIGIT = re.compile(r"\d")
_ASCII = frozenset(map(chr, range(128)))
_FOLDED = "\u0130\u0131\u017f\u212a"
_AS_ASCII = str.maketrans(dict(zip(_FOLDED, "iisk", strict=True)))


def _last_sentence_end(text: str, start: int, end: int) -> int:
    """Return where the last sentence ending before end (after start) ends, or -1 when none does."""
    # The last few hundred characters hold the last sentence end of any ordinary text.
    window = max(start, end - 400)
    spans = split_sentences(text[window:end])
    return window + spans[-2][1] if len(spans) > 1 else -1


def _pieces(text: str, size: int) -> Iterator[tuple[int, str]]:
    """Yield (offset, piece) of text cut at block breaks, else sentence ends, else spaces, near size."""
    start = 0
    while start < len(text):
        end = min(len(text), start + size)
        if end < len(text):
            # A figure never spans a block break or a sentence end (the text layer's: "Jan. 15, 2024"
            # and "No. 5" hold none); "525 thousand" may span a space, so spaces come last.
            cut = max(text.rfind("\n", start, end), _last_sentence_end(text, start, end) - 1)
            if cut <= start:
                cut = text.rfind(" ", start, end)
            end = cut + 1 if cut > start else end
        yield start, text[start:end]
        start = end


def _holding_lines(text: str) -> Iterator[tuple[int, int]]:
    """Yield (start, end) of each line of the text that may hold a figure, in order.

    One search runs from each holding line to the next, so the lines between are skipped in one
    pass of the pattern; none of its words spans a line, so a line holds a match exactly when a
    search bounded by the line would find one.
    """
    if _WORDS is not None:
        yield from _holding_lines_split(text)
        return
    pos = 0
    while (m := _MAY_HOLD.search(text, pos)) is not None:
        start = text.rfind("\n", 0, m.start()) + 1
        end = text.find("\n", m.start())
        end = len(text) if end < 0 else end
        yield start, end
        pos = end + 1


def _holding_lines_split(text: str) -> Iterator[tuple[int, int]]:
    """Yield what _holding_lines does: the lines holding a digit, or one of the words in the text lowered.

    Each word is found by ``str.find`` in the whole text lowered, each digit by a search, going on from the
    line after each hit: faster than a pattern of the words tried at every character of every line.
    """
    low = _lowered(text)
    starts: set[int] = set()
    for word in _NEEDLES:
        i = low.find(word)
        while i >= 0:
            starts.add(low.rfind("\n", 0, i) + 1)
            end = low.find("\n", i)
            i = low.find(word, end + 1) if end >= 0 else -1
    pos = 0
    while (m := _DIGIT.search(text, pos)) is not None:
        starts.add(text.rfind("\n", 0, m.start()) + 1)
        pos = text.find("\n", m.start()) + 1
        if not pos:
            break
    for start in sorted(starts):
        end = text.find("\n", start)
        yield start, len(text) if end < 0 else end


def _lowered(line: str) -> str:
    """Return the line lowered, each character in its place ("İ" made ASCII first: it alone lowers to two)."""
    if line.isascii() or not any(c in line for c in _FOLDED):
        return line.lower()
    return line.translate(_AS_ASCII).lower()


def _runs(text: str, size: int) -> Iterator[tuple[int, str]]:
    """Yield (offset, piece) of the text's lines that may hold a figure, consecutive ones joined, near size.

    A figure never spans a line (a block break), and a line with no digit and none of the words the
    reader reads figures from (``vocab.MAY_HOLD_FIGURE``) holds none: most of a page's prose is skipped.
    """
    run_start, run_end = -1, -1
    for start, end in _holding_lines(text):
        if run_start >= 0 and start != run_end + 1:
            # The line before this one holds no figure: the run ends there.
            for offset, piece in _pieces(text[run_start:run_end], size):
                yield run_start + offset, piece
            run_start = -1
        if run_start < 0:
            run_start = start
        run_end = end
        if run_end - run_start >= size:
            for offset, piece in _pieces(text[run_start:run_end], size):
                yield run_start + offset, piece
            run_start = -1
    if run_start >= 0:
        for offset, piece in _pieces(text[run_start:run_end], size):
            yield run_start + offset, piece


@dataclass(frozen=True)
class Sought:
    """What a claim figure needs of a page's piece to be held there: a value near its own, or a year's digits.

    ``values``: intervals (low, high) the value of a piece's figure must fall in to hold the claim
    figure, each widened past any rounding of floats; ``digits``: patterns of digits one of which any
    date, period, year or time holding it writes (a year's last two digits ending a run of digits,
    "2019", "FY19", "2018-19"; a time's hour); ``also``: patterns all of which it writes too (a date's
    day); ``endings``: text one of which it holds ("3.12" for a version); ``words``: the kinds of number
    word (``WORD_KINDS``) a figure written in words holding it needs. A piece holding none of these,
    and no power or character that normalises to a digit, holds no figure that makes the claim's true.
    """

    values: tuple[tuple[float, float], ...] = ()
    digits: tuple[str, ...] = ()
    endings: tuple[str, ...] = ()
    words: frozenset[str] = frozenset()  # the kinds of number word (WORD_KINDS) that may write a figure holding it
    also: tuple[str, ...] = ()  # patterns of digits every one of which it writes too (a date's day)


# Inside one number a page writes at most these separators between digits: grouping commas or points,
# spaces that group, a decimal mark; the characters normalisation deletes join the digits around them.
_RUN = re.compile(r"\d+(?:(?:\s*,\s*|\.|\s+)\d+)*")
_CHUNK = re.compile(r"\d+")
_INVISIBLE = re.compile("[\u00ad\u200b\u200c\u200d\u2060\ufeff\u180e]")
# What may scale a number right after its digits or an accounting negative's bracket ("5m", "3.8million",
# "($479) million", "2 lakh crore"), and basis points read as percentage points: looser than the reader.
_SCALE_AFTER = re.compile(
    r"\)?(?:(?:k|mn|mm|m|bn|b|tn|cr)(?![a-z0-9])|\s*(?:" + "|".join(sorted(v.SCALE_WORD, key=len, reverse=True)) + "))",
    re.IGNORECASE,
)
_BASIS_POINTS_AFTER = re.compile(r"\)?\s*(?:basis[\s-]*points?|bps|bp)", re.IGNORECASE)
# A number a page may group with a point in thousands ("8.958" read as 8,958 by ``restated.point_grouped``).
_POINT_GROUPED = re.compile(r"\d\.\d{3}(?!\d)")
# "1 in 4": 25%; the look behind follows the digit, so that the search skips to digits (not tried everywhere).
_ONE_IN = re.compile(r"([1-9])(?<![\d.,][1-9])\s+in\s+(?:every\s+)?([1-9]\d*(?:,\d{3})*)", re.I)
# A range's first end takes the second's scale ("$5.0 - $5.2 billion"): the ends stand this close at most.
_RANGE_GAP_CHARS = 24
_SCALES = tuple(sorted({1.0} | {float(x) for x in v.SCALE_WORD.values()}))
# A longer run of digit groups is read, not told: its sub-spans would be too many to tell.
_MAX_CHUNKS = 12
# How much wider than a value's interval a piece's value may fall: far beyond the error of floats (a
# value's digits times a scale), far below any rounding step.
VALUE_SLACK = 1e-9


@functools.lru_cache(maxsize=256)
def _pattern(digits: str) -> re.Pattern[str]:
    return re.compile(digits)


@functools.lru_cache(maxsize=1024)
def _may_become_figure(c: str) -> bool:
    """Return True for a character not ASCII that reads as a digit or normalises to a digit or a number's mark."""
    return c.isnumeric() or any(x.isdigit() or x in ".,^*\u2044" for x in unicodedata.normalize("NFKC", c))


def _run_values(chunks: list[str], out: set[float]) -> None:
    """Add every value a run of digit groups may be read as before its scale: each sub-run, any decimal mark."""
    if len(chunks) == 1:
        whole = int(chunks[0])
        if whole:
            out.add(float(whole))
            out.add(whole / 10.0 ** len(chunks[0]))  # ".5"
        return
    for i in range(len(chunks)):
        digits = ""
        for j in range(i, len(chunks)):
            # A number's groups between its first and last are of two or three digits ("1,29,940").
            if j > i + 1 and len(chunks[j - 1]) not in (2, 3):
                break
            digits += chunks[j]
            whole = int(digits)
            if not whole:
                continue
            # The decimal mark after any group, or before the first (".5").
            after = 0
            out.add(float(whole))
            for k in range(j, i - 1, -1):
                after += len(chunks[k])
                out.add(whole / 10.0**after)


class _Piece:
    # One piece of a page, its figures once read, and what it may hold, told once: a class only to hold them.
    __slots__ = ("figs", "lowered", "offset", "open", "plain", "text", "values", "words")

    def __init__(self, offset: int, text: str) -> None:
        self.offset = offset
        self.text = text
        self.figs: tuple[ReadFigure, ...] | None = None
        self.open: bool | None = None  # a power or a character becoming a digit: always read
        self.words: dict[str, bool] = {}  # whether it holds each number word (WORD_KINDS) or digits, told when asked
        self.lowered = ""
        self.plain = text  # the text with the characters normalisation deletes deleted
        self.values: list[float] = []  # sorted values its numbers written in digits may have, scaled

    def may_hold(self, sought: Sought) -> bool:
        """Return True unless the piece surely holds no figure the sought one needs (its digits tell)."""
        if self.open is None:
            self._tell()
        if self.open:
            return True
        if sought.also and not all(map(self._holds_digits, sought.also)):
            return False
        if any(map(self._holds_words, sought.words)):
            return True
        if any(e in self.text for e in sought.endings) or any(map(self._holds_digits, sought.digits)):
            return True
        values = self.values
        for low, high in sought.values:
            i = bisect.bisect_left(values, low)
            if i < len(values) and values[i] <= high:
                return True
        return False

    def _holds_digits(self, pattern: str) -> bool:
        """Return True when the piece holds digits of the pattern (a year's, a time's), looked for once."""
        said = self.words.get(pattern)
        if said is None:
            said = self.words[pattern] = _pattern(pattern).search(self.plain) is not None
        return said

    def _holds_words(self, kind: str) -> bool:
        """Return True when the piece holds a number word of the kind (``WORD_KINDS``), looked for once."""
        said = self.words.get(kind)
        if said is None:
            self.lowered = self.lowered or _lowered(self.text)
            said = self.words[kind] = WORD_KINDS[kind].search(self.lowered) is not None
        return said

    def _tell(self) -> None:
        """Tell, once, whether the piece is always read, and the values its digits may be read as."""
        text = self.text
        self.open = "^" in text or "**" in text or "\u2044" in text or _WORDS is None
        if not self.open and not text.isascii():
            self.open = any(map(_may_become_figure, set(text).difference(_ASCII)))
        if self.open:
            return
        plain = self.plain = _INVISIBLE.sub("", text) if _INVISIBLE.search(text) else text
        runs = list(_RUN.finditer(plain))
        scaled = [_SCALE_AFTER.match(plain, m.end()) is not None for m in runs]
        found: set[float] = set()
        for n, m in enumerate(runs):
            chunks = _CHUNK.findall(m.group())
            if len(chunks) > _MAX_CHUNKS:
                self.open = True
                return
            near = n + 1 < len(runs) and scaled[n + 1] and runs[n + 1].start() - m.end() <= _RANGE_GAP_CHARS
            point = "." in m.group() and _POINT_GROUPED.search(m.group()) is not None
            basis = _BASIS_POINTS_AFTER.match(plain, m.end()) is not None
            if not (point or basis or scaled[n] or near):
                _run_values(chunks, found)  # most runs: each value times 1.0 and 1.0 is itself
                continue
            times = {1.0} | ({1000.0} if point else set()) | ({0.01} if basis else set())
            values: set[float] = set()
            _run_values(chunks, values)
            found.update(x * t * k for x in values for t in times for k in (_SCALES if scaled[n] or near else (1.0,)))
        found.update(100 * int(n) / int(d.replace(",", "")) for n, d in _ONE_IN.findall(plain))
        self.values = sorted(found)


class _PageRead:
    # One page's reading, kept so that a later call continues it: a class only to hold the pieces read.
    def __init__(self, text: str, piece_chars: int) -> None:
        self.text = text
        self.pieces = _runs(text, piece_chars)
        self.parts: list[_Piece] = []  # the pieces cut so far, in page order, each read or not yet
        self.cut = False  # every piece is cut
        self.spent = 0.0  # seconds spent reading so far, over every call
        self.broken = False  # the pieces raised (a bug): the page is never said to be read whole
        self.lock = threading.Lock()  # one reader at a time: the pieces are a generator
        self.said: tuple[ReadFigure, ...] = ()  # all the page's figures as last returned: one tuple for its claims
        self.said_from = -1  # how many pieces were read when said was made

    def read(self, budget: float, sought: Sought | None = None) -> tuple[tuple[ReadFigure, ...], bool]:
        """Return the figures read once budget seconds in all were spent on the page, and whether all were.

        ``sought``: only the pieces that may hold a figure making it true are read and returned (in page
        order); "all" then means all of those.
        """
        with self.lock:
            started = time.monotonic()
            spent = self.spent
            parts = self.parts
            i, done = 0, True
            wanted: list[_Piece] = []  # the pieces that may hold the sought figure, in page order
            while True:
                if i == len(parts):
                    if self.cut or self.broken or not done:
                        break
                    try:
                        nxt = next(self.pieces, None)
                    except Exception:
                        self.broken = True
                        raise
                    if nxt is None:
                        self.cut = True
                        break
                    parts.append(_Piece(*nxt))
                part = parts[i]
                if sought is None or part.may_hold(sought):
                    if part.figs is None and spent > budget:
                        done = False  # the budget is spent: the pieces read before still count
                    elif part.figs is None:
                        figs = read_figures(part.text, comma_for(self.text, part.text))
                        part.figs = tuple(shifted(f, part.offset) for f in figs)
                        spent = self.spent + time.monotonic() - started
                    if part.figs is not None:
                        wanted.append(part)
                i += 1
            self.spent = spent
            whole = done and self.cut and not self.broken
            if sought is not None:
                return tuple(f for p in wanted if p.figs for f in p.figs), whole
            read = sum(p.figs is not None for p in parts)
            if read != self.said_from:
                self.said, self.said_from = tuple(f for p in parts if p.figs for f in p.figs), read
            return self.said, whole


@functools.lru_cache(maxsize=4)
def _page_read(text: str, piece_chars: int) -> _PageRead:
    return _PageRead(text, piece_chars)


def _read_page(
    text: str, budget: float, piece_chars: int, sought: Sought | None = None
) -> tuple[tuple[ReadFigure, ...], bool]:
    """Return the page's figures, read piece by piece until the budget is spent, and whether all were read.

    A page is read once: a later call, with the same budget or another, goes on from where the reading
    stopped until its own budget is spent in all (a piece read is not read again). With ``sought``, only
    the pieces that may hold a figure making it true.
    """
    return _page_read(text, piece_chars).read(budget, sought)


def read_page_figures(text: str, budget: float, piece_chars: int) -> tuple[ReadFigure, ...]:
    """Return the page's figures, read piece by piece until the budget is spent (diagnosis: a partial list)."""
    return _read_page(text, budget, piece_chars)[0]


def page_figures(
    text: str, budget: float, s: Settings, sought: Sought | None = None
) -> tuple[tuple[ReadFigure, ...], bool]:
    """Return a page's figures read within budget seconds, and True when the whole page was read.

    ``sought``: only those of the pieces that may hold a figure making it true, and True when all of those were read.
    """
    return _read_page(text, budget, s.figures_elsewhere_piece_chars, sought)
