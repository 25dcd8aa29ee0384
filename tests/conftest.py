"""Shared fixtures: a loopback server, the corpus, a private store per test, PostgreSQL, no developer's secrets."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.settings import Settings
from tests.pg import MISSING, PostgresServer, find_bindir, running_server
from tests.servers import CORPUS, LoopbackServer, serve


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    with serve() as s:
        yield s


@pytest.fixture
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.fail(f"the shared corpus is missing at {CORPUS}: check out ../shared beside the repo")
    return CORPUS


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings for tests: loopback allowed (tests serve from 127.0.0.1), store in tmp_path."""
    return Settings(allow_private=True, db_path=tmp_path / "verbatim.sqlite3")


@pytest.fixture(autouse=True)
def _isolated_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # No test may write to the user's real store under ~/.local/share.
    monkeypatch.setenv("VERBATIM_DB", str(tmp_path / "env-store.sqlite3"))
    # Nor to the desk's real outbox under ~/.local/state (changes kept while a store is away).
    monkeypatch.setenv("VERBATIM_OUTBOX", str(tmp_path / "outbox"))


@pytest.fixture(autouse=True)
def _no_developer_secrets(tmp_path: Path) -> Iterator[None]:
    """Keep a developer's .streamlit/secrets.toml (sign-in) out of AppTest runs: the desk is single-user in tests."""
    import sys

    if "streamlit" not in sys.modules:  # core's tests never load Streamlit: nothing to isolate
        yield
        return
    from streamlit import config
    from streamlit.runtime.secrets import secrets_singleton

    before = config.get_option("secrets.files")
    config.set_option("secrets.files", [str(tmp_path / "no-secrets.toml")])
    secrets_singleton._reset()
    try:
        yield
    finally:
        config.set_option("secrets.files", before)
        secrets_singleton._reset()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    """One throwaway PostgreSQL cluster on a loopback port for the whole test session (tests/pg.py)."""
    if find_bindir() is None:
        pytest.fail(MISSING)
    with running_server() as server:
        yield server


@pytest.fixture
def pg_url(pg_server: PostgresServer) -> str:
    """The URL of an empty PostgreSQL database of this test's own."""
    return pg_server.new_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new, empty store's target, once a SQLite file and once a PostgreSQL database: store tests run on both."""
    if request.param == "sqlite":
        return str(tmp_path / "store.sqlite3")
    return str(request.getfixturevalue("pg_url"))
