"""The desk's server (`make run`): Streamlit's own server for ui/app.py, with one fix to the page it sends.

Opened at a page's path (``/review?run=ID``, ``/report``, ``/history``), Streamlit's frontend guesses where
its server is: first at that path (``/review/_stcore/health``, ``/review/_stcore/host-config``, both 404,
logged in the browser's console), then at the root. The page it sends here names the server's root
(``window.__streamlit.BACKEND_BASE_URL``, the frontend's own setting for it), so the frontend asks the
root only. It imports the desk's modules as it starts (``WARM``), so that no editor's first page pays
for them. Nothing else of the server changes. It refuses to serve any route of its own.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import streamlit as st
from starlette.middleware import Middleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

HERE = Path(__file__).resolve().parent
# `streamlit run ui/server.py` puts ui/ on the path, not the project root that holds core/ (as in app.py).
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))
#: Imported when the server starts, not by the first page that needs them: the Review page's imports
#: (PyMuPDF and the checker behind ui.claim_view) took 0.7 s of the first run opened on a fresh desk.
WARM = ("ui.state", "ui.signin", "ui.pending", "ui.claim_view", "ui.assignment", "ui.run_options", "core.store")


def _pin(base: str) -> bytes:
    """Return the script that tells Streamlit's frontend its server is at the root (under base, server.baseUrlPath)."""
    root = "/" + base.strip("/") + "/" if base.strip("/") else "/"
    # The frontend reads window.__streamlit once, when its module runs (after the page is parsed).
    return (
        "<script>window.__streamlit = Object.assign(window.__streamlit || {}, "
        f"{{BACKEND_BASE_URL: window.location.origin + {json.dumps(root)}}});</script>"
    ).encode()


def _is_page(path: str) -> bool:
    """Return True for a path the frontend's HTML page answers (a page's path, the root, index.html)."""
    last = path.rstrip("/").rsplit("/", 1)[-1]
    return "/_stcore/" not in path and "/static/" not in path and ("." not in last or last == "index.html")


class PinnedBackend:
    """ASGI middleware: the frontend's HTML page (index.html, sent for every page path) gets the pin in its head."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "GET" or not _is_page(scope["path"]):
            await self.app(scope, receive, send)
            return
        from streamlit import config

        pin = _pin(str(config.get_option("server.baseUrlPath") or ""))
        # The page itself is small: sent whole, so that no compression stands between it and the pin, and never
        # as "not modified", so that a copy cached before the pin is not kept.
        dropped = (b"accept-encoding", b"if-none-match", b"if-modified-since")
        scope = {**scope, "headers": [(k, v) for k, v in scope["headers"] if k.lower() not in dropped]}
        start: Message | None = None
        chunks: list[bytes] = []

        async def patched(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = dict(message.get("headers", []))
                if headers.get(b"content-type", b"").startswith(b"text/html") and b"content-encoding" not in headers:
                    start = message
                    return
            if start is None:
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body"):
                return
            body = b"".join(chunks).replace(b"<head>", b"<head>" + pin, 1)
            headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
            await send({**start, "headers": [*headers, (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})

        await self.app(scope, receive, patched)


@asynccontextmanager
async def warm(_app: object) -> AsyncIterator[None]:
    """Import the desk's modules (WARM) before the server answers its first request."""
    for name in WARM:
        importlib.import_module(name)
    yield None


app = st.App(HERE / "app.py", middleware=[Middleware(PinnedBackend)], lifespan=warm)
