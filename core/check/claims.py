"""Check claims against their source's page: match every quote, check every figure, decide verdicts.

The one place where the stages of DESIGN.md's data flow meet for a claim. Verdicts are decided
here, in ``decide``, from the exact matcher's answer, the figures check and the source's status
only: the diagnosis is computed after the verdict and never feeds back into it (principle 1).
``recheck_claim`` and ``adopt_quote`` check claims of a report again; a whole brief is checked by
``core.check.brief``. This module draws nothing and writes no files; it stores evidence only
through the Store.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterator, Mapping

from core.diagnose import candidates, diagnose
from core.errors import Refused
from core.fetch import UNPROVEN, Policy, check_url, stored_refusal
from core.fetch.shown import host_lookalike
from core.figures import check_figures
from core.figures.page import place_figures
from core.match import PreparedPage, compare_claim, match_quote
from core.models import (
    Claim,
    ClaimResult,
    Context,
    FigureCheck,
    Flag,
    FlagKind,
    NearMiss,
    Origin,
    PageText,
    QuoteMatch,
    Report,
    Source,
    SourceStatus,
    Unreadable,
    Verdict,
)
from core.pagecache import read_page
from core.report.wording import FOUND_IS_NOT_SUPPORT  # one wording, in reasons and reports alike
from core.settings import Settings
from core.store import Store

_log = logging.getLogger("verbatim.check")

# A claim without a quote whose page has no passage to offer.
NO_SHARED_WORD = (
    "No passage of the page shares a word with the claim: check that the link cites the page the claim"
    " rests on, or ask the author for the source."
)
_NO_QUOTE_HELP = (
    "The claim cites a source but offers no quote: pick a passage from the page as evidence, or ask the author."
)
_SOURCE_VERDICTS = {
    SourceStatus.BLOCKED: Verdict.BLOCKED,
    SourceStatus.DEAD_LINK: Verdict.DEAD_LINK,
    SourceStatus.NOT_CHECKED: Verdict.NOT_CHECKED,
}


def _unique(urls: list[str]) -> list[str]:
    return list(dict.fromkeys(urls))


def offline_source(url: str, store: Store | None, policy: Policy) -> Source:
    """Return the stored copy of url as the policy in force allows; a URL with none is not_checked."""
    # The newest stored record, failures included: a stored 404 is still a dead link offline.
    history = store.source_history(url, limit=1) if store is not None else []
    stored = history[0] if history else None
    refusal = stored_refusal(stored, policy) if stored is not None else None
    if stored is None:
        return Source(
            url=url,
            status=SourceStatus.NOT_CHECKED,
            reason="No stored copy of this page, and this check runs offline: check again with fetching on.",
        )
    if refusal is not None:
        # A copy this policy would not fetch is not served either (DESIGN.md: the policy everywhere).
        status = SourceStatus.NOT_CHECKED if refusal.rule == UNPROVEN else SourceStatus.BLOCKED
        return Source(url=url, status=status, reason=refusal.reason, final_url=stored.final_url)
    if stored.origin is Origin.FETCHED:
        return dataclasses.replace(stored, origin=Origin.CACHE)
    return stored


def _reasons_for_source(source: Source) -> list[str]:
    notes = []
    if source.origin is Origin.EDITOR:
        notes.append("The evidence was supplied by the editor, not fetched by Verbatim.")
    if source.drift:
        notes.append(
            "The page has changed since the stored copy was made (page drift): the verdict uses the fresh copy."
        )
    if source.charset_note:
        notes.append(source.charset_note)
    return notes


def host_flag(url: str) -> Flag | None:
    """Return the blocking flag of a link whose host is written to look like another (UTS #39), or None."""
    found = host_lookalike(url)
    if found is None:
        return None
    return Flag(kind=FlagKind.LOOKALIKE_HOST, message=found.message, blocking=True)


def decide(match: QuoteMatch | None, figures: FigureCheck) -> tuple[Verdict, list[str]]:
    """Return the verdict of a claim whose source was read, and the sentences that explain it."""
    if match is None and figures.nowhere:
        # A figure of an unquoted claim that stands nowhere on its page; the reason says what the passage holds.
        return Verdict.FIGURES_MISMATCH, [f.reason for f in figures.nowhere] + [_NO_QUOTE_HELP]
    if match is None:
        return Verdict.NO_QUOTE, [_NO_QUOTE_HELP]
    reasons: list[str] = []
    if not match.found:
        missing = [f for f in match.fragments if not f.found]
        if len(match.fragments) > 1:
            for f in missing:
                reasons.append(f"This part of the quote is not on the page: “{f.text}”.")
        reasons.insert(0, "The quote is not on the page: no passage matches it word for word.")
        return Verdict.QUOTE_NOT_FOUND, reasons
    for fig in figures.missing:
        # The figures check's own reason already names the figure and what the quote holds.
        reasons.append(fig.reason or f"The claim's figure “{fig.text}” is not in the quote.")
    if reasons:
        reasons.insert(0, "The quote is on the page, but the claim says something the quote does not.")
        return Verdict.FIGURES_MISMATCH, reasons + [f.message for f in match.blocking]
    if match.blocking:
        opening = "The quote is on the page, but what it cut away or its length stops it from being verified."
        if all(f.kind is FlagKind.LOOKALIKE_HOST for f in match.blocking):
            opening = (
                "The quote is on the page, but the link's host imitates another name, which stops it being verified."
            )
        return Verdict.NEEDS_REVIEW, [opening] + [f.message for f in match.blocking]
    return Verdict.VERIFIED, ["The quote is on the page, word for word.", FOUND_IS_NOT_SUPPORT]


def _with_place_contexts(page: PageText, match: QuoteMatch, width: int, limit: int) -> QuoteMatch:
    """Return the match with the page's text around each of its first places, for the desk to step through."""
    if match.occurrence_count < 2:
        return match
    places = tuple(
        dataclasses.replace(o, context=_span_context(page, [o.span], o.page, width)) if i < limit else o
        for i, o in enumerate(match.occurrences)
    )
    return dataclasses.replace(match, occurrences=places)


def _context(page: PageText, match: QuoteMatch, width: int) -> Context | None:
    spans = sorted(f.span for f in match.fragments if f.span is not None)
    if not spans:
        return None
    first_page = next((f.page for f in match.fragments if f.found), None)
    return _span_context(page, spans, first_page, width)


def _span_context(page: PageText, spans: list[tuple[int, int]], first_page: int | None, width: int) -> Context:
    start = max(0, spans[0][0] - width)
    end = min(len(page.text), spans[0][1] + width)
    # Snap to white space so the excerpt starts and ends on whole words.
    while start > 0 and not page.text[start - 1].isspace() and spans[0][0] - start < width + 40:
        start -= 1
    while end < len(page.text) and not page.text[end].isspace() and end - spans[0][1] < width + 40:
        end += 1
    highlights = tuple((max(a, start) - start, min(b, end) - start) for a, b in spans if a < end and b > start)
    return Context(text=page.text[start:end], offset=start, highlights=highlights, page=first_page)


def _signs(claim: Claim, evidence: str, offset: int | None = None) -> tuple[Flag, ...]:
    """Return where the claim's own words part from the evidence (core.match.compare_claim)."""
    return compare_claim(claim.figure_text or claim.text, evidence, offset)


def _against_quote(claim: Claim, match: QuoteMatch, page: PageText) -> tuple[Flag, ...]:
    """Return where the claim parts from its found quote, read in the page's own words where it is one passage."""
    if not match.found:
        return ()
    spans = [f.span for f in match.fragments if f.span is not None]
    if len(spans) == 1:
        a, b = spans[0]
        return _signs(claim, page.text[a:b], a)
    return _signs(claim, match.quote)


def check_claim(
    claim: Claim,
    source: Source,
    page: PreparedPage | Unreadable | None,
    settings: Settings,
    others: Mapping[str, PreparedPage] | None = None,
) -> ClaimResult:
    """Return the result of one claim against its source's page (diagnosis included)."""
    if page is not None and not isinstance(page, Unreadable) and page.page.charset_note:
        source = dataclasses.replace(source, charset_note=page.page.charset_note)
    lookalike = host_flag(claim.url)
    # A look-alike host is said under every verdict: a dead or blocked look-alike is still one.
    extra = ([lookalike.message] if lookalike is not None else []) + _reasons_for_source(source)
    verdict = _SOURCE_VERDICTS.get(source.status)
    if verdict is not None:
        return ClaimResult(claim=claim, verdict=verdict, reasons=(source.reason, *extra), source=source)
    if page is None or isinstance(page, Unreadable):
        # No page with an OK source: no stored copy holds its text (a refused copy never gets here: it is a
        # blocked or not_checked source with the policy's reason, see refused_source).
        reason = (
            page.reason
            if isinstance(page, Unreadable)
            else f"No stored copy of {source.url} holds the page's text: re-fetch it, then check the claim again."
        )
        return ClaimResult(claim=claim, verdict=Verdict.NOT_CHECKED, reasons=(reason, *extra), source=source)

    # What the extractor could not read (text nested too deep, pages past the limit) may be why a
    # quote is missing: every claim that was not verified says so.
    unread = list(page.page.warnings)
    quote = (claim.quote or "").strip()
    if not quote:
        found = candidates(claim.figure_text or claim.text, page, settings)
        found = tuple(
            dataclasses.replace(c, signs=_signs(claim, c.text, c.start)) for c in found
        )  # where the claim parts from each passage
        placed = place_figures(claim.figure_text or claim.text, found, page.page, settings)
        verdict, reasons = decide(None, placed)
        reasons += [f"The figure “{f.text}” was not checked: {f.reason}" for f in placed.skipped]
        if not found:
            reasons.append(NO_SHARED_WORD)
        near = NearMiss(
            summary="Passages of the page closest to the claim, which the editor may adopt as its quote.",
            candidates=found,
        )
        return ClaimResult(
            claim=claim,
            verdict=verdict,
            reasons=tuple(reasons + unread + extra),
            source=source,
            near_miss=near,
            figures=placed,
        )

    matched = match_quote(quote, page, settings)
    match = matched if lookalike is None else dataclasses.replace(matched, flags=(*matched.flags, lookalike))
    match = dataclasses.replace(match, flags=match.flags + _against_quote(claim, match, page.page))  # claim vs quote
    figures = check_figures(claim.figure_text or claim.text, quote, page.page)
    verdict, reasons = decide(match, figures)
    reasons += [f"The figure “{f.text}” was not checked: {f.reason}" for f in figures.skipped]
    reasons += [f.message for f in match.flags if not f.blocking]
    near_miss = None
    if verdict is not Verdict.VERIFIED:
        reasons += unread
        # Every source of the brief, in brief order: "found verbatim in source N" counts from 1.
        near_miss = diagnose(quote, page, matched, {} if others is None else others, settings, figures=figures)
    context = _context(page.page, match, settings.context_chars)
    match = _with_place_contexts(page.page, match, settings.context_chars, settings.places_with_context)
    return ClaimResult(
        claim=claim,
        verdict=verdict,
        reasons=tuple(dict.fromkeys(reasons + extra)),  # a blocking flag's sentence is said once
        source=source,
        match=match,
        figures=figures,
        near_miss=near_miss,
        context=context,
    )


def _internal(subject: str, exc: Exception) -> str:
    """Log a bug met on one claim or page; return the reason that claim then carries."""
    _log.exception("Bug while checking %s", subject)
    return (
        f"Verbatim could not check this claim: it hit an internal error ({type(exc).__name__}: {exc})."
        " The error has been logged; the rest of the brief was checked. Check the claim by hand."
    )


def _isolated(
    claim: Claim,
    source: Source,
    page: PreparedPage | Unreadable | None,
    settings: Settings,
    others: Mapping[str, PreparedPage],
) -> ClaimResult:
    """Return check_claim's result, or the claim not_checked with the reason when it raised (a bug)."""
    try:
        return check_claim(claim, source, page, settings, others)
    except Exception as exc:  # every claim is checked in isolation: one bug never sinks the brief
        return ClaimResult(claim=claim, verdict=Verdict.NOT_CHECKED, reasons=(_internal(claim.id, exc),), source=source)


def _replace_results(report: Report, new: Mapping[str, ClaimResult]) -> Report:
    results = tuple(new.get(r.claim.id, r) for r in report.results)
    return dataclasses.replace(report, results=results)


def recheck_claim(
    report: Report, claim_id: str, source: Source, settings: Settings, store: Store | None = None
) -> Report:
    """Return the report with every claim citing the claim's URL re-checked against ``source``.

    Used when the editor supplies a page that could not be fetched, or after a re-fetch.
    """
    target = next(r for r in report.results if r.claim.id == claim_id)
    url = target.claim.url
    # The fetcher stores what it fetches; an editor's copy is stored here, as evidence of the re-check.
    if store is not None and source.status is SourceStatus.OK and source.origin is Origin.EDITOR:
        store.save_source(source)
    page = read_page(source, settings, store) if source.status is SourceStatus.OK else None
    others = _brief_pages(report, url, page, store, settings)
    new = {
        r.claim.id: check_claim(r.claim, source, page, settings, others) for r in report.results if r.claim.url == url
    }
    return _replace_results(report, new)


class _BriefPages(Mapping[str, PreparedPage]):
    """The brief's readable pages in brief order, each read from the store only when asked for.

    Re-checking one claim needs the other sources only when its quote fails (is it on another
    of them?); a brief of a hundred sources is not read again for a quote that is found.
    """

    def __init__(
        self, urls: list[str], url: str, page: PreparedPage | Unreadable | None, store: Store | None, settings: Settings
    ) -> None:
        self._urls = urls
        self._read: dict[str, PreparedPage | None] = {url: page if isinstance(page, PreparedPage) else None}
        self._store = store
        self._settings = settings

    def _page(self, url: str) -> PreparedPage | None:
        if url not in self._read:
            stored = _allowed_copy(self._store, url, self._settings)
            page = read_page(stored, self._settings, self._store) if stored is not None else None
            self._read[url] = page if isinstance(page, PreparedPage) else None
        return self._read[url]

    def __getitem__(self, url: str) -> PreparedPage:
        page = self._page(url) if url in self._urls else None
        if page is None:
            raise KeyError(url)
        return page

    def __iter__(self) -> Iterator[str]:
        return (url for url in self._urls if self._page(url) is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


def _brief_pages(
    report: Report, url: str, page: PreparedPage | Unreadable | None, store: Store | None, settings: Settings
) -> Mapping[str, PreparedPage]:
    """Return the brief's readable pages in brief order, ``page`` standing for ``url`` (for misattribution)."""
    return _BriefPages(_unique([r.claim.url for r in report.results]), url, page, store, settings)


def copy_refusal(store: Store | None, url: str, settings: Settings) -> Refused | None:
    """Return the refusal the settings' policy gives the newest stored copy of url, or None (allowed, or no copy)."""
    stored = store.latest_source(url) if store is not None else None
    return stored_refusal(stored, Policy.from_settings(settings)) if stored is not None else None


def fetch_refusal(url: str, settings: Settings) -> Refused | None:
    """Return the refusal the settings' policy gives a fetch of url before any request (address, domain), or None."""
    target = check_url(url, Policy.from_settings(settings))
    return target if isinstance(target, Refused) else None


def refused_source(url: str, refusal: Refused, final_url: str = "") -> Source:
    """Return the source a refused copy stands as: blocked (not_checked when the rule cannot tell), with the reason."""
    status = SourceStatus.NOT_CHECKED if refusal.rule == UNPROVEN else SourceStatus.BLOCKED
    return Source(url=url, status=status, reason=refusal.reason, final_url=final_url)


def _allowed_copy(store: Store | None, url: str, settings: Settings) -> Source | None:
    """Return the newest stored copy of url that the settings' policy would fetch, or None."""
    stored = store.latest_source(url) if store is not None else None
    if stored is None or stored_refusal(stored, Policy.from_settings(settings)) is not None:
        return None
    return stored


def adopt_quote(report: Report, claim_id: str, quote: str, settings: Settings, store: Store, by: str = "") -> Report:
    """Return the report with a claim re-checked using ``quote`` (a passage the editor ``by`` adopted).

    The adopted passage goes through the exact matcher and the figures check like any quote;
    the claim records who adopted it (``Claim.adopted_by``).
    """
    target = next(r for r in report.results if r.claim.id == claim_id)
    claim = dataclasses.replace(target.claim, quote=quote, adopted_by=by)
    refusal = copy_refusal(store, claim.url, settings)
    if refusal is not None:
        # The policy in force refuses the stored copy: the claim says so, in the policy's words.
        stored = store.latest_source(claim.url)
        refused = refused_source(claim.url, refusal, stored.final_url if stored is not None else "")
        return _replace_results(report, {claim_id: check_claim(claim, refused, None, settings)})
    source = _allowed_copy(store, claim.url, settings) or target.source
    page = read_page(source, settings, store) if source.status is SourceStatus.OK and source.body else None
    result = check_claim(claim, source, page, settings, _brief_pages(report, claim.url, page, store, settings))
    return _replace_results(report, {claim_id: result})
