"""The brief reader's sentence splitter: the matcher's sentence-end rule, with a brief's own scanning.

Cases are the shapes real briefs write: abbreviations, versions and decimals, quotations with
full stops inside, CJK full stops, URLs ending a sentence, and brackets after a full stop.
"""

from __future__ import annotations

import pytest

from core.brief.urls import find_urls
from core.text import split_sentences


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("Version 3.12 shipped. It is 5.5% faster.", ["Version 3.12 shipped.", "It is 5.5% faster."]),
        (
            "The U.S. market, e.g. Texas, grew. Dr. Smith agreed.",
            ["The U.S. market, e.g. Texas, grew.", "Dr. Smith agreed."],
        ),
        ("See https://example.org/a.b. Next one.", ["See https://example.org/a.b.", "Next one."]),
        (
            "It fell to No. 5 in Fig. 3 of the report. Then it rose.",
            ["It fell to No. 5 in Fig. 3 of the report.", "Then it rose."],
        ),
        ("The answer is no. Then again.", ["The answer is no.", "Then again."]),
        ("He said: “It works. Mostly.” Then left.", ["He said: “It works. Mostly.”", "Then left."]),
        ("Growth was 2.5x... Then it slowed.", ["Growth was 2.5x...", "Then it slowed."]),
        ("Prices rose (by 3%). Costs fell.", ["Prices rose (by 3%).", "Costs fell."]),
        ("第一句。第二句。", ["第一句。", "第二句。"]),
        ("可从19页看起，或D.C. Goldrei的书。", ["可从19页看起，或D.C. Goldrei的书。"]),
        # Real briefs (../shared/corpus/briefs/angrysky56+deep-research-reports/): a full stop after a
        # bracket closing "etc.)" ends the sentence; "etc.)," goes on; a letter before ")." is no initial.
        (
            "Each of the above experiments yields quantitative metrics (reward, accuracy, error rate, etc.). We will "
            "compare our system’s metrics to baseline models.",
            [
                "Each of the above experiments yields quantitative metrics (reward, accuracy, error rate, etc.).",
                "We will compare our system’s metrics to baseline models.",
            ],
        ),
        (
            "Some biases are clear (racial slurs, overt sexism, etc.), but others are subtle or contested.",
            ["Some biases are clear (racial slurs, overt sexism, etc.), but others are subtle or contested."],
        ),
        (
            "Good sources are citrus fruits, berries, kiwifruit (for C) and nuts, seeds, wheat germ (for E). If one’s "
            "diet is lacking, a daily multivitamin can ensure adequate levels.",
            [
                "Good sources are citrus fruits, berries, kiwifruit (for C) and nuts, seeds, wheat germ (for E).",
                "If one’s diet is lacking, a daily multivitamin can ensure adequate levels.",
            ],
        ),
        ("第一句！第二句？第三句。", ["第一句！", "第二句？", "第三句。"]),
    ],
)
def test_sentence_splitter(text: str, sentences: list[str]) -> None:
    protected = find_urls(text)
    assert [text[s:e] for s, e in split_sentences(text, protected)] == sentences
