"""Cuts the context flags used to miss, and splices over a sentence end the breaks used to miss.

Every row is a real corpus sentence. A quote starting right after "not" with "only" or "just"
("just turn existing assignment into an expression" from "Why not just turn ...") says the
opposite of the page; an ellipsis that leaves out a negation right beside a kept fragment, on
either side, hides it. A quote that runs over a sentence end after an abbreviation, an initial
or a word ending in a capital ("Group D The day before") is a splice; a name's initials
("John M. Ford") are no sentence end. Each row fails without its rule.
"""

from __future__ import annotations

import pytest

from core.match import match_quote
from core.models import FlagKind
from tests.builders import corpus_page

PEP_572 = "html/python/peps/pep-0572.html"
PEP_484 = "html/python/peps/pep-0484.html"
PEP_684 = "html/python/peps/pep-0684.html"
PEP_695 = "html/python/peps/pep-0695.html"
WHATSNEW_311 = "html/python/whatsnew/3.11.html"
CLEAN_LINKS = "html/readability/clean-links/source.html.gz"
AEB = "html/aeb/html/{}.html.gz"
NEO_BANKS = AEB.format("2f42ef1d3ea0c96e56355d3db93d0e06b47e760b74f6f4261278b8cd1c246dd6")
MESSAGE = AEB.format("5fa3154ec031ab35411a457d78eb5aa92c0e803c5329bd05c001e6d64009e206")
WELFARE = AEB.format("f5c90a6d5253c3a21ff3168c64bea4b5ffade7a1ba5bed952a59ebee0d648d98")
GROUP_D = AEB.format("9a440270bf8625d586039dfae1b8df409b467524e075124cd7a5424a5806901b")
FORD = AEB.format("851498a2b9f4f0b578ac9700c245253dbc147a06c0fb3499adebf1c2d5663c29")
DIWALI = AEB.format("16c30add7e96315e9cc957d85aa876ccb6b70055f0ddab51547a586117cc1f56")

# (page, quote, the negation the flag must name)
CUT_NEGATIONS = [
    # Cut right after "not" in "not just ..." / "not only ...".
    (PEP_572, "just turn existing assignment into an expression?", "not"),
    (CLEAN_LINKS, "only useless as a necklace, but afflictive to bear.", "not"),
    # Cut further into what "not only" widens: "as a necklace" is not what the page says it is only.
    (CLEAN_LINKS, "as a necklace, but afflictive to bear.", "not"),
    (CLEAN_LINKS, "he be reckless and sadly given to making blots in the afternoon", "not"),
    (DIWALI, "just on Diwali.", "not"),
    # An ellipsis that leaves out a negation right after the kept fragment before it...
    (
        NEO_BANKS,
        "As their finances have cracked under the strain of small checks, … a near-total lack of retirement savings",
        "no",
    ),
    (MESSAGE, "The message – … – was all the more disturbing", "no"),
    # ...or right before the kept fragment after it, where "not just" was cut.
    (DIWALI, "These extreme pollution events happen across North India every November … just on Diwali.", "not"),
]


@pytest.mark.parametrize(("name", "quote", "negation"), CUT_NEGATIONS)
def test_cut_negation_is_flagged(name: str, quote: str, negation: str) -> None:
    p = corpus_page(name)
    m = match_quote(quote, p)
    assert m.found
    cuts = [f for f in m.blocking if f.kind is FlagKind.NEGATION_CUT]
    assert cuts, m.flags
    assert cuts[0].span is not None and p.page.text[slice(*cuts[0].span)] == negation


def test_a_quote_starting_after_not_only_is_no_cut() -> None:
    # "not only useless as a necklace, but afflictive": quoted from after "only", nothing is denied.
    m = match_quote("useless as a necklace, but afflictive to bear.", corpus_page(CLEAN_LINKS))
    assert m.found and not m.blocking


# A negation that governs only its own bracketed aside ("(without a GIL)") denies nothing kept.
ASIDE_NEGATIONS = [
    (PEP_684, "between interpreters can stay on _PyRuntimeState."),
    (PEP_684, "Global objects that are safe to be shared … between interpreters can stay on _PyRuntimeState."),
]


@pytest.mark.parametrize(("name", "quote"), ASIDE_NEGATIONS)
def test_a_negation_inside_a_bracket_denies_nothing_after_it(name: str, quote: str) -> None:
    m = match_quote(quote, corpus_page(name))
    assert m.found and not m.blocking, m.flags


# (page, quote, found): a splice over a sentence end the page's own text shows.
SPLICES = [
    # A full stop kept only inside the bracket: the page's sentence ends after it ("etc.). And").
    (WELFARE, "social-media groups, etc.) And importantly, NRPLUS", False),
    (WELFARE, "social-media groups, etc.). And importantly, NRPLUS", True),
    (PEP_684, "glibc’s allocator (malloc(), etc.) However, the “mem” and “object” allocators", False),
    (PEP_684, "glibc’s allocator (malloc(), etc.). However, the “mem” and “object” allocators", True),
    # A capital or an acronym ending a sentence, the next word one the page writes in lower case.
    (GROUP_D, "beat Gibraltar 6-0 to win Group D The day before, Portugal", False),
    (GROUP_D, "beat Gibraltar 6-0 to win Group D. The day before, Portugal", True),
    (PEP_695, "be partially implemented in C This includes TypeVar", False),
    (PEP_484, "method has the implicit type A In a class method", False),
    (WELFARE, "immigrants to use welfare in the U.S A new study finds", False),
    # A name's initials stay whole, with or without the quote's full stop.
    (FORD, "The errata of John M. Ford could fill volumes", True),
    (FORD, "science fiction and fantasy author John M Ford", True),
    (WHATSNEW_311, "Contributed by Erlend E Aasland in bpo-44491", True),
]


@pytest.mark.parametrize(("name", "quote", "found"), SPLICES)
def test_splice_over_a_sentence_end(name: str, quote: str, found: bool) -> None:
    assert match_quote(quote, corpus_page(name)).found is found


# A page's own "….)" ends a sentence; a quote copying its ellipsis without the full stop reads two
# fragments side by side, and must show that sentence end as any quote crossing it does.
HARDWARE = "Drivers exist (for nearly all of the …hardware….) The kernel loads every module it needs at boot."


@pytest.mark.parametrize(
    ("quote", "spliced"),
    [
        ("for nearly all of the hardware…) The kernel loads every module", True),
        ("for nearly all of the hardware… The kernel loads every module", True),
        ("for nearly all of the …hardware….) The kernel loads every module", False),
        ("for nearly all of the hardware.) The kernel loads every module", False),
        ("Drivers exist … The kernel loads every module", False),
    ],
)
def test_an_ellipsis_over_the_page_s_own_sentence_end_is_a_splice(quote: str, spliced: bool) -> None:
    from core.match import prepare
    from core.models import PageKind, PageText

    m = match_quote(quote, prepare(PageText(text=HARDWARE, kind=PageKind.TEXT)))
    assert m.found
    assert any(f.kind is FlagKind.SPLICE and f.blocking for f in m.flags) is spliced, m.flags
