"""The DOCX export: the brief back with one Word comment per flagged claim, on that claim.

Briefs are generated with python-docx here (and one is a real corpus DOCX); the export is
opened again with python-docx and its comment anchors are read from the XML, so each check
says which paragraph and which words a comment covers.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import replace

import docx
import pytest
from docx.oxml.ns import qn

from core.models import BriefFormat, ClaimResult, Location, LocationKind, Report, Verdict
from core.report import to_docx
from core.report.as_docx import UNPLACED_HEADING, xml_text
from tests import builders
from tests.report.test_cases import (
    PAYLOAD,
    empty_report,
    enormous_report,
    failed_report,
    hostile_report,
    python_report,
    python_results,
)
from tests.servers import CORPUS

INTRO = "Background sentence with no claim. "
OUTRO = " A closing remark."


def _brief_with_claims(results: list[ClaimResult]) -> tuple[bytes, list[ClaimResult]]:
    """Return a DOCX brief holding each claim in its own paragraph (or table cell), and the relocated results."""
    document = docx.Document()
    document.add_heading("Python speed brief", level=1)
    placed: list[ClaimResult] = []
    table_results = [r for r in results if r.claim.location and r.claim.location.kind == "table"]
    for r in results:
        if r in table_results:
            continue
        p = document.add_paragraph(INTRO)
        p.add_run(r.claim.text).bold = True  # the claim is its own run, between two others
        p.add_run(OUTRO)
        index = len(document.paragraphs) - 1
        start = len(INTRO)
        kind = r.claim.location.kind if r.claim.location else "paragraph"
        loc = Location(kind=kind, index=index if kind == "paragraph" else 0, start=start, end=start + len(r.claim.text))
        if kind == "footnote":
            # A footnote claim whose words are nowhere in the body: the export must still place it.
            p.runs[1].text = "See the footnote."
        placed.append(replace(r, claim=replace(r.claim, location=loc)))
    if table_results:
        table = document.add_table(rows=1, cols=2)
        for r in table_results:
            table.rows[0].cells[0].text = "Free threading"
            table.rows[0].cells[1].text = r.claim.text
            placed.append(
                replace(
                    r,
                    claim=replace(
                        r.claim, location=Location(kind=LocationKind.TABLE, index=0, start=0, end=len(r.claim.text))
                    ),
                )
            )
    out = io.BytesIO()
    document.save(out)
    order = {r.claim.id: i for i, r in enumerate(results)}
    return out.getvalue(), sorted(placed, key=lambda r: order[r.claim.id])


def _report(results: list[ClaimResult], fmt: BriefFormat = BriefFormat.DOCX) -> Report:
    return builders.report(*results, brief_name="python-brief.docx", brief_format=fmt)


def _anchors(document) -> dict[int, tuple[object, str]]:
    """Return comment id -> (paragraph element holding the range start, text covered by the range)."""
    body = document.element.body
    out: dict[int, tuple[object, str]] = {}
    open_ranges: dict[int, list[str]] = {}
    starts: dict[int, object] = {}
    for el in body.iter():
        if el.tag == qn("w:commentRangeStart"):
            cid = int(el.get(qn("w:id")))
            open_ranges[cid] = []
            starts[cid] = (
                next(a for a in el.iterancestors() if a.tag == qn("w:p"))
                if el.getparent().tag != qn("w:p")
                else el.getparent()
            )
        elif el.tag == qn("w:t"):
            for parts in open_ranges.values():
                parts.append(el.text or "")
        elif el.tag == qn("w:commentRangeEnd"):
            cid = int(el.get(qn("w:id")))
            out[cid] = (starts[cid], "".join(open_ranges.pop(cid)))
    return out


def _comments(data: bytes):
    document = docx.Document(io.BytesIO(data))
    comments = {c.comment_id: c for c in document.comments}
    return document, comments, _anchors(document)


def _paragraph_text(p_element) -> str:
    return "".join(t.text or "" for t in p_element.iter(qn("w:t")))


def test_one_comment_per_flagged_claim_on_its_words() -> None:
    raw, results = _brief_with_claims(python_results())
    report = _report(results)
    _document, comments, anchors = _comments(to_docx(report, raw))
    flagged = [r for r in results if r.verdict is not Verdict.VERIFIED]
    claim_comments = [c for c in comments.values() if not c.text.startswith("Verbatim checked")]
    assert len(claim_comments) == len(flagged) == 7
    assert len(comments) == len(flagged) + 1  # plus the summary comment
    by_label = {}
    for c in claim_comments:
        assert c.author == "Verbatim"
        by_label[c.text.split("\n")[0]] = c
    for r in flagged:
        comment = next(c for c in claim_comments if r.reasons[0] in c.text)
        assert comment.text.startswith(f"Verbatim: {r.verdict.label}.")
        paragraph, covered = anchors[comment.comment_id]
        if r.claim.location.kind == "footnote":
            assert _paragraph_text(paragraph) == f"{r.claim.id}: {r.claim.text}"
        else:
            # Anchored on the claim's own run: exactly the claim's words, in the claim's paragraph.
            assert covered == r.claim.text
            assert r.claim.text in _paragraph_text(paragraph)
    verified = results[0]
    assert not any(verified.claim.text == covered for _, covered in anchors.values())


def test_comment_says_what_the_page_says() -> None:
    raw, results = _brief_with_claims(python_results())
    _, comments, _ = _comments(to_docx(_report(results), raw))
    texts = [c.text for c in comments.values()]
    c4 = next(t for t in texts if t.startswith("Verbatim: Quote not found."))
    assert (
        "Closest passage on the page: \u201cIn Python 3.10 and 3.11, distutils will be formally marked as deprecated."
        in c4
    )
    assert "Diagnosis (decides nothing):" in c4
    c2 = next(t for t in texts if t.startswith("Verbatim: Figures mismatch."))
    assert "The page says: \u201c" in c2 and "CPython 3.11 is an average of 25% faster than CPython 3.10" in c2
    assert "Figure 60% is not in the quote." in c2
    c6 = next(t for t in texts if t.startswith("Verbatim: Not checked."))
    assert "403 Forbidden" in c6


def test_summary_comment_says_what_was_not_checked() -> None:
    raw, results = _brief_with_claims(python_results())
    _document, comments, anchors = _comments(to_docx(_report(results), raw))
    summary = next(c for c in comments.values() if c.text.startswith("Verbatim checked 8 claims"))
    assert "Not read: https://members.example.org/psf-report (Not checked)" in summary.text
    assert "Not read: https://peps.python.org/pep-9999/ (Dead link)" in summary.text
    assert "Figure skipped in c6: 1,200: The source could not be read." in summary.text
    assert "not that they support the claim" in summary.text
    assert _paragraph_text(anchors[summary.comment_id][0]) == "Python speed brief"


def test_table_claim_is_commented_in_its_cell() -> None:
    raw, results = _brief_with_claims(python_results())
    _, comments, anchors = _comments(to_docx(_report(results), raw))
    c3 = next(c for c in comments.values() if c.text.startswith("Verbatim: Needs review."))
    paragraph, covered = anchors[c3.comment_id]
    assert covered == results[2].claim.text
    assert any(a.tag == qn("w:tc") for a in paragraph.iterancestors())


def test_footnote_claim_goes_to_a_note_paragraph_at_the_end() -> None:
    raw, results = _brief_with_claims(python_results())
    document, comments, anchors = _comments(to_docx(_report(results), raw))
    texts = [p.text for p in document.paragraphs]
    assert texts[-2:] == [UNPLACED_HEADING, f"c5: {results[4].claim.text}"]
    c5 = next(c for c in comments.values() if c.text.startswith("Verbatim: No quote."))
    assert anchors[c5.comment_id][0] is document.paragraphs[-1]._p


def test_all_claims_comments_every_claim() -> None:
    raw, results = _brief_with_claims(python_results())
    _, comments, _ = _comments(to_docx(_report(results), raw, all_claims=True))
    assert len(comments) == len(results) + 1
    assert any(c.text.startswith("Verbatim: Verified.") for c in comments.values())


def test_real_corpus_docx_with_hyperlinks() -> None:
    raw = (CORPUS / "docx" / "python-docx" / "par-hyperlinks.docx").read_bytes()
    source = docx.Document(io.BytesIO(raw))
    linked = [(i, p) for i, p in enumerate(source.paragraphs) if p.hyperlinks and p.text.strip()]
    assert linked, "the corpus file holds paragraphs with hyperlinks"
    base = python_results()[3]  # quote_not_found
    results = [
        replace(
            base,
            claim=replace(
                base.claim,
                id=f"h{i}",
                text=p.text,
                location=Location(kind=LocationKind.PARAGRAPH, index=i, start=0, end=len(p.text)),
            ),
        )
        for i, p in linked
    ]
    document, comments, anchors = _comments(to_docx(_report(results), raw))
    claim_comments = [c for c in comments.values() if c.text.startswith("Verbatim: Quote not found.")]
    assert len(claim_comments) == len(linked)
    for comment, (i, p) in zip(sorted(claim_comments, key=lambda c: c.comment_id), linked, strict=True):
        paragraph, covered = anchors[comment.comment_id]
        assert paragraph is document.paragraphs[i]._p
        assert covered == p.text  # hyperlink runs included
    assert [p.text for p in document.paragraphs] == [p.text for p in source.paragraphs]  # the brief's words unchanged


def test_script_payloads_in_a_docx_brief_stay_text() -> None:
    report = hostile_report()
    results = [replace(r, claim=replace(r.claim, location=None)) for r in report.results]
    raw, placed = _brief_with_claims(results)
    data = to_docx(replace(report, brief_format=BriefFormat.DOCX, results=tuple(placed)), raw, all_claims=True)
    _document, comments, anchors = _comments(data)
    x1 = next(c for c in comments.values() if c.text.startswith("Verbatim: Verified."))
    assert PAYLOAD in x1.text  # the reason, as text
    assert anchors[x1.comment_id][1] == placed[0].claim.text  # the payload claim's own words, as text
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        names = z.namelist()
        comments_xml = z.read("word/comments.xml").decode()
        body_xml = z.read("word/document.xml").decode()
    assert "<script>" not in comments_xml and "&lt;script&gt;" in comments_xml
    assert "<script>" not in body_xml
    assert not any(n.endswith(".bin") or "vbaProject" in n for n in names)


def test_control_characters_from_a_page_do_not_break_the_file() -> None:
    raw, results = _brief_with_claims(python_results())
    r = results[3]
    assert r.near_miss is not None and r.near_miss.passage is not None
    bad = replace(r.near_miss.passage, text="formally\x00 marked\x0b as \ufffe deprecated \ud800")
    results[3] = replace(r, near_miss=replace(r.near_miss, passage=bad))
    _, comments, _ = _comments(to_docx(_report(results), raw))
    assert any("formally marked as  deprecated " in c.text for c in comments.values())
    assert xml_text("a\x00b\x1fc\td") == "abc\td"


@pytest.mark.parametrize("fmt", [BriefFormat.MARKDOWN, BriefFormat.DOCX])
def test_new_report_when_no_docx_brief(fmt: BriefFormat) -> None:
    results = python_results()
    report = replace(_report(results, fmt), decisions=python_report().decisions)
    document = docx.Document(io.BytesIO(to_docx(report, None)))
    texts = [p.text for p in document.paragraphs]
    assert texts[0] == "Verbatim report: python-brief.docx"
    assert "What was not checked" in texts
    headings = [t for t in texts if t.split(":")[0] in {r.claim.id for r in results} and ": " in t]
    assert headings == [f"{r.claim.id}: {r.verdict.label}" for r in results]
    assert any("not that they support the claim" in t for t in texts)
    assert any(t.startswith("Not read: https://peps.python.org/pep-9999/") for t in texts)
    assert not list(document.comments)
    said = [t for t in texts if t.startswith("Editor's decision: ")]
    assert said[0] == (
        "Editor's decision: Accepted (decided by Ada Lovelace at 2026-11-29 18:10 UTC)."
        " Note: Matches the release notes."
    )


def test_unreadable_docx_brief_gives_a_new_report_that_says_so() -> None:
    document = docx.Document(io.BytesIO(to_docx(_report(python_results()), b"PK\x03\x04 not really a zip")))
    texts = [p.text for p in document.paragraphs]
    assert any(t.startswith("The brief's DOCX file could not be opened to add comments") for t in texts)
    assert "What was not checked" in texts


def test_enormous_page_text_is_cut_in_comments_and_report() -> None:
    report = enormous_report()
    raw, results = _brief_with_claims(list(report.results))
    _, comments, _ = _comments(
        to_docx(replace(report, brief_format=BriefFormat.DOCX, results=tuple(results)), raw, all_claims=True)
    )
    said = next(c.text for c in comments.values() if c.text.startswith("Verbatim: Verified."))
    assert len(said) < 2_000 and "…”" in said  # cut, and the cut is shown
    document = docx.Document(io.BytesIO(to_docx(report)))
    assert max(len(p.text) for p in document.paragraphs) < 2_000


@pytest.mark.parametrize("make", [failed_report, empty_report])
def test_bad_runs_still_export(make) -> None:
    report = make()
    document = docx.Document(io.BytesIO(to_docx(report)))
    texts = [p.text for p in document.paragraphs]
    if report.results:
        assert sum(t.startswith("Not read: ") for t in texts) == 3
    else:
        assert "No claims were found in this brief, so nothing was checked." in texts
    raw, _ = _brief_with_claims([])
    _, comments, _ = _comments(to_docx(replace(report, brief_format=BriefFormat.DOCX, results=()), raw))
    assert len(comments) == 1  # the summary alone, saying nothing was checked
