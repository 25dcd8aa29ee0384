"""The desk shows how each claim's citation was read and the links of the brief no claim cites (AppTest)."""

from __future__ import annotations

import dataclasses

from core.models import Location, LocationKind, UnusedLink
from core.report import to_json
from tests.browser.records import sample_report
from tests.ui.test_pages import _no_exceptions, _open, _plain, _store

UNUSED = UnusedLink(
    url="https://www.ebsco.com/research-starters/narratology",
    text="<b>Narratology</b> (literary theory) - EBSCO",
    reason="a reference never cited",
    location=Location(kind=LocationKind.PARAGRAPH, index=41),
)


def _run() -> str:
    report = sample_report()
    first = dataclasses.replace(report.results[0].claim, citation="reference [3] in “Works cited”")
    results = (dataclasses.replace(report.results[0], claim=first), *report.results[1:])
    report = dataclasses.replace(report, results=results, unused_links=(UNUSED,))
    return _store().save_run(to_json(report), b"", report.brief_name)


def test_the_review_lists_the_links_no_claim_cites() -> None:
    at = _open(_run())
    _no_exceptions(at)
    (box,) = [e for e in at.expander if "no claim cites" in e.label]
    assert box.label == "1 link of the brief no claim cites (not checked)"
    assert [t.value for t in box.text] == [
        "https://www.ebsco.com/research-starters/narratology: a reference never cited (paragraph 42)"
    ]


def test_an_opened_claim_says_how_its_citation_was_read() -> None:
    at = _open(_run())
    at.button(key="openbtn|c1").click().run()
    _no_exceptions(at)
    assert "Citation read as: reference [3] in “Works cited”." in [_plain(c.value) for c in at.caption]
