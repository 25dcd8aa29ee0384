"""Every exception of core, under one base, and the wording of the messages they carry.

Expected failures are values with a reason (a Source with status not_checked, a Brief with a
warning); these exceptions are for what cannot be turned into one where it happens::

    VerbatimError               anything core raises on purpose; str(error) is for the editor
    ├── BriefError              a brief cannot be read at all (empty, too large, damaged, ...)
    ├── ReportFormatError       a JSON report cannot be read back (also a ValueError)
    ├── StoreError              the evidence store cannot be opened, read or written
    │   └── StoreUnreachable    the team store's server does not answer (down, restarting, network):
    │                           worth waiting for, the same Store works again once it answers
    ├── DecisionError           a change of a decision the store refuses to record: a field that
    │                           is not a decision's, a value it cannot hold, a version never stored
    ├── RequestError            another program's request (core.api, the MCP server) that cannot
    │                           be served: a path outside the allowed folders, evidence never stored
    └── FetchError              raised and caught inside core.fetch, which turns each into a
        │                       Source with a reason: none leaves Fetcher.fetch
        ├── Refused             the address policy refuses a URL or an address (check_url
        │                       also returns one as a value)
        ├── NameNotFound        a host name does not resolve
        ├── DecodeError         a body's content-encoding is broken or unknown
        └── TooLarge            a body grew past max_body_bytes while it was read

A brief that reads but holds no claims is not an error: it gives a Brief with a warning.
Any other exception out of core is a bug. This module refuses to read, fetch or store anything.
"""

from __future__ import annotations

from pathlib import Path

#: What an editor can do about a store that cannot be used, on the desk and the command line alike.
STORE_REMEDY = (
    "Set VERBATIM_DB (on the command line, --db) to a file you can write to, or run with --no-cache to keep nothing."
)
#: What to do about a team store (PostgreSQL) whose server does not answer.
TEAM_STORE_UNREACHABLE = (
    "Check that its PostgreSQL server is running and that this machine can reach it (host, port, firewall), then"
    " try again: what this attempt was saving was not saved, and the store works again as soon as the server"
    " answers, without a restart."
)
#: What to do about a team store that answers but refuses (permissions, a damaged or foreign database).
TEAM_STORE_REMEDY = (
    "Check that VERBATIM_DB (on the command line, --db) names the team's database and that its user may write"
    " there, or ask whoever runs the team's PostgreSQL."
)


class VerbatimError(Exception):
    """The base of every exception core raises on purpose; str(error) is the message for the editor."""


class BriefError(VerbatimError):
    """A brief that cannot be read; str(error) is the message shown to the editor."""


class ReportFormatError(VerbatimError, ValueError):
    """A JSON report that cannot be read back: the message names the field and what is wrong."""


class StoreError(VerbatimError):
    """The evidence store cannot be used; the message names the store, what failed and what to do.

    ``action`` is what could not be done ("opened", "read", "written", "reached"), ``why`` the
    cause as the database or the file system gave it; ``kind`` is "team store" for PostgreSQL,
    whose ``store`` is host:port/database (never a password).
    """

    def __init__(
        self,
        store: Path | str | None,
        action: str,
        why: str,
        *,
        kind: str = "evidence store",
        remedy: str = STORE_REMEDY,
    ) -> None:
        where = f"at {store}" if store is not None else "in memory"
        super().__init__(f"The {kind} {where} cannot be {action}: {why}. {remedy}")
        self.store = store
        self.action = action
        self.why = why


class StoreUnreachable(StoreError):
    """The team store's PostgreSQL does not answer; ``action`` is "reached". A job may wait and try again."""


class DecisionError(VerbatimError, ValueError):
    """A change of a decision the store will not record; the message names the claim, what is wrong and what to do."""


class RequestError(VerbatimError):
    """A request from another program (core.api, an MCP client) that cannot be served; the message says what to do."""


class FetchError(VerbatimError):
    """A failure inside core.fetch; the fetcher turns each into a Source with a reason, never raises it."""


class Refused(FetchError):
    """The policy refused a URL or an address; ``rule`` names the rule, ``reason`` is for the editor."""

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(reason)
        self.rule = rule
        self.reason = reason


class NameNotFound(FetchError):
    """The host name does not resolve to any address (``temporary``: the look-up itself failed)."""

    def __init__(self, host: str, detail: str = "", *, temporary: bool = False) -> None:
        super().__init__(f"{host}: {detail}" if detail else host)
        self.host = host
        self.temporary = temporary


class DecodeError(FetchError):
    """The body's content-encoding is broken or unknown; the message says which."""


class TooLarge(FetchError):
    """A body grew past the size cap while it was read (stops reading; the fetcher words the reason)."""


def size_text(n: int) -> str:
    """Return a byte count as an editor reads it ("20 MB", "512 KB")."""
    if n >= 1024 * 1024:
        mb = n / (1024 * 1024)
        return f"{mb:.0f} MB" if mb == int(mb) else f"{mb:.1f} MB"
    if n >= 1024:
        return f"{n // 1024} KB"
    return f"{n} bytes"
