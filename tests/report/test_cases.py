"""Hand-built Reports for the report tests, from real python.org pages of the shared corpus.

Every verdict appears once in ``python_report()``; page contexts and spans are cut from the
corpus page's own visible text, so highlights are checked against real characters.
``hostile_report()`` carries script payloads in every field a report draws. The tests at the
bottom check the cases themselves (real text, every verdict), so a broken case cannot pass
silently.
"""

from __future__ import annotations

import dataclasses

from core.models import (
    BriefFormat,
    Candidate,
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
    Origin,
    QuoteMatch,
    Report,
    Source,
    SourceStatus,
    Terms,
    Verdict,
)
from tests.builders import context_for, corpus_text, figure_in, found_match, locate, result, source

CONTEXT_CHARS = 300
WHATSNEW_311 = "https://docs.python.org/3/whatsnew/3.11.html"
WHATSNEW_313 = "https://docs.python.org/3/whatsnew/3.13.html"
PEP_632 = "https://peps.python.org/pep-0632/"
PEP_703 = "https://peps.python.org/pep-0703/"


def page_text(relative: str) -> str:
    """Return the visible text of a python.org corpus page (relative to html/python/), white space collapsed."""
    return corpus_text(f"html/python/{relative}")


def ok_source(url: str, text: str, *, origin: Origin = Origin.FETCHED, drift: bool = False) -> Source:
    """Return the page as fetched: its text is its body."""
    headers = (("content-type", "text/html; charset=utf-8"), ("server", "nginx"))
    return source(url, text.encode(), headers=headers, fetched_at="2026-11-29T18:02:11Z", origin=origin, drift=drift)


def _found(claim: Claim, page_rel: str, url: str) -> tuple[ClaimResult, str]:
    text = page_text(page_rel)
    match = found_match(claim.quote or "", text, in_main=True)
    (fragment,) = match.fragments
    assert fragment.span is not None
    context = context_for(text, [fragment.span], CONTEXT_CHARS)
    return result(claim, Verdict.VERIFIED, (), ok_source(url, text), match=match, context=context), text


def python_results() -> list[ClaimResult]:
    """Return one ClaimResult per verdict, in brief order, from the python.org corpus pages."""
    out: list[ClaimResult] = []

    # 1. verified
    c1 = Claim(
        id="c1",
        text="CPython 3.11 is an average of 25% faster than CPython 3.10, according to the release notes.",
        url=WHATSNEW_311,
        quote="CPython 3.11 is an average of 25% faster than CPython 3.10",
        location=Location(kind=LocationKind.PARAGRAPH, index=1, start=0, end=90),
    )
    r1, _ = _found(c1, "whatsnew/3.11.html", WHATSNEW_311)
    figs1 = FigureCheck(
        figures=(
            figure_in(c1.text, "3.11", FigureStatus.MATCHED, quote_text="3.11", kind="version"),
            figure_in(c1.text, "25%", FigureStatus.MATCHED, quote_text="25%", kind="percent"),
            figure_in(c1.text, "3.10", FigureStatus.MATCHED, quote_text="3.10", kind="version"),
        )
    )
    out.append(
        ClaimResult(
            claim=c1,
            verdict=Verdict.VERIFIED,
            reasons=("The quote is on the page and every figure of the claim is in it.",),
            source=r1.source,
            match=r1.match,
            figures=figs1,
            context=r1.context,
        )
    )

    # 2. figures_mismatch: the claim says 60%, the quote says 25%; 60 appears elsewhere ("10-60%").
    c2 = Claim(
        id="c2",
        text="Python 3.11 runs 60% faster than Python 3.10.",
        url=WHATSNEW_311,
        quote="CPython 3.11 is an average of 25% faster than CPython 3.10",
        location=Location(kind=LocationKind.PARAGRAPH, index=2, start=0, end=44),
    )
    r2, text311 = _found(c2, "whatsnew/3.11.html", WHATSNEW_311)
    e_start, _ = locate(text311, "10-60%")
    figs2 = FigureCheck(
        figures=(
            figure_in(c2.text, "3.11", FigureStatus.MATCHED, quote_text="3.11", kind="version"),
            figure_in(
                c2.text,
                "60%",
                FigureStatus.MISSING,
                kind="percent",
                reason="The quote says 25%, not 60%.",
                elsewhere=((e_start + 3, e_start + 6),),
            ),
            figure_in(c2.text, "3.10", FigureStatus.MATCHED, quote_text="3.10", kind="version"),
        )
    )
    out.append(
        ClaimResult(
            claim=c2,
            verdict=Verdict.FIGURES_MISMATCH,
            reasons=("The figure 60% of the claim is not in the quote.",),
            source=r2.source,
            match=r2.match,
            figures=figs2,
            context=r2.context,
        )
    )

    # 3. needs_review: the quote starts right after "is not" on the page.
    c3 = Claim(
        id="c3",
        text="In Python 3.13 the free-threaded build is enabled by default.",
        url=WHATSNEW_313,
        quote="enabled by default. The free-threaded mode requires a different executable",
        location=Location(kind=LocationKind.TABLE, index=0, start=0, end=60),
    )
    text313 = page_text("whatsnew/3.13.html")
    q_start, q_end = locate(text313, c3.quote or "")
    neg_start, neg_end = q_start - len("is not "), q_start - 1
    flag = Flag(
        kind=FlagKind.NEGATION_CUT,
        message="The page says \u201cis not\u201d right before the quote.",
        blocking=True,
        page_words="is not",
        span=(neg_start, neg_end),
    )
    m3 = QuoteMatch(
        quote=c3.quote or "",
        fragments=(Fragment(text=c3.quote or "", found=True, page=None, in_main=True, span=(q_start, q_end)),),
        flags=(flag,),
    )
    out.append(
        ClaimResult(
            claim=c3,
            verdict=Verdict.NEEDS_REVIEW,
            reasons=("The quote is on the page, but the page says \u201cis not\u201d right before it.",),
            source=ok_source(WHATSNEW_313, text313, origin=Origin.CACHE, drift=True),
            match=m3,
            figures=FigureCheck(
                figures=(
                    figure_in(
                        c3.text,
                        "3.13",
                        FigureStatus.SKIPPED,
                        kind="version",
                        reason="The quote holds no figure to compare with.",
                    ),
                )
            ),
            context=context_for(text313, [(q_start, q_end)], CONTEXT_CHARS),
        )
    )

    # 4. quote_not_found: the quote says "removed", the page says "marked as deprecated".
    c4 = Claim(
        id="c4",
        text="distutils was removed in Python 3.10.",
        url=PEP_632,
        quote="In Python 3.10 and 3.11, distutils will be formally removed",
        location=Location(kind=LocationKind.PARAGRAPH, index=4, start=0, end=38),
    )
    text632 = page_text("peps/pep-0632.html")
    p_start, p_end = locate(text632, "In Python 3.10 and 3.11, distutils will be formally marked as deprecated.")
    passage = Candidate(text=text632[p_start:p_end], start=p_start, end=p_end, score=91.5)
    nm4 = NearMiss(
        summary="The page's closest passage says \u201cmarked as deprecated\u201d"
        " where the quote says \u201cremoved\u201d.",
        passage=passage,
        diff=(
            DiffOp(
                kind=DiffKind.EQUAL,
                quote_words="In Python 3.10 and 3.11, distutils will be formally",
                page_words="In Python 3.10 and 3.11, distutils will be formally",
            ),
            DiffOp(kind=DiffKind.WORD_REPLACED, quote_words="removed", page_words="marked as deprecated"),
        ),
    )
    m4 = QuoteMatch(quote=c4.quote or "", fragments=(Fragment(text=c4.quote or "", found=False),))
    out.append(
        ClaimResult(
            claim=c4,
            verdict=Verdict.QUOTE_NOT_FOUND,
            reasons=("The quote is not on the page.",),
            source=ok_source(PEP_632, text632),
            match=m4,
            figures=FigureCheck(
                figures=(
                    figure_in(
                        c4.text,
                        "3.10",
                        FigureStatus.SKIPPED,
                        kind=FigureKind.VERSION,
                        reason="The quote was not found, so its figures were not compared.",
                    ),
                )
            ),
            near_miss=nm4,
            context=context_for(text632, [(p_start, p_end)], CONTEXT_CHARS),
        )
    )

    # 5. no_quote, with passages offered.
    c5 = Claim(
        id="c5",
        text="PEP 703 proposes making the global interpreter lock optional.",
        url=PEP_703,
        quote=None,
        location=Location(kind=LocationKind.FOOTNOTE, index=0, start=0, end=60),
    )
    text703 = page_text("peps/pep-0703.html")
    a_start, a_end = locate(
        text703, "CPython\u2019s global interpreter lock (\u201cGIL\u201d) prevents multiple threads"
    )
    nm5 = NearMiss(
        summary="No quote was offered; passages of the page that may hold the claim are listed.",
        candidates=(
            Candidate(
                text=text703[a_start:a_end],
                start=a_start,
                end=a_end,
                score=72.0,
                holds=Terms(words=("global", "interpreter", "lock")),
                lacks=Terms(words=("optional",), names=("PEP",), figures=("703",)),
                highlights=((a_start + 10, a_start + 34),),
                signs=(
                    Flag(
                        kind=FlagKind.HEDGE_DROPPED,
                        message="The passage says “prevents”; the claim drops it.",
                        blocking=False,
                        page_words="prevents",
                        claim_words="",
                    ),
                ),
            ),
        ),
    )
    out.append(
        ClaimResult(
            claim=c5,
            verdict=Verdict.NO_QUOTE,
            reasons=("The claim offers no quote; pick one from the page.",),
            source=ok_source(PEP_703, text703, origin=Origin.SAMPLE),
            match=None,
            figures=FigureCheck(
                (
                    Figure(
                        text="703",
                        status=FigureStatus.MISSING,
                        kind=FigureKind.NUMBER,
                        reason="The claim's “703” is not in the passage offered first, but stands elsewhere.",
                        span=(4, 7),
                        where=FigurePlace.ELSEWHERE,
                        elsewhere=((text703.index("703"), text703.index("703") + 3),),
                        around=text703[a_start:a_end],
                    ),
                )
            ),
            near_miss=nm5,
        )
    )

    # 6. not_checked
    c6 = Claim(
        id="c6",
        text="The Python Software Foundation reported 1,200 new members in 2025.",
        url="https://members.example.org/psf-report",
        quote="we welcomed 1,200 new members",
        location=Location(kind=LocationKind.PARAGRAPH, index=6),
    )
    out.append(
        ClaimResult(
            claim=c6,
            verdict=Verdict.NOT_CHECKED,
            reasons=(
                "The source could not be read: Server answered 403 Forbidden: the page may need a login. "
                "Upload the page or paste its text to check the quote.",
            ),
            source=Source(
                url=c6.url,
                status=SourceStatus.NOT_CHECKED,
                reason="Server answered 403 Forbidden: the page may need a login",
                final_url=c6.url,
                http_status=403,
                content_type="text/html",
                fetched_at="2026-11-29T18:02:12Z",
            ),
            figures=FigureCheck(
                figures=(
                    figure_in(
                        c6.text, "1,200", FigureStatus.SKIPPED, kind="number", reason="The source could not be read."
                    ),
                )
            ),
        )
    )

    # 7. dead_link
    c7 = Claim(
        id="c7",
        text="PEP 9999 makes type hints mandatory.",
        url="https://peps.python.org/pep-9999/",
        quote="type hints are mandatory",
        location=Location(kind=LocationKind.PARAGRAPH, index=7),
    )
    out.append(
        ClaimResult(
            claim=c7,
            verdict=Verdict.DEAD_LINK,
            reasons=("The page does not exist (404 Not Found): possibly an invented source.",),
            source=Source(
                url=c7.url,
                status=SourceStatus.DEAD_LINK,
                reason="Server answered 404 Not Found",
                final_url=c7.url,
                http_status=404,
                fetched_at="2026-11-29T18:02:13Z",
            ),
        )
    )

    # 8. blocked
    c8 = Claim(
        id="c8",
        text="Python's documentation is served from a local mirror.",
        url="file:///etc/passwd",
        quote="the documentation is mirrored",
        location=Location(kind=LocationKind.PARAGRAPH, index=8),
    )
    out.append(
        ClaimResult(
            claim=c8,
            verdict=Verdict.BLOCKED,
            reasons=("Only http and https links are checked: this link is file:.",),
            source=Source(
                url=c8.url,
                status=SourceStatus.BLOCKED,
                reason="Only http and https links are checked: this link is file:",
            ),
        )
    )
    return out


def python_report(*, decisions: bool = True) -> Report:
    """Return a report with every verdict, two decisions and an uncited sentence."""
    decs = (
        (
            Decision(
                claim_id="c1",
                decision=Choice.ACCEPT,
                note="Matches the release notes.",
                same_period=True,
                same_metric=True,
                same_population=None,
                decided_at="2026-11-29T18:10:00Z",
                decided_by="Ada Lovelace",
            ),
            Decision(
                claim_id="c2",
                decision=Choice.NEEDS_EDIT,
                note="Say 25%, not 60%.",
                same_period=False,
                same_metric=None,
                same_population=None,
                decided_at="2026-11-29T18:11:00Z",
            ),
        )
        if decisions
        else ()
    )
    return Report(
        brief_name="python-speed-brief.md",
        brief_format=BriefFormat.MARKDOWN,
        checked_at="2026-11-29T18:02:14Z",
        results=tuple(python_results()),
        uncited=("Python is the most popular language in the world.",),
        warnings=("Two claims cite the same page.",),
        run_id="run-20261129-1802",
        decisions=decs,
    )


PAYLOAD = "<script>alert('xss')</script>"
IMG_PAYLOAD = '"><img src=x onerror="alert(1)">'


def hostile_report() -> Report:
    """Return a report whose claim, quote, URL, page text, reason and note carry script payloads."""
    page = f"Intro text. The release {PAYLOAD} is an average of 25% faster {IMG_PAYLOAD} than before. Outro."
    quote = f"is an average of 25% faster {IMG_PAYLOAD}"
    start, end = locate(page, quote)
    claim = Claim(
        id="x1",
        text=f"Python {PAYLOAD} is 25% faster {IMG_PAYLOAD}",
        url="https://evil.example/?q=<script>",
        quote=quote,
        location=Location(kind=LocationKind.PARAGRAPH, index=0),
    )
    src = Source(
        url=claim.url,
        status=SourceStatus.OK,
        final_url="javascript:alert(document.cookie)",
        http_status=200,
        sha256="0" * 64,
        fetched_at="2026-11-29T18:00:00Z",
        content_type="text/html",
    )
    r1 = ClaimResult(
        claim=claim,
        verdict=Verdict.VERIFIED,
        reasons=(f"Reason with {PAYLOAD}",),
        source=src,
        match=QuoteMatch(quote=quote, fragments=(Fragment(text=quote, found=True, span=(start, end)),)),
        figures=FigureCheck(figures=(figure_in(claim.text, "25%", FigureStatus.MATCHED, quote_text="25%"),)),
        context=context_for(page, [(start, end)], 20),
    )
    claim2 = Claim(
        id="x2",
        text='=HYPERLINK("http://evil.example","click")',
        url="javascript:alert(1)",
        quote=f"-2+3 {PAYLOAD}",
        location=Location(kind=LocationKind.PARAGRAPH, index=1),
    )
    r2 = ClaimResult(
        claim=claim2,
        verdict=Verdict.BLOCKED,
        reasons=("Only http and https links are checked: this link is javascript:.",),
        source=Source(url=claim2.url, status=SourceStatus.BLOCKED, reason=f"scheme javascript: {PAYLOAD}"),
        near_miss=NearMiss(summary=f"diagnosis {PAYLOAD}"),
    )
    return Report(
        brief_name=f"brief {PAYLOAD}.md",
        brief_format=BriefFormat.MARKDOWN,
        checked_at="2026-11-29T18:00:00Z",
        results=(r1, r2),
        uncited=(f"uncited {PAYLOAD}",),
        warnings=(f"warning {IMG_PAYLOAD}",),
        decisions=(Decision(claim_id="x1", decision=Choice.REJECT, note=f"note {PAYLOAD}"),),
    )


NOWHERE_REASON = (
    "The claim\u2019s \u201c75%\u201d is nowhere on the cited page; the passage closest to the claim says "
    "\u201can average of 25%\u201d."
)


def evidence_report() -> Report:
    """Return claims checked against their evidence (issue 22): unquoted with a figure nowhere, a negation, an adoption.

    e1 offers no quote and its 75% stands nowhere on the 3.11 page (figures_mismatch, the passage
    offered first holding 25% instead); e2 quotes 3.13's "is not enabled by default" for a claim
    that says it is (needs_review, a negation on one side only, a hedge dropped); e3 took its quote
    from the passages offered (adopted by an editor); e4 offers no quote, and its offered passage and
    terms carry script payloads.
    """
    text311 = page_text("whatsnew/3.11.html")
    c1 = Claim(id="e1", text="CPython 3.11 is on average 75% faster than CPython 3.10.", url=WHATSNEW_311)
    p_start, p_end = locate(text311, "CPython 3.11 is an average of 25% faster than CPython 3.10")
    h_start, _ = locate(text311[p_start:], "faster than CPython 3.10")
    nowhere = figure_in(
        c1.text, "75%", FigureStatus.MISSING, kind="percent", reason=NOWHERE_REASON, where=FigurePlace.NOWHERE
    )
    offered1 = Candidate(
        text=text311[p_start:p_end],
        start=p_start,
        end=p_end,
        score=31.0,
        holds=Terms(words=("faster",), names=("CPython",), figures=("3.11", "3.10")),
        lacks=Terms(figures=("75%",)),
        highlights=((p_start, p_start + 12), (p_start + h_start, p_end)),
    )
    r1 = result(
        c1,
        Verdict.FIGURES_MISMATCH,
        (NOWHERE_REASON,),
        ok_source(WHATSNEW_311, text311),
        figures=FigureCheck(
            (
                figure_in(
                    c1.text, "3.11", FigureStatus.MATCHED, quote_text="3.11", kind="version", where=FigurePlace.PASSAGE
                ),
                dataclasses.replace(nowhere, instead="an average of 25%"),
                figure_in(
                    c1.text, "3.10", FigureStatus.MATCHED, quote_text="3.10", kind="version", where=FigurePlace.PASSAGE
                ),
            )
        ),
        near_miss=NearMiss(
            summary="Passages of the page closest to the claim, which the editor may adopt as its quote.",
            candidates=(offered1, Candidate(text=text311[:80], start=0, end=80, score=3.0)),
        ),
    )

    text313 = page_text("whatsnew/3.13.html")
    quote2 = "This is an experimental feature and therefore is not enabled by default."
    c2 = Claim(id="e2", text="Free threading is enabled by default in Python 3.13.", url=WHATSNEW_313, quote=quote2)
    n_start, n_end = locate(text313, "is not enabled by default")
    negation = Flag(
        kind=FlagKind.NEGATION_DIFFERS,
        message=(
            "The quote says \u201cis not enabled by default\u201d; the claim says \u201cis enabled by default\u201d."
        ),
        blocking=True,
        page_words="is not enabled by default",
        span=(n_start, n_end),
        claim_words="is enabled by default",
    )
    hedge = Flag(
        kind=FlagKind.HEDGE_DROPPED,
        message="The quote calls it \u201cexperimental\u201d; the claim drops that.",
        blocking=False,
        page_words="experimental",
    )
    m2 = found_match(quote2, text313, flags=(negation, hedge))
    (f2,) = m2.fragments
    assert f2.span is not None
    r2 = result(
        c2,
        Verdict.NEEDS_REVIEW,
        ("The quote is on the page, but the claim parts from it.", negation.message),
        ok_source(WHATSNEW_313, text313),
        match=m2,
        context=context_for(text313, [f2.span], CONTEXT_CHARS),
    )

    quote3 = "CPython 3.11 is an average of 25% faster than CPython 3.10"
    c3 = Claim(
        id="e3", text="CPython 3.11 is 25% faster than 3.10.", url=WHATSNEW_311, quote=quote3, adopted_by="Ada Lovelace"
    )
    r3, _ = _found(c3, "whatsnew/3.11.html", WHATSNEW_311)

    page4 = f"Intro. The release {PAYLOAD} is quick {IMG_PAYLOAD} indeed. Outro."
    q_start, q_end = locate(page4, f"The release {PAYLOAD} is quick {IMG_PAYLOAD} indeed.")
    c4 = Claim(id="e4", text=f"The release {PAYLOAD} is not quick.", url="https://evil.example/page")
    sign = Flag(
        kind=FlagKind.NEGATION_DIFFERS,
        message=f"The claim says \u201cnot quick\u201d {PAYLOAD}; the passage says \u201cquick\u201d.",
        blocking=False,
        page_words=f"quick {IMG_PAYLOAD}",
        claim_words=f"not quick {PAYLOAD}",
    )
    offered4 = Candidate(
        text=page4[q_start:q_end],
        start=q_start,
        end=q_end,
        holds=Terms(words=(PAYLOAD, "quick")),
        lacks=Terms(words=(IMG_PAYLOAD,)),
        highlights=((q_start + 12, q_start + 12 + len(PAYLOAD)),),
        signs=(sign,),
    )
    r4 = result(
        c4,
        Verdict.NO_QUOTE,
        ("The claim cites a source but offers no quote.",),
        ok_source(c4.url, page4),
        near_miss=NearMiss(summary="Passages closest to the claim.", candidates=(offered4,)),
    )
    return Report(
        brief_name="evidence-brief.md",
        brief_format=BriefFormat.MARKDOWN,
        checked_at="2026-12-02T19:00:00Z",
        results=(r1, r2, r3, r4),
        run_id="run-evidence",
    )


def failed_report() -> Report:
    """Return a run in which no source could be read."""
    results = [r for r in python_results() if r.verdict in (Verdict.NOT_CHECKED, Verdict.DEAD_LINK, Verdict.BLOCKED)]
    return Report(
        brief_name="failed.md",
        brief_format=BriefFormat.MARKDOWN,
        checked_at="2026-11-29T18:05:00Z",
        results=tuple(results),
    )


def empty_report() -> Report:
    """Return a run of a brief in which no claim was found."""
    return Report(
        brief_name="empty.md",
        brief_format=BriefFormat.MARKDOWN,
        checked_at="2026-11-29T18:06:00Z",
        results=(),
        uncited=("A sentence with no link.",),
        warnings=("No claim with a cited source was found.",),
    )


def enormous_report(chars: int = 2_000_000) -> Report:
    """Return a verified claim whose context is an enormous page text (2 MB by default)."""
    base = python_results()[0]
    text = page_text("whatsnew/3.11.html")
    big = (text + " ") * (chars // (len(text) + 1) + 1)
    assert base.context is not None
    ctx = Context(
        text=big,
        offset=0,
        highlights=tuple((s + base.context.offset, e + base.context.offset) for s, e in base.context.highlights),
    )
    from dataclasses import replace

    return Report(
        brief_name="big.md",
        brief_format=BriefFormat.MARKDOWN,
        checked_at="2026-11-29T18:07:00Z",
        results=(replace(base, context=ctx),),
    )


def many_results(n: int) -> tuple[ClaimResult, ...]:
    """Return n results cycling through the python cases, each with its own id."""
    from dataclasses import replace

    base = python_results()
    out = []
    for i in range(n):
        r = base[i % len(base)]
        out.append(
            replace(r, claim=replace(r.claim, id=f"c{i + 1}", location=Location(kind=LocationKind.PARAGRAPH, index=i)))
        )
    return tuple(out)


#: The whole runs every export is tried on, by name.
REPORTS = {
    "python": python_report,
    "hostile": hostile_report,
    "failed": failed_report,
    "empty": empty_report,
}


# --------------------------------------------------------------------------- the cases themselves


def test_every_verdict_is_covered_once() -> None:
    assert sorted(r.verdict.value for r in python_results()) == sorted(v.value for v in Verdict)


def test_contexts_are_real_page_text() -> None:
    for r in python_results():
        if r.context is None:
            continue
        page = page_text(
            {WHATSNEW_311: "whatsnew/3.11.html", WHATSNEW_313: "whatsnew/3.13.html", PEP_632: "peps/pep-0632.html"}[
                r.claim.url
            ]
        )
        assert page[r.context.offset : r.context.offset + len(r.context.text)] == r.context.text
        if r.match is not None and r.match.found:
            s, e = r.context.highlights[0]
            assert r.context.text[s:e] == r.claim.quote


def test_figure_spans_point_at_their_text() -> None:
    for r in python_results():
        for f in r.figures.figures:
            assert f.span is not None and r.claim.text[slice(*f.span)] == f.text
