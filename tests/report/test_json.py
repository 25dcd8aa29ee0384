"""The JSON report: DESIGN.md's schema 1 contract, and an exact round trip through from_json."""

from __future__ import annotations

import json
from dataclasses import fields, replace

import pytest

from core.models import ClaimResult, Report, Verdict
from core.report import ReportFormatError, from_json, to_json
from tests.report.test_cases import REPORTS as REPORT_CASES
from tests.report.test_cases import (
    empty_report,
    enormous_report,
    failed_report,
    python_report,
)

REPORTS = {**REPORT_CASES, "no_decisions": lambda: python_report(decisions=False)}


def _spans(obj: object) -> object:
    """Return every field of a record tree, compare=False ones included, as plain values."""
    if hasattr(obj, "__dataclass_fields__"):
        return {f.name: _spans(getattr(obj, f.name)) for f in fields(obj) if f.name != "body"}  # type: ignore[arg-type]
    if isinstance(obj, tuple | list):
        return [_spans(x) for x in obj]
    return obj


@pytest.mark.parametrize("name", REPORTS)
def test_round_trip_is_exact(name: str) -> None:
    report = REPORTS[name]()
    data = json.loads(json.dumps(to_json(report)))  # through real JSON text, as the store keeps it
    back = from_json(data)
    assert back == report
    # Spans, locations, contexts, scores and headers are compare=False: compare them field by field.
    assert _spans(back) == _spans(report)
    assert to_json(back) == data


def test_round_trip_keeps_every_span() -> None:
    report = python_report()
    back = from_json(json.loads(json.dumps(to_json(report))))
    for a, b in zip(report.results, back.results, strict=True):
        assert a.claim.location == b.claim.location
        assert (a.claim.location.start, a.claim.location.end) == (b.claim.location.start, b.claim.location.end)  # type: ignore[union-attr]
        assert a.context == b.context and (a.context is None or a.context.highlights == b.context.highlights)  # type: ignore[union-attr]
        if a.match is not None:
            assert [(f.span, f.page, f.in_main) for f in a.match.fragments] == [
                (f.span, f.page, f.in_main)
                for f in b.match.fragments  # type: ignore[union-attr]
            ]
            assert [f.span for f in a.match.flags] == [f.span for f in b.match.flags]  # type: ignore[union-attr]
        assert [(f.span, f.elsewhere) for f in a.figures.figures] == [(f.span, f.elsewhere) for f in b.figures.figures]
        assert a.source.headers == b.source.headers


def test_schema_one_contract() -> None:
    report = python_report()
    data = to_json(report)
    assert data["schema"] == 1
    assert data["summary"] == {v.value: 1 for v in Verdict}
    assert [c["id"] for c in data["claims"]] == [r.claim.id for r in report.results]
    for claim, result in zip(data["claims"], report.results, strict=True):
        assert {
            "id",
            "claim",
            "url",
            "quote",
            "verdict",
            "reasons",
            "fragments",
            "flags",
            "figures",
            "near_miss",
            "source",
        } <= set(claim)
        assert claim["verdict"] == result.verdict.value
        assert claim["reasons"] == list(result.reasons)
        for f in claim["fragments"]:
            assert {"text", "found", "start", "end"} <= set(f)
        for f in claim["figures"]:
            assert {"text", "status", "quote_text"} <= set(f)
        assert {"status", "http_status", "final_url", "content_type", "sha256", "fetched_at", "reason"} <= set(
            claim["source"]
        )
    by_id = {c["id"]: c for c in data["claims"]}
    assert by_id["c1"]["decision"]["decision"] == "accept"
    assert (by_id["c1"]["decision"]["decided_by"], by_id["c1"]["decision"]["decided_at"]) == (
        "Ada Lovelace",
        "2026-11-29T18:10:00Z",
    )
    assert by_id["c2"]["decision"]["decided_by"] == ""  # recorded under no name
    assert by_id["c3"]["decision"] is None
    assert by_id["c4"]["near_miss"]["passage"]["text"].endswith("formally marked as deprecated.")
    assert by_id["c5"]["quote"] is None and by_id["c5"]["match"] is None
    assert [d["claim_id"] for d in data["decisions"]] == ["c1", "c2"]


def test_found_fragment_spans_point_at_the_quote_in_the_page() -> None:
    # The fragment spans are offsets into the page text; the stored context lets us check them.
    for claim in to_json(python_report())["claims"]:
        ctx = claim["context"]
        for f in claim["fragments"]:
            if f["found"]:
                s, e = f["start"] - ctx["offset"], f["end"] - ctx["offset"]
                assert ctx["text"][s:e] == f["text"]


def test_json_says_what_was_not_checked() -> None:
    data = to_json(python_report())["not_checked"]
    assert [(s["url"], s["verdict"], s["claims"]) for s in data["sources"]] == [
        ("https://members.example.org/psf-report", "not_checked", ["c6"]),
        ("https://peps.python.org/pep-9999/", "dead_link", ["c7"]),
        ("file:///etc/passwd", "blocked", ["c8"]),
    ]
    assert data["sources"][0]["reason"] == "Server answered 403 Forbidden: the page may need a login"
    assert data["no_quote"] == ["c5"]
    assert [(f["claim"], f["figure"]) for f in data["figures_skipped"]] == [
        ("c3", "3.13"),
        ("c4", "3.10"),
        ("c6", "1,200"),
    ]
    assert data["drift"] == [{"claim": "c3", "url": "https://docs.python.org/3/whatsnew/3.13.html"}]
    assert [x["claim"] for x in data["not_from_web"]] == ["c5"]
    assert data["no_claims"] is False
    assert to_json(empty_report())["not_checked"]["no_claims"] is True
    assert len(to_json(failed_report())["not_checked"]["sources"]) == 3


def test_enormous_page_text_round_trips() -> None:
    report = enormous_report()
    back = from_json(json.loads(json.dumps(to_json(report))))
    assert back.results[0].context == report.results[0].context


def test_a_minimal_schema_one_file_from_another_writer_reads() -> None:
    data = {
        "schema": 1,
        "claims": [
            {
                "id": "a",
                "claim": "x",
                "url": "https://peps.python.org/pep-0632/",
                "quote": "q",
                "verdict": "quote_not_found",
                "reasons": ["The quote is not on the page."],
                "fragments": [{"text": "q", "found": False, "start": -1, "end": -1}],
                "flags": [],
                "figures": [{"text": "3.10", "status": "skipped", "quote_text": ""}],
                "near_miss": None,
                "source": {
                    "status": "ok",
                    "http_status": 200,
                    "final_url": "",
                    "content_type": "",
                    "sha256": "",
                    "fetched_at": "",
                    "reason": "",
                },
            }
        ],
    }
    report = from_json(data)
    result: ClaimResult = report.results[0]
    assert result.verdict is Verdict.QUOTE_NOT_FOUND
    assert result.match is not None and not result.match.found
    assert result.source.url == "https://peps.python.org/pep-0632/"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(schema=2), "JSON report: schema is 2, this Verbatim reads schema 1"),
        (
            lambda d: d["claims"][0].update(verdict="maybe"),
            "JSON report: claims[0].verdict is 'maybe', expected one of",
        ),
        (lambda d: d["claims"][0].pop("claim"), "JSON report: claims[0] has no 'claim'"),
        (
            lambda d: d["claims"][0]["fragments"][0].update(start="7"),
            "JSON report: claims[0].fragments[0].start is str",
        ),
        (
            lambda d: d["claims"][0]["context"].update(highlights=[[1]]),
            "claims[0].context.highlights[0] is not a [start",
        ),
        (lambda d: d["claims"][1]["source"].update(status="gone"), "claims[1].source.status is 'gone'"),
    ],
)
def test_broken_files_say_which_field(change, message: str) -> None:
    data = json.loads(json.dumps(to_json(python_report())))
    change(data)
    with pytest.raises(ReportFormatError) as err:
        from_json(data)
    assert str(err.value).startswith(message) or message in str(err.value)


def test_report_equality_would_catch_a_lost_field() -> None:
    # Guard on the round-trip test itself: a changed verdict or decision must break equality.
    report = python_report()
    other = replace(report, decisions=report.decisions[:1])
    assert from_json(to_json(other)) != report
    assert isinstance(from_json(to_json(report)), Report)
