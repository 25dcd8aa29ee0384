"""Writing the JSON report (DESIGN.md, "Command-line contract", ``"schema": 1``): a Report as JSON values.

``to_json`` turns a Report into plain JSON values; ``core.report.read_json.from_json`` turns them
back into an equal Report, so character spans are written out explicitly (they are
``compare=False`` in the records). The store keeps runs in this form and the desk reopens them.

Two things are deliberately left out: a source's body (bytes of evidence live in the source
cache, addressed by URL and sha256; a report must stay small) and a brief's raw file (kept by
the store beside the run). The top-level ``decisions`` list is the record of the editor's
decisions; the ``decision`` inside each claim and the top-level ``not_checked`` (what the run
did not check, DESIGN.md principle 5) are derived copies for readers of the JSON.
Schema 1 writes an unknown position (a fragment not found, a flag naming no page words, a
figure whose place in the claim is unknown) as ``"start": -1, "end": -1``, and an unknown
figure kind or brief format as ``""``: readers of schema 1 rely on it, so it stays so, though
the records hold None.
This module refuses to write files or decide anything: it converts.
"""

from __future__ import annotations

from typing import Any

from core.models import (
    Candidate,
    ClaimResult,
    Context,
    Decision,
    Figure,
    Flag,
    Fragment,
    Location,
    NearMiss,
    Occurrence,
    Report,
    Source,
    Span,
    Terms,
    UnusedLink,
)
from core.report.unchecked import not_checked
from core.report.wording import FOUND_IS_NOT_SUPPORT

#: The schema number of DESIGN.md's JSON contract; bump it when a field is renamed or removed.
SCHEMA = 1

Json = dict[str, Any]

#: How schema 1 writes a position that is not known.
UNKNOWN_POSITION = -1


def _start_end(span: Span | None) -> tuple[int, int]:
    """Return a span as schema 1 writes it: -1, -1 when it is not known."""
    return span if span is not None else (UNKNOWN_POSITION, UNKNOWN_POSITION)


def _location(loc: Location | None) -> Json | None:
    if loc is None:
        return None
    return {
        "kind": loc.kind,
        "index": UNKNOWN_POSITION if loc.index is None else loc.index,
        "start": loc.start,
        "end": loc.end,
    }


def _fragment(f: Fragment) -> Json:
    start, end = _start_end(f.span)
    return {
        "text": f.text,
        "found": f.found,
        "start": start,
        "end": end,
        "page": f.page,
        "in_main": f.in_main,
        "hidden": f.hidden,
    }


def _place(o: Occurrence) -> Json:
    """Return one place a quote stands, as the desk steps through them: span, page, hidden, its own flags."""
    start, end = o.span
    return {
        "start": start,
        "end": end,
        "page": o.page,
        "in_main": o.in_main,
        "hidden": o.hidden,
        "flags": [_flag(f) for f in o.flags],
        "context": _context(o.context),
    }


def _flag(f: Flag) -> Json:
    start, end = _start_end(f.span)
    return {
        "kind": f.kind,
        "message": f.message,
        "blocking": f.blocking,
        "page_words": f.page_words,
        "start": start,
        "end": end,
        "claim_words": f.claim_words,
    }


def _figure(f: Figure) -> Json:
    start, end = _start_end(f.span)
    return {
        "text": f.text,
        "status": f.status.value,
        "quote_text": f.quote_text,
        "reason": f.reason,
        "kind": f.kind or "",
        "start": start,
        "end": end,
        "elsewhere": [[s, e] for s, e in f.elsewhere],
        "where": f.where.value if f.where is not None else None,
        "around": f.around,
        "instead": f.instead,
    }


def _terms(t: Terms) -> Json:
    return {"words": list(t.words), "names": list(t.names), "figures": list(t.figures)}


def _candidate(c: Candidate | None) -> Json | None:
    if c is None:
        return None
    return {
        "text": c.text,
        "start": c.start,
        "end": c.end,
        "score": c.score,
        "page": c.page,
        "holds": _terms(c.holds),
        "lacks": _terms(c.lacks),
        "highlights": [[s, e] for s, e in c.highlights],
        "signs": [_flag(f) for f in c.signs],
    }


def _near_miss(n: NearMiss | None) -> Json | None:
    if n is None:
        return None
    return {
        "summary": n.summary,
        "passage": _candidate(n.passage),
        "diff": [{"kind": d.kind, "quote_words": d.quote_words, "page_words": d.page_words} for d in n.diff],
        "found_in_source": n.found_in_source,
        "candidates": [_candidate(c) for c in n.candidates],
        "is_diagnosis": True,  # for readers: a near miss explains, it never decides
    }


def _source(s: Source) -> Json:
    return {
        "url": s.url,
        "status": s.status.value,
        "http_status": s.http_status,
        "final_url": s.final_url,
        "content_type": s.content_type,
        "sha256": s.sha256,
        "fetched_at": s.fetched_at,
        "reason": s.reason,
        "origin": s.origin,
        "drift": s.drift,
        "charset_note": s.charset_note,
        "headers": [[k, v] for k, v in s.headers],
    }


def _context(c: Context | None) -> Json | None:
    if c is None:
        return None
    return {"text": c.text, "offset": c.offset, "highlights": [[s, e] for s, e in c.highlights], "page": c.page}


def _decision(d: Decision) -> Json:
    return {
        "claim_id": d.claim_id,
        "decision": d.decision,
        "note": d.note,
        "same_period": d.same_period,
        "same_metric": d.same_metric,
        "same_population": d.same_population,
        "decided_at": d.decided_at,
        "decided_by": d.decided_by,
    }


def _claim(r: ClaimResult, decision: Decision | None) -> Json:
    c, m = r.claim, r.match
    return {
        "id": c.id,
        "claim": c.text,
        "url": c.url,
        "quote": c.quote,
        "figure_text": c.figure_text,
        "anchor": c.anchor,
        "citation": c.citation,
        "adopted_by": c.adopted_by,
        "location": _location(c.location),
        "verdict": r.verdict.value,
        "verdict_label": r.verdict.label,
        "reasons": list(r.reasons),
        # "match" is null when no quote was matched at all (source unread, no quote).
        "match": None if m is None else {"quote": m.quote, "too_short": m.too_short, "found": m.found},
        "fragments": [] if m is None else [_fragment(f) for f in m.fragments],
        "flags": [] if m is None else [_flag(f) for f in m.flags],
        # How many places the quote stands on the page (0: not found, or several fragments), and
        # each place checked, in the order the desk shows them (a flagged place first).
        "occurrences": 0 if m is None else m.occurrence_count,
        "occurrence_places": [] if m is None else [_place(o) for o in m.occurrences],
        "figures": [_figure(f) for f in r.figures.figures],
        "near_miss": _near_miss(r.near_miss),
        "source": _source(r.source),
        "context": _context(r.context),
        "decision": None if decision is None else _decision(decision),
    }


def _not_checked(report: Report) -> Json:
    """Return what the run did not check (derived from the claims; from_json does not read it)."""
    m = not_checked(report)
    return {
        "sources": [
            {
                "url": s.url,
                "verdict": s.verdict.value,
                "reason": s.reason,
                "http_status": s.http_status,
                "claims": list(s.claim_ids),
            }
            for s in m.sources
        ],
        "no_quote": list(m.no_quote),
        "figures_skipped": [{"claim": f.claim_id, "figure": f.figure, "reason": f.reason} for f in m.figures],
        "not_from_web": [{"claim": c, "url": u, "origin": o} for c, u, o in m.not_from_web],
        "drift": [{"claim": c, "url": u} for c, u in m.drift],
        "no_claims": m.no_claims,
        "notice": FOUND_IS_NOT_SUPPORT,
    }


def to_json(report: Report) -> Json:
    """Return the report as JSON values (schema 1), claims in brief order; never fails."""
    return {
        "schema": SCHEMA,
        "run_id": report.run_id,
        "brief": {"name": report.brief_name, "format": report.brief_format or ""},
        "checked_at": report.checked_at,
        "summary": report.summary,
        "claims": [_claim(r, report.decision_for(r.claim.id)) for r in report.results],
        "uncited": list(report.uncited),
        "warnings": list(report.warnings),
        "decisions": [_decision(d) for d in report.decisions],
        "not_checked": _not_checked(report),
        "policy": None
        if report.policy is None
        else {"allow_private": report.policy.allow_private, "allowed_domains": list(report.policy.allowed_domains)},
        "unused_links": [_unused(u) for u in report.unused_links],
    }


def _unused(u: UnusedLink) -> Json:
    """Return a link no claim cites as JSON: its URL, its text as written, why and where."""
    return {"url": u.url, "text": u.text, "reason": u.reason, "location": _location(u.location)}
