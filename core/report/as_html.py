"""The annotated HTML report: one self-contained file an editor can send on.

Rendered with Jinja2 and autoescaping from ``assets/report.html.j2``; the CSS of
``assets/report.css`` (plus the verdict colours) is inlined and allowed by its hash in a
Content-Security-Policy that allows no script, no frame, no form and no outside request, so
the file opens offline and a hostile claim, quote or page cannot run anything. Only http(s)
URLs become links. This module refuses to fetch, to read page bodies, or to decide verdicts.
"""

from __future__ import annotations

import base64
import functools
import hashlib
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from core.fetch.shown import shown_url
from core.models import ClaimResult, FigureStatus, Report, Verdict
from core.report.brief_links import citation_words, unused_lines
from core.report.links import is_web_url, text_fragment_link
from core.report.marks import claim_segments, context_view
from core.report.offered import offered_first, offers
from core.report.unchecked import not_checked
from core.report.wording import (
    FOUND_IS_NOT_SUPPORT,
    MARK_WORDS,
    NEAR_MISS_DECIDES_NOTHING,
    OFFERED_IS_NOT_CHECKED,
    ORIGIN_WORDS,
    VERDICT_COLOURS,
    adopted_words,
    answers_words,
    decided_words,
    decision_words,
    diff_words,
    figure_place_words,
    place_words,
    places_words,
    source_status_words,
    when,
)
from core.settings import Settings

ASSETS = Path(__file__).resolve().parents[2] / "assets"
TEMPLATE = "report.html.j2"
STYLESHEET = "report.css"
PLACES_LISTED = 20  # places of a repeated quote listed by name; the count covers them all


@functools.cache
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(ASSETS),
        autoescape=True,  # every value is escaped unless marked safe here, in Python
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


@functools.cache
def stylesheet() -> str:
    """Return the report's CSS: assets/report.css plus one rule per verdict colour."""
    css = (ASSETS / STYLESHEET).read_text(encoding="utf-8")
    rules = "\n".join(f".v-{v.value} {{ color: {VERDICT_COLOURS[v]}; }}" for v in Verdict)
    text = f"{css}\n{rules}\n"
    if "</" in text:
        # Bug guard: the stylesheet is inlined raw inside <style>, where "</" could close it.
        raise ValueError("assets/report.css must not contain '</'")
    return text


def content_security_policy(css: str) -> str:
    """Return the CSP: nothing allowed but this exact stylesheet (by hash) and data: images."""
    digest = base64.b64encode(hashlib.sha256(css.encode("utf-8")).digest()).decode("ascii")
    return f"default-src 'none'; style-src 'sha256-{digest}'; img-src data:; base-uri 'none'; form-action 'none'"


def _link(url: str) -> dict[str, str]:
    """Return a URL for the template: href only for http(s), so javascript: and the rest stay text."""
    return {"text": shown_url(url), "href": url if is_web_url(url) else ""}


def _link_words(result: ClaimResult) -> str:
    """Return the page's own words to point a text-fragment link at: the found quote, else the closest passage."""
    ctx, match = result.context, result.match
    if match is not None and match.found:
        if ctx is not None and ctx.highlights:
            s, e = ctx.highlights[0]
            # The page's characters, not the quote's: browsers search the live page's text.
            return ctx.text[s:e] or (result.claim.quote or "")
        return result.claim.quote or ""
    if result.near_miss is not None and result.near_miss.passage is not None:
        return result.near_miss.passage.text
    first = offered_first(result)  # a claim without a quote: the passage offered first
    return first.candidate.text if first is not None else ""


def _claim_view(result: ClaimResult, report: Report, max_chars: int) -> dict[str, Any]:
    claim, source, match = result.claim, result.source, result.match
    decision = report.decision_for(claim.id)
    live_url = source.final_url or claim.url
    link_words = _link_words(result)
    return {
        "id": claim.id,
        "anchor": f"claim-{claim.id}",
        "claim_segments": claim_segments(result),
        "citation": citation_words(claim),
        "verdict": result.verdict,
        "reasons": result.reasons,
        "quote": claim.quote,
        "fragments": match.fragments if match is not None and len(match.fragments) > 1 else (),
        "too_short": match.too_short if match is not None else False,
        "flags": match.flags if match is not None else (),
        "places": places_words(match),
        "place_labels": [place_words(match, i) for i in range(min(len(match.occurrences), PLACES_LISTED))]
        if match is not None and match.occurrence_count > 1
        else [],
        "context": context_view(result, max_chars),
        "context_is_match": match is not None and match.found,
        "figures": result.figures.figures,
        "figures_placed": any(f.where is not None for f in result.figures.figures),
        "place_words": {
            i: figure_place_words(f.where, f.around, f.instead) for i, f in enumerate(result.figures.figures)
        },
        "offers": offers(result),
        "adopted": adopted_words(claim.adopted_by),
        "near_miss": result.near_miss,
        "url": _link(claim.url),
        "final_url": _link(source.final_url) if source.final_url and source.final_url != claim.url else None,
        "source": source,
        "source_state": source_status_words(result),
        "fetched_at": when(source.fetched_at) if source.fetched_at else "",
        "origin": ORIGIN_WORDS.get(source.origin, source.origin),
        "fragment_link": text_fragment_link(live_url, link_words) if link_words else "",
        "fragment_label": "Open the quote on the live page"
        if match is not None and match.found
        else "Open the closest passage on the live page (diagnosis)",
        "decision": decision,
        "decision_words": decision_words(decision.decision) if decision else "",
        "decided": decided_words(decision) if decision else "",
        "answers": answers_words(decision) if decision else [],
    }


def to_html(report: Report, settings: Settings | None = None) -> str:
    """Return the report as one self-contained HTML page; never fails on the report's content.

    The text may hold what a brief held, lone surrogates included: core.report.exports makes it a file.
    """
    settings = settings or Settings()
    css = stylesheet()
    template = _environment().get_template(TEMPLATE)
    return template.render(
        report=report,
        title=report.brief_name or "unnamed brief",
        checked_at=when(report.checked_at),
        summary=[(v, report.summary[v.value]) for v in Verdict],
        total=len(report.results),
        missing=not_checked(report),
        unused=unused_lines(report.unused_links),
        claims=[_claim_view(r, report, settings.report_context_max_chars) for r in report.results],
        found_is_not_support=FOUND_IS_NOT_SUPPORT,
        near_miss_decides_nothing=NEAR_MISS_DECIDES_NOTHING,
        offered_is_not_checked=OFFERED_IS_NOT_CHECKED,
        FigureStatus=FigureStatus,
        mark_words=MARK_WORDS,
        diff_words=diff_words,
        # Trusted asset, checked for "</" above; escaping would break CSS inside <style>.
        css=Markup(css),  # noqa: S704
        csp=content_security_policy(css),
    )
