"""Every export of a report as the bytes of its file: the one path the command line and the desk both take.

Each text export (JSON, HTML, CSV) gets the same clean-up before it is encoded as UTF-8: a
JSON brief may spell lone UTF-16 surrogates ("\\ud800") that no UTF-8 file can hold, so they
become U+FFFD. The DOCX writer drops what XML cannot hold itself. This module refuses to
write files: where the bytes go, and what to say when they cannot go there, is the caller's.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from enum import StrEnum

from core.models import Report
from core.report.as_csv import to_csv
from core.report.as_docx import to_docx
from core.report.as_html import to_html
from core.report.as_json import to_json
from core.settings import Settings


class ExportKind(StrEnum):
    """The exports of a report, in the order they are offered."""

    JSON = "json"
    HTML = "html"
    CSV = "csv"
    DOCX = "docx"


#: The media type of each export, for a download or a mail.
MEDIA_TYPES: dict[ExportKind, str] = {
    ExportKind.JSON: "application/json",
    ExportKind.HTML: "text/html",
    ExportKind.CSV: "text/csv",
    ExportKind.DOCX: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
}

# Lone UTF-16 surrogates: a JSON brief may spell them ("\\ud800"), but no UTF-8 file can hold them.
_SURROGATE = re.compile("[\ud800-\udfff]")


def clean_text(text: str) -> str:
    """Return text with lone surrogates replaced by U+FFFD, so that it can be written as UTF-8."""
    return _SURROGATE.sub("\ufffd", text)


def _build(kind: ExportKind, report: Report, brief_raw: bytes, settings: Settings | None) -> bytes:
    if kind is ExportKind.DOCX:
        return to_docx(report, brief_raw or None)
    if kind is ExportKind.JSON:
        text = json.dumps(to_json(report), ensure_ascii=False, indent=2) + "\n"
    elif kind is ExportKind.HTML:
        text = to_html(report, settings)
    else:
        text = to_csv(report)
    return clean_text(text).encode("utf-8")


def exports(
    report: Report,
    kinds: Iterable[ExportKind | str] = tuple(ExportKind),
    *,
    brief_raw: bytes = b"",
    settings: Settings | None = None,
) -> dict[ExportKind, bytes]:
    """Return the file bytes of each export asked for (all by default), in the order asked; never fails on content.

    ``brief_raw`` is the brief's own file: a DOCX brief comes back with comments on its claims
    (core.report.as_docx), any other gives a new DOCX report. Raises ValueError for a kind
    that is not an ExportKind (a caller's bug).
    """
    return {ExportKind(k): _build(ExportKind(k), report, brief_raw, settings) for k in kinds}
