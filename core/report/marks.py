"""Where the desk and every report mark text: a claim's figures, its quote's figures, the page context.

Marks are (start, end, mark) spans and the segments cut from them; the desk's drawing code
and the HTML report both draw these same marks, so a figure is marked at the same characters
everywhere. Mark names: ``fig-matched``, ``fig-missing``, ``fig-skipped``, ``fig-unchecked``
(a figure nobody compared) and ``fig-other`` (a figure of the quote that no claim figure
matched); ``hl`` (the quote on the page), ``near`` (the closest passage to a quote not found:
diagnosis, never a match) and ``flagged`` (page words a context flag points at).
This module produces no markup and refuses to escape anything: escaping belongs to the
template or the drawing code that knows its context.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from difflib import Match, SequenceMatcher

from core.figures import read_figures
from core.models import ClaimResult, Context, Figure, FigureKind, FigureStatus, Flag, Span
from core.report.wording import UNCHECKED

Mark = tuple[int, int, str]

#: The mark of a figure the machine never compared (its source was not read, or no quote).
UNCHECKED_MARK = "fig-unchecked"
#: The mark of a figure of the quote that no figure of the claim matched.
OTHER_MARK = "fig-other"


@dataclass(frozen=True)
class Segment:
    """A run of text and what it is: "" (plain) or a mark such as "hl" or "fig-matched"."""

    text: str
    mark: str = ""


def segments(text: str, spans: Sequence[Mark]) -> list[Segment]:
    """Return text cut into plain and marked runs; overlapping or out-of-range spans are clipped."""
    out: list[Segment] = []
    pos = 0
    for start, end, mark in sorted(spans):
        start, end = max(start, pos), min(end, len(text))
        if start >= end:
            continue
        if start > pos:
            out.append(Segment(text[pos:start]))
        out.append(Segment(text[start:end], mark))
        pos = end
    if pos < len(text):
        out.append(Segment(text[pos:]))
    return out


def figure_mark(figure: Figure) -> str:
    """Return the mark of a claim's figure: "fig-" and its status ("fig-missing")."""
    return f"fig-{figure.status.value}"


def _free(text: str, word: str, taken: list[tuple[int, int]]) -> int | None:
    """Return the first place of word in text that overlaps no taken span, or None."""
    at = text.find(word)
    while at >= 0 and any(s < at + len(word) and at < e for s, e in taken):
        at = text.find(word, at + 1)
    return at if at >= 0 else None


def _lands(text: str, span: Span | None, word: str) -> bool:
    return span is not None and 0 <= span[0] < span[1] <= len(text) and text[span[0] : span[1]] == word


def figure_spans(text: str, figures: Sequence[Figure], read_in: str = "") -> list[tuple[int, int, Figure]]:
    """Return each figure's span in text, in text order, each figure at its own place ([] for none found).

    A figure's start/end point into the text its figures were read from: ``read_in`` (the
    claim's figure_text, which leaves out citation markers, link text and inline quotes) when
    given, else text itself. Such a span is carried over to text through the characters the
    two share, so that of two figures alike ("3.11 ... 3.11") each is marked where it stands.
    A figure whose span cannot be carried over takes the first free place of its words.
    """
    origin = read_in or text
    blocks: list[Match] | None = None
    spans: list[tuple[int, int, Figure]] = []
    taken: list[tuple[int, int]] = []
    for f in figures:
        if not f.text:
            continue
        start: int | None = None
        if f.span is not None and _lands(origin, f.span, f.text):
            a, b = f.span
            if origin == text:
                start = a
            else:
                if blocks is None:  # aligned once per claim, and only when the texts differ
                    blocks = SequenceMatcher(None, origin, text, autojunk=False).get_matching_blocks()
                start = next((m.b + a - m.a for m in blocks if m.a <= a and b <= m.a + m.size), None)
        if start is None or any(s < start + len(f.text) and start < e for s, e in taken):
            start = _free(text, f.text, taken)
        if start is not None:
            spans.append((start, start + len(f.text), f))
            taken.append((start, start + len(f.text)))
    return sorted(spans, key=lambda s: s[0])


def unchecked_figures(text: str) -> tuple[Figure, ...]:
    """Return the figures read from a claim whose figures were never checked (source unread, no quote)."""
    return tuple(
        Figure(text=f.text, status=FigureStatus.SKIPPED, reason=UNCHECKED, kind=f.kind, span=(f.start, f.end))
        for f in read_figures(text)
        if f.kind not in (FigureKind.LABEL, FigureKind.UNREADABLE)  # "PEP 703" names a document, no figure
    )


def claim_marks(result: ClaimResult) -> list[tuple[int, int, str, Figure]]:
    """Return the figure marks of a claim's text, in text order: (start, end, mark, figure).

    A claim whose figures were never checked gets its figures read here and marked
    "fig-unchecked", so the reader sees which numbers nobody compared.
    """
    claim = result.claim
    read_in = claim.figure_text or claim.text
    if result.figures.figures:
        spans = figure_spans(claim.text, result.figures.figures, read_in)
        return [(s, e, figure_mark(f), f) for s, e, f in spans]
    spans = figure_spans(claim.text, unchecked_figures(read_in), read_in)
    return [(s, e, UNCHECKED_MARK, f) for s, e, f in spans]


def claim_segments(result: ClaimResult) -> list[tuple[Segment, Figure | None]]:
    """Return the claim text cut into runs, each figure run paired with its Figure."""
    marks = claim_marks(result)
    by_start = {s: f for s, _, _, f in marks}
    out: list[tuple[Segment, Figure | None]] = []
    pos = 0
    for seg in segments(result.claim.text, [(s, e, m) for s, e, m, _ in marks]):
        out.append((seg, by_start.get(pos) if seg.mark else None))
        pos += len(seg.text)
    return out


def quote_marks(result: ClaimResult) -> list[Mark]:
    """Return the figure marks of a claim's quote, in text order ([] when it offers none).

    Each matched figure marks the quote's own figure ("fig-matched"). When a figure of the
    claim is missing, the quote's figures that no claim figure matched are the likely other
    side of the mismatch, and are marked "fig-other".
    """
    quote = result.claim.quote or ""
    marks: list[Mark] = []
    taken: list[tuple[int, int]] = []
    for f in result.figures.figures:
        if f.status is FigureStatus.MATCHED and f.quote_text:
            at = _free(quote, f.quote_text, taken)
            if at is not None:
                marks.append((at, at + len(f.quote_text), figure_mark(f)))
                taken.append((at, at + len(f.quote_text)))
    if result.figures.missing:
        for own in read_figures(quote):
            if 0 <= own.start < own.end <= len(quote) and not any(s < own.end and own.start < e for s, e in taken):
                marks.append((own.start, own.end, OTHER_MARK))
    return sorted(marks)


@dataclass(frozen=True)
class ContextView:
    """The page text to show for a claim: segments, whether text was cut before/after, and a note."""

    segments: tuple[Segment, ...]
    cut_before: bool
    cut_after: bool
    note: str
    offset: int  # where the shown text starts in the page text


def context_view(result: ClaimResult, max_chars: int) -> ContextView | None:
    """Return the claim's page context: the found quote ("hl") or, when it was not found, the closest
    passage ("near", diagnosis only), and flagged page words ("flagged"); None without page text."""
    highlight = "hl" if result.match is not None and result.match.found else "near"
    return _view(result.context, highlight, result.match.flags if result.match is not None else (), max_chars)


def at_place(result: ClaimResult, index: int) -> ClaimResult | None:
    """Return the claim's result as seen at one place its quote stands (0 is the one shown first), or None.

    Its context and flags are that place's, so that the desk and the reports draw any place as
    they draw the first.
    """
    match = result.match
    places = match.occurrences if match is not None else ()
    if match is None or not 0 <= index < len(places) or places[index].context is None:
        return None
    place = places[index]
    return replace(result, context=place.context, match=replace(match, flags=place.flags))


def place_view(result: ClaimResult, index: int, max_chars: int) -> ContextView | None:
    """Return the page context of one place a repeated quote stands, marked, or None."""
    seen = at_place(result, index)
    return None if seen is None else context_view(seen, max_chars)


def _view(ctx: Context | None, highlight: str, flags: Sequence[Flag], max_chars: int) -> ContextView | None:
    """Return a context cut to max_chars around its first mark, the highlight and flagged words marked."""
    if ctx is None or not ctx.text:
        return None
    spans: list[Mark] = [(s, e, highlight) for s, e in ctx.highlights]
    for flag in flags:
        if flag.span is not None and flag.span[1] > flag.span[0]:
            spans.append((flag.span[0] - ctx.offset, flag.span[1] - ctx.offset, "flagged"))
    lo, hi, note = 0, len(ctx.text), ""
    if len(ctx.text) > max_chars:
        marked = [(s, e) for s, e, _ in spans if 0 <= s < e <= len(ctx.text)]
        centre = marked[0][0] if marked else 0
        lo = max(0, centre - max_chars // 2)
        hi = min(len(ctx.text), lo + max_chars)
        note = (
            f"The page text around this claim is {len(ctx.text):,} characters long; "
            f"only {hi - lo:,} characters around the quote are shown here."
        )
    cut = [(max(s, lo) - lo, min(e, hi) - lo, m) for s, e, m in spans if s < hi and e > lo]
    return ContextView(
        tuple(segments(ctx.text[lo:hi], cut)), ctx.offset + lo > 0, hi < len(ctx.text), note, ctx.offset + lo
    )
