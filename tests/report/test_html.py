"""The annotated HTML report: parsed back and checked claim by claim, then opened in Chromium.

Structure: every claim in brief order with its verdict and reasons, quote highlights on the
right characters of the page context, figures marked in the claim, "What was not checked"
complete. Safety: no script, no event handler, no link but http(s), a CSP that allows none of
it, and in a real browser no dialog, no console message and no request but the file itself.
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import replace
from pathlib import Path

import lxml.html
import pytest

from core.models import FigureCheck, Report, Verdict
from core.report import to_html
from core.report.wording import FOUND_IS_NOT_SUPPORT, VERDICT_COLOURS
from tests.browser.desk import CHROMIUM, CHROMIUM_ARGS
from tests.report.test_cases import (
    IMG_PAYLOAD,
    PAYLOAD,
    empty_report,
    enormous_report,
    failed_report,
    hostile_report,
    python_report,
)
from tests.report.test_cases import REPORTS as REPORT_CASES

REPORTS = {**REPORT_CASES, "enormous": enormous_report}


def _doc(report: Report) -> lxml.html.HtmlElement:
    return lxml.html.document_fromstring(to_html(report))


def _claims(doc: lxml.html.HtmlElement) -> dict[str, lxml.html.HtmlElement]:
    return {a.get("data-claim-id"): a for a in doc.cssselect("article.claim")}


def _text(el: lxml.html.HtmlElement) -> str:
    return " ".join(el.text_content().split())


# --------------------------------------------------------------------------- structure


def test_header_names_the_brief_time_and_counts() -> None:
    report = python_report()
    doc = _doc(report)
    assert _text(doc.cssselect("h1")[0]) == "Verbatim report: python-speed-brief.md"
    assert doc.cssselect("time")[0].get("datetime") == "2026-11-29T18:02:14Z"
    assert "2026-11-29 18:02 UTC" in _text(doc.cssselect(".meta")[0])
    rows = doc.cssselect("#summary tr")
    assert [r.get("data-verdict") for r in rows] == [v.value for v in Verdict]
    for row in rows:
        verdict = Verdict(row.get("data-verdict"))
        assert _text(row.cssselect("th")[0]) == verdict.label  # words, never colour alone
        assert int(_text(row.cssselect("td")[0])) == report.summary[verdict.value]


def test_every_claim_in_brief_order_with_verdict_and_reasons() -> None:
    report = python_report()
    articles = _doc(report).cssselect("article.claim")
    assert [a.get("data-claim-id") for a in articles] == [r.claim.id for r in report.results]
    for article, result in zip(articles, report.results, strict=True):
        badge = article.cssselect("header .verdict")[0]
        assert badge.text == result.verdict.label
        assert f"v-{result.verdict.value}" in badge.get("class")
        assert [_text(li) for li in article.cssselect("ul.reasons li")] == list(result.reasons)
        text = article.cssselect(".claim-text")[0]
        for tag in text.cssselect(".fig-tag"):
            tag.drop_tree()
        assert text.text_content() == result.claim.text


def test_quote_highlights_land_on_the_right_characters() -> None:
    report = python_report()
    claims = _claims(_doc(report))
    checked = 0
    for result in report.results:
        if result.context is None:
            assert not claims[result.claim.id].cssselect(".context")
            continue
        box = claims[result.claim.id].cssselect(".context")[0]
        for cut in box.cssselect(".cut"):
            cut.drop_tree()
        # The shown text is the context, character for character.
        assert box.text_content() == result.context.text
        assert int(box.get("data-offset")) == result.context.offset
        marks = box.cssselect("mark.hl, mark.near")
        assert len(marks) == len(result.context.highlights)
        # Where each child starts in the shown text: the marks must start at the highlight's offset.
        pos, starts = len(box.text or ""), {}
        for el in box:
            starts[el] = pos
            pos += len(el.text_content()) + len(el.tail or "")
        for mark, (start, end) in zip(marks, result.context.highlights, strict=True):
            assert starts[mark] == start
            assert mark.text_content() == result.context.text[start:end]
            checked += 1
        kind = "mark.hl" if result.match is not None and result.match.found else "mark.near"
        assert box.cssselect(kind)
    assert checked == 4


def test_flagged_page_words_are_marked() -> None:
    box = _claims(_doc(python_report()))["c3"].cssselect(".context")[0]
    assert [m.text for m in box.cssselect("mark.flagged")] == ["is not"]
    assert "Blocks verified" in _text(_claims(_doc(python_report()))["c3"].cssselect("ul.flags")[0])


def test_figures_are_marked_in_the_claim_and_tabled() -> None:
    report = python_report()
    claims = _claims(_doc(report))
    for result in report.results:
        article = claims[result.claim.id]
        marks = article.cssselect(".claim-text mark.fig")
        assert [(m.text, m.get("class").split()[-1]) for m in marks] == [
            (f.text, f"fig-{f.status.value}") for f in sorted(result.figures.figures, key=lambda f: f.span or (0, 0))
        ]
        rows = article.cssselect("table.figures tbody tr")
        assert [r.get("data-status") for r in rows] == [f.status.value for f in result.figures.figures]
    c2 = claims["c2"]
    assert [t.text for t in c2.cssselect(".fig-tag")] == ["missing"]  # status in words, not colour alone
    assert "appears elsewhere on the page (1 place)" in _text(c2.cssselect("table.figures")[0])


def test_figures_of_an_unread_source_are_marked_not_checked() -> None:
    # The integrator may leave the figures of an unread source unchecked: the report reads them itself.
    report = python_report()
    c6 = next(r for r in report.results if r.claim.id == "c6")
    unread = replace(report, results=(replace(c6, figures=FigureCheck()),))
    article = _claims(_doc(unread))["c6"]
    marks = article.cssselect(".claim-text mark.fig-unchecked")
    assert [m.text for m in marks] == ["1,200", "2025"]
    assert [t.text for t in article.cssselect(".fig-tag")] == ["not checked", "not checked"]
    # "PEP 9999" names a document: no figure to mark.
    assert not _claims(_doc(report))["c7"].cssselect("mark.fig")


def test_near_miss_is_labelled_diagnosis() -> None:
    claims = _claims(_doc(python_report()))
    section = claims["c4"].cssselect("section.diagnosis")[0]
    assert _text(section.cssselect("h3")[0]) == "Diagnosis (explains, decides nothing)"
    assert _text(section.cssselect("blockquote.passage")[0]).endswith("formally marked as deprecated.")
    assert [li.get("data-kind") for li in section.cssselect("li.diff-op")] == ["word_replaced"]
    assert claims["c4"].cssselect("h3")[1].text == "The page's text (diagnosis)"
    assert "adopt" in _text(claims["c5"].cssselect("section.diagnosis")[0])
    assert not claims["c1"].cssselect("section.diagnosis")


def _facts(article: lxml.html.HtmlElement) -> dict[str, str]:
    dl = article.cssselect("dl.source")[0]
    return {_text(dt): _text(dt.getnext()) for dt in dl.cssselect("dt")}


def test_source_facts_and_links() -> None:
    report = python_report()
    claims = _claims(_doc(report))
    c1 = _facts(claims["c1"])
    assert c1["Cited URL"] == "https://docs.python.org/3/whatsnew/3.11.html"
    assert c1["HTTP status"] == "200" and c1["Fetched"] == "2026-11-29 18:02 UTC"
    assert c1["SHA-256"] == report.results[0].source.sha256 and re.fullmatch(r"[0-9a-f]{64}", c1["SHA-256"])
    assert c1["Evidence"] == "fetched from the web for this run"
    assert c1["State"] == "read"
    c6 = _facts(claims["c6"])
    assert c6["State"] == "not checked: Server answered 403 Forbidden: the page may need a login"
    assert c6["HTTP status"] == "403" and "Evidence" not in c6
    link = claims["c1"].cssselect("a.fragment-link")[0]
    assert link.get("href").startswith("https://docs.python.org/3/whatsnew/3.11.html#:~:text=CPython%203.11")
    assert link.text == "Open the quote on the live page"
    assert "Open the closest passage" in claims["c4"].cssselect("a.fragment-link")[0].text
    assert "bundled offline sample copy" in _facts(claims["c5"])["Evidence"]
    assert claims["c3"].cssselect("dd.drift")
    assert "stored copy from the evidence store" in _text(claims["c3"].cssselect("dd.origin")[0])
    # file: is shown, never linked; no fragment link for it.
    c8 = claims["c8"]
    assert c8.cssselect("code.not-a-link")[0].text == "file:///etc/passwd"
    assert not c8.cssselect("a")
    assert _facts(c8)["HTTP status"] == "none (no answer)"


def test_decisions_and_notes() -> None:
    claims = _claims(_doc(python_report()))
    c1 = claims["c1"].cssselect(".decision")[0]
    assert "Editor's decision: Accepted (decided by Ada Lovelace at 2026-11-29 18:10 UTC)" in _text(c1)
    assert "(decided at 2026-11-29 18:11 UTC)" in _text(claims["c2"].cssselect(".decision")[0])
    assert c1.cssselect(".note")[0].text == "Note: Matches the release notes."
    assert "Same period: yes; Same metric: yes" in _text(c1)
    assert "Needs an edit" in _text(claims["c2"].cssselect(".decision")[0])
    assert not claims["c3"].cssselect(".decision")


def test_what_was_not_checked_is_complete() -> None:
    report = python_report()
    section = _doc(report).cssselect("#not-checked")[0]
    assert _text(section.cssselect("#found-not-support")[0]) == FOUND_IS_NOT_SUPPORT
    unread = {li.get("data-url"): _text(li) for li in section.cssselect("#unread-sources li")}
    expected = {
        r.claim.url: r for r in report.results if r.verdict in (Verdict.NOT_CHECKED, Verdict.DEAD_LINK, Verdict.BLOCKED)
    }
    assert set(unread) == set(expected)
    for url, result in expected.items():
        assert result.source.reason in unread[url]
        assert result.verdict.label in unread[url]
        assert result.claim.id in unread[url]
    assert "(HTTP 403)" in unread["https://members.example.org/psf-report"]
    skipped = [(li.get("data-claim"), _text(li)) for li in section.cssselect("#skipped-figures li")]
    expected_skips = [(r.claim.id, f) for r in report.results for f in r.figures.skipped]
    assert [cid for cid, _ in skipped] == [cid for cid, _ in expected_skips]
    for (_, text), (_, fig) in zip(skipped, expected_skips, strict=True):
        assert fig.text in text and fig.reason in text
    assert "c5" in _text(section.cssselect("#no-quote-claims")[0])
    assert "c5" in _text(section.cssselect("#not-from-web")[0])
    assert "c3" in _text(section.cssselect("#drift")[0])
    assert [_text(li) for li in section.cssselect("#uncited li")] == list(report.uncited)
    assert [_text(li) for li in section.cssselect("#warnings li")] == list(report.warnings)


def test_failed_run_says_every_source_is_unread() -> None:
    report = failed_report()
    doc = _doc(report)
    assert len(doc.cssselect("#unread-sources li")) == 3
    assert len(doc.cssselect("article.claim")) == 3
    assert not doc.cssselect("#unread-sources-none")


def test_run_without_claims_says_nothing_was_checked() -> None:
    doc = _doc(empty_report())
    assert "No claims were found in this brief" in _text(doc.cssselect("#no-claims")[0])
    assert not doc.cssselect("article.claim")
    assert [_text(li) for li in doc.cssselect("#uncited li")] == ["A sentence with no link."]
    assert int(_text(doc.cssselect("#summary td")[0])) == 0


def test_enormous_page_text_is_cut_and_says_so() -> None:
    report = enormous_report()
    html = to_html(report)
    assert len(html) < 60_000  # the 2 MB context is not copied whole into the file
    article = _claims(lxml.html.document_fromstring(html))["c1"]
    note = _text(article.cssselect(".context-note")[0])
    assert note.startswith(f"The page text around this claim is {len(report.results[0].context.text):,} characters")
    mark = article.cssselect("mark.hl")[0]
    assert mark.text == report.results[0].claim.quote


# --------------------------------------------------------------------------- safety


def _csp(doc: lxml.html.HtmlElement) -> str:
    metas = doc.xpath('//meta[@http-equiv="Content-Security-Policy"]')
    assert len(metas) == 1
    return metas[0].get("content")


@pytest.mark.parametrize("name", REPORTS)
def test_csp_allows_no_script_and_only_the_inlined_stylesheet(name: str) -> None:
    doc = _doc(REPORTS[name]())
    csp = _csp(doc)
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["default-src"] == "'none'"
    assert "script-src" not in directives  # falls back to default-src 'none'
    assert directives["img-src"] == "data:"
    styles = doc.xpath("//style")
    assert len(styles) == 1
    digest = base64.b64encode(hashlib.sha256(styles[0].text.encode()).digest()).decode()
    assert directives["style-src"] == f"'sha256-{digest}'"
    assert "unsafe" not in csp


@pytest.mark.parametrize("name", REPORTS)
def test_no_script_no_handler_no_foreign_link(name: str) -> None:
    doc = _doc(REPORTS[name]())
    assert not doc.xpath("//script|//iframe|//object|//embed|//form|//base|//link|//img|//svg")
    for el in doc.iter():
        for attr, value in el.attrib.items():
            assert not attr.lower().startswith("on"), (el.tag, attr)
            assert attr not in ("src", "style", "srcset", "action"), (el.tag, attr)
            if attr == "href":
                assert value.startswith(("#", "https://", "http://")), value


def test_script_payloads_come_out_as_text() -> None:
    html = to_html(hostile_report())
    assert PAYLOAD not in html and IMG_PAYLOAD not in html
    doc = lxml.html.document_fromstring(html)
    x1 = _claims(doc)["x1"]
    assert _text(x1.cssselect(".claim-text")[0]) == " ".join(f"Python {PAYLOAD} is 25% faster {IMG_PAYLOAD}".split())
    assert _text(x1.cssselect("blockquote.quote")[0]) == " ".join(f"is an average of 25% faster {IMG_PAYLOAD}".split())
    assert IMG_PAYLOAD in x1.cssselect("mark.hl")[0].text_content()
    assert PAYLOAD in _text(doc.cssselect("title")[0])
    # javascript: final URL and cited URL are shown as text, never as links.
    assert "javascript:alert(document.cookie)" in [c.text for c in x1.cssselect("code.not-a-link")]
    x2 = _claims(doc)["x2"]
    assert x2.cssselect("code.not-a-link")[0].text == "javascript:alert(1)"
    assert not x2.cssselect("a")
    assert PAYLOAD in _text(x1.cssselect(".decision .note")[0])


# --------------------------------------------------------------------------- a real browser


@pytest.fixture(scope="module")
def chromium():
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Debian's {CHROMIUM} is missing: run `make browser`")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.mark.browser
@pytest.mark.parametrize("name", ["python", "hostile", "failed", "empty"])
def test_browser_runs_no_script_and_requests_nothing_else(chromium, tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.html"
    path.write_text(to_html(REPORTS[name]()), encoding="utf-8")
    page = chromium.new_page()
    requests: list[str] = []
    console: list[str] = []
    dialogs: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("console", lambda m: console.append(m.text))
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.on("pageerror", lambda e: console.append(str(e)))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    page.wait_for_timeout(300)  # give any injected handler (img onerror) its chance to fire
    assert requests == [path.as_uri()]
    assert dialogs == []
    assert console == []
    # The inlined stylesheet is allowed by its hash: the verdict colours really apply.
    colour = page.eval_on_selector("#summary .v-verified", "e => getComputedStyle(e).color")
    hexa = VERDICT_COLOURS[Verdict.VERIFIED].lstrip("#")
    assert colour == "rgb({}, {}, {})".format(*(int(hexa[i : i + 2], 16) for i in (0, 2, 4)))
    if name == "python":
        pdf = page.pdf()  # prints: Chromium lays the whole report out on paper without error
        assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page") >= 2
    page.close()
