"""The claim against its evidence (core.match.compare_claim, wired in core.check.check_claim).

A negation that governs words both sides share, on one side only, blocks ``verified``; a hedge or
condition the claim drops is information; a paraphrase that agrees is never flagged. The page
rows are real corpus sentences; each row fails without its rule.
"""

from __future__ import annotations

import pytest

from core.check.claims import check_claim
from core.match import compare_claim
from core.models import Candidate, FlagKind, Verdict
from core.settings import Settings
from tests.builders import claim, corpus_bytes, corpus_page, every, source

WHATSNEW_313 = "html/python/whatsnew/3.13.html"
EXPERIMENTAL = "This is an experimental feature and therefore is not enabled by default."

# (claim, evidence, the evidence's words the flag names)
DIFFERS = [
    ("Free threading is enabled by default", EXPERIMENTAL, "not"),
    ("The library does support async", "The library doesn't support async.", "doesn't"),
    ("The library supports async", "The library doesn't support async.", "doesn't"),
    ("Texas is expected to add jobs", "Texas is not expected to add jobs this year.", "not"),
    ("No users reported crashes", "Users reported crashes after the update.", ""),
    ("Linux is supported", "Neither Linux nor Windows is supported.", "Neither"),
    ("Run the tool with parameters", "Run the tool without parameters.", "without"),
]


@pytest.mark.parametrize(("claim_text", "evidence", "negation"), DIFFERS)
def test_a_negation_on_one_side_only_is_blocking(claim_text: str, evidence: str, negation: str) -> None:
    flags = [f for f in compare_claim(claim_text, evidence) if f.kind is FlagKind.NEGATION_DIFFERS]
    assert len(flags) == 1 and flags[0].blocking
    flag = flags[0]
    assert flag.page_words and flag.claim_words and flag.page_words in flag.message and flag.claim_words in flag.message
    if negation:
        assert flag.span is not None and evidence[slice(*flag.span)].startswith(negation)


# A paraphrase that agrees: never flagged.
AGREES = [
    ("Free threading is disabled by default", "Free threading is not enabled by default."),
    ("It has never been released", "It has not ever been released."),
    ("It is enabled", "It is not true that it isn't enabled."),
    ("It's there for flavor and texture", "It's not only there for flavor, but also texture."),
    ("The service stopped supporting Python 2", "The service no longer supports Python 2."),
    ("The tool is fast and not expensive", "The tool is fast."),
    ("Neither Linux nor Windows is supported", "Linux is not supported, and Windows is not supported either."),
    ("Sales fell", "Sales did not rise."),
]


@pytest.mark.parametrize(("claim_text", "evidence"), AGREES)
def test_a_paraphrase_that_agrees_is_not_flagged(claim_text: str, evidence: str) -> None:
    assert not [f for f in compare_claim(claim_text, evidence) if f.blocking]


def test_dropped_hedges_and_conditions_are_information() -> None:
    (hedge,) = compare_claim("Revenue rose 5% in 2023", "Revenue rose an estimated 5% in 2023.")
    assert hedge.kind is FlagKind.HEDGE_DROPPED and not hedge.blocking and '"an estimated"' in hedge.message
    (cond,) = compare_claim("The GIL is disabled", "The GIL is disabled unless an extension needs it.")
    assert cond.kind is FlagKind.CONDITION_DROPPED and not cond.blocking and '"unless"' in cond.message
    # Kept by the claim, or said with another hedge of its family: nothing dropped.
    assert compare_claim("Revenue rose about 5% in 2023", "Revenue rose an estimated 5% in 2023.") == ()
    assert compare_claim("The GIL is disabled unless needed", "The GIL is disabled unless an extension needs it.") == ()
    # "May 2024" is a month, and "about" before no number no hedge.
    assert compare_claim("It was released in 2024", "It was released in May 2024.") == ()


def test_spans_land_on_the_page_given_the_evidence_offset() -> None:
    p = corpus_page(WHATSNEW_313)
    at = p.page.text.index(EXPERIMENTAL)
    flags = compare_claim("Free threading is enabled by default", EXPERIMENTAL, at)
    spans = {f.kind: f.span for f in flags}
    assert spans.keys() == {FlagKind.NEGATION_DIFFERS, FlagKind.HEDGE_DROPPED}
    neg, hedge = spans[FlagKind.NEGATION_DIFFERS], spans[FlagKind.HEDGE_DROPPED]
    assert neg is not None and p.page.text[slice(*neg)] == "not enabled"
    assert hedge is not None and p.page.text[slice(*hedge)] == "experimental"


def test_a_claim_saying_the_opposite_of_its_quote_needs_review() -> None:
    # The classic case of issue 22: the quote is on the page and no figure differs, yet it says "not".
    url = "https://docs.python.org/3/whatsnew/3.13.html"
    p = corpus_page(WHATSNEW_313)
    src = source(url, corpus_bytes(WHATSNEW_313))
    result = check_claim(claim("c1", "Free threading is enabled by default", url, EXPERIMENTAL), src, p, Settings())
    assert result.verdict is Verdict.NEEDS_REVIEW
    assert any('"not"' in r and "Free threading is enabled by default" in r for r in result.reasons)
    assert any(r.startswith("The evidence says") and '"experimental"' in r for r in result.reasons)
    assert result.match is not None and {f.kind for f in result.match.flags} >= {
        FlagKind.NEGATION_DIFFERS,
        FlagKind.HEDGE_DROPPED,
    }
    # The same quote with a claim in its words is verified.
    honest = check_claim(claim("c2", EXPERIMENTAL, url, EXPERIMENTAL), src, p, Settings())
    assert honest.verdict is Verdict.VERIFIED


def test_an_offered_passage_carries_its_signs() -> None:
    url = "https://docs.python.org/3/whatsnew/3.13.html"
    p = corpus_page(WHATSNEW_313)
    src = source(url, corpus_bytes(WHATSNEW_313))
    result = check_claim(
        claim("c1", "The experimental free-threaded feature is enabled by default", url), src, p, Settings()
    )
    assert result.verdict is Verdict.NO_QUOTE and result.near_miss is not None
    offered: list[Candidate] = [c for c in result.near_miss.candidates if "not enabled by default" in c.text]
    assert offered, [c.text for c in result.near_miss.candidates]
    signs = offered[0].signs
    assert any(s.kind is FlagKind.NEGATION_DIFFERS for s in signs)
    for s in signs:
        assert s.span is not None and offered[0].start <= s.span[0] < s.span[1] <= offered[0].end


def test_a_long_claim_gives_a_few_flags_of_each_kind() -> None:
    # 5,500 words in one run of clauses: the comparison reads it whole and names the first few places.
    claim_text = " ".join(["the system is not enabled and may not run unless it is"] * 500)
    evidence = " ".join(["the system is enabled and may run if it is"] * 500)
    flags = compare_claim(claim_text, evidence)
    kinds = [f.kind for f in flags]
    assert kinds.count(FlagKind.NEGATION_DIFFERS) == 3
    every(set(kinds), lambda k: kinds.count(k) <= 3)
