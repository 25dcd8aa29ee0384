"""Every export of a Report: JSON (schema 1) and its inverse, HTML, CSV and DOCX.

One import point for the CLI, the store and the desk; each format lives in its own module
(``report_json``, ``report_html``, ``report_csv``, ``report_docx``; ``report_view`` holds the
words HTML and DOCX share). This module only gathers them: it refuses to fetch, match or
decide anything.
"""

from __future__ import annotations

from core.errors import ReportFormatError
from core.report.as_csv import to_csv
from core.report.as_docx import to_docx
from core.report.as_html import to_html
from core.report.as_json import SCHEMA, from_json, to_json

__all__ = ["SCHEMA", "ReportFormatError", "from_json", "to_csv", "to_docx", "to_html", "to_json"]
