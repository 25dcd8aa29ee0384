"""A claim's word counted in a page's other words for it: its derivational family, an abbreviation the page defines.

Pages are written as the claims corpus serves them (one paragraph a sentence): a Check-COVID
abstract (MIT) and a VitaminC Wikipedia revision (CC-BY-SA 3.0), each the labelled evidence's page.
"""

from __future__ import annotations

import dataclasses

import pytest

from core.diagnose import candidates
from core.diagnose.abbreviations import abbreviations, long_form
from core.diagnose.family import family, related
from core.diagnose.spelling import spellings
from core.match import PreparedPage
from core.settings import Settings
from tests.diagnose.test_rank import page_of

# Check-COVID 600465826bc088b6d218dbc7: the abstract writes "venous thromboembolism (VTE)" once, then "VTE".
VTE_ABSTRACT = (
    "BACKGROUND: Three months ago, severe acute respiratory syndrome coronavirus 2 (SARS‐CoV‐2) broke out in Wuhan,"
    " China, and spread rapidly around the world.",
    "Severe novel coronavirus pneumonia (NCP) patients have abnormal blood coagulation function, but their venous"
    " thromboembolism (VTE) prevalence is still rarely mentioned.",
    "OBJECTIVES: To determine the incidence of VTE in patients with severe NCP.",
    "METHODS: In this study, 81 severe NCP patients in the intensive care unit (ICU) of Union Hospital (Wuhan, China)"
    " were enrolled.",
    "The results of conventional coagulation parameters and lower limb vein ultrasonography of these patients were"
    " retrospectively collected and analyzed.",
    "RESULTS: The incidence of VTE in these patients was 25% (20/81), of which 8 patients with VTE events died.",
    "CONCLUSIONS: The incidence of VTE in patients with severe NCP is 25% (20/81), which may be related to poor"
    " prognosis.",
)
VTE_CLAIM = (
    "There are approximately 1 in 4 incidences of venous thromboembolism in patients with severe novel coronavirus"
    " pneumonia symptoms of SARS-CoV-2."
)
NO_ABBREVIATIONS = Settings(rank_abbreviation_share=0.0)


def test_a_sentence_writing_the_page_s_abbreviation_holds_the_claim_s_words_for_it() -> None:
    first = candidates(VTE_CLAIM, page_of(*VTE_ABSTRACT))[0]
    assert first.text.startswith(("CONCLUSIONS: The incidence of VTE", "RESULTS: The incidence of VTE")), first.text
    # Without it, the sentence that defines both abbreviations, and holds no finding, wins for the claim's
    # words alone; the claim's "1 in 4" is the findings' "25%", which draws them by itself.
    bare = VTE_CLAIM.replace("approximately 1 in 4 incidences", "incidences")
    plain = candidates(bare, page_of(*VTE_ABSTRACT), NO_ABBREVIATIONS)[0]
    assert plain.text.startswith("Severe novel coronavirus pneumonia (NCP)"), plain.text
    by_figure = candidates(VTE_CLAIM, page_of(*VTE_ABSTRACT), NO_ABBREVIATIONS)[0]
    assert by_figure.text.startswith(("CONCLUSIONS: The incidence of VTE", "RESULTS: The incidence")), by_figure.text


def test_a_passage_writing_the_abbreviation_holds_the_claim_s_words_and_marks_it() -> None:
    first = candidates(VTE_CLAIM, page_of(*VTE_ABSTRACT))[0]
    marked = {first.text[a - first.start : b - first.start] for a, b in first.highlights}
    assert {"venous", "thromboembolism", "novel", "pneumonia"} <= set(first.holds.words), first.holds
    assert not {"venous", "thromboembolism", "pneumonia"} & set(first.lacks.words), first.lacks
    assert {"VTE", "NCP"} <= marked, marked


def vte_page() -> PreparedPage:
    return page_of(*VTE_ABSTRACT)


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("thromboembolism", {"vte"}),
        ("venous", {"vte"}),
        ("pneumonia", {"ncp"}),
        ("coronavirus", {"ncp"}),  # "severe acute respiratory syndrome coronavirus 2 (SARS‐CoV‐2)" is several tokens
        ("intensive", {"icu"}),
        ("wuhan", set()),  # "(Wuhan, China)" is a place in brackets, not an abbreviation
        ("blood", set()),
    ],
)
def test_definitions_are_read_by_the_letters_of_the_abbreviation(word: str, expected: set[str]) -> None:
    assert abbreviations(word, vte_page()) == expected


@pytest.mark.parametrize(
    ("short", "words", "expected"),
    [
        ("VTE", ["their", "venous", "thromboembolism"], 2),
        ("FPV", ["effects", "of", "favipiravir"], 1),  # one word holding the letters in order
        ("ICU", ["in", "the", "intensive", "care", "unit"], 3),
        ("ED", ["emergency", "department"], 2),
        ("MI", ["the", "hospital"], None),  # no word opens with "m"
        ("ICU", ["care", "unit"], None),
    ],
)
def test_the_long_form_spells_the_abbreviation_s_letters_in_order(
    short: str, words: list[str], expected: int | None
) -> None:
    assert long_form(short, words) == expected


def test_a_capitalised_word_in_brackets_defines_nothing() -> None:
    # VitaminC's UK page: "the Health Protection (Coronavirus, Business Closure) (England) Regulations 2020".
    page = page_of(
        "Closures to pubs were imposed via the Health Protection (Coronavirus, Business Closure) (England)"
        " Regulations 2020.",
        "As of 9 April, 8,958 people with confirmed infection have died in the UK.",
    )
    assert abbreviations("regulations", page) == abbreviations("health", page) == set()


def test_an_abbreviation_the_claim_writes_itself_is_not_counted_twice() -> None:
    # ExpertQA style: a claim writing "Food and Drug Administration (FDA)" finds "FDA" on the page as its own word.
    page = page_of(
        "The U.S. Food and Drug Administration (FDA) requires specific safety information from a manufacturer.",
        "FDA regulates dietary supplements under a different set of regulations than those covering foods.",
    )
    assert related("food", {"food"}, page, Settings()) == {"food": 1.0, "foods": 0.8, "fda": 0.8}
    assert related("food", {"food", "fda"}, page, Settings()) == {"food": 1.0, "foods": 0.8}


# VitaminC 5ee3932ac9e77c0008cc9c69: the claim's "recoveries" is the page's "recovered".
HAWAII = (
    "The DOH (Hawaii Department of Health) has performed 124 tests on randomly chosen influenza-negative samples from"
    " around the state, and all have come back negative for COVID-19.",
    "Of those persons diagnosed, 399 were diagnosed in the City and County of Honolulu, 115 in Maui County, 70 in"
    " Hawaii County, and 21 in Kauai County.",
    "Sixteen people have died from the disease and 68 people have required hospitalization.",
    "516 persons have recovered.",
)


def test_a_word_of_the_claim_s_family_counts_when_the_page_holds_no_form_of_it() -> None:
    claim = "There have been more than 510 recoveries from coronavirus in Hawaii."
    # The figure alone, on a page this short, would also find the sentence (test_rank_figures_alone): not here.
    words = Settings(rank_figure_alone_max_sentences=0)
    assert candidates(claim, page_of(*HAWAII), words)[0].text == "516 persons have recovered."
    plain = candidates(claim, page_of(*HAWAII), dataclasses.replace(words, rank_family_share=0.0))
    assert not plain or plain[0].text != "516 persons have recovered."


@pytest.mark.parametrize(
    ("word", "page_word"),
    [
        ("recoveries", "recovered"),
        ("infectious", "infectiousness"),
        ("infectiousness", "infectious"),
        ("hospitalized", "hospitalization"),
        ("vaccine", "vaccination"),
        ("requirements", "required"),
    ],
)
def test_a_word_s_family_holds_its_derivations(word: str, page_word: str) -> None:
    assert page_word in family(word, {page_word: [0]})


@pytest.mark.parametrize(("word", "page_word"), [("effects", "effective"), ("expenses", "expensive"), ("car", "care")])
def test_a_word_s_family_leaves_out_words_of_another_sense(word: str, page_word: str) -> None:
    # Adjective endings measured as another sense ("effects" against "effective"), and a stem shorter than 5 letters.
    assert page_word not in family(word, {page_word: [0]})


# VitaminC 5eb29886c9e77c0008d92af8: the claim writes "favourable", the Wikipedia revision "favorable".
SPIDER_MAN = (
    "On review aggregator Rotten Tomatoes, the film has an approval rating of 72% based on 324 reviews, with an average"
    " rating of 6.65/10.",
    "The reboot received generally favorable reviews, with critics praising mostly Andrew Garfield's performance, the"
    " visual style, James Horner's musical score, and the realistic portrayal of the title character.",
    "The film premiered on June 30 in Tokyo, and was released in the United States on July 3, ten years after release"
    " of Spider-Man (2002).",
)


def test_a_word_spelt_the_other_side_of_the_atlantic_counts_as_the_word(monkeypatch: pytest.MonkeyPatch) -> None:
    claim = "The Amazing Spider-Man 2 received favourable reviews."
    assert candidates(claim, page_of(*SPIDER_MAN))[0].text.startswith("The reboot received generally favorable")
    monkeypatch.setattr("core.diagnose.family.spellings", lambda word: frozenset())
    assert not candidates(claim, page_of(*SPIDER_MAN))[0].text.startswith("The reboot")


@pytest.mark.parametrize(
    ("word", "other"),
    [
        ("favourable", "favorable"),
        ("behaviors", "behaviours"),
        ("hospitalised", "hospitalized"),
        ("analyse", "analyze"),
        ("centre", "center"),
        ("catalogue", "catalog"),
        ("defence", "defense"),
        ("travelled", "traveled"),
        ("faecal", "fecal"),
        ("fecal", "faecal"),
        ("oedema", "edema"),
        ("pediatric", "paediatric"),
        ("diarrhoea", "diarrhea"),
        # Irregular ones no rule spells, from the list.
        ("odor", "odour"),
        ("fiber", "fibre"),
        ("neighbourhood", "neighborhood"),
        ("yoghurt", "yogurt"),
        ("aluminum", "aluminium"),
    ],
)
def test_british_and_american_spellings(word: str, other: str) -> None:
    assert other in spellings(word)


@pytest.mark.parametrize("word", ["four", "sense", "goes", "hour"])
def test_short_and_irregular_words_have_no_other_spelling(word: str) -> None:
    assert spellings(word) == frozenset()
