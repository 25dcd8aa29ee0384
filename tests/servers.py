"""Real HTTP servers on loopback for tests: they serve corpus files and canned answers.

Tests never reach the internet (STYLE.md, 8): every server here binds 127.0.0.x only.
"""

from __future__ import annotations

import gzip
import http.server
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
DATA = Path(__file__).resolve().parent / "data"


@dataclass
class Reply:
    """A canned answer: status, headers and body (or a handler writing its own answer)."""

    body: bytes = b""
    status: int = 200
    headers: dict[str, str] = field(default_factory=lambda: {"Content-Type": "text/html; charset=utf-8"})
    handler: Callable[[http.server.BaseHTTPRequestHandler], None] | None = None


class LoopbackServer:
    """A threaded HTTP server on 127.0.0.x; ``routes`` maps a path to a Reply."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.routes: dict[str, Reply] = {}
        self.requests: list[str] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                outer.requests.append(self.path)
                path = self.path.split("#")[0]
                # A route with a query string matches exactly; otherwise the bare path does.
                reply = outer.routes.get(path) or outer.routes.get(path.split("?")[0])
                if reply is None:
                    reply = Reply(b"<h1>Not Found</h1>", status=404)
                if reply.handler is not None:
                    reply.handler(self)
                    return
                self.send_response(reply.status)
                for k, v in reply.headers.items():
                    self.send_header(k, v)
                if "Content-Length" not in reply.headers and "Transfer-Encoding" not in reply.headers:
                    self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                self.wfile.write(reply.body)

            def log_message(self, format: str, *args: object) -> None:  # keep test output clean
                pass

        self.httpd = http.server.ThreadingHTTPServer((host, 0), Handler)
        self.httpd.daemon_threads = True
        self.host = host
        self.port = self.httpd.server_address[1]
        # A short poll interval: stopping the server waits for one poll, and tests stop many.
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def url(self, path: str) -> str:
        """Return the full URL of a path on this server."""
        return f"http://{self.host}:{self.port}{path}"

    def add(
        self,
        path: str,
        body: bytes,
        content_type: str = "text/html; charset=utf-8",
        *,
        gzipped: bool = False,
        status: int = 200,
        headers: dict[str, str] | None = None,
    ) -> str:
        """Serve body at path (gzip-encoded on the wire when asked); return its URL."""
        h = {"Content-Type": content_type, **(headers or {})}
        if gzipped:
            body = gzip.compress(body)
            h["Content-Encoding"] = "gzip"
        self.routes[path] = Reply(body, status, h)
        return self.url(path)

    def start(self) -> LoopbackServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@contextmanager
def serve(host: str = "127.0.0.1") -> Iterator[LoopbackServer]:
    """Run a LoopbackServer for the length of a with-block."""
    server = LoopbackServer(host).start()
    try:
        yield server
    finally:
        server.stop()


def corpus_bytes(relative: str) -> bytes:
    """Return a corpus file's bytes, gunzipped when its name ends in .gz."""
    raw = (CORPUS / relative).read_bytes()
    return gzip.decompress(raw) if relative.endswith(".gz") else raw
