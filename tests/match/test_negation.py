"""What a negation governs and denies before it (core.match.negation.negations, passive_subject).

In the passive its subject; after a "has" before what is had, what is had. And the forms of one
word the comparison reads as one (core.match.claim_words.word_stem).
"""

from __future__ import annotations

import pytest

from core.match import prepare
from core.match.claim_words import word_stem
from core.match.negation import negations, passive_subject, raised
from core.models import PageKind, PageText


def _subject(text: str) -> str:
    p = prepare(PageText(text=text, kind=PageKind.TEXT))
    k = p.words.index("not")
    a = passive_subject(p, k, 4)
    return " ".join(p.words[a:k]) if a >= 0 else ""


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        # VitaminC claims: the passive denies its subject.
        ("Schaub was not replaced by T.J. Yates during the 6th week of the season .", "schaub was"),
        ("25,000 corona tests have not been done in Romania .", "25000 corona tests have"),
        # A subject of one word opening a later sentence, before "not being": still a passive.
        ("The state counts them. Tests not being done are listed apart.", "tests"),
        # VitaminC claims: "has not" before what is had, a number or a determiner, is "has no".
        ("Jeremy Lamb has not 2 older siblings .", "jeremy lamb has"),
        ("Eric Cantona has not a child named Raphael , born in 1988 .", "eric cantona has"),
        ("Sylvester Stallone had not a short role in Guardians of the Galaxy Vol . 2 .", "sylvester stallone had"),
        # An adverb before the participle, a participle of its own form.
        ("The film Last Exorcism was not first shown at the LA Film Festival .", "film last exorcism was"),
        ("The campaign was not cut short due to the pandemic .", "the campaign was"),
        # No passive and nothing had: the negation denies its predicate only.
        ("Jeremy Lamb has not played 2 seasons .", ""),
        ("Jeremy Lamb does not have 2 older siblings .", ""),
        # Nothing before the negation, or a verb opening its sentence, leaves no subject to deny.
        ("Not been done before .", ""),
        ("It rained. Was not confirmed by anyone .", ""),
        # A relative clause's subject stands outside it.
        ("Cases that were not confirmed were many .", ""),
    ],
)
def test_the_words_a_negation_denies_before_it(text: str, subject: str) -> None:
    assert _subject(text) == subject


@pytest.mark.parametrize(
    ("words", "stem"),
    [
        (("enabled", "enables", "enable"), "enabl"),
        (("neurological", "neurologic"), "neurologic"),
        (("mutated", "mutation", "mutations"), "mutat"),
        (("infection", "infected"), "infect"),
        (("four", "4"), "4"),
        # Check-COVID and VitaminC: a British "-ise" is the American "-ize"; "going" is "go".
        (("hospitalised", "hospitalized"), "hospitaliz"),
        (("analysed", "analyzed"), "analyz"),
        (("going", "go", "goes"), "go"),
    ],
)
def test_one_word_in_its_forms_has_one_stem(words: tuple[str, ...], stem: str) -> None:
    assert {word_stem(w) for w in words} == {stem}


@pytest.mark.parametrize(
    ("text", "denied"),
    [
        # VitaminC: "don't think" denies the clause after it, from past its auxiliary.
        ("Chris Martin stated : I do n't think bands should keep going past 33 .", "keep going past 33"),
        ("We do not believe that the vaccine will fail .", "fail"),
        # No verb of thinking, or no clause after it: nothing raised.
        ("We do not know whether the vaccine will fail .", ""),
        ("I do not think so .", ""),
    ],
)
def test_a_negation_before_a_verb_of_thinking_denies_the_clause_after_it(text: str, denied: str) -> None:
    p = prepare(PageText(text=text, kind=PageKind.TEXT))
    k = next(i for i, w in enumerate(p.words) if w in ("not", "don't"))
    clause = raised(p, k)
    assert (" ".join(p.words[clause[0] : clause[1]]) if clause else "") == denied


def _scopes(text: str, verbs: bool) -> list[str]:
    p = prepare(PageText(text=text, kind=PageKind.TEXT))
    return [" ".join(p.words[k:end]) for k, end in negations(p, verbs=verbs)]


@pytest.mark.parametrize(
    ("text", "scopes"),
    [
        # A real page's quote with a "not" added: a verb after a second negation is still the first one's.
        (
            "a place she never could not have imagined before .",
            ["never could not have imagined before", "not have imagined before"],
        ),
        # A finite verb after the denied words still starts the next predicate.
        ("extensions that don't use these mechanisms will cause it", ["don't use these mechanisms"]),
    ],
)
def test_what_a_negation_governs(text: str, scopes: list[str]) -> None:
    assert _scopes(text, verbs=False) == scopes


@pytest.mark.parametrize(
    ("text", "scopes"),
    [
        # VitaminC: "confirmed zero cases" denies the cases; "has yet to report" denies as "has not reported".
        ("Brcko has confirmed zero COVID-19 cases .", ["zero covid 19 cases"]),
        ("Three states have yet to report a case .", ["yet to report a case"]),
        ("Three states have not yet to report a case .", ["not yet to report a case", "yet to report a case"]),
        # A "zero" of a unit is a figure, a "yet" before no "to" an adverb.
        ("Inflation was zero percent in 2020 .", []),
        ("The states have not reported yet .", ["not reported"]),
    ],
)
def test_the_comparison_reads_more_denials_than_the_cut_flags(text: str, scopes: list[str]) -> None:
    assert _scopes(text, verbs=True) == scopes
    # The cut-negation flags read "not" and its kin only.
    assert _scopes(text, verbs=False) == [s for s in scopes if s.startswith("not")]
