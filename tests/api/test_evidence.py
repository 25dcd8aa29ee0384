"""What an agent reads of a claim against its evidence: best passages, figure places, signs, the unchecked count.

Built from tests/report/test_cases.py's evidence_report (hand-built records in the contract's
fields), through DESIGN.md's JSON as core.api builds it.
"""

from __future__ import annotations

import dataclasses

from core import api
from core.api.feedback import CANDIDATES_USE, UNQUOTED_FIGURES_MISMATCH, agent_report
from core.models import Verdict
from core.report import to_json
from core.report.wording import UNCHECKED_BY_GATE
from tests.report.test_cases import IMG_PAYLOAD, PAYLOAD, evidence_report


def _agent() -> dict:
    return agent_report(to_json(evidence_report()))


def test_an_unquoted_claim_with_a_figure_nowhere_fails_the_gate() -> None:
    report = api.Report(record=evidence_report())
    assert [r.claim.id for r in report.failures] == ["e1"]  # figures_mismatch: 75% is nowhere on its page
    assert report.passed is False
    assert [r.claim.id for r in report.unchecked] == ["e4"]
    gate = _agent()["gate"]
    assert (gate["passed"], gate["failing"], gate["unchecked"]) == (False, ["e1"], ["e4"])
    assert gate["rule"].endswith(UNCHECKED_BY_GATE)


def test_a_figure_mismatch_means_what_it_means_for_a_claim_with_a_quote_and_for_one_without() -> None:
    record = evidence_report()
    quoted = record.results[0].claim  # e1 offers no quote: the same claim given one
    with_quote = dataclasses.replace(record.results[0], claim=dataclasses.replace(quoted, quote="an average of 25%"))
    unquoted, given = [
        agent_report(to_json(dataclasses.replace(record, results=[r])))["claims"][0]
        for r in (record.results[0], with_quote)
    ]
    assert unquoted["verdict"] == given["verdict"] == "figures_mismatch"
    assert unquoted["meaning"] == UNQUOTED_FIGURES_MISMATCH
    assert "nowhere on the cited page" in unquoted["meaning"] and "do not change the quote" not in unquoted["meaning"]
    assert given["meaning"] == api.MEANINGS[Verdict.FIGURES_MISMATCH]
    assert "do not change the quote" in given["meaning"] and "without a quote" not in given["meaning"]


def test_a_gate_passed_with_unquoted_claims_says_they_were_not_checked() -> None:
    record = evidence_report()
    passing = api.Report(record=dataclasses.replace(record, results=record.results[1:]))
    assert passing.passed is True and [r.claim.id for r in passing.unchecked] == ["e4"]
    agent = passing.for_agent()
    assert agent["gate"]["passed"] is True and agent["gate"]["unchecked"] == ["e4"]
    e4 = agent["claims"][-1]
    assert (e4["unchecked"], e4["fails_gate"]) == (True, False)
    assert "Not checked: the claim offers no quote" in e4["meaning"]
    assert "resubmit the claim with the page's exact words as its quote, and the code decides" in e4["meaning"]


def test_an_unquoted_claim_comes_with_its_best_passages_and_figure_places() -> None:
    e1, e2, _, e4 = _agent()["claims"]
    (nowhere,) = [f for f in e1["figures"] if f["where"] == "nowhere"]
    assert (nowhere["text"], nowhere["status"], nowhere["instead"]) == ("75%", "missing", "an average of 25%")
    first = e1["near_miss"]["candidates"][0]
    assert first["text"] == "CPython 3.11 is an average of 25% faster than CPython 3.10"
    assert first["holds"] == {"words": ["faster"], "names": ["CPython"], "figures": ["3.11", "3.10"]}
    assert first["lacks"] == {"words": [], "names": [], "figures": ["75%"]}
    assert e1["near_miss"]["candidates_use"] == CANDIDATES_USE
    assert len(e1["near_miss"]["candidates"]) == 2  # the best ones, best first
    (sign,) = e4["near_miss"]["candidates"][0]["signs"]
    assert (sign["kind"], sign["claim_words"], sign["page_words"]) == (
        "negation_differs",
        f"not quick {PAYLOAD}",
        f"quick {IMG_PAYLOAD}",
    )
    negation = e2["flags"][0]
    assert (negation["kind"], negation["blocking"], negation["claim_words"]) == (
        "negation_differs",
        True,
        "is enabled by default",
    )
    assert e2["near_miss"] is None and e2["unchecked"] is False
