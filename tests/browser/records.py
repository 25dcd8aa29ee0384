"""Hand-built Report records for the desk's page tests and benchmark: one claim per verdict.

The texts are the python.org sample's real sentences (DESIGN.md's classic example), so
that what a page draws can be checked against known words; ``hostile_report`` fills every
field that the desk draws with script payloads.
"""

from __future__ import annotations

import hashlib

from core.models import (
    BriefFormat,
    Candidate,
    Claim,
    ClaimResult,
    Context,
    DiffKind,
    DiffOp,
    Figure,
    FigureCheck,
    FigureKind,
    FigureStatus,
    Flag,
    FlagKind,
    Fragment,
    NearMiss,
    Origin,
    QuoteMatch,
    Report,
    Source,
    SourceStatus,
    Verdict,
)
from tests.builders import context_for, found_match, result, source

WHATSNEW = "https://docs.python.org/3/whatsnew/3.11.html"
PEP632 = "https://peps.python.org/pep-0632/"
SPEED = "CPython 3.11 is an average of 25% faster than CPython 3.10 as measured with the pyperformance benchmark suite"
PAGE = (
    "Faster CPython\n"
    + SPEED
    + ", and compiled with GCC on Ubuntu Linux. Depending on your workload, the overall speedup could be 10-60%."
)


def _source(url: str, status: SourceStatus = SourceStatus.OK, reason: str = "", http: int | None = 200) -> Source:
    # No body: the desk draws the context, never the bytes; the sha256 is the page's.
    sha = hashlib.sha256(PAGE.encode()).hexdigest() if status is SourceStatus.OK else ""
    return source(
        url,
        status=status,
        reason=reason,
        http_status=http,
        content_type="text/html; charset=utf-8",
        sha256=sha,
        fetched_at="2026-11-29T19:00:00+00:00",
        origin=Origin.SAMPLE,
    )


def _found(claim: Claim, verdict: Verdict, reasons: tuple[str, ...], figures: tuple[Figure, ...] = ()) -> ClaimResult:
    match = found_match(claim.quote or "", PAGE)
    context = context_for(PAGE, [f.span for f in match.fragments if f.span is not None])
    return result(
        claim, verdict, reasons, _source(claim.url), match=match, figures=FigureCheck(figures=figures), context=context
    )


def sample_results() -> list[ClaimResult]:
    """Return one result per verdict, in brief order, built by hand."""
    c1 = Claim(id="c1", text="Python 3.11 is 25% faster than 3.10.", url=WHATSNEW, quote=SPEED)
    r1 = _found(
        c1,
        Verdict.VERIFIED,
        ("The quote is on the page, word for word.",),
        (Figure(text="25%", status=FigureStatus.MATCHED, quote_text="25%", kind=FigureKind.PERCENT, span=(14, 17)),),
    )
    c2 = Claim(id="c2", text="CPython 3.12 is on average 30% faster than 3.11.", url=WHATSNEW, quote=SPEED)
    r2 = _found(
        c2,
        Verdict.FIGURES_MISMATCH,
        ("The claim's figure “30%” is not in the quote.",),
        (
            Figure(
                text="3.12",
                status=FigureStatus.MISSING,
                reason="the quote says 3.11",
                kind=FigureKind.VERSION,
                span=(8, 12),
            ),
            Figure(
                text="30%",
                status=FigureStatus.MISSING,
                reason="the quote says 25%",
                kind=FigureKind.PERCENT,
                span=(27, 30),
            ),
        ),
    )
    c3 = Claim(
        id="c3",
        text="The speedup is 10 to 60 percent.",
        url=WHATSNEW,
        quote="the overall speedup is between 10 and 60 percent",
    )
    near = NearMiss(
        summary="The page words it differently.",
        passage=Candidate(
            text="the overall speedup could be 10-60%",
            start=PAGE.find("the overall"),
            end=PAGE.find("the overall") + 34,
            score=81.0,
        ),
        diff=(
            DiffOp(kind=DiffKind.EQUAL, quote_words="the overall speedup", page_words="the overall speedup"),
            DiffOp(
                kind=DiffKind.WORD_REPLACED, quote_words="is between 10 and 60 percent", page_words="could be 10-60%"
            ),
        ),
    )
    r3 = ClaimResult(
        claim=c3,
        verdict=Verdict.QUOTE_NOT_FOUND,
        reasons=("The quote is not on the page: no passage matches it word for word.",),
        source=_source(WHATSNEW),
        match=QuoteMatch(quote=c3.quote or "", fragments=(Fragment(text=c3.quote or "", found=False),)),
        near_miss=near,
    )
    c4 = Claim(id="c4", text="distutils was deprecated.", url=PEP632, quote=None)
    r4 = ClaimResult(
        claim=c4,
        verdict=Verdict.NO_QUOTE,
        reasons=("The claim cites a source but offers no quote.",),
        source=_source(PEP632),
        near_miss=NearMiss(
            summary="Passages closest to the claim.",
            candidates=(Candidate(text=SPEED, start=15, end=15 + len(SPEED), score=70.0),),
        ),
    )
    c5 = Claim(
        id="c5",
        text="Python 3.15 removes the GIL.",
        url="https://docs.python.org/3/whatsnew/3.15.html",
        quote="removed",
    )
    r5 = ClaimResult(
        claim=c5,
        verdict=Verdict.DEAD_LINK,
        reasons=("The server answered 404 Not Found: the page does not exist (possibly an invented source).",),
        source=_source(c5.url, SourceStatus.DEAD_LINK, "404 Not Found", 404),
    )
    c6 = Claim(
        id="c6",
        text="A paywalled figure of 12%.",
        url="https://paywalled.example/report",
        quote="twelve percent of users",
    )
    r6 = ClaimResult(
        claim=c6,
        verdict=Verdict.NOT_CHECKED,
        reasons=("Server answered 403 Forbidden: the page may need a login.",),
        source=_source(
            c6.url, SourceStatus.NOT_CHECKED, "Server answered 403 Forbidden: the page may need a login.", 403
        ),
    )
    c7 = Claim(
        id="c7",
        text="Free threading is enabled by default.",
        url=WHATSNEW,
        quote="is an average of 25% faster than CPython 3.10",
    )
    r7 = _found(c7, Verdict.NEEDS_REVIEW, ("The quote is on the page, but:", "A negation right before it was cut."))
    r7 = ClaimResult(
        claim=r7.claim,
        verdict=r7.verdict,
        reasons=r7.reasons,
        source=r7.source,
        match=QuoteMatch(
            quote=r7.match.quote if r7.match else "",
            fragments=r7.match.fragments if r7.match else (),
            flags=(
                Flag(
                    kind=FlagKind.NEGATION_CUT,
                    message="The page says “not” right before the quote.",
                    blocking=True,
                    page_words="not enabled",
                ),
            ),
        ),
        context=r7.context,
    )
    c8 = Claim(id="c8", text="Internal page.", url="http://127.0.0.1/x", quote="whatever it says here")
    r8 = ClaimResult(
        claim=c8,
        verdict=Verdict.BLOCKED,
        reasons=("The address 127.0.0.1 is on a private network: not fetched.",),
        source=_source(c8.url, SourceStatus.BLOCKED, "private address", None),
    )
    return [r1, r2, r3, r4, r5, r6, r7, r8]


def sample_report(n_copies: int = 1) -> Report:
    """Return a report of the hand-built results, repeated n_copies times with unique claim ids."""
    results: list[ClaimResult] = []
    for k in range(n_copies):
        for r in sample_results():
            claim = Claim(
                id=f"{r.claim.id}-{k}" if n_copies > 1 else r.claim.id,
                text=r.claim.text,
                url=r.claim.url,
                quote=r.claim.quote,
            )
            results.append(
                ClaimResult(
                    claim=claim,
                    verdict=r.verdict,
                    reasons=r.reasons,
                    source=r.source,
                    match=r.match,
                    figures=r.figures,
                    near_miss=r.near_miss,
                    context=r.context,
                )
            )
    return Report(
        brief_name="hand-built.md",
        brief_format=BriefFormat.MARKDOWN,
        checked_at="2026-11-29T19:00:00+00:00",
        results=tuple(results),
        uncited=("No citation here.",),
    )


XSS = '<script>alert("x")</script><img src=x onerror=alert(1)>'
#: Markdown that would fetch an image (from a closed loopback port) or make a script link if rendered.
MD = "![i](http://127.0.0.1:9/md.png) [link](javascript:alert(9)) :material/home:"


def hostile_report() -> Report:
    """Return a report whose every drawn text carries a script payload."""
    url = 'javascript:alert(1)//"><script>alert(2)</script>'
    claim = Claim(id="x1", text=f"Claim {XSS} says 25%", url=url, quote=f"quote {XSS}")
    page = f"before {XSS} quote {XSS} after"
    start = page.find("quote")
    src = Source(
        url=url,
        status=SourceStatus.OK,
        reason=XSS,
        final_url=url,
        http_status=200,
        content_type=XSS,
        sha256=XSS,
        fetched_at=XSS,
    )
    near = NearMiss(
        summary=XSS,
        passage=Candidate(text=XSS, start=0, end=5),
        diff=(DiffOp(kind=DiffKind.WORD_REPLACED, quote_words=XSS, page_words=XSS),),
        found_in_source=XSS,
    )
    r = ClaimResult(
        claim=claim,
        verdict=Verdict.QUOTE_NOT_FOUND,
        reasons=(XSS,),
        source=src,
        match=QuoteMatch(
            quote=claim.quote or "",
            fragments=(Fragment(text=claim.quote or "", found=False),),
            flags=(Flag(kind=FlagKind.HEDGE_CUT, message=XSS, blocking=False, page_words=XSS),),
        ),
        figures=FigureCheck(figures=(Figure(text=XSS, status=FigureStatus.MISSING, reason=XSS),)),
        near_miss=near,
        context=Context(text=page, offset=0, highlights=((start, len(page) - 6),)),
    )
    nq = ClaimResult(
        claim=Claim(id="x2", text=XSS, url=url, quote=None),
        verdict=Verdict.NO_QUOTE,
        reasons=(XSS,),
        source=src,
        near_miss=NearMiss(summary=XSS, candidates=(Candidate(text=XSS, start=0, end=5),)),
    )
    return Report(
        brief_name=f"brief {XSS} {MD}",
        brief_format=BriefFormat.MARKDOWN,
        checked_at=f"{XSS} {MD}",
        results=(r, nq),
        uncited=(XSS,),
        warnings=(XSS, MD),
    )


#: A 4,000-character word with no break opportunity, as a brief or a page may hold one.
LONG_WORD = "Supercalifragilistic" * 200


def long_word_report() -> Report:
    """Return the sample report with LONG_WORD in its first claim, quote, context and a reason."""
    from dataclasses import replace

    report = sample_report()
    first = report.results[0]
    claim = replace(first.claim, text=f"{first.claim.text} {LONG_WORD}", quote=f"{first.claim.quote} {LONG_WORD}")
    context = replace(first.context, text=f"{first.context.text} {LONG_WORD}") if first.context else None
    changed = replace(first, claim=claim, context=context, reasons=(*first.reasons, f"It says {LONG_WORD}."))
    return replace(report, results=(changed, *report.results[1:]))
