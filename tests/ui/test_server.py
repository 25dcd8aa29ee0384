"""ui/server.py's one change to Streamlit's server: the frontend's page names the server's root (issue 24, 7).

The middleware runs on a small ASGI app standing for Streamlit's static files: the HTML page sent for a
page's path gets the pin in its head (whole, uncompressed, with its length right); anything else, and the
server's own routes, pass untouched. The real browser test (tests/browser/test_accessibility.py) shows that
a deep link then asks no page path for _stcore/health.
"""

from __future__ import annotations

from typing import Any

import anyio

from ui.server import PinnedBackend

PAGE = b"<!DOCTYPE html><html><head><title>Streamlit</title></head><body></body></html>"


def _serve(path: str, body: bytes, content_type: bytes, headers: list[tuple[bytes, bytes]]) -> tuple[dict, bytes, list]:
    seen: list[list[tuple[bytes, bytes]]] = []
    sent: list[dict[str, Any]] = []

    async def app(scope, receive, send) -> None:
        seen.append(scope["headers"])
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", content_type), (b"content-length", str(len(body)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": body[:10], "more_body": True})
        await send({"type": "http.response.body", "body": body[10:]})

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request"}

    scope = {"type": "http", "method": "GET", "path": path, "headers": headers}
    anyio.run(PinnedBackend(app), scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    return start, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body"), seen[0]


def test_the_page_sent_for_a_page_path_names_the_server_s_root() -> None:
    asked = [(b"accept-encoding", b"gzip"), (b"if-none-match", b'"x"'), (b"accept", b"text/html")]
    start, body, forwarded = _serve("/review", PAGE, b"text/html; charset=utf-8", asked)
    assert body.startswith(b"<!DOCTYPE html><html><head><script>window.__streamlit = Object.assign(")
    assert b'BACKEND_BASE_URL: window.location.origin + "/"' in body and body.endswith(
        PAGE[len(b"<!DOCTYPE html><html><head>") :]
    )
    assert dict(start["headers"])[b"content-length"] == str(len(body)).encode()
    assert forwarded == [(b"accept", b"text/html")]  # sent whole and fresh: no compression, no "not modified"


def test_scripts_and_the_server_s_own_routes_pass_untouched() -> None:
    script = b"console.log('<head>')"
    for path, body, kind in (
        ("/static/js/index.js", script, b"text/javascript"),
        ("/_stcore/health", b"ok", b"text/html"),
    ):
        _, sent, forwarded = _serve(path, body, kind, [(b"accept-encoding", b"gzip")])
        assert sent == body and forwarded == [(b"accept-encoding", b"gzip")]
