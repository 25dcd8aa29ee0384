"""Every export of a Report: JSON (schema 1) and its inverse, HTML, CSV and DOCX, and the words they share.

``exports`` (in ``files``) is the one path from a Report to the bytes of its files, taken by the
command line and the desk alike. Each format has its module (``as_json`` and ``read_json``,
``as_html``, ``as_csv``, ``as_docx``); ``read_cache`` keeps stored runs read back, by their text's
digest; ``marks`` places the marks (figures, quote, context) that the reports and the desk draw,
``wording`` holds the words they say, ``unchecked`` gathers what a run did not check, ``links``
makes the only links they draw. This package fetches, matches and decides nothing.
"""

from __future__ import annotations

from core.errors import ReportFormatError
from core.report.as_csv import to_csv
from core.report.as_docx import comments_on_brief, to_docx
from core.report.as_html import to_html
from core.report.as_json import SCHEMA, to_json
from core.report.files import MEDIA_TYPES, ExportKind, clean_text, exports
from core.report.read_cache import cached_report
from core.report.read_json import from_json

__all__ = [
    "MEDIA_TYPES",
    "SCHEMA",
    "ExportKind",
    "ReportFormatError",
    "cached_report",
    "clean_text",
    "comments_on_brief",
    "exports",
    "from_json",
    "to_csv",
    "to_docx",
    "to_html",
    "to_json",
]
