"""Every export carries what the machine found for a claim against its evidence, the same in each, escaped.

The findings (issue 22): the passage offered first for a claim without a quote, with the claim's
words it holds marked and what it lacks; each figure's place on the page (nowhere, with what the
closest passage holds instead); the signs where the claim parts from its evidence; who adopted a
quote from the passages offered. Built by hand in tests/report/test_cases.py (evidence_report).
"""

from __future__ import annotations

import csv
import io

import docx
import lxml.html

from core.report import from_json, to_csv, to_docx, to_html, to_json
from core.report.offered import figure_statuses, has_finding, offered_first, offers
from core.report.wording import figure_place_words
from tests.report.test_cases import IMG_PAYLOAD, NOWHERE_REASON, PAYLOAD, evidence_report


def _article(doc: lxml.html.HtmlElement, cid: str) -> lxml.html.HtmlElement:
    (article,) = doc.xpath(f"//article[@data-claim-id='{cid}']")
    return article


def _text(el: lxml.html.HtmlElement) -> str:
    return " ".join(el.text_content().split())


def test_the_passage_offered_first_marks_the_words_it_holds() -> None:
    e1 = evidence_report().results[0]
    first = offered_first(e1)
    assert first is not None and first.index == 0
    assert [s.text for s in first.segments if s.mark == "held"] == ["CPython 3.11", "faster than CPython 3.10"]
    assert "".join(s.text for s in first.segments) == first.candidate.text
    assert first.holds == "faster; names CPython; figures 3.11, 3.10"
    assert first.lacks == "figures 75%"
    assert [o.index for o in offers(e1)] == [0, 1]


def test_a_claim_with_a_quote_offers_no_passage() -> None:
    e2, e3 = evidence_report().results[1:3]
    assert offers(e2) == () and offers(e3) == ()


def test_the_findings_an_editor_goes_to_first() -> None:
    results = evidence_report().results
    assert [r.claim.id for r in results if has_finding(r, "nowhere")] == ["e1"]
    assert [r.claim.id for r in results if has_finding(r, "signs")] == ["e2", "e4"]  # a quote's flag, an offer's sign


def test_figure_places_in_words() -> None:
    assert figure_place_words("nowhere", instead="an average of 25%") == (
        "nowhere on the cited page; the passage closest to the claim holds “an average of 25%” in its place"
    )
    assert figure_place_words("nowhere") == (
        "nowhere on the cited page; the passage closest to the claim holds no figure of its kind in its place"
    )
    assert figure_place_words("elsewhere", around="It is 60% faster.") == (
        "elsewhere on the page, not in the passage offered first: “It is 60% faster.”"
    )
    assert figure_place_words(None) == ""


def test_html_shows_the_offered_passage_figure_places_signs_and_adoption() -> None:
    doc = lxml.html.document_fromstring(to_html(evidence_report()))
    e1 = _article(doc, "e1")
    (offered,) = e1.xpath(".//section[@class='offered']")
    assert [m.text for m in offered.xpath(".//blockquote//mark[@class='held']")] == [
        "CPython 3.11",
        "faster than CPython 3.10",
    ]
    assert "Lacks the claim’s: figures 75%" in _text(offered)
    assert "Passage offered 2" in _text(offered)
    (where,) = e1.xpath(".//td[@data-where='nowhere']")
    assert (
        _text(where)
        == "nowhere on the cited page; the passage closest to the claim holds “an average of 25%” in its place"
    )
    assert [td.text for td in e1.xpath(".//td[@data-where='passage']")] == ["in the passage offered first"] * 2
    e2 = _article(doc, "e2")
    (flag,) = e2.xpath(".//li[@data-flag='negation_differs']")
    assert _text(flag).startswith("Blocks verified: The quote says “is not enabled by default”")
    assert "Quote adopted by Ada Lovelace from the passages offered." in _text(_article(doc, "e3"))
    assert not _article(doc, "e3").xpath(".//section[@class='offered']")


def test_html_escapes_the_offered_passage_its_terms_and_signs() -> None:
    html = to_html(evidence_report())
    doc = lxml.html.document_fromstring(html)
    assert doc.xpath("//script") == [] and doc.xpath("//img") == []
    e4 = _article(doc, "e4")
    (held,) = e4.xpath(".//section[@class='offered']//mark[@class='held']")
    assert held.text == PAYLOAD
    (sign,) = e4.xpath(".//ul[@class='signs']/li")
    assert PAYLOAD in _text(sign) and IMG_PAYLOAD in _text(sign)
    assert f"Lacks the claim’s: {IMG_PAYLOAD}" in _text(e4)


def test_csv_names_the_passage_offered_first_and_the_figure_statuses() -> None:
    report = evidence_report()
    rows = {r["id"]: r for r in csv.DictReader(io.StringIO(to_csv(report), newline=""))}
    assert rows["e1"]["offered_passage"] == "CPython 3.11 is an average of 25% faster than CPython 3.10"
    assert rows["e1"]["figure_statuses"] == "3.11: matched (passage); 75%: missing (nowhere); 3.10: matched (passage)"
    assert rows["e1"]["figure_statuses"] == figure_statuses(report.results[0])
    assert rows["e1"]["missing_figures"] == "75%"
    assert rows["e2"]["offered_passage"] == ""  # a claim with a quote has no passage offered
    assert rows["e2"]["signs"].split("\n") == [
        "negation on one side only: The quote says “is not enabled by default”; "
        "the claim says “is enabled by default”.",
        "hedge the claim drops: The quote calls it “experimental”; the claim drops that.",
    ]
    assert (rows["e3"]["adopted_by"], rows["e1"]["adopted_by"]) == ("Ada Lovelace", "")
    assert rows["e4"]["offered_passage"] == f"The release {PAYLOAD} is quick {IMG_PAYLOAD} indeed."


def test_docx_carries_the_same_findings() -> None:
    document = docx.Document(io.BytesIO(to_docx(evidence_report())))
    text = "\n".join(p.text for p in document.paragraphs)
    assert "The passage offered first: “CPython 3.11 is an average of 25% faster than CPython 3.10”" in text
    assert "It lacks the claim’s: figures 75%." in text
    assert (
        f"Figure 75%: missing. {NOWHERE_REASON} Nowhere on the cited page; the passage closest to the claim holds "
        "“an average of 25%” in its place."
    ) in text
    assert "Sign: negation on one side only: The quote says “is not enabled by default”" in text
    assert "Quote adopted by Ada Lovelace from the passages offered." in text
    assert f"The passage offered first: “The release {PAYLOAD} is quick {IMG_PAYLOAD} indeed.”" in text


def test_json_carries_the_findings_and_reads_them_back() -> None:
    report = evidence_report()
    data = to_json(report)
    e1, e2, e3, e4 = data["claims"]
    assert [f["where"] for f in e1["figures"]] == ["passage", "nowhere", "passage"]
    assert e1["figures"][1]["instead"] == "an average of 25%"
    assert e1["near_miss"]["candidates"][0]["lacks"] == {"words": [], "names": [], "figures": ["75%"]}
    assert e2["flags"][0]["claim_words"] == "is enabled by default"
    assert (e3["adopted_by"], e4["near_miss"]["candidates"][0]["signs"][0]["kind"]) == (
        "Ada Lovelace",
        "negation_differs",
    )
    assert from_json(data).results == report.results
