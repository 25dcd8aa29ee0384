"""A 4,000-character word never widens the DOCX report: it stands in body paragraphs, which Word and
LibreOffice wrap at the margin, and every table has a fixed layout (issue 16, 9; the HTML report and
the desk are measured in a real browser, tests/browser/test_long_words.py)."""

from __future__ import annotations

import io

import docx
from docx.oxml.ns import qn

from core.report import ExportKind, exports
from tests.browser.records import LONG_WORD as WORD
from tests.browser.records import long_word_report
from tests.builders import every


def test_the_docx_report_keeps_a_long_word_in_paragraphs_and_fixes_every_tables_layout() -> None:
    data = exports(long_word_report(), (ExportKind.DOCX,))[ExportKind.DOCX]
    document = docx.Document(io.BytesIO(data))
    assert any(WORD in p.text for p in document.paragraphs)
    assert document.tables, "the report has its summary table"
    for table in document.tables:
        every([cell for row in table.rows for cell in row.cells], lambda cell: WORD not in cell.text)
        layout = table._tbl.tblPr.find(qn("w:tblLayout"))
        assert layout is not None and layout.get(qn("w:type")) == "fixed"
