"""Bodies stored by content (migration 0002), on both engines: one body per sha256, moved from older stores whole."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

from core.models import Origin, SourceStatus
from core.store import Store
from core.store.migrate import known, upgrade
from core.store.store import engine_for
from tests.builders import source
from tests.servers import corpus_bytes

PEP = "html/python/peps/pep-0632.html"


def _count(store: Store, sql: str) -> int:
    with store._engine.read() as c:
        return int(c.execute(sql).fetchone()[0])


def test_two_fetches_of_the_same_bytes_keep_one_body(store_target: str) -> None:
    body = corpus_bytes(PEP)
    with Store(store_target) as store:
        store.save_source(source("https://peps.python.org/pep-0632/", body, fetched_at="2026-11-29T19:00:00+00:00"))
        store.save_source(source("https://peps.python.org/pep-0632/", body, fetched_at="2026-11-30T08:00:00+00:00"))
        store.save_source(source("https://mirror.example/pep-0632.html", body, origin=Origin.EDITOR))
        store.save_source(source("https://peps.python.org/pep-0632/", b"", status=SourceStatus.DEAD_LINK))
        assert (_count(store, "SELECT COUNT(*) FROM sources"), _count(store, "SELECT COUNT(*) FROM bodies")) == (4, 1)
        history = store.source_history("https://peps.python.org/pep-0632/")
        mirror = store.latest_source("https://mirror.example/pep-0632.html")
    assert [(s.status.value, s.body == body, s.fetched_at[:10]) for s in history] == [
        ("dead_link", False, history[0].fetched_at[:10]),
        ("ok", True, "2026-11-30"),
        ("ok", True, "2026-11-29"),
    ]
    assert history[0].body == b"" and history[0].sha256 == ""
    assert mirror is not None and mirror.body == body and mirror.sha256 == hashlib.sha256(body).hexdigest()


def test_a_body_saved_under_another_digest_is_kept_under_its_own(store_target: str) -> None:
    with Store(store_target) as store:
        store.save_source(source("https://a.example/", b"<p>a</p>", sha256="not-the-digest"))
        back = store.latest_source("https://a.example/")
    assert back is not None and (back.body, back.sha256) == (b"<p>a</p>", hashlib.sha256(b"<p>a</p>").hexdigest())


def test_a_store_of_the_baseline_moves_its_bodies_without_loss(store_target: str) -> None:
    engine = engine_for(store_target)
    upgrade(engine, known()[:1])  # the store as 0001 made it: bodies inline in sources
    pep, other = corpus_bytes(PEP), b"<p>other</p>"
    rows = [  # url, sha256 as stored, body
        ("https://peps.python.org/pep-0632/", hashlib.sha256(pep).hexdigest(), pep),
        ("https://peps.python.org/pep-0632/", hashlib.sha256(pep).hexdigest(), pep),  # fetched again, same bytes
        ("https://b.example/", "", other),  # saved without its digest
        ("https://c.example/", "0" * 64, other),  # saved with a wrong one
        ("https://gone.example/", "", None),  # a failure: no bytes
    ]
    with engine.write() as c:
        for i, (url, sha, body) in enumerate(rows):
            status = "ok" if body is not None else "dead_link"
            c.execute(
                "INSERT INTO sources (url, status, sha256, fetched_at, body) VALUES (?, ?, ?, ?, ?)",
                (url, status, sha, f"2026-11-0{i + 1}T00:00:00+00:00", body),
            )
    engine.close()
    with Store(store_target) as store:
        assert [m.label for m in store.applied][:1] == ["0002 bodies"]
        assert _count(store, "SELECT COUNT(*) FROM bodies") == 2
        assert _count(store, "SELECT COUNT(*) FROM sources") == 5
        got = {url: store.source_history(url) for url, _, _ in rows}
    assert [s.body for s in got["https://peps.python.org/pep-0632/"]] == [pep, pep]
    for url in ("https://b.example/", "https://c.example/"):
        [kept] = got[url]
        assert (kept.body, kept.sha256) == (other, hashlib.sha256(other).hexdigest())
    [gone] = got["https://gone.example/"]
    assert (gone.status, gone.body, gone.sha256) == (SourceStatus.DEAD_LINK, b"", "")


def test_a_sqlite_store_file_made_before_migrations_keeps_its_bodies(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    body = corpus_bytes(PEP)
    with sqlite3.connect(path) as old:
        old.executescript(
            "CREATE TABLE sources (id INTEGER PRIMARY KEY, url TEXT NOT NULL, final_url TEXT NOT NULL DEFAULT '',"
            " status TEXT NOT NULL, http_status INTEGER, headers TEXT NOT NULL DEFAULT '[]', content_type TEXT NOT"
            " NULL DEFAULT '', sha256 TEXT NOT NULL DEFAULT '', fetched_at TEXT NOT NULL, body BLOB, origin TEXT NOT"
            " NULL DEFAULT 'fetched', reason TEXT NOT NULL DEFAULT '', drift INTEGER NOT NULL DEFAULT 0);"
            "CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (1);"
        )
        old.execute(
            "INSERT INTO sources (url, status, sha256, fetched_at, body) VALUES (?, 'ok', ?, 't', ?)",
            ("https://peps.python.org/pep-0632/", hashlib.sha256(body).hexdigest(), body),
        )
    old.close()
    with Store(path) as store:
        back = store.latest_source("https://peps.python.org/pep-0632/")
        assert back is not None and back.body == body and back.addresses is None
        with store._engine.read() as c:
            assert "body" not in store._engine.columns(c, "sources")
