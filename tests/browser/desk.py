"""Start the desk as `make run` does, on a free loopback port with its own store; used by tests and the bench."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def free_port() -> int:
    """Return a loopback TCP port that was free a moment ago."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Desk:
    """The running desk: its base URL, the store file it writes and its log."""

    url: str
    db: Path
    log: Path
    proc: subprocess.Popen[bytes] = field(repr=False)

    def stop(self) -> None:
        """Stop the desk's process (only this one)."""
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def start_desk(folder: Path, timeout: float = 60.0, *, secrets: str = "", env: dict[str, str] | None = None) -> Desk:
    """Return the desk running as `make run` starts it (ui/server.py) with VERBATIM_DB in folder; RuntimeError when not.

    The desk reads folder/secrets.toml only (written from ``secrets`` when given), never a developer's own
    .streamlit/secrets.toml: without ``secrets`` it is the single-user desk.
    """
    db, log, secrets_file = folder / "desk.sqlite3", folder / "streamlit.log", folder / "secrets.toml"
    if secrets:
        secrets_file.write_text(secrets, encoding="utf-8")
    port = free_port()
    env = {
        **os.environ,
        "VERBATIM_DB": str(db),
        "VERBATIM_OUTBOX": str(folder / "outbox"),
        "PYTHONUNBUFFERED": "1",
        **(env or {}),
    }
    cmd = [
        str(Path(sys.executable).parent / "streamlit"),
        "run",
        "ui/server.py",
        "--server.port",
        str(port),
        "--server.address",
        "127.0.0.1",
        "--server.headless",
        "true",
        "--browser.gatherUsageStats",
        "false",
        "--secrets.files",
        str(secrets_file),
    ]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return Desk(url, db, log, proc)
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"the desk did not start: {log.read_text(errors='replace')[-2000:]}")
        time.sleep(0.3)


def slow_page(seconds: float) -> Callable[[Any], None]:
    """Return a loopback handler that answers with the corpus's PEP 632 page after seconds (a check still running)."""
    from tests.servers import CORPUS

    def answer(handler: Any) -> None:
        time.sleep(seconds)
        body = (CORPUS / "html/python/peps/pep-0632.html").read_bytes()
        handler.send_response(200)
        handler.send_header("Content-Type", "text/html; charset=utf-8")
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    return answer
