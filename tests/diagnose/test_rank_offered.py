"""How many passages a claim without a quote is offered: the best three, down to a share of the best one's score."""

from __future__ import annotations

from core.diagnose import candidates
from core.settings import Settings
from tests.builders import every
from tests.diagnose.test_rank import page_of

# Check-COVID 60063f7c6bc088b6d218dbce (MIT): the labelled finding says "Pangolin-CoV in dead Malayan pangolins",
# sharing only "pangolins" with the claim; the background sentences share "coronavirus" and "SARS-CoV-2".
PANGOLIN_ABSTRACT = (
    "An outbreak of coronavirus disease 2019 (COVID-19) caused by the 2019 novel coronavirus (SARS-CoV-2) began in"
    " the city of Wuhan in China and has widely spread worldwide.",
    "Currently, it is vital to explore potential intermediate hosts of SARS-CoV-2 to control COVID-19 spread.",
    "Therefore, we reinvestigated published data from pangolin lung samples from which SARS-CoV-like CoVs were"
    " detected by Liu et al.",
    "[1].",
    "We found genomic and evolutionary evidence of the occurrence of a SARS-CoV-2-like CoV (named Pangolin-CoV) in"
    " dead Malayan pangolins.",
    "Pangolin-CoV is 91.02% and 90.55% identical to SARS-CoV-2 and BatCoV RaTG13, respectively, at the whole-genome"
    " level.",
    "Aside from RaTG13, Pangolin-CoV is the most closely related CoV to SARS-CoV-2.",
    "The S1 protein of Pangolin-CoV is much more closely related to SARS-CoV-2 than to RaTG13.",
    "Five key amino acid residues involved in the interaction with human ACE2 are completely consistent between"
    " Pangolin-CoV and SARS-CoV-2, but four amino acid mutations are present in RaTG13.",
    "Both Pangolin-CoV and RaTG13 lost the putative furin recognition sequence motif at S1/S2 cleavage site that can"
    " be observed in the SARS-CoV-2.",
    "Conclusively, this study suggests that pangolin species are a natural reservoir of SARS-CoV-2-like CoVs.",
)
CLAIM = (
    "A peer-reviewed journal published a paper claiming that the new coronavirus (SARS-CoV-2) probably originated in"
    " pangolins."
)
FINDING = "We found genomic and evolutionary evidence"


def test_a_finding_in_other_words_scoring_a_fifth_of_the_best_is_still_offered() -> None:
    offered = [c.text for c in candidates(CLAIM, page_of(*PANGOLIN_ABSTRACT))]
    assert any(t.startswith(FINDING) for t in offered), offered
    # At a floor of half the best score, the finding is cut and only two passages are offered.
    cut = [c.text for c in candidates(CLAIM, page_of(*PANGOLIN_ABSTRACT), Settings(rank_relative_floor=0.5))]
    assert not any(t.startswith(FINDING) for t in cut), cut


def test_at_most_three_passages_each_scoring_at_least_the_floor_s_share_of_the_best() -> None:
    offered = candidates(CLAIM, page_of(*PANGOLIN_ABSTRACT))
    assert len(offered) == 3  # the finding is the third
    every(offered, lambda c: c.score >= offered[0].score * Settings().rank_relative_floor - 0.1)
