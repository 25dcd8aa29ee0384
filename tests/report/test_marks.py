"""core.report.marks: each figure is marked where it stands in the claim, the same for the desk and the reports."""

from __future__ import annotations

from core.brief import parse_markdown
from core.figures import check_figures
from core.models import Claim, ClaimResult, Figure, FigureCheck, FigureStatus, Source, SourceStatus, Verdict
from core.report.marks import claim_marks, figure_spans, quote_marks

URL = "https://docs.python.org/3/whatsnew/3.11.html"


def _result(claim: Claim, figures: tuple[Figure, ...], verdict: Verdict = Verdict.FIGURES_MISMATCH) -> ClaimResult:
    return ClaimResult(
        claim=claim,
        verdict=verdict,
        reasons=(),
        source=Source(url=URL, status=SourceStatus.OK),
        figures=FigureCheck(figures=figures),
    )


def _spans(text: str, figures: tuple[Figure, ...], read_in: str = "") -> list[tuple[int, int, str]]:
    return [(s, e, f.status.value) for s, e, f in figure_spans(text, figures, read_in)]


def test_a_figure_read_in_figure_text_is_marked_where_it_stands_not_inside_the_inline_quote() -> None:
    # A real brief: the claim's inline quote holds "3.11" too, and figure_text leaves the quote out.
    brief = 'The release notes say "Python 3.11 is 25% faster" of Python 3.11 [1].\n\n[1]: ' + URL + "\n"
    claim = parse_markdown(brief, "notes.md").claims[0]
    figures = check_figures(claim.figure_text, claim.quote or "", None).figures
    assert [f.text for f in figures] == ["3.11"]
    at = claim.text.rindex("3.11")
    assert _spans(claim.text, figures, claim.figure_text) == [(at, at + 4, "matched")]


def test_figures_alike_each_keep_their_own_place_in_any_order() -> None:
    text = "Python 3.11 [1] is faster than Python 3.10, and 3.11 is the one to use."
    read_in = "Python 3.11 is faster than Python 3.10, and 3.11 is the one to use."
    first, second = read_in.index("3.11"), read_in.rindex("3.11")
    figures = (
        Figure(text="3.11", status=FigureStatus.MISSING, span=(second, second + 4)),
        Figure(text="3.11", status=FigureStatus.MATCHED, quote_text="3.11", span=(first, first + 4)),
    )
    own = [
        (text.index("3.11"), text.index("3.11") + 4, "matched"),
        (text.rindex("3.11"), text.rindex("3.11") + 4, "missing"),
    ]
    assert _spans(text, figures, read_in) == own


def test_a_span_that_lands_nowhere_takes_the_first_free_place() -> None:
    text = "From 25% to 25% in a year."
    figures = (
        Figure(text="25%", status=FigureStatus.MATCHED),
        Figure(text="25%", status=FigureStatus.MISSING, span=(900, 903)),
    )
    assert _spans(text, figures) == [(5, 8, "matched"), (12, 15, "missing")]
    assert _spans(text, (Figure(text="40%", status=FigureStatus.MISSING),)) == []


def test_figures_never_checked_are_read_from_the_claim_s_own_words() -> None:
    claim = Claim(
        id="c1",
        text="Python 3.12 (see the PEP 703 notes) frees 1,200 threads.",
        url=URL,
        quote=None,
        figure_text="Python 3.12 frees 1,200 threads.",
    )
    marks = claim_marks(_result(claim, (), Verdict.NOT_CHECKED))
    assert [(claim.text[s:e], mark) for s, e, mark, _ in marks] == [
        ("3.12", "fig-unchecked"),
        ("1,200", "fig-unchecked"),
    ]


def test_quote_marks_take_each_matched_figure_once_and_flag_the_others() -> None:
    claim = Claim(id="c1", text="25% in 2023 and 25% in 2024.", url=URL, quote="25% in 2023, then 25% in 2025")
    figures = (
        Figure(text="25%", status=FigureStatus.MATCHED, quote_text="25%", span=(0, 3)),
        Figure(text="2023", status=FigureStatus.MATCHED, quote_text="2023", span=(7, 11)),
        Figure(text="25%", status=FigureStatus.MATCHED, quote_text="25%", span=(16, 19)),
        Figure(text="2024", status=FigureStatus.MISSING, span=(23, 27)),
    )
    quote = claim.quote or ""
    marks = quote_marks(_result(claim, figures))
    assert [(quote[s:e], s, mark) for s, e, mark in marks] == [
        ("25%", 0, "fig-matched"),
        ("2023", 7, "fig-matched"),
        ("25%", 18, "fig-matched"),
        ("2025", 25, "fig-other"),
    ]
