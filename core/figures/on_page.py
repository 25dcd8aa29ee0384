"""A whole page's figures, read piece by piece within a time budget, once per page text.

Only the page's lines that may hold a figure are read (a digit, or a word the figures reader reads a
figure from, ``vocab.MAY_HOLD_FIGURE``), cut at block breaks, else sentence ends, else spaces, so that
no figure is split; a page of a million numbers stops at the budget and says it was not read whole.
This module reads; it refuses to compare figures (``core.figures.compare``).
"""

from __future__ import annotations

import functools
import re
import threading
import time
from collections.abc import Iterator

from core.figures import vocab as v
from core.figures.locale import writes_decimal_comma
from core.figures.read import ReadFigure, read_figures
from core.figures.scan import shifted
from core.settings import Settings
from core.text import split_sentences

_MAY_HOLD = re.compile(v.MAY_HOLD_FIGURE, re.IGNORECASE)
# The same test in two cheap steps, when the pattern is a digit or literal words (else None: the pattern
# decides alone): a digit, else a word in the line lowered. Case-blind matching takes these four letters
# for ASCII ones ("ſ" for "s"), which lowering alone would not; no other letter lowers to an ASCII one.
_ALTERNATIVES = v.MAY_HOLD_FIGURE.split("|")
_LITERAL = all(a == r"\d" or re.escape(a).replace("\\ ", " ") == a for a in _ALTERNATIVES)
_WORDS = (
    re.compile("|".join(a.lower() for a in _ALTERNATIVES if a != r"\d"))
    if _LITERAL and r"\d" in _ALTERNATIVES
    else None
)
_DIGIT = re.compile(r"\d")
_AS_ASCII = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})


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
    """Yield what _holding_lines does, testing each line for a digit, else for a word in it lowered.

    Four times faster than the case-blind pattern, which tries each of its words at every character.
    """
    assert _WORDS is not None
    start = 0
    for line in text.split("\n"):
        end = start + len(line)
        # A line with a digit is not lowered (the test stops there): most of a page's holding lines have one.
        if _DIGIT.search(line) is not None or _WORDS.search(_lowered(line)) is not None:
            yield start, end
        start = end + 1


def _lowered(line: str) -> str:
    """Return the line lowered, the four letters case-blind matching takes for ASCII ones made ASCII first."""
    return line.lower() if line.isascii() else line.translate(_AS_ASCII).lower()


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


class _PageRead:
    # One page's reading, kept so that a later call continues it: a class only to hold the pieces left.
    def __init__(self, text: str, piece_chars: int) -> None:
        self.comma = writes_decimal_comma(text)
        self.pieces = _runs(text, piece_chars)
        self.next: tuple[int, str] | None = next(self.pieces, None)
        self.found: list[ReadFigure] = []
        self.said: tuple[ReadFigure, ...] = ()  # found as last returned: the claims of a page share one tuple
        self.spent = 0.0  # seconds spent reading so far, over every call
        self.broken = False  # the pieces raised (a bug): the page is never said to be read whole
        self.lock = threading.Lock()  # one reader at a time: the pieces are a generator

    def read(self, budget: float) -> tuple[tuple[ReadFigure, ...], bool]:
        """Return the figures read once budget seconds in all were spent on the page, and whether all were."""
        with self.lock:
            started = time.monotonic()
            spent = self.spent
            while self.next is not None and spent <= budget:
                offset, piece = self.next
                read = read_figures(piece, self.comma)
                self.found.extend(shifted(f, offset) for f in read)
                try:
                    self.next = next(self.pieces, None)
                except Exception:
                    self.next, self.broken = None, True
                    raise
                spent = self.spent + time.monotonic() - started
            self.spent = spent
            if len(self.said) != len(self.found):
                self.said = tuple(self.found)
            return self.said, self.next is None and not self.broken


@functools.lru_cache(maxsize=4)
def _page_read(text: str, piece_chars: int) -> _PageRead:
    return _PageRead(text, piece_chars)


def _read_page(text: str, budget: float, piece_chars: int) -> tuple[tuple[ReadFigure, ...], bool]:
    """Return the page's figures, read piece by piece until the budget is spent, and whether all were read.

    A page is read once: a later call, with the same budget or another, goes on from where the reading
    stopped until its own budget is spent in all (a page read whole is not read again).
    """
    return _page_read(text, piece_chars).read(budget)


def read_page_figures(text: str, budget: float, piece_chars: int) -> tuple[ReadFigure, ...]:
    """Return the page's figures, read piece by piece until the budget is spent (diagnosis: a partial list)."""
    return _read_page(text, budget, piece_chars)[0]


def page_figures(text: str, budget: float, s: Settings) -> tuple[tuple[ReadFigure, ...], bool]:
    """Return a page's figures read within budget seconds, and True when the whole page was read."""
    return _read_page(text, budget, s.figures_elsewhere_piece_chars)
