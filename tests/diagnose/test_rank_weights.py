"""What a claim's words weigh in the ranking: a name of letters and digits written as one word is one term.

Pages are written the way the claims corpus serves its pages (one paragraph a sentence), with a
real abstract's sentences (Check-COVID), read by the real extractor and prepared by the matcher.
"""

from __future__ import annotations

from core.diagnose import candidates
from tests.diagnose.test_rank import page_of

FRANCE = (
    "The COVID-19 epidemic is believed to have started in late January 2020 in France.",
    "Here we report a case of a patient hospitalised in December 2019 in an intensive care unit in a hospital in"
    " the north of Paris for haemoptysis with no aetiological diagnosis.",
    "RT-PCR was performed retrospectively on the stored respiratory sample and confirmed the diagnosis of severe"
    " acute respiratory syndrome coronavirus 2 (SARS-CoV-2) infection.",
    "Based on this result, it appears that the COVID-19 epidemic started much earlier in France.",
)


def test_covid_19_counts_once_not_once_for_covid_and_again_for_19() -> None:
    # "COVID-19" is one word of the claim: were "covid" and "19" two, the opening sentence's "COVID-19 ...
    # France" would outweigh the case "in December 2019" the claim rests on.
    offered = candidates("COVID-19 was present in France as early as December 2019.", page_of(*FRANCE))
    assert offered[0].text.startswith("Here we report a case"), offered[0].text
    assert "December 2019" in offered[0].holds.figures
