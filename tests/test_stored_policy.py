"""A stored copy is served only where the policy in force would fetch its URL (issue 16, 2).

A page fetched with private networks allowed must not reach a later run that does not allow
them: not offline, not from the store on a name that resolves to this machine, not through a
redirect. Every server here is on loopback; names are resolved by a stub.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import httpcore

from core.fetch import Fetcher
from core.models import Origin, SourceStatus
from core.settings import Settings
from core.store import Store
from tests.builders import run_cli
from tests.servers import LoopbackServer, corpus_bytes

QUOTE = "In Python 3.10 and 3.11, distutils will be formally marked as deprecated."
PRIVATE_WORDS = "distutils will be formally marked as deprecated"


def _brief(tmp_path: Path, url: str) -> Path:
    brief = tmp_path / "b.md"
    brief.write_text(f'Distutils was deprecated ([PEP 632]({url})): "{QUOTE}"\n', encoding="utf-8")
    return brief


def test_a_copy_fetched_with_private_allowed_is_blocked_for_a_later_run_without(
    server: LoopbackServer, tmp_path: Path
) -> None:
    url = server.add("/pep-0632", corpus_bytes("html/python/peps/pep-0632.html"))
    brief, db = _brief(tmp_path, url), str(tmp_path / "s.sqlite3")
    code, out, _ = run_cli("check", str(brief), "--allow-private", "--db", db)
    assert code == 0 and out.split("\t")[1] == "verified"
    for extra in ((), ("--offline",)):
        html = tmp_path / "r.html"
        code, out, err = run_cli("check", str(brief), "--db", db, "--html", str(html), *extra)
        assert (code, err) == (0, "")
        assert out.splitlines()[0].split("\t")[1:] == [
            "blocked",
            url,
            "The address 127.0.0.1 is not a public internet address (loopback, this computer): Verbatim does not"
            " fetch from private or local networks. If this is your own intranet, run again with --allow-private.",
        ]
        assert PRIVATE_WORDS not in html.read_text(encoding="utf-8").split("</blockquote>", 1)[-1]
    assert server.requests == ["/pep-0632"]  # the later runs fetched nothing


class _Intranet:
    """intranet.example resolves to 127.0.0.1; its connections go to the loopback server."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.connects = 0

    def resolve(self, host: str, port: int) -> list[str]:
        return ["127.0.0.1"]

    def connect(self, address: str, port: int, timeout: float | None) -> httpcore.NetworkStream:
        self.connects += 1
        return httpcore.SyncBackend().connect_tcp("127.0.0.1", self.port, timeout=timeout)


def test_a_stored_copy_of_a_name_that_resolved_to_this_machine_is_blocked(
    server: LoopbackServer, settings: Settings
) -> None:
    server.add("/wiki", corpus_bytes("html/python/peps/pep-0632.html"))
    net = _Intranet(server.port)
    store = Store(settings.db_path)
    with Fetcher(settings, store, resolver=net.resolve, connector=net.connect) as f:
        first = f.fetch("http://intranet.example/wiki")
    assert first.status is SourceStatus.OK and first.addresses == (("intranet.example", "127.0.0.1"),)
    with Fetcher(settings.with_(allow_private=False), store, resolver=net.resolve, connector=net.connect) as f:
        later = f.fetch("http://intranet.example/wiki")
    assert later.status is SourceStatus.BLOCKED and not later.body
    assert later.reason.startswith("The host intranet.example resolves to 127.0.0.1, which is not a public")
    assert net.connects == 1
    with Fetcher(settings, store, resolver=net.resolve, connector=net.connect) as f:
        allowed = f.fetch("http://intranet.example/wiki")  # a run that allows private networks still gets it
    assert allowed.status is SourceStatus.OK and allowed.origin is Origin.CACHE and net.connects == 1


def test_a_copy_older_than_the_address_record_is_fetched_again_not_trusted(
    server: LoopbackServer, settings: Settings
) -> None:
    server.add("/wiki", corpus_bytes("html/python/peps/pep-0632.html"))
    net = _Intranet(server.port)
    store = Store(settings.db_path)
    with Fetcher(settings, store, resolver=net.resolve, connector=net.connect) as f:
        f.fetch("http://intranet.example/wiki")
    store.close()
    # A store file of the previous version: the copy does not say where it came from.
    with sqlite3.connect(settings.db_path) as conn:
        conn.execute("UPDATE sources SET addresses = ''")
    store = Store(settings.db_path)
    assert store.latest_source("http://intranet.example/wiki").addresses is None  # type: ignore[union-attr]
    with Fetcher(settings.with_(allow_private=False), store, resolver=net.resolve, connector=net.connect) as f:
        later = f.fetch("http://intranet.example/wiki")
    # Not served from the store: fetched again, and the guard refused the address before connecting.
    assert later.status is SourceStatus.BLOCKED and net.connects == 1
