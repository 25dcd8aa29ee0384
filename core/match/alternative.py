"""A page's alternative reading: its uncertain word boundaries taken the other way, for a quote its own reading misses.

A line break is typography: the same word broken at a line end, with or without its hyphen, is
the same word. The extractor decides each line end one way ("mod-/els" -> "models") and records
the decisions that could go the other way (``PageText.line_ends``); an HTML page records there
the words its markup splits, with the space a tool puts at every tag (core.extract.joints). For
a quote the page's own reading misses, this module takes the other way exactly those line ends
whose other reading gives only words of the quote ("mod-els" for a quote "mod- els",
"relatively" for a quote "relatively" where the page has "rela" / "tively"), matches the quote on
that reading and maps the match back to the page's own characters, so that highlights and
evidence stay exact. A quote that holds none of those words costs one set lookup per recorded
line end. It refuses to alternate anything but a recorded line end: a space inside a line is
never read away, and which joins are safe is the extractor's decision (two words of the document
are never joined into a third).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import replace

from core.match.page import PreparedPage, prepare
from core.models import Flag, FlagKind, LineEnd, Occurrence, PageText, QuoteMatch, Span
from core.settings import Settings
from core.text import quote_part

Matcher = Callable[[str, PreparedPage, Settings], QuoteMatch]
_WORD_LEFT = re.compile(r"\w*\Z")
_WORD_RIGHT = re.compile(r"\w*")
# Characters looked at on each side of a line end for its words: longer words are not broken ones.
_WORD_REACH = 40
# Readings kept per page: a brief quotes a PDF a few dozen times, and most quotes need none.
_READINGS_KEPT = 8


class _Shift:
    """Positions of one text mapped into another that differs by replaced pieces.

    Not a dataclass: sorted arrays bisected on every lookup, never compared. ``edits`` are
    (a, b, c, d): the piece [a, b) of the source text is the piece [c, d) of the target text.
    """

    def __init__(self, edits: Sequence[tuple[int, int, int, int]]) -> None:
        self._src_a = [a for a, _, _, _ in edits]
        self._edits = list(edits)

    def start(self, pos: int) -> int:
        """Return the target position of a span starting at source position pos."""
        k = bisect_right(self._src_a, pos) - 1
        if k < 0:
            return pos
        _, b, c, d = self._edits[k]
        return c if pos < b else d + pos - b

    def end(self, pos: int) -> int:
        """Return the target position of a span ending (exclusive) at source position pos."""
        k = bisect_left(self._src_a, pos) - 1
        if k < 0:
            return pos
        _, b, _, d = self._edits[k]
        return d + max(0, pos - b)

    def span(self, span: Span) -> Span:
        """Return the target span of a source span (never inverted)."""
        a = self.start(span[0])
        return a, max(a, self.end(span[1]))


class Alternative:
    """A page read with some of its recorded line ends taken the other way, and the way back to its own text."""

    def __init__(self, page: PageText, chosen: Sequence[LineEnd]) -> None:
        pieces: list[str] = []
        forward: list[tuple[int, int, int, int]] = []
        pos = 0
        alt = 0
        for a, b, reading, _ in chosen:
            pieces.append(page.text[pos:a])
            alt += a - pos
            forward.append((a, b, alt, alt + len(reading)))
            pieces.append(reading)
            alt += len(reading)
            pos = b
        pieces.append(page.text[pos:])
        self.to_alt = _Shift(forward)
        self.to_page = _Shift([(c, d, a, b) for a, b, c, d in forward])
        self.original = page
        self.unattested = [(a, b) for a, b, _, attested in chosen if not attested]
        m = self.to_alt.span

        def spans(values: Sequence[Span]) -> tuple[Span, ...]:
            return tuple(m(s) for s in values)

        self.page = PageText(
            text="".join(pieces),
            kind=page.kind,
            blocks=spans(page.blocks),
            footnotes=spans(page.footnotes),
            main=spans(page.main),
            pages=tuple((n, *m((a, b))) for n, a, b in page.pages),
            hidden=spans(page.hidden),
            ocr_pages=page.ocr_pages,
            title=page.title,
            warnings=page.warnings,
        )
        self.prepared = prepare(self.page)

    def back(self, match: QuoteMatch) -> QuoteMatch:
        """Return the match made on the alternative reading with its spans in the page's own text."""
        m = self.to_page.span
        fragments = tuple(f if f.span is None else replace(f, span=m(f.span)) for f in match.fragments)
        occurrences = tuple(self._occurrence(o) for o in match.occurrences)
        spans = [f.span for f in fragments if f.span is not None] + [o.span for o in occurrences]
        joined = [(a, b) for a, b in self.unattested if any(s < a and b < e for s, e in spans)]
        flags = tuple(_flag(f, m) for f in match.flags)
        if joined:
            flags = (*flags, self._join_flag(joined[0]))
        return replace(match, fragments=fragments, flags=flags, occurrences=occurrences)

    def _join_flag(self, end: Span) -> Flag:
        """Return the blocking flag of a quote read across a line end that nothing shows to be inside a word."""
        text = self.original.text
        left = _WORD_LEFT.search(text, max(0, end[0] - _WORD_REACH), end[0])
        right = _WORD_RIGHT.match(text, end[1], end[1] + _WORD_REACH)
        a = left.start() if left else end[0]
        b = right.end() if right else end[1]
        head, tail = text[a : end[0]], text[end[1] : b]
        parts = " ".join(text[a:b].split())
        return Flag(
            kind=FlagKind.LINE_END_JOIN,
            message=f'The quote reads "{head}{tail}" where the PDF has "{head}" at a line end and "{tail}" on the '
            "next line. Its text layer lost its hyphens, and nothing else in the document shows that they are "
            "one word: check on the page that they are.",
            blocking=True,
            page_words=parts,
            span=(a, b),
        )

    def _occurrence(self, o: Occurrence) -> Occurrence:
        m = self.to_page.span
        context = o.context
        if context is not None:
            a, b = m((context.offset, context.offset + len(context.text)))
            highlights = tuple(m((context.offset + x, context.offset + y)) for x, y in context.highlights)
            context = replace(
                context,
                text=self.original.text[a:b],
                offset=a,
                highlights=tuple((x - a, y - a) for x, y in highlights),
            )
        return replace(o, span=m(o.span), flags=tuple(_flag(f, m) for f in o.flags), context=context)


def _flag(f: Flag, m: Callable[[Span], Span]) -> Flag:
    return f if f.span is None else replace(f, span=m(f.span))


class LineEndReadings:
    """A page's recorded line ends, each with the words its other reading gives, and the readings built so far.

    Not a dataclass: a lazily filled cache kept on the prepared page, never compared.
    """

    def __init__(self, page: PageText) -> None:
        self.page = page
        self.ends: list[tuple[LineEnd, frozenset[str]]] = []
        text = page.text
        last: int | None = None
        for end in sorted(page.line_ends):
            a, b, reading, _ = end
            if last is not None and a < last:
                continue  # overlapping records: the first holds (the extractor never writes such)
            last = b
            # The word on each side of the line end, read the other way: "mod" + "-" + "els".
            left = _WORD_LEFT.search(text, max(0, a - _WORD_REACH), a)
            right = _WORD_RIGHT.match(text, b, b + _WORD_REACH)
            window = (left.group(0) if left else "") + reading + (right.group(0) if right else "")
            part = quote_part(window)
            if part is not None:
                self.ends.append((end, frozenset(part.words)))
        self.built: dict[tuple[LineEnd, ...], Alternative] = {}

    def reading_for(self, words: frozenset[str]) -> Alternative | None:
        """Return the page read with the line ends whose other reading gives only these words; None if none does."""
        chosen = tuple(end for end, gives in self.ends if gives <= words)
        if not chosen:
            return None
        alt = self.built.get(chosen)
        if alt is None:
            if len(self.built) >= _READINGS_KEPT:
                self.built.pop(next(iter(self.built)))
            alt = self.built[chosen] = Alternative(self.page, chosen)
        return alt


def match_alternative(quote: str, p: PreparedPage, settings: Settings, matcher: Matcher) -> QuoteMatch | None:
    """Return the quote's match with the page's line ends read the other way, in the page's spans; None if not found."""
    part = quote_part(quote)
    if part is None:
        return None
    # Two threads asking at once build the readings twice, and keep one: cheaper than a lock on every page.
    readings = p.alternative
    if not isinstance(readings, LineEndReadings):
        readings = p.alternative = LineEndReadings(p.page)
    alt = readings.reading_for(frozenset(part.words))
    if alt is None:
        return None
    found = matcher(quote, alt.prepared, settings)
    return alt.back(found) if found.found else None
