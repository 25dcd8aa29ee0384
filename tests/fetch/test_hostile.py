"""Hostile sources through the real pipeline: each gives its claim a clear verdict and reason.

Bombs, huge and endless bodies, binary garbage, pages that lie about their type, servers that
drip one byte at a time, redirects into the private network, XML external entities, and a
mixed brief in which one bad source must never stop the others. Pages are served by loopback
servers; names that must look public are resolved by tests.fetch_servers.StubNet, whose
connect step fails the test for any address but the one it routes to loopback, so no test
sends a packet outside 127.0.0.0/8. Addresses outside loopback are refused by the policy
before any connection.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pymupdf
import pytest

from core.brief import read_brief
from core.check import check_brief
from core.cli import main
from core.extract import extract
from core.fetch import Fetcher
from core.models import Brief, Report, Verdict
from core.settings import Settings
from tests.brief.test_hostile import future_zip_version
from tests.builders import every
from tests.fetch_servers import PUBLIC, StubNet, Timeouts, bomb, dribble, endless, page, redirect, serve_quick, stall
from tests.servers import LoopbackServer, Reply, corpus_bytes

KROGER_QUOTE = (
    "The Kroger Co. (NYSE: KR) today reported its second quarter 2023 results, reaffirmed 2023 guidance and"
    " updated investors on how Leading with Fresh and Accelerating with Digital continues to position Kroger"
    " for long-term sustainable growth"
)
PEP_QUOTE = "In Python 3.10 and 3.11, distutils will be formally marked as deprecated"
PEP_CLAIM = "PEP 632 planned to mark distutils deprecated in Python 3.10 and 3.11."
FORBIDDEN = (
    "The server answered 403 Forbidden: the page needs a login or sits behind a paywall, or the site refuses"
    " automated readers. Open it in your browser and supply the page yourself."
)
NOT_FOUND = (
    "The server answered 404 Not Found: the page does not exist (possibly an invented source, or it moved)."
    " Search the site for the quote."
)


def too_large(declared: str = "") -> str:
    return (
        f"The source is larger{declared} than the 25 MB Verbatim reads (a compressed page counts by its unpacked"
        " size). Supply the relevant part yourself."
    )


@pytest.fixture
def site() -> Iterator[LoopbackServer]:
    with serve_quick() as s:
        yield s


def _brief(rows: list[dict[str, str]]) -> Brief:
    return read_brief(json.dumps({"claims": rows}).encode(), "hostile.json")


def _check(rows: list[dict[str, str]], settings: Settings, fetcher: Fetcher | None = None) -> Report:
    return check_brief(_brief(rows), settings, fetcher=fetcher)


def _one(url: str, quote: str = PEP_QUOTE, claim: str = PEP_CLAIM) -> list[dict[str, str]]:
    return [{"claim": claim, "url": url, "quote": quote}]


def _verdicts(report: Report) -> list[tuple[Verdict, tuple[str, ...]]]:
    return [(r.verdict, r.reasons) for r in report.results]


@pytest.fixture
def loose() -> Settings:
    """Loopback allowed (test servers), nothing stored on disk."""
    return Settings(allow_private=True, use_cache=False)


def test_gzip_bomb_stops_at_the_cap(site: LoopbackServer, loose: Settings) -> None:
    packed = bomb("gzip", 100)  # 100 MB of blanks in about 100 KB
    url = site.add("/bomb", packed, headers={"Content-Encoding": "gzip"})
    (result,) = _check(_one(url), loose).results
    assert (result.verdict, result.reasons) == (Verdict.NOT_CHECKED, (too_large(),))
    assert result.source.body == b"" and result.source.http_status == 200


def test_ten_megabyte_page_is_read_whole(site: LoopbackServer, loose: Settings) -> None:
    para = b"<p>" + b"The quick brown fox jumps over the lazy dog near the river bank today. " * 20 + b"</p>\n"
    last = b"The last sentence of this very large page says goodbye to its patient reader."
    body = b"<html><body>" + para * (10 * 1024 * 1024 // len(para) + 1) + b"<p>" + last + b"</p></body></html>"
    assert len(body) > 10 * 1024 * 1024
    url = site.add("/ten", body)
    (result,) = _check(_one(url, last.decode(), "The page ends with a goodbye."), loose).results
    assert result.verdict is Verdict.VERIFIED, result.reasons
    # The report keeps no bodies (the store does): the whole page's digest shows it was read whole.
    assert result.source.sha256 == hashlib.sha256(body).hexdigest()


def test_binary_garbage_called_html_is_not_checked(site: LoopbackServer, loose: Settings) -> None:
    url = site.add("/garbage", bytes(range(256)) * 64, "text/html; charset=utf-8")
    (result,) = _check(_one(url), loose).results
    assert _verdicts(_check(_one(url), loose)) == [
        (
            Verdict.NOT_CHECKED,
            (
                "The server called it text/html, but the bytes are not text (an image or other binary file): open"
                " the link in a browser and supply the source yourself.",
            ),
        )
    ]
    assert result.source.http_status == 200


def test_pdf_served_as_html_is_read_as_the_pdf_it_is(site: LoopbackServer, loose: Settings) -> None:
    url = site.add("/release.html", corpus_bytes("pdf/gold/kroger-press-release-2023.pdf"), "text/html")
    claim = "Kroger reported its second quarter 2023 results and reaffirmed its 2023 guidance."
    (result,) = _check(_one(url, KROGER_QUOTE, claim), loose).results
    assert result.verdict is Verdict.VERIFIED, result.reasons
    assert result.source.content_type == "application/pdf"
    assert result.source.reason == "The server called it text/html, but it is a PDF; read as a PDF."
    assert result.match is not None and result.match.fragments[0].page == 1


def test_html_served_as_pdf_is_not_read_as_anything(site: LoopbackServer, loose: Settings) -> None:
    body, _ = page("pep-0632")
    url = site.add("/pep.pdf", body, "application/pdf")
    assert _verdicts(_check(_one(url), loose)) == [
        (
            Verdict.NOT_CHECKED,
            (
                f"The source {url} says it is a PDF, but its bytes are not a PDF (it may be an error page). Upload a"
                " PDF, DOCX or HTML copy of the source, or paste its text.",
            ),
        )
    ]


@pytest.mark.parametrize(("declare", "said"), [(True, " (52 MB)"), (False, "")], ids=["declared", "streamed"])
def test_fifty_megabyte_body_is_refused(site: LoopbackServer, loose: Settings, declare: bool, said: str) -> None:
    site.routes["/fifty"] = endless(50 * 1024 * 1024, declare_length=declare)
    (result,) = _check(_one(site.url("/fifty")), loose).results
    assert (result.verdict, result.reasons) == (Verdict.NOT_CHECKED, (too_large(said),))


@pytest.mark.parametrize(
    "hang",
    [dribble(10_000, 0.1), dribble(10_000, 0.1, headers_too=True), stall(after_headers=False, seconds=30)],
    ids=["body-drip", "header-drip", "silent"],
)
def test_source_that_hangs_meets_the_deadline(site: LoopbackServer, loose: Settings, hang: Reply) -> None:
    site.routes["/drip"] = hang  # a dribble would take 1,000 s to finish
    site.add("/pep", page("pep-0632")[0])
    rows = _one(site.url("/drip")) + _one(site.url("/pep"))
    settings = loose.with_(total_deadline=1.0)
    steps = Timeouts()  # real connections, each step's timeout recorded
    with Fetcher(settings, connector=steps) as fetcher:
        report = _check(rows, settings, fetcher)
    # No connect, read or write was given more than the 1 s deadline (the read timeout is 10 s).
    assert settings.read_timeout == 10.0 and steps.longest() <= 1.0
    assert _verdicts(report)[0] == (
        Verdict.NOT_CHECKED,
        (
            f"Fetching {site.url('/drip')} took longer than the 1 s allowed per source (the server answered too"
            " slowly). Try again later or supply the page yourself.",
        ),
    )
    assert report.results[1].verdict is Verdict.VERIFIED


@pytest.mark.parametrize(
    ("target", "address", "why"),
    [
        ("http://10.20.30.40/admin", "10.20.30.40", "private network"),
        ("http://169.254.169.254/latest/meta-data/", "169.254.169.254", "link-local, where cloud metadata"),
        ("http://[::ffff:192.168.1.1]/", "::ffff:192.168.1.1", "private network, an IPv4 address written as IPv6"),
    ],
)
def test_redirect_into_the_private_network_is_blocked(
    site: LoopbackServer, tmp_path: Path, target: str, address: str, why: str
) -> None:
    site.routes["/go"] = redirect(target)
    net = StubNet({"news.example": [[PUBLIC]]}, loopback_port=site.port)
    strict = Settings(use_cache=False)  # the real policy: no private addresses
    with Fetcher(strict, resolver=net.resolve, connector=net.connect) as fetcher:
        (result,) = _check(_one("http://news.example/go"), strict, fetcher).results
    assert result.verdict is Verdict.BLOCKED
    (reason,) = result.reasons
    assert reason.startswith(
        f"The link redirected to {target}, which Verbatim refused to follow. The address {address}"
    )
    assert why in reason and reason.endswith("If this is your own intranet, run again with --allow-private.")
    assert net.connects == [(PUBLIC, 80)] and site.requests == ["/go"]


def test_redirect_to_a_local_file_is_blocked_even_with_allow_private(site: LoopbackServer, loose: Settings) -> None:
    site.routes["/go"] = redirect("file:///etc/passwd")
    (result,) = _check(_one(site.url("/go")), loose).results
    assert result.verdict is Verdict.BLOCKED
    assert result.reasons == (
        "The link redirected to file:///etc/passwd, which Verbatim refused to follow. Verbatim fetches only http and"
        " https links; file: links are refused (they could read this computer's files or run code). Supply the"
        " source yourself if you have it.",
    )


def test_loopback_is_blocked_without_allow_private_and_never_contacted(site: LoopbackServer, tmp_path: Path) -> None:
    site.add("/pep", page("pep-0632")[0])
    brief = tmp_path / "local.json"
    urls = [site.url("/pep"), f"http://2130706433:{site.port}/pep", f"http://[::ffff:127.0.0.1]:{site.port}/pep"]
    brief.write_text(json.dumps([{"claim": PEP_CLAIM, "url": u, "quote": PEP_QUOTE} for u in urls]))
    out, err = io.StringIO(), io.StringIO()
    assert main(["check", str(brief), "--no-cache", "--json", str(tmp_path / "r.json")], out, err) == 0
    claims = json.loads((tmp_path / "r.json").read_text())["claims"]
    assert [c["verdict"] for c in claims] == ["blocked"] * 3
    for c in claims:
        assert "(loopback, this computer" in c["reasons"][0] and "--allow-private" in c["reasons"][0]
    assert site.requests == []


def test_xml_external_entities_are_never_resolved(site: LoopbackServer, loose: Settings, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET-7f3a9c the private file's words")
    doctype = f'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY xxe SYSTEM "file://{secret}">]>'.encode()
    feed = doctype + b"<rss><channel><title>Feed &xxe; title</title>" + (
        b"<item><description>An ordinary item of the feed with enough words to read as text.</description></item>"
        * 5
    ) + b"</channel></rss>"  # fmt: skip
    document = doctype + (
        b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>'
        b"<w:p><w:r><w:t>Leak &xxe; here</w:t></w:r></w:p></w:body></w:document>"
    )
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("word/document.xml", document)
    docx_type = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    rows = _one(site.add("/feed.xml", feed, "application/rss+xml"), "TOPSECRET-7f3a9c the private file's words")
    rows += _one(site.add("/leak.docx", packed.getvalue(), docx_type), "TOPSECRET-7f3a9c the private file's words")
    report = _check(rows, loose)
    assert [r.verdict for r in report.results] == [Verdict.QUOTE_NOT_FOUND, Verdict.QUOTE_NOT_FOUND]
    for r in report.results:
        assert r.near_miss is None or "TOPSECRET" not in repr(r.near_miss)
        assert r.context is None


def test_a_failing_source_never_stops_the_others(site: LoopbackServer) -> None:
    """One good page, a paywall, a dead link, an intranet name, a bomb and a local file: each its own reason."""
    site.add("/pep", page("pep-0632")[0])
    site.add("/paywall", b"<h1>Subscribe</h1>", status=403)
    site.add("/bomb", bomb("gzip", 100), headers={"Content-Encoding": "gzip"})
    net = StubNet(
        {"peps.example": [[PUBLIC]], "paper.example": [[PUBLIC]], "gone.example": [[PUBLIC]],
         "intranet.example": [["10.0.0.7"]], "cdn.example": [[PUBLIC]]},
        loopback_port=site.port,
    )  # fmt: skip
    urls = [
        "http://peps.example/pep",
        "http://paper.example/paywall",
        "http://gone.example/missing",
        "http://intranet.example/wiki",
        "http://cdn.example/bomb",
        "file:///etc/passwd",
        "http://peps.example/pep",
    ]
    strict = Settings(use_cache=False)
    with Fetcher(strict, resolver=net.resolve, connector=net.connect) as fetcher:
        report = _check([{"claim": PEP_CLAIM, "url": u, "quote": PEP_QUOTE} for u in urls], strict, fetcher)
    assert _verdicts(report) == [
        (Verdict.VERIFIED, report.results[0].reasons),
        (Verdict.NOT_CHECKED, (FORBIDDEN,)),
        (Verdict.DEAD_LINK, (NOT_FOUND,)),
        (
            Verdict.BLOCKED,
            (
                "The host intranet.example resolves to 10.0.0.7, which is not a public internet address (private"
                " network): Verbatim does not fetch from private or local networks. If this is your own intranet,"
                " run again with --allow-private.",
            ),
        ),
        (Verdict.NOT_CHECKED, (too_large(),)),
        (
            Verdict.BLOCKED,
            (
                "Verbatim fetches only http and https links; file: links are refused (they could read this"
                " computer's files or run code). Supply the source yourself if you have it.",
            ),
        ),
        (Verdict.VERIFIED, report.results[0].reasons),
    ]
    assert report.results[0].reasons[0] == "The quote is on the page, word for word."
    assert sorted(site.requests) == ["/bomb", "/missing", "/paywall", "/pep"]  # the good page fetched once
    assert ("10.0.0.7", 80) not in net.connects
    assert report.summary == {
        "blocked": 2, "dead_link": 1, "not_checked": 2, "no_quote": 0, "quote_not_found": 0,
        "figures_mismatch": 0, "needs_review": 0, "verified": 2,
    }  # fmt: skip


def test_thousand_claims_on_a_few_pages_all_get_a_verdict(site: LoopbackServer, loose: Settings) -> None:
    pep, _ = page("pep-0632")
    site.add("/pep", pep)
    site.add("/gone", b"", status=410)
    site.routes["/slow"] = dribble(10_000, 0.1)
    kinds = [
        (site.url("/pep"), PEP_QUOTE, Verdict.VERIFIED),
        (site.url("/pep"), "In Python 3.10 and 3.11, distutils will be formally marked as obsolete", None),
        (site.url("/pep"), None, Verdict.NO_QUOTE),
        (site.url("/gone"), PEP_QUOTE, Verdict.DEAD_LINK),
        (site.url("/slow"), PEP_QUOTE, Verdict.NOT_CHECKED),
    ]
    rows = []
    for i in range(1000):
        url, quote, _ = kinds[i % len(kinds)]
        row = {"id": f"c{i}", "claim": PEP_CLAIM, "url": url}
        if quote is not None:
            row["quote"] = quote
        rows.append(row)
    report = _check(rows, loose.with_(total_deadline=1.0))
    assert [r.claim.id for r in report.results] == [f"c{i}" for i in range(1000)]
    assert [r.verdict for r in report.results[:5]] == [
        Verdict.VERIFIED, Verdict.QUOTE_NOT_FOUND, Verdict.NO_QUOTE, Verdict.DEAD_LINK, Verdict.NOT_CHECKED,
    ]  # fmt: skip
    assert report.summary == {
        "blocked": 0, "dead_link": 200, "not_checked": 200, "no_quote": 200, "quote_not_found": 200,
        "figures_mismatch": 0, "needs_review": 0, "verified": 200,
    }  # fmt: skip
    every(report.results, lambda r: r.reasons)
    assert sorted(site.requests) == ["/gone", "/pep", "/slow"]  # each page once, however many claims cite it


def test_page_of_numbers_does_not_stall_the_figures_diagnosis(site: LoopbackServer, loose: Settings) -> None:
    """A page of 300,000 numbers: where else a missing figure appears is diagnosis, and stays within its budget."""
    # The claim's figure stands once, early on the page: the first piece of page text is read
    # whatever the budget says, so where else it appears is known; how long the rest takes is
    # measured by make bench (tests/bench/bench_figures.py), not here.
    numbers = " ".join(f"{n:,}" for n in range(412_000, 712_000))
    body = f"<html><body><p>{PEP_QUOTE}.</p><p>{numbers}</p></body></html>".encode()
    url = site.add("/numbers", body)
    claim = "PEP 632 planned to deprecate distutils in Python 3.10 and 3.11 for 412,345 projects."
    (result,) = _check(_one(url, PEP_QUOTE, claim), loose).results
    assert result.verdict is Verdict.FIGURES_MISMATCH
    assert result.reasons[:2] == (
        "The quote is on the page, but the claim says something the quote does not.",
        "The quote holds no number equal to “412,345”.",
    )
    (missing,) = result.figures.missing
    text = extract(body, "text/html").text
    at = text.index("412,345")
    assert text.count("412,345") == 1 and at < loose.figures_elsewhere_piece_chars
    assert missing.elsewhere == ((at, at + len("412,345")),)


def test_text_nested_past_the_parser_depth_is_said_to_be_unread(site: LoopbackServer, loose: Settings) -> None:
    """A page hiding its text 3,000 elements deep: the quote is not found, and the claim says why it may not be."""
    pep, _ = page("pep-0632")
    nested = "<div>" * 3000 + "The hidden sentence sits far too deep in this page to be read." + "</div>" * 3000
    url = site.add("/deep", pep.replace(b"</body>", nested.encode() + b"</body>"))
    rows = _one(url, "The hidden sentence sits far too deep in this page to be read", "The page hides a sentence.")
    rows += _one(url)
    report = _check(rows, loose)
    assert _verdicts(report)[0] == (
        Verdict.QUOTE_NOT_FOUND,
        (
            "The quote is not on the page: no passage matches it word for word.",
            "The page nests its markup deeper than the HTML parser reads (2,048 levels); text after that point was"
            " not read. Paste the page's text if a quote is missing.",
        ),
    )
    assert report.results[1].verdict is Verdict.VERIFIED  # the text before the nesting is still read


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        (
            "http://editor:secret@127.0.0.1:{port}/pep",
            "The link http://…@127.0.0.1 carries a user name or password; Verbatim never sends credentials. Remove"
            " them from the link, or supply the page yourself.",
        ),
        ("http://127.0.0.1:99999/pep", "The link {url!r} is malformed (Port out of range 0-65535)"),
        ("http://127.0.0.1:{port}/<script>alert(1)</script> x", "The link {url!r} contains spaces or control"),
    ],
    ids=["credentials", "port", "spaces"],
)
def test_malformed_links_are_blocked_before_any_request(
    site: LoopbackServer, loose: Settings, url: str, reason: str
) -> None:
    site.add("/pep", page("pep-0632")[0])
    url = url.format(port=site.port)
    report = _check([{"claim": PEP_CLAIM, "url": url, "quote": PEP_QUOTE}], loose)
    (result,) = report.results
    assert result.verdict is Verdict.BLOCKED
    assert result.reasons[0].startswith(reason.format(url=url))
    assert site.requests == []


def test_nothing_is_written_but_the_store_and_the_reports_asked_for(site: LoopbackServer, tmp_path: Path) -> None:
    site.add("/pep", page("pep-0632")[0])
    site.add("/named", b"<p>x</p>", headers={"Content-Disposition": 'attachment; filename="../../evil.sh"'})
    work = tmp_path / "work"
    work.mkdir()
    brief = work / "brief.json"
    brief.write_text(
        json.dumps([{"claim": PEP_CLAIM, "url": site.url(p), "quote": PEP_QUOTE} for p in ("/pep", "/named")])
    )
    out, err = io.StringIO(), io.StringIO()
    code = main(["check", str(brief), "--allow-private", "--db", str(work / "store.sqlite3"),
                 "--html", str(work / "r.html")], out, err)  # fmt: skip
    assert (code, err.getvalue()) == (0, "")
    written = sorted(p.name for p in work.iterdir())
    assert [n for n in written if not n.startswith("store.sqlite3")] == ["brief.json", "r.html"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["work"]  # not even the default store was touched


def _raw(data: bytes) -> Reply:
    """Return a reply that writes data as the whole answer, status line and headers included."""

    def write(h: BaseHTTPRequestHandler) -> None:
        h.wfile.write(data)
        h.wfile.flush()
        h.close_connection = True

    return Reply(handler=write)


BROKE = "The connection to 127.0.0.1 broke off (RemoteProtocolError: "
NOT_HTTP = "): the server sent something that is not valid HTTP. Try again later or supply the page yourself."
MISBEHAVING = {
    "/huge-header": (
        _raw(b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * 2_000_000 + b"\r\nContent-Length: 5\r\n\r\nhello"),
        f"{BROKE}Receive buffer too long{NOT_HTTP}",
    ),
    "/bad-status": (_raw(b"HTTP/9.9 abc\r\n\r\n"), f"{BROKE}illegal status line: bytearray(b'HTTP/9.9 abc'){NOT_HTTP}"),
    "/cut-short": (
        _raw(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n<p>short</p>"),
        f"{BROKE}peer closed connection without sending complete message body (received 12 bytes, expected"
        f" 100000){NOT_HTTP}",
    ),
    "/not-http": (_raw(bytes(range(256)) * 10), f"{BROKE}illegal request line{NOT_HTTP}"),
    "/unknown-coding": (
        Reply(b"abc", 200, {"Content-Type": "text/html", "Content-Encoding": "gzip, compress"}),
        "The page could not be unpacked: the server compressed the page with 'compress', which Verbatim cannot"
        " undo. Try again later or supply the page yourself.",
    ),
    "/corrupt-gzip": (
        Reply(b"\x1f\x8b\x08\x00garbage" * 100, 200, {"Content-Type": "text/html", "Content-Encoding": "gzip"}),
        "The page could not be unpacked: the gzip data is corrupt (Error -3 while decompressing data: too many"
        " length or distance symbols). Try again later or supply the page yourself.",
    ),
}


def test_servers_that_break_http_each_get_their_own_reason(site: LoopbackServer, loose: Settings) -> None:
    for path, (reply, _) in MISBEHAVING.items():
        site.routes[path] = reply
    site.add("/pep", page("pep-0632")[0])
    paths = [*MISBEHAVING, "/pep"]
    report = _check([{"claim": PEP_CLAIM, "url": site.url(p), "quote": PEP_QUOTE} for p in paths], loose)
    assert _verdicts(report)[:-1] == [(Verdict.NOT_CHECKED, (reason,)) for _, reason in MISBEHAVING.values()]
    assert report.results[-1].verdict is Verdict.VERIFIED


def test_two_thousand_page_pdf_is_read_up_to_the_page_limit(site: LoopbackServer, loose: Settings) -> None:
    doc = pymupdf.open()
    for n in range(1, 2001):
        doc.new_page().insert_text((72, 72), f"Page {n} of the long report says the figure number {n} here.")
    url = site.add("/long.pdf", doc.tobytes(), "application/pdf")
    early = "Page 3 of the long report says the figure number 3 here"
    late = "Page 1999 of the long report says the figure number 1999 here"
    rows = _one(url, early, "The report talks about its start.") + _one(url, late, "The report talks about its end.")
    report = _check(rows, loose.with_(max_pdf_pages=20))
    assert report.results[0].verdict is Verdict.VERIFIED
    assert report.results[0].match is not None and report.results[0].match.fragments[0].page == 3
    assert _verdicts(report)[1] == (
        Verdict.QUOTE_NOT_FOUND,
        (
            "The quote is not on the page: no passage matches it word for word.",
            "The PDF has 2000 pages; only the first 20 were read. A quote from a later page will not be found: upload"
            " the pages you quote.",
        ),
    )


def _corrupt_deflate_docx() -> bytes:
    """Return a real DOCX whose document part's compressed bytes are damaged (the zip directory intact)."""
    body, _ = page("hyperlinks-docx")
    with zipfile.ZipFile(io.BytesIO(body)) as z:
        info = z.getinfo("word/document.xml")
    data = bytearray(body)
    name_len = int.from_bytes(data[info.header_offset + 26 : info.header_offset + 28], "little")
    extra_len = int.from_bytes(data[info.header_offset + 28 : info.header_offset + 30], "little")
    start = info.header_offset + 30 + name_len + extra_len
    data[start + 20 : start + 60] = bytes(range(40))  # scrambles the deflate stream, not the headers
    return bytes(data)


@pytest.mark.parametrize(
    ("damage", "start"),
    [
        (_corrupt_deflate_docx, "The DOCX file is damaged (Error -3 while decompressing data"),
        (lambda: future_zip_version(page("hyperlinks-docx")[0]), "The file is not a DOCX document"),
    ],
    ids=["deflate", "zip-version"],
)
def test_damaged_docx_source_is_not_checked_and_stops_nothing(
    site: LoopbackServer, loose: Settings, damage: Callable[[], bytes], start: str
) -> None:
    docx_type = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    url = site.add("/broken.docx", damage(), docx_type)
    site.add("/pep", page("pep-0632")[0])
    report = _check(_one(url) + _one(site.url("/pep")), loose)
    (verdict, (reason,)) = _verdicts(report)[0]
    assert verdict is Verdict.NOT_CHECKED
    assert reason.startswith(start)
    assert reason.endswith("Open it in Word and save it as .docx again, or upload a PDF of it, or paste its text.")
    assert report.results[1].verdict is Verdict.VERIFIED


def test_page_of_many_siblings_skips_the_main_content_guess(site: LoopbackServer, loose: Settings) -> None:
    """60,000 hidden siblings made readability's main-content guess take seconds per page: it is skipped, and said."""
    pep, _ = page("pep-0632")
    url = site.add("/siblings", pep.replace(b"</body>", b"<p>" + b"<span hidden>x</span>y " * 60_000 + b"</p></body>"))
    rows = _one(url) + _one(url, "distutils will be formally marked as obsolete in Python 3.10", "distutils went.")
    report = _check(rows, loose)
    assert report.results[0].verdict is Verdict.VERIFIED
    assert _verdicts(report)[1] == (
        Verdict.QUOTE_NOT_FOUND,
        (
            "The quote is not on the page: no passage matches it word for word.",
            "The page is too large to tell its main content from navigation; all of it counts as main.",
            # Its 60,000 hidden spans (and the page's own 2) are read up to the limit, and said.
            'The page hides 60,002 parts until a reader opens them (tabs, accordions, "read more"); only the '
            "first 5,000 were read. A quote from a later hidden part will not be found: paste the text of the part "
            "you quote.",
        ),
    )
