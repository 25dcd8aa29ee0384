"""Real browser: an editor opens a claim without a quote, reads the passage offered and its figures, adopts it.

The run is tests/report/test_cases.py's evidence_report, its pages stored in the desk's own store
as a fetch records them; the adopted passage is re-checked by the desk's real core, and the card
then says who adopted it.
"""

from __future__ import annotations

from dataclasses import replace
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from core.report import to_json
from core.store import Store
from tests.browser.conftest import SCREENSHOTS, Watched
from tests.browser.desk import Desk
from tests.report.test_cases import evidence_report

pytestmark = pytest.mark.browser


def test_open_an_unquoted_claim_read_its_passage_and_figures_adopt_it(desk: Desk, watched: Watched) -> None:
    page = watched.page
    report = evidence_report()
    with Store(desk.db) as store:
        for r in report.results:
            host = urlsplit(r.source.url).hostname or ""
            store.save_source(replace(r.source, addresses=((host, "151.101.0.223"),)))
        run_id = store.save_run(to_json(report), b"", report.brief_name)
    page.goto(f"{desk.url}/review?run={run_id}")
    page.locator(".sumbar").first.wait_for()

    # The Review page goes first to the figures that stand nowhere on their page.
    page.get_by_role("button", name="Figures nowhere on the page (1)").click()
    card = page.locator("[class*='st-key-card-']").filter(has=page.locator("[data-claim=e1]"))
    expect(page.locator("[class*='st-key-card-']")).to_have_count(1)  # the rerun drew the filtered list
    card.get_by_role("button", name="Open beside its source").click()

    # Beside the claim without a click: the passage offered first, its held words marked, and the figures.
    offer = page.locator("div.offer[data-offer='0']")
    offer.wait_for()
    assert [m.inner_text() for m in offer.locator("mark.held").all()] == ["CPython 3.11", "faster than CPython 3.10"]
    assert "Lacks the claim’s: figures 75%" in offer.inner_text()
    nowhere = page.locator("table.figs td[data-where='nowhere']")
    assert " ".join(nowhere.inner_text().split()) == (
        "nowhere on the cited page; the passage closest to the claim holds “an average of 25%” in its place"
    )
    assert page.get_by_text("No figures in this claim").count() == 0
    page.get_by_text("The page's passage closest to the claim").evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "offered.png"), full_page=False)

    # One click adopts it; the exact matcher finds it on the page and the claim's 75% is not in it.
    page.get_by_role("button", name="Adopt this passage as the quote").first.click()
    page.get_by_text("re-checked with the adopted passage as its quote").wait_for()
    card = page.locator("[class*='st-key-card-']").filter(has=page.locator("[data-claim=e1]"))
    card.locator("[data-verdict=figures_mismatch]").first.wait_for()
    user = desk_user(desk)
    card.get_by_text(f"Quote adopted by {user} from the passages offered.").first.wait_for()
    assert (
        "CPython 3.11 is an average of 25% faster than CPython 3.10" in card.locator("blockquote.q").first.inner_text()
    )
    with Store(desk.db) as store:
        stored = next(c for c in store.load_run(run_id)["claims"] if c["id"] == "e1")
    assert (stored["verdict"], stored["adopted_by"], [f["found"] for f in stored["fragments"]]) == (
        "figures_mismatch",
        user,
        [True],
    )
    assert not watched.dialogs and watched.strays == []


def desk_user(desk: Desk) -> str:
    """Return who the single-user desk records decisions as (the operating-system user running it)."""
    from ui.auth import local_user

    return local_user()
