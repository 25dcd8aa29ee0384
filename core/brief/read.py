"""Read a brief from any format editors and agents use into a Brief of claims.

``read_brief(data, filename)`` looks at the bytes first and the extension second: a PDF
named ``.docx`` is read as the PDF it is, with a warning. Formats: Markdown and plain text
(``core.brief.markdown``), DOCX (``core.brief.docx``), PDF (``core.brief.pdf``), JSON and
CSV claims files (``core.brief.claims``); claims are assembled by ``core.brief.build``.

Exceptions::

    BriefError      the brief cannot be read at all: empty, too large, encrypted, damaged,
                    an old .doc or another binary format, malformed JSON or CSV.

A brief without claims is not an error (a Brief with a warning). This module refuses to
fetch anything or to look at a brief's sources.
"""

from __future__ import annotations

import codecs
import dataclasses
import json
import os

from core.brief.claims import parse_csv, parse_json
from core.brief.limits import check_size
from core.brief.markdown import parse_markdown
from core.errors import BriefError
from core.models import Brief, BriefFormat
from core.settings import Settings

__all__ = ["BRIEF_EXTENSIONS", "BriefError", "detect_format", "parse_markdown", "read_brief"]

#: Every file name ending a brief reader reads, and the format it says (the desk's upload types too).
BRIEF_EXTENSIONS = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".mdown": "markdown",
    ".txt": "text",
    ".text": "text",
    ".docx": "docx",
    ".docm": "docx",
    ".pdf": "pdf",
    ".json": "json",
    ".csv": "csv",
    ".tsv": "csv",
}
_NAMES = {
    "markdown": "Markdown",
    "text": "plain text",
    "docx": "Word (.docx)",
    "pdf": "PDF",
    "json": "JSON",
    "csv": "CSV",
}
_WHAT_TO_DO = "Upload Markdown, plain text, DOCX, PDF, JSON or CSV, or paste the brief's text."


def _decode(data: bytes, name: str) -> str:
    """Return the brief's text: UTF-8 (with or without BOM), UTF-16 with BOM, else detected."""
    if data.startswith(codecs.BOM_UTF8):
        return data[3:].decode("utf-8", errors="replace")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16", errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    best = from_bytes(data[:200_000]).best()
    if best is None:
        raise BriefError(f"{name} is not text Verbatim can read (no character set fits it). {_WHAT_TO_DO}")
    return str(data, best.encoding, errors="replace")


def detect_format(data: bytes, filename: str) -> tuple[str, str]:
    """Return (format the bytes are, format the extension says) for a brief; "" when unknown."""
    ext = os.path.splitext(filename.lower())[1]
    said = BRIEF_EXTENSIONS.get(ext, "")
    head = data[:1024]
    if b"%PDF-" in head:
        return "pdf", said
    if data.startswith(b"PK\x03\x04") or data.startswith(b"PK\x05\x06"):
        return "docx", said
    if data.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
        return "doc", said
    if data.startswith((b"{\\rtf",)):
        return "rtf", said
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return (said if said in ("markdown", "text", "json", "csv") else "text"), said
    if b"\x00" in head or _binary(head):
        return "binary", said
    stripped = head.lstrip(codecs.BOM_UTF8).lstrip()
    if said == "csv":
        return "csv", said
    if stripped[:1] in (b"{", b"[") and said in ("json", ""):
        return "json", said
    if stripped[:1] == b"{" and _is_json(data):
        return "json", said
    if said in ("markdown", "text", "json"):
        return ("text" if said == "json" else said), said
    return "markdown", said


def _binary(head: bytes) -> bool:
    controls = sum(1 for b in head if b < 9 or 13 < b < 32)
    return controls > max(4, len(head) // 20)


def _is_json(data: bytes) -> bool:
    try:
        json.loads(data)
    except (ValueError, RecursionError):
        return False
    return True


def read_brief(data: bytes, filename: str, settings: Settings | None = None) -> Brief:
    """Return the Brief a file holds; raises BriefError with the reason and what to do when it cannot."""
    settings = settings or Settings()
    name = os.path.basename(filename) or "the brief"
    check_size(len(data), not data.strip(), name, settings, pasted=False)
    actual, said = detect_format(data, name)
    warnings: list[str] = []
    if actual == "doc":
        raise BriefError(
            f"{name} is an old Word document (.doc), which Verbatim cannot read. "
            "Save it as .docx in Word, or paste the text."
        )
    if actual == "rtf":
        raise BriefError(
            f"{name} is a Rich Text (RTF) file, which Verbatim cannot read. Save it as .docx or paste the text."
        )
    if actual == "binary" and said == "docx":
        raise BriefError(
            f"{name} is not a Word document: it is not a .docx (zip) archive, so it may be damaged or another "
            "format. Save it again from Word as .docx, or paste the text."
        )
    if actual == "binary" and said == "pdf":
        raise BriefError(
            f"{name} is not a PDF: it does not start like one, so it may be damaged or another format. "
            "Save or export the PDF again, or paste the text."
        )
    if actual == "binary":
        raise BriefError(f"{name} is not a brief Verbatim can read: it holds binary data. {_WHAT_TO_DO}")
    if said and actual != said and not {actual, said} <= {"markdown", "text"}:
        warnings.append(
            f"{name} is really a {_NAMES[actual]} file, not {_NAMES[said]}; it was read as {_NAMES[actual]}."
        )
    brief = _read(actual, data, name, settings)
    if warnings:
        brief = dataclasses.replace(brief, warnings=(*warnings, *brief.warnings), raw=data)
    return brief


def _read(fmt: str, data: bytes, name: str, settings: Settings) -> Brief:
    if fmt == BriefFormat.PDF:
        from core.brief.pdf import read_pdf

        return read_pdf(data, name, settings)
    if fmt == BriefFormat.DOCX:
        from core.brief.docx import read_docx

        return read_docx(data, name, settings)
    text = _decode(data, name)
    if fmt == BriefFormat.JSON:
        return parse_json(text, name, settings, raw=data)
    if fmt == BriefFormat.CSV:
        return parse_csv(text, name, settings, raw=data)
    return parse_markdown(text, name, settings, fmt=fmt, raw=data)
