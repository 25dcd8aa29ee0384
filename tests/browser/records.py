"""Hand-built Report records for the desk's page tests and benchmark: one claim per verdict.

The texts are the python.org sample's real sentences (DESIGN.md's classic example), so
that what a page draws can be checked against known words; ``hostile_report`` fills every
field that the desk draws with script payloads.
"""

from __future__ import annotations

import hashlib

from core.models import (
    Candidate,
    Claim,
    ClaimResult,
    Context,
    DiffOp,
    Figure,
    FigureCheck,
    FigureStatus,
    Flag,
    Fragment,
    NearMiss,
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
        origin="sample",
    )


def _found(claim: Claim, verdict: Verdict, reasons: tuple[str, ...], figures: tuple[Figure, ...] = ()) -> ClaimResult:
    match = found_match(claim.quote or "", PAGE)
    context = context_for(PAGE, [(f.start, f.end) for f in match.fragments])
    return result(
        claim, verdict, reasons, _source(claim.url), match=match, figures=FigureCheck(figures), context=context
    )


def sample_results() -> list[ClaimResult]:
    """Return one result per verdict, in brief order, built by hand."""
    c1 = Claim("c1", "Python 3.11 is 25% faster than 3.10.", WHATSNEW, SPEED)
    r1 = _found(
        c1,
        Verdict.VERIFIED,
        ("The quote is on the page, word for word.",),
        (Figure("25%", FigureStatus.MATCHED, "25%", kind="percent", start=14, end=17),),
    )
    c2 = Claim("c2", "CPython 3.12 is on average 30% faster than 3.11.", WHATSNEW, SPEED)
    r2 = _found(
        c2,
        Verdict.FIGURES_MISMATCH,
        ("The claim's figure “30%” is not in the quote.",),
        (
            Figure("3.12", FigureStatus.MISSING, reason="the quote says 3.11", kind="version", start=8, end=12),
            Figure("30%", FigureStatus.MISSING, reason="the quote says 25%", kind="percent", start=27, end=30),
        ),
    )
    c3 = Claim("c3", "The speedup is 10 to 60 percent.", WHATSNEW, "the overall speedup is between 10 and 60 percent")
    near = NearMiss(
        "The page words it differently.",
        Candidate("the overall speedup could be 10-60%", PAGE.find("the overall"), PAGE.find("the overall") + 34, 81.0),
        (
            DiffOp("equal", "the overall speedup", "the overall speedup"),
            DiffOp("word_replaced", "is between 10 and 60 percent", "could be 10-60%"),
        ),
    )
    r3 = ClaimResult(
        c3,
        Verdict.QUOTE_NOT_FOUND,
        ("The quote is not on the page: no passage matches it word for word.",),
        _source(WHATSNEW),
        QuoteMatch(c3.quote or "", (Fragment(c3.quote or "", False),)),
        near_miss=near,
    )
    c4 = Claim("c4", "distutils was deprecated.", PEP632, None)
    r4 = ClaimResult(
        c4,
        Verdict.NO_QUOTE,
        ("The claim cites a source but offers no quote.",),
        _source(PEP632),
        near_miss=NearMiss("Passages closest to the claim.", candidates=(Candidate(SPEED, 15, 15 + len(SPEED), 70.0),)),
    )
    c5 = Claim("c5", "Python 3.15 removes the GIL.", "https://docs.python.org/3/whatsnew/3.15.html", "removed")
    r5 = ClaimResult(
        c5,
        Verdict.DEAD_LINK,
        ("The server answered 404 Not Found: the page does not exist (possibly an invented source).",),
        _source(c5.url, SourceStatus.DEAD_LINK, "404 Not Found", 404),
    )
    c6 = Claim("c6", "A paywalled figure of 12%.", "https://paywalled.example/report", "twelve percent of users")
    r6 = ClaimResult(
        c6,
        Verdict.NOT_CHECKED,
        ("Server answered 403 Forbidden: the page may need a login.",),
        _source(c6.url, SourceStatus.NOT_CHECKED, "Server answered 403 Forbidden: the page may need a login.", 403),
    )
    c7 = Claim("c7", "Free threading is enabled by default.", WHATSNEW, "is an average of 25% faster than CPython 3.10")
    r7 = _found(c7, Verdict.NEEDS_REVIEW, ("The quote is on the page, but:", "A negation right before it was cut."))
    r7 = ClaimResult(
        r7.claim,
        r7.verdict,
        r7.reasons,
        r7.source,
        QuoteMatch(
            r7.match.quote if r7.match else "",
            r7.match.fragments if r7.match else (),
            (Flag("negation_cut", "The page says “not” right before the quote.", True, "not enabled"),),
        ),
        context=r7.context,
    )
    c8 = Claim("c8", "Internal page.", "http://127.0.0.1/x", "whatever it says here")
    r8 = ClaimResult(
        c8,
        Verdict.BLOCKED,
        ("The address 127.0.0.1 is on a private network: not fetched.",),
        _source(c8.url, SourceStatus.BLOCKED, "private address", None),
    )
    return [r1, r2, r3, r4, r5, r6, r7, r8]


def sample_report(n_copies: int = 1) -> Report:
    """Return a report of the hand-built results, repeated n_copies times with unique claim ids."""
    results: list[ClaimResult] = []
    for k in range(n_copies):
        for r in sample_results():
            claim = Claim(f"{r.claim.id}-{k}" if n_copies > 1 else r.claim.id, r.claim.text, r.claim.url, r.claim.quote)
            results.append(
                ClaimResult(claim, r.verdict, r.reasons, r.source, r.match, r.figures, r.near_miss, r.context)
            )
    return Report(
        "hand-built.md", "markdown", "2026-11-29T19:00:00+00:00", tuple(results), uncited=("No citation here.",)
    )


XSS = '<script>alert("x")</script><img src=x onerror=alert(1)>'
#: Markdown that would fetch an image (from a closed loopback port) or make a script link if rendered.
MD = "![i](http://127.0.0.1:9/md.png) [link](javascript:alert(9)) :material/home:"


def hostile_report() -> Report:
    """Return a report whose every drawn text carries a script payload."""
    url = 'javascript:alert(1)//"><script>alert(2)</script>'
    claim = Claim("x1", f"Claim {XSS} says 25%", url, f"quote {XSS}")
    page = f"before {XSS} quote {XSS} after"
    start = page.find("quote")
    src = Source(
        url, SourceStatus.OK, reason=XSS, final_url=url, http_status=200, content_type=XSS, sha256=XSS, fetched_at=XSS
    )
    near = NearMiss(XSS, Candidate(XSS, 0, 5), (DiffOp("word_replaced", XSS, XSS),), found_in_source=XSS)
    r = ClaimResult(
        claim,
        Verdict.QUOTE_NOT_FOUND,
        (XSS,),
        src,
        QuoteMatch(claim.quote or "", (Fragment(claim.quote or "", False),), (Flag("hedge_cut", XSS, False, XSS),)),
        FigureCheck((Figure(XSS, FigureStatus.MISSING, reason=XSS),)),
        near,
        Context(page, 0, ((start, len(page) - 6),)),
    )
    nq = ClaimResult(
        Claim("x2", XSS, url, None),
        Verdict.NO_QUOTE,
        (XSS,),
        src,
        near_miss=NearMiss(XSS, candidates=(Candidate(XSS, 0, 5),)),
    )
    return Report(f"brief {XSS} {MD}", "markdown", f"{XSS} {MD}", (r, nq), uncited=(XSS,), warnings=(XSS, MD))
