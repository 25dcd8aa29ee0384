"""The public calls: check an agent's claims or a brief and return a Report other programs can rely on.

The calls build what the command line builds (the same reader, the same pipeline, the same
fetch policy and store) and keep the run in the store when one is given, so that an editor
opens an agent's run in the desk's History. They decide nothing themselves: verdicts come from
``core.check``. Bad input raises a ``VerbatimError`` whose message says what to do; one bad
claim never sinks the rest, it gets its own verdict.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from core import check
from core.api.feedback import agent_report
from core.brief import parse_json, read_brief
from core.brief.limits import check_size
from core.errors import BriefError
from core.fetch import parse_allowlist
from core.fetch.shown import masked_brief
from core.models import GATE_UNCHECKED, STRICT_FAILURES, Brief, ClaimResult
from core.models import Report as Record
from core.report import clean_text, to_json
from core.settings import Settings
from core.store import Store

#: What ``store=`` accepts: an open Store, the path of a SQLite file, or None to keep nothing.
StoreLike = Store | str | os.PathLike[str] | None


@dataclasses.dataclass(frozen=True)
class Report:
    """A checked brief as other programs read it: verdicts, the --strict gate, DESIGN.md's JSON.

    ``record`` is core's whole record (``core.models.Report``) for callers that export or draw
    it with ``core.report``; ``client`` is the agent that asked ("" when none said).
    """

    record: Record
    client: str = ""

    @property
    def run_id(self) -> str:
        """Return the id of the run kept in the store, or "" when nothing was kept."""
        return self.record.run_id

    @property
    def summary(self) -> dict[str, int]:
        """Return the count of claims per verdict, every verdict present."""
        return self.record.summary

    @property
    def results(self) -> tuple[ClaimResult, ...]:
        """Return every claim's result in brief order."""
        return self.record.results

    @property
    def failures(self) -> tuple[ClaimResult, ...]:
        """Return the claims the --strict gate fails on (quote_not_found, figures_mismatch, dead_link)."""
        return tuple(r for r in self.record.results if r.verdict in STRICT_FAILURES)

    @property
    def unchecked(self) -> tuple[ClaimResult, ...]:
        """Return the claims that pass the gate unchecked: they offer no quote, so their words were not checked."""
        return tuple(r for r in self.record.results if r.verdict in GATE_UNCHECKED)

    @property
    def passed(self) -> bool:
        """Return True when no claim fails the --strict gate (not_checked, blocked and no_quote do not fail it).

        Passing is not having been checked: ``unchecked`` lists the claims without a quote that passed.
        """
        return not self.failures

    def to_json(self) -> dict[str, Any]:
        """Return DESIGN.md's JSON report (schema 1), with the asking agent as ``client``."""
        return {**to_json(self.record), "client": self.client}

    def for_agent(self) -> dict[str, Any]:
        """Return the report as an agent reads it: per claim the verdict, what it means, the evidence."""
        return agent_report(self.to_json())


def settings_for(
    base: Settings | None = None, *, allow_domains: Sequence[str] | None = None, allow_private: bool = False
) -> Settings:
    """Return the settings with the fetch policy asked for: an allowlist and private addresses (off by default)."""
    settings = base or Settings.from_env()
    changes: dict[str, object] = {}
    if allow_private:
        changes["allow_private"] = True
    if allow_domains:
        changes["allowed_domains"] = parse_allowlist(list(allow_domains))
    return settings.with_(**changes) if changes else settings


@contextmanager
def opened(store: StoreLike, settings: Settings) -> Iterator[Store | None]:
    """Yield the store asked for (opened from a path and closed after), or None to keep nothing."""
    if store is None or isinstance(store, Store):
        yield store
        return
    own = Store(store if isinstance(store, str) else Path(store), busy_timeout=settings.store_busy_timeout)
    try:
        yield own
    finally:
        own.close()


def keep_run(store: Store, record: Record, *, brief_raw: bytes, brief_name: str, client: str = "") -> Record:
    """Return the record with the run id it is kept under in the store; raises StoreError when it cannot be kept."""
    run_id = store.save_run({**to_json(record), "client": client}, brief_raw=brief_raw, brief_name=brief_name)
    record = dataclasses.replace(record, run_id=run_id)
    store.update_run(run_id, {**to_json(record), "client": client})  # the stored JSON names its own run
    return record


def run(
    brief: Brief,
    settings: Settings,
    store: StoreLike,
    *,
    offline: bool = False,
    refresh: bool = False,
    client: str = "",
) -> Report:
    """Return the Report of a read brief, kept as a run when there is a store; raises StoreError when it fails."""
    brief = masked_brief(brief)  # the brief's own file is kept with the run: no URL's password in it
    with opened(store, settings) as kept:
        record = check.check_brief(brief, settings, store=kept, refresh=refresh, offline=offline)
        if kept is not None:
            record = keep_run(kept, record, brief_raw=brief.raw, brief_name=brief.name, client=client)
    return Report(record=record, client=client)


def claims_brief(claims: Sequence[Mapping[str, Any]], name: str, settings: Settings) -> Brief:
    """Return the Brief of a list of claim objects, read as a JSON claims file is; raises BriefError when it is none."""
    if isinstance(claims, str | bytes) or not isinstance(claims, Sequence):
        raise BriefError(
            f'The claims must be a list of objects with "claim", "url" and "quote", not {type(claims).__name__}.'
        )
    if not claims:
        raise BriefError('The list of claims is empty: give at least one {"claim", "url", "quote"} object.')
    # default=str: a value that is not JSON (a Path, a date) is read as its text, like a CSV cell;
    # a lone surrogate (JSON allows "\ud800") becomes U+FFFD, as in every export.
    text = clean_text(json.dumps({"claims": list(claims)}, ensure_ascii=False, default=str))
    check_size(len(text), False, name, settings, pasted=False)
    return parse_json(text, name, settings, raw=text.encode("utf-8"))


def check_claims(
    claims: Sequence[Mapping[str, Any]],
    *,
    allow_domains: Sequence[str] | None = None,
    allow_private: bool = False,
    store: StoreLike = None,
    offline: bool = False,
    refresh: bool = False,
    settings: Settings | None = None,
    client: str = "",
    name: str = "claims",
) -> Report:
    """Return the Report of claims given as ``{"claim", "url", "quote"}`` objects (``id`` optional).

    Raises BriefError when the claims are no list of objects, StoreError when the store fails.
    """
    settings = settings_for(settings, allow_domains=allow_domains, allow_private=allow_private)
    brief = claims_brief(claims, name, settings)
    return run(brief, settings, store, offline=offline, refresh=refresh, client=client)


def read_brief_file(path: Path, settings: Settings) -> bytes:
    """Return a brief file's bytes, its size checked before it is read; raises BriefError when it cannot be."""
    try:
        size = path.stat().st_size
        check_size(size, size == 0, path.name, settings, pasted=False)
        return path.read_bytes()
    except OSError as exc:
        why = exc.strerror or exc
        raise BriefError(f"Cannot read the brief {path}: {why}. Check the path and try again.") from None


def check_brief(
    path_or_bytes: str | os.PathLike[str] | bytes,
    *,
    name: str | None = None,
    allow_domains: Sequence[str] | None = None,
    allow_private: bool = False,
    store: StoreLike = None,
    offline: bool = False,
    refresh: bool = False,
    settings: Settings | None = None,
    client: str = "",
) -> Report:
    """Return the Report of a brief (a file path, or its bytes) in any format the desk reads.

    Raises BriefError when the brief cannot be read, StoreError when the store fails.
    """
    settings = settings_for(settings, allow_domains=allow_domains, allow_private=allow_private)
    if isinstance(path_or_bytes, bytes):
        data, filename = path_or_bytes, name or "brief"
    else:
        path = Path(path_or_bytes)
        data, filename = read_brief_file(path, settings), name or path.name
    brief = read_brief(data, filename, settings)
    return run(brief, settings, store, offline=offline, refresh=refresh, client=client)
