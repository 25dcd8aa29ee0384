"""The sign-in gate: with [auth] configured, nobody sees a page of the desk before signing in.

gate() runs first on every page. Unconfigured, it does nothing (the single-user desk).
Configured, it shows the sign-in page and stops the run until st.user holds a sign-in that
still counts: the provider's buttons, and a clear message when the settings cannot work
(Streamlit's own check of [auth], a provider whose discovery document cannot be read), when
the last sign-in of this browser did not complete (ui.signin_watch) or when it is too old.
who_am_i() draws the sidebar's line and the sign-out button. It refuses to judge an ID
token itself: Streamlit and Authlib validate it, and a sign-in they refuse never reaches st.user.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import httpx
import streamlit as st

from ui import auth, draw, signin_watch

#: The provider's discovery document is read before the trip there: Streamlit answers a provider it
#: cannot reach with a bare "Authentication error" page instead of the desk's.
DISCOVERY_TIMEOUT = 5.0
#: Names of well-known providers for the buttons; any other section name is shown as written.
PROVIDER_NAMES = {"google": "Google", "microsoft": "Microsoft", "entra": "Microsoft Entra ID", "keycloak": "Keycloak"}
_NOTICE = "vb_signin_notice"
_RETURN = ("run", "claim")


def providers(table: Mapping[str, Any]) -> list[str]:
    """Return the provider names of an [auth] table: "default" for its own keys, then each named table."""
    named = [k for k, v in table.items() if isinstance(v, Mapping) and k != "client_kwargs"]
    own = any(k in table for k in ("client_id", "client_secret", "server_metadata_url"))
    return (["default"] if own or not named else []) + named


def config_problem(table: Mapping[str, Any]) -> str:
    """Return why the [auth] settings cannot sign anyone in (Streamlit's own check, worded for the desk), or ""."""
    from streamlit.auth_util import is_authlib_installed, validate_auth_credentials
    from streamlit.errors import StreamlitAuthError

    if not is_authlib_installed():
        return "Authlib is not installed in the desk's Python: run make setup (requirements.txt pins it)."
    redirect = str(table.get("redirect_uri", ""))
    for name in providers(table):
        try:
            validate_auth_credentials(name)
        except StreamlitAuthError as exc:
            return " ".join(str(exc).split()).replace("Please check your configuration.", "").strip()
    if not redirect.endswith("/oauth2callback"):
        return f"redirect_uri in [auth] must be the desk's URL followed by /oauth2callback (it is {redirect!r})."
    try:
        auth.rule()
    except auth.SignInConfigError as exc:
        return str(exc)
    return ""


def _section(table: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    section = table.get(name)
    return section if isinstance(section, Mapping) else table


def discovery_problem(url: str) -> str:
    """Return why the provider's discovery document at url cannot be used, or "" when it can."""
    try:
        reply = httpx.get(url, timeout=DISCOVERY_TIMEOUT, follow_redirects=True)
        reply.raise_for_status()
        document = reply.json()
    except httpx.HTTPStatusError as exc:
        return f"its discovery document at {url} answered {exc.response.status_code}"
    except httpx.HTTPError as exc:
        return f"its discovery document at {url} could not be read ({type(exc).__name__})"
    except ValueError:
        return f"its discovery document at {url} is not JSON"
    if not isinstance(document, dict) or not document.get("authorization_endpoint"):
        return f"its discovery document at {url} names no authorization_endpoint"
    return ""


def _label(name: str) -> str:
    return "Sign in" if name == "default" else f"Sign in with {PROVIDER_NAMES.get(name, name)}"


def _go(table: Mapping[str, Any], name: str, key: str) -> None:
    url = str(_section(table, name).get("server_metadata_url", ""))
    problem = discovery_problem(url)
    if problem:
        st.session_state[_NOTICE] = (
            f"Signing in with {PROVIDER_NAMES.get(name, name)} is not possible now: {problem}. "
            "Try again in a moment; if it persists, ask the desk's administrator to check server_metadata_url "
            "in [auth] of .streamlit/secrets.toml."
        )
        return
    signin_watch.started(key, {k: st.query_params[k] for k in _RETURN if st.query_params.get(k)})
    st.login(name)


def _when(stamp: float) -> str:
    return datetime.fromtimestamp(stamp, UTC).strftime("%H:%M UTC on %d %B %Y")


def _page(table: Mapping[str, Any], problem: str, note: str) -> None:
    st.title("Verbatim review desk")
    st.markdown("This desk is shared by a newsroom: sign in with your newsroom account to read and decide.")
    if problem:
        st.error(draw.md(f"Sign-in is not set up correctly, so nobody can sign in: {problem}"))
        st.caption("The desk's administrator can fix this in .streamlit/secrets.toml and restart the desk.")
        return
    if note:
        st.warning(draw.md(note))
    notice = st.session_state.pop(_NOTICE, "")
    if notice:
        st.error(draw.md(notice))
    key = signin_watch.browser_key(dict(st.context.cookies))
    for name in providers(table):
        if st.button(_label(name), key=f"signin|{name}", type="primary"):
            _go(table, name, key)
            if _NOTICE in st.session_state:
                st.rerun()


def gate() -> None:
    """Stop the run at the sign-in page unless sign-in is unconfigured or st.user holds a sign-in that counts."""
    table = auth.auth_table()
    if table is None:
        return
    signin_watch.install()
    problem = config_problem(table)
    key = signin_watch.browser_key(dict(st.context.cookies))
    claims = auth.user_claims()
    note = ""
    if not problem and claims:
        ended = auth.expired_at(claims, auth.rule(), auth.now())
        if ended is None:
            _, return_to = signin_watch.finished(key)
            for name, value in return_to.items():  # the run link the editor followed before signing in
                st.query_params.setdefault(name, value)
            return
        note = (
            f"Your sign-in as {auth.display_name(claims)} ended at {_when(ended)}: the desk asks for a fresh sign-in "
            f"every {auth.rule().sign_in_hours:g} hours. Sign in again to go on; nothing you saved is lost."
        )
    elif not problem and signin_watch.pending(key):
        why, _ = signin_watch.finished(key)
        if why is not None:
            said = f": {why}." if why else "."
            note = f"Your sign-in did not complete{said} You are not signed in; sign in again."
            st.session_state["vb_signin_note"] = note
    note = note or st.session_state.get("vb_signin_note", "")
    _page(table, problem, note)
    st.stop()


def who_am_i() -> None:
    """Draw who is at the desk in the sidebar: the signed-in user and a sign-out button, or the single-user note."""
    with st.sidebar:
        if not auth.sign_in_configured():
            st.caption(draw.md(auth.single_user_note()))
            return
        who = auth.editor()
        email = f" ({who.email})" if who.email and who.email != who.name else ""
        role = "editor" if who.may_decide else "read-only"
        st.caption(draw.md(f"Signed in as {who.name}{email} — {role}"))
        if st.button("Sign out", key="vb_signout"):
            st.logout()
