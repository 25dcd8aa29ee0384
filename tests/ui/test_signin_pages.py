"""AppTest tests of the desk with sign-in configured: the gate, the sidebar, and a reader refused on the server side.

Streamlit reads a real secrets.toml written for each test (its ``secrets.files`` option points
at it); the signed-in user is AppTest's ``user``, as st.user would hold after st.login. A
reader's change is sent to the widget as if the disabled widget had been bypassed: the
store must still hold nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit import config
from streamlit.runtime.secrets import secrets_singleton

from tests.ui.test_pages import _app, _no_exceptions, _open, _plain, _saved_run, _store

SECRETS = """[auth]
redirect_uri = "http://127.0.0.1:8501/oauth2callback"
cookie_secret = "a-cookie-secret-long-enough-for-tests"
client_id = "verbatim-desk"
client_secret = "not-a-real-secret"
server_metadata_url = "http://127.0.0.1:9/.well-known/openid-configuration"

[verbatim]
editors = ["ann@example.org"]
"""
ANN = {"is_logged_in": True, "name": "Ann Editor", "email": "ann@example.org", "sub": "ann"}
RITA = {"is_logged_in": True, "name": "Rita Reader", "email": "rita@example.org", "sub": "rita"}


def _secrets(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    config.set_option("secrets.files", [str(path)])
    secrets_singleton._reset()  # Streamlit parses secrets.toml once; this test's file is read afresh


@pytest.fixture
def team_secrets(tmp_path: Path) -> Iterator[Path]:
    before = config.get_option("secrets.files")
    path = tmp_path / "secrets.toml"
    _secrets(path, SECRETS)
    try:
        yield path
    finally:
        config.set_option("secrets.files", before)
        secrets_singleton._reset()


#: The desk's clock in these tests (ui.auth.now), so that a sign-in's age is the test's to set.
NOW = 1_800_000_000


@pytest.fixture(autouse=True)
def _clock(monkeypatch: pytest.MonkeyPatch) -> None:
    from ui import auth

    monkeypatch.setattr(auth, "now", lambda: float(NOW))


def _as(user: dict, run_id: str = "", signed_in_hours_ago: float = 0.1):
    at = _app()
    at.user = {**user, "iat": int(NOW - signed_in_hours_ago * 3600)}
    if run_id:
        at.query_params["run"] = run_id
        at.query_params["claim"] = "c1"
    return at.run()


def _sidebar(at) -> list[str]:
    return [_plain(c.value) for c in at.sidebar.caption]


def test_nobody_sees_a_page_before_signing_in(team_secrets: Path) -> None:
    run_id = _saved_run()
    at = _app()
    at.user = {"is_logged_in": False}
    at.query_params["run"] = run_id
    at.run()
    _no_exceptions(at)
    assert [b.label for b in at.button] == ["Sign in"]
    assert at.title[0].value == "Verbatim review desk"
    assert not at.text_area and not at.radio  # neither the Check page nor the run


def test_an_editor_signed_in_is_named_in_the_sidebar_and_decides(team_secrets: Path) -> None:
    run_id = _saved_run()
    at = _as(ANN, run_id)
    _no_exceptions(at)
    assert "Signed in as Ann Editor (ann@example.org) — editor" in _sidebar(at)
    at.radio(key=f"dec|{run_id}|c1|choice").set_value("reject").run()
    assert [d.decision for d in _store().decisions(run_id)] == ["reject"]


def test_a_reader_sees_the_decision_widgets_disabled_and_a_forged_change_is_discarded(team_secrets: Path) -> None:
    run_id = _saved_run()
    at = _as(RITA, run_id)
    _no_exceptions(at)
    assert "Signed in as Rita Reader (rita@example.org) — read-only" in _sidebar(at)
    choice = at.radio(key=f"dec|{run_id}|c1|choice")
    assert choice.disabled and at.text_area(key=f"dec|{run_id}|c1|note").disabled
    assert any("you may read this desk but not record decisions" in _plain(i.value) for i in at.info)
    # A client that ignores "disabled" (a hand-made websocket message) sends the change anyway: AppTest's own
    # set_value refuses a disabled widget, so the value is put where set_value puts it. Streamlit drops it.
    choice._value = "Accept"
    at.run()
    assert _store().decisions(run_id) == []


def test_a_change_from_someone_no_longer_on_the_editor_list_is_refused_by_the_desk(team_secrets: Path) -> None:
    run_id = _saved_run()
    at = _as(ANN, run_id)
    choice = at.radio(key=f"dec|{run_id}|c1|choice")
    assert not choice.disabled  # drawn while Ann may decide
    _secrets(team_secrets, SECRETS.replace("ann@example.org", "ben@example.org"))  # the list changed meanwhile
    choice.set_value("accept").run()
    _no_exceptions(at)
    assert _store().decisions(run_id) == []  # the widget was enabled when drawn: save_change is what refuses
    assert f"Not saved: {_refusal(ANN)}" in [_plain(c.value) for c in at.caption]
    assert at.radio(key=f"dec|{run_id}|c1|choice").disabled and at.radio(key=f"dec|{run_id}|c1|choice").value == ""


def _refusal(user: dict) -> str:
    from ui.auth import Editor, EditorRule, refusal

    who = Editor(name=user["name"], email=user["email"], may_decide=False, signed_in=True)
    return refusal(who, EditorRule(editors=frozenset({"ben@example.org"})))


def test_a_sign_in_older_than_the_desk_allows_shows_the_sign_in_page(team_secrets: Path) -> None:
    at = _as(ANN, signed_in_hours_ago=13)
    _no_exceptions(at)
    assert any("Your sign-in as Ann Editor ended at" in _plain(w.value) for w in at.warning)
    assert [b.label for b in at.button] == ["Sign in"]


def test_a_malformed_editor_list_stops_every_sign_in_with_what_to_fix(team_secrets: Path) -> None:
    _secrets(team_secrets, SECRETS.replace('editors = ["ann@example.org"]', "editors = 3"))
    at = _as(ANN)
    _no_exceptions(at)
    assert [_plain(e.value) for e in at.error] == [
        "Sign-in is not set up correctly, so nobody can sign in: editors under [verbatim] in "
        ".streamlit/secrets.toml must be a list of strings."
    ]
    assert not at.button


def test_a_provider_that_cannot_be_reached_is_said_before_any_trip_there(team_secrets: Path) -> None:
    at = _app()
    at.user = {"is_logged_in": False}
    at.run()
    at.button(key="signin|default").click().run()
    _no_exceptions(at)
    assert any(
        "Signing in with default is not possible now: its discovery document at "
        "http://127.0.0.1:9/.well-known/openid-configuration could not be read (ConnectError)" in _plain(e.value)
        for e in at.error
    )


def test_without_auth_the_sidebar_says_the_desk_is_single_user() -> None:
    from ui.auth import single_user_note

    at = _open(_saved_run())
    _no_exceptions(at)
    assert _sidebar(at) == [single_user_note()]
