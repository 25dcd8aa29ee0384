"""The command-line contract of DESIGN.md: outputs, exit statuses and the exact messages."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from core.errors import StoreError
from core.samples import SAMPLE_BRIEF, load_samples
from core.store import Store
from tests.builders import run_cli, sample_claims
from tests.servers import LoopbackServer, corpus_bytes

ROOT = Path(__file__).resolve().parents[1]


def _sample_db(tmp_path: Path) -> Path:
    db = tmp_path / "store.sqlite3"
    load_samples(Store(db))
    return db


def test_sample_writes_every_report_and_exits_0(tmp_path: Path) -> None:
    db = _sample_db(tmp_path)
    paths = {k: tmp_path / f"report.{k}" for k in ("json", "html", "csv")}
    code, out, err = run_cli(
        "check", str(SAMPLE_BRIEF), "--offline", "--db", str(db),
        "--json", str(paths["json"]), "--html", str(paths["html"]), "--csv", str(paths["csv"]),
    )  # fmt: skip
    assert (code, err) == (0, "")
    data = json.loads(paths["json"].read_text())
    assert data["schema"] == 1
    assert [c["id"] for c in data["claims"]] == [f"c{i}" for i in range(1, 11)]
    assert data["summary"]["verified"] == 3 and data["summary"]["dead_link"] == 1
    assert "<!DOCTYPE html>" in paths["html"].read_text()[:200] or "<html" in paths["html"].read_text()[:400]
    assert paths["csv"].read_text().count("\n") >= 11
    lines = out.splitlines()
    assert lines[0].split("\t")[:3] == ["c1", "verified", "https://docs.python.org/3/whatsnew/3.11.html"]
    assert lines[3].split("\t")[1:] == [
        "figures_mismatch",
        "https://peps.python.org/pep-0632/",
        "The quote holds no version equal to “3.8”: it has 3.10, 3.11.",
    ]
    assert lines[10] == "10 claims: 3 verified, 3 figures_mismatch, 2 quote_not_found, 1 no_quote, 1 dead_link"
    # The claim without a quote passes the gate unchecked, and the summary says so.
    assert lines[11] == (
        "1 claim passed the gate unchecked: it offers no quote, so its words were not checked against the page "
        "(only its figures were looked for there). Quote the page's exact words to have them checked."
    )
    assert "run " in out and str(db) in out


def test_offline_checks_the_bundled_sample_with_a_fresh_store(tmp_path: Path) -> None:
    code, out, err = run_cli("check", str(SAMPLE_BRIEF), "--offline", "--db", str(tmp_path / "fresh.sqlite3"))
    assert (code, err) == (0, "")
    assert "10 claims: 3 verified, 3 figures_mismatch, 2 quote_not_found, 1 no_quote, 1 dead_link" in out


def test_strict_exits_1_on_mismatch_not_found_or_dead_link(tmp_path: Path) -> None:
    code, _, _ = run_cli("check", str(SAMPLE_BRIEF), "--offline", "--db", str(_sample_db(tmp_path)), "--strict")
    assert code == 1


def test_missing_brief_exits_2_with_what_to_do(tmp_path: Path) -> None:
    code, out, err = run_cli("check", str(tmp_path / "nowhere.md"), "--no-cache")
    assert code == 2 and out == ""
    path = tmp_path / "nowhere.md"
    assert err == f"error: cannot read the brief {path}: No such file or directory. Check the path and try again.\n"


def test_empty_brief_exits_2(tmp_path: Path) -> None:
    empty = tmp_path / "empty.md"
    empty.write_bytes(b"")
    code, _, err = run_cli("check", str(empty), "--no-cache")
    assert code == 2
    assert err.startswith("error: ") and "empty.md" in err


def test_binary_garbage_brief_exits_2(tmp_path: Path) -> None:
    junk = tmp_path / "brief.pdf"
    junk.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 40)
    code, _, err = run_cli("check", str(junk), "--no-cache")
    assert code == 2 and "brief.pdf" in err


def test_no_cache_keeps_nothing_on_disk(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    brief = tmp_path / "b.json"
    brief.write_text(
        json.dumps([{"claim": "x", "url": "file:///etc/passwd", "quote": "root:x:0:0:root:/root:/bin/bash"}])
    )
    code, out, _ = run_cli("check", str(brief), "--no-cache")
    assert code == 0 and "blocked" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.json"]


STORE_REMEDY = (
    "Set VERBATIM_DB (on the command line, --db) to a file you can write to, or run with --no-cache to keep nothing."
)


def test_a_store_that_cannot_be_opened_exits_2_with_core_s_message(tmp_path: Path) -> None:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    # Paths no one can open, root included: a folder, and a path under a file that is not a folder.
    for db, why in ((folder, "unable to open database file"), (Path("/dev/null/x.sqlite3"), "File exists")):
        code, out, err = run_cli("check", str(SAMPLE_BRIEF), "--offline", "--db", str(db))
        assert (code, out) == (2, "")
        assert err == f"error: The evidence store at {db} cannot be opened: {why}. {STORE_REMEDY}\n"


def test_a_run_the_store_cannot_keep_still_writes_its_reports(tmp_path: Path, monkeypatch) -> None:
    def refuse(self: Store, *args: object, **kwargs: object) -> str:
        raise StoreError(self.path, "written", "database or disk is full")

    monkeypatch.setattr(Store, "save_run", refuse)
    db, report = _sample_db(tmp_path), tmp_path / "report.json"
    code, out, err = run_cli("check", str(SAMPLE_BRIEF), "--offline", "--db", str(db), "--json", str(report))
    assert code == 2
    assert err == (f"error: The evidence store at {db} cannot be written: database or disk is full. {STORE_REMEDY}\n")
    assert "10 claims:" in out and "run " not in out
    data = json.loads(report.read_text())
    assert data["run_id"] == "" and len(data["claims"]) == 10


def test_python_dash_m_core_runs() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "core", "--help"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0 and "check" in proc.stdout


def test_strict_gates_an_agent_s_claims_file(server: LoopbackServer, tmp_path: Path) -> None:
    claims = sample_claims(server)
    login = server.add("/login", corpus_bytes("html/python/whatsnew/3.11.html"), status=403)
    passing, failing = tmp_path / "passing.json", tmp_path / "failing.json"
    # Verified claims and one page behind a login (not_checked: the machine could not look) pass the gate.
    passing.write_text(json.dumps([claims[0], claims[4], {**claims[0], "url": login}]), encoding="utf-8")
    failing.write_text(json.dumps([claims[0], claims[7]]), encoding="utf-8")  # c8 dropped "experimental"
    db = str(tmp_path / "s.sqlite3")
    assert run_cli("check", str(passing), "--allow-private", "--db", db, "--strict")[0] == 0
    code, out, _ = run_cli("check", str(failing), "--allow-private", "--db", db, "--strict")
    assert code == 1 and "\tquote_not_found\t" in out


def test_ocr_is_off_unless_the_flag_asks() -> None:
    from core.cli import _parser, _settings

    assert _settings(_parser().parse_args(["check", "brief.md"])).ocr is False
    assert _settings(_parser().parse_args(["check", "brief.md", "--ocr"])).ocr is True
