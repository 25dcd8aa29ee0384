"""Benchmark: reading DOCX uploads within bounds (issue 16, 6), against python-docx opening the same file.

Three uploads built by ``tests.builders.docx_brief``: the corpus-sized brief with 20,000 paragraphs
of prose, the largest upload accepted (XML up to the caps), and a 1 MB file holding 190 MB of XML
(refused). Each is read as the desk reads it (``read_brief``); the baseline is python-docx's
``Document()`` on the same bytes, which is all the old reader did before walking (for the 190 MB
file it is not run: it took minutes). Best of REPEAT.
"""

from __future__ import annotations

import io

import docx

from core.brief.read import read_brief
from core.errors import BriefError
from core.settings import Settings
from tests.bench.run import best_of
from tests.brief.test_docx_bounds import PROSE
from tests.builders import docx_brief

REPEAT = 2


def _read(data: bytes) -> str:
    try:
        return f"{len(read_brief(data, 'bench.docx').claims)} claim"
    except BriefError:
        return "refused"


def run() -> list[str]:
    """Return one line per upload: best read time, what came of it, and the ratio against python-docx's open."""
    s = Settings()
    largest = (s.max_docx_xml_bytes - 820_000) // len(PROSE)
    uploads = {
        "20,000 paragraphs of prose": (docx_brief(PROSE, 20_000), True),
        f"largest accepted ({largest:,} paragraphs, ~16 MB of XML)": (docx_brief(PROSE, largest), True),
        "1 MB file holding 190 MB of XML": (docx_brief(PROSE, 190 * 1024 * 1024 // len(PROSE)), False),
    }
    lines = []
    for label, (data, with_baseline) in uploads.items():
        outcome = _read(data)
        took = best_of(lambda data=data: _read(data), REPEAT)
        line = f"{label}, {len(data) / 1e6:.2f} MB file: {took:.2f} s ({outcome})"
        if with_baseline:
            base = best_of(lambda data=data: docx.Document(io.BytesIO(data)), REPEAT)
            line += f", {took / base:.1f}x python-docx's open alone ({base:.2f} s)"
        lines.append(line)
    return lines
