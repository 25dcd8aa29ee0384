"""Benchmark: building every export of a 500-claim run, each against building its JSON alone.

The run cycles through the python.org cases of tests/report/test_cases.py (every verdict,
real page contexts of about 700 characters). The DOCX brief case first writes a 500-paragraph
DOCX brief with python-docx, then times commenting it.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from dataclasses import replace

import docx

from core.models import BriefFormat, Location, LocationKind, Report
from core.report import from_json, to_csv, to_docx, to_html, to_json
from tests import builders
from tests.bench.run import best_of
from tests.report.test_cases import many_results

CLAIMS = 500
REPEAT = 3


def _docx_brief(report: Report) -> tuple[bytes, Report]:
    document = docx.Document()
    results = []
    for r in report.results:
        document.add_paragraph(r.claim.text)
        index = len(document.paragraphs) - 1
        results.append(
            replace(
                r,
                claim=replace(
                    r.claim, location=Location(kind=LocationKind.PARAGRAPH, index=index, start=0, end=len(r.claim.text))
                ),
            )
        )
    out = io.BytesIO()
    document.save(out)
    return out.getvalue(), replace(report, brief_format=BriefFormat.DOCX, results=tuple(results))


def run() -> list[str]:
    """Return one line per export: best-of-3 time and its ratio to to_json on the same run."""
    report = builders.report(*many_results(CLAIMS), brief_name="bench.md", checked_at="2026-11-29T18:00:00Z")
    raw, docx_report = _docx_brief(report)
    data = json.loads(json.dumps(to_json(report)))
    base = best_of(lambda: to_json(report), REPEAT)
    cases: list[tuple[str, Callable[[], object]]] = [
        ("to_json + json.dumps", lambda: json.dumps(to_json(report))),
        ("from_json", lambda: from_json(data)),
        ("to_csv", lambda: to_csv(report)),
        ("to_html", lambda: to_html(report)),
        ("to_docx (new report)", lambda: to_docx(report)),
        ("to_docx (comments on a 500-paragraph DOCX brief)", lambda: to_docx(docx_report, raw)),
    ]
    lines = [f"{CLAIMS} claims; baseline to_json: {base * 1000:.1f} ms"]
    total = 0.0
    for name, fn in cases:
        t = best_of(fn, REPEAT)
        if name in ("to_json + json.dumps", "to_csv", "to_html") or name.startswith("to_docx (new"):
            total += t
        lines.append(f"{name}: {t * 1000:.1f} ms ({t / base:.1f}x to_json)")
    lines.append(f"all reports (JSON text, CSV, HTML, new DOCX): {total * 1000:.1f} ms ({total / base:.1f}x to_json)")
    lines.append(f"HTML size: {len(to_html(report)) / 1024:.0f} KiB; DOCX size: {len(to_docx(report)) / 1024:.0f} KiB")
    return lines


if __name__ == "__main__":
    print("\n".join(run()))
