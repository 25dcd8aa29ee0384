"""The pipeline end to end: the sample brief's every misstatement caught with its verdict."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.brief import parse_markdown, read_brief
from core.check import (
    FOUND_IS_NOT_SUPPORT,
    adopt_quote,
    check_brief,
    copy_refusal,
    decide,
    fetch_refusal,
    recheck_claim,
)
from core.fetch import supplied_source
from core.models import (
    Figure,
    FigureCheck,
    FigureStatus,
    Flag,
    FlagKind,
    Fragment,
    QuoteMatch,
    Report,
    Source,
    SourceStatus,
    Verdict,
)
from core.samples import SAMPLE_BRIEF, load_samples
from core.settings import Settings
from core.store import Store
from tests.builders import every
from tests.servers import LoopbackServer, corpus_bytes

# The sample brief's claims in order, with the verdict DESIGN.md gives each.
SAMPLE_VERDICTS = [
    Verdict.VERIFIED,  # 3.11 is 25% faster than 3.10, quoted word for word
    Verdict.VERIFIED,  # 10% to 60%, against "between 10-60%"
    Verdict.FIGURES_MISMATCH,  # "3.12 ... 25% faster than 3.11" on a quote about 3.11 vs 3.10
    Verdict.FIGURES_MISMATCH,  # "deprecated since 3.8" on "In Python 3.10 and 3.11 ..."
    Verdict.VERIFIED,  # 3.12 no longer installed, PEP 632's own sentence
    Verdict.NO_QUOTE,  # removed from the standard library, no quote offered
    Verdict.FIGURES_MISMATCH,  # "enabled by default in 3.13" on the quote "enabled by default"
    Verdict.QUOTE_NOT_FOUND,  # "experimental" dropped from the quote
    Verdict.QUOTE_NOT_FOUND,  # two sentences spliced across a full stop
    Verdict.DEAD_LINK,  # an invented URL (stored 404)
]


@pytest.fixture
def sample_report(tmp_path: Path) -> tuple[Report, Store, Settings]:
    settings = Settings(db_path=tmp_path / "v.sqlite3")
    store = Store(settings.db_path)
    load_samples(store)
    brief = read_brief(SAMPLE_BRIEF.read_bytes(), SAMPLE_BRIEF.name, settings)
    return check_brief(brief, settings, store=store, offline=True), store, settings


def test_sample_brief_catches_every_misstatement(sample_report: tuple[Report, Store, Settings]) -> None:
    report, _, _ = sample_report
    assert [r.verdict for r in report.results] == SAMPLE_VERDICTS
    every(report.results, lambda r: r.source.origin == "sample")


def test_sample_reasons_name_what_is_wrong(sample_report: tuple[Report, Store, Settings]) -> None:
    report, _, _ = sample_report
    by_id = {r.claim.id: r for r in report.results}
    assert FOUND_IS_NOT_SUPPORT in by_id["c1"].reasons
    assert any("“3.12”" in reason for reason in by_id["c3"].reasons)
    assert any("“3.8”" in reason for reason in by_id["c4"].reasons)
    assert "possibly" in by_id["c10"].reasons[0] and "invented source" in by_id["c10"].reasons[0]
    # The cut-away "not" and the quote's shortness stay on the claim even though figures decide first.
    flags = {f.kind for f in by_id["c7"].match.flags} if by_id["c7"].match else set()
    assert "too_short" in flags


def test_found_quote_is_highlighted_in_its_context(sample_report: tuple[Report, Store, Settings]) -> None:
    report, _, _ = sample_report
    first = report.results[0]
    assert first.context is not None and first.context.highlights
    a, b = first.context.highlights[0]
    assert first.context.text[a:b].startswith("CPython 3.11 is an average of 25% faster")


def test_failures_carry_a_diagnosis_and_no_quote_offers_candidates(
    sample_report: tuple[Report, Store, Settings],
) -> None:
    report, _, _ = sample_report
    dropped = report.results[7]
    assert dropped.near_miss is not None and dropped.near_miss.passage is not None
    assert "experimental" in dropped.near_miss.passage.text
    no_quote = report.results[5]
    assert no_quote.near_miss is not None
    every(no_quote.near_miss.candidates, lambda c: c.text)


def test_adopted_candidate_goes_through_the_exact_matcher(sample_report: tuple[Report, Store, Settings]) -> None:
    report, store, settings = sample_report
    no_quote = report.results[5]
    assert no_quote.near_miss is not None
    passage = no_quote.near_miss.candidates[0].text
    updated = adopt_quote(report, no_quote.claim.id, passage, settings, store)
    result = updated.results[5]
    assert result.claim.quote == passage
    assert result.match is not None and result.match.found
    assert result.verdict in (Verdict.VERIFIED, Verdict.FIGURES_MISMATCH, Verdict.NEEDS_REVIEW)
    assert [r.verdict for i, r in enumerate(updated.results) if i != 5] == [
        v for i, v in enumerate(SAMPLE_VERDICTS) if i != 5
    ]


def test_a_passage_adopted_under_options_that_refuse_the_stored_copy_says_so(
    server: LoopbackServer, settings: Settings
) -> None:
    # Issue 24, 4: a run checked with private addresses allowed, a passage adopted in a tab that refuses them.
    url = server.add("/3.11", corpus_bytes("html/python/whatsnew/3.11.html"))
    text = f"CPython 3.11 is a quarter faster than 3.10 ([notes]({url})).\n"
    store = Store(settings.db_path)
    report = check_brief(parse_markdown(text), settings, store=store)
    (no_quote,) = report.results
    assert no_quote.verdict is Verdict.NO_QUOTE and no_quote.near_miss is not None
    strict = settings.with_(allow_private=False)
    refusal = copy_refusal(store, url, strict)
    assert refusal is not None and "private" in refusal.reason and copy_refusal(store, url, settings) is None
    # A fetch is refused before any request by the domains allowed; a private address only once it is resolved.
    assert fetch_refusal(url, settings.with_(allowed_domains=("example.org",))) is not None
    assert fetch_refusal(url, settings) is None
    (result,) = adopt_quote(report, "c1", no_quote.near_miss.candidates[0].text, strict, store).results
    assert result.verdict is Verdict.BLOCKED and result.reasons[0] == refusal.reason
    assert not any("could not be read" in r for r in result.reasons)
    # Under the run's own options the same passage is checked against the stored copy.
    (adopted,) = adopt_quote(report, "c1", no_quote.near_miss.candidates[0].text, settings, store).results
    assert adopted.match is not None and adopted.match.found


def test_a_re_check_reads_the_brief_s_other_sources_only_when_its_quote_fails(
    sample_report: tuple[Report, Store, Settings], monkeypatch: pytest.MonkeyPatch
) -> None:
    import core.check.claims

    report, store, settings = sample_report
    settings = settings.with_(page_cache_entries=0)  # every page asked for is read from the store
    read: list[str] = []
    real = core.check.claims.read_page

    def spy(source: Source, settings: Settings, store: Store | None = None) -> object:
        read.append(source.url)
        return real(source, settings, store)

    monkeypatch.setattr(core.check.claims, "read_page", spy)
    no_quote = report.results[5]
    assert no_quote.near_miss is not None
    found = adopt_quote(report, no_quote.claim.id, no_quote.near_miss.candidates[0].text, settings, store)
    assert found.results[5].match is not None and found.results[5].match.found
    assert read == [no_quote.claim.url]
    # A quote of another source of the brief: the sources are read in brief order up to the one holding it.
    read.clear()
    first = report.results[0].claim
    moved = adopt_quote(report, no_quote.claim.id, first.quote or "", settings, store).results[5]
    assert moved.verdict is Verdict.QUOTE_NOT_FOUND
    assert moved.near_miss is not None and moved.near_miss.found_in_source == first.url
    assert read == [no_quote.claim.url, first.url]


def test_editor_supplied_source_rechecks_the_claim(server: LoopbackServer, settings: Settings) -> None:
    url = server.url("/paywalled")
    server.add("/paywalled", b"<h1>Subscribe</h1>", status=403)
    text = f'CPython got faster ([notes]({url})): "CPython 3.11 is an average of 25% faster than CPython 3.10".'
    store = Store(settings.db_path)
    report = check_brief(parse_markdown(text), settings, store=store)
    assert report.results[0].verdict is Verdict.NOT_CHECKED
    page = corpus_bytes("html/python/whatsnew/3.11.html")
    supplied = supplied_source(url, page, "text/html", "3.11.html")
    updated = recheck_claim(report, "c1", supplied, settings, store)
    assert updated.results[0].verdict is Verdict.VERIFIED
    assert any("supplied by the editor" in r for r in updated.results[0].reasons)


def test_pages_served_on_loopback_are_fetched_and_checked(server: LoopbackServer, settings: Settings) -> None:
    url = server.add("/3.13", corpus_bytes("html/python/whatsnew/3.13.html"), gzipped=True)
    gone = server.url("/gone")
    text = (
        f'Free threading is experimental ([3.13]({url})): "This is an experimental feature and therefore is not '
        f'enabled by default."\n\nA page that is gone ([x]({gone})): "This sentence was never anywhere at all."\n'
    )
    report = check_brief(parse_markdown(text), settings, store=Store(":memory:"))
    assert [r.verdict for r in report.results] == [Verdict.VERIFIED, Verdict.DEAD_LINK]
    assert report.results[0].source.sha256 and report.results[0].source.http_status == 200


def test_loopback_is_blocked_without_allow_private(server: LoopbackServer, tmp_path: Path) -> None:
    url = server.add("/page", corpus_bytes("html/python/peps/pep-0632.html"))
    text = f'Deprecated ([PEP 632]({url})): "In Python 3.10 and 3.11, distutils will be formally marked as deprecated."'
    report = check_brief(parse_markdown(text), Settings(db_path=tmp_path / "s.sqlite3"), store=Store(":memory:"))
    assert report.results[0].verdict is Verdict.BLOCKED
    assert server.requests == []


_FOUND = Fragment(text="CPython 3.11 is an average of 25% faster", found=True, span=(10, 50))
_LOST = Fragment(text="CPython 3.11 is an average of 5% faster", found=False)
_CUT = Flag(
    kind=FlagKind.NEGATION_CUT,
    message='The page says "is not enabled by default".',
    blocking=True,
    page_words="is not enabled by default",
)
_HEDGE = Flag(kind=FlagKind.HEDGE_CUT, message="The page says an estimated.", blocking=False)
_MISSING = FigureCheck(
    figures=(Figure(text="3.12", status=FigureStatus.MISSING, reason="The quote holds no version 3.12."),)
)
_SKIPPED = FigureCheck(figures=(Figure(text="3", status=FigureStatus.SKIPPED, reason="small number"),))


@pytest.mark.parametrize(
    ("match", "figures", "verdict"),
    [
        (None, _MISSING, Verdict.NO_QUOTE),
        (QuoteMatch(quote="q", fragments=(_LOST,), flags=(_CUT,)), _MISSING, Verdict.QUOTE_NOT_FOUND),
        (QuoteMatch(quote="q", fragments=(_FOUND, _LOST)), FigureCheck(), Verdict.QUOTE_NOT_FOUND),
        (QuoteMatch(quote="q", fragments=(_FOUND,), flags=(_CUT,)), _MISSING, Verdict.FIGURES_MISMATCH),
        (QuoteMatch(quote="q", fragments=(_FOUND,), flags=(_CUT,)), _SKIPPED, Verdict.NEEDS_REVIEW),
        (QuoteMatch(quote="q", fragments=(_FOUND,), flags=(_HEDGE,)), _SKIPPED, Verdict.VERIFIED),
        (QuoteMatch(quote="q", fragments=()), FigureCheck(), Verdict.QUOTE_NOT_FOUND),  # no fragment is never found
    ],
)
def test_verdict_precedence_after_the_source(match: QuoteMatch | None, figures: FigureCheck, verdict: Verdict) -> None:
    got, reasons = decide(match, figures)
    assert got is verdict
    every(reasons, lambda r: r.endswith((".", ":")) or r.endswith("”."))
    if verdict is Verdict.FIGURES_MISMATCH:
        assert "The quote holds no version 3.12." in reasons and _CUT.message in reasons
    # The source decides before any of these: the enum lists verdicts in precedence order.
    assert [v.value for v in Verdict][:3] == ["blocked", "dead_link", "not_checked"]


def test_offline_check_never_fetches(tmp_path: Path) -> None:
    brief = parse_markdown('A claim ([x](http://127.0.0.1:9/never)): "Nothing here is ever fetched at all, offline."')
    report = check_brief(brief, Settings(allow_private=True), store=Store(":memory:"), offline=True)
    result = report.results[0]
    assert result.verdict is Verdict.NOT_CHECKED and result.source.status is SourceStatus.NOT_CHECKED
    assert "offline" in result.reasons[0]
