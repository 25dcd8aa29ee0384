"""AppTest tests of the desk's claim against its evidence: the passage offered beside an unquoted claim, the
figures' places, the signs, the Review page's findings filter, and adopting a passage as the editor.

Runs are real: tests/report/test_cases.py's evidence_report goes through core.report's JSON into a
real Store, its pages stored as evidence, and the pages open it by ``?run=ID``.
"""

from __future__ import annotations

import html
import re
from dataclasses import replace
from urllib.parse import urlsplit

from streamlit.testing.v1 import AppTest

from core.report import to_json
from core.settings import Settings
from core.store import Store
from tests.report.test_cases import PAYLOAD, evidence_report
from tests.ui.test_pages import APP, _all_html, _no_exceptions

HELD = '<mark class="held" title="the claim&#x27;s words or figures that the passage offered holds">'


def _open(store_sources: bool = False) -> tuple[AppTest, str]:
    report = evidence_report()
    store = Store(Settings.from_env().db_path)
    if store_sources:
        for r in report.results:
            # Stored as a fetch records it, with the public address it came from: the desk's policy serves it.
            host = urlsplit(r.source.url).hostname or ""
            store.save_source(replace(r.source, addresses=((host, "151.101.0.223"),)))
    run_id = store.save_run(to_json(report), b"", report.brief_name)
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["run"] = run_id
    at.run()
    return at, run_id


def test_an_unquoted_claim_shows_its_passage_and_figure_places_without_a_click() -> None:
    at, _ = _open()
    at.button(key="openbtn|e1").click().run()
    _no_exceptions(at)
    shown = _all_html(at)
    # The passage offered first stands beside the claim, the claim's words it holds marked.
    assert '<div class="offer" data-offer="0"><div class="offer-label">The passage offered first</div>' in shown
    assert f"{HELD}CPython 3.11</mark>" in shown
    assert "Lacks the claim’s: figures 75%" in shown
    # The figures' table: the same statuses as with a quote, each figure's place on the page.
    assert "No figures in this claim" not in shown
    assert "<th>where on the page</th>" in shown
    assert (
        '<td data-where="nowhere">nowhere on the cited page; the passage closest to the claim holds '
        "“an average of 25%” in its place</td>"
    ) in shown
    labels = [b.label for b in at.button]
    assert "Adopt this passage as the quote" in labels
    assert at.button(key="adopt|e1|0") is not None and at.button(key="adopt|e1|1") is not None
    assert any(e.label == "The next 1 passage offered" for e in at.expander)


def test_signs_come_first_and_payloads_stay_text() -> None:
    at, _ = _open()
    at.button(key="openbtn|e4").click().run()
    _no_exceptions(at)
    shown = _all_html(at)
    offer = shown[shown.index('<div class="offer" data-offer="0">') :]
    assert offer.index('<ul class="signs"><li>Sign: negation on one side only') < offer.index("<blockquote")
    assert PAYLOAD not in shown and html.escape(PAYLOAD, quote=True) in shown
    assert f"{HELD}{html.escape(PAYLOAD, quote=True)}</mark>" in shown


def test_an_unquoted_claim_without_checked_figures_still_lists_them() -> None:
    at, _ = _open()
    at.button(key="openbtn|e4").click().run()
    # e4 has no figure; e1's figures are listed (the table never says none for a claim that has figures).
    assert "No figures in this claim" in _all_html(at)


def _cards(at: AppTest) -> list[str]:
    """Return the ids of the claims whose cards the Review page shows, in order."""
    return [m for h in at.html for m in re.findall(r'<div class="card[^"]*" data-claim="([^"]+)"', h.proto.body)]


def test_the_review_page_goes_first_to_figures_nowhere_and_to_signs() -> None:
    at, _ = _open()
    assert _cards(at) == ["e1", "e2", "e3", "e4"]
    (findings,) = [p for p in at.get("button_group") if p.label == "Go first to"]
    findings.set_value(["nowhere"]).run()
    _no_exceptions(at)
    assert _cards(at) == ["e1"]
    (findings,) = [p for p in at.get("button_group") if p.label == "Go first to"]
    findings.set_value(["signs"]).run()
    assert _cards(at) == ["e2", "e4"]


def test_adopting_the_passage_rechecks_it_as_a_quote_by_the_editor(as_editor) -> None:
    as_editor("Ada Lovelace")
    at, run_id = _open(store_sources=True)
    at.button(key="openbtn|e1").click().run()
    at.button(key="adopt|e1|0").click().run()
    _no_exceptions(at)
    stored = next(c for c in Store(Settings.from_env().db_path).load_run(run_id)["claims"] if c["id"] == "e1")
    assert stored["quote"] == "CPython 3.11 is an average of 25% faster than CPython 3.10"
    assert stored["adopted_by"] == "Ada Lovelace"
    # Through the exact matcher like any quote: found, and the claim's 75% is not in it.
    assert [f["found"] for f in stored["fragments"]] == [True]
    assert stored["verdict"] == "figures_mismatch"
    assert "Quote adopted by Ada Lovelace from the passages offered." in _all_html(at)


def test_a_reader_sees_the_passage_and_cannot_adopt_it(monkeypatch) -> None:
    from ui import auth

    monkeypatch.setattr(auth, "editor", lambda: auth.Editor(name="Rita", may_decide=False, signed_in=True))
    at, _ = _open()
    at.button(key="openbtn|e1").click().run()
    _no_exceptions(at)
    assert '<div class="offer" data-offer="0">' in _all_html(at)
    assert "Adopt this passage as the quote" not in [b.label for b in at.button]
