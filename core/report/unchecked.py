"""What a run did not check (DESIGN.md, principle 5), gathered once for the top of every report.

Unread sources with the claims citing them, claims without a quote, figures that were not
compared, evidence that did not come from the web, page drift, uncited sentences and the
run's warnings. It only gathers from the Report: it refuses to word or draw any of it.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.models import ClaimResult, FigureStatus, Origin, Report, SourceStatus, Verdict
from core.report.wording import ORIGIN_WORDS


@dataclass(frozen=True)
class Unread:
    """A source the machine could not read, the claims citing it, and why."""

    url: str
    verdict: Verdict
    reason: str
    http_status: int | None
    claim_ids: tuple[str, ...]


@dataclass(frozen=True)
class Skipped:
    """A figure of a claim that was not compared, and why."""

    claim_id: str
    figure: str
    reason: str


@dataclass(frozen=True)
class NotChecked:
    """Everything the machine did not check in a run, for the top of a report."""

    sources: tuple[Unread, ...]
    no_quote: tuple[str, ...]  # claim ids
    figures: tuple[Skipped, ...]
    not_from_web: tuple[tuple[str, str, str], ...]  # (claim id, url, origin words)
    drift: tuple[tuple[str, str], ...]  # (claim id, url)
    uncited: tuple[str, ...]
    warnings: tuple[str, ...]
    no_claims: bool


def not_checked(report: Report) -> NotChecked:
    """Return what the run did not check: unread sources, missing quotes, skipped figures, and more."""
    unread: dict[str, list[ClaimResult]] = {}
    for r in report.results:
        if r.source.status is not SourceStatus.OK or r.verdict in (
            Verdict.BLOCKED,
            Verdict.DEAD_LINK,
            Verdict.NOT_CHECKED,
        ):
            unread.setdefault(r.source.url or r.claim.url, []).append(r)
    sources = tuple(
        Unread(
            url,
            rs[0].verdict,
            rs[0].source.reason or (rs[0].reasons[0] if rs[0].reasons else "no reason was recorded"),
            rs[0].source.http_status,
            tuple(r.claim.id for r in rs),
        )
        for url, rs in unread.items()
    )
    skipped = tuple(
        Skipped(r.claim.id, f.text, f.reason or "no reason was recorded")
        for r in report.results
        for f in r.figures.figures
        if f.status is FigureStatus.SKIPPED
    )
    return NotChecked(
        sources=sources,
        no_quote=tuple(r.claim.id for r in report.results if r.verdict is Verdict.NO_QUOTE),
        figures=skipped,
        not_from_web=tuple(
            (r.claim.id, r.source.url, ORIGIN_WORDS.get(r.source.origin, r.source.origin))
            for r in report.results
            if r.source.status is SourceStatus.OK and r.source.origin in (Origin.EDITOR, Origin.SAMPLE)
        ),
        drift=tuple((r.claim.id, r.source.url) for r in report.results if r.source.drift),
        uncited=report.uncited,
        warnings=report.warnings,
        no_claims=not report.results,
    )
