"""Who may decide (the editor list and the group claim) and why a sign-in failed, on plain claims and log records.

The rule is ui.auth's plain functions on an ID token's claims; the reasons are ui.signin_watch's
reading of the records Streamlit's /oauth2callback logs, built here with the real exception
classes Authlib, joserfc and httpx raise.
"""

from __future__ import annotations

import logging
import sys

import httpx
import pytest
from authlib.integrations.base_client.errors import OAuthError
from joserfc.errors import BadSignatureError, ExpiredTokenError, InvalidClaimError, InvalidKeyIdError

from ui import auth, signin_watch
from ui.auth import Editor, EditorRule, SignInConfigError, may_decide, rule_from

TEAM = EditorRule(editors=frozenset({"ann@example.org"}), groups=frozenset({"fact-checkers"}))


def test_the_list_comes_from_the_verbatim_table_and_the_environment_in_lower_case() -> None:
    rule = rule_from(
        {"editors": ["Ann@Example.org"], "editor_groups": ["desk"], "groups_claim": "roles"},
        {"VERBATIM_EDITORS": " ben@example.org , Cleo@example.org"},
    )
    assert rule.editors == {"ann@example.org", "ben@example.org", "cleo@example.org"}
    assert (rule.groups, rule.groups_claim, rule.sign_in_hours) == ({"desk"}, "roles", auth.SIGN_IN_HOURS)
    assert rule_from({}, {}).everyone


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"editors": 3}, "editors under [verbatim] in .streamlit/secrets.toml must be a list of strings."),
        (
            {"editor_groups": [1]},
            "editor_groups under [verbatim] in .streamlit/secrets.toml must be a list of strings.",
        ),
        ({"groups_claim": ""}, "groups_claim under [verbatim] in .streamlit/secrets.toml must be a claim name."),
        ({"sign_in_hours": 0}, "sign_in_hours under [verbatim] in .streamlit/secrets.toml must be a number above 0."),
    ],
)
def test_a_malformed_verbatim_table_is_refused_with_what_to_fix(table, message) -> None:
    with pytest.raises(SignInConfigError) as caught:
        rule_from(table, {})
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("claims", "decides"),
    [
        ({"email": "ann@example.org"}, True),
        ({"email": "ANN@example.org", "email_verified": True}, True),
        ({"email": "ann@example.org", "email_verified": False}, False),  # anyone could claim an unverified address
        ({"email": "gus@example.org", "groups": ["fact-checkers", "sports"]}, True),
        ({"email": "gus@example.org", "groups": "sports fact-checkers"}, True),
        ({"email": "rita@example.org", "groups": ["sports"]}, False),
        ({"email": "rita@example.org"}, False),
        ({}, False),
    ],
)
def test_who_may_decide_on_a_team_desk(claims, decides) -> None:
    assert may_decide(claims, TEAM) is decides


def test_the_group_claim_is_the_one_named() -> None:
    rule = EditorRule(groups=frozenset({"editor"}), groups_claim="roles")
    assert may_decide({"roles": ["editor"]}, rule)
    assert not may_decide({"groups": ["editor"]}, rule)


def test_without_a_list_every_signed_in_user_decides() -> None:
    assert may_decide({"email": "anyone@example.org"}, EditorRule())


@pytest.mark.parametrize(
    ("claims", "name"),
    [
        ({"name": "Ann Editor", "email": "ann@example.org"}, "Ann Editor"),
        ({"name": "  ", "email": "ann@example.org"}, "ann@example.org"),
        ({"preferred_username": "ann"}, "ann"),
        ({"sub": "3f2a"}, "3f2a"),
        ({}, "signed-in user"),
    ],
)
def test_the_name_decisions_are_recorded_as_is_never_empty(claims, name) -> None:
    assert auth.display_name(claims) == name


def test_a_sign_in_counts_for_the_desk_s_hours_from_when_the_provider_signed_the_user_in() -> None:
    rule = EditorRule(sign_in_hours=12)
    now = 1_800_000_000.0
    assert auth.expired_at({"iat": now - 3600}, rule, now) is None
    assert auth.expired_at({"iat": now - 13 * 3600}, rule, now) == now - 3600
    assert auth.expired_at({"auth_time": now - 13 * 3600, "iat": now}, rule, now) == now - 3600
    assert auth.expired_at({}, rule, now) == now  # a sign-in that does not say when cannot be aged


def test_a_reader_is_told_who_they_are_signed_in_as_and_who_can_add_them() -> None:
    reader = Editor(name="Rita Reader", email="rita@example.org", may_decide=False, signed_in=True)
    assert auth.refusal(reader, TEAM) == (
        "Signed in as Rita Reader (rita@example.org): you may read this desk but not record decisions. "
        "To decide, ask the desk's administrator to add rita@example.org to the desk's editors (editors under "
        "[verbatim] in .streamlit/secrets.toml, or VERBATIM_EDITORS), or to one of the groups fact-checkers."
    )
    rule = EditorRule(editors=frozenset({"ann@example.org"}), contact="the night editor")
    assert "ask the night editor to add rita@example.org" in auth.refusal(reader, rule)


def test_the_single_user_desk_records_decisions_as_the_local_user() -> None:
    assert auth.editor() == Editor(name=auth.local_user())  # no [auth]: outside Streamlit, no secrets.toml
    assert auth.single_user_note() == f"Single-user desk: decisions are recorded as {auth.local_user()}."


# --------------------------------------------------------------------------- why a sign-in failed


def _record(message: str, *args: object, exc: BaseException | None = None) -> logging.LogRecord:
    info = (type(exc), exc, exc.__traceback__) if exc is not None else None
    return logging.LogRecord(signin_watch.AUTH_LOGGER, logging.WARNING, __file__, 1, message, args, info)


def _raised(exc: BaseException) -> BaseException:
    try:
        raise exc
    except BaseException:
        return sys.exc_info()[1]  # type: ignore[return-value]


EXCHANGE = "OAuth token exchange failed for provider '%s'. Clearing auth cookies."


@pytest.mark.parametrize(
    ("record", "why"),
    [
        (_record("Missing provider for OAuth callback; this often indicates a stale"), signin_watch.NOT_ISSUED),
        (_record(EXCHANGE, "default", exc=_raised(BadSignatureError())), signin_watch.BAD_SIGNATURE),
        (_record(EXCHANGE, "default", exc=_raised(InvalidKeyIdError())), signin_watch.BAD_SIGNATURE),
        (_record(EXCHANGE, "default", exc=_raised(ExpiredTokenError("exp"))), signin_watch.TOKEN_EXPIRED),
        (
            _record(EXCHANGE, "default", exc=_raised(InvalidClaimError("aud"))),
            "the identity token was not issued for this desk (its aud claim is wrong)",
        ),
        (_record(EXCHANGE, "default", exc=_raised(OAuthError("invalid_grant"))), signin_watch.CODE_REFUSED),
        (_record(EXCHANGE, "default", exc=_raised(httpx.ConnectError("refused"))), signin_watch.UNREACHABLE),
        (
            _record("Error during authentication: %s. Error description: %s", "access_denied", None),
            "the sign-in was cancelled or refused at the identity provider",
        ),
        (_record("Redirect URI does not end with /oauth2callback"), None),
    ],
)
def test_streamlit_s_callback_log_becomes_the_editor_s_reason(record, why) -> None:
    assert signin_watch.reason(record) == why


def test_a_failure_is_told_only_to_the_browser_that_started_a_sign_in() -> None:
    signin_watch.install()
    signin_watch.started("browser-a", {"run": "r1"})
    logging.getLogger(signin_watch.AUTH_LOGGER).warning("Missing provider for OAuth callback; replayed")
    assert signin_watch.finished("browser-b") == (None, {})
    assert signin_watch.finished("browser-a") == (signin_watch.NOT_ISSUED, {"run": "r1"})
    assert signin_watch.finished("browser-a") == (None, {})  # told once


def test_a_browser_is_known_by_its_xsrf_token_however_the_cookie_is_masked() -> None:
    from streamlit.web.server.starlette.starlette_app_utils import generate_xsrf_token_string

    token = b"0123456789abcdef"
    first, second = generate_xsrf_token_string(token, 1), generate_xsrf_token_string(token, 1)
    assert first != second  # masked afresh on every page load
    key = signin_watch.browser_key({"_streamlit_xsrf": first})
    assert key == signin_watch.browser_key({"_streamlit_xsrf": second}) != ""
    assert signin_watch.browser_key({}) == ""
