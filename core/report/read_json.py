"""Reading the JSON report back: ``from_json`` is the exact inverse of ``core.report.as_json.to_json``.

Every field is checked against the type schema 1 gives it, so a damaged or foreign file
raises ``ReportFormatError`` naming the field, never a KeyError or a half-read Report. The
derived copies in the file (each claim's ``decision``, the top-level ``not_checked``) are
not read: the top-level ``decisions`` list is the record. -1 or null is read back as None (an
unknown position), and every fixed set of values (verdict, status, kind, origin, decision)
back into its enum, refusing an unknown value.
This module refuses to read files.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.errors import ReportFormatError
from core.models import (
    BriefFormat,
    Candidate,
    CheckPolicy,
    Choice,
    Claim,
    ClaimResult,
    Context,
    Decision,
    DiffKind,
    DiffOp,
    Figure,
    FigureCheck,
    FigureKind,
    FigurePlace,
    FigureStatus,
    Flag,
    FlagKind,
    Fragment,
    Location,
    LocationKind,
    NearMiss,
    Occurrence,
    Origin,
    QuoteMatch,
    Report,
    Source,
    SourceStatus,
    Terms,
    UnusedLink,
    Verdict,
)
from core.report.as_json import SCHEMA, UNKNOWN_POSITION
from core.report.json_fields import enum_value as _enum_value
from core.report.json_fields import field as _get
from core.report.json_fields import list_field as _list
from core.report.json_fields import obj as _obj
from core.report.json_fields import opt_bool as _opt_bool
from core.report.json_fields import opt_enum as _opt_enum
from core.report.json_fields import opt_int as _opt_int
from core.report.json_fields import span as _span
from core.report.json_fields import span_field as _read_span
from core.report.json_fields import strings as _strings


def _read_location(value: Any, where: str) -> Location | None:
    if value is None:
        return None
    d = _obj(value, where)
    return Location(
        kind=_enum_value(LocationKind, _get(d, "kind", str, where), f"{where}.kind"),
        index=None if (index := _get(d, "index", int, where)) == UNKNOWN_POSITION else index,
        start=_get(d, "start", int, where, 0),
        end=_get(d, "end", int, where, 0),
    )


def _read_fragment(value: Any, where: str) -> Fragment:
    d = _obj(value, where)
    return Fragment(
        text=_get(d, "text", str, where),
        found=_get(d, "found", bool, where),
        span=_read_span(d, where),
        page=_opt_int(d, "page", where),
        in_main=_opt_bool(d, "in_main", where),
        hidden=_get(d, "hidden", bool, where, False),
    )


def _read_place(value: Any, where: str) -> Occurrence:
    d = _obj(value, where)
    span = _read_span(d, where)
    if span is None:
        raise ReportFormatError(f"JSON report: {where} has no start and end, expected the place's span")
    flags = tuple(_read_flag(f, f"{where}.flags[{i}]") for i, f in enumerate(_list(d, "flags", where)))
    return Occurrence(
        span=span,
        flags=flags,
        hidden=_get(d, "hidden", bool, where, False),
        in_main=_opt_bool(d, "in_main", where),
        page=_opt_int(d, "page", where),
        context=_read_context(d.get("context"), f"{where}.context"),
    )


def _read_flag(value: Any, where: str) -> Flag:
    d = _obj(value, where)
    return Flag(
        kind=_enum_value(FlagKind, _get(d, "kind", str, where), f"{where}.kind"),
        message=_get(d, "message", str, where, ""),
        blocking=_get(d, "blocking", bool, where, False),
        page_words=_get(d, "page_words", str, where, ""),
        span=_read_span(d, where),
        claim_words=_get(d, "claim_words", str, where, ""),
    )


def _read_figure(value: Any, where: str) -> Figure:
    d = _obj(value, where)
    return Figure(
        text=_get(d, "text", str, where),
        status=_enum_value(FigureStatus, _get(d, "status", str, where), f"{where}.status"),
        quote_text=_get(d, "quote_text", str, where, ""),
        reason=_get(d, "reason", str, where, ""),
        kind=_opt_enum(FigureKind, d, "kind", where),
        span=_read_span(d, where),
        elsewhere=tuple(_span(s, f"{where}.elsewhere[{i}]") for i, s in enumerate(_list(d, "elsewhere", where))),
        where=_opt_enum(FigurePlace, d, "where", where),
        around=_get(d, "around", str, where, ""),
        instead=_get(d, "instead", str, where, ""),
    )


def _read_terms(d: Mapping[str, Any], key: str, where: str) -> Terms:
    """Return a candidate's held or lacked words, names and figures (absent from older reports: none)."""
    t = _get(d, key, dict, where, {})
    w = f"{where}.{key}"
    return Terms(words=_strings(t, "words", w), names=_strings(t, "names", w), figures=_strings(t, "figures", w))


def _read_candidate(value: Any, where: str) -> Candidate | None:
    if value is None:
        return None
    d = _obj(value, where)
    score = _get(d, "score", (int, float), where, 0.0)
    return Candidate(
        text=_get(d, "text", str, where),
        start=_get(d, "start", int, where),
        end=_get(d, "end", int, where),
        score=float(score),
        page=_opt_int(d, "page", where),
        holds=_read_terms(d, "holds", where),
        lacks=_read_terms(d, "lacks", where),
        highlights=tuple(_span(s, f"{where}.highlights[{i}]") for i, s in enumerate(_list(d, "highlights", where))),
        signs=tuple(_read_flag(f, f"{where}.signs[{i}]") for i, f in enumerate(_list(d, "signs", where))),
    )


def _read_near_miss(value: Any, where: str) -> NearMiss | None:
    if value is None:
        return None
    d = _obj(value, where)
    diff = []
    for i, op in enumerate(_list(d, "diff", where)):
        o = _obj(op, f"{where}.diff[{i}]")
        w = f"{where}.diff[{i}]"
        diff.append(
            DiffOp(
                kind=_enum_value(DiffKind, _get(o, "kind", str, w), f"{w}.kind"),
                quote_words=_get(o, "quote_words", str, w, ""),
                page_words=_get(o, "page_words", str, w, ""),
            )
        )
    candidates = []
    for i, c in enumerate(_list(d, "candidates", where)):
        cand = _read_candidate(c, f"{where}.candidates[{i}]")
        if cand is None:
            raise ReportFormatError(f"JSON report: {where}.candidates[{i}] is null")
        candidates.append(cand)
    return NearMiss(
        summary=_get(d, "summary", str, where, ""),
        passage=_read_candidate(d.get("passage"), f"{where}.passage"),
        diff=tuple(diff),
        found_in_source=_get(d, "found_in_source", str, where, None),
        candidates=tuple(candidates),
    )


def _read_source(value: Any, url: str, where: str) -> Source:
    d = _obj(value, where)
    headers = []
    for i, h in enumerate(_list(d, "headers", where)):
        if not isinstance(h, list | tuple) or len(h) != 2 or not all(isinstance(x, str) for x in h):
            raise ReportFormatError(f"JSON report: {where}.headers[{i}] is not a [name, value] pair")
        headers.append((str(h[0]), str(h[1])))
    return Source(
        url=_get(d, "url", str, where, url),
        status=_enum_value(SourceStatus, _get(d, "status", str, where), f"{where}.status"),
        reason=_get(d, "reason", str, where, ""),
        final_url=_get(d, "final_url", str, where, ""),
        http_status=_opt_int(d, "http_status", where),
        content_type=_get(d, "content_type", str, where, ""),
        headers=tuple(headers),
        sha256=_get(d, "sha256", str, where, ""),
        fetched_at=_get(d, "fetched_at", str, where, ""),
        origin=_enum_value(Origin, _get(d, "origin", str, where, Origin.FETCHED), f"{where}.origin"),
        drift=_get(d, "drift", bool, where, False),
        charset_note=_get(d, "charset_note", str, where, ""),
    )


def _read_context(value: Any, where: str) -> Context | None:
    if value is None:
        return None
    d = _obj(value, where)
    return Context(
        text=_get(d, "text", str, where),
        offset=_get(d, "offset", int, where, 0),
        highlights=tuple(_span(s, f"{where}.highlights[{i}]") for i, s in enumerate(_list(d, "highlights", where))),
        page=_opt_int(d, "page", where),
    )


def _read_decision(value: Any, where: str) -> Decision:
    d = _obj(value, where)
    return Decision(
        claim_id=_get(d, "claim_id", str, where),
        decision=_enum_value(Choice, _get(d, "decision", str, where, Choice.NONE), f"{where}.decision"),
        note=_get(d, "note", str, where, ""),
        same_period=_opt_bool(d, "same_period", where),
        same_metric=_opt_bool(d, "same_metric", where),
        same_population=_opt_bool(d, "same_population", where),
        decided_at=_get(d, "decided_at", str, where, ""),
        decided_by=_get(d, "decided_by", str, where, ""),
    )


def _read_claim(value: Any, where: str) -> tuple[ClaimResult, Decision | None]:
    d = _obj(value, where)
    claim = Claim(
        id=_get(d, "id", str, where),
        text=_get(d, "claim", str, where),
        url=_get(d, "url", str, where),
        quote=_get(d, "quote", str, where, None),
        figure_text=_get(d, "figure_text", str, where, ""),
        anchor=_get(d, "anchor", str, where, ""),
        location=_read_location(d.get("location"), f"{where}.location"),
        citation=_get(d, "citation", str, where, ""),  # absent from reports written before it was added
        adopted_by=_get(d, "adopted_by", str, where, ""),
    )
    fragments = tuple(_read_fragment(f, f"{where}.fragments[{i}]") for i, f in enumerate(_list(d, "fragments", where)))
    flags = tuple(_read_flag(f, f"{where}.flags[{i}]") for i, f in enumerate(_list(d, "flags", where)))
    match: QuoteMatch | None = None
    if "match" in d:
        if d["match"] is not None:
            m = _obj(d["match"], f"{where}.match")
            places = tuple(
                _read_place(o, f"{where}.occurrence_places[{i}]")
                for i, o in enumerate(_list(d, "occurrence_places", where))
            )
            match = QuoteMatch(
                _get(m, "quote", str, f"{where}.match"),
                fragments,
                flags,
                _get(m, "too_short", bool, where, False),
                places,
                _get(d, "occurrences", int, where, len(places)),
            )
    elif fragments or flags:
        # A schema-1 file from another writer: fragments without our "match" wrapper.
        match = QuoteMatch(claim.quote or "", fragments, flags)
    figures = tuple(_read_figure(f, f"{where}.figures[{i}]") for i, f in enumerate(_list(d, "figures", where)))
    result = ClaimResult(
        claim=claim,
        verdict=_enum_value(Verdict, _get(d, "verdict", str, where), f"{where}.verdict"),
        reasons=tuple(_get(d, "reasons", list, where, [])),
        source=_read_source(_get(d, "source", dict, where), claim.url, f"{where}.source"),
        match=match,
        figures=FigureCheck(figures),
        near_miss=_read_near_miss(d.get("near_miss"), f"{where}.near_miss"),
        context=_read_context(d.get("context"), f"{where}.context"),
    )
    if not all(isinstance(x, str) for x in result.reasons):
        raise ReportFormatError(f"JSON report: {where}.reasons holds something other than sentences")
    decision = d.get("decision")
    return result, None if decision is None else _read_decision(decision, f"{where}.decision")


def from_json(data: Mapping[str, Any]) -> Report:
    """Return the Report that ``to_json`` wrote; raises ReportFormatError naming the bad field."""
    d = _obj(data, "the report")
    schema = d.get("schema")
    if schema != SCHEMA:
        raise ReportFormatError(
            f"JSON report: schema is {schema!r}, this Verbatim reads schema {SCHEMA}; re-run the check to rebuild it"
        )
    brief = _obj(d.get("brief", {}), "brief")
    pairs = [_read_claim(c, f"claims[{i}]") for i, c in enumerate(_list(d, "claims", "the report"))]
    if "decisions" in d:
        decisions = tuple(_read_decision(x, f"decisions[{i}]") for i, x in enumerate(_list(d, "decisions", "report")))
    else:
        decisions = tuple(dec for _, dec in pairs if dec is not None)
    uncited = _list(d, "uncited", "the report")
    warnings = _list(d, "warnings", "the report")
    if not all(isinstance(x, str) for x in [*uncited, *warnings]):
        raise ReportFormatError("JSON report: 'uncited' and 'warnings' must be lists of text")
    return Report(
        brief_name=_get(brief, "name", str, "brief", _get(d, "brief_name", str, "the report", "")),
        brief_format=_opt_enum(BriefFormat, brief, "format", "brief")
        or _opt_enum(BriefFormat, d, "brief_format", "the report"),
        checked_at=_get(d, "checked_at", str, "the report", ""),
        results=tuple(r for r, _ in pairs),
        uncited=tuple(uncited),
        warnings=tuple(warnings),
        run_id=_get(d, "run_id", str, "the report", ""),
        decisions=decisions,
        policy=_read_policy(d.get("policy")),
        unused_links=tuple(
            _read_unused(x, f"unused_links[{i}]") for i, x in enumerate(_list(d, "unused_links", "report"))
        ),
    )


def _read_unused(value: Any, where: str) -> UnusedLink:
    d = _obj(value, where)
    return UnusedLink(
        url=_get(d, "url", str, where),
        text=_get(d, "text", str, where, ""),
        reason=_get(d, "reason", str, where, ""),
        location=_read_location(d.get("location"), f"{where}.location"),
    )


def _read_policy(value: Any) -> CheckPolicy | None:
    """Return the policy a report records, or None when it records none (a report written before it did)."""
    if value is None:
        return None
    p = _obj(value, "policy")
    domains = _list(p, "allowed_domains", "policy")
    if not isinstance(p.get("allow_private", False), bool) or not all(isinstance(x, str) for x in domains):
        raise ReportFormatError("JSON report: 'policy' must hold allow_private (true/false) and a list of domains")
    return CheckPolicy(allow_private=p.get("allow_private", False), allowed_domains=tuple(domains))
