"""On a short page, a sentence holding a figure near the claim's is offered although it shares no word with the claim.

Pages are written as the claims corpus serves them (one paragraph a sentence), from VitaminC's
Wikipedia revisions (CC-BY-SA 3.0): the box-office sentence says "grossed" where the claim says "earned".
"""

from __future__ import annotations

from core.diagnose import candidates
from core.settings import Settings
from tests.diagnose.test_rank import page_of

# VitaminC 5ebe6f2bc9e77c00084075b7: the evidence shares no word with the claim, only the figure keeping its bound.
HAUNTING = (
    "The Haunting in Connecticut is a 2009 American supernatural horror film directed by Peter Cornwell.",
    'It received "generally unfavorable reviews" according to Metacritic.',
    "Although it was a moderately successful film at the box office (it grossed $77,527,732.),",
)
CLAIM = "The Haunting in Connecticut earned more than $70 million."
GROSSED = "Although it was a moderately successful film at the box office (it grossed $77,527,732.),"
NOT_ALONE = Settings(rank_figure_alone_max_sentences=0)


def test_a_sentence_sharing_only_a_figure_near_the_claim_s_is_offered() -> None:
    offered = [c.text for c in candidates(CLAIM, page_of(*HAUNTING))]
    assert GROSSED in offered, offered
    assert GROSSED not in [c.text for c in candidates(CLAIM, page_of(*HAUNTING), NOT_ALONE)]


def test_a_claim_sharing_no_word_but_a_near_figure_is_offered_that_sentence() -> None:
    page = page_of(*HAUNTING[1:])
    assert [c.text for c in candidates(CLAIM, page)][:1] == [GROSSED]
    assert candidates(CLAIM, page, NOT_ALONE) == ()


def test_a_figure_far_from_the_claim_s_raises_no_sentence_sharing_no_word() -> None:
    assert candidates("The Haunting in Connecticut earned more than $700 million.", page_of(*HAUNTING[1:])) == ()


def test_a_long_page_s_sentences_sharing_no_word_are_not_read_for_figures() -> None:
    # Past rank_figure_alone_max_sentences, only the sentences BM25 ranks are read: a long page costs no more.
    filler = [f"Reviewer {i} wrote a column on the lighting of scene {i}." for i in range(70)]
    assert candidates(CLAIM, page_of(*filler, HAUNTING[2])) == ()
