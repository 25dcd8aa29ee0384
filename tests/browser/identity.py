"""A real OpenID Connect provider on loopback for sign-in tests (oidc-provider-mock), and the desk's secrets for it.

The provider is the package's own Flask app served by werkzeug on 127.0.0.1 in a thread: its
discovery document, authorize form, token endpoint and JWKS are real, and it signs ID tokens
with its own RSA key. A test names the users it offers (sub and claims); the authorize form
shows a button for each. Nothing here reaches anything but loopback.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import werkzeug.serving
from oidc_provider_mock import User, app


@dataclass(frozen=True)
class Provider:
    """A running provider: its issuer URL and its discovery document's URL."""

    url: str

    @property
    def metadata_url(self) -> str:
        return f"{self.url}/.well-known/openid-configuration"


class _Quiet(werkzeug.serving.WSGIRequestHandler):
    def log_request(self, *args: Any, **kwargs: Any) -> None:  # keep test output clean
        pass


@contextmanager
def provider(users: Sequence[User] = (), *, token_life: timedelta = timedelta(hours=1)) -> Iterator[Provider]:
    """Run an OpenID Connect provider on a free loopback port offering these users; stop it afterwards."""
    flask_app = app(user_claims=users, access_token_max_age=token_life, require_nonce=True)
    server = werkzeug.serving.make_server("127.0.0.1", 0, flask_app, threaded=True, request_handler=_Quiet)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield Provider(f"http://127.0.0.1:{server.server_port}")
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def person(sub: str, name: str, email: str, **claims: Any) -> User:
    """Return a user the provider offers: a subject, a name, an address and any other claims (groups...)."""
    return User(sub=sub, claims={"name": name, "email": email, **claims})


def _toml(value: Any) -> str:
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    return "[" + ", ".join(_toml(v) for v in value) + "]"


def desk_secrets(
    metadata: str | Mapping[str, str], *, verbatim: Mapping[str, Any] | None = None, drop: tuple[str, ...] = ()
) -> str:
    """Return a secrets.toml signing the desk in at a provider's discovery URL, or at named ones (name -> URL).

    ``{port}`` in redirect_uri is the desk's own, filled in by Streamlit; ``drop`` leaves [auth] keys out.
    """
    shared = {"redirect_uri": "http://127.0.0.1:{port}/oauth2callback", "cookie_secret": secrets.token_urlsafe(32)}

    def client(url: str) -> dict[str, Any]:
        return {"client_id": "verbatim-desk", "client_secret": secrets.token_urlsafe(16), "server_metadata_url": url}

    tables: dict[str, dict[str, Any]] = {"auth": shared}
    if isinstance(metadata, str):
        shared.update(client(metadata))
    else:
        tables.update({f"auth.{name}": client(url) for name, url in metadata.items()})
    if verbatim:
        tables["verbatim"] = dict(verbatim)
    lines: list[str] = []
    for title, table in tables.items():
        lines += [f"[{title}]", *(f"{k} = {_toml(v)}" for k, v in table.items() if k not in drop), ""]
    return "\n".join(lines)
