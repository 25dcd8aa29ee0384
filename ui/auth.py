"""Who is at the desk: the signed-in editor (OpenID Connect through st.login) or, unconfigured, the local user.

``editor()`` is the one answer every page and every save asks: a name to record decisions
under, and whether this person may record them. Without sign-in configured the desk is the
single-user desk it always was, and decisions are recorded as the operating-system user
running it. It refuses to decide who may read a run: every signed-in user may read.
"""

from __future__ import annotations

import getpass
from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class Editor:
    """The person at the desk: ``name`` is what decisions are recorded as; ``may_decide`` says whether they may."""

    name: str
    email: str = ""
    may_decide: bool = True
    signed_in: bool = False


def local_user() -> str:
    """Return the operating-system user running the desk (the author of a single-user desk's decisions)."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no passwd entry and no LOGNAME/USER: a container's anonymous uid
        return "local user"


def editor() -> Editor:
    """Return who is at the desk now."""
    return Editor(name=local_user())


def single_user_note() -> str:
    """Return the desk's word that no sign-in is configured, naming who decisions are recorded as."""
    return f"Single-user desk: decisions are recorded as {local_user()}."
