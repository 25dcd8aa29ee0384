"""The CSV report: one row per claim, for spreadsheets and trackers.

RFC 4180: comma-separated, CRLF line ends, every cell that needs it double-quoted (the csv
module's QUOTE_MINIMAL does exactly that), UTF-8. Columns: id, claim, url, quote, verdict,
reasons (one per line inside the cell), missing_figures ("; " between them), decision, note,
citation (how the brief's citation was read), decided_by, decided_at (who made the decision's
latest change and when), offered_passage (for a claim without a quote, the passage offered
first), figure_statuses (every figure with its status, and for a claim without a quote where it
stands: "25%: missing (nowhere)"), signs (where the claim parts from its quote or the passage
offered first, one per line), adopted_by (the editor who adopted an offered passage as the
quote); each added last, so readers of the first columns are unchanged.

Formula injection: a spreadsheet runs a cell that starts with "=", "+", "-", "@", a tab or a
carriage return as a formula (=HYPERLINK(...), =cmd|...). Such a cell gets a leading
apostrophe, which spreadsheets show as text and hide; "-25%" is written "'-25%". A program
reading the CSV strips one leading apostrophe from a cell that starts with "'" followed by one
of those characters. This module refuses to write anything but text.
"""

from __future__ import annotations

import csv
import io

from core.models import Report
from core.report.offered import figure_statuses, flag_words, offered_first, signs

COLUMNS = (
    "id",
    "claim",
    "url",
    "quote",
    "verdict",
    "reasons",
    "missing_figures",
    "decision",
    "note",
    "citation",
    "decided_by",
    "decided_at",
    "offered_passage",
    "figure_statuses",
    "signs",
    "adopted_by",
)

# OWASP's list of characters that make a spreadsheet treat a cell as a formula.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: str) -> str:
    """Return value with a leading apostrophe when a spreadsheet would run it as a formula."""
    return "'" + value if value.startswith(_FORMULA_START) else value


def to_csv(report: Report) -> str:
    """Return the report as CSV text, header first, one row per claim in brief order; never fails.

    The text may hold what a brief held, lone surrogates included: core.report.exports makes it a file.
    """
    out = io.StringIO()
    writer = csv.writer(out, dialect="excel", lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for r in report.results:
        decision = report.decision_for(r.claim.id)
        row = (
            r.claim.id,
            r.claim.text,
            r.claim.url,
            r.claim.quote or "",
            r.verdict.value,
            "\n".join(r.reasons),
            "; ".join(f.text for f in r.figures.missing),
            decision.decision if decision else "",
            decision.note if decision else "",
            r.claim.citation,
            decision.decided_by if decision else "",
            decision.decided_at if decision else "",
            first.candidate.text if (first := offered_first(r)) is not None else "",
            figure_statuses(r),
            "\n".join(flag_words(f) for f in signs(r)),
            r.claim.adopted_by,
        )
        writer.writerow([safe_cell(cell) for cell in row])
    return out.getvalue()
