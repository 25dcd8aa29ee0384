"""The evidence for a claim without a quote: passages ranked best first, what each holds and lacks, and bad input.

Pages are read by the real extractor and prepared by the real matcher (real python.org pages
from the shared corpus, and pages written the way the claims corpus serves its pages).
"""

from __future__ import annotations

import pytest

from core.check.claims import NO_SHARED_WORD, check_claim
from core.diagnose import candidates
from core.diagnose.terms import claim_terms, stem
from core.extract import extract_html
from core.match import PreparedPage, match_quote, prepare
from core.models import Terms, Verdict
from core.settings import Settings
from tests.builders import claim, corpus_page, source

WHATSNEW_313 = "html/python/whatsnew/3.13.html"


def page_of(*paragraphs: str) -> PreparedPage:
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return prepare(extract_html(f"<html><body><main>{body}</main></body></html>".encode(), "text/html"))


def test_each_passage_is_copied_exactly_and_says_what_it_holds_and_lacks() -> None:
    prepared = corpus_page(WHATSNEW_313)
    offered = candidates("Python 3.13 ships an experimental JIT compiler, disabled by default", prepared)
    assert 1 <= len(offered) <= 3
    first = offered[0]
    assert "JIT" in first.text
    for c in offered:
        # Copied exactly from the page, so that adopting one goes through the exact matcher.
        assert prepared.page.text[c.start : c.end] == c.text
        assert match_quote(c.text, prepared).found, c.text
        held = [*c.holds.words, *c.holds.names, *c.holds.figures]
        assert held
        # Each highlight is a held term's word, inside the passage.
        for a, b in c.highlights:
            assert c.start <= a < b <= c.end
            assert any(
                prepared.page.text[a:b].lower() in t.lower() or t.lower() in prepared.page.text[a:b].lower()
                for t in held
            ), prepared.page.text[a:b]
    assert "JIT" in first.holds.names
    assert "experimental" in first.holds.words


def test_holds_and_lacks_name_the_claim_s_own_spelling() -> None:
    prepared = page_of(
        "The Nice Guys grossed $36.3 million in the United States and Canada.",
        "James Berardinelli described the film as the 1970 version of Boogie Nights.",
    )
    offered = candidates("James Berardinelli called The Nice Guys a remake of Boogie Nights from 1971.", prepared)
    first = offered[0]
    assert first.text == "James Berardinelli described the film as the 1970 version of Boogie Nights."
    assert "James Berardinelli" in first.holds.names and "Boogie Nights" in first.holds.names
    assert first.lacks.figures == ("1971",)
    assert "remake" in first.lacks.words
    assert [prepared.page.text[a:b] for a, b in first.highlights][:2] == ["James", "Berardinelli"]


def test_a_figure_of_the_claim_s_kind_near_its_value_ranks_its_sentence_first() -> None:
    # VitaminC row 5ed7ad03c9e77c00084a7954 style: "more than 26" reviews settled by "27 critics".
    prepared = page_of(
        "The Wedding Ringer was released on January 16, 2015, by Screen Gems.",
        "On Metacritic, the film has a score of 35 out of 100, based on 27 critics.",
    )
    offered = candidates("The Wedding Ringer has been reviewed by more than 26 critics.", prepared)
    assert offered[0].text.startswith("On Metacritic, the film has a score of 35")


def test_a_page_figure_keeping_the_claim_s_bound_is_near_it_although_further_off() -> None:
    # VitaminC row 5ee3932bc9e77c0008cca606 style: "more than 300" cases settled by "349 confirmed cases".
    prepared = page_of(
        "The 2019–20 coronavirus pandemic was confirmed to have reached Germany on 27 January 2020, when the first"
        " COVID-19 case was confirmed and contained near Munich, Bavaria.",
        "Almost half a million companies in Germany have sent their workers on a government-subsidized short-time"
        " working schemes known as Kurzarbeit.",
        "As of 9 March 2020, there were 26 confirmed cases.",
        "there have been 349 confirmed cases and 16 recoveries.",
        "Baden-Württemberg confirmed 4 new cases, bringing the current total of 10 cases in the region.",
        "Germans with no clear symptoms are only tested very rarely.",
    )
    offered = candidates("There have been more than 300 confirmed cases of coronavirus in Germany.", prepared)
    assert offered[0].text == "there have been 349 confirmed cases and 16 recoveries."


def test_a_page_figure_breaking_the_claim_s_bound_yields_to_one_keeping_it() -> None:
    # VitaminC's page of Jack the Giant Slayer: "$195 million" is near "more than $197.63 million" but breaks it.
    prepared = page_of(
        "Pre-release tracking showed that Jack the Giant Slayer was projected to gross $30 million to $35 million"
        " in its opening weekend, a disappointing figure considering it cost $195 million to produce.",
        "On the review aggregator website Rotten Tomatoes the film has a rating of 51%, based on an aggregation"
        " of 195 reviews, with an average rating of 5.7/10.",
        "Jack the Giant Slayer has grossed $65,126,228 in North America and $197,644,844 worldwide.",
        "Twelve years later, Jack goes into town to sell his horse to support his uncle's farm.",
    )
    offered = candidates("Globally, Jack the Giant Slayer earned more than $197.63 million.", prepared)
    assert offered[0].text.endswith("$197,644,844 worldwide.")


INSIDIOUS = (
    "An Ohio movie theater accidentally shows the film instead of the PG-Rated Pixar Film, Inside Out.",
    "Insidious: Chapter 3 has grossed $46,745,791 in North America and $32,200,000 in other territories, for a"
    " worldwide total of $77.6 million, against a budget of $10 million.",
    "The review aggregator website Rotten Tomatoes lists a 60% approval rating, based on 85 reviews, with a rating"
    " average of 5.4/10.",
    'Kyle Anderson of Entertainment Weekly gave the film a B+, saying "Insidious Chapter 3 is the worst kind of'
    ' sequel: Not terrible, but also cartoonishly unnecessary."',
    "It was released on June 5, 2015 and has grossed over $107 million.",
    "Later, Elise arrives home and notices her dog barking at her bedroom closet.",
    "Insidious: Chapter 3 has received mixed to positive reviews from critics.",
)


def test_a_sentence_naming_the_page_s_subject_by_a_pronoun_holds_its_names() -> None:
    # VitaminC's page of Insidious: Chapter 3: "It … has grossed over $107 million" is the evidence.
    offered = candidates("Insidious: Chapter 3 (film) earned more than $105 million.", page_of(*INSIDIOUS))
    assert offered[0].text == "It was released on June 5, 2015 and has grossed over $107 million."


def test_a_pronoun_without_a_figure_near_the_claim_s_is_credited_nothing() -> None:
    # Without a figure tying it to the claim, "It" may be anyone: the sentence naming the film stays first.
    offered = candidates("Insidious: Chapter 3 was released in June 2015 to mixed reviews.", page_of(*INSIDIOUS))
    assert offered[0].text == "Insidious: Chapter 3 has received mixed to positive reviews from critics."


def test_a_number_ending_a_name_is_no_figure_to_be_near() -> None:
    # VitaminC row 5ec55991c9e77c000842e000 style: "Toy Story 4" is a title, not four of something.
    prepared = page_of(
        "They are joined by Forky, a spork that Bonnie has made into a toy, and embark on a road trip adventure.",
        "Toy Story 4 premiered on June 11, 2019 at the El Capitan Theatre in Hollywood.",
        "Tom Hanks, Tim Allen, Annie Potts, Joan Cusack, Bonnie Hunt and Timothy Dalton reprise their character"
        " roles from the first three films.",
    )
    offered = candidates("In Toy Story 4, Bonnie made Forky.", prepared)
    assert offered[0].text.startswith("They are joined by Forky")


def test_a_list_s_number_closing_the_claim_is_no_figure_to_be_near() -> None:
    # ExpertQA claim rand_val:201 style: an answer's sentence cut before its list, "…these steps:\n\n1.".
    prepared = page_of(
        "To save an edited sound file in Adobe Audition, choose File, then Save As, and pick a format.",
        "Adobe Audition opens 1 sound file in the Waveform editor when you are done recording.",
    )
    claim_text = (
        "When you're done editing a sound file in Adobe Audition, you can save the file by following these steps:\n\n1."
    )
    offered = candidates(claim_text, prepared)
    assert offered[0].text.startswith("To save an edited sound file")


def test_the_claim_resting_on_two_sentences_of_one_block_gets_both() -> None:
    prepared = page_of(
        "The Nice Guys was released on May 20, 2016. It grossed $62.7 million worldwide.",
        "The film received positive reviews from critics.",
    )
    offered = candidates("The Nice Guys, released on May 20, 2016, grossed $62.7 million worldwide.", prepared)
    assert offered[0].text == "The Nice Guys was released on May 20, 2016. It grossed $62.7 million worldwide."


def test_a_sentence_adding_nothing_of_the_claim_is_not_joined() -> None:
    prepared = page_of("Python 3.13 was released in October 2024. The release is the work of many volunteers.")
    offered = candidates("Python 3.13 was released in October 2024.", prepared)
    assert offered[0].text == "Python 3.13 was released in October 2024."


def test_sentences_of_two_blocks_are_never_one_passage() -> None:
    prepared = page_of("The Nice Guys was released on May 20, 2016.", "It grossed $62.7 million worldwide.")
    offered = candidates("The Nice Guys, released on May 20, 2016, grossed $62.7 million worldwide.", prepared)
    assert sorted(c.text for c in offered) == [
        "It grossed $62.7 million worldwide.",
        "The Nice Guys was released on May 20, 2016.",
    ]


def test_names_are_capitalised_words_and_a_sentence_opening_alone_is_not_one() -> None:
    terms = {
        t.text: t.kind.value for t in claim_terms("Exposure to violence in New York rose 25% in 2019.", Settings())
    }
    assert terms["New York"] == "name"
    assert terms["Exposure"] == "word"
    assert terms["25%"] == "figure" and terms["2019"] == "figure"
    assert "to" not in terms and "in" not in terms


@pytest.mark.parametrize(("a", "b"), [("deaths", "death"), ("increased", "increases"), ("studies", "study")])
def test_a_word_s_other_forms_share_its_stem(a: str, b: str) -> None:
    assert stem(a) == stem(b)


# --------------------------------------------------------------------------- bad input


def _check_unquoted(text: str, prepared: PreparedPage) -> tuple[Verdict, tuple[str, ...], int]:
    url = "http://127.0.0.1/page"
    result = check_claim(claim("c1", text, url), source(url), prepared, Settings())
    assert result.near_miss is not None
    return result.verdict, result.reasons, len(result.near_miss.candidates)


def test_a_claim_sharing_no_word_with_its_page_is_told_so() -> None:
    prepared = page_of("Cats sleep for most of the day.", "They hunt at dusk.")
    verdict, reasons, offered = _check_unquoted("Interest rates rose sharply in Brazil during 2023.", prepared)
    assert verdict is Verdict.NO_QUOTE and offered == 0
    assert NO_SHARED_WORD in reasons
    assert NO_SHARED_WORD.startswith("No passage of the page shares a word with the claim")


def test_a_claim_of_5000_words_is_read_on_its_opening() -> None:
    prepared = corpus_page(WHATSNEW_313)
    text = "The free-threaded build of Python 3.13 disables the global interpreter lock. " + "words " * 5000
    terms = claim_terms(text, Settings())
    assert len(terms) <= Settings().rank_max_terms
    offered = candidates(text, prepared)
    assert offered and "free-threaded" in offered[0].text.lower()


def test_a_claim_of_300_figures_lists_at_most_the_terms_it_ranks() -> None:
    prepared = corpus_page(WHATSNEW_313)
    text = "Python 3.13 " + ", ".join(f"{n}.{n % 7}%" for n in range(300)) + "."
    offered = candidates(text, prepared)
    assert offered
    for c in offered:
        listed = len(c.holds.figures) + len(c.lacks.figures) + len(c.holds.words) + len(c.lacks.words)
        assert listed <= Settings().rank_max_terms


def test_a_2mb_page_of_100000_one_word_sentences() -> None:
    words = [f"Lexicographer{n % 997}xyz." for n in range(100_000)]
    words[73_411] = "Zanzibar."
    text = " ".join(words)
    assert len(text) > 2_000_000
    prepared = prepare(extract_html(f"<html><body><p>{text}</p></body></html>".encode(), "text/html"))
    offered = candidates("Zanzibar is the word the claim is about.", prepared)
    assert offered and offered[0].text == "Zanzibar."
    _, reasons, count = _check_unquoted("Nothing here is on that page at all, surely.", prepared)
    assert count == 0 and NO_SHARED_WORD in reasons


def test_a_page_written_without_spaces() -> None:
    prepared = page_of("東京は日本の首都です。人口は約千四百万人です。", "大阪は日本の都市です。")
    _, reasons, count = _check_unquoted("Tokyo is the capital of Japan.", prepared)
    assert count == 0 and NO_SHARED_WORD in reasons
    offered = candidates("東京は日本の首都", prepared)
    assert offered and offered[0].text == "東京は日本の首都です。"


def test_terms_are_empty_for_a_claim_of_stopwords_only() -> None:
    prepared = page_of("It is what it is.")
    assert candidates("It is.", prepared) == ()
    assert Terms() == Terms(words=(), names=(), figures=())


# A structured abstract (Check-COVID's, MIT), one paragraph a sentence as the claims corpus serves it.
MASKS_ABSTRACT = (
    "OBJECTIVE: This study examined homemade masks as an alternative to commercial face masks.",
    "METHODS: Several household materials were evaluated for the capacity to block bacterial and viral aerosols.",
    "Twenty-one healthy volunteers made their own face masks from cotton t-shirts; the masks were then tested for fit.",
    "The number of microorganisms isolated from coughs of healthy volunteers wearing their homemade mask, a surgical"
    " mask, or no mask was compared using several air-sampling techniques.",
    "RESULTS: The median-fit factor of the homemade masks was one-half that of the surgical masks.",
    "Both masks significantly reduced the number of microorganisms expelled by volunteers, although the surgical mask"
    " was 3 times more effective in blocking transmission than the homemade mask.",
    "CONCLUSION: Our findings suggest that a homemade mask should only be considered as a last resort to prevent"
    " droplet transmission from infected individuals, but it would be better than no protection.",
)
MASKS_CLAIM = (
    "Homemade cloth masks are less effective than proper surgical ones in blocking bacterial and viral aerosols."
)


def test_a_finding_comes_before_the_methods_sentence_sharing_the_claim_s_topic_words() -> None:
    prepared = page_of(*MASKS_ABSTRACT)
    first = candidates(MASKS_CLAIM, prepared)[0]
    assert first.text.startswith("Both masks significantly reduced"), first.text
    # Without the sections' factors, the methods sentence's "block bacterial and viral aerosols" wins.
    flat = Settings(rank_scene_factor=1.0, rank_method_factor=1.0, rank_finding_factor=1.0)
    assert candidates(MASKS_CLAIM, page_of(*MASKS_ABSTRACT), flat)[0].text.startswith("METHODS:")


def test_a_page_without_section_labels_is_ranked_as_before() -> None:
    # "Note: ..." or a time "10:30" is no section: only scene, methods and findings labels weigh.
    unlabelled = [s.split(": ", 1)[-1] for s in MASKS_ABSTRACT]
    unlabelled[1] = "Note: " + unlabelled[1]
    flat = Settings(rank_scene_factor=1.0, rank_method_factor=1.0, rank_finding_factor=1.0)
    ours = [c.text for c in candidates(MASKS_CLAIM, page_of(*unlabelled))]
    assert ours == [c.text for c in candidates(MASKS_CLAIM, page_of(*unlabelled), flat)]
