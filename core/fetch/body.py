"""Reading a response body safely: bounded decoding, a size cap, and telling what the bytes are.

``decode_stream`` undoes gzip, deflate, brotli and zstd one bounded piece at a time, so a
small compressed body that would inflate to gigabytes (a "bomb") is stopped at the cap after
at most one piece more than the cap, never after inflating whole. httpx would decode too, but
a single compressed chunk can inflate without limit there, so the raw bytes are read and
decoded here. ``sniff`` and ``decide_type`` tell HTML, text, PDF and DOCX apart from what
the server claims, so a page that lies about its Content-Type gets read as what it is, or
refused with a reason. This module never opens connections and never extracts text.
"""

from __future__ import annotations

import itertools
import zlib
from collections.abc import Iterator
from dataclasses import dataclass

import brotli
import zstandard

from core.errors import DecodeError

#: Largest piece a decoder hands on at once: the bound on memory above the cap.
PIECE = 64 * 1024

HTML = "text/html"
TEXT = "text/plain"
PDF = "application/pdf"
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
#: Content types Verbatim reads (what H-extract's extract() handles), by family.
SUPPORTED = {
    HTML: HTML,
    "application/xhtml+xml": HTML,
    TEXT: TEXT,
    "text/markdown": TEXT,
    "text/x-markdown": TEXT,
    PDF: PDF,
    "application/x-pdf": PDF,
    DOCX: DOCX,
}
ENCODINGS = ("gzip", "x-gzip", "deflate", "br", "zstd", "identity")
ACCEPT_ENCODING = "gzip, deflate, br, zstd"
_NAMES = {HTML: "an HTML page", TEXT: "plain text", PDF: "a PDF", DOCX: "a Word document"}


# --------------------------------------------------------------------------- decoding


def _zlib_layer(upstream: Iterator[bytes], wbits: int, name: str) -> Iterator[bytes]:
    d = zlib.decompressobj(wbits)
    first = True
    for chunk in upstream:
        data = chunk
        while data:
            try:
                out = d.decompress(data, PIECE)
            except zlib.error as e:
                if first and name == "deflate" and wbits > 0:
                    # Some servers send raw deflate without the zlib header (httpx tolerates it too).
                    yield from _zlib_layer(itertools.chain([chunk], upstream), -zlib.MAX_WBITS, name)
                    return
                raise DecodeError(f"the {name} data is corrupt ({e})") from None
            first = False
            if out:
                yield out
            data = d.unconsumed_tail
            if not data and d.eof and d.unused_data:
                # Concatenated gzip members are one body (RFC 1952, 2.2).
                data, d = d.unused_data, zlib.decompressobj(wbits)
    tail = d.flush()
    if tail:
        yield tail


def _brotli_layer(upstream: Iterator[bytes]) -> Iterator[bytes]:
    d = brotli.Decompressor()
    try:
        for chunk in upstream:
            out = d.process(chunk, output_buffer_limit=PIECE)
            if out:
                yield out
            while not d.can_accept_more_data():
                out = d.process(b"", output_buffer_limit=PIECE)
                if not out:
                    break
                yield out
        # Output held back by the limit comes out only when asked for, also after the last input.
        while not d.is_finished():
            out = d.process(b"", output_buffer_limit=PIECE)
            if not out:
                break
            yield out
    except brotli.error as e:
        raise DecodeError(f"the brotli data is corrupt ({e})") from None


class _IterReader:
    """A file-like view of an iterator of chunks, for zstandard's pull-style reader."""

    def __init__(self, upstream: Iterator[bytes]) -> None:
        self._it = upstream
        self._buf = b""

    def read(self, size: int = -1) -> bytes:
        while size < 0 or len(self._buf) < size:
            nxt = next(self._it, None)
            if nxt is None:
                break
            self._buf += nxt
        if size < 0:
            out, self._buf = self._buf, b""
        else:
            out, self._buf = self._buf[:size], self._buf[size:]
        return out


def _zstd_layer(upstream: Iterator[bytes]) -> Iterator[bytes]:
    source = _IterReader(upstream)  # duck-typed file: zstandard only calls read()
    reader = zstandard.ZstdDecompressor().stream_reader(
        source,  # type: ignore[arg-type]
        read_size=PIECE,
        read_across_frames=True,
    )
    try:
        while True:
            out = reader.read(PIECE)
            if not out:
                return
            yield out
    except zstandard.ZstdError as e:
        raise DecodeError(f"the zstd data is corrupt ({e})") from None


def decode_stream(raw: Iterator[bytes], content_encoding: str) -> Iterator[bytes]:
    """Return the decoded body as pieces of at most PIECE bytes; raise DecodeError for unknown or broken data."""
    codings = [c.strip().lower() for c in content_encoding.split(",") if c.strip()]
    stream = raw
    # Codings are listed in the order they were applied: undo them last first.
    for coding in reversed(codings):
        if coding in ("gzip", "x-gzip"):
            stream = _zlib_layer(stream, 16 + zlib.MAX_WBITS, "gzip")
        elif coding == "deflate":
            stream = _zlib_layer(stream, zlib.MAX_WBITS, "deflate")
        elif coding == "br":
            stream = _brotli_layer(stream)
        elif coding == "zstd":
            stream = _zstd_layer(stream)
        elif coding != "identity":
            raise DecodeError(f"the server compressed the page with {coding!r}, which Verbatim cannot undo")
    return stream


# --------------------------------------------------------------------------- what the bytes are


def mime_of(content_type: str) -> str:
    """Return the bare media type of a Content-Type value, lower-case ("" when empty)."""
    return content_type.split(";", 1)[0].strip().lower()


def sniff(head: bytes) -> str:
    """Return what the first bytes of a body are: a SUPPORTED type, "binary", or "" when unsure."""
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if b"%PDF-" in head[:1024]:
        return PDF
    if start.startswith(b"PK\x03\x04"):
        return DOCX if (b"word/" in head or b"[Content_Types].xml" in head) else "binary"
    lowered = start[:1024].lower()
    if lowered.startswith((b"<!doctype html", b"<html", b"<head", b"<body", b"<!--", b"<?xml")) and (
        b"<html" in head[:4096].lower() or b"<body" in head[:4096].lower() or b"<!doctype html" in lowered
    ):
        return HTML
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return TEXT  # UTF-16 with a byte-order mark
    if not head:
        return ""
    controls = sum(1 for b in head if b < 9 or 13 < b < 32)
    if b"\x00" in head or controls > len(head) // 100:
        return "binary"
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as e:
        if e.start < len(head) - 4:  # a character cut at the end of the sniffed piece is fine
            return TEXT  # a legacy 8-bit charset: still text
    return TEXT


@dataclass(frozen=True, kw_only=True)
class TypeDecision:
    """The content type a body is read as, a note when the server's claim was overruled, or a refusal."""

    content_type: str
    note: str = ""
    refusal: str = ""


def decide_type(declared: str, head: bytes) -> TypeDecision:
    """Return what to read the body as, trusting the bytes over a Content-Type that contradicts them."""
    mime = mime_of(declared)
    family = SUPPORTED.get(mime)
    found = sniff(head)
    said = f"The server called it {mime}" if mime else "The server did not say what it sent"
    if family is not None:
        if found in (PDF, DOCX) and found != family:
            return TypeDecision(content_type=found, note=f"{said}, but it is {_NAMES[found]}; read as {_NAMES[found]}.")
        if found == "binary" and family in (HTML, TEXT):
            return TypeDecision(
                content_type=declared,
                refusal=f"{said}, but the bytes are not text (an image or other binary file):"
                " open the link in a browser and supply the source yourself.",
            )
        return TypeDecision(content_type=declared)
    if found in SUPPORTED:
        return TypeDecision(content_type=found, note=f"{said}, but it is {_NAMES[found]}; read as {_NAMES[found]}.")
    what = mime or "an unnamed binary type"
    return TypeDecision(
        content_type=declared,
        refusal=f"The source is {what}, which Verbatim cannot read (it reads HTML, plain text, PDF and DOCX):"
        " supply the text yourself.",
    )
