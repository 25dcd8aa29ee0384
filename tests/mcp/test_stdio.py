"""The server's stdio as a client sees it byte by byte: protocol only on stdout, logs on stderr."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.builders import ROOT, run_cli, sample_claims
from tests.servers import LoopbackServer

_INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}},
}


def _exchange(lines: list[str], last_id: int, *args: str) -> tuple[list[dict[str, Any]], str]:
    """Send lines to a spawned server, read stdout until the answer to last_id, return every line parsed, and stderr."""
    with subprocess.Popen(
        [sys.executable, "-m", "core", "mcp", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        proc.stdin.write("".join(line + "\n" for line in lines))
        proc.stdin.flush()
        messages = []
        # The answer to a call comes before the session ends: stdin stays open until it is read.
        while not messages or messages[-1].get("id") != last_id:
            line = proc.stdout.readline()
            assert line, f"the server closed stdout early: {proc.stderr.read()}"
            messages.append(json.loads(line))
        proc.stdin.close()
        rest = proc.stdout.read()
        assert rest == ""
        assert proc.wait(timeout=60) == 0
        return messages, proc.stderr.read()


def test_stdout_carries_only_protocol_and_a_line_that_is_not_json_rpc_does_not_end_the_session(
    server: LoopbackServer, tmp_path: Path
) -> None:
    claims = sample_claims(server)[:2]
    call = {"name": "check_claims", "arguments": {"claims": claims}}
    messages, _ = _exchange(
        [
            json.dumps(_INITIALIZE),
            json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            '{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "check_claims", "arguments": {',
            json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": call}),
        ],
        3,
        "--allow-private",
        "--db",
        str(tmp_path / "s.sqlite3"),
    )
    assert [m["jsonrpc"] for m in messages] == ["2.0", "2.0"]  # every stdout line is a JSON-RPC message
    assert [m.get("id") for m in messages] == [1, 3]  # the broken line is dropped, the next call answered
    verdicts = [c["verdict"] for c in messages[1]["result"]["structuredContent"]["claims"]]
    assert verdicts == ["verified", "verified"]


def test_a_missing_brief_dir_stops_the_server_with_what_to_do(tmp_path: Path) -> None:
    code, out, err = run_cli("mcp", "--no-cache", "--brief-dir", str(tmp_path / "nowhere"))
    assert (code, out) == (2, "")
    assert err == f"error: --brief-dir {tmp_path / 'nowhere'} is not a folder. Give a folder that exists.\n"


def test_a_store_that_cannot_be_opened_stops_the_server(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    code, out, err = run_cli("mcp", "--db", str(blocker / "store.sqlite3"))
    assert (code, out) == (2, "")
    assert err.startswith(f"error: The evidence store at {blocker / 'store.sqlite3'} cannot be opened:")
