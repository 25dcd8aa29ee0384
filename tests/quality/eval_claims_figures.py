"""Quality of the figures of claims without a quote, placed on their cited page: the wrong flagged, the supported not.

Cases are the VitaminC rows of ../shared/corpus/claims/vitaminc/ (real Wikipedia claims, each
against one revision of the article's sentence, labelled SUPPORTS / REFUTES / NOT ENOUGH INFO by
people). Each row becomes a page as an editor's brief would cite it: the article's title as a
heading and the revision's evidence sentence as a paragraph, read by the real extractor, and the
claim is checked without a quote by ``core.check.claims.check_claim`` (candidates, figures,
verdict), exactly as a brief's claim is.

How the cases are labelled, from the records and the raw digits of their text only (never from
the figures reader under test; a "digit token" is a run of digits with its decimal point, grouping
commas dropped):

* **supported**: every SUPPORTS row. Flagging one (``figures_mismatch``) is a false flag.
  **supported, every figure written**: the supported rows whose every digit token of the claim
  is a digit token of the page ("26 million" against "26 million"; not "more than 25 million"
  against "26 million", not "Euro 2016" against a page that never writes 2016).
* **figure nowhere**: a REFUTES row whose same claim (same case, same words) also stands against
  a SUPPORTS revision, where the two revisions' evidence differs in its digit tokens (the
  revision changed a figure) and a digit token of the claim is not among the refuting page's digit
  tokens. The claim's figure then stands nowhere on the page that refutes it; flagging it is the
  aim. (486 cases; read by hand, nearly all are a changed count, amount, share or year; a few
  are refuted for another reason and are counted anyway: the label is mechanical, on purpose.)

NOT ENOUGH INFO rows are left out: the page neither holds nor refutes the claim by definition.
``evaluate()`` also writes tests/quality/claims_figures_misses.txt: every supported claim flagged
(with the reason) and every nowhere claim not flagged (with its figures' statuses).

The loader (``cases``) is kept small on purpose, to be swapped for the shared claims loader
(tests/quality/claims_corpus.py) once it exists.
"""

from __future__ import annotations

import html
import json
import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from core.check.claims import check_claim
from core.extract.read import extract_html
from core.match import prepare
from core.models import Claim, Verdict
from core.settings import Settings
from tests.builders import source
from tests.quality.claims_corpus import checking_settings
from tests.servers import CORPUS

HERE = Path(__file__).resolve().parent
MISSES = HERE / "claims_figures_misses.txt"
VITAMINC = "claims/vitaminc/test_figures_sample.jsonl"
CORPUS_FILES = (VITAMINC,)
_DIGITS = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")


@dataclass(frozen=True)
class Case:
    """One claim without a quote against the page of one revision, and how it is labelled."""

    id: str
    claim: str
    title: str
    evidence: str
    label: str  # "supported" or "nowhere"
    written: bool  # supported, and every digit token of the claim is one of the page's


def digit_tokens(text: str) -> set[str]:
    """Return the digit tokens of a text (grouping commas dropped): the labels' own reading, not the reader's."""
    return {m.group().replace(",", "") for m in _DIGITS.finditer(text)}


def cases() -> Iterator[Case]:
    """Yield the labelled cases, in file order."""
    rows = [json.loads(line) for line in (CORPUS / VITAMINC).read_text(encoding="utf-8").splitlines() if line.strip()]
    supporting: dict[tuple[str, str], list[str]] = defaultdict(list)
    for r in rows:
        if r["label"] == "SUPPORTS":
            supporting[r["case_id"], r["claim"]].append(r["evidence"])
    for r in rows:
        page = f"{r['page']} {r['evidence']}"
        claim_digits = digit_tokens(r["claim"])
        if r["label"] == "SUPPORTS":
            yield Case(
                r["unique_id"], r["claim"], r["page"], r["evidence"], "supported", claim_digits <= digit_tokens(page)
            )
        elif r["label"] == "REFUTES" and (pair := supporting.get((r["case_id"], r["claim"]))):
            changed = all(digit_tokens(e) != digit_tokens(r["evidence"]) for e in pair)
            if changed and claim_digits - digit_tokens(page):
                yield Case(r["unique_id"], r["claim"], r["page"], r["evidence"], "nowhere", False)


def check(case: Case, settings: Settings) -> tuple[Verdict, tuple[str, ...], str]:
    """Return the verdict, reasons and figure statuses of the case's claim checked without a quote."""
    body = f"<html><body><h1>{html.escape(case.title)}</h1><p>{html.escape(case.evidence)}</p></body></html>"
    url = f"http://127.0.0.1/{case.id}"
    page = prepare(extract_html(body, "text/html"))
    claim = Claim(id=case.id, text=case.claim, url=url, figure_text=case.claim)
    result = check_claim(claim, source(url, body.encode()), page, settings)
    statuses = "; ".join(f"{f.text}={f.status}/{f.where}" for f in result.figures.figures)
    return result.verdict, result.reasons, statuses


def evaluate() -> dict[str, float | int]:
    settings = checking_settings()
    counts: dict[str, int] = defaultdict(int)
    misses: list[str] = []
    for case in cases():
        verdict, reasons, statuses = check(case, settings)
        flagged = verdict is Verdict.FIGURES_MISMATCH
        counts[case.label] += 1
        counts[f"{case.label}_flagged"] += flagged
        if case.written:
            counts["written"] += 1
            counts["written_flagged"] += flagged
        if flagged != (case.label == "nowhere"):
            misses.append(f"{case.label}\t{case.id}\t{case.claim}\t{case.evidence}\t{reasons[0]}\t{statuses}")
    MISSES.write_text("\n".join(misses) + "\n", encoding="utf-8")

    def pct(part: int, whole: int) -> float:
        return round(100.0 * part / whole, 2) if whole else 0.0

    return {
        "nowhere_claims_count": counts["nowhere"],
        "nowhere_flagged_pct": pct(counts["nowhere_flagged"], counts["nowhere"]),
        "supported_claims_count": counts["supported"],
        "supported_flagged_pct": pct(counts["supported_flagged"], counts["supported"]),
        "written_claims_count": counts["written"],
        "written_flagged_pct": pct(counts["written_flagged"], counts["written"]),
    }
