"""Desk benchmark: a 50-claim brief with cached sources, and the review of a 2,000-claim run, in Debian's Chromium.

Measures (1) from clicking Check to the review page being usable (summary and first card
drawn), and (2) from clicking a verdict filter to the list updated (the page shows exactly the
cards the filter selects, by claim id: a count of cards would not tell a list of 20 redrawn
from the list of 20 it replaces). Targets: 2 s and 0.5 s.
Each click is timed in the page, from the click reaching it (its pointerdown) to the first frame
that shows the outcome (``_armed``): what an editor waits for. Playwright's own time around it
(finding the button, checking that it can be clicked, polling for the outcome from its own
process) is printed beside it ("as the test driver sees it"): on a loaded machine it adds
0.2-1.0 s that are the driver's, not the desk's.
Baselines measured in the same run: the bare core.check.check_brief call on the same brief
and store, and a trivial page load of the desk. It also counts fetches and stored runs
across the filter clicks, to show that a widget change re-checks nothing. Then a stored run of
2,000 claims is opened on the review page (until its filters, counts and first screen of cards
are drawn) and filtered, each against the same trivial page load.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from tests.browser.desk import CHROMIUM, CHROMIUM_ARGS, start_desk
from tests.servers import CORPUS, serve

N_CLAIMS = 50
CHECKS = 3  # timed checks after the first: the worst of them is the figure (the target holds in every one)
QUOTES = (
    "CPython 3.11 is an average of 25% faster than CPython 3.10",
    "This is an experimental feature and therefore is not enabled by default",
    "In Python 3.10 and 3.11, distutils will be formally marked as deprecated",
)
PAGES = {
    "/whatsnew/3.11.html": "html/python/whatsnew/3.11.html",
    "/whatsnew/3.13.html": "html/python/whatsnew/3.13.html",
    "/peps/pep-0632.html": "html/python/peps/pep-0632.html",
}


def _brief(urls: list[str]) -> str:
    lines = ["# Bench brief", ""]
    for i in range(N_CLAIMS):
        url = urls[i % len(urls)]
        quote = QUOTES[i % len(PAGES)]
        lines.append(f'Claim {i + 1} says {25 + i % 3}% of something ([source]({url})): "{quote}".')
        lines.append("")
    return "\n".join(lines)


#: Installed in the page just before a click: the time the click reaches the page (its pointerdown, seen
#: before any handler of the page's own) and the time of the first animation frame at which ``done(arg)``
#: holds, both on the page's clock. A frame is the soonest an editor could see the outcome.
_ARM = """([done, arg]) => {
  const test = new Function('arg', 'return (' + done + ')(arg);');
  const t = window.__vbTimes = {clicked: null, shown: null};
  document.addEventListener('pointerdown', () => { if (t.clicked === null) t.clicked = performance.now(); },
                            {capture: true, once: true});
  const frame = () => {
    if (t.clicked !== null && test(arg)) { t.shown = performance.now(); return; }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}"""

#: The review page is usable: its title, the summary bar and a first card's open button are drawn.
_REVIEW_USABLE = """() => {
  const drawn = (e) => !!e && e.getBoundingClientRect().width > 0;
  const title = Array.from(document.querySelectorAll('h1')).find(h => h.textContent.includes('Review: pasted brief'));
  const open = Array.from(document.querySelectorAll('button'))
    .find(b => b.textContent.trim() === 'Open beside its source');
  return drawn(title) && drawn(document.querySelector('.sumbar')) && drawn(open);
}"""

#: The list shows exactly the wanted cards, by claim id in order.
_LIST_SHOWN = "want => Array.from(document.querySelectorAll('.card'), c => c.dataset.claim).join('|') === want"


def _arm(page, done: str, arg: object = None) -> None:
    page.evaluate(_ARM, [done, arg])


def _armed_seconds(page) -> float:
    """Return the seconds from the armed click reaching the page to the first frame showing its outcome."""
    page.wait_for_function("() => window.__vbTimes && window.__vbTimes.shown !== null", polling=50)
    times = page.evaluate("() => window.__vbTimes")
    return (times["shown"] - times["clicked"]) / 1000


def _click_until_shown(page, pill, report, chosen: set[str]) -> tuple[float, float]:
    """Return the seconds from clicking a filter pill until the page shows exactly the cards the filter selects.

    In the page (the click's pointerdown to the first frame showing them) and as the test driver sees it.
    The first page of claims of the chosen verdicts (all claims when none is chosen), by claim id in brief
    order: a card count alone would not tell a redrawn list of 20 from the list of 20 it replaces.
    """
    want = "|".join([r.claim.id for r in report.results if not chosen or r.verdict.value in chosen][:20])
    _arm(page, _LIST_SHOWN, want)
    began = time.perf_counter()
    pill.click()
    page.wait_for_function(_LIST_SHOWN, arg=want, polling=20)
    driver = time.perf_counter() - began
    return _armed_seconds(page), driver


def run() -> list[str]:
    from playwright.sync_api import sync_playwright

    from core.brief.read import parse_markdown
    from core.check import check_brief
    from core.models import Verdict
    from core.settings import Settings
    from core.store import Store

    out: list[str] = []
    with tempfile.TemporaryDirectory() as tmp, serve() as server:
        # Each page under 10 paths: 30 distinct sources, each quote cited against its own page.
        urls = [
            server.add(f"/copy{k}{path}", (CORPUS / rel).read_bytes()) for k in range(10) for path, rel in PAGES.items()
        ]
        text = _brief(urls)
        desk = start_desk(Path(tmp))
        try:
            settings = Settings(allow_private=True, db_path=desk.db)
            brief = parse_markdown(text, "bench brief")
            # Warm the desk's store: every source is fetched once, later checks use the stored copies.
            store = Store(desk.db)
            check_brief(brief, settings, store=store)
            bare = []
            for _ in range(3):
                began = time.perf_counter()
                report = check_brief(brief, settings, store=store)
                bare.append(time.perf_counter() - began)
            baseline_check = min(bare)

            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.set_default_timeout(120_000)
                loads = []
                for _ in range(3):
                    began = time.perf_counter()
                    page.goto(desk.url + "/history")
                    page.get_by_role("heading", name="History").wait_for()
                    loads.append(time.perf_counter() - began)
                baseline_load = min(loads)

                def check_once() -> tuple[float, float]:
                    """Return the seconds from clicking Check to the review usable: in the page, and to the driver."""
                    page.goto(desk.url)
                    page.get_by_label("Paste a brief (Markdown or plain text)").fill(text)
                    page.get_by_text("Options").click()
                    page.get_by_text("Allow private network addresses").click()
                    page.get_by_text("Private network allowed").wait_for()
                    _arm(page, _REVIEW_USABLE)
                    began = time.perf_counter()
                    page.get_by_role("button", name="Check", exact=True).click()
                    page.get_by_text("Review: pasted brief").wait_for()
                    page.locator(".sumbar").first.wait_for()
                    page.get_by_role("button", name="Open beside its source").first.wait_for()
                    driver = time.perf_counter() - began
                    return _armed_seconds(page), driver

                fetched_before = len(server.requests)
                # The desk's first check also pays its imports; the later ones are the steady state, each its own run.
                first_check, _ = check_once()
                steady = [check_once() for _ in range(CHECKS)]
                to_review = max(t for t, _ in steady)
                fetched_by_check = len(server.requests) - fetched_before

                runs_before = len(Store(desk.db).list_runs(1000))
                requests_before = len(server.requests)
                summary = {v: n for v, n in report.summary.items() if n}
                clicks = []
                for verdict, n in summary.items():
                    pill = page.get_by_role("button", name=f"{Verdict(verdict).label} ({n})")
                    for chosen in ({verdict}, set()):  # filter on, then off again
                        clicks.append(_click_until_shown(page, pill, report, chosen))
                rechecks = len(server.requests) - requests_before
                new_runs = len(Store(desk.db).list_runs(1000)) - runs_before
                browser.close()
        finally:
            desk.stop()

    out.append(f"brief: {N_CLAIMS} claims, {10 * len(PAGES)} loopback sources, all cached before the timed check")
    out.append(f"click Check -> review usable, first check of a fresh desk: {first_check:.2f} s")
    out.append(
        f"click Check -> review usable: worst {to_review:.2f} s of {CHECKS} checks "
        f"({', '.join(f'{t:.2f}' for t, _ in steady)}; target <= 2 s); "
        f"{to_review / baseline_check:.1f}x the bare check_brief call ({baseline_check:.2f} s), "
        f"{to_review / baseline_load:.1f}x a trivial page load ({baseline_load:.2f} s); "
        f"as the test driver sees it: {', '.join(f'{d:.2f}' for _, d in steady)} s"
    )
    shown = [t for t, _ in clicks]
    out.append(
        f"click a verdict filter -> list updated: median {statistics.median(shown):.2f} s, "
        f"worst {max(shown):.2f} s over {len(shown)} clicks (target <= 0.5 s); "
        f"median {statistics.median(shown) / baseline_load:.2f}x a trivial page load; "
        f"as the test driver sees it: median {statistics.median(d for _, d in clicks):.2f} s, "
        f"worst {max(d for _, d in clicks):.2f} s"
    )
    out.append(
        f"fetches during the timed checks: {fetched_by_check}; during filter clicks: {rechecks}; "
        f"runs stored by filter clicks: {new_runs} (no re-check on a widget change)"
    )
    return out + _big_review()


N_BIG = 2000


def _big_review() -> list[str]:
    """Return the lines of the review page of a 2,000-claim run: opened (usable) and filtered."""
    from playwright.sync_api import sync_playwright

    from core.brief.read import parse_markdown
    from core.check import check_brief
    from core.models import Verdict
    from core.report import to_json
    from core.settings import Settings
    from core.store import Store

    with tempfile.TemporaryDirectory() as tmp, serve() as server:
        urls = [
            server.add(f"/copy{k}{path}", (CORPUS / rel).read_bytes()) for k in range(10) for path, rel in PAGES.items()
        ]
        lines = ["# Big bench brief", ""]
        for i in range(N_BIG):
            quote = QUOTES[i % len(PAGES)] if i % 7 else "A sentence no page of the brief holds at all"
            url = urls[i % len(urls)]
            lines += [f'Claim {i + 1} says {25 + i % 3}% of something ([source]({url})): "{quote}".', ""]
        brief = parse_markdown("\n".join(lines), "big bench brief")
        desk = start_desk(Path(tmp))
        try:
            settings = Settings(allow_private=True, db_path=desk.db)
            report = check_brief(brief, settings, store=Store(desk.db))
            run_id = Store(desk.db).save_run(to_json(report), brief.raw, brief.name)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.set_default_timeout(120_000)
                loads, opens = [], []
                for _ in range(3):
                    began = time.perf_counter()
                    page.goto(desk.url + "/history")
                    page.get_by_role("heading", name="History").wait_for()
                    loads.append(time.perf_counter() - began)
                for _ in range(3):
                    page.goto(desk.url + "/history")
                    page.get_by_role("heading", name="History").wait_for()
                    began = time.perf_counter()
                    page.goto(f"{desk.url}/review?run={run_id}")
                    page.locator(".sumbar").first.wait_for()
                    page.get_by_role("button", name="Open beside its source").first.wait_for()
                    page.wait_for_function("() => document.querySelectorAll('.card').length === 20", polling=20)
                    opens.append(time.perf_counter() - began)
                clicks = []
                for verdict, n in {v: n for v, n in report.summary.items() if n}.items():
                    pill = page.get_by_role("button", name=f"{Verdict(verdict).label} ({n})")
                    for chosen in ({verdict}, set()):  # filter on, then off again
                        clicks.append(_click_until_shown(page, pill, report, chosen))
                browser.close()
        finally:
            desk.stop()
    base = min(loads)
    verdicts = {v: n for v, n in report.summary.items() if n}
    shown = [t for t, _ in clicks]
    return [
        f"review of a {N_BIG:,}-claim run ({len(urls)} sources; {verdicts}):"
        f" open -> usable (filters, counts and the first 20 cards) best {min(opens):.2f} s, worst {max(opens):.2f} s"
        f" (target <= 2 s); {min(opens) / base:.1f}x a trivial page load ({base:.2f} s)",
        f"  a verdict filter on the {N_BIG:,}-claim run: median {statistics.median(shown):.2f} s, worst"
        f" {max(shown):.2f} s over {len(shown)} clicks (target <= 0.5 s); as the test driver sees it: median"
        f" {statistics.median(d for _, d in clicks):.2f} s, worst {max(d for _, d in clicks):.2f} s",
    ]
