"""The claims loader: every dataset read, labels and evidence in range, pages served as one <p> per sentence."""

from __future__ import annotations

import collections
import dataclasses

import pytest

from tests.quality.claims_corpus import DATASETS, LABELS, cases, detokenise, page_html


@pytest.mark.parametrize("dataset", DATASETS)
def test_every_dataset_gives_cases_with_evidence_on_their_page(dataset: str) -> None:
    got = cases(dataset)
    assert len(got) > 1000
    labels = collections.Counter(c.label for c in got)
    assert set(labels) <= set(LABELS) and labels["supported"] > 400
    for c in got:
        assert c.claim and c.page and c.evidence
        assert min(c.evidence) >= 0 and max(c.evidence) < len(c.page)


def test_a_vitaminc_page_holds_one_revision_of_the_row_s_sentence() -> None:
    # Row 5ee39419c9e77c0008ccf6aa_1's sentence ("$21 million in other countries") has revisions
    # on other rows ("$25 million"): the page holds only the row's own.
    case = next(c for c in cases("vitaminc") if c.id == "5ee39419c9e77c0008ccf6aa_1")
    assert case.claim == "The Nice Guys grossed more than $21 million in other countries."
    assert "$21 million in other countries" in case.page[case.evidence[0]]
    assert not any("$25 million in other countries" in s for s in case.page)
    assert any("Berardinelli" in s for s in case.page)


def test_expertqa_claims_lose_their_citation_markers() -> None:
    case = next(c for c in cases("expertqa") if "direct targets or simply witnesses" in c.claim)
    assert case.claim.endswith("lack of protection.")
    assert case.page[0].startswith("The Impact of Domestic Violence on Children")


def test_detokenise_restores_ordinary_spelling() -> None:
    got = detokenise("Washington -LRB-state-RRB- had `` 1,200 '' cases , up 5 % ; it did n't stop .")
    assert got == 'Washington (state) had "1,200" cases, up 5%; it didn\'t stop.'


def test_page_html_escapes_and_gives_one_paragraph_per_sentence() -> None:
    case = dataclasses.replace(cases("check-covid")[0], page=("a <b> & c.", "Second."))
    body = page_html(case).decode()
    assert "<p>a &lt;b&gt; &amp; c.</p>\n<p>Second.</p>" in body
