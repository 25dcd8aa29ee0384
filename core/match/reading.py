"""Flags on how the page's text where a quote was found was read: hidden until opened, or by OCR.

Both are information, never blocking: a quote in an accordion is honest, and OCR text is
exact-matched like any other. The editor is told so, to look at the opened part or the image.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from core.match.page import PreparedPage
from core.models import Flag, FlagKind, Fragment, Span

#: The words of the hidden flag, beside the match in the desk and the reports.
HIDDEN_MESSAGE = (
    "The quote stands in a part of the page that is hidden until opened (a tab, an accordion, "
    '"read more"): the source view shows that part opened.'
)
#: The words of the OCR flag: OCR misreads letters and digits, so the image is the evidence.
OCR_MESSAGE = "The quote was read by OCR: check the page image, which the desk shows beside the match."


def in_hidden(page: PreparedPage, start: int, end: int) -> bool:
    """Return True when the original span [start, end) overlaps text the page hides until opened."""
    hidden: Sequence[Span] = page.hidden
    if not hidden:
        return False
    i = bisect_right([a for a, _ in hidden], start) - 1
    return any(a < end and start < b for a, b in hidden[max(i, 0) :])


def reading_flags(page: PreparedPage, fragments: Sequence[Fragment]) -> list[Flag]:
    """Return the hidden flag when every found fragment is in hidden text, the OCR flag when one is on an OCR page."""
    spans = [f.span for f in fragments if f.span is not None]
    flags: list[Flag] = []
    if spans and all(in_hidden(page, a, b) for a, b in spans):
        flags.append(Flag(kind=FlagKind.HIDDEN, message=HIDDEN_MESSAGE, blocking=False))
    ocr = set(page.page.ocr_pages)
    if ocr and any(f.page in ocr for f in fragments if f.span is not None):
        flags.append(Flag(kind=FlagKind.OCR, message=OCR_MESSAGE, blocking=False))
    return flags
