"""The CSV report: one row per claim, RFC 4180 quoting, and no formula a spreadsheet would run."""

from __future__ import annotations

import csv
import io
from dataclasses import replace

import pytest

from core.models import BriefFormat, Location, LocationKind, SourceStatus, Verdict
from core.report import to_csv
from core.report.as_csv import COLUMNS, safe_cell
from tests.builders import claim, report, result, source
from tests.report.test_cases import IMG_PAYLOAD, PAYLOAD, empty_report, failed_report, hostile_report, python_report


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text, newline="")))


def test_one_row_per_claim_in_brief_order() -> None:
    checked = python_report()
    text = to_csv(checked)
    assert text.splitlines()[0] == ",".join(COLUMNS)
    rows = _rows(text)
    assert [r["id"] for r in rows] == [r.claim.id for r in checked.results]
    for row, res in zip(rows, checked.results, strict=True):
        assert row["claim"] == res.claim.text
        assert row["url"] == res.claim.url
        assert row["quote"] == (res.claim.quote or "")
        assert row["verdict"] == res.verdict.value
        assert row["reasons"].split("\n") == list(res.reasons)
    by_id = {r["id"]: r for r in rows}
    assert by_id["c2"]["missing_figures"] == "60%"
    assert by_id["c1"]["missing_figures"] == ""
    assert (by_id["c1"]["decision"], by_id["c1"]["note"]) == ("accept", "Matches the release notes.")
    assert (by_id["c2"]["decision"], by_id["c2"]["note"]) == ("needs_edit", "Say 25%, not 60%.")
    assert (by_id["c3"]["decision"], by_id["c3"]["note"]) == ("", "")
    assert (by_id["c1"]["decided_by"], by_id["c1"]["decided_at"]) == ("Ada Lovelace", "2026-11-29T18:10:00Z")
    assert (by_id["c2"]["decided_by"], by_id["c2"]["decided_at"]) == ("", "2026-11-29T18:11:00Z")
    # Each column added at the end: the first twelve keep their order.
    added = ["decided_by", "decided_at", "offered_passage", "figure_statuses", "signs", "adopted_by"]
    assert list(rows[0])[9:] == ["citation", *added]


def test_rfc4180_line_ends_and_quoting() -> None:
    tricky = 'A claim, with a comma, "quotes" and\na line break'
    base = python_report().results[0]
    changed = replace(base, claim=replace(base.claim, text=tricky), reasons=("first reason", "second reason"))
    text = to_csv(report(changed))
    assert text.endswith("\r\n")
    # Every record ends in CRLF; the bare \n sits inside a quoted cell.
    assert text.count("\r\n") == 2
    assert '"A claim, with a comma, ""quotes"" and\na line break"' in text
    row = _rows(text)[0]
    assert row["claim"] == tricky
    assert row["reasons"] == "first reason\nsecond reason"


def test_script_payloads_stay_text() -> None:
    rows = _rows(to_csv(hostile_report()))
    assert rows[0]["claim"] == f"Python {PAYLOAD} is 25% faster {IMG_PAYLOAD}"
    assert rows[0]["note"] == f"note {PAYLOAD}"


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ('=HYPERLINK("http://evil.example","click")', '\'=HYPERLINK("http://evil.example","click")'),
        ("+1+2", "'+1+2"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1:A2)", "'@SUM(A1:A2)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("25% faster", "25% faster"),
        ("a=b", "a=b"),
        ("", ""),
    ],
)
def test_safe_cell(cell: str, written: str) -> None:
    assert safe_cell(cell) == written


def test_formula_cells_are_defused_in_every_column() -> None:
    formula = "=cmd|' /C calc'!A0"
    bad = claim("=1+1", formula, "@evil", "+quote", location=Location(kind=LocationKind.ROW, index=0))
    blocked = result(bad, Verdict.BLOCKED, ("-reason",), source("@evil", status=SourceStatus.BLOCKED, reason="no"))
    row = _rows(to_csv(report(blocked, brief_name="b.csv", brief_format=BriefFormat.CSV)))[0]
    assert row["id"] == "'=1+1"
    assert row["claim"] == "'" + formula
    assert row["url"] == "'@evil"
    assert row["quote"] == "'+quote"
    assert row["reasons"] == "'-reason"
    hostile = _rows(to_csv(hostile_report()))[1]
    assert hostile["claim"].startswith("'=HYPERLINK(")
    assert hostile["quote"].startswith("'-2+3")


@pytest.mark.parametrize(
    ("make", "verdicts"),
    [(failed_report, ["not_checked", "dead_link", "blocked"]), (empty_report, [])],
    ids=["failed", "empty"],
)
def test_bad_runs_still_export(make, verdicts: list[str]) -> None:
    bad = make()
    rows = _rows(to_csv(bad))
    assert [r["id"] for r in rows] == [r.claim.id for r in bad.results]
    assert [r["verdict"] for r in rows] == verdicts
