"""core.report.exports: the one path from a Report to the bytes of its files, for the command line and the desk."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace

import docx
import pytest

from core.models import BriefFormat, Claim, Report
from core.report import ExportKind, clean_text, comments_on_brief, exports, from_json, to_csv, to_json
from tests.builders import every
from tests.report.test_cases import python_report


def _odd_report() -> Report:
    """Return the python report with lone surrogates in a claim's id, text and quote (a JSON brief may spell them)."""
    report = python_report()
    first = report.results[0]
    odd = Claim(
        id="x\ud800", text="Lone \udfff surrogate in 25% of claims.", url=first.claim.url, quote="a quote \ud83d"
    )
    return replace(report, brief_name="odd\ud800.json", results=(replace(first, claim=odd), *report.results[1:]))


def test_every_export_is_built_in_the_order_asked() -> None:
    files = exports(python_report())
    assert list(files) == [ExportKind.JSON, ExportKind.HTML, ExportKind.CSV, ExportKind.DOCX]
    assert list(exports(python_report(), ["csv", "json"])) == [ExportKind.CSV, ExportKind.JSON]
    every(files.values(), lambda data: isinstance(data, bytes) and len(data) > 0)


def test_the_json_file_is_schema_1_and_reads_back_to_the_same_report() -> None:
    report = python_report()
    text = exports(report, ["json"])[ExportKind.JSON].decode("utf-8")
    assert text.endswith("}\n") and '"schema": 1' in text
    assert json.loads(text) == json.loads(json.dumps(to_json(report)))
    assert from_json(json.loads(text)) == report


def test_lone_surrogates_are_cleaned_alike_in_every_text_export() -> None:
    files = exports(_odd_report(), ["json", "html", "csv"])
    claim = json.loads(files[ExportKind.JSON].decode("utf-8"))["claims"][0]
    assert (claim["id"], claim["claim"], claim["quote"]) == (
        "x\ufffd",
        "Lone \ufffd surrogate in 25% of claims.",
        "a quote \ufffd",
    )
    assert "Lone \ufffd surrogate" in files[ExportKind.HTML].decode("utf-8")
    rows = list(csv.reader(io.StringIO(files[ExportKind.CSV].decode("utf-8"), newline="")))
    assert rows[1][:2] == ["x\ufffd", "Lone \ufffd surrogate in 25% of claims."]
    assert files[ExportKind.CSV].decode("utf-8") == clean_text(to_csv(_odd_report()))


def test_the_docx_comments_the_brief_only_for_a_docx_brief_with_its_file() -> None:
    document = docx.Document()
    document.add_paragraph(python_report().results[0].claim.text)
    out = io.BytesIO()
    document.save(out)
    raw = out.getvalue()
    as_docx = replace(python_report(), brief_format=BriefFormat.DOCX)
    assert comments_on_brief(as_docx, raw) and not comments_on_brief(as_docx, b"")
    assert not comments_on_brief(python_report(), raw)
    commented = docx.Document(io.BytesIO(exports(as_docx, ["docx"], brief_raw=raw)[ExportKind.DOCX]))
    assert commented.paragraphs[0].text == python_report().results[0].claim.text
    fresh = docx.Document(io.BytesIO(exports(python_report(), ["docx"], brief_raw=raw)[ExportKind.DOCX]))
    assert fresh.paragraphs[0].text != python_report().results[0].claim.text


def test_an_unknown_kind_is_a_caller_s_bug() -> None:
    with pytest.raises(ValueError, match="'pdf' is not a valid ExportKind"):
        exports(python_report(), ["pdf"])
