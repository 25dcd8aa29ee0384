"""A throwaway PostgreSQL server for tests: Debian's binaries, a cluster in a temporary folder, a loopback port.

``PostgresServer.start()`` runs ``initdb`` and ``pg_ctl start`` on a free port of 127.0.0.1
(the socket folder is the cluster's own, so nothing touches /var/run/postgresql); ``stop()``
stops it and removes the folder. PostgreSQL refuses to run as root, so when the tests run as
root the cluster belongs to the ``postgres`` user that Debian's package creates. Each test
gets a database of its own (``new_database``), dropped with the server.
Trust authentication, on loopback only: the cluster lives as long as the test session.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

#: Where Debian's postgresql package puts the server's programs (one folder per major version).
DEBIAN_BINARIES = Path("/usr/lib/postgresql")


def find_bindir() -> Path | None:
    """Return the newest installed PostgreSQL bin folder that has initdb and pg_ctl, or None."""
    found = sorted(
        (p for p in DEBIAN_BINARIES.glob("*/bin") if (p / "initdb").exists() and (p / "pg_ctl").exists()),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    )
    if found:
        return found[-1]
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb and shutil.which("pg_ctl") else None


MISSING = (
    "PostgreSQL's server programs (initdb, pg_ctl) are not installed: run 'make setup', which installs"
    " Debian's postgresql package (as root), or 'sudo apt-get install postgresql'."
)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class PostgresServer:
    """One running throwaway cluster; ``url(db)`` names a database on it."""

    bindir: Path
    root: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="verbatim-pg-")))
    port: int = 0
    user: str = "verbatim"
    _counter: int = 0

    @property
    def datadir(self) -> Path:
        return self.root / "data"

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """Run a server program, as the ``postgres`` user when this process is root."""
        cmd = [str(self.bindir / args[0]), *args[1:]]
        if os.geteuid() == 0:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        return subprocess.run(cmd, check=check, capture_output=True, text=True, timeout=120)

    def start(self) -> PostgresServer:
        """Create the cluster and start it; raise RuntimeError with the server's own words when it fails."""
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(self.root, owner.pw_uid, owner.pw_gid)
        os.chmod(self.root, 0o700)
        try:
            self._run("initdb", "-D", str(self.datadir), "-U", self.user, "--auth=trust", "-E", "UTF8", "--no-sync")
        except subprocess.CalledProcessError as exc:
            raise RuntimeError(f"initdb failed: {exc.stderr.strip()}") from exc
        for _ in range(5):  # a port found free can be taken before the server binds it: try another
            self.port = _free_port()
            done = self._pg_ctl_start()
            if done.returncode == 0:
                return self
            time.sleep(0.2)
        log = (self.root / "log").read_text(errors="replace")[-2000:] if (self.root / "log").exists() else ""
        raise RuntimeError(f"PostgreSQL did not start: {done.stderr.strip()} {log}")

    def _pg_ctl_start(self) -> subprocess.CompletedProcess[str]:
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
            " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        log = str(self.root / "log")
        return self._run("pg_ctl", "-D", str(self.datadir), "-l", log, "-o", options, "-w", "start", check=False)

    def halt(self) -> None:
        """Stop the server as an outage would (its connections cut), keeping its data to resume() on."""
        self._run("pg_ctl", "-D", str(self.datadir), "-m", "fast", "-w", "stop")

    def resume(self) -> None:
        """Start a halted server again, on the same port with the same data; raise RuntimeError if it fails."""
        done = self._pg_ctl_start()
        if done.returncode != 0:
            raise RuntimeError(f"PostgreSQL did not start again: {done.stderr.strip()}")

    def stop(self) -> None:
        """Stop the server at once and remove its folder."""
        if self.datadir.exists():
            self._run("pg_ctl", "-D", str(self.datadir), "-m", "immediate", "-w", "stop", check=False)
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        """Return the postgresql:// URL of one database on this server."""
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """Create an empty database of its own for one test; return its URL."""
        import psycopg

        self._counter += 1
        name = f"t{os.getpid()}_{self._counter}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
        return self.url(name)


@contextmanager
def running_server() -> Iterator[PostgresServer]:
    """Start a throwaway server, yield it, stop it and remove it; raise RuntimeError(MISSING) when not installed."""
    bindir = find_bindir()
    if bindir is None:
        raise RuntimeError(MISSING)
    server = PostgresServer(bindir).start()
    try:
        yield server
    finally:
        server.stop()
