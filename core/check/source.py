"""The work of one source of a brief: read its page once, check every claim citing it, then let it go.

``check_source`` runs in an extraction worker (``core.check.pool``) or in the checking process
alike: the page is extracted from the body (or taken from the text the store already keeps),
prepared once, every claim of the source is checked against it, and only the results leave,
with the page text to store when it was extracted here and the page's word prints for the
misattribution pass (``core.check.elsewhere``). No body and no prepared page outlives the call.
It never opens the store: the checking process reads and writes it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from core.check.claims import _internal, _isolated
from core.check.elsewhere import word_prints
from core.match import PreparedPage, prepare
from core.models import Claim, ClaimResult, PageText, Source, Unreadable
from core.pagecache import extract_text, page_from_json, page_to_json, recent_page, remember_page
from core.settings import Settings


@dataclass(frozen=True, kw_only=True)
class SourceTask:
    """One readable source and the claims citing it (claims with their place in the brief)."""

    source: Source
    claims: tuple[tuple[int, Claim], ...]
    settings: Settings
    stored: dict[str, Any] | None = None  # the page text the store keeps (page_to_json), when it has one


@dataclass(frozen=True, kw_only=True)
class SourceOutcome:
    """What is left of a source once its claims are checked: results, and what the store and the brief keep."""

    results: tuple[tuple[int, ClaimResult], ...]
    text: dict[str, Any] | None = None  # the page text extracted here, for the store (page_to_json)
    prints: bytes | None = None  # the page's word prints (None: the page has no text to match)


def without_body(source: Source) -> Source:
    """Return the source without its bytes: the store keeps them, and a report need not."""
    return dataclasses.replace(source, body=b"") if source.body else source


def check_source(task: SourceTask) -> SourceOutcome:
    """Return every claim of the source checked against its page, read once; never raises for a page or claim."""
    settings = task.settings
    text: dict[str, Any] | None = None
    # The same bytes read lately by this process (a re-check, copies of one page) are not read again.
    prepared = recent_page(task.source, settings)
    if prepared is None:
        page: PageText | Unreadable
        try:
            if task.stored is not None:
                page = page_from_json(task.stored)
            else:
                page = extract_text(task.source, settings)
                text = page_to_json(page)
        except Exception as exc:  # one unreadable page never sinks the rest of the brief
            page = Unreadable(reason=_internal(task.source.url, exc))
        try:
            prepared = page if isinstance(page, Unreadable) else prepare(page)
        except Exception as exc:  # a bug preparing one page is that source's failure only
            prepared = Unreadable(reason=_internal(task.source.url, exc))
        remember_page(task.source, settings, prepared)
    return checked_on(task, prepared, text)


def checked_on(
    task: SourceTask, prepared: PreparedPage | Unreadable, text: dict[str, Any] | None = None
) -> SourceOutcome:
    """Return the source's claims checked against its prepared page, with the page's word prints."""
    source = without_body(task.source)
    results = tuple((i, _isolated(claim, source, prepared, task.settings, {})) for i, claim in task.claims)
    prints = word_prints(prepared) if isinstance(prepared, PreparedPage) else None
    return SourceOutcome(results=results, text=text, prints=prints)


def lost_source(task: SourceTask, reason: str) -> SourceOutcome:
    """Return the source's claims not_checked with the reason its reader was lost (a crash or a hang)."""
    source = without_body(task.source)
    page = Unreadable(reason=reason)
    return SourceOutcome(results=tuple((i, _isolated(c, source, page, task.settings, {})) for i, c in task.claims))
