"""Hand-built Reports for the report tests, from real python.org pages of the shared corpus.

Every verdict appears once in ``python_report()``; page contexts and spans are cut from the
corpus page's own visible text, so highlights are checked against real characters.
``hostile_report()`` carries script payloads in every field a report draws. The tests at the
bottom check the cases themselves (real text, every verdict), so a broken case cannot pass
silently.
"""

from __future__ import annotations

from core.models import (
    Candidate,
    Claim,
    ClaimResult,
    Context,
    Decision,
    DiffOp,
    FigureCheck,
    FigureStatus,
    Flag,
    Fragment,
    Location,
    NearMiss,
    QuoteMatch,
    Report,
    Source,
    SourceStatus,
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


def ok_source(url: str, text: str, *, origin: str = "fetched", drift: bool = False) -> Source:
    """Return the page as fetched: its text is its body."""
    headers = (("content-type", "text/html; charset=utf-8"), ("server", "nginx"))
    return source(url, text.encode(), headers=headers, fetched_at="2026-11-29T18:02:11Z", origin=origin, drift=drift)


def _found(claim: Claim, page_rel: str, url: str) -> tuple[ClaimResult, str]:
    text = page_text(page_rel)
    match = found_match(claim.quote or "", text, in_main=True)
    (fragment,) = match.fragments
    context = context_for(text, [(fragment.start, fragment.end)], CONTEXT_CHARS)
    return result(claim, Verdict.VERIFIED, (), ok_source(url, text), match=match, context=context), text


def python_results() -> list[ClaimResult]:
    """Return one ClaimResult per verdict, in brief order, from the python.org corpus pages."""
    out: list[ClaimResult] = []

    # 1. verified
    c1 = Claim(
        "c1",
        "CPython 3.11 is an average of 25% faster than CPython 3.10, according to the release notes.",
        WHATSNEW_311,
        "CPython 3.11 is an average of 25% faster than CPython 3.10",
        location=Location("paragraph", 1, 0, 90),
    )
    r1, _ = _found(c1, "whatsnew/3.11.html", WHATSNEW_311)
    figs1 = FigureCheck(
        (
            figure_in(c1.text, "3.11", FigureStatus.MATCHED, quote_text="3.11", kind="version"),
            figure_in(c1.text, "25%", FigureStatus.MATCHED, quote_text="25%", kind="percent"),
            figure_in(c1.text, "3.10", FigureStatus.MATCHED, quote_text="3.10", kind="version"),
        )
    )
    out.append(
        ClaimResult(
            c1,
            Verdict.VERIFIED,
            ("The quote is on the page and every figure of the claim is in it.",),
            r1.source,
            r1.match,
            figs1,
            context=r1.context,
        )
    )

    # 2. figures_mismatch: the claim says 60%, the quote says 25%; 60 appears elsewhere ("10-60%").
    c2 = Claim(
        "c2",
        "Python 3.11 runs 60% faster than Python 3.10.",
        WHATSNEW_311,
        "CPython 3.11 is an average of 25% faster than CPython 3.10",
        location=Location("paragraph", 2, 0, 44),
    )
    r2, text311 = _found(c2, "whatsnew/3.11.html", WHATSNEW_311)
    e_start, _ = locate(text311, "10-60%")
    figs2 = FigureCheck(
        (
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
            c2,
            Verdict.FIGURES_MISMATCH,
            ("The figure 60% of the claim is not in the quote.",),
            r2.source,
            r2.match,
            figs2,
            context=r2.context,
        )
    )

    # 3. needs_review: the quote starts right after "is not" on the page.
    c3 = Claim(
        "c3",
        "In Python 3.13 the free-threaded build is enabled by default.",
        WHATSNEW_313,
        "enabled by default. The free-threaded mode requires a different executable",
        location=Location("table", 0, 0, 60),
    )
    text313 = page_text("whatsnew/3.13.html")
    q_start, q_end = locate(text313, c3.quote or "")
    neg_start, neg_end = q_start - len("is not "), q_start - 1
    flag = Flag(
        "negation_cut", "The page says \u201cis not\u201d right before the quote.", True, "is not", neg_start, neg_end
    )
    m3 = QuoteMatch(c3.quote or "", (Fragment(c3.quote or "", True, q_start, q_end, None, True),), (flag,))
    out.append(
        ClaimResult(
            c3,
            Verdict.NEEDS_REVIEW,
            ("The quote is on the page, but the page says \u201cis not\u201d right before it.",),
            ok_source(WHATSNEW_313, text313, origin="cache", drift=True),
            m3,
            FigureCheck(
                (
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
        "c4",
        "distutils was removed in Python 3.10.",
        PEP_632,
        "In Python 3.10 and 3.11, distutils will be formally removed",
        location=Location("paragraph", 4, 0, 38),
    )
    text632 = page_text("peps/pep-0632.html")
    p_start, p_end = locate(text632, "In Python 3.10 and 3.11, distutils will be formally marked as deprecated.")
    passage = Candidate(text632[p_start:p_end], p_start, p_end, 91.5)
    nm4 = NearMiss(
        "The page's closest passage says \u201cmarked as deprecated\u201d where the quote says \u201cremoved\u201d.",
        passage,
        (
            DiffOp(
                "equal",
                "In Python 3.10 and 3.11, distutils will be formally",
                "In Python 3.10 and 3.11, distutils will be formally",
            ),
            DiffOp("word_replaced", "removed", "marked as deprecated"),
        ),
    )
    m4 = QuoteMatch(c4.quote or "", (Fragment(c4.quote or "", False),))
    out.append(
        ClaimResult(
            c4,
            Verdict.QUOTE_NOT_FOUND,
            ("The quote is not on the page.",),
            ok_source(PEP_632, text632),
            m4,
            FigureCheck(
                (
                    figure_in(
                        c4.text,
                        "3.10",
                        FigureStatus.SKIPPED,
                        kind="version",
                        reason="The quote was not found, so its figures were not compared.",
                    ),
                )
            ),
            nm4,
            context=context_for(text632, [(p_start, p_end)], CONTEXT_CHARS),
        )
    )

    # 5. no_quote, with passages offered.
    c5 = Claim(
        "c5",
        "PEP 703 proposes making the global interpreter lock optional.",
        PEP_703,
        None,
        location=Location("footnote", 0, 0, 60),
    )
    text703 = page_text("peps/pep-0703.html")
    a_start, a_end = locate(
        text703, "CPython\u2019s global interpreter lock (\u201cGIL\u201d) prevents multiple threads"
    )
    nm5 = NearMiss(
        "No quote was offered; passages of the page that may hold the claim are listed.",
        candidates=(Candidate(text703[a_start:a_end], a_start, a_end, 72.0),),
    )
    out.append(
        ClaimResult(
            c5,
            Verdict.NO_QUOTE,
            ("The claim offers no quote; pick one from the page.",),
            ok_source(PEP_703, text703, origin="sample"),
            None,
            FigureCheck(),
            nm5,
        )
    )

    # 6. not_checked
    c6 = Claim(
        "c6",
        "The Python Software Foundation reported 1,200 new members in 2025.",
        "https://members.example.org/psf-report",
        "we welcomed 1,200 new members",
        location=Location("paragraph", 6),
    )
    out.append(
        ClaimResult(
            c6,
            Verdict.NOT_CHECKED,
            (
                "The source could not be read: Server answered 403 Forbidden: the page may need a login. "
                "Upload the page or paste its text to check the quote.",
            ),
            Source(
                c6.url,
                SourceStatus.NOT_CHECKED,
                "Server answered 403 Forbidden: the page may need a login",
                final_url=c6.url,
                http_status=403,
                content_type="text/html",
                fetched_at="2026-11-29T18:02:12Z",
            ),
            figures=FigureCheck(
                (
                    figure_in(
                        c6.text, "1,200", FigureStatus.SKIPPED, kind="number", reason="The source could not be read."
                    ),
                )
            ),
        )
    )

    # 7. dead_link
    c7 = Claim(
        "c7",
        "PEP 9999 makes type hints mandatory.",
        "https://peps.python.org/pep-9999/",
        "type hints are mandatory",
        location=Location("paragraph", 7),
    )
    out.append(
        ClaimResult(
            c7,
            Verdict.DEAD_LINK,
            ("The page does not exist (404 Not Found): possibly an invented source.",),
            Source(
                c7.url,
                SourceStatus.DEAD_LINK,
                "Server answered 404 Not Found",
                final_url=c7.url,
                http_status=404,
                fetched_at="2026-11-29T18:02:13Z",
            ),
        )
    )

    # 8. blocked
    c8 = Claim(
        "c8",
        "Python's documentation is served from a local mirror.",
        "file:///etc/passwd",
        "the documentation is mirrored",
        location=Location("paragraph", 8),
    )
    out.append(
        ClaimResult(
            c8,
            Verdict.BLOCKED,
            ("Only http and https links are checked: this link is file:.",),
            Source(c8.url, SourceStatus.BLOCKED, "Only http and https links are checked: this link is file:"),
        )
    )
    return out


def python_report(*, decisions: bool = True) -> Report:
    """Return a report with every verdict, two decisions and an uncited sentence."""
    decs = (
        (
            Decision("c1", "accept", "Matches the release notes.", True, True, None, "2026-11-29T18:10:00Z"),
            Decision("c2", "needs_edit", "Say 25%, not 60%.", False, None, None, "2026-11-29T18:11:00Z"),
        )
        if decisions
        else ()
    )
    return Report(
        brief_name="python-speed-brief.md",
        brief_format="markdown",
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
        "x1",
        f"Python {PAYLOAD} is 25% faster {IMG_PAYLOAD}",
        "https://evil.example/?q=<script>",
        quote,
        location=Location("paragraph", 0),
    )
    src = Source(
        claim.url,
        SourceStatus.OK,
        final_url="javascript:alert(document.cookie)",
        http_status=200,
        sha256="0" * 64,
        fetched_at="2026-11-29T18:00:00Z",
        content_type="text/html",
    )
    r1 = ClaimResult(
        claim,
        Verdict.VERIFIED,
        (f"Reason with {PAYLOAD}",),
        src,
        QuoteMatch(quote, (Fragment(quote, True, start, end),)),
        FigureCheck((figure_in(claim.text, "25%", FigureStatus.MATCHED, quote_text="25%"),)),
        context=context_for(page, [(start, end)], 20),
    )
    claim2 = Claim(
        "x2",
        '=HYPERLINK("http://evil.example","click")',
        "javascript:alert(1)",
        f"-2+3 {PAYLOAD}",
        location=Location("paragraph", 1),
    )
    r2 = ClaimResult(
        claim2,
        Verdict.BLOCKED,
        ("Only http and https links are checked: this link is javascript:.",),
        Source(claim2.url, SourceStatus.BLOCKED, f"scheme javascript: {PAYLOAD}"),
        near_miss=NearMiss(f"diagnosis {PAYLOAD}"),
    )
    return Report(
        f"brief {PAYLOAD}.md",
        "markdown",
        "2026-11-29T18:00:00Z",
        (r1, r2),
        uncited=(f"uncited {PAYLOAD}",),
        warnings=(f"warning {IMG_PAYLOAD}",),
        decisions=(Decision("x1", "reject", f"note {PAYLOAD}"),),
    )


def failed_report() -> Report:
    """Return a run in which no source could be read."""
    results = [r for r in python_results() if r.verdict in (Verdict.NOT_CHECKED, Verdict.DEAD_LINK, Verdict.BLOCKED)]
    return Report("failed.md", "markdown", "2026-11-29T18:05:00Z", tuple(results))


def empty_report() -> Report:
    """Return a run of a brief in which no claim was found."""
    return Report(
        "empty.md",
        "markdown",
        "2026-11-29T18:06:00Z",
        (),
        uncited=("A sentence with no link.",),
        warnings=("No claim with a cited source was found.",),
    )


def enormous_report(chars: int = 2_000_000) -> Report:
    """Return a verified claim whose context is an enormous page text (2 MB by default)."""
    base = python_results()[0]
    text = page_text("whatsnew/3.11.html")
    big = (text + " ") * (chars // (len(text) + 1) + 1)
    assert base.context is not None
    ctx = Context(big, 0, tuple((s + base.context.offset, e + base.context.offset) for s, e in base.context.highlights))
    from dataclasses import replace

    return Report("big.md", "markdown", "2026-11-29T18:07:00Z", (replace(base, context=ctx),))


def many_results(n: int) -> tuple[ClaimResult, ...]:
    """Return n results cycling through the python cases, each with its own id."""
    from dataclasses import replace

    base = python_results()
    out = []
    for i in range(n):
        r = base[i % len(base)]
        out.append(replace(r, claim=replace(r.claim, id=f"c{i + 1}", location=Location("paragraph", i))))
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
            assert r.claim.text[f.start : f.end] == f.text
