"""Real-browser tests of the desk: Debian's Chromium drives the app as `make run` starts it.

Sources are served from loopback (tests/servers.py) and the desk is told to allow private
addresses for them; the sample brief is checked from its bundled copies. Each flow ends in
a screenshot under assets/screenshots/ (the README shows them).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from core.report import to_json
from core.store import Store
from tests.browser.conftest import SCREENSHOTS, Watched
from tests.browser.desk import Desk, slow_page
from tests.browser.records import XSS, hostile_report
from tests.servers import CORPUS, LoopbackServer, Reply, serve

pytestmark = pytest.mark.browser

SPEED = "CPython 3.11 is an average of 25% faster than CPython 3.10"


@pytest.fixture(scope="module")
def sources() -> Iterator[LoopbackServer]:
    with serve() as s:
        s.add("/whatsnew/3.11.html", (CORPUS / "html/python/whatsnew/3.11.html").read_bytes())
        s.add("/gone.html", b"<h1>Not Found</h1>", status=404)
        hostile = (
            f"<html><head><title>t{XSS}</title><script>alert('page')</script></head><body>"
            f"<p>The page says {XSS} and <b onmouseover=alert(3)>bold</b> and a long sentence of plain words here.</p>"
            "<iframe src=javascript:alert(4)></iframe></body></html>"
        )
        s.add("/hostile.html", hostile.encode())
        s.routes["/slow.html"] = Reply(handler=slow_page(3))
        yield s


def _shot(w: Watched, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    w.page.screenshot(path=str(SCREENSHOTS / name), full_page=False)


def _counts(w: Watched) -> dict[str, int]:
    pairs = w.page.evaluate(
        """() => Array.from(document.querySelectorAll('.sumbar')[0].querySelectorAll('.sum-item'))
              .map(e => [e.querySelector('[data-verdict]').dataset.verdict, e.querySelector('b').textContent])"""
    )
    return {v: int(n) for v, n in pairs}


def _wait_review(w: Watched, brief_name: str) -> None:
    w.page.get_by_text(f"Review: {brief_name}").wait_for(timeout=90_000)
    w.page.locator(".sumbar").first.wait_for()


def _allow_private(w: Watched) -> None:
    # The text area commits on blur, and that rerun may redraw the options while we click them:
    # the label is clicked only while the box is unticked, so a retry cannot untick it.
    # Each step may meet a redraw (the box hidden a moment): a step that times out starts the round again.
    box = w.page.get_by_role("checkbox", name="Allow private network addresses")
    for _ in range(4):
        try:
            if not box.is_visible():
                w.page.get_by_text("Options").click(timeout=10_000)
                box.wait_for(timeout=10_000)
            if not box.is_checked(timeout=10_000):
                w.page.get_by_text("Allow private network addresses").click(timeout=10_000)
            w.page.get_by_text("Private network allowed").wait_for(timeout=10_000)
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError("the private-network option never took effect")


def _docx_brief(url: str, dead: str) -> bytes:
    """Return a DOCX brief with real hyperlinks (w:hyperlink with a relationship) to the served pages."""
    import docx
    from docx.opc.constants import RELATIONSHIP_TYPE
    from docx.oxml.ns import qn
    from docx.oxml.parser import OxmlElement

    doc = docx.Document()

    def link(paragraph, target: str, text: str) -> None:
        rid = paragraph.part.relate_to(target, RELATIONSHIP_TYPE.HYPERLINK, is_external=True)
        h = OxmlElement("w:hyperlink")
        h.set(qn("r:id"), rid)
        run = OxmlElement("w:r")
        t = OxmlElement("w:t")
        t.text = text
        run.append(t)
        h.append(run)
        paragraph._p.append(h)

    p = doc.add_paragraph("Python 3.11 is a quarter faster than 3.10 (")
    link(p, url, "What's New in Python 3.11")
    p.add_run(f"): “{SPEED} as measured with the pyperformance benchmark suite”.")
    p = doc.add_paragraph("Python 3.15 removes the GIL (")
    link(p, dead, "GIL removal")
    p.add_run("): “The global interpreter lock is removed in Python 3.15 and cannot be re-enabled”.")
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def _expected_counts(data: bytes, name: str, *, sample: bool = False) -> dict[str, int]:
    """Return core's own verdict counts for a brief, checked in this process: what the desk must show."""
    from core.brief.read import read_brief
    from core.check import check_brief
    from core.samples import load_samples
    from core.settings import Settings

    store = Store(":memory:")
    if sample:
        load_samples(store)
    settings = Settings(db_path=":memory:", allow_private=not sample)
    report = check_brief(read_brief(data, name), settings, store=store, offline=sample)
    return {v: n for v, n in report.summary.items() if n}


def test_sample_brief_open_claim_decide_and_reload(desk: Desk, watched: Watched) -> None:
    page = watched.page
    page.goto(desk.url)
    page.get_by_role("button", name="Try the sample brief").wait_for()
    assert "# Python releases" in page.get_by_label("Paste a brief (Markdown or plain text)").input_value()
    _shot(watched, "check.png")
    page.get_by_role("button", name="Try the sample brief").click()
    _wait_review(watched, "python-releases.md")
    assert "run=" in page.url
    from core.samples import SAMPLE_BRIEF

    assert _counts(watched) == _expected_counts(SAMPLE_BRIEF.read_bytes(), SAMPLE_BRIEF.name, sample=True)
    _shot(watched, "review.png")

    card = page.locator("[class*='st-key-card-']").filter(has=page.locator("[data-verdict=verified]")).first
    quote = " ".join(card.locator("blockquote.q").first.inner_text().split()).lower()
    card.get_by_role("button", name="Open beside its source").click()
    mark = page.locator("mark.hl").first
    mark.wait_for()
    assert " ".join(mark.inner_text().split()).lower().rstrip(".") in quote
    assert page.get_by_text(re.compile(r"· 0 decided ·")).is_visible()
    page.get_by_role("radiogroup", name="Decision").get_by_text("Reject").click()
    page.get_by_text("Saved.").wait_for()
    # The decision reruns the list alone (a fragment); the count above it is drawn again all the same.
    page.get_by_text(re.compile(r"· 1 decided ·")).wait_for()
    page.get_by_label("Note").fill("Source predates the claim")
    page.get_by_label("Note").press("Control+Enter")
    page.get_by_text("Editor: Rejected — Source predates the claim").wait_for()
    opened = page.locator("[class*='st-key-card-']").filter(has=page.get_by_role("button", name="Close")).first
    opened.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)
    _shot(watched, "claim.png")

    page.reload()
    page.get_by_text("Editor: Rejected — Source predates the claim").wait_for()
    checked = page.get_by_role("radiogroup", name="Decision").locator("label:has(input:checked)")
    assert checked.inner_text().strip() == "Reject"
    assert not watched.dialogs and watched.strays == []


def test_docx_brief_with_served_sources_and_html_report(
    desk: Desk, watched: Watched, sources: LoopbackServer, tmp_path
) -> None:
    page = watched.page
    brief = tmp_path / "served-brief.docx"
    brief.write_bytes(_docx_brief(sources.url("/whatsnew/3.11.html"), sources.url("/gone.html")))
    page.goto(desk.url)
    page.locator("input[type=file]").first.set_input_files(str(brief))
    page.get_by_text("served-brief.docx will be checked").wait_for()
    _allow_private(watched)
    page.get_by_role("button", name="Check", exact=True).click()
    _wait_review(watched, "served-brief.docx")
    run_id = re.search(r"run=([\w-]+)", page.url).group(1)
    counts = _counts(watched)
    assert counts == _expected_counts(brief.read_bytes(), brief.name)
    assert counts.get("dead_link") == 1  # the failing source is told apart; the other claim is still checked

    page.get_by_role("link", name="Report").click()
    page.get_by_role("button", name="DOCX with comments").wait_for()
    _shot(watched, "report.png")
    with page.expect_download() as info:
        page.get_by_role("button", name="Annotated HTML report").click()
    path = tmp_path / "report.html"
    info.value.save_as(path)
    text = path.read_text(encoding="utf-8")
    assert "served-brief.docx" in text
    page.goto(path.as_uri())
    assert page.get_by_text(re.compile("Verified")).first.is_visible()
    assert page.get_by_text(re.compile("Dead link")).first.is_visible()
    page.goto(f"{desk.url}/report?run={run_id}")  # a fresh session: the run's URL reopens it
    with page.expect_download() as info:
        page.get_by_role("button", name="DOCX with comments").click()
    assert info.value.suggested_filename.endswith(".docx")
    assert not watched.dialogs


def test_progress_lists_each_source_while_the_check_runs(desk: Desk, watched: Watched, sources) -> None:
    page = watched.page
    slow, gone = sources.url("/slow.html"), sources.url("/gone.html")
    brief = (
        f'Distutils goes away ([PEP 632]({slow})): "In Python 3.10 and 3.11, distutils will be formally marked '
        'as deprecated".\n\n'
        f'An invented page ([x]({gone})): "This page was never written by anyone at all".\n'
    )
    page.goto(desk.url)
    page.get_by_label("Paste a brief (Markdown or plain text)").fill(brief)
    _allow_private(watched)
    page.get_by_role("button", name="Check", exact=True).click()
    fetching = page.locator('.progress tr[data-state="fetching"]')
    fetching.wait_for(timeout=10_000)
    assert slow in fetching.first.inner_text()
    failed = page.locator('.progress tr[data-state="failed"]')
    failed.wait_for(timeout=10_000)
    assert gone in failed.inner_text() and "404" in failed.inner_text()
    _shot(watched, "progress.png")
    _wait_review(watched, "pasted brief")
    assert _counts(watched).get("dead_link") == 1


def test_options_stay_open_while_the_editor_changes_them(desk: Desk, watched: Watched) -> None:
    """Options opened stay open through the reruns the editor's own changes cause (a blur, a box ticked, unticked)."""
    page = watched.page
    page.goto(desk.url)
    page.get_by_label("Paste a brief (Markdown or plain text)").fill("A claim [x](https://example.org/).")
    _allow_private(watched)  # opened after the brief's text area (its blur reruns the form), then ticked
    page.get_by_text("Allow private network addresses").click()  # unticked: no option is in force any more
    page.get_by_text("Private network allowed").wait_for(state="detached", timeout=10_000)  # that rerun is drawn
    box = page.get_by_role("checkbox", name="Allow private network addresses")
    assert box.is_visible() and not box.is_checked()


def test_history_reopens_a_run(desk: Desk, watched: Watched) -> None:
    page = watched.page
    page.goto(desk.url + "/history")
    page.get_by_role("button", name="Open").first.wait_for()
    _shot(watched, "history.png")
    page.get_by_role("button", name="Open").first.click()
    page.get_by_text(re.compile("^Review: ")).wait_for()
    assert "run=" in page.url


def test_script_payloads_run_nothing(desk: Desk, watched: Watched, sources: LoopbackServer, tmp_path) -> None:
    page = watched.page
    # A stored run whose every drawn field carries a payload (diagnosis, candidates, metadata).
    run_id = Store(desk.db).save_run(to_json(hostile_report()), b"", "hostile")
    page.goto(f"{desk.url}/?run={run_id}")
    page.get_by_role("button", name="Open beside its source").first.click()
    page.get_by_text("Diagnosis: explains the failure, decides nothing").wait_for()
    page.get_by_role("button", name="Close").click()
    page.get_by_role("button", name="Open beside its source").nth(1).click()
    page.get_by_text("The passage offered first").wait_for()  # beside the claim without a click
    assert page.locator("div.offer blockquote").first.inner_text() == XSS  # a payload drawn as text

    # A pasted brief with payloads in claims, quotes and URLs, checked against a hostile served page.
    hostile_url = sources.url("/hostile.html") + '?q="><script>alert(5)</script>'
    brief = (
        f"# Brief {XSS}\n\n"
        f"The page says something {XSS} ([source]({sources.url('/hostile.html')})): "
        f'"The page says {XSS} and bold and a long sentence of plain words here"\n\n'
        f"Another claim <svg onload=alert(6)> ([x]({hostile_url})).\n\n"
        f"> quote <script>alert(7)</script> with enough words to be checked\n\n"
        "A bad link ([y](javascript:alert(8))).\n"
    )
    page.goto(desk.url)
    page.get_by_label("Paste a brief (Markdown or plain text)").fill(brief)
    _allow_private(watched)
    page.get_by_role("button", name="Check", exact=True).click()
    _wait_review(watched, "pasted brief")
    buttons = page.get_by_role("button", name="Open beside its source")
    for i in range(buttons.count()):
        page.get_by_role("button", name="Open beside its source").nth(i).click()
        page.get_by_text("Your decision").wait_for()
        page.get_by_role("button", name="Close").click()
        page.get_by_role("button", name="Close").wait_for(state="detached")
    page.get_by_role("link", name="Report").click()
    with page.expect_download() as info:
        page.get_by_role("button", name="Annotated HTML report").click()
    saved = tmp_path / "hostile-report.html"
    info.value.save_as(saved)
    page.goto(saved.as_uri())
    page.wait_for_timeout(500)
    assert watched.dialogs == []
    # Streamlit's frontend probes /<page>/_stcore/health after a reload (404): its own, not a payload's.
    benign = "Failed to load resource: the server responded with a status of 404"
    assert [e for e in watched.errors if not e.startswith(benign)] == []
    assert watched.strays == []  # no image of a brief's Markdown, no page resource, was ever fetched
