"""Canned answers and servers for the fetcher's tests and benchmark, all on loopback.

Compressed corpus pages (gzip, deflate, brotli, zstd), chunked, dribbling and stalling
answers, decompression bombs, endless bodies, redirects, answer sequences (429 then 200),
a concurrency counter, a server on ::1 and a TLS server with a throw-away certificate, and a
fake clock for the fetcher (tests assert what it decided, never how long it took).
Every server binds 127.0.0.x or ::1 (STYLE.md, 8).
"""

from __future__ import annotations

import functools
import gzip
import http.server
import shutil
import socket
import ssl
import subprocess
import threading
import time
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import brotli
import httpcore
import zstandard

from tests.servers import LoopbackServer, Reply, corpus_bytes

Handler = http.server.BaseHTTPRequestHandler

#: Real pages served in the tests: name -> (corpus path, content type).
PAGES = {
    "pep-0632": ("html/python/peps/pep-0632.html", "text/html; charset=utf-8"),
    "whatsnew-3.11": ("html/python/whatsnew/3.11.html", "text/html; charset=utf-8"),
    "wikipedia-dog": ("html/wikipedia/Dog.html.gz", "text/html; charset=utf-8"),
    "kroger-pdf": ("pdf/gold/kroger-press-release-2023.pdf", "application/pdf"),
    "hyperlinks-docx": (
        "docx/python-docx/par-hyperlinks.docx",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ),
}


@functools.lru_cache(maxsize=16)
def page(name: str) -> tuple[bytes, str]:
    """Return a named corpus page's bytes and content type."""
    path, ctype = PAGES[name]
    return corpus_bytes(path), ctype


def encode(body: bytes, coding: str) -> bytes:
    """Return body compressed as coding ("deflate-raw" is deflate without the zlib header)."""
    if coding == "gzip":
        return gzip.compress(body)
    if coding == "deflate":
        return zlib.compress(body)
    if coding == "deflate-raw":
        c = zlib.compressobj(wbits=-zlib.MAX_WBITS)
        return c.compress(body) + c.flush()
    if coding == "br":
        return bytes(brotli.compress(body, quality=5))
    if coding == "zstd":
        return bytes(zstandard.ZstdCompressor().compress(body))
    if coding == "identity":
        return body
    raise ValueError(coding)


def encoded(body: bytes, content_type: str, coding: str) -> Reply:
    """Return a reply carrying body compressed with coding, Content-Encoding set."""
    headers = {"Content-Type": content_type}
    if coding != "identity":
        headers["Content-Encoding"] = "deflate" if coding == "deflate-raw" else coding
    return Reply(encode(body, coding), headers=headers)


@functools.lru_cache(maxsize=8)
def bomb(coding: str, decoded_mb: int) -> bytes:
    """Return a compressed body that inflates to decoded_mb megabytes of blank HTML (text, so it is read)."""
    mb = b" " * (1 << 20)
    if coding == "gzip":
        c = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)  # level 9: the densest bomb
        return b"".join(c.compress(mb) for _ in range(decoded_mb)) + c.flush()
    if coding == "br":
        b = brotli.Compressor(quality=5)
        return b"".join(bytes(b.process(mb)) for _ in range(decoded_mb)) + bytes(b.finish())
    if coding == "zstd":
        z = zstandard.ZstdCompressor(level=3).compressobj()
        return b"".join(z.compress(mb) for _ in range(decoded_mb)) + z.flush()
    if coding == "deflate":
        c = zlib.compressobj(9)
        return b"".join(c.compress(mb) for _ in range(decoded_mb)) + c.flush()
    raise ValueError(coding)


def _quiet(write: Callable[[Handler], None]) -> Callable[[Handler], None]:
    """Return a handler that treats the client hanging up as the end of the answer."""

    def handler(h: Handler) -> None:
        try:
            write(h)
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError, OSError):
            h.close_connection = True

    return handler


def chunked(body: bytes, content_type: str, pieces: int = 7, pause: float = 0.01) -> Reply:
    """Return a reply sending body with Transfer-Encoding: chunked, in pieces with pauses."""

    def write(h: Handler) -> None:
        h.send_response(200)
        h.send_header("Content-Type", content_type)
        h.send_header("Transfer-Encoding", "chunked")
        h.end_headers()
        step = max(1, len(body) // pieces + 1)
        for i in range(0, len(body), step):
            part = body[i : i + step]
            h.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
            h.wfile.flush()
            time.sleep(pause)
        h.wfile.write(b"0\r\n\r\n")

    return Reply(handler=_quiet(write))


def dribble(length: int = 10_000, every: float = 0.5, *, headers_too: bool = False) -> Reply:
    """Return a reply that sends one byte every ``every`` seconds (the body, or the headers too)."""

    def write(h: Handler) -> None:
        head = (
            f"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {length}\r\n\r\n".encode()
            if headers_too
            else b""
        )
        if not headers_too:
            h.send_response(200)
            h.send_header("Content-Type", "text/html")
            h.send_header("Content-Length", str(length))
            h.end_headers()
            h.wfile.flush()
        for i in range(len(head) + length):
            h.wfile.write(head[i : i + 1] if i < len(head) else b"x")
            h.wfile.flush()
            time.sleep(every)

    return Reply(handler=_quiet(write))


def stall(after_headers: bool = True, seconds: float = 30.0) -> Reply:
    """Return a reply that goes silent (after the headers, or before answering at all)."""

    def write(h: Handler) -> None:
        if after_headers:
            h.send_response(200)
            h.send_header("Content-Type", "text/html")
            h.send_header("Content-Length", "1000")
            h.end_headers()
            h.wfile.write(b"<p>")
            h.wfile.flush()
        time.sleep(seconds)

    return Reply(handler=_quiet(write))


def endless(total: int, *, declare_length: bool, content_type: str = "text/plain") -> Reply:
    """Return a reply streaming ``total`` bytes of text, with or without Content-Length."""
    block = (b"All work and no play makes Jack a dull boy. " * 24000)[: 1 << 20]

    def write(h: Handler) -> None:
        h.send_response(200)
        h.send_header("Content-Type", content_type)
        if declare_length:
            h.send_header("Content-Length", str(total))
        else:
            h.send_header("Connection", "close")
        h.end_headers()
        sent = 0
        while sent < total:
            part = block[: total - sent]
            h.wfile.write(part)
            sent += len(part)

    return Reply(handler=_quiet(write))


def redirect(location: str, status: int = 302) -> Reply:
    """Return a redirect to location."""
    return Reply(b"", status=status, headers={"Location": location, "Content-Type": "text/plain"})


def sequence(replies: Sequence[Reply]) -> Reply:
    """Return a reply that answers the n-th request with replies[n] (the last one repeats)."""
    count = [0]
    lock = threading.Lock()

    def write(h: Handler) -> None:
        with lock:
            i = min(count[0], len(replies) - 1)
            count[0] += 1
        r = replies[i]
        h.send_response(r.status)
        for k, v in r.headers.items():
            h.send_header(k, v)
        h.send_header("Content-Length", str(len(r.body)))
        h.end_headers()
        h.wfile.write(r.body)

    return Reply(handler=_quiet(write))


class Gauge:
    """Counts requests in flight on a server and remembers the most seen at once."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.now = 0
        self.peak = 0
        self.headers: list[dict[str, str]] = []

    def delayed(self, body: bytes, delay: float, content_type: str = "text/html; charset=utf-8") -> Reply:
        """Return a reply that waits ``delay`` seconds before answering body, counted by this gauge."""

        def write(h: Handler) -> None:
            with self.lock:
                self.now += 1
                self.peak = max(self.peak, self.now)
                self.headers.append({k.lower(): v for k, v in h.headers.items()})
            try:
                time.sleep(delay)
                h.send_response(200)
                h.send_header("Content-Type", content_type)
                h.send_header("Content-Length", str(len(body)))
                h.end_headers()
                h.wfile.write(body)
                h.wfile.flush()
            finally:
                with self.lock:
                    self.now -= 1

        return Reply(handler=_quiet(write))


class V6Server(LoopbackServer):
    """A LoopbackServer listening on ::1 instead of 127.0.0.1."""

    def __init__(self) -> None:
        super().__init__("127.0.0.1")
        handler = self.httpd.RequestHandlerClass
        self.httpd.server_close()

        class Server6(http.server.ThreadingHTTPServer):
            address_family = socket.AF_INET6
            daemon_threads = True

        self.httpd = Server6(("::1", 0), handler)
        self.host = "::1"
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def url(self, path: str) -> str:
        return f"http://[::1]:{self.port}{path}"


class TLSServer(LoopbackServer):
    """A LoopbackServer speaking HTTPS with a certificate for ``name``; records the SNI names it was sent."""

    def __init__(self, cert: Path, key: Path) -> None:
        super().__init__("127.0.0.1")
        self.sni: list[str | None] = []
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(cert, key)

        def on_sni(sock: ssl.SSLObject, name: str | None, c: ssl.SSLContext) -> None:
            self.sni.append(name)

        ctx.sni_callback = on_sni  # type: ignore[assignment]
        self.httpd.socket = ctx.wrap_socket(self.httpd.socket, server_side=True)


def make_certificate(directory: Path, name: str) -> tuple[Path, Path] | None:
    """Write a self-signed certificate for name with the openssl tool; None when openssl is missing."""
    tool = shutil.which("openssl")
    if tool is None:
        return None
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        [tool, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN={name}",
         "-addext", f"subjectAltName=DNS:{name}", "-addext", "basicConstraints=critical,CA:TRUE",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


def quick(server: LoopbackServer) -> LoopbackServer:
    """Return server set to notice a stop within 50 ms (serve_forever polls every 0.5 s by default)."""
    server.thread = threading.Thread(target=server.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    return server


@contextmanager
def running(server: LoopbackServer) -> Iterator[LoopbackServer]:
    """Run a server for the length of a with-block."""
    quick(server).start()
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def serve_quick(host: str = "127.0.0.1") -> Iterator[LoopbackServer]:
    """Run a LoopbackServer on host for the length of a with-block, stopping quickly."""
    with running(LoopbackServer(host)) as server:
        yield server


# --------------------------------------------------------------------------- stub name resolution

#: A public address used only as a label: the stub connector below routes it to loopback.
PUBLIC = "93.184.215.14"


class StubNet:
    """A resolver and connector for tests: names map to the addresses given, and a connect to
    PUBLIC goes to a loopback server; a connect to anything else fails the test."""

    def __init__(self, names: dict[str, list[list[str]]], loopback_port: int | None = None) -> None:
        self.names = names  # host -> one address list per successive lookup (the last repeats)
        self.lookups: list[str] = []
        self.connects: list[tuple[str, int]] = []
        self.loopback_port = loopback_port

    def resolve(self, host: str, port: int) -> list[str]:
        from core.fetch.netguard import NameNotFound

        self.lookups.append(host)
        answers = self.names.get(host)
        if not answers:
            raise NameNotFound(host, "stub: no such name")
        n = self.lookups.count(host) - 1
        return answers[min(n, len(answers) - 1)]

    def connect(self, address: str, port: int, timeout: float | None) -> httpcore.NetworkStream:
        self.connects.append((address, port))
        if address == PUBLIC and self.loopback_port is not None:
            return httpcore.SyncBackend().connect_tcp("127.0.0.1", self.loopback_port, timeout=timeout)
        import pytest

        pytest.fail(f"the fetcher tried to connect to {address}:{port}, outside loopback")


# --------------------------------------------------------------------------- a fake clock


class FakeClock:
    """A clock for the fetcher (core.fetch.clock.Clock) that never waits.

    Its time moves by ``tick`` at every look and by every sleep asked for; ``sleeps`` records
    those sleeps, so a test asserts the waits the fetcher decided on instead of timing them.
    """

    def __init__(self, *, tick: float = 0.0, wall: float = 1_764_442_800.0) -> None:
        self.t = 0.0
        self.tick = tick
        self.start_wall = wall  # 2025-11-29 19:00 UTC: HTTP dates are read against it
        self.sleeps: list[float] = []
        self.looks = 0
        self.lock = threading.Lock()

    def now(self) -> float:
        with self.lock:
            self.looks += 1
            self.t += self.tick
            return self.t

    def wall(self) -> float:
        with self.lock:
            return self.start_wall + self.t

    def sleep(self, seconds: float) -> None:
        with self.lock:
            self.sleeps.append(seconds)
            self.t += seconds

    def advance(self, seconds: float) -> None:
        """Move the time on (as a slow network would), without it counting as a sleep."""
        with self.lock:
            self.t += seconds


class Timeouts:
    """A connector (for Fetcher or GuardedBackend) that records the timeout given to every connect,
    read and write, then does them with ``inner`` (by default a real TCP connection)."""

    def __init__(self, inner: Callable[[str, int, float | None], httpcore.NetworkStream] | None = None) -> None:
        from core.fetch.netguard import system_connector

        self.inner = inner or system_connector
        self.seen: list[tuple[str, float | None]] = []

    def __call__(self, address: str, port: int, timeout: float | None) -> httpcore.NetworkStream:
        self.seen.append(("connect", timeout))
        return _Recorded(self.inner(address, port, timeout), self.seen)

    def longest(self) -> float:
        """Return the longest timeout any step was given (inf when one was given none)."""
        return max(float("inf") if t is None else t for _, t in self.seen)


class _Recorded(httpcore.NetworkStream):
    def __init__(self, inner: httpcore.NetworkStream, seen: list[tuple[str, float | None]]) -> None:
        self.inner = inner
        self.seen = seen

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        self.seen.append(("read", timeout))
        return self.inner.read(max_bytes, timeout)

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self.seen.append(("write", timeout))
        self.inner.write(buffer, timeout)

    def close(self) -> None:
        self.inner.close()

    def get_extra_info(self, info: str) -> object:
        return self.inner.get_extra_info(info)
