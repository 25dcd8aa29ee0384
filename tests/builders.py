"""Builders shared by the tests: corpus pages as the checker reads them, hand-made records, every().

Records are built with keywords only, with a fixed time, so that two builds of the same thing
compare equal and a test reads what each field is. ``every`` is how a test says "each of
these holds": unlike a bare ``assert all(...)`` it fails on an empty collection, which proves
nothing, and it names the first item that does not hold. Test case data (whole reports, the
desk's records) lives beside its tests and is built from these.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import sys
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import lxml.html

from core.brief import parse_markdown
from core.cli import main
from core.extract import extract, extract_html
from core.match import PreparedPage, prepare
from core.models import (
    BriefFormat,
    Claim,
    ClaimResult,
    Context,
    Figure,
    FigureStatus,
    Fragment,
    PageText,
    QuoteMatch,
    Report,
    Source,
    SourceStatus,
    Verdict,
)
from core.samples import SAMPLE_BRIEF
from tests.servers import CORPUS, LoopbackServer, corpus_bytes

T = TypeVar("T")

#: The time every hand-built record carries (ISO 8601, UTC).
CHECKED_AT = "2026-11-29T18:02:14Z"


# --------------------------------------------------------------------------- every


def every(items: Iterable[T], holds: Callable[[T], object]) -> None:
    """Fail unless items holds at least one item and holds(item) is true for each; name the first that fails."""
    seen = list(items)
    if not seen:
        raise AssertionError("every() over an empty collection: the check would hold for nothing and prove nothing")
    for i, item in enumerate(seen):
        if not holds(item):
            raise AssertionError(f"item {i} of {len(seen)} does not hold: {item!r}")


# --------------------------------------------------------------------------- corpus pages


@functools.cache
def corpus_page(relative: str) -> PreparedPage:
    """Return a corpus HTML page or PDF (a path under ../shared/corpus/, gunzipped if .gz) extracted and prepared."""
    if relative.endswith(".pdf"):
        page = extract(corpus_bytes(relative), "application/pdf")
        assert isinstance(page, PageText), page
        return prepare(page)
    return prepare(extract_html(corpus_bytes(relative), "text/html"))


@functools.cache
def corpus_text(relative: str) -> str:
    """Return a corpus file's visible text, white space collapsed (not the extractor's: an independent reading).

    HTML is read by lxml without scripts and styles; the aeb ground truth (JSON) gives its article
    bodies joined; any other file (a gold PDF text) is read as it is.
    """
    path = CORPUS / relative
    if relative.endswith(".json"):
        bodies = (str(a.get("articleBody", "")) for a in json.loads(path.read_text("utf-8")).values())
        text = " ".join(bodies)
    elif relative.endswith((".html", ".html.gz")):
        root = lxml.html.fromstring(corpus_bytes(relative))
        for bad in root.xpath("//script|//style"):
            bad.drop_tree()
        text = root.text_content()
    else:
        text = path.read_text(encoding="utf-8")
    return " ".join(text.split())


def locate(text: str, words: str) -> tuple[int, int]:
    """Return the span of words in text; fails loudly when the text does not hold them."""
    start = text.find(words)
    assert start >= 0, f"the page text does not hold {words!r}"
    return start, start + len(words)


# --------------------------------------------------------------------------- records


def source(url: str, body: bytes = b"", *, status: SourceStatus = SourceStatus.OK, **fields: object) -> Source:
    """Return a Source; an ok one as a fetched HTML page (status 200, the body's sha256), else a failure."""
    ok = status is SourceStatus.OK
    values: dict[str, object] = {
        "final_url": url,
        "http_status": 200 if ok else None,
        "content_type": "text/html; charset=utf-8" if ok else "",
        "body": body,
        "sha256": hashlib.sha256(body).hexdigest() if ok else "",
        "fetched_at": CHECKED_AT,
    }
    values.update(fields)
    return Source(url=url, status=status, **values)  # type: ignore[arg-type]


def claim(id: str, text: str, url: str, quote: str | None = None, **fields: object) -> Claim:
    """Return a Claim (keywords for the rest: figure_text, anchor, location)."""
    return Claim(id=id, text=text, url=url, quote=quote, **fields)  # type: ignore[arg-type]


def found_match(quote: str, text: str, **fields: object) -> QuoteMatch:
    """Return the match of a quote found whole in text, at its place there (flags and the rest by keyword)."""
    start, end = locate(text, quote)
    in_main = fields.pop("in_main", None)
    fragment = Fragment(text=quote, found=True, span=(start, end), in_main=in_main)  # type: ignore[arg-type]
    return QuoteMatch(quote=quote, fragments=(fragment,), **fields)  # type: ignore[arg-type]


def lost_match(quote: str) -> QuoteMatch:
    """Return the match of a quote the matcher did not find."""
    return QuoteMatch(quote=quote, fragments=(Fragment(text=quote, found=False),))


def context_for(text: str, spans: list[tuple[int, int]], chars: int | None = None) -> Context:
    """Return the page text around spans (all of it when chars is None), highlights relative to the cut."""
    lo = 0 if chars is None else max(0, min(s for s, _ in spans) - chars)
    hi = len(text) if chars is None else min(len(text), max(e for _, e in spans) + chars)
    return Context(text=text[lo:hi], offset=lo, highlights=tuple((s - lo, e - lo) for s, e in spans))


def figure_in(claim_text: str, text: str, status: FigureStatus, **fields: object) -> Figure:
    """Return a figure of the claim with its span there; fails loudly when the claim does not hold it."""
    start, end = locate(claim_text, text)
    return Figure(text=text, status=status, span=(start, end), **fields)  # type: ignore[arg-type]


def result(claim: Claim, verdict: Verdict, reasons: tuple[str, ...], source: Source, **fields: object) -> ClaimResult:
    """Return a ClaimResult (match, figures, near_miss, context by keyword)."""
    return ClaimResult(claim=claim, verdict=verdict, reasons=reasons, source=source, **fields)  # type: ignore[arg-type]


def scanned_pdf(body: bytes, dpi: int = 200, copies: int = 1) -> bytes:
    """Return a "scan" of a PDF: each page drawn to an image in a new PDF with no text layer (``copies`` times)."""
    import pymupdf  # only the PDF tests need it

    with pymupdf.open(stream=body, filetype="pdf") as src, pymupdf.open() as out:
        for _ in range(copies):
            for page in src:
                pix = page.get_pixmap(dpi=dpi)
                out.new_page(width=page.rect.width, height=page.rect.height).insert_image(page.rect, pixmap=pix)
        return bytes(out.tobytes())


def report(*results: ClaimResult, **fields: object) -> Report:
    """Return a Report of results, of a Markdown brief named brief.md checked at CHECKED_AT unless told."""
    values: dict[str, object] = {
        "brief_name": "brief.md",
        "brief_format": BriefFormat.MARKDOWN,
        "checked_at": CHECKED_AT,
    }
    values.update(fields)
    return Report(results=tuple(results), **values)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- the command line


def run_cli(*argv: str) -> tuple[int, str, str]:
    """Return the exit status, standard output and standard error of ``python -m core`` with argv, in process."""
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


# --------------------------------------------------------------------------- an agent's claims on loopback

#: The sample brief's sources and the corpus pages its stored copies were made from.
SAMPLE_PAGES = {
    "https://docs.python.org/3/whatsnew/3.11.html": "html/python/whatsnew/3.11.html",
    "https://docs.python.org/3/whatsnew/3.12.html": "html/python/whatsnew/3.12.html",
    "https://docs.python.org/3/whatsnew/3.13.html": "html/python/whatsnew/3.13.html",
    "https://peps.python.org/pep-0632/": "html/python/peps/pep-0632.html",
    "https://peps.python.org/pep-0703/": "html/python/peps/pep-0703.html",
}


def sample_on_loopback(server: LoopbackServer) -> str:
    """Return the sample brief citing loopback copies of its real corpus pages; its invented URL is a 404 there."""
    text = SAMPLE_BRIEF.read_text(encoding="utf-8")
    for url, page in SAMPLE_PAGES.items():
        text = text.replace(url, server.add("/" + page, corpus_bytes(page)))
    return text.replace("https://docs.python.org/3/whatsnew/3.15-gil-removal.html", server.url("/3.15-gil-removal"))


def sample_claims(server: LoopbackServer, repeat: int = 1) -> list[dict[str, str | None]]:
    """Return the sample brief's claims as an agent sends them ({claim, url, quote}), on loopback, repeat times."""
    brief = parse_markdown(sample_on_loopback(server))
    rows = [{"claim": c.figure_text, "url": c.url, "quote": c.quote} for c in brief.claims]
    return [dict(r) for _ in range(repeat) for r in rows]


ROOT = Path(__file__).resolve().parents[1]


@asynccontextmanager
async def mcp_session(*args: str, client: str = "research-agent", mode: str = "auto") -> AsyncIterator[Any]:
    """Yield a real MCP client (the SDK's, over stdio) connected to a spawned ``python -m core mcp ARGS``."""
    from mcp import Client, StdioServerParameters  # the SDK loads only for the tests that speak MCP
    from mcp.types import Implementation

    params = StdioServerParameters(command=sys.executable, args=["-m", "core", "mcp", *args], cwd=str(ROOT))
    async with Client(params, client_info=Implementation(name=client, version="1.0"), mode=mode) as session:
        yield session


# --------------------------------------------------------------------------- DOCX briefs of any size


def docx_brief(paragraph: bytes = b"", repeat: int = 0, *, lie_about_size: int | None = None) -> bytes:
    """Return a real DOCX brief (one cited claim) whose body also holds ``paragraph`` XML ``repeat`` times.

    The XML is written streaming, so a test can build a small file holding hundreds of MB of XML;
    ``lie_about_size`` makes the archive declare that many bytes for document.xml instead of the truth.
    """
    import re
    import struct
    import zipfile

    import docx

    document = docx.Document()
    document.add_paragraph(
        "Distutils was deprecated (https://peps.python.org/pep-0632/): "
        "“In Python 3.10 and 3.11, distutils will be formally marked as deprecated”."
    )
    plain = io.BytesIO()
    document.save(plain)
    source = zipfile.ZipFile(io.BytesIO(plain.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename != "word/document.xml":
                z.writestr(info, data)
                continue
            head, tail = data.split(b"</w:body>", 1)
            with z.open("word/document.xml", "w", force_zip64=True) as part:
                part.write(head)
                for _ in range(repeat):
                    part.write(paragraph)
                part.write(b"</w:body>" + tail)
    archive = out.getvalue()
    if lie_about_size is None:
        return archive
    # The central directory's uncompressed size of document.xml (a 4-byte field 24 bytes into its entry).
    entry = next(
        m.start()
        for m in re.finditer(rb"PK\x01\x02", archive)
        if b"word/document.xml" in archive[m.start() : m.start() + 80]
    )
    return archive[: entry + 24] + struct.pack("<I", lie_about_size) + archive[entry + 28 :]
