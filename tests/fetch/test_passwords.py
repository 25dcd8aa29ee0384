"""A password in a cited URL is masked everywhere it is shown, stored or exported, and never stored (issue 24, 5).

The brief cites ``http://alice:s3cret@host/…`` (refused without a request, as before), writes another
URL with a password in a heading's link and another in a code block (unused links): after the
check neither password stands in the printed lines, the log, any of the four exports, the run JSON,
or any byte of the store file; each shows ``alice:***@`` instead.
"""

from __future__ import annotations

import io
import json
import logging
import sqlite3
import zipfile
from pathlib import Path

import docx
import pytest
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.oxml import OxmlElement
from docx.oxml.ns import qn

from core.fetch import Fetcher
from core.fetch.shown import mask_password, masked_brief, shown_url
from core.models import Brief, BriefFormat, SourceStatus
from core.settings import Settings
from tests.builders import claim, run_cli
from tests.fetch_servers import redirect
from tests.servers import LoopbackServer, corpus_bytes

_GOOD_QUOTE = "In Python 3.10 and 3.11, distutils will be formally marked as deprecated."
SECRETS = (b"s3cret", b"hunter2", b"pa@ss")


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        ("http://alice:s3cret@host/x", "http://alice:***@host/x"),
        (
            "see https://bob:hunter2@example.org:8443/a?b=1 and more",
            "see https://bob:***@example.org:8443/a?b=1 and more",
        ),
        ("ftp://u:p@files.example/", "ftp://u:***@files.example/"),
        ("http://carol:pa@ss@host/", "http://carol:***@host/"),  # a raw "@" in the password: up to the last one
        ("http://alice:@host/", "http://alice:***@host/"),  # an empty password still says one was meant
        ("http://alice@host/x", "http://alice@host/x"),  # a user name alone is kept
        ("mail me at ann@example.org", "mail me at ann@example.org"),
        ("http://host/a@b:c", "http://host/a@b:c"),  # "@" in the path is no user information
        ("http://alice:***@host/", "http://alice:***@host/"),  # masking twice changes nothing
    ],
)
def test_mask_password_replaces_only_the_password(text: str, masked: str) -> None:
    assert mask_password(text) == masked
    assert shown_url(text) == masked


def _docx_with_link(url: str) -> bytes:
    document = docx.Document()
    paragraph = document.add_paragraph("Distutils was deprecated (")
    rid = paragraph.part.relate_to(url, RT.HYPERLINK, is_external=True)
    link = OxmlElement("w:hyperlink")
    link.set(qn("r:id"), rid)
    run = OxmlElement("w:r")
    t = OxmlElement("w:t")
    t.text = "PEP 632"
    run.append(t)
    link.append(run)
    paragraph._p.append(link)
    paragraph.add_run(f"): “{_GOOD_QUOTE}”")
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _all_bytes(path: Path) -> bytes:
    """Return a file's bytes and, for a zip (DOCX), every part's bytes unpacked."""
    data = path.read_bytes()
    if data.startswith(b"PK"):
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            data += b"".join(z.read(n) for n in z.namelist())
    return data


def test_a_password_in_a_cited_url_is_in_no_output_and_no_store(
    server: LoopbackServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    good = server.add("/pep-0632", corpus_bytes("html/python/peps/pep-0632.html"))
    secret = good.replace("http://", "http://alice:s3cret@")
    brief = tmp_path / "brief.md"
    brief.write_text(
        "# Notes ([team wiki](https://bob:hunter2@wiki.example.org/notes))\n\n"
        f'Distutils was deprecated ([PEP 632]({secret})): "{_GOOD_QUOTE}"\n\n'
        f'Distutils was deprecated ([PEP 632]({good})): "{_GOOD_QUOTE}"\n\n'
        "    curl https://carol:pa@ss@api.example.org/v1\n",
        encoding="utf-8",
    )
    db = tmp_path / "s.sqlite3"
    outs = {k: tmp_path / f"r.{k}" for k in ("json", "html", "csv", "docx")}
    flags = [a for k, p in outs.items() for a in (f"--{k}", str(p))]
    with caplog.at_level(logging.DEBUG):
        code, out, err = run_cli("check", str(brief), "--allow-private", "--db", str(db), *flags)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split("\t")[:3] == ["c1", "blocked", secret.replace("s3cret", "***")]
    assert lines[1].split("\t")[1] == "verified"
    assert server.requests == ["/pep-0632"]  # the link with a password is still refused without a request
    shown = "alice:***@"
    for kind, path in outs.items():
        data = _all_bytes(path)
        assert not any(s in data for s in SECRETS), kind
        assert shown.encode() in data, kind
    report = json.loads(outs["json"].read_text(encoding="utf-8"))
    assert report["claims"][0]["url"] == secret.replace("s3cret", "***")
    assert report["claims"][0]["source"]["url"] == secret.replace("s3cret", "***")
    unused = {u["url"] for u in report["unused_links"]}
    assert "https://bob:***@wiki.example.org/notes" in unused, unused
    for text in (out, err, caplog.text):
        assert "s3cret" not in text and "hunter2" not in text
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        dump = "\n".join(conn.iterdump())
    assert "s3cret" not in dump and "hunter2" not in dump and "alice:***@" in dump
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("s.sqlite3*"))
    assert not any(s in stored for s in SECRETS), [s for s in SECRETS if s in stored]


def test_a_docx_brief_is_kept_and_exported_with_its_links_passwords_masked() -> None:
    raw = _docx_with_link("http://alice:s3cret@peps.example.org/pep-0632/")
    brief = Brief(
        name="b.docx",
        format=BriefFormat.DOCX,
        claims=(claim("c1", "Distutils was deprecated.", "http://alice:s3cret@peps.example.org/pep-0632/"),),
        raw=raw,
    )
    masked = masked_brief(brief)
    assert masked.claims[0].url == "http://alice:***@peps.example.org/pep-0632/"
    assert b"s3cret" not in _unzipped(masked.raw) and b"alice:***@" in _unzipped(masked.raw)
    # The document still opens, its link intact but for the password.
    rels = docx.Document(io.BytesIO(masked.raw)).part.rels.values()
    assert [r.target_ref for r in rels if r.reltype == RT.HYPERLINK] == ["http://alice:***@peps.example.org/pep-0632/"]
    plain = _docx_with_link("https://peps.example.org/pep-0632/")
    assert masked_brief(Brief(name="p.docx", format=BriefFormat.DOCX, claims=(), raw=plain)).raw is plain


def _unzipped(raw: bytes) -> bytes:
    with zipfile.ZipFile(io.BytesIO(raw)) as z:
        return b"".join(z.read(n) for n in z.namelist())


def test_a_redirect_to_a_link_with_a_password_is_refused_and_kept_masked(server: LoopbackServer) -> None:
    target = server.url("/x").replace("http://", "http://eve:topsecret@")
    server.routes["/moved"] = redirect(target)
    with Fetcher(Settings().with_(allow_private=True)) as fetcher:
        got = fetcher.fetch(server.url("/moved"))
    assert got.status is SourceStatus.BLOCKED and server.requests == ["/moved"]
    assert got.final_url == target.replace("topsecret", "***")
    assert "topsecret" not in got.reason and "eve:***@" in got.reason
