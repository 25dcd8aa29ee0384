"""Page text from a source's bytes: HTML, plain text, PDF and DOCX, each with blocks and an offset-ready text.

``read`` decides what the bytes are and decodes their charset; ``html``, ``pdf`` and ``docx``
each read one kind into a PageText (or an Unreadable with its reason).

The PDF reader (``core.extract.pdf``) is imported only when a PDF comes: PyMuPDF is slow to load.
"""

from __future__ import annotations

from core.extract.docx import extract_docx
from core.extract.html import html_page_text
from core.extract.read import SOURCE_EXTENSIONS, decode_body, extract, extract_html, extract_text

__all__ = [
    "SOURCE_EXTENSIONS",
    "decode_body",
    "extract",
    "extract_docx",
    "extract_html",
    "extract_text",
    "html_page_text",
]
