"""Real-browser tests of sign-in (issue 14, 1 and "Bad input"): a real OpenID Connect provider on loopback.

The desk runs as `make run` starts it, with a temporary secrets.toml pointing at
oidc-provider-mock on a free 127.0.0.1 port; Chromium goes through the provider's own
authorize form. Two editors decide on one claim from two browser contexts; a reader cannot
decide; a forged, replayed or expired sign-in, an ID token signed by another key, a provider
that cannot be reached and a missing cookie_secret each end on the sign-in page with a
message, never signed in.
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from datetime import timedelta

import pytest

from core.models import Choice
from core.report import to_json
from core.report.wording import DECISION_CHOICES
from core.store import Store
from tests.browser.desk import Desk, free_port, start_desk
from tests.browser.identity import Provider, desk_secrets, person, provider
from tests.browser.records import sample_report
from tests.browser.test_editors import _choose, _stored
from tests.servers import serve

pytestmark = pytest.mark.browser

ANN = person("ann", "Ann Editor", "ann@example.org")
BEN = person("ben", "Ben Editor", "Ben@Example.org")
RITA = person("rita", "Rita Reader", "rita@example.org")
GUS = person("gus", "Gus Checker", "gus@example.org", groups=["fact-checkers"])
TEAM = {"editors": ["ann@example.org", "ben@example.org"], "editor_groups": ["fact-checkers"]}
NOT_SIGNED_IN = "Your sign-in did not complete"


def _desk(tmp_path_factory, name: str, secrets: str) -> Desk:
    try:
        return start_desk(tmp_path_factory.mktemp(name), secrets=secrets)
    except RuntimeError as exc:
        pytest.fail(str(exc))


@pytest.fixture(scope="module")
def idp() -> Iterator[Provider]:
    with provider([ANN, BEN, RITA, GUS]) as running:
        yield running


@pytest.fixture(scope="module")
def team(tmp_path_factory, idp: Provider) -> Iterator[Desk]:
    running = _desk(tmp_path_factory, "team", desk_secrets(idp.metadata_url, verbatim=TEAM))
    try:
        yield running
    finally:
        running.stop()


def _context(chromium):
    context = chromium.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(30_000)
    return context, page


def _to_provider(page, desk: Desk, button: str = "Sign in", path: str = "") -> None:
    """Open the desk, meet its sign-in page, and follow the button to the provider's authorize form."""
    page.goto(desk.url + path)
    page.get_by_role("button", name=button, exact=True).click()
    page.wait_for_url("**/oauth2/authorize**")


def _sign_in(page, desk: Desk, sub: str, button: str = "Sign in", path: str = "") -> None:
    _to_provider(page, desk, button, path)
    page.get_by_role("button", name=sub, exact=True).click()
    page.wait_for_url(f"{desk.url}/**")


def _signed_in_as(page) -> str:
    line = page.get_by_test_id("stSidebarUserContent").get_by_text("Signed in as")
    line.wait_for()
    return line.inner_text()


def _refused(page, by: str) -> None:
    """Wait for the store's refusal of a save made on a decision another editor changed meanwhile."""
    page.get_by_text(re.compile(rf"Changed by {by} at \d\d:\d\d UTC while you were reading")).wait_for()


def test_two_editors_sign_in_and_the_second_save_on_one_claim_is_refused(team: Desk, chromium) -> None:
    run_id = Store(team.db).save_run(to_json(sample_report()), b"", "hand-built.md")
    ctx_a, a = _context(chromium)
    ctx_b, b = _context(chromium)
    try:
        claim = f"/review?run={run_id}&claim=c1"
        _sign_in(a, team, "ann", path=claim)
        _sign_in(b, team, "ben", path=claim)
        assert _signed_in_as(a) == "Signed in as Ann Editor (ann@example.org) — editor"
        assert _signed_in_as(b) == "Signed in as Ben Editor (Ben@Example.org) — editor"
        # The run link followed before signing in is where each lands after it.
        a.get_by_role("radiogroup", name="Decision").wait_for()
        b.get_by_role("radiogroup", name="Decision").wait_for()
        assert run_id in a.url and run_id in b.url
        a.get_by_role("button", name="Re-fetch this source").wait_for()  # an editor may re-check the run

        _choose(a, "Decision", "Accept")
        _stored(team, run_id, "c1", lambda d: d.decision == Choice.ACCEPT)
        _choose(b, "Decision", "Reject")  # B still shows the claim undecided
        _refused(b, "Ann Editor")
        b.get_by_text("Theirs: Decision Accepted").wait_for()
        b.get_by_text("Yours: Decision Rejected").wait_for()
        assert _stored(team, run_id, "c1", lambda d: True).decision == Choice.ACCEPT
        b.get_by_role("button", name="Put theirs aside and save mine").click()
        kept = _stored(team, run_id, "c1", lambda d: d.decision == Choice.REJECT)
        assert kept.decided_by == "Ben Editor"
        b.get_by_text("Saved.", exact=True).wait_for()  # the page drawn again after the save: the history is new
        # Named by its count: while the page is drawn again, the old expander ("1 change") may still stand.
        b.get_by_text("History of this decision (2 changes)").click()
        b.get_by_text("Ben Editor · Decision Accepted → Rejected").wait_for()
        b.get_by_text("Ann Editor · Decision No decision yet → Accepted").wait_for()
    finally:
        ctx_a.close()
        ctx_b.close()


def test_a_reader_signed_in_sees_the_decision_and_cannot_change_it(team: Desk, chromium) -> None:
    run_id = Store(team.db).save_run(to_json(sample_report()), b"", "hand-built.md")
    context, page = _context(chromium)
    try:
        _sign_in(page, team, "rita", path=f"/review?run={run_id}&claim=c1")
        assert _signed_in_as(page) == "Signed in as Rita Reader (rita@example.org) — read-only"
        page.get_by_text("you may read this desk but not record decisions").wait_for()
        page.get_by_text("ask the desk's administrator to add rita@example.org").wait_for()
        decision = page.get_by_role("radiogroup", name="Decision")
        decision.wait_for()
        radios = decision.locator("input[type=radio]")
        assert radios.count() == len(DECISION_CHOICES)
        assert [radios.nth(i).is_disabled() for i in range(len(DECISION_CHOICES))] == [True] * len(DECISION_CHOICES)
        assert page.get_by_label("Note").is_disabled()
        assert page.get_by_role("button", name="Re-fetch this source").count() == 0  # nor re-check the run
        with Store(team.db) as store:
            assert store.decisions(run_id) == []
    finally:
        context.close()


def test_a_group_member_may_decide_and_sign_out_returns_to_the_sign_in_page(team: Desk, chromium) -> None:
    context, page = _context(chromium)
    try:
        _sign_in(page, team, "gus")
        assert _signed_in_as(page) == "Signed in as Gus Checker (gus@example.org) — editor"
        page.get_by_role("button", name="Sign out").click()
        page.get_by_role("button", name="End session").click()  # the provider's own sign-out (end_session_endpoint)
        page.get_by_role("button", name="Sign in", exact=True).wait_for()
        assert page.get_by_text(NOT_SIGNED_IN).count() == 0  # signing out is no failed sign-in
        assert page.get_by_text("Signed in as").count() == 0
    finally:
        context.close()


def test_a_callback_with_a_state_the_desk_did_not_issue_signs_nobody_in(team: Desk, chromium) -> None:
    context, page = _context(chromium)
    try:
        _to_provider(page, team)  # a sign-in started, then a forged answer comes back instead of the provider's
        page.goto(f"{team.url}/oauth2callback?state=forged-state&code=forged-code")
        page.get_by_text(NOT_SIGNED_IN).wait_for()
        page.get_by_text("was not for a sign-in this browser started").wait_for()
        page.get_by_role("button", name="Sign in", exact=True).wait_for()
        assert page.get_by_text("Signed in as").count() == 0
        assert page.get_by_role("link", name="History").count() == 0  # no page of the desk is shown
    finally:
        context.close()


def test_a_callback_with_a_code_the_provider_did_not_issue_signs_nobody_in(team: Desk, chromium) -> None:
    context, page = _context(chromium)

    def forge(route) -> None:
        """Pass the provider's answer on with its code replaced: the redirect back to the desk carries a forged one."""
        if route.request.method != "POST":
            route.continue_()
            return
        answer = route.fetch(max_redirects=0)
        head, _, query = answer.headers["location"].partition("?")
        forged = "&".join("code=not-issued-by-it" if p.startswith("code=") else p for p in query.split("&"))
        assert forged != query  # the provider did send a code, and it is replaced
        route.fulfill(response=answer, headers={**answer.headers, "location": f"{head}?{forged}"})

    try:
        page.route("**/oauth2/authorize?**", forge)
        _sign_in(page, team, "ann")
        page.get_by_text(NOT_SIGNED_IN).wait_for()
        page.get_by_text("did not accept the sign-in code").wait_for()
        assert page.get_by_text("Signed in as").count() == 0
    finally:
        context.close()


# --------------------------------------------------------------------------- a desk of bad providers


@pytest.fixture(scope="module")
def bad(tmp_path_factory, idp: Provider) -> Iterator[Desk]:
    """A desk whose named providers each fail one way, beside a good one, and sign-ins that count 6 seconds."""
    with provider([ANN], token_life=timedelta(minutes=-10)) as stale, provider() as other, serve() as proxy:
        document = json.loads(urllib.request.urlopen(idp.metadata_url, timeout=5).read())
        other_keys = json.loads(urllib.request.urlopen(other.metadata_url, timeout=5).read())["jwks_uri"]
        # The real provider's endpoints, with another provider's keys published as its own.
        proxy.add("/otherkey", json.dumps({**document, "jwks_uri": other_keys}).encode(), "application/json")
        named = {
            "good": idp.metadata_url,
            "expired": stale.metadata_url,
            "otherkey": proxy.url("/otherkey"),
            # Free a moment ago and never listened on: connections to it are refused.
            "gone": f"http://127.0.0.1:{free_port()}/.well-known/openid-configuration",
        }
        running = _desk(tmp_path_factory, "bad", desk_secrets(named, verbatim={"sign_in_hours": 6 / 3600}))
        try:
            yield running
        finally:
            running.stop()


def test_an_id_token_that_had_expired_signs_nobody_in(bad: Desk, chromium) -> None:
    context, page = _context(chromium)
    try:
        _sign_in(page, bad, "ann", button="Sign in with expired")
        page.get_by_text(NOT_SIGNED_IN).wait_for()
        page.get_by_text("the identity token had already expired").wait_for()
        assert page.get_by_text("Signed in as").count() == 0
    finally:
        context.close()


def test_an_id_token_signed_by_another_key_signs_nobody_in(bad: Desk, chromium) -> None:
    context, page = _context(chromium)
    try:
        _sign_in(page, bad, "ann", button="Sign in with otherkey")
        page.get_by_text(NOT_SIGNED_IN).wait_for()
        page.get_by_text("was not signed with a key of the identity provider").wait_for()
        assert page.get_by_text("Signed in as").count() == 0
    finally:
        context.close()


def test_a_provider_that_cannot_be_reached_is_named_on_the_sign_in_page(bad: Desk, chromium) -> None:
    context, page = _context(chromium)
    try:
        page.goto(bad.url)
        page.get_by_role("button", name="Sign in with gone").click()
        page.get_by_text("Signing in with gone is not possible now").wait_for()
        page.get_by_text("could not be read (ConnectError)").wait_for()
        assert page.url.startswith(bad.url)
    finally:
        context.close()


def test_a_sign_in_older_than_the_desk_allows_asks_for_a_fresh_one(bad: Desk, chromium) -> None:
    context, page = _context(chromium)
    try:
        _sign_in(page, bad, "ann", button="Sign in with good")
        assert _signed_in_as(page).startswith("Signed in as Ann Editor")
        page.wait_for_timeout(7_000)  # the desk counts a sign-in for 6 seconds here
        page.reload()
        page.get_by_text("Your sign-in as Ann Editor ended at").wait_for()
        page.get_by_role("button", name="Sign in with good").wait_for()
        assert page.get_by_text("Signed in as").count() == 0
    finally:
        context.close()


def test_auth_without_a_cookie_secret_says_so_and_offers_no_sign_in(tmp_path_factory, idp: Provider, chromium) -> None:
    running = _desk(tmp_path_factory, "nosecret", desk_secrets(idp.metadata_url, drop=("cookie_secret",)))
    context, page = _context(chromium)
    try:
        page.goto(running.url)
        page.get_by_text("Sign-in is not set up correctly, so nobody can sign in").wait_for()
        page.get_by_text('missing the "cookie_secret" key').wait_for()
        assert page.get_by_role("button", name="Sign in").count() == 0
        assert page.get_by_role("link", name="History").count() == 0
    finally:
        context.close()
        running.stop()


def test_without_auth_the_desk_says_who_decisions_are_recorded_as(desk: Desk, watched) -> None:
    from ui.auth import single_user_note

    watched.page.goto(desk.url)
    watched.page.get_by_text(single_user_note()).wait_for()
    assert watched.page.get_by_role("button", name="Sign in").count() == 0
