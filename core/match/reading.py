"""The flag on how the page's text where a quote was found was read: by OCR from a scanned page.

Information, never blocking: OCR text is exact-matched like any other, but OCR misreads
letters and digits, so the editor is told to look at the page image. (Text hidden until opened
has its own flag, decided over every place the quote stands: core.match.places.)
"""

from __future__ import annotations

from collections.abc import Sequence

from core.match.page import PreparedPage
from core.models import Flag, FlagKind, Fragment

#: The words of the OCR flag: OCR misreads letters and digits, so the image is the evidence.
OCR_MESSAGE = "The quote was read by OCR: check the page image, which the desk shows beside the match."


def ocr_flags(page: PreparedPage, fragments: Sequence[Fragment]) -> list[Flag]:
    """Return the OCR flag when a found fragment stands on a page read by OCR, else nothing."""
    if not page.page.ocr_pages:
        return []
    ocr = set(page.page.ocr_pages)
    if any(f.page in ocr for f in fragments if f.span is not None):
        return [Flag(kind=FlagKind.OCR, message=OCR_MESSAGE, blocking=False)]
    return []
