"""OCR of scanned PDF pages (Tesseract inside PyMuPDF, Debian's tesseract-ocr language data), and page images.

Only when the editor switches it on (``settings.ocr``: ``--ocr``, the desk's setting): OCR is
slow (seconds a page) and its text is a reading, not the document's own, so every quote found
in it carries a flag and the desk shows the page image beside the match. At most
``settings.ocr_max_pages`` pages are read, within ``settings.ocr_budget_seconds``; a warning
says how many were left unread. OCR text is untrusted like any page text. The words are
Tesseract's: a space is written after each one, since MuPDF's own reading of the OCR layer
guesses spaces from gaps and glues narrow ones ("hada positive").

It refuses to run without the option, to read a page that has a text layer, and to install
anything: a machine without Tesseract's data gets a reason saying how to install it.
"""

from __future__ import annotations

import functools
import re
import time
import weakref
from typing import Any

import pymupdf

from core.settings import Settings

#: One word of Tesseract's text layer: MuPDF's OCR writer shows each word by itself, as UTF-16 hex.
_WORD = re.compile(rb"<((?:[0-9A-Fa-f]{4})+)>Tj")
#: A space (U+0020) written after each word.
_SPACED = rb"<\g<1>0020>Tj"

#: What the editor does when OCR cannot run here.
INSTALL = "install Tesseract (Debian: apt-get install tesseract-ocr tesseract-ocr-eng; `make setup` does it)"


@functools.cache
def tessdata() -> str | None:
    """Return the folder of Tesseract's language data, or None when Tesseract is not installed."""
    find: Any = pymupdf.get_tessdata  # PyMuPDF's API is only partly typed
    try:
        folder = find()
    except RuntimeError:  # PyMuPDF's word for "no tessdata specified and Tesseract is not installed"
        return None
    return str(folder) if folder else None


def ocr_textpages(doc: Any, numbers: list[int], settings: Settings) -> tuple[dict[int, Any], list[str]]:
    """Return the OCR text page of each scanned page (0-based numbers) read within the limits, and warnings."""
    folder = tessdata()
    if folder is None:
        return {}, [f"OCR is switched on, but Tesseract is not installed on this machine: {INSTALL}."]
    read: dict[int, Any] = {}
    warnings: list[str] = []
    started = time.monotonic()
    for k, number in enumerate(numbers):
        # The budget is looked at before each page after the first (a page takes seconds).
        if k >= settings.ocr_max_pages or (k and time.monotonic() - started > settings.ocr_budget_seconds):
            why = (
                f"the limit is {settings.ocr_max_pages} pages"
                if k >= settings.ocr_max_pages
                else f"OCR may take {settings.ocr_budget_seconds:g} seconds per PDF"
            )
            warnings.append(
                f"OCR read {k} of the PDF's {len(numbers)} scanned pages ({why}); a quote from page "
                f"{number + 1} or later will not be found: upload the pages you quote, or paste their text."
            )
            break
        page = doc[number]
        try:
            textpage = _read(page, settings, folder)
        except Exception as exc:  # MuPDF raises RuntimeError or ValueError on a page it cannot render or read
            warnings.append(f"OCR could not read page {number + 1} ({exc}); its text is missing.")
            continue
        read[number] = (page, textpage)  # the page is kept alive: a text page refers to it weakly
    return read, warnings


def _read(page: Any, settings: Settings, folder: str) -> Any:
    """Return the OCR text page of one page, with a space after each of Tesseract's words."""
    # This is PyMuPDF's get_textpage_ocr(full=True) but for the spaces: its text layer holds the words
    # without the spaces between them, and MuPDF guesses a space from the gap, which a narrow gap
    # ("had a", "our financial") does not give. Tesseract's word breaks are its reading: write them.
    pixmap = page.get_pixmap(dpi=settings.ocr_dpi)
    layer = pixmap.pdfocr_tobytes(compress=False, language=settings.ocr_language, tessdata=folder)
    opener: Any = pymupdf.open  # PyMuPDF's API is only partly typed
    matrix: Any = pymupdf.Matrix
    with opener(stream=layer, filetype="pdf") as ocr:
        ocr_page = ocr[0]
        for xref in ocr_page.get_contents():
            ocr.update_stream(xref, _WORD.sub(_SPACED, ocr.xref_stream(xref)))
        unzoom = page.rect.width / ocr_page.rect.width
        textpage = ocr_page.get_textpage(flags=0, matrix=matrix(unzoom, unzoom) * page.derotation_matrix)
    textpage.parent = weakref.proxy(page)  # PyMuPDF reads a text page only with the page it belongs to
    return textpage


def page_image(body: bytes, number: int, dpi: int = 100) -> bytes | None:
    """Return page ``number`` (1-based) of a PDF as a PNG image, or None when the PDF or the page cannot be drawn."""
    try:
        opener: Any = pymupdf.open  # PyMuPDF's API is only partly typed
        with opener(stream=body, filetype="pdf") as doc:
            if not 1 <= number <= doc.page_count:
                return None
            png: bytes = doc[number - 1].get_pixmap(dpi=dpi).tobytes("png")
            return png
    except Exception:  # a damaged PDF draws nothing; the desk then shows the text alone
        return None
