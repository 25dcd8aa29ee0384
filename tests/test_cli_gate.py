"""The --strict gate's summary: how many claims passed it unchecked because they offer no quote."""

from __future__ import annotations

import io
from dataclasses import replace

from core.cli import _print_report
from core.models import STRICT_FAILURES
from tests.report.test_cases import evidence_report


def test_an_unquoted_claim_with_a_figure_nowhere_fails_and_the_others_are_counted_unchecked() -> None:
    report = evidence_report()
    out = io.StringIO()
    _print_report(report, out)
    lines = out.getvalue().splitlines()
    assert lines[0].split("\t")[:2] == ["e1", "figures_mismatch"]  # its 75% stands nowhere on its page
    assert [r.claim.id for r in report.results if r.verdict in STRICT_FAILURES] == ["e1"]
    assert lines[4:6] == [
        "4 claims: 1 verified, 1 needs_review, 1 figures_mismatch, 1 no_quote",
        "1 claim passed the gate unchecked: it offers no quote, so its words were not checked against the page "
        "(only its figures were looked for there). Quote the page's exact words to have them checked.",
    ]


def test_no_line_when_every_claim_offers_a_quote() -> None:
    report = evidence_report()
    quoted = replace(report, results=report.results[1:3])
    out = io.StringIO()
    _print_report(quoted, out)
    assert out.getvalue().splitlines()[-1] == "2 claims: 1 verified, 1 needs_review"
