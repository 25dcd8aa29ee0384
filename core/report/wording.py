"""What every human-readable export says, worked out once: HTML and DOCX draw the same words.

It gathers "What was not checked" (DESIGN.md, principle 5), marks a claim's figures, cuts the
page context around its highlights, and phrases sources, origins and decisions for an editor.
It produces plain text and segments only: it refuses to produce markup or escape anything
(the template and the DOCX writer each escape for their own format).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from core.figures import read_figures
from core.models import ClaimResult, Context, Figure, FigureKind, FigureStatus, Origin, Report, SourceStatus, Verdict
from core.report.spans import Segment, segments

#: Where the evidence came from, as the report says it.
ORIGIN_WORDS: dict[str, str] = {
    "fetched": "fetched from the web for this run",
    "cache": "the stored copy from the evidence store (not fetched again for this run)",
    "editor": "supplied by the editor (uploaded or pasted), not fetched by Verbatim",
    "sample": "the bundled offline sample copy, not the live page",
}

#: Said in every report, whatever it holds (DESIGN.md, principle 4).
FOUND_IS_NOT_SUPPORT = (
    "A found quote shows that the words are on the page, not that they support the claim: "
    "whether they do is the editor's judgement."
)
NEAR_MISS_DECIDES_NOTHING = (
    "Near-miss passages and word differences are diagnosis: they explain a failure and decide nothing."
)

#: Why a figure of a claim was never compared (its source was not read, or it offers no quote).
UNCHECKED = "not checked: nothing from the source was compared with this claim"

_DECISION_WORDS = {"accept": "Accepted", "reject": "Rejected", "needs_edit": "Needs an edit", "": "No decision yet"}


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


# Lone UTF-16 surrogates: a JSON brief may spell them ("\\ud800"), but no UTF-8 file can hold them.
_SURROGATE = re.compile("[\ud800-\udfff]")


def clean_text(text: str) -> str:
    """Return text with lone surrogates replaced by U+FFFD, so any export can be written as UTF-8."""
    return _SURROGATE.sub("\ufffd", text)


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


def when(iso: str) -> str:
    """Return an ISO 8601 time as "2026-11-29 18:02 UTC"; the text itself when it is not ISO 8601."""
    if not iso:
        return "an unknown time"
    try:
        moment = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return iso
    if moment.utcoffset() is None:
        return moment.strftime("%Y-%m-%d %H:%M")
    offset = moment.utcoffset()
    suffix = " UTC" if offset is not None and offset.total_seconds() == 0 else moment.strftime(" %z")
    return moment.strftime("%Y-%m-%d %H:%M") + suffix


def figure_spans(claim_text: str, figures: tuple[Figure, ...]) -> list[tuple[int, int, Figure]]:
    """Return each figure's span in the claim text: its own span when it holds the figure, else the next occurrence."""
    spans: list[tuple[int, int, Figure]] = []
    taken: list[tuple[int, int]] = []
    for f in figures:
        if not f.text:
            continue
        if (
            f.span is not None
            and 0 <= f.span[0] < f.span[1] <= len(claim_text)
            and claim_text[slice(*f.span)] == f.text
        ):
            start = f.span[0]
        else:
            # The span may be relative to figure_text rather than text: find the figure itself.
            start = claim_text.find(f.text)
            while start >= 0 and any(s < start + len(f.text) and start < e for s, e in taken):
                start = claim_text.find(f.text, start + 1)
        if start >= 0:
            spans.append((start, start + len(f.text), f))
            taken.append((start, start + len(f.text)))
    return sorted(spans, key=lambda s: s[0])


def unchecked_figures(claim_text: str) -> tuple[Figure, ...]:
    """Return the figures read from a claim whose figures were never checked (source unread, no quote)."""
    return tuple(
        Figure(text=f.text, status=FigureStatus.SKIPPED, reason=UNCHECKED, kind=f.kind, span=(f.start, f.end))
        for f in read_figures(claim_text)
        if f.kind not in (FigureKind.LABEL, FigureKind.UNREADABLE)  # "PEP 703" names a document, no figure
    )


def claim_segments(result: ClaimResult) -> list[tuple[Segment, Figure | None]]:
    """Return the claim text cut into runs, each figure run paired with its Figure.

    A claim whose figures were never checked gets its figures read here and marked
    "fig-unchecked", so the reader sees which numbers nobody compared.
    """
    figures = result.figures.figures
    mark = "fig-{}"
    if not figures:
        figures, mark = unchecked_figures(result.claim.text), "fig-unchecked"
    spans = figure_spans(result.claim.text, figures)
    by_start = {s: f for s, _, f in spans}
    segs = segments(result.claim.text, [(s, e, mark.format(f.status.value)) for s, e, f in spans])
    out: list[tuple[Segment, Figure | None]] = []
    pos = 0
    for seg in segs:
        out.append((seg, by_start.get(pos) if seg.mark else None))
        pos += len(seg.text)
    return out


@dataclass(frozen=True)
class ContextView:
    """The page text to show for a claim: segments, whether text was cut before/after, and a note."""

    segments: tuple[Segment, ...]
    cut_before: bool
    cut_after: bool
    note: str
    offset: int  # where the shown text starts in the page text


def context_view(result: ClaimResult, max_chars: int) -> ContextView | None:
    """Return the claim's page context with quote highlights ("hl") and flagged page words ("flagged")."""
    ctx: Context | None = result.context
    if ctx is None or not ctx.text:
        return None
    spans: list[tuple[int, int, str]] = [(s, e, "hl") for s, e in ctx.highlights]
    if result.match is not None:
        for flag in result.match.flags:
            if flag.span is not None and flag.span[1] > flag.span[0]:
                spans.append((flag.span[0] - ctx.offset, flag.span[1] - ctx.offset, "flagged"))
    lo, hi, note = 0, len(ctx.text), ""
    if len(ctx.text) > max_chars:
        marked = [(s, e) for s, e, _ in spans if 0 <= s < e <= len(ctx.text)]
        centre = marked[0][0] if marked else 0
        lo = max(0, centre - max_chars // 2)
        hi = min(len(ctx.text), lo + max_chars)
        note = (
            f"The page text around this claim is {len(ctx.text):,} characters long; "
            f"only {hi - lo:,} characters around the quote are shown here."
        )
    cut = [(max(s, lo) - lo, min(e, hi) - lo, m) for s, e, m in spans if s < hi and e > lo]
    return ContextView(
        tuple(segments(ctx.text[lo:hi], cut)), ctx.offset + lo > 0, hi < len(ctx.text), note, ctx.offset + lo
    )


def page_says(result: ClaimResult, max_chars: int = 600) -> str:
    """Return what the page actually says for a claim: the closest passage, else its context, else ""."""
    nm = result.near_miss
    if nm is not None and nm.passage is not None:
        text = nm.passage.text
    elif nm is not None and nm.candidates:
        text = nm.candidates[0].text
    elif result.context is not None:
        text = result.context.text
    else:
        return ""
    text = " ".join(text.split())
    return text if len(text) <= max_chars else text[: max_chars - 1].rstrip() + "…"


def decision_words(decision: str) -> str:
    """Return the editor's decision in words ("Accepted", "Needs an edit", ...)."""
    return _DECISION_WORDS.get(decision, decision)


def answers_words(same_period: bool | None, same_metric: bool | None, same_population: bool | None) -> list[str]:
    """Return the editor's answers to the same-period/metric/population questions, skipping unanswered ones."""
    out = []
    for label, value in (
        ("Same period", same_period),
        ("Same metric", same_metric),
        ("Same population", same_population),
    ):
        if value is not None:
            out.append(f"{label}: {'yes' if value else 'no'}")
    return out


def source_status_words(result: ClaimResult) -> str:
    """Return the source's state in words: "read", or the reason it was not."""
    s = result.source
    if s.status is SourceStatus.OK:
        return "read"
    return f"{s.status.value.replace('_', ' ')}: {s.reason}" if s.reason else s.status.value.replace("_", " ")
