"""An abstract without section labels, read for its authors' voice: "we show" opens a finding, what comes before
the first such sentence sets the scene (core/diagnose/sections.py ``voice``, ``voices``, ``opening_scene``).

Abstracts are Check-COVID's (MIT), served one paragraph a sentence as the claims corpus serves them.
"""

from __future__ import annotations

import gzip

from core.diagnose import candidates
from core.diagnose.rank import _sentences
from core.diagnose.sections import voice, voices
from core.extract import extract_html
from core.match import prepare
from core.settings import Settings
from tests.diagnose.test_rank import page_of
from tests.servers import CORPUS

# Check-COVID 602d26366bc088b6d218dc38: the labelled evidence is the authors' "we show…".
MICE = (
    "Coronaviruses are prone to emergence into new host species most recently evidenced by SARS-CoV-2, the causative"
    " agent of the COVID-19 pandemic.",
    "Small animal models that recapitulate SARS-CoV-2 disease are desperately needed to rapidly evaluate medical"
    " countermeasures (MCMs).",
    "SARS-CoV-2 cannot infect wildtype laboratory mice due to inefficient interactions between the viral spike (S)"
    " protein and the murine ortholog of the human receptor, ACE2.",
    "We used reverse genetics to remodel the S and mACE2 binding interface resulting in a recombinant virus"
    " (SARS-CoV-2 MA) that could utilize mACE2 for entry.",
    "SARS-CoV-2 MA replicated in both the upper and lower airways of both young adult and aged BALB/c mice.",
    "Importantly, disease was more severe in aged mice, and showed more clinically relevant phenotypes than those"
    " seen in hACE2 transgenic mice.",
    "We then demonstrated the utility of this model through vaccine challenge studies in immune competent mice with"
    " native expression of mACE2.",
    "Lastly, we show that clinical candidate interferon (IFN) lambda-1a can potently inhibit SARS-CoV-2 replication"
    " in primary human airway epithelial cells in vitro, and both prophylactic and therapeutic administration"
    " diminished replication in mice.",
    "Our mouse-adapted SARS-CoV-2 model demonstrates age-related disease pathogenesis and supports the clinical use"
    " of IFN lambda-1a treatment in human COVID-19 infections.",
)
MICE_CLAIM = "Experiments in mice hint that injecting interferons may help against Covid-19"

# Check-COVID 6026b71e6bc088b6d218dc09: the opening sentence shares the claim's "novel coronavirus" topic.
FERRETS = (
    "The outbreak of coronavirus disease 2019 (COVID-19) caused by severe acute respiratory syndrome coronavirus 2"
    " (SARS-CoV-2) emerged in China and rapidly spread worldwide.",
    "To prevent SARS-CoV-2 dissemination, understanding the in vivo characteristics of SARS-CoV-2 is a high priority.",
    "We report a ferret model of SARS-CoV-2 infection and transmission that recapitulates aspects of human disease.",
    "SARS-CoV-2-infected ferrets exhibit elevated body temperatures and virus replication.",
    "At 2 days post-contact, SARS-CoV-2 was detected in all naive direct contact ferrets.",
    "Thus, ferrets represent an infection and transmission animal model of COVID-19 that may facilitate development"
    " of SARS-CoV-2 therapeutics and vaccines.",
)
FERRETS_CLAIM = "Ferrets pass the novel coronavirus on to one another in the same way that humans do."


# Check-COVID 60920584f9b9e03ea4d8e502 (a CDC report's summary): its finding opens "These findings suggest".
PREGNANCY = (
    "As of June 16, 2020, the coronavirus disease 2019 (COVID-19) pandemic has resulted in 2,104,346 cases and"
    " 116,140 deaths in the United States.",
    "* During pregnancy, women experience immunologic and physiologic changes that could increase their risk"
    " for more severe illness from respiratory infections (1,2).",
    "To date, data to assess the prevalence and severity of COVID-19 among pregnant U.S. women and determine"
    " whether signs and symptoms differ among pregnant and nonpregnant women are limited.",
    "During January 22-June 7, as part of COVID-19 surveillance, CDC received reports of 326,335 women of"
    " reproductive age (15-44 years) who had positive test results for SARS-CoV-2, the virus that causes"
    " COVID-19.",
    "Data on pregnancy status were available for 91,412 (28.0%) women with laboratory-confirmed infections;"
    " among these, 8,207 (9.0%) were pregnant.",
    "Symptomatic pregnant and nonpregnant women with COVID-19 reported similar frequencies of cough (>50%) and"
    " shortness of breath (30%), but pregnant women less frequently reported headache, muscle aches, fever,"
    " chills, and diarrhea.",
    "Chronic lung disease, diabetes mellitus, and cardiovascular disease were more commonly reported among"
    " pregnant women than among nonpregnant women.",
    "Among women with COVID-19, approximately one third (31.5%) of pregnant women were reported to have been"
    " hospitalized compared with 5.8% of nonpregnant women.",
    "After adjusting for age, presence of underlying medical conditions, and race/ethnicity, pregnant women"
    " were significantly more likely to be admitted to the intensive care unit (ICU) (aRR = 1.5, 95% confidence"
    " interval [CI] = 1.2-1.8) and receive mechanical ventilation (aRR = 1.7, 95% CI = 1.2-2.4).",
    "Sixteen (0.2%) COVID-19-related deaths were reported among pregnant women aged 15-44 years, and 208"
    " (0.2%) such deaths were reported among nonpregnant women (aRR = 0.9, 95% CI = 0.5-1.5).",
    "These findings suggest that among women of reproductive age with COVID-19, pregnant women are more likely"
    " to be hospitalized and at increased risk for ICU admission and receipt of mechanical ventilation compared"
    " with nonpregnant women, but their risk for death is similar.",
    "To reduce occurrence of severe illness from COVID-19, pregnant women should be counseled about the"
    " potential risk for severe illness from COVID-19, and measures to prevent infection with SARS-CoV-2 should"
    " be emphasized for pregnant women and their families.",
)
PREGNANCY_CLAIM = (
    "Pregnant women with COVID-19 might be at higher risk for severe illness among women of reproductive age."
)


def _first(claim: str, page: tuple[str, ...], settings: Settings | None = None) -> str:
    return candidates(claim, page_of(*page), settings)[0].text


def test_a_finding_the_authors_report_comes_before_their_model_s_summary() -> None:
    assert _first(MICE_CLAIM, MICE).startswith("Lastly, we show that"), _first(MICE_CLAIM, MICE)
    # Without the voice's factor, "Our mouse-adapted SARS-CoV-2 model demonstrates…" wins on "COVID-19".
    flat = Settings(rank_voice_finding_factor=1.0)
    assert _first(MICE_CLAIM, MICE, flat).startswith("Our mouse-adapted"), _first(MICE_CLAIM, MICE, flat)


def test_findings_the_authors_say_suggest_a_claim_come_before_their_advice() -> None:
    first = _first(PREGNANCY_CLAIM, PREGNANCY)
    assert first.startswith("These findings suggest"), first
    # Without the voice's factor, the advice's "severe illness from COVID-19" twice wins.
    flat = Settings(rank_voice_finding_factor=1.0)
    assert _first(PREGNANCY_CLAIM, PREGNANCY, flat).startswith("To reduce"), _first(PREGNANCY_CLAIM, PREGNANCY, flat)


def test_the_sentences_before_the_authors_first_set_the_scene() -> None:
    # The authors' finding is not raised here: the opening scene alone puts it first.
    scene = Settings(rank_voice_finding_factor=1.0)
    first = _first(FERRETS_CLAIM, FERRETS, scene)
    assert first.startswith("We report a ferret model"), first
    # Without the opening scene, the outbreak's "coronavirus disease 2019… coronavirus 2" wins on "coronavirus".
    flat = Settings(rank_voice_finding_factor=1.0, rank_scene_opening_sentences=0)
    assert _first(FERRETS_CLAIM, FERRETS, flat).startswith("The outbreak of"), _first(FERRETS_CLAIM, FERRETS, flat)


def test_a_page_not_in_an_author_s_voice_is_ranked_as_before() -> None:
    # A Wikipedia-style page: no "we", no opening scene, every factor moot.
    page = (
        "Ralph Breaks the Internet is a 2018 American computer-animated comedy film.",
        "The film premiered in Los Angeles on November 5, 2018.",
        "It has grossed $529 million worldwide, and was nominated for the Academy Award for Best Animated Feature.",
    )
    claim = "Ralph Breaks the Internet grossed more than $528 million and was nominated for an Academy Award."
    ours = [(c.text, c.score) for c in candidates(claim, page_of(*page))]
    flat = Settings(rank_voice_finding_factor=1.0, rank_scene_opening_sentences=0, rank_method_factor=1.0)
    assert ours == [(c.text, c.score) for c in candidates(claim, page_of(*page), flat)]
    assert ours[0][0].startswith("It has grossed"), ours


def test_the_voices_read_once_a_page_are_those_of_each_sentence_asked_in_turn() -> None:
    # sections.voices looks only where "we" and a study's words stand: the same as asking every sentence.
    pages = [page_of(*MICE), page_of(*FERRETS), page_of("Our study found it.", "We.", "This study used mice.")]
    for path in sorted((CORPUS / "html/readability").glob("*/source.html.gz"))[:30]:
        pages.append(prepare(extract_html(gzip.decompress(path.read_bytes()), "text/html")))
    told = 0
    for prepared in pages:
        bounds = _sentences(prepared).bounds
        each = {j: voice(prepared.words, bounds[j], bounds[j + 1]) for j in range(len(bounds) - 1)}
        assert voices(prepared, bounds, _sentences(prepared).of) == {j: k for j, k in each.items() if k}
        told += sum(map(bool, each.values()))
    assert told >= 10, told  # enough sentences in an author's voice for the comparison to mean something
