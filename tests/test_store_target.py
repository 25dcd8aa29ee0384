"""What VERBATIM_DB names (a file or a team store's URL), and that no message shows a URL's password."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.samples import SAMPLE_BRIEF
from core.settings import Settings
from core.store import Store, is_postgres, shown
from tests.builders import run_cli


@pytest.mark.parametrize(
    ("target", "seen"),
    [
        ("postgresql://editor:s3cret@db.newsroom.example:6543/desk", "db.newsroom.example:6543/desk"),
        ("postgres://db.newsroom.example/desk?sslmode=require", "db.newsroom.example:5432/desk"),
        ("postgresql://editor:s3cret@[::1]/", "[::1]:5432/postgres"),
        ("postgresql://editor:s3cret@host:notaport/desk", "host:5432/desk"),
        ("/srv/verbatim/desk.sqlite3", "/srv/verbatim/desk.sqlite3"),
        (Path("desk.sqlite3"), "desk.sqlite3"),
    ],
)
def test_a_target_is_shown_without_its_credentials(target: str | Path, seen: str) -> None:
    assert shown(target) == seen
    assert "s3cret" not in shown(target) and "editor" not in shown(target)
    assert is_postgres(target) == str(target).startswith("postgres")


def test_verbatim_db_may_be_a_url_or_a_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("VERBATIM_DB", "postgresql://editor:s3cret@db:5432/desk")
    assert Settings.from_env().db_path == "postgresql://editor:s3cret@db:5432/desk"
    monkeypatch.setenv("VERBATIM_DB", str(tmp_path / "desk.sqlite3"))
    assert Settings.from_env().db_path == tmp_path / "desk.sqlite3"


def test_the_cli_names_a_team_store_without_its_password(pg_url: str) -> None:
    # The throwaway server trusts loopback: the password is accepted, and must never be printed.
    url = pg_url.replace("verbatim@", "verbatim:s3cret@")
    code, out, err = run_cli("check", str(SAMPLE_BRIEF), "--offline", "--db", url)
    assert (code, err) == (0, "")
    (saved,) = [line for line in out.splitlines() if line.startswith("run ")]
    assert saved.endswith(f" saved in {shown(url)}") and "s3cret" not in out
    with Store(url) as store:
        assert [r.brief_name for r in store.list_runs()] == [SAMPLE_BRIEF.name]
