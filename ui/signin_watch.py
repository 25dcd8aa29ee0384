"""Why a sign-in did not complete: Streamlit's own callback log, read back for the browser that started it.

Streamlit's /oauth2callback answers every failure (a state or code the provider did not issue,
an ID token that Authlib refuses, the provider's own error) the same way: a redirect to the
desk's root with no word of what happened, and the reason only in its log. This module keeps
a log handler on that logger, turns each failure into a sentence an editor can act on, and
remembers which browser started a sign-in (by the token of its XSRF cookie, which outlives
the trip to the provider), so that the sign-in page that browser lands on can say why. It
refuses to show a sentence to a browser that started no sign-in, and never shows the log's
own text (it may carry a provider's error description).
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections import deque
from dataclasses import dataclass

#: The logger of Streamlit's auth routes (streamlit.web.server.starlette.starlette_auth_routes).
AUTH_LOGGER = "streamlit.web.server.starlette.starlette_auth_routes"
#: A sign-in left at the provider longer than this is not waited for any more.
ATTEMPT_SECONDS = 30 * 60

NOT_ISSUED = (
    "the answer that came back to the desk was not for a sign-in this browser started (an old, replayed or "
    "forged sign-in link)"
)
CODE_REFUSED = "the identity provider did not accept the sign-in code it was sent (it did not issue it, or it was used)"
BAD_SIGNATURE = "the identity token was not signed with a key of the identity provider"
TOKEN_EXPIRED = "the identity token had already expired (check that the clocks of the desk and the provider agree)"  # noqa: S105 - a sentence, not a password
NOT_FOR_DESK = "the identity token was not issued for this desk"
UNREACHABLE = "the identity provider could not be reached"
MISCONFIGURED = "the desk's redirect_uri in [auth] of .streamlit/secrets.toml is not a full URL"
NO_USER = "the identity provider said nothing about who you are"


@dataclass(frozen=True)
class Failure:
    """One sign-in that did not complete: when, and why in the editor's words."""

    at: float
    why: str


_lock = threading.Lock()
_failures: deque[Failure] = deque(maxlen=200)
_attempts: dict[str, tuple[float, dict[str, str]]] = {}


def _exception_reason(exc: BaseException | None) -> str:
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:  # the cause chain: httpx errors come wrapped
        seen.add(id(exc))
        names = {cls.__name__ for cls in type(exc).__mro__}
        if names & {"BadSignatureError", "InvalidKeyIdError", "DecodeError", "UnsupportedAlgorithmError"}:
            return BAD_SIGNATURE
        if "ExpiredTokenError" in names:
            return TOKEN_EXPIRED
        if names & {"InvalidClaimError", "MissingClaimError", "InvalidTokenError"}:
            claim = getattr(exc, "claim", "") or getattr(exc, "claim_name", "") or ""
            return f"{NOT_FOR_DESK} (its {claim} claim is wrong)" if claim else NOT_FOR_DESK
        if "MismatchingStateError" in names:
            return NOT_ISSUED
        if "OAuthError" in names:
            error = getattr(exc, "error", "") or ""
            return CODE_REFUSED if error in ("invalid_grant", "invalid_request", "") else f"{CODE_REFUSED}: {error}"
        if names & {"TransportError", "ConnectError", "TimeoutException", "OSError"}:
            return UNREACHABLE
        exc = exc.__cause__ or exc.__context__
    return "the desk could not read the identity provider's answer"


def reason(record: logging.LogRecord) -> str | None:
    """Return the editor's sentence for one record of Streamlit's auth log, or None when it is no failure."""
    msg = record.getMessage()
    if msg.startswith("Missing provider for OAuth callback"):
        return NOT_ISSUED
    if msg.startswith("OAuth token exchange failed"):
        return _exception_reason(record.exc_info[1] if record.exc_info else None)
    if msg.startswith("Error during authentication:"):
        error = str(record.args[0]) if isinstance(record.args, tuple) and record.args else ""
        if error == "access_denied":
            return "the sign-in was cancelled or refused at the identity provider"
        return "the identity provider answered with an error" + (f" ({error[:60]})" if error.isidentifier() else "")
    if msg.startswith("Error, misconfigured origin"):
        return MISCONFIGURED
    if "did not return user information" in msg:
        return NO_USER
    return None


class _Watch(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        try:
            why = reason(record)
        except (AttributeError, IndexError, TypeError, ValueError):  # never break the request it logs
            return
        if why:
            with _lock:
                _failures.append(Failure(record.created, why))


def install() -> None:
    """Start watching Streamlit's auth log (once per process)."""
    logger = logging.getLogger(AUTH_LOGGER)
    if not any(isinstance(h, _Watch) for h in logger.handlers):
        logger.addHandler(_Watch(level=logging.WARNING))


def browser_key(cookies: dict[str, str]) -> str:
    """Return a key for this browser from its XSRF cookie's token (stable across page loads), or ""."""
    raw = cookies.get("_streamlit_xsrf", "")
    if not raw:
        return ""
    try:  # the cookie is re-masked on each page load; its token underneath stays
        from streamlit.web.server.starlette.starlette_app_utils import decode_xsrf_token_string

        token, _ = decode_xsrf_token_string(raw)
    except ImportError:
        token = None
    return hashlib.sha256(token or raw.encode("latin-1", "replace")).hexdigest()


def started(key: str, return_to: dict[str, str]) -> None:
    """Remember that this browser went to the provider to sign in, and where it wanted to be."""
    if key:
        with _lock:
            _attempts[key] = (time.time(), return_to)


def finished(key: str) -> tuple[str | None, dict[str, str]]:
    """Forget this browser's sign-in; return why it failed (None: no attempt; "": no reason) and where it was going."""
    with _lock:
        attempt = _attempts.pop(key, None) if key else None
        if attempt is None or time.time() - attempt[0] > ATTEMPT_SECONDS:
            return None, attempt[1] if attempt else {}
        since = [f for f in _failures if f.at >= attempt[0]]
    return (since[-1].why if since else ""), attempt[1]


def pending(key: str) -> bool:
    """Return True when this browser started a sign-in that has not come back yet."""
    with _lock:
        return bool(key) and key in _attempts
