"""Normalisation forgives typography only, and maps every character back to the original.

Cases come from real corpus pages where the page and a person's copy of it differ only in
typography: soft hyphens (wapo-2, a German aeb page), no-break spaces (aeb), curly
apostrophes (python.org), and the ligatures and combining marks that PDFs and some HTML carry.
"""

from __future__ import annotations

import unicodedata

import pytest

from core.match import match_quote
from core.text.normalise import normalise
from tests.builders import corpus_page

WAPO = "html/readability/wapo-2/source.html.gz"
AEB_DE = "html/aeb/html/57b4dafd18cfd0531b69f81e87158648227c673ef159f8d8c87d34e34bdb21f2.html.gz"
AEB_COST = "html/aeb/html/156770d676ce79905198e1c8407f81e5ecfb617d9aa44712718707eb7e3b8e38.html.gz"
WHATSNEW_313 = "html/python/whatsnew/3.13.html"


# (page, the page's words as they stand, a person's typing of them)
REAL_CASES = [
    (WAPO, "Aside from Russian President Vladi\u00admir Putin", "Aside from Russian President Vladimir Putin"),
    (
        WAPO,
        "Earnest added that Netan\u00adyahu’s election-eve disavowal",
        "Earnest added that Netanyahu's election-eve disavowal",
    ),
    (
        AEB_DE,
        "Laut Gesetz soll die ePA den Not\u00adfall\u00addaten\u00adsatz",
        "laut gesetz soll die epa den notfalldatensatz",
    ),
    (AEB_COST, "a series of\u00a0South Dakotans\u00a0—", "a series of South Dakotans -"),
    (
        WHATSNEW_313,
        "Importing C extensions that don’t use these mechanisms",
        "Importing C extensions that don't use these mechanisms",
    ),
]


@pytest.mark.parametrize(("name", "on_page", "typed"), REAL_CASES, ids=[c[2][:30] for c in REAL_CASES])
def test_real_page_typography_is_forgiven(name: str, on_page: str, typed: str) -> None:
    p = corpus_page(name)
    assert on_page in p.page.text  # the case really is on the page as written
    assert normalise(on_page).text == normalise(typed).text
    m = match_quote(typed, p)
    assert m.found
    (f,) = m.fragments
    # The highlight lands on the page's own characters, soft hyphens and all.
    assert f.span is not None and p.page.text[slice(*f.span)] == on_page.rstrip(" —\u00a0")


@pytest.mark.parametrize(
    ("original", "normalised"),
    [
        ("“Curly” ‘quotes’ and primes ″ ′", "\"curly\" 'quotes' and primes \" '"),
        ("en – em — minus − figure ‒ hyphen ‐ bar ―", "en - em - minus - figure - hyphen - bar -"),
        ("no\u00a0break\u202fthin\u2009space\u3000ideographic", "no break thin space ideographic"),
        ("line\nbreaks\r\n\tand   runs", "line breaks and runs"),
        ("soft\u00adhyphen zero\u200bwidth join\u200der", "softhyphen zerowidth joiner"),
        ("ﬁne ﬂow", "fine flow"),
        ("Straße İstanbul ΣΊΣΥΦΟΣ", "strasse i̇stanbul σίσυφοσ"),
        ("fullwidth ＡＢＣ１２３！", "fullwidth abc123!"),
        ("  leading and trailing  ", "leading and trailing"),
        ("cafe\u0301 = café", "café = café"),
    ],
)
def test_typography_folds(original: str, normalised: str) -> None:
    assert normalise(original).text == normalised


def test_words_digits_and_signs_are_never_dropped() -> None:
    original = "3.12 ≠ 31.2; 25% of $5 → €4"
    assert normalise(original).text == "3.12 ≠ 31.2; 25% of $5 → €4"


def test_entities_decoded_once_and_only_when_asked() -> None:
    assert normalise("AT&amp;T &rsquo;s", entities=True).text == "at&t 's"
    assert normalise("&amp;amp;", entities=True).text == "&amp;"
    assert normalise("AT&amp;T").text == "at&amp;t"
    n = normalise("a &eacute; b", entities=True)
    assert n.original_span(2, 3) == (2, 10)


@pytest.mark.parametrize(
    "original",
    ["Vladi\u00admir ﬁne “Straße” cafe\u0301\u00a0\u00a0end", "  x\u200b y  ", "ＡＢＣ – 3.12", ""],
)
def test_offsets_map_every_character_back(original: str) -> None:
    n = normalise(original)
    assert len(n.offsets) == len(n.text)
    assert list(n.offsets) == sorted(n.offsets)
    for i, ch in enumerate(n.text):
        start, end = n.original_span(i, i + 1)
        piece = original[start:end]
        if ch != " ":
            assert normalise(piece).text.startswith(ch) or ch in normalise(piece).text, (ch, piece)


def test_original_span_covers_ligatures_and_combining_marks() -> None:
    original = "the ﬁrst cafe\u0301 here"
    n = normalise(original)
    start = n.text.index("first")
    assert original[slice(*n.original_span(start, start + 5))] == "ﬁrst"
    cafe = n.text.index("café")
    assert original[slice(*n.original_span(cafe, cafe + 4))] == "cafe\u0301"


# (page, a sentence as the page has it): the same sentence decomposed (NFD), as some
# systems store and copy text, must be found: combining marks join the letter before them.
DECOMPOSED_CASES = [
    ("html/readability/la-nacion/source.html.gz", "Cuando desborda, recanalizarla es más eficiente que reprimirla"),
    (
        "html/wikipedia/ar-Mathematics.html.gz",
        "للرياضيات التطبيقية تداخل مع تخصص الإحصاء حيث تعتمد نظرياته على الرياضيات",
    ),
]


@pytest.mark.parametrize(("name", "sentence"), DECOMPOSED_CASES, ids=["spanish", "arabic"])
def test_decomposed_accents_are_forgiven(name: str, sentence: str) -> None:
    p = corpus_page(name)
    assert sentence in p.page.text
    decomposed = unicodedata.normalize("NFD", sentence)
    assert decomposed != sentence
    m = match_quote(decomposed, p)
    assert m.found
    (f,) = m.fragments
    assert f.span is not None and p.page.text[slice(*f.span)] == sentence
