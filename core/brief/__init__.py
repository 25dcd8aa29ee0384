"""Reading briefs: Markdown and text, DOCX, PDF, and JSON/CSV claims files, into a Brief of claims.

``read`` looks at the bytes and picks the reader; ``markdown``/``inline``, ``docx``/``docx_walk``,
``pdf`` and ``claims`` read each format into ``blocks`` with citations, finding bare URLs with
``urls``; ``refs`` resolves markers through reference lists; ``build`` turns blocks into claims
for every format alike, cutting sentences with ``core.text`` and reading their citations and
quotes with ``citations``.

The PDF reader (``core.brief.pdf``) is imported only when a PDF comes: PyMuPDF is slow to load.
"""

from __future__ import annotations

from core.brief.claims import parse_csv, parse_json
from core.brief.docx import docx_links, read_docx
from core.brief.read import BRIEF_EXTENSIONS, BriefError, detect_format, parse_markdown, read_brief

__all__ = [
    "BRIEF_EXTENSIONS",
    "BriefError",
    "detect_format",
    "docx_links",
    "parse_csv",
    "parse_json",
    "parse_markdown",
    "read_brief",
    "read_docx",
]
