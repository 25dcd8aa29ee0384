"""The desk's check counts claims as they are decided: a real check, one source held back by its server."""

from __future__ import annotations

import http.server
import json
import threading
from pathlib import Path

from core.brief import read_brief
from core.models import Verdict
from core.settings import Settings
from core.store import Store
from tests.servers import LoopbackServer, Reply, corpus_bytes
from ui import services

PEP = "html/python/peps/pep-0632.html"
QUOTE = "In Python 3.10 and 3.11, distutils will be formally marked as deprecated"


def test_claims_decided_are_counted_while_a_source_is_still_coming(tmp_path: Path, server: LoopbackServer) -> None:
    release = threading.Event()
    body = corpus_bytes(PEP)

    def held(h: http.server.BaseHTTPRequestHandler) -> None:
        release.wait(60)
        h.send_response(200)
        h.send_header("Content-Type", "text/html; charset=utf-8")
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)

    quick = [server.add(f"/pep{k}", body) for k in range(3)]
    server.routes["/held"] = Reply(handler=held)
    claims = [{"claim": "It says so.", "url": u, "quote": QUOTE} for u in quick]
    claims += [{"claim": "It says so.", "url": server.url("/held"), "quote": QUOTE}]
    brief = read_brief(json.dumps({"claims": claims}).encode(), "four.json")
    settings = Settings(allow_private=True, db_path=tmp_path / "v.sqlite3", extract_workers=0)
    job = services.CheckJob(brief, settings, Store(settings.db_path)).start()
    try:
        for _ in range(1200):  # up to a minute: three quick sources read and checked
            if sum(job.decided.values()) >= 3:
                break
            job.wait(0.05)
            job.drain()
        assert not job.done
        assert job.tally()[Verdict.VERIFIED.value] == 3
    finally:
        release.set()
    job.wait(60)
    job.drain()
    assert job.done and job.tally() == job.result().summary
