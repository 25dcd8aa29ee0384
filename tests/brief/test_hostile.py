"""Hostile briefs on the real command line: an unreadable brief exits 2 naming the file and what to do.

Empty, oversized, corrupt, bombed, truncated and encrypted briefs each get one line on stderr
and nothing on stdout; a brief that reads but cites nothing exits 0 with a report that says so.
One test runs ``python -m core check`` as a real process against a loopback page.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import lxml.html
import pymupdf
import pytest

from tests.builders import run_cli
from tests.fetch_servers import page, serve_quick
from tests.servers import LoopbackServer

ROOT = Path(__file__).resolve().parents[2]
FORMATS = ROOT / "assets" / "samples" / "formats"
SAMPLE_PDF = (FORMATS / "brief.pdf").read_bytes()
SAMPLE_DOCX = (FORMATS / "brief.docx").read_bytes()


def _encrypted_pdf(path: Path) -> bytes:
    doc = pymupdf.open(stream=SAMPLE_PDF, filetype="pdf")
    doc.save(str(path), encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="reader", owner_pw="owner")
    return path.read_bytes()


#: Where a zip header keeps (its uncompressed size, its name's length, its name): local and central.
_HEADERS = {b"PK\x03\x04": (22, 26, 30), b"PK\x01\x02": (24, 28, 46)}


def _docx_bomb(unpacked_mb: int, *, declared: int | None = None) -> bytes:
    """Return the sample DOCX with word/document.xml replaced by unpacked_mb of zeros.

    With ``declared``, the zip's headers lie: they say the part unpacks to that many bytes.
    """
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(SAMPLE_DOCX)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            if info.filename != "word/document.xml":
                z.writestr(info.filename, src.read(info))
        part_info = zipfile.ZipInfo("word/document.xml")
        part_info.compress_type = zipfile.ZIP_DEFLATED
        with z.open(part_info, "w") as part:
            zeros = bytes(1 << 20)
            for _ in range(unpacked_mb):
                part.write(zeros)
    data = bytearray(out.getvalue())
    if declared is not None:
        for signature, (size_at, name_len_at, name_at) in _HEADERS.items():
            pos = data.find(signature)
            while pos != -1:
                name_len = int.from_bytes(data[pos + name_len_at : pos + name_len_at + 2], "little")
                if data[pos + name_at : pos + name_at + name_len] == b"word/document.xml":
                    data[pos + size_at : pos + size_at + 4] = declared.to_bytes(4, "little")
                pos = data.find(signature, pos + 4)
    return bytes(data)


def _cases(tmp: Path) -> list[tuple[str, str, bytes, str]]:
    """Return (case, file name, bytes, exact message) for every unreadable brief."""
    line = b"Claim [src](http://127.0.0.1:9/a).\n"  # loopback: nothing could leave this machine
    big = line * (20 * 1024 * 1024 // len(line) + 1)
    return [
        ("empty", "empty.md", b"",
         "empty.md is empty: there is nothing to check. Choose the file again, or paste the brief."),
        ("blank", "blank.txt", b"\n \t\r\n",
         "blank.txt is empty: there is nothing to check. Choose the file again, or paste the brief."),
        ("20 MB", "huge.md", big,
         "huge.md is 20.0 MB, more than the 20 MB a brief may be. Split it into smaller briefs, or remove images and"
         " attachments."),
        ("corrupt docx", "brief.docx", bytes(range(256)) * 8,
         "brief.docx is not a Word document: it is not a .docx (zip) archive, so it may be damaged or another format."
         " Save it again from Word as .docx, or paste the text."),
        ("truncated docx", "brief.docx", SAMPLE_DOCX[: len(SAMPLE_DOCX) // 2],
         "brief.docx is not a readable Word document: it is not a complete .docx (zip) archive, so it may be damaged,"
         " cut short or another format. Save it again from Word as .docx, or paste the text."),
        ("truncated pdf", "brief.pdf", SAMPLE_PDF[: len(SAMPLE_PDF) // 2],
         "brief.pdf is a damaged or incomplete PDF (cut short?): no text could be read from it. Save or export the PDF"
         " again, or paste the text."),
        ("encrypted pdf", "brief.pdf", _encrypted_pdf(tmp / "locked.pdf"),
         "brief.pdf is encrypted: Verbatim cannot read it. Save an unencrypted copy or paste the text."),
    ]  # fmt: skip


def test_unreadable_briefs_exit_2_naming_the_file_and_what_to_do(tmp_path: Path) -> None:
    for case, name, data, message in _cases(tmp_path):
        folder = tmp_path / case.replace(" ", "-")
        folder.mkdir()
        brief = folder / name
        brief.write_bytes(data)
        report = folder / "report.json"
        code, out, err = run_cli("check", str(brief), "--no-cache", "--json", str(report))
        assert (case, code, out, err) == (case, 2, "", f"error: {message}\n")
        assert not report.exists(), case  # nothing half-written


def test_docx_zip_bomb_is_refused_before_unpacking(tmp_path: Path) -> None:
    brief = tmp_path / "bomb.docx"
    brief.write_bytes(_docx_bomb(210))  # 210 MB of zeros in about 200 KB
    code, out, err = run_cli("check", str(brief), "--no-cache")
    assert (code, out) == (2, "")
    assert err.startswith("error: bomb.docx would unpack to 210.")
    assert err.endswith(
        "more than a Word brief may (200 MB): it is not an ordinary document (possibly a zip bomb) and was not opened."
        " Save the brief again from Word, or paste the text.\n"
    )


def test_docx_zip_bomb_lying_about_its_size_unpacks_no_further_than_it_says(tmp_path: Path) -> None:
    brief = tmp_path / "liar.docx"
    brief.write_bytes(_docx_bomb(64, declared=4096))
    code, out, err = run_cli("check", str(brief), "--no-cache")
    assert (code, out) == (2, "")
    assert err.startswith("error: liar.docx is a damaged Word document (")
    assert err.endswith("Open it in Word and save it again, or paste the text.\n")


def test_brief_without_claims_exits_0_with_a_report_that_says_so(tmp_path: Path) -> None:
    brief = tmp_path / "notes.md"
    brief.write_text("# Notes <script>alert(1)</script>\n\nJust some notes.\n\nNo links at all.\n", encoding="utf-8")
    paths = {k: tmp_path / f"r.{k}" for k in ("json", "html", "csv", "docx")}
    code, out, err = run_cli(
        "check", str(brief), "--no-cache",
        "--json", str(paths["json"]), "--html", str(paths["html"]), "--csv", str(paths["csv"]),
        "--docx", str(paths["docx"]),
    )  # fmt: skip
    warning = (
        "notes.md has no claim with a citation: no sentence links to a source. Add links (or a references section)"
        " to the sentences to be checked."
    )
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "0 claims: none",
        "2 sentences cite no source (listed in the report as uncited).",
        f"warning: {warning}",
    ]
    data = json.loads(paths["json"].read_text(encoding="utf-8"))
    assert data["claims"] == [] and set(data["summary"].values()) == {0}
    doc = lxml.html.fromstring(paths["html"].read_bytes())
    assert doc.xpath("string(//p[@id='no-claims'])").startswith("No claims were found in this brief")
    assert doc.xpath("//ul[@id='warnings']/li/text()") == [warning]
    assert doc.xpath("//ul[@id='uncited']/li/text()") == ["Just some notes.", "No links at all."]
    assert paths["csv"].read_text(encoding="utf-8").splitlines() == [
        "id,claim,url,quote,verdict,reasons,missing_figures,decision,note,citation,decided_by,decided_at,"
        "offered_passage,figure_statuses,signs,adopted_by"
    ]
    assert paths["docx"].read_bytes()[:2] == b"PK"


@pytest.fixture
def site() -> Iterator[LoopbackServer]:
    with serve_quick() as s:
        s.add("/pep-0632/", page("pep-0632")[0])
        yield s


def test_python_m_core_check_runs_as_a_process(site: LoopbackServer, tmp_path: Path) -> None:
    brief = tmp_path / "brief.md"
    brief.write_text(
        "PEP 632 planned to mark distutils deprecated in Python 3.10 and 3.11"
        f' ([PEP 632]({site.url("/pep-0632/")})): "In Python 3.10 and 3.11, distutils will be formally marked as'
        ' deprecated".\n\n'
        "The gone page says nothing ([gone](" + site.url("/gone") + ")).\n",
        encoding="utf-8",
    )
    report = tmp_path / "out" / "report.json"
    done = subprocess.run(
        [sys.executable, "-m", "core", "check", str(brief), "--allow-private", "--no-cache", "--strict",
         "--json", str(report)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.stderr == ""
    assert done.returncode == 1  # --strict: the dead link fails the run
    lines = done.stdout.splitlines()
    assert [line.split("\t")[:3] for line in lines[:2]] == [
        ["c1", "verified", site.url("/pep-0632/")],
        ["c2", "dead_link", site.url("/gone")],
    ]
    assert lines[2] == "2 claims: 1 verified, 1 dead_link"
    assert [c["verdict"] for c in json.loads(report.read_text(encoding="utf-8"))["claims"]] == ["verified", "dead_link"]


def test_unwritable_report_paths_cost_no_other_report(tmp_path: Path) -> None:
    brief = tmp_path / "brief.md"
    brief.write_text("Notes with no claims at all.\n", encoding="utf-8")
    (tmp_path / "taken").mkdir()
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    csv_path = tmp_path / "ok.csv"
    code, out, err = run_cli(
        "check", str(brief), "--db", str(tmp_path / "store.sqlite3"), "--json", str(tmp_path / "taken"),
        "--html", str(blocker / "r.html"), "--csv", str(csv_path),
    )  # fmt: skip
    assert code == 2
    run_id = next(line.split()[1] for line in out.splitlines() if line.startswith("run "))
    assert err.splitlines() == [
        f"error: cannot write the JSON report to {tmp_path / 'taken'}: Is a directory; the run is kept in the store"
        f" as run {run_id}. Choose a path you can write to and run again.",
        f"error: cannot write the HTML report to {blocker / 'r.html'}: File exists; the run is kept in the store"
        f" as run {run_id}. Choose a path you can write to and run again.",
    ]
    assert csv_path.read_text(encoding="utf-8").startswith("id,claim,url,quote,verdict")


def test_a_store_that_is_not_a_database_gives_a_message_not_a_traceback(tmp_path: Path) -> None:
    brief = tmp_path / "brief.md"
    brief.write_text("Notes with no claims at all.\n", encoding="utf-8")
    bad = tmp_path / "store.sqlite3"
    bad.write_bytes(b"not a database" + bytes(range(256)) * 20)
    blocked = tmp_path / "file"
    blocked.write_text("a file where a folder should be")
    for db, why in ((bad, "file is not a database"), (blocked / "store.sqlite3", "File exists")):
        code, out, err = run_cli("check", str(brief), "--db", str(db))
        assert (code, out) == (2, "")
        assert err == (
            f"error: The evidence store at {db} cannot be opened: {why}. Set VERBATIM_DB (on the command line,"
            " --db) to a file you can write to, or run with --no-cache to keep nothing.\n"
        )


def future_zip_version(data: bytes) -> bytes:
    """Return a DOCX whose first central directory entry asks for zip version 19.8 (as damage can)."""
    out = bytearray(data)
    at = out.find(b"PK\x01\x02")
    out[at + 6 : at + 8] = (198).to_bytes(2, "little")  # "version needed to extract"
    return bytes(out)


def test_docx_brief_with_a_damaged_zip_version_exits_2(tmp_path: Path) -> None:
    brief = tmp_path / "brief.docx"
    brief.write_bytes(future_zip_version(SAMPLE_DOCX))
    code, out, err = run_cli("check", str(brief), "--no-cache")
    assert (code, out) == (2, "")
    assert err.startswith("error: brief.docx is not a readable Word document")


def test_brief_of_unclosed_links_is_read_without_stalling(tmp_path: Path) -> None:
    brief = tmp_path / "brackets.md"
    brief.write_bytes(
        b"A claim [source](http://127.0.0.1:9/a).\n\n"
        + b"[" * 60_000
        + b"\n\n"
        + b"[x](" * 8_000
        + b"\n\n"
        + b"![" * 8_000
        + b"\n\n"
        + b"[^" * 20_000
    )
    try:
        # A separate process: a stalled parse is killed at the timeout instead of holding the suite.
        code = f"from core.brief.read import read_brief; read_brief(open({str(brief)!r}, 'rb').read(), 'b.md')"
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=5, check=False
        )
    except subprocess.TimeoutExpired:
        pytest.fail("reading a brief of unclosed brackets (100 KB) did not finish within 5 s")
    assert (done.returncode, done.stderr) == (0, "")
