"""The desk and the reports draw from the same core functions: same figure marks, same words, same rules.

Each case is one that the review of issue 11 found the desk and core disagreeing on.
"""

from __future__ import annotations

import ast
import json
from dataclasses import replace
from pathlib import Path

import lxml.html

from core.models import (
    BriefFormat,
    Claim,
    ClaimResult,
    Decision,
    Figure,
    FigureCheck,
    FigureKind,
    FigureStatus,
    Report,
    Verdict,
)
from core.report import to_html
from tests.browser.records import WHATSNEW, sample_results
from tests.report.test_cases import python_report
from ui import draw, services

UI = Path(__file__).resolve().parents[2] / "ui"

# A claim whose two figures read alike: the first is matched, the second is missing. Its figures
# were read from figure_text (the claim without its citation marker), so the second figure's
# span points past the marker's width in Claim.text and does not land on its own characters.
TEXT = "Python 3.11 [1] is faster than Python 3.10, and 3.11 is the one to use."
FIGURE_TEXT = "Python 3.11 is faster than Python 3.10, and 3.11 is the one to use."


def _twice() -> ClaimResult:
    first = FIGURE_TEXT.index("3.11")
    second = FIGURE_TEXT.rindex("3.11")
    figures = (
        Figure(
            text="3.11",
            status=FigureStatus.MATCHED,
            quote_text="3.11",
            kind=FigureKind.VERSION,
            span=(first, first + 4),
        ),
        Figure(
            text="3.11",
            status=FigureStatus.MISSING,
            reason="the quote has 3.11 once",
            kind=FigureKind.VERSION,
            span=(second, second + 4),
        ),
    )
    claim = Claim(
        id="c1", text=TEXT, url=WHATSNEW, quote="Python 3.11 is faster than Python 3.10", figure_text=FIGURE_TEXT
    )
    base = sample_results()[0]
    return ClaimResult(
        claim=claim,
        verdict=Verdict.FIGURES_MISMATCH,
        reasons=("A figure is missing.",),
        source=base.source,
        match=base.match,
        figures=FigureCheck(figures=figures),
    )


def _desk_marks(result: ClaimResult) -> list[tuple[str, int]]:
    """Return (mark text, position in the claim) of every figure mark the desk's card draws."""
    card = lxml.html.fragment_fromstring(draw.card_html(result, 1))
    (claim,) = card.cssselect("p.claim")
    return _positions(claim)


def _report_marks(result: ClaimResult) -> list[tuple[str, int]]:
    report = Report(brief_name="r.md", brief_format="markdown", checked_at="2026-12-01T00:00:00Z", results=(result,))
    (claim,) = lxml.html.document_fromstring(to_html(report)).cssselect("p.claim-text")
    for tag in claim.cssselect(".fig-tag"):  # the status in words beside a mark is not claim text
        tag.drop_tree()
    return _positions(claim)


def _positions(paragraph: lxml.html.HtmlElement) -> list[tuple[str, int]]:
    out, pos = [], len(paragraph.text or "")
    for child in paragraph:
        out.append((child.text_content(), pos))
        pos += len(child.text_content()) + len(child.tail or "")
    return out


def test_desk_and_report_mark_each_figure_at_its_own_place() -> None:
    result = _twice()
    own = [("3.11", TEXT.index("3.11")), ("3.11", TEXT.rindex("3.11"))]
    assert _report_marks(result) == own
    assert _desk_marks(result) == own


def test_desk_json_download_of_a_lone_surrogate_is_utf8() -> None:
    base = sample_results()[0]
    odd = Claim(
        id="x\ud800", text="Lone \udfff surrogate in 25% of claims.", url=base.claim.url, quote="a quote \ud83d"
    )
    report = Report(
        brief_name="odd\ud800.json",
        brief_format=BriefFormat.JSON,
        checked_at="2026-12-01T00:00:00Z",
        results=(replace(base, claim=odd),),
    )
    build, name, mime = services.exports(report, b"")["json"]
    data = json.loads(build().decode("utf-8"))
    assert data["claims"][0]["id"] == "x\ufffd" and data["claims"][0]["quote"] == "a quote \ufffd"
    assert (name, mime) == ("odd_-verbatim.json", "application/json")


def test_the_desk_says_a_decision_in_the_report_s_words() -> None:
    from core.report.wording import decision_words

    for choice in ("accept", "reject", "needs_edit"):
        from ui import claim_view

        assert claim_view.card_words(Decision(claim_id="c1", decision=choice)) == f"Editor: {decision_words(choice)}"


def _broad_handlers(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ExceptHandler):
            continue
        parts = list(ast.walk(node.type)) if node.type is not None else []
        names = {n.id for n in parts if isinstance(n, ast.Name)} | {
            n.attr for n in parts if isinstance(n, ast.Attribute)
        }
        if node.type is None or names & {"Exception", "BaseException"}:
            lines.append(node.lineno)
    return lines


def test_the_desk_has_one_handler_for_bugs() -> None:
    found = {str(p.relative_to(UI)): _broad_handlers(p) for p in sorted(UI.rglob("*.py"))}
    assert {k: v for k, v in found.items() if v} == {"app.py": found["app.py"]} and len(found["app.py"]) == 1


def test_desk_and_report_draw_a_closest_passage_as_diagnosis_not_as_a_match() -> None:
    report = python_report()
    lost = next(r for r in report.results if r.verdict is Verdict.QUOTE_NOT_FOUND and r.context is not None)
    desk = lxml.html.fromstring(f"<div>{draw.context_html(lost, 10_000)}</div>")
    page = lxml.html.fromstring(to_html(replace(report, results=(lost,))))
    for root in (desk, page):
        assert root.cssselect("mark.hl") == []
        (near,) = root.cssselect("mark.near")
        assert near.get("title") == "closest passage (diagnosis)"
        assert near.text_content() == lost.context.text[slice(*lost.context.highlights[0])]
