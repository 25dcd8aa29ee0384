"""Who is at the desk: the signed-in editor (OpenID Connect through st.login) or, unconfigured, the local user.

editor() is the one answer every page and every save asks: a name to record decisions
under, and whether this person may record them. Without an [auth] table in
.streamlit/secrets.toml the desk is the single-user desk it always was, and decisions are
recorded as the operating-system user running it. With one, only a signed-in user is at the
desk; the editor list ([verbatim] editors / editor_groups, or VERBATIM_EDITORS) says who may
decide, and everyone else signed in may read. It refuses to decide who may read a run: every
signed-in user may read. The rule itself (may_decide) is plain Python on the identity
token's claims, so it is tested without Streamlit.
"""

from __future__ import annotations

import getpass
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import streamlit as st

#: Where the editor list lives, named in every message that sends someone to change it.
WHERE = "editors under [verbatim] in .streamlit/secrets.toml, or VERBATIM_EDITORS"
#: A working day: Streamlit keeps its identity cookie for 30 days whatever the provider said, so
#: the desk asks for a fresh sign-in once the provider's sign-in is older than this.
SIGN_IN_HOURS = 12.0


@dataclass(frozen=True, kw_only=True)
class Editor:
    """The person at the desk: name is what decisions are recorded as; may_decide says whether they may."""

    name: str
    email: str = ""
    may_decide: bool = True
    signed_in: bool = False


@dataclass(frozen=True)
class EditorRule:
    """Who may record decisions: addresses (lower case), groups, the claim the groups come in, and whom to ask."""

    editors: frozenset[str] = frozenset()
    groups: frozenset[str] = frozenset()
    groups_claim: str = "groups"
    contact: str = ""
    sign_in_hours: float = SIGN_IN_HOURS

    @property
    def everyone(self) -> bool:
        """Return True when no list is configured: every signed-in user may decide."""
        return not self.editors and not self.groups


class SignInConfigError(ValueError):
    """The desk's sign-in settings cannot be used; the message says which one and how to fix it."""


def now() -> float:
    """Return the desk's clock, seconds since the epoch (one place, so that tests can set it)."""
    return time.time()


def local_user() -> str:
    """Return the operating-system user running the desk (the author of a single-user desk's decisions)."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no passwd entry and no LOGNAME/USER: a container's anonymous uid
        return "local user"


def single_user_note() -> str:
    """Return the desk's word that no sign-in is configured, naming who decisions are recorded as."""
    return f"Single-user desk: decisions are recorded as {local_user()}."


# --------------------------------------------------------------------------- the rule


def _names(value: Any, key: str) -> frozenset[str]:
    if value is None:
        return frozenset()
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise SignInConfigError(f"{key} under [verbatim] in .streamlit/secrets.toml must be a list of strings.")
    return frozenset(v.strip().lower() if key == "editors" else v.strip() for v in value if v.strip())


def rule_from(table: Mapping[str, Any], env: Mapping[str, str]) -> EditorRule:
    """Return the editor rule of a [verbatim] table and the environment; SignInConfigError when it is malformed."""
    claim = table.get("groups_claim", "groups")
    if not isinstance(claim, str) or not claim.strip():
        raise SignInConfigError("groups_claim under [verbatim] in .streamlit/secrets.toml must be a claim name.")
    hours = table.get("sign_in_hours", SIGN_IN_HOURS)
    if isinstance(hours, bool) or not isinstance(hours, int | float) or hours <= 0:
        raise SignInConfigError("sign_in_hours under [verbatim] in .streamlit/secrets.toml must be a number above 0.")
    contact = table.get("contact", "")
    return EditorRule(
        editors=_names(table.get("editors"), "editors") | _names(env.get("VERBATIM_EDITORS", ""), "editors"),
        groups=_names(table.get("editor_groups"), "editor_groups"),
        groups_claim=claim.strip(),
        contact=contact.strip() if isinstance(contact, str) else "",
        sign_in_hours=float(hours),
    )


def claim_groups(claims: Mapping[str, Any], claim: str) -> frozenset[str]:
    """Return the groups a user's claims carry in claim (a list, or one string of names)."""
    value = claims.get(claim)
    if isinstance(value, str):
        return frozenset(value.replace(",", " ").split())
    if isinstance(value, list | tuple):
        return frozenset(str(v) for v in value)
    return frozenset()


def verified_email(claims: Mapping[str, Any]) -> str:
    """Return the user's address in lower case, or "" when the provider says it is not verified."""
    email = claims.get("email")
    if not isinstance(email, str) or claims.get("email_verified") in (False, "false"):
        # An address the provider has not verified could be anyone's: it never makes an editor.
        return ""
    return email.strip().lower()


def may_decide(claims: Mapping[str, Any], rule: EditorRule) -> bool:
    """Return whether a signed-in user with these claims may record decisions under the rule."""
    if rule.everyone:
        return True
    if verified_email(claims) in rule.editors - {""}:
        return True
    return bool(claim_groups(claims, rule.groups_claim) & rule.groups)


def display_name(claims: Mapping[str, Any]) -> str:
    """Return the name decisions are recorded as: the name claim, else the address, else the subject."""
    for key in ("name", "preferred_username", "email", "sub"):
        value = claims.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return "signed-in user"


def signed_in_at(claims: Mapping[str, Any]) -> float | None:
    """Return when the provider signed the user in (auth_time, else the token's iat), or None when unsaid."""
    for key in ("auth_time", "iat"):
        value = claims.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
    return None


def expired_at(claims: Mapping[str, Any], rule: EditorRule, now: float) -> float | None:
    """Return when the sign-in stopped counting, or None while it still counts."""
    start = signed_in_at(claims)
    if start is None:
        return now  # a sign-in that does not say when it happened cannot be aged: ask for a fresh one
    end = start + rule.sign_in_hours * 3600
    return end if now >= end else None


def refusal(who: Editor, rule: EditorRule) -> str:
    """Return what a user who may not decide is told: who they are signed in as and who can add them."""
    if not who.signed_in:
        return "You are not signed in: sign in to record decisions."
    email = f" ({who.email})" if who.email and who.email != who.name else ""
    ask = rule.contact or "the desk's administrator"
    group = ""
    if rule.groups:
        group = f", or to one of the groups {', '.join(sorted(rule.groups))}"
    address = who.email or who.name
    return (
        f"Signed in as {who.name}{email}: you may read this desk but not record decisions. "
        f"To decide, ask {ask} to add {address} to the desk's editors ({WHERE}){group}."
    )


# --------------------------------------------------------------------------- the desk's settings


def _secrets(key: str) -> Mapping[str, Any] | None:
    """Return a table of .streamlit/secrets.toml, or None when there is no such file or table."""
    if not st.secrets.load_if_toml_exists():  # a secrets.toml that does not parse: Streamlit logs why
        return None
    table = st.secrets.get(key)
    return table if isinstance(table, Mapping) else None


def auth_table() -> Mapping[str, Any] | None:
    """Return the [auth] table (sign-in is configured exactly when there is one), or None."""
    return _secrets("auth")


def sign_in_configured() -> bool:
    """Return True when the desk has an [auth] table: every page then needs a signed-in user."""
    return auth_table() is not None


def rule() -> EditorRule:
    """Return the desk's editor rule; SignInConfigError when [verbatim] is malformed."""
    return rule_from(_secrets("verbatim") or {}, os.environ)


def configured_editors() -> list[str]:
    """Return the addresses the desk's editor list names ([verbatim] editors, VERBATIM_EDITORS), sorted; [] when none.

    A group's members ([verbatim] editor_groups) are known only from their sign-in: the desk has no directory.
    """
    try:
        return sorted(rule().editors - {""})
    except SignInConfigError:
        return []


def user_claims() -> dict[str, Any]:
    """Return the signed-in user's claims (st.user), or {} when nobody is signed in."""
    info = st.user.to_dict()  # {} outside a script run
    return dict(info) if info.get("is_logged_in") else {}


def editor() -> Editor:
    """Return who is at the desk now; with sign-in configured, nobody signed in (or expired) may decide."""
    if not sign_in_configured():
        return Editor(name=local_user())
    claims = user_claims()
    try:
        desk_rule = rule()
    except SignInConfigError:
        desk_rule = None
    if not claims or desk_rule is None or expired_at(claims, desk_rule, now()) is not None:
        return Editor(name="not signed in", may_decide=False, signed_in=False)
    email = claims.get("email") if isinstance(claims.get("email"), str) else ""
    return Editor(
        name=display_name(claims), email=email.strip(), may_decide=may_decide(claims, desk_rule), signed_in=True
    )


def refusal_now() -> str:
    """Return the refusal for whoever is at the desk now (the message save_change and the widgets give)."""
    try:
        desk_rule = rule()
    except SignInConfigError:
        desk_rule = EditorRule()
    return refusal(editor(), desk_rule)
