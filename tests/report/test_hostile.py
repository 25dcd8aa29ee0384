"""Hostile briefs and pages through the real pipeline: every export holds the payloads as inert text.

A claims file and a Word brief full of script payloads (in claim text, ids, quotes, anchor text
and URLs with javascript:, data:, file: and vbscript: schemes) cite a loopback page whose text
and title carry payloads too. The real command line checks them and writes JSON, HTML, CSV and
DOCX; each export is parsed back and searched for anything that could run: an HTML element or
attribute that runs script, a link to a non-web scheme, a CSV cell a spreadsheet would run as a
formula, a terminal escape sequence in what the command prints.
"""

from __future__ import annotations

import csv
import io
import json
import zipfile
from collections.abc import Iterator
from pathlib import Path

import docx
import lxml.html
import pymupdf
import pytest
from docx.opc.constants import RELATIONSHIP_TYPE
from docx.oxml.shared import OxmlElement, qn

from core.report.wording import unchecked_gate_words
from tests.builders import run_cli
from tests.fetch_servers import serve_quick
from tests.servers import LoopbackServer

SCRIPT = "<script>alert('claim')</script>"
IMG = '<img src=x onerror="alert(1)">'
#: A page whose text shows payloads as text (escaped in its HTML) and hides real ones in markup.
PAGE = (
    "<!DOCTYPE html><html><head><title>Title &lt;script&gt;alert('title')&lt;/script&gt;</title>"
    "<script>alert('page script')</script></head>"
    "<body onload=\"alert('onload')\">"
    "<p>The committee said that the new bridge would open to traffic in the spring of next year.</p>"
    "<p>Readers typed &lt;script&gt;alert(document.cookie)&lt;/script&gt; into the comment form last week.</p>"
    '<p>Click <a href="javascript:alert(2)">this link</a> <img src=x onerror="alert(3)"> to see'
    " &lt;img src=x onerror=alert(4)&gt; printed as text by the site.</p>"
    "<p>" + "A sentence of ordinary filler text so that the page reads as a real article. " * 8 + "</p>"
    "</body></html>"
).encode()
BRIDGE = "the new bridge would open to traffic in the spring of next year"
TYPED = "Readers typed <script>alert(document.cookie)</script> into the comment form last week"
BAD_URLS = {
    "javascript": "javascript:alert(document.cookie)",
    "data": "data:text/html,<script>alert('data')</script>",
    "file": "file:///etc/passwd",
    "vbscript": "vbscript:msgbox(1)",
}


def _scheme_reason(scheme: str) -> str:
    return (
        f"Verbatim fetches only http and https links; {scheme}: links are refused (they could read this"
        " computer's files or run code). Supply the source yourself if you have it."
    )


@pytest.fixture
def site() -> Iterator[LoopbackServer]:
    with serve_quick() as s:
        s.add("/article", PAGE)
        # httpx percent-encodes the payload in the query: the server sees it as data.
        s.add("/article?q=%3Cscript%3Ex%3C/script%3E", PAGE)
        yield s


def _claims(site: LoopbackServer) -> list[dict[str, str]]:
    article = site.url("/article")
    return [
        {"id": "=HYPERLINK(\"http://127.0.0.1:9/x\",\"x\")", "claim": f"{SCRIPT} The bridge opens in spring.",
         "url": article, "quote": BRIDGE},
        {"id": '"><svg onload=alert(5)>', "claim": f"{IMG} Readers typed a script.", "url": article, "quote": TYPED},
        {"id": "c-missing", "claim": "+cmd|' /C calc'!A0 is what the page says.", "url": article,
         "quote": f"{SCRIPT} is not on this page at all, not anywhere"},
        {"id": "c-at", "claim": "-2+3 @SUM(1+1) the page never says this.", "url": article + "?q=<script>x</script>"},
    ]  # fmt: skip


#: A Markdown brief citing links that are not on the web, one with a payload as its anchor text.
SCHEME_BRIEF = f"""# Links that are not on the web {SCRIPT}

Cookies are read by a script ([&lt;img src=x onerror=alert(1)&gt; source]({BAD_URLS["javascript"]})): "a quote
offered for the script link".

A data link carries a page ([data source]({BAD_URLS["data"]})): "a quote offered for the data link".

The password file is cited ([local file]({BAD_URLS["file"]})): "a quote offered for the file link".

=1+2-3 an old script scheme is cited ([vb]({BAD_URLS["vbscript"]})): "a quote offered
for the vbscript link".
"""


def _export(brief: Path) -> tuple[dict[str, Path], str]:
    paths = {k: brief.with_suffix(f".report.{k}") for k in ("json", "html", "csv", "docx")}
    code, out, err = run_cli(
        "check", str(brief), "--allow-private", "--no-cache",
        "--json", str(paths["json"]), "--html", str(paths["html"]), "--csv", str(paths["csv"]),
        "--docx", str(paths["docx"]),
    )  # fmt: skip
    assert (code, err) == (0, "")
    return paths, out


@pytest.fixture
def exported(site: LoopbackServer, tmp_path: Path) -> dict[str, Path]:
    brief = tmp_path / "hostile.json"
    brief.write_text(json.dumps({"claims": _claims(site)}), encoding="utf-8")
    paths, out = _export(brief)
    # "-2" of c-at's claim stands nowhere on the page: an unquoted claim's figure gives figures_mismatch.
    assert out.splitlines()[-1] == "4 claims: 2 verified, 1 figures_mismatch, 1 quote_not_found"
    # A claim that failed on its figures is no claim that passed unchecked.
    assert unchecked_gate_words(1) not in out.splitlines()
    # The page was fetched once, however many claims cite it, the query's payload percent-encoded.
    assert sorted(site.requests) == ["/article", "/article?q=%3Cscript%3Ex%3C/script%3E"]
    return paths


@pytest.fixture
def scheme_exported(site: LoopbackServer, tmp_path: Path) -> dict[str, Path]:
    brief = tmp_path / "links.md"
    brief.write_text(SCHEME_BRIEF, encoding="utf-8")
    before = list(site.requests)
    paths, out = _export(brief)
    assert out.splitlines()[-1] == "4 claims: 4 blocked"
    assert site.requests == before  # nothing was fetched for links that are not on the web
    return paths


def test_json_export_keeps_every_payload_as_the_text_it_was(exported: dict[str, Path], site: LoopbackServer) -> None:
    data = json.loads(exported["json"].read_text(encoding="utf-8"))
    by_id = {c["id"]: c for c in data["claims"]}
    expected = {c["id"]: c for c in _claims(site)}
    assert list(by_id) == list(expected)
    for cid, row in expected.items():
        assert (by_id[cid]["claim"], by_id[cid]["url"], by_id[cid]["quote"]) == (
            row["claim"], row["url"], row.get("quote"),
        )  # fmt: skip
    assert {cid: c["verdict"] for cid, c in by_id.items()} == {
        '=HYPERLINK("http://127.0.0.1:9/x","x")': "verified",
        '"><svg onload=alert(5)>': "verified",
        "c-missing": "quote_not_found",
        "c-at": "figures_mismatch",
    }


def test_json_export_keeps_non_web_links_blocked_with_their_reason(scheme_exported: dict[str, Path]) -> None:
    claims = json.loads(scheme_exported["json"].read_text(encoding="utf-8"))["claims"]
    assert [c["url"] for c in claims] == list(BAD_URLS.values())
    assert [c["reasons"] for c in claims] == [[_scheme_reason(s)] for s in BAD_URLS]
    assert [c["source"]["http_status"] for c in claims] == [None] * 4
    assert claims[0]["claim"].startswith("Cookies are read by a script (<img src=x onerror=alert(1)> source)")


def test_claims_file_keeps_non_web_links_as_blocked_claims(tmp_path: Path) -> None:
    brief = tmp_path / "links.json"
    rows = [
        {"claim": f"A claim citing a {s} link.", "url": u, "quote": "a quote offered for it"}
        for s, u in BAD_URLS.items()
    ]
    brief.write_text(json.dumps({"claims": rows}), encoding="utf-8")
    out_path = tmp_path / "r.json"
    code, _, err = run_cli("check", str(brief), "--no-cache", "--json", str(out_path))
    assert (code, err) == (0, "")
    claims = json.loads(out_path.read_text(encoding="utf-8"))["claims"]
    assert [(c["url"], c["verdict"], c["reasons"]) for c in claims] == [
        (u, "blocked", [_scheme_reason(s)]) for s, u in BAD_URLS.items()
    ]


def _html(paths: dict[str, Path]) -> lxml.html.HtmlElement:
    return lxml.html.fromstring(paths["html"].read_bytes())


@pytest.mark.parametrize("which", ["exported", "scheme_exported"])
def test_html_export_runs_nothing_and_links_only_to_the_web(which: str, request: pytest.FixtureRequest) -> None:
    paths = request.getfixturevalue(which)
    doc = _html(paths)
    runnable = ("script", "iframe", "object", "embed", "svg", "math", "form", "base", "frame", "img", "link")
    assert [el.tag for el in doc.iter() if isinstance(el.tag, str) and el.tag in runnable] == []
    handlers = [(el.tag, k) for el in doc.iter() if isinstance(el.tag, str) for k in el.attrib if k.startswith("on")]
    assert handlers == []
    for el in doc.iter("a"):
        href = el.get("href", "")
        assert href.startswith(("#claim-", "http://127.0.0.1:")), href
    csp = doc.xpath("//meta[@http-equiv='Content-Security-Policy']/@content")
    assert len(csp) == 1 and csp[0].startswith("default-src 'none'; style-src 'sha256-")


def test_html_export_shows_payloads_as_visible_text(exported: dict[str, Path]) -> None:
    doc = _html(exported)
    articles = {a.get("data-claim-id"): a for a in doc.xpath("//article[@class='claim']")}
    first = articles['=HYPERLINK("http://127.0.0.1:9/x","x")']
    assert first.xpath("string(.//p[@class='claim-text'])") == f"{SCRIPT} The bridge opens in spring."
    second = articles['"><svg onload=alert(5)>']
    assert second.xpath("string(.//blockquote[@class='quote'])") == TYPED
    # The page's own text, payload included, is shown around the highlighted quote as text.
    context = second.xpath("string(.//div[@class='context'])")
    assert "<script>alert(document.cookie)</script>" in context
    assert "alert('page script')" not in exported["html"].read_text(encoding="utf-8")


def test_html_export_shows_non_web_links_as_text_only(scheme_exported: dict[str, Path]) -> None:
    doc = _html(scheme_exported)
    articles = doc.xpath("//article[@class='claim']")
    assert [a.xpath("string(.//code[@class='not-a-link'])") for a in articles] == list(BAD_URLS.values())
    assert [a.xpath(".//dd/a") for a in articles] == [[]] * 4
    assert doc.xpath("//ul[@id='unread-sources']/li/code/text()") == list(BAD_URLS.values())
    assert "<script>" not in scheme_exported["html"].read_text(encoding="utf-8")


def test_csv_export_guards_every_formula_cell(exported: dict[str, Path], scheme_exported: dict[str, Path]) -> None:
    rows = list(csv.reader(io.StringIO(exported["csv"].read_text(encoding="utf-8"), newline="")))
    more = list(csv.reader(io.StringIO(scheme_exported["csv"].read_text(encoding="utf-8"), newline="")))
    header = ["id", "claim", "url", "quote", "verdict", "reasons", "missing_figures", "decision", "note", "citation"]
    header += ["decided_by", "decided_at", "offered_passage", "figure_statuses", "signs", "adopted_by"]
    assert rows[0] == more[0] == header
    cells = [cell for row in rows[1:] + more[1:] for cell in row]
    assert [c for c in cells if c.startswith(("=", "+", "-", "@", "\t", "\r"))] == []
    assert rows[1][0] == '\'=HYPERLINK("http://127.0.0.1:9/x","x")'
    assert rows[3][1] == "'+cmd|' /C calc'!A0 is what the page says."
    assert rows[4][1] == "'-2+3 @SUM(1+1) the page never says this."
    assert more[4][1].startswith("'=1+2-3 an old script scheme is cited")
    assert [r[4] for r in rows[1:]] == ["verified", "verified", "quote_not_found", "figures_mismatch"]
    assert [(r[2], r[4]) for r in more[1:]] == [(u, "blocked") for u in BAD_URLS.values()]


@pytest.mark.parametrize("which", ["exported", "scheme_exported"])
def test_docx_export_holds_payloads_as_plain_text(which: str, request: pytest.FixtureRequest) -> None:
    raw = request.getfixturevalue(which)["docx"].read_bytes()
    with zipfile.ZipFile(io.BytesIO(raw)) as z:
        xml = b"".join(z.read(n) for n in z.namelist() if n.endswith(".xml"))
    assert b"<script" not in xml and b"<img" not in xml and b"<svg" not in xml
    text = "\n".join(p.text for p in docx.Document(io.BytesIO(raw)).paragraphs)
    if which == "exported":
        assert f"{SCRIPT} The bridge opens in spring." in text
    else:
        assert BAD_URLS["javascript"] in text and "<img src=x onerror=alert(1)> source" in text


def test_command_line_prints_no_terminal_escapes(site: LoopbackServer, tmp_path: Path) -> None:
    brief = tmp_path / "escapes.json"
    bad = site.url("/x\x1b[31m\nred")
    rows = [
        {"id": "c\x1b]0;pwned\x07", "claim": "Escapes \x1b[2J clear the screen.", "url": bad,
         "quote": "\x1b]52;c;cGF5bG9hZA==\x07 writes the clipboard"},
        {"id": "c\u202e2", "claim": "A bidi override.", "url": site.url("/article") + "#\u202etxt.exe",
         "quote": BRIDGE},
    ]  # fmt: skip
    brief.write_text(json.dumps(rows), encoding="utf-8")
    code, out, err = run_cli("check", str(brief), "--allow-private", "--no-cache")
    assert (code, err) == (0, "")
    assert [c for c in out if (ord(c) < 32 and c not in "\t\n") or 0x7F <= ord(c) < 0xA0 or c == "\u202e"] == []
    lines = out.splitlines()
    assert len(lines) == 3  # one line per claim, then the summary: a newline in a URL cannot add a line
    assert lines[0].split("\t") == [
        "c\\x1b]0;pwned\\x07",
        "blocked",
        site.url("/x\\x1b[31m\\x0ared"),
        f"The link {bad!r} contains spaces or control characters: fix it in the brief.",
    ]
    assert lines[1].split("\t")[:2] == ["c\\u202e2", "verified"]
    assert lines[2] == "2 claims: 1 verified, 1 blocked"


def _docx_brief(url: str) -> bytes:
    """Return a Word brief whose claim, anchor text and quote carry payloads, linked to url."""
    document = docx.Document()
    document.add_paragraph(f"Hostile brief {SCRIPT}")
    para = document.add_paragraph(f"{IMG} The committee expects the bridge to open in spring (")
    rid = para.part.relate_to(url, RELATIONSHIP_TYPE.HYPERLINK, is_external=True)
    link = OxmlElement("w:hyperlink")
    link.set(qn("r:id"), rid)
    run = OxmlElement("w:r")
    t = OxmlElement("w:t")
    t.text = "<script>alert('anchor')</script> source"
    run.append(t)
    link.append(run)
    para._p.append(link)
    para.add_run(f'): "{BRIDGE} {SCRIPT}".')
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def test_docx_brief_comes_back_with_payloads_as_comment_text(site: LoopbackServer, tmp_path: Path) -> None:
    brief = tmp_path / "hostile.docx"
    brief.write_bytes(_docx_brief(site.url("/article")))
    paths = {k: tmp_path / f"back.{k}" for k in ("docx", "html", "json")}
    code, out, err = run_cli(
        "check", str(brief), "--allow-private", "--no-cache",
        "--docx", str(paths["docx"]), "--html", str(paths["html"]), "--json", str(paths["json"]),
    )  # fmt: skip
    assert (code, err) == (0, "")
    assert out.splitlines()[1:] == [
        "1 claims: 1 quote_not_found",
        "1 sentences cite no source (listed in the report as uncited).",
    ]
    (claim,) = json.loads(paths["json"].read_text(encoding="utf-8"))["claims"]
    assert claim["url"] == site.url("/article")
    assert claim["quote"] == f"{BRIDGE} {SCRIPT}"
    assert claim["verdict"] == "quote_not_found"
    doc = lxml.html.fromstring(paths["html"].read_bytes())
    assert doc.xpath("//script") == [] and doc.xpath("//img") == []
    assert doc.xpath("//ul[@id='uncited']/li/text()") == [f"Hostile brief {SCRIPT}"]
    raw = paths["docx"].read_bytes()
    with zipfile.ZipFile(io.BytesIO(raw)) as z:
        comments = z.read("word/comments.xml")
        body = z.read("word/document.xml")
    assert b"<script" not in comments and b"<script" not in body and b"<img" not in body
    assert b"&lt;script&gt;alert('anchor')&lt;/script&gt;" in body  # the editor's own text, kept as text
    assert b"Quote not found" in comments


def _pdf_brief() -> bytes:
    """Return a PDF brief whose claim text carries a payload and whose link annotation is javascript:."""
    doc = pymupdf.open()
    pg = doc.new_page()
    text = f'Cookies are read by a script {SCRIPT} (source): "a quote offered for the script link".'
    pg.insert_text((72, 72), text, fontsize=9)
    (rect,) = pg.search_for("source")
    pg.insert_link({"kind": pymupdf.LINK_URI, "from": rect, "uri": BAD_URLS["javascript"]})
    return bytes(doc.tobytes())


def test_pdf_brief_with_a_script_link_exports_inert(tmp_path: Path) -> None:
    brief = tmp_path / "links.pdf"
    brief.write_bytes(_pdf_brief())
    paths, out = _export(brief)
    assert out.splitlines() == [
        f"c1\tblocked\t{BAD_URLS['javascript']}\t{_scheme_reason('javascript')}",
        "1 claims: 1 blocked",
    ]
    (claim,) = json.loads(paths["json"].read_text(encoding="utf-8"))["claims"]
    assert claim["claim"] == f'Cookies are read by a script {SCRIPT} (source): "a quote offered for the script link".'
    doc = _html(paths)
    assert doc.xpath("//script") == [] and doc.xpath("//a[starts-with(@href, 'javascript')]") == []
    assert doc.xpath("string(//p[@class='claim-text'])") == claim["claim"]


def test_hostile_brief_file_name_is_text_in_every_export(site: LoopbackServer, tmp_path: Path) -> None:
    name = "<img src=x onerror=alert('name')>.md"
    brief = tmp_path / name
    brief.write_text(f'The bridge opens in spring ([source]({site.url("/article")})): "{BRIDGE}".\n', encoding="utf-8")
    paths, out = _export(brief)
    assert out.splitlines() == [f"c1\tverified\t{site.url('/article')}\tThe quote is on the page, word for word.",
                                "1 claims: 1 verified"]  # fmt: skip
    doc = _html(paths)
    assert doc.xpath("//img") == []
    assert doc.xpath("string(//title)") == f"Verbatim report: {name}"
    assert doc.xpath("string(//h1/span[@class='brief-name'])") == name
    assert json.loads(paths["json"].read_text(encoding="utf-8"))["brief"]["name"] == name
    with zipfile.ZipFile(paths["docx"]) as z:
        assert b"<img" not in z.read("word/document.xml")


def test_lone_surrogates_and_control_characters_never_break_an_export(site: LoopbackServer, tmp_path: Path) -> None:
    """JSON may spell characters no file can hold (lone surrogates); every export still gets written."""
    brief = tmp_path / "odd.json"
    brief.write_text(
        '[{"id": "x\\ud800", "claim": "Lone \\udfff surrogate, \\u0000 nul and \\u000b tab.",'
        f' "url": "{site.url("/article")}", "quote": "{BRIDGE} \\ud83d"}}]',
        encoding="ascii",
    )
    paths = {k: tmp_path / f"r.{k}" for k in ("json", "html", "csv", "docx")}
    code, out, err = run_cli(
        "check", str(brief), "--allow-private", "--db", str(tmp_path / "store.sqlite3"),
        "--json", str(paths["json"]), "--html", str(paths["html"]), "--csv", str(paths["csv"]),
        "--docx", str(paths["docx"]),
    )  # fmt: skip
    assert (code, err) == (0, "")
    # A lone surrogate is no word: the matcher passes over it as it does punctuation.
    assert out.splitlines()[0] == f"x\ufffd\tverified\t{site.url('/article')}\tThe quote is on the page, word for word."
    (claim,) = json.loads(paths["json"].read_text(encoding="utf-8"))["claims"]
    assert claim["claim"] == "Lone \ufffd surrogate, \x00 nul and \x0b tab."
    assert claim["quote"] == f"{BRIDGE} \ufffd"
    doc = _html(paths)
    assert doc.xpath("string(//p[@class='claim-text'])") == "Lone \ufffd surrogate, \ufffd nul and \x0b tab."
    rows = list(csv.reader(io.StringIO(paths["csv"].read_text(encoding="utf-8"), newline="")))
    assert rows[1][:2] == ["x\ufffd", "Lone \ufffd surrogate, \x00 nul and \x0b tab."]
    text = "\n".join(p.text for p in docx.Document(str(paths["docx"])).paragraphs)
    assert "Lone  surrogate,  nul and  tab." in text
