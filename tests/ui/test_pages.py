"""AppTest tests of every desk page: main widgets present, no exceptions, the editor's flows work.

Runs are real: hand-built Report records go through core.report's JSON into a real Store,
and the pages open them by ``?run=ID`` as a reloaded browser tab would. Where a test needs
a check to run, core.check.check_brief is replaced by a function that reports progress and
returns a hand-built report, so the page's own work is what is tested.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.models import Brief, BriefFormat, Claim, Verdict
from core.report import to_json
from core.settings import Settings
from core.store import Store
from tests.browser.records import MD, XSS, hostile_report, sample_report

APP = Path(__file__).resolve().parents[2] / "ui" / "app.py"


def _store() -> Store:
    return Store(Settings.from_env().db_path)


def _saved_run(report=None) -> str:
    report = report or sample_report()
    return _store().save_run(to_json(report), b"", report.brief_name)


def _app() -> AppTest:
    return AppTest.from_file(str(APP), default_timeout=60)


def _open(run_id: str, page: str = "views/review.py") -> AppTest:
    at = _app()
    at.query_params["run"] = run_id
    at.run()
    if page != "views/review.py":
        at.switch_page(page).run()
    return at


def _md(text: str) -> str:
    from ui.draw import md

    return md(text)


def _plain(markdown: str) -> str:
    """Return a message as the editor reads it: the desk backslash-escapes Markdown in messages."""
    return re.sub(r"\\(.)", r"\1", markdown)


def _no_exceptions(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def _all_html(at: AppTest) -> str:
    return "\n".join(h.proto.body for h in at.html)


# --------------------------------------------------------------------------- Check page


def test_check_page_has_its_widgets_and_opens_on_the_sample() -> None:
    at = _app().run()
    _no_exceptions(at)
    labels = [b.label for b in at.button]
    assert "Check" in labels and "Try the sample brief" in labels
    assert at.text_area(key="brief_text").value.startswith("# Python releases")
    assert at.file_uploader(key="brief_file") is not None
    assert at.checkbox(key="opt_private").value is False
    assert at.checkbox(key="opt_refresh").value is False


def test_allowing_private_network_shows_a_warning() -> None:
    at = _app().run()
    assert not any("Private network allowed" in _plain(w.value) for w in at.warning)
    at.checkbox(key="opt_private").check().run()
    assert any("Private network allowed" in _plain(w.value) for w in at.warning)


def test_an_empty_brief_is_a_clear_message() -> None:
    at = _app().run()
    at.text_area(key="brief_text").set_value("   ").run()
    at.button(key="check_button").click().run()
    _no_exceptions(at)
    assert any("There is no brief to check" in _plain(e.value) for e in at.error)


def test_a_brief_with_no_claims_is_a_clear_message(monkeypatch: pytest.MonkeyPatch) -> None:
    from ui import services

    monkeypatch.setattr(
        services,
        "parse_pasted",
        lambda text: Brief(name="pasted brief", format=BriefFormat.MARKDOWN, claims=(), uncited=("No links.",)),
    )
    at = _app().run()
    at.text_area(key="brief_text").set_value("Just prose, no links at all.").run()
    at.button(key="check_button").click().run()
    _no_exceptions(at)
    assert any("No claims were found in pasted brief" in _plain(w.value) for w in at.warning)


def test_an_unreadable_brief_is_a_clear_message(monkeypatch: pytest.MonkeyPatch) -> None:
    from core.errors import BriefError
    from ui import services

    def unreadable(text: str) -> Brief:
        raise BriefError("The pasted brief is not text Verbatim can read. Paste the brief's text.")

    monkeypatch.setattr(services, "parse_pasted", unreadable)
    at = _app().run()
    at.text_area(key="brief_text").set_value("\x00\x01garbage").run()
    at.button(key="check_button").click().run()
    _no_exceptions(at)
    assert [_plain(e.value) for e in at.error] == [
        "The pasted brief is not text Verbatim can read. Paste the brief's text."
    ]


def test_a_bug_is_one_clear_message_and_a_logged_traceback(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from ui import services

    def broken(text: str) -> Brief:
        raise ValueError("the bytes are not text")

    monkeypatch.setattr(services, "parse_pasted", broken)
    at = _app().run()
    at.text_area(key="brief_text").set_value("\x00\x01garbage").run()
    with caplog.at_level("ERROR", logger="verbatim.desk"):
        at.button(key="check_button").click().run()
    _no_exceptions(at)
    assert [_plain(e.value) for e in at.error] == [
        "Something went wrong in the desk: ValueError: the bytes are not text. "
        "The error has been logged; your decisions are saved."
    ]
    (logged,) = [r for r in caplog.records if r.name == "verbatim.desk"]
    assert logged.exc_info is not None and logged.exc_info[0] is ValueError
    assert at.button(key="check_button") is not None  # the page drawn before the bug stays usable


def test_check_reports_progress_then_opens_the_review(monkeypatch: pytest.MonkeyPatch) -> None:
    from ui import services

    report = sample_report()
    claims = tuple(r.claim for r in report.results)
    seen: list[tuple[str, str]] = []

    def fake_check(
        brief, settings, *, store=None, refresh=False, progress=None, fetcher=None, offline=False, on_result=None
    ):
        assert settings.allow_private is True and settings.allowed_domains == ("python.org",)
        for c, result in zip(brief.claims, report.results, strict=True):
            progress(c.url, "fetching", "")
            progress(c.url, "failed" if c.id == "c5" else "fetched", "404 Not Found" if c.id == "c5" else "")
            on_result(result)
            seen.append((c.url, "done"))
        return report

    monkeypatch.setattr(
        services, "parse_pasted", lambda text: Brief(name="pasted brief", format=BriefFormat.MARKDOWN, claims=claims)
    )
    monkeypatch.setattr(services, "check_function", lambda: fake_check)
    at = _app().run()
    at.text_area(key="brief_text").set_value("anything").run()
    at.checkbox(key="opt_private").check()
    at.text_area(key="opt_domains").set_value("python.org")
    at.button(key="check_button").click().run()
    _no_exceptions(at)
    assert len(seen) == len(claims)
    # The review of the new run is open, and the run is in the store.
    run_id = at.query_params["run"]
    assert _store().load_run(run_id) is not None
    assert any("Review: hand-built.md" in _plain(t.value) for t in at.title)


# --------------------------------------------------------------------------- Review page


def test_review_without_a_run_says_what_to_do() -> None:
    at = _app().run()
    at.switch_page("views/review.py").run()
    _no_exceptions(at)
    assert any("No run is open" in _plain(i.value) for i in at.info)


def test_review_shows_every_claim_with_verdict_words_and_counts() -> None:
    at = _open(_saved_run())
    _no_exceptions(at)
    page = _all_html(at)
    for v in Verdict:
        assert f'data-verdict="{v.value}">{v.label}</span>' in page
    assert page.count('class="card"') == 8
    assert list(at.pills[0].options) == [f"{v.label} (1)" for v in Verdict]
    # Figures are marked in the claim text, by status.
    assert '<mark class="fig-missing" title="figure NOT in the quote">30%</mark>' in page
    assert [b.label for b in at.button].count("Open beside its source") == 8


def test_a_verdict_filter_narrows_the_list() -> None:
    at = _open(_saved_run())
    at.pills[0].set_value(["verified", "no_quote"]).run()
    _no_exceptions(at)
    page = _all_html(at)
    assert page.count('class="card"') == 2
    assert 'data-claim="c1"' in page and 'data-claim="c4"' in page


def test_opening_a_claim_shows_it_beside_its_source() -> None:
    at = _open(_saved_run())
    at.button(key="openbtn|c3").click().run()
    _no_exceptions(at)
    page = _all_html(at)
    assert "Diagnosis: explains the failure, decides nothing" in page
    assert "<del title" in page and "could be 10-60%" in page
    at.button(key="close|c3").click().run()
    at.button(key="openbtn|c1").click().run()
    _no_exceptions(at)
    page = _all_html(at)
    assert '<mark class="hl" title="matched quote">CPython 3.11 is an average' in page
    sha = sample_report().results[0].source.sha256
    assert sha in page and "#:~:text=CPython%203.11%20is%20an" in page
    assert "the bundled offline sample copy, not the live page" in page


def test_a_decision_is_saved_at_once_and_any_no_blocks_accept() -> None:
    run_id = _saved_run()
    at = _open(run_id)
    at.button(key="openbtn|c2").click().run()
    key = f"dec|{run_id}|c2|"
    at.radio(key=key + "choice").set_value("accept").run()
    assert [(d.claim_id, d.decision) for d in _store().decisions(run_id)] == [("c2", "accept")]
    at.radio(key=key + "same_period").set_value("no").run()
    _no_exceptions(at)
    saved = _store().decisions(run_id)[0]
    assert saved.decision == "" and saved.same_period is False
    assert any("Accept is blocked: you answered no to same period?" in _plain(w.value) for w in at.warning)
    at.radio(key=key + "choice").set_value("accept").run()
    assert _store().decisions(run_id)[0].decision == ""
    assert any("Accept was withdrawn" in _plain(e.value) for e in at.error)
    at.radio(key=key + "choice").set_value("needs_edit").run()
    at.text_area(key=key + "note").set_value("Says 30%, source says 25%.").run()
    saved = _store().decisions(run_id)[0]
    assert (saved.decision, saved.note) == ("needs_edit", "Says 30%, source says 25%.")


def test_a_reopened_run_shows_the_saved_decision() -> None:
    run_id = _saved_run()
    at = _open(run_id)
    at.button(key="openbtn|c1").click().run()
    at.radio(key=f"dec|{run_id}|c1|choice").set_value("reject").run()
    again = _open(run_id)  # a new session: a reload or a restarted server
    _no_exceptions(again)
    assert any(_plain(c.value) == "Editor: Rejected" for c in again.caption)
    again.button(key="openbtn|c1").click().run()
    assert again.radio(key=f"dec|{run_id}|c1|choice").value == "reject"


def _card_verdict(at: AppTest, claim_id: str) -> str:
    (card,) = [h.proto.body for h in at.html if f'data-claim="{claim_id}"' in h.proto.body]
    return re.search(r'data-verdict="(\w+)"', card).group(1)


def test_a_run_changed_in_the_store_is_opened_changed_by_the_next_tab() -> None:
    # The desk keeps runs read back for every tab (core.report.cached_report): a tab opened after the run
    # changed in the store (another desk re-checked it) shows the change, never the copy read before.
    from dataclasses import replace

    report = sample_report()
    run_id = _saved_run(report)
    assert _card_verdict(_open(run_id), "c1") == report.results[0].verdict.value == "verified"
    changed = replace(report.results[0], verdict=Verdict.QUOTE_NOT_FOUND)
    _store().update_run(run_id, to_json(replace(report, results=(changed, *report.results[1:]))))
    again = _open(run_id)
    _no_exceptions(again)
    assert _card_verdict(again, "c1") == "quote_not_found"


def test_an_unknown_run_id_is_a_clear_message() -> None:
    at = _open("no-such-run")
    _no_exceptions(at)
    assert any("There is no run no-such-run in the store" in _plain(e.value) for e in at.error)


def test_a_thousand_claims_are_paged() -> None:
    run_id = _saved_run(sample_report(n_copies=125))
    at = _open(run_id)
    _no_exceptions(at)
    assert _all_html(at).count('class="card"') == 20
    at.number_input[0].set_value(50).run()
    page = _all_html(at)
    assert page.count('class="card"') == 20 and "#1000</span>" in page


def test_script_payloads_are_drawn_as_text() -> None:
    from ui.guard import SCRIPT

    run_id = _saved_run(hostile_report())
    at = _open(run_id)
    at.button(key="openbtn|x1").click().run()
    _no_exceptions(at)
    # The desk's own note guard is the one script on the page, and it is exactly ui.guard's.
    assert [h.proto.body for h in at.html if "<script>" in h.proto.body] == [SCRIPT]
    page = "\n".join(h.proto.body for h in at.html if h.proto.body != SCRIPT)
    assert (
        "<script>" not in page
        and "<img" not in page
        and "javascript:"
        not in page.replace(html.escape("javascript:", quote=True), "").replace("javascript:alert(1)//&quot;", "")
    )
    assert html.escape(XSS, quote=True) in page
    assert "Open the live page" not in page  # a javascript: URL never becomes a link
    # Markdown in the brief's name and warnings is shown as text, never as an image or a link.
    assert any(t.value == f"Review: brief {_md(XSS)} {_md(MD)}" for t in at.title)
    assert any(w.value == _md(MD) for w in at.warning)


# --------------------------------------------------------------------------- Report and History


def test_report_page_offers_the_downloads() -> None:
    at = _open(_saved_run(), "views/report.py")
    _no_exceptions(at)
    labels = [b.label for b in at.get("download_button")]
    assert labels == ["Annotated HTML report", "JSON report", "CSV table", "DOCX report"]  # not a DOCX brief


def test_report_page_without_a_run_says_what_to_do() -> None:
    at = _app().run()
    at.switch_page("views/report.py").run()
    _no_exceptions(at)
    assert any("No run is open" in _plain(i.value) for i in at.info)


def test_history_lists_runs_and_reopens_one() -> None:
    first = _saved_run()
    _saved_run(hostile_report())
    at = _app().run()
    at.switch_page("views/history.py").run()
    _no_exceptions(at)
    assert [b.label for b in at.button].count("Open") == 2
    at.button(key=f"hist|{first}").click().run()
    _no_exceptions(at)
    assert any("Review: hand-built.md" in _plain(t.value) for t in at.title)
    assert at.query_params["run"] == first


def test_history_when_empty() -> None:
    at = _app().run()
    at.switch_page("views/history.py").run()
    assert any("No runs yet" in _plain(i.value) for i in at.info)


def test_claims_keep_brief_order() -> None:
    report = sample_report()
    at = _open(_saved_run(report))
    page = _all_html(at)
    positions = [page.index(f'data-claim="{r.claim.id}"') for r in report.results]
    assert positions == sorted(positions)
    assert isinstance(report.results[0].claim, Claim)


# --------------------------------------------------------------------------- ways out of a dead end


def test_a_not_checked_claim_is_rechecked_against_pasted_text() -> None:
    from tests.browser.records import PAGE

    run_id = _saved_run()
    at = _open(run_id)
    at.button(key="openbtn|c6").click().run()
    assert at.text_area(key="src_paste|c6") is not None
    at.button(key="src_go|c6").click().run()
    assert any("Nothing supplied" in _plain(e.value) for e in at.error)
    # The pasted page does not hold c6's quote ("twelve percent of users"): read, and not found.
    at.text_area(key="src_paste|c6").set_value(PAGE)
    at.button(key="src_go|c6").click().run()
    _no_exceptions(at)
    stored = _store().load_run(run_id)
    c6 = next(c for c in stored["claims"] if c["id"] == "c6")
    assert c6["verdict"] == "quote_not_found"
    assert c6["source"]["origin"] == "editor"
    assert any("re-checked against the source you supplied" in _plain(s.value) for s in at.success)


def test_a_no_quote_claim_adopts_a_candidate_passage() -> None:
    from dataclasses import replace

    from tests.browser.records import PAGE, PEP632

    report = sample_report()
    src = replace(report.results[3].source, body=PAGE.encode())
    store = _store()
    store.save_source(src)
    run_id = store.save_run(to_json(report), b"", report.brief_name)
    at = _open(run_id)
    at.button(key="openbtn|c4").click().run()
    at.button(key="adopt|c4|0").click().run()
    _no_exceptions(at)
    c4 = next(c for c in _store().load_run(run_id)["claims"] if c["id"] == "c4")
    assert c4["url"] == PEP632
    assert c4["quote"].startswith("CPython 3.11 is an average of 25% faster")
    assert c4["verdict"] != "no_quote"


def test_the_sample_brief_is_checked_offline_with_real_core() -> None:
    from core.brief.read import read_brief
    from core.check import check_brief
    from core.samples import SAMPLE_BRIEF, load_samples

    at = _app().run()
    at.button(key="sample_button").click().run(timeout=120)
    _no_exceptions(at)
    assert any("Review: python-releases.md" in _plain(t.value) for t in at.title)
    store = Store(":memory:")
    load_samples(store)
    expected = check_brief(
        read_brief(SAMPLE_BRIEF.read_bytes(), SAMPLE_BRIEF.name),
        Settings(db_path=":memory:"),
        store=store,
        offline=True,
    ).summary
    assert list(at.pills[0].options) == [f"{Verdict(v).label} ({n})" for v, n in expected.items() if n]


def test_a_thousand_claim_brief_with_failing_sources_is_checked_and_paged(server) -> None:
    from tests.servers import CORPUS

    page = server.add("/3.11.html", (CORPUS / "html/python/whatsnew/3.11.html").read_bytes())
    gone = server.url("/gone.html")  # the loopback server answers 404 for unknown paths
    quote = "CPython 3.11 is an average of 25% faster than CPython 3.10"
    lines = [f'Claim {i} says 25% ([s]({page})): "{quote}".' for i in range(998)]
    lines += [f'A claim on a dead page ([s]({gone})): "{quote}".', f"Not the web ([s](ftp://127.0.0.1/x)): “{quote}”."]
    at = _app().run()
    at.text_area(key="brief_text").set_value("\n\n".join(lines)).run()
    at.checkbox(key="opt_private").check()
    at.button(key="check_button").click().run(timeout=180)
    _no_exceptions(at)
    assert any("Review: pasted brief" in _plain(t.value) for t in at.title)
    assert any("1000 claims" in _plain(c.value) for c in at.caption)
    assert _all_html(at).count('class="card"') == 20
    options = list(at.pills[0].options)
    assert "Dead link (1)" in options and "Blocked (1)" in options
    at.pills[0].set_value(["Dead link (1)"]).run()
    assert 'data-claim="c999"' in _all_html(at) and _all_html(at).count('class="card"') == 1


def test_refetching_a_source_rechecks_its_claims(server) -> None:
    from dataclasses import replace

    from tests.browser.records import SPEED
    from tests.servers import CORPUS

    url = server.add("/3.11.html", (CORPUS / "html/python/whatsnew/3.11.html").read_bytes())
    report = sample_report()
    stale = report.results[5]  # not_checked: "403 Forbidden" the first time round
    moved = replace(stale, claim=replace(stale.claim, url=url, quote=SPEED), source=replace(stale.source, url=url))
    report = replace(report, results=(*report.results[:5], moved, *report.results[6:]))
    run_id = _saved_run(report)
    at = _app()
    at.query_params["run"] = run_id
    at.session_state["opt_private"] = True  # the Check page's option in force now: re-fetch takes its policy from it
    at.run()
    at.button(key="openbtn|c6").click().run()
    at.button(key="refetch|c6").click().run(timeout=60)
    _no_exceptions(at)
    assert server.requests == ["/3.11.html"]
    c6 = next(c for c in _store().load_run(run_id)["claims"] if c["id"] == "c6")
    assert c6["source"]["origin"] == "fetched" and c6["source"]["http_status"] == 200
    assert c6["verdict"] != "not_checked"


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("damaged.docx", b"PK\x03\x04" + bytes(range(256)) * 4),
        ("renamed-old-word.docx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600),
        ("empty.md", b""),
        ("broken.json", b'{"claims": [{"claim": "x", "url": '),
    ],
)
def test_an_unreadable_upload_is_a_message_that_names_the_file(name: str, data: bytes) -> None:
    at = _app().run()
    at.file_uploader(key="brief_file").upload(name, data).run()
    assert any(f"{name} will be checked" in _plain(c.value) for c in at.caption)
    at.button(key="check_button").click().run()
    _no_exceptions(at)
    errors = [_plain(e.value) for e in at.error]
    assert len(errors) == 1 and name in errors[0], errors
    assert at.button(key="check_button") is not None  # the page stays usable


# --------------------------------------------------------------------------- rules taken from core


def test_the_upload_types_are_the_brief_readers_types() -> None:
    from core.brief import BRIEF_EXTENSIONS, detect_format

    at = _app().run()
    types = set(at.get("file_uploader")[0].proto.type)
    assert {".tsv", ".docm", ".mdown", ".text"} <= types
    assert types == set(BRIEF_EXTENSIONS) == {ext for ext in types if detect_format(b"x", f"brief{ext}")[1]}


def test_the_allowlist_box_reads_domains_as_the_command_line_does(monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse

    from core.cli import _settings
    from ui import services

    seen = []

    def fake_check(brief, settings, **kwargs):
        seen.append(settings.allowed_domains)
        return sample_report()

    report = sample_report()
    monkeypatch.setattr(
        services, "parse_pasted", lambda text: Brief(name="b", format="markdown", claims=(report.results[0].claim,))
    )
    monkeypatch.setattr(services, "check_function", lambda: fake_check)
    at = _app().run()
    at.text_area(key="brief_text").set_value("anything").run()
    at.text_area(key="opt_domains").set_value("Python.org, *.Wikipedia.org;\nhttps://example.net/x")
    at.button(key="check_button").click().run()
    _no_exceptions(at)
    args = argparse.Namespace(
        allow_private=False, db=None, no_cache=False,
        allow_domain=["Python.org", "*.Wikipedia.org", "https://example.net/x"],
    )  # fmt: skip
    assert seen == [_settings(args).allowed_domains] == [("python.org", "wikipedia.org", "example.net")]
