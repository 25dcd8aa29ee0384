"""The claim against its evidence (core.match.compare_claim, wired in core.check.check_claim).

A negation that governs words both sides share, on one side only, blocks ``verified``; a hedge or
condition the claim drops is information; a paraphrase that agrees is never flagged. The page
rows are real corpus sentences; each row fails without its rule.
"""

from __future__ import annotations

import gzip

import pytest

from core.check.claims import check_claim
from core.extract.read import extract_html
from core.match import compare_claim, prepare
from core.models import Candidate, FlagKind, PageKind, PageText, Verdict
from core.settings import Settings
from tests.builders import claim, corpus_bytes, corpus_page, every, source
from tests.servers import CORPUS

WHATSNEW_313 = "html/python/whatsnew/3.13.html"
EXPERIMENTAL = "This is an experimental feature and therefore is not enabled by default."

BLENDED = (
    "Blended grossed $ 14,284,031 in its opening weekend , finishing in third at the box office behind X-Men :"
    " Days of Future Past and Godzilla."
)

SURGICAL = (
    "CONCLUSION: None of these surgical masks exhibited adequate filter performance and facial fit characteristics"
    " to be considered respiratory protection devices."
)
MARTIN = (
    "In 2008 , Coldplay lead singer Chris Martin stated that `` ... I do n't think bands should keep going past"
    " [ the age of ] 33 '' , but later rephrased this ."
)
SENATE = "The Senate is currently composed of 58 Democrats , 40 Republicans , and two independents ."

# (claim, evidence, the evidence's words the flag names)
DIFFERS = [
    ("Free threading is enabled by default", EXPERIMENTAL, "not"),
    ("The library does support async", "The library doesn't support async.", "doesn't"),
    ("The library supports async", "The library doesn't support async.", "doesn't"),
    ("Texas is expected to add jobs", "Texas is not expected to add jobs this year.", "not"),
    ("No users reported crashes", "Users reported crashes after the update.", ""),
    ("Linux is supported", "Neither Linux nor Windows is supported.", "Neither"),
    ("Run the tool with parameters", "Run the tool without parameters.", "without"),
    # A verb that denies as a "not" does (VitaminC's wording of a revision).
    ("The club qualified for Europe in 2014", "In 2014 the club failed to qualify for Europe.", "failed"),
    ("The patients had symptoms", "The survey found the patients lacked symptoms.", "lacked"),
    # An aside set off by commas, whose closing comma ends no clause.
    ("The law was enforced", "The law was not, in practice, ever enforced.", "not"),
    # VitaminC: a light verb the evidence words otherwise ("earned" for "grossed"): the total decides.
    (
        "Blended has not earned a total of over $ 75 million .",
        "the film has grossed $ 43,785,894 in North America for a total gross of roughly $ 75,085,894.",
        "",
    ),
    # VitaminC: an adverb between the negation and its verb says nothing of its own ("not already").
    (
        "1473 of the 1751 A330s ordered to Airbus have not already been delivered after August 2019 .",
        "As of September 2019 , A330 orders stand at 1,751 , of which 1,473 have been delivered .",
        "",
    ),
    # VitaminC: a negation in the passive denies its subject ("cases ... were not confirmed" against
    # "cases have been reported"), when the predicate's words are not shared.
    (
        "96,108 Coronavirus cases with 1,446 deaths and 26,400 recoveries were not confirmed in Germany .",
        "96,108 cases have been reported with 1,446 deaths and approximately 26,400 recoveries .",
        "",
    ),
    ("More than 25,000 corona tests have not been done in Romania .", "26,609 tests have been processed.", ""),
    # VitaminC and Check-COVID: the predicate's first word is not the evidence's ("replaced" against
    # "replacement", "contracted" against "travel-related"), so the passive's subject decides.
    (
        "Schaub was not replaced by T.J. Yates during the 6th week of the season .",
        "In week 6 against the Rams , Schaub was injured during the game , but his replacement T. J. Yates"
        " threw another pick-6 to stretch the team total to five games .",
        "",
    ),
    (
        "More than 27 of the 33 coronavirus cases in Oman were not contracted as a result of traveling",
        "As of 18 March , the total number of cases registered in the Sultanate is 33 ,"
        " of which 29 are travel-related .",
        "",
    ),
    (
        "Treatment of COVID-19 with hydroxychloroquine alone was not associated with an increased risk of death.",
        "An association of increased overall mortality was identified in patients treated with"
        " hydroxychloroquine alone.",
        "",
    ),
    # VitaminC: "has not" before a number or a determiner is "has no": it denies what is had.
    (
        "Jeremy Lamb has not 2 older siblings .",
        "He is the son of Rolando and Angela Lamb and is the third of four siblings .",
        "",
    ),
    (
        "Sylvester Stallone had not a short role in Guardians of the Galaxy Vol . 2 .",
        "Sylvester Stallone was also revealed to be in the film , with his a brief role later revealed"
        " as Stakar Ogord .",
        "",
    ),
    # VitaminC: a bound the claim denies that the evidence's number in its place meets, though another
    # number of the evidence ("$ 68,672" for a family) would hold the bound for the figures check.
    (
        "According to the census conducted before 2005 , the median income for a household in Carrollton , Texas"
        " was not less than $ 65,000 .",
        "At the 2000 census , the median income for a household in the city was $ 62,406 , and the median income"
        " for a family was $ 68,672 .",
        "62,406",
    ),
    ("Blended has not earned a total of over $ 14.25 million in its opening weekend .", BLENDED, "14,284,031"),
    # Check-COVID and VitaminC: one word in two forms ("neurological", "neurologic"; "mutated",
    # "mutations"), a number written out ("four" for "4").
    (
        "A recent study of COVID-19 patients in Wuhan, China found that over one third had not neurological symptoms.",
        "Overall, 78 patients (36.4%) had neurologic manifestations.",
        "",
    ),
    (
        "SARS-CoV-2 has not mutated into several variants.",
        "We find limited diversity across SARS-CoV-2 genomes: Only 11 sites show polymorphisms in >5% of sequences;"
        " yet two mutations, including the D614G mutation in Spike, have already become consensus.",
        "",
    ),
    (
        "After April 15 , 2020 , Uzbekistan had not four coronavirus deaths .",
        "As of 16 April 2020 , there have been 1,349 confirmed cases , 107 recoveries and 4 deaths.",
        "",
    ),
    # The same evidence against the claims that part from it: "none of" and "don't think" still deny.
    ("Surgical masks exhibited adequate filter performance .", SURGICAL, "None"),
    ("Surgical masks do provide you with full protection from COVID-19.", SURGICAL, "None"),
    ("Chris Martin stated in 2008 that bands should keep going past the age of 33 .", MARTIN, "do n't"),
    # VitaminC: a passive with an adverb before its participle, or a participle of its own form ("cut");
    # one word written with a hyphen on one side ("code-named" against "codenamed").
    (
        "The film Last Exorcism was not first shown at the LA Film Festival after February 2010 .",
        "The film premiered at the LA Film Festival on 17 June 2010LA Film Festival Premieres 'The Last Exorcism ' ,"
        " Other Genre Fare and was here narrated by Eli Roth .",
        "",
    ),
    (
        "The qualification campaign of the Vietnam national football team for the 2022 FIFA World Cup was not cut"
        " short due to the 2020 coronavirus pandemic .",
        "The outbreak also forced 2020 V.League 1 to be delayed to 7th March until other news indicated , which"
        " affected the perpetration of Vietnam national football team for the upcoming 2022 FIFA World Cup"
        " qualification – AFC Second Round.",
        "",
    ),
    (
        "The BMW 720S ' twin-turbocharged V8 engine is not code-named the M840TR .",
        "The Senna is powered by a modified version of the BMW 720S ' twin-turbocharged V8 engine codenamed the"
        " M840TR .",
        "",
    ),
    # Check-COVID: a hyphened word keeps its first part where the other side holds that ("pangolin-associated").
    (
        "Studies have not found a genetic similarity between SARS-CoV-21 and coronaviruses found in pangolins.",
        "Metagenomic sequencing identified pangolin-associated coronaviruses that belong to two sub-lineages of"
        " SARS-CoV-2-related coronaviruses, including one that exhibits strong similarity in the receptor-binding"
        " domain to SARS-CoV-2.",
        "",
    ),
    # Check-COVID: a sentence-final "does not." denies the predicate its sentence said before it.
    (
        "A research team found 69 drugs that target the same proteins in our cells the novel coronavirus does not.",
        "Among these, we identify 66 druggable human proteins or host factors targeted by 69 existing FDA-approved"
        " drugs, drugs in clinical trials and/or preclinical compounds.",
        "",
    ),
    # VitaminC: the evidence's number in the claim's place written out ("at the age of eight").
    (
        "David O'Leary moved to Dublin when he was not more than 7 seven years old .",
        "O'Leary was born in Stoke Newington , London on 2 May 1958 and moved to live in Dublin at the age of eight.",
        "eight",
    ),
    # Check-COVID and VitaminC: a word that denies with an affix is its root denied ("asymptomatic" is "not
    # symptomatic"), so a "not" dropped against it, or one added to a claim in such a word, parts from it.
    (
        "The majority of COVID-19-positive patients did exhibit symptoms.",
        "The majority of COVID-19-positive patients were asymptomatic (81%, 104 patients).",
        "asymptomatic",
    ),
    (
        "Some 43 percent of people with confirmed SARS-CoV-2 infections have not no symptoms.",
        "Notably, 43.2% (95% CI 32.2-54.7%) of the confirmed SARS-CoV-2 infections detected across the two surveys"
        " were asymptomatic.",
        "asymptomatic",
    ),
    (
        "Ted assured a customer , portrayed by Liam Neeson , that a box of Trix is not harmless in Ted 2 .",
        "shortly after reassuring a customer ( Liam Neeson ) that buying a box of Trix , as an adult , will not"
        " bring him to any harm .",
        "not",
    ),
    ("The new scheme is effective for older patients .", "The new scheme is ineffective for older patients .", ""),
    ("Most cases in the district were identified .", "Most cases in the district remained unidentified .", ""),
    # Check-COVID: an emphatic "does" is what a dropped "not" leaves of "does not": the shared words decide
    # though the verbs differ ("help", "support"); "hospitalised" is "hospitalized".
    (
        "Hydroxychloroquine does significantly help patients hospitalized with COVID-19.",
        "Interpretation These results do not support the use of HCQ in patients hospitalised for documented"
        " SARS-CoV-2-positive hypoxic pneumonia.",
        "not",
    ),
    # VitaminC and Check-COVID: a count whose predicate the claim denies, which the evidence's number holds in
    # a clause that denies nothing, though the two word the predicate apart ("tested positive", "cases").
    (
        "In Uzbekistan , more than 1,680 people had not tested positive for coronavirus , more than 400 have"
        " recovered and more than 6 have died from coronavirus as of April 21 , 2020 .",
        "As of 21 April 2020 , there have been 1,692 confirmed cases , 450 recoveries and 7 deaths.",
        "1,692",
    ),
    (
        "Less than 45 % of national coronavirus cases are not in New York state .",
        "Nearly 45 % of the national total of cases is in the state , with over 25 % of the total cases in the"
        " nation being in NYC.",
        "45",
    ),
    (
        "One research study estimated that 76 percent of the Manaus population already had not been infected by"
        " the coronavirus SARS-CoV-2 in October.",
        "Correcting for cases without a detectable antibody response and for antibody waning, we estimate a 66%"
        " attack rate in June, rising to 76% in October.",
        "76",
    ),
    # VitaminC: "zero cases" is "no cases", so a "not" added before it denies the evidence's "no reported cases".
    (
        "After March 20 , 2020 , Brčko District has not confirmed zero COVID-19 cases .",
        "There are 90 cases , and no reported cases in Brčko District .",
        "no",
    ),
    # VitaminC and Check-COVID: a preposition ("among", "between") says nothing of its own, nor does an adverb
    # of how sure ("not likely"): the shared words are most of what the negation denies.
    (
        "Before 4 June 2019 , Student of the Year 2 was not ranked among the top ten highest-grossing Bollywood"
        " films of that year .",
        "As of 31 May 2019 , it is the 10th highest-grossing Bollywood film of 2019.",
        "",
    ),
    (
        "There is not likely a link between the coronavirus and Kawasaki disease.",
        "The SARS-CoV-2 epidemic was associated with high incidence of a severe form of Kawasaki disease.",
        "",
    ),
    # Real pages (tests/quality/eval_match.py): a verb after a second negation is still the first one's
    # ("never could not have imagined" says it could), and a name's "Not" a claim drops names something else.
    (
        "It's an accordion, lighting Rose-Lynn's way towards a place she never could not have imagined before.",
        "It's an accordion, lighting Rose-Lynn's way towards a place she never could have imagined before.",
        "never",
    ),
    (
        "Teachers with marching band instruments played “We're Gonna Take It” from the Statehouse steps.",
        "Teachers with marching band instruments played “We're Not Gonna Take It” from the Statehouse steps.",
        "We're Not Gonna",
    ),
    # VitaminC: "has yet to report" denies as "has not reported" does, so a "not" added to it affirms; a count
    # decides where the claim's other shared words the evidence says both ways ("in Assam", "to Assam").
    (
        "As of 30th March 2020 , seven African countries have not yet to report a case of COVID-19 .",
        "As of 30 March 2020 , the following seven African countries have yet to report a case of COVID-19 .",
        "yet",
    ),
    (
        "Over 20 people had not tested positive for coronavirus in Assam by April 6 , 2020 .",
        "The state has confirmed a total of 26 positive cases of Covid-19 , as of 6 April 2020.The cause of"
        " Covid-19 outbreak in Assam is due to the people attended the religious congregation at Nizamuddin Markaz"
        " and did not report the authorities after their return to Assam .",
        "",
    ),
    # VitaminC: the scale of a score ("61 out of 100") counts nothing, so the "41" beside "reviews" is the
    # evidence's number in the place of the claim's denied "less than 42".
    (
        "The Light Between Oceans has not less than 42 reviews .",
        "On Metacritic , the film has an average score of 61 out of 100 , based on 41 critics , indicating"
        " generally favorable reviews .",
        "41",
    ),
    # VitaminC: a verb and its particle are the one word the evidence writes ("going on", "ongoing").
    (
        "The case has not been going on since 2016",
        "This suit sought $ 210 million in damages and was ongoing as of 2016 .",
        "",
    ),
    # VitaminC: "going" is the claim's "go".
    ("Chris Martin expressed in 2008 that bands should go beyond the age of 33 .", MARTIN, "do n't"),
    # VitaminC: a word of ending far from the shared words says something else ("at the end of 2005").
    (
        "The Emancipation of Mimi , the album , was not the third best-selling in 2005 .",
        "At the end of 2005 , the IFPI reported that The Emancipation of Mimi had sold 7.7 million copies"
        " globally , and was the third best-selling album of the year , after Coldplay 's X & Y .",
        "",
    ),
    # Check-COVID, claims given a "not" against evidence that words no denial at all: a shared word that is no
    # name decides though the rest is paraphrased ("infection"), and so does the subject of a sentence's
    # first predicate ("patients"); a "never" after "than" names the alternative a comparison sets against
    # ("than never smokers") and denies nothing; "virus" is the stem of "viruses"; a word said again after a
    # comma ("many, many") goes on with the negation's clause.
    (
        "Cats are not susceptible to infection with the coronavirus.",
        "Our data demonstrates that SARS-CoV-2 has infected cat population in Wuhan during the outbreak.",
        "",
    ),
    (
        "Some patients hospitalized with COVID-19 had not new-onset psychosis.",
        "Hence, COVID-19 patients can develop psychotic symptoms as a consequence of multiple concurrent factors.",
        "",
    ),
    (
        "Smoking can not increase a person’s risk of severe COVID-19 symptoms.",
        "CONCLUSIONS: Smoking is a risk factor for progression of COVID-19, with smokers having higher odds of"
        " COVID-19 progression than never smokers.",
        "",
    ),
    (
        "The novel coronavirus can not be passed through virus-laden feces.",
        "Fecal–oral transmission is a common transmission route for many viruses, including SARS-CoV-2.",
        "",
    ),
    (
        "We found that there are not many, many unidentified cases of people having Covid infection.",
        "Conclusions The population prevalence of SARS-CoV-2 antibodies in Santa Clara County implies that the"
        " infection is much more widespread than indicated by the number of confirmed cases.",
        "",
    ),
    # A denial the other side makes of the same words ("failing to sell" for "unable to sell") is no wording of
    # the claim's other one (VitaminC); a denial word a negation denies words no absence ("not completely
    # absent" against "a lack of type I IFNs", Check-COVID).
    (
        "Al 's business is not impacted as he is unable to sell the Roundup gang in Toy Story 2 .",
        "Al 's business has suffered due to him failing to sell the Roundup gang , while Wheezy 's squeaker has"
        " also been fixed .",
        "",
    ),
    (
        "The type-1 interferon system is not completely absent and silenced by the COVID-19 infection.",
        "Single-cell transcriptomics revealed a lack of type I IFNs, reduced HLA-DR in the myeloid cells of patients"
        " with severe COVID-19, and transient expression of IFN-stimulated genes.",
        "",
    ),
    # Check-COVID: "in-" denies in some words only: "initial" words no denial, so the shared "wave" decides.
    (
        "COVID-19 is not predicted to act in resurgent waves of infection.",
        "We projected that recurrent wintertime outbreaks of SARS-CoV-2 will probably occur after the initial,"
        " most severe pandemic wave.",
        "",
    ),
    # Check-COVID, its "not" dropped: an emphatic "do have" says the other thing of the subject ("children") the
    # evidence's negation denies something of.
    (
        "The majority of children do have a significantly high risk of complications related to coronavirus.",
        "Whereas most COVID-19 cases in children are not severe, serious COVID-19 illness resulting in"
        " hospitalization still occurs in this age group.",
        "children",
    ),
    # Check-COVID: a sentence's first word is written with a capital whatever it is; "Nurses" is no name.
    (
        "Nurses in particular have not been at significant risk of contracting COVID-19.",
        "Nursing-related occupations (36.3%) represented the largest proportion of HCP hospitalized with COVID-19.",
        "",
    ),
]


@pytest.mark.parametrize(("claim_text", "evidence", "negation"), DIFFERS)
def test_a_negation_on_one_side_only_is_blocking(claim_text: str, evidence: str, negation: str) -> None:
    flags = [f for f in compare_claim(claim_text, evidence) if f.kind is FlagKind.NEGATION_DIFFERS]
    assert len(flags) == 1 and flags[0].blocking
    flag = flags[0]
    assert flag.page_words and flag.claim_words and flag.page_words in flag.message and flag.claim_words in flag.message
    if negation:
        assert flag.span is not None and evidence[slice(*flag.span)].startswith(negation)


# A paraphrase that agrees: never flagged.
AGREES = [
    ("Free threading is disabled by default", "Free threading is not enabled by default."),
    ("It has never been released", "It has not ever been released."),
    ("It is enabled", "It is not true that it isn't enabled."),
    ("It's there for flavor and texture", "It's not only there for flavor, but also texture."),
    ("The service stopped supporting Python 2", "The service no longer supports Python 2."),
    ("The tool is fast and not expensive", "The tool is fast."),
    ("Neither Linux nor Windows is supported", "Linux is not supported, and Windows is not supported either."),
    ("Sales fell", "Sales did not rise."),
    # VitaminC, labelled supported: a second denial joined by "and" is its own, not a double negation.
    (
        "The 2013–14 Manchester United F.C . failed to qualify for Europe since the 1989-90 season .",
        "the club failed to defend their Premier League title and failed to qualify for Europe for the first time.",
    ),
    # VitaminC: a negation in a name ("Faith No More", "Double or Nothing", "No Way Out").
    (
        "Mike Patton performed a cover of Faith No More 's Malpractice on 27 December 2017 .",
        "On December 27 2017 , Patton performed a cover of Faith No More 's `` Malpractice , '' live .",
    ),
    (
        "The AEW World Championship was unveiled in May 2019 .",
        "First unveiled in May 2019 at Double or Nothing , it is the top title .",
    ),
    (
        "The album No Way Out was released in July 1997 .",
        "No Way Out is the debut album by Puff Daddy ; it released in July 1997 .",
    ),
    # VitaminC: "zero cases" says what "no reported cases" says; "no-mask" is a word of its own.
    (
        "Brčko District has confirmed zero COVID-19 cases .",
        "There are 90 cases , and no reported cases in Brčko District .",
    ),
    (
        "Mask-wearers with clinical respiratory illness are less likely to infect others.",
        "The mask versus no-mask groups showed a protective effect against clinical respiratory illness.",
    ),
    # A "zero" before a unit is a figure; a "no" of a noun is judged on the noun, not on what the words after
    # it say of where or what (VitaminC, labelled supported).
    ("Inflation was zero percent in 2020 .", "Inflation was 0 percent in 2020 ."),
    (
        "As of September 2019 , there have been no updates from Cake about an upcoming album .",
        "However , as of September 2019 , there has been no further mention of an upcoming album.",
    ),
    (
        "Jets marched 73 yards in 12 plays , taking 7 minutes off the clock , with Braylon Edwards scoring on a"
        " 10-yard touchdown pass from Mark Sanchez .",
        "After accruing no passing yards during the first quarter , the Jets marched 73 yards in 12 plays , taking"
        " just under 7 minutes off the clock , scoring on a 10-yard touchdown pass from Mark Sanchez to Braylon"
        " Edwards .",
    ),
    # A real page's bound said on both sides ("no more than 9 hours") is the figures check's, whatever other
    # number ("200") the evidence holds.
    (
        "On the other hand, for a web service targeting no more than 9 hours aggregate downtime per year (99.9%"
        " annual uptime), probing for a 200 (success) status more than once or twice a minute is probably"
        " unnecessarily frequent.",
        "On the other hand, for a web service targeting no more than 9 hours aggregate downtime per year (99.9%"
        " annual uptime), probing for a 200 (success) status more than once or twice a minute is probably"
        " unnecessarily frequent.",
    ),
    # VitaminC and Check-COVID, labelled supported: "has yet to get" agrees with "is not approved"; a list after
    # the colon of a denial is denied with it, and a date does not decide what a denial denies; a word and its
    # affixed form in one sentence are set against each other ("pregnant ... nonpregnant"); "pre-symptomatic"
    # is one word; the "4" of "iPhone 4" counts nothing.
    (
        "An alleged cure for the novel Covid-19 by the Greek politician , Kyriakos Velopoulos , has yet to get the"
        " approval of medical authorities .",
        "Kyriakos Velopoulos , sells a hand cream via his TV shop , which supposedly would completely kill COVID-19 ,"
        " although the alleged miracle drug is not approved by medical authorities.",
    ),
    (
        "By mid-March , Botswana was yet to report any COVID-19 case during the pandemic in Africa .",
        "As of 17 March there have been no reported cases in Botswana .",
    ),
    (
        "Coronavirus was yet to be found in Burundi by March 25 , 2020 .",
        "Currently , as of 25 March 2020 , the following eight African countries have yet to report a case of"
        " COVID-19 : Botswana , Burundi , Comoros , Lesotho , Malawi , São Tomé and Príncipe , Sierra Leone , and"
        " South Sudan.",
    ),
    (
        "Among women with COVID-19, pregnant women are at increased risk of being hospitalized.",
        "These findings suggest that among women of reproductive age with COVID-19, pregnant women are more likely"
        " to be hospitalized and at increased risk for ICU admission and receipt of mechanical ventilation compared"
        " with nonpregnant women, but their risk for death is similar.",
    ),
    (
        "Models suggest that about half of coronavirus transmission events can be traced back to individuals still"
        " in the so-called pre-symptomatic stage.",
        "We found that the majority of incidences may be attributable to silent transmission from a combination of"
        " the presymptomatic stage and asymptomatic infections.",
    ),
    (
        "The iPhone 4 has hardware that is outdated .",
        "Unlike the iPhone 4s , the iPhone 4 will not receive the iOS 8 update due to its aging hardware.",
    ),
    # VitaminC, labelled supported: a word the evidence says both ways ("90 cases , ... and no reported cases")
    # is the place whose count and words the claim's shares ("less than 93 cases"), not the one it denies.
    (
        "By 21 March 2020 , there were less than 93 cases of coronavirus in Bosnia and Herzegovina , less than 34"
        " came from the Federation of Bosnia and Herzegovina .",
        "As of 21 March 2020 , in Bosnia and Herzegovina there are currently 90 cases , 59 in Republika Srpska , and"
        " 31 in the Federation of Bosnia and Herzegovina , and no reported cases in Brčko District .",
    ),
    ("The suit has been going on since 2016 .", "This suit was ongoing as of 2016 ."),
    # A passage that ends on "no" ("yes or no"): no token follows it to join a "no-" compound.
    ("Voters answer the question yes or no", "The ballot asks voters to answer the question yes or no"),
    # Check-COVID, labelled supported: "absent" a few words from the shared ones says the evidence's "lack".
    (
        "The type-1 interferon system is completely absent and silenced by the COVID-19 infection.",
        "Single-cell transcriptomics revealed a lack of type I IFNs, reduced HLA-DR in the myeloid cells of patients.",
    ),
    # A passive negation the other side words with a prefix ("unreported") agrees.
    ("Most cases in the district were not reported .", "Most cases in the district went unreported ."),
    # Check-COVID, labelled supported: a relative clause's subject stands outside it, and evidence that
    # denies its own predicate of the same subject agrees.
    (
        "There are many unidentified cases of people having Covid infection that were never identified with a test.",
        "The infection is much more widespread than indicated by the number of confirmed cases.",
    ),
    (
        "Administering hydroxychloroquine was not associated with greatly lower risk of mortality.",
        "Administration of hydroxychloroquine did not result in a significantly higher probability of conversion.",
    ),
    # "has not a child" says what "has no children" says.
    ("Eric Cantona has not a child named Raphael .", "Cantona has no children ."),
    # A denied bound the evidence's number in its place does not meet agrees, whatever other numbers it holds.
    ("Blended has not earned a total of over $ 15 million in its opening weekend .", BLENDED),
    ("The senate has not more than 60 Democrats and less than 38 Republicans .", SENATE),
    # Two numbers that stand where the claim's does and disagree: no flag ("41 reviews", "60 reviews").
    ("The film has not less than 42 reviews .", "The film has 41 reviews from critics and 60 reviews from users ."),
    # Check-COVID and VitaminC, labelled supported: a "no-" compound denies its word ("no-mask"); "none of"
    # a noun denies the predicate after it; "don't think" denies the clause after it, not its subject;
    # "improvement" is the claim's "improve".
    (
        "Mask-wearers with clinical respiratory illness are less likely to infect others in their households who"
        " are not wearing masks.",
        "A post hoc comparison between the mask versus no-mask groups showed a protective effect against clinical"
        " respiratory illness, but not against ILI and laboratory-confirmed viral respiratory infections.",
    ),
    ("Surgical masks do not provide you with full protection from COVID-19.", SURGICAL),
    ("Chris Martin expressed in 2008 that bands should not go beyond the age of 33 .", MARTIN),
    (
        "Convalescent plasma therapy does not improve clinical results in patients suffering from COVID-19.",
        "Conclusion and Relevance: Among patients with severe or life-threatening COVID-19, convalescent plasma"
        " therapy added to standard treatment, compared with standard treatment alone, did not result in a"
        " statistically significant improvement in time to clinical improvement within 28 days.",
    ),
    # A sentence-final "does not." of a second subject set against the first denies that subject alone.
    ("Python supports it and Ruby does not.", "Python supports it."),
    # The same words with their affix on both sides, or a root said of little ("mild symptoms") agree;
    # "discover", "inform" and "inpatients" deny nothing of "cover", "form" and "patients".
    (
        "The majority of COVID-19-positive patients had no symptoms.",
        "The majority of COVID-19-positive patients were asymptomatic (81%, 104 patients).",
    ),
    (
        "A box of Trix is harmless to an adult .",
        "Buying a box of Trix , as an adult , will not bring him to any harm .",
    ),
    (
        "Individuals with mild symptoms of coronavirus can spread SARS-CoV-2 through the air.",
        "Gathering of crowds with asymptomatic carriers is a potential source of airborne SARS-CoV-2.",
    ),
    ("The survey did not cover rural areas .", "The survey did not discover cases in rural areas ."),
    ("The ward does not admit any patient with flu .", "The ward does not admit any inpatient with flu ."),
    # VitaminC and Check-COVID, labelled supported: "Barely Lethal" is a film's title, and a "not" after
    # "than" names the alternative a comparison sets against.
    (
        "Barely Lethal received more than 20 reviews on Rotten Tomatoes .",
        "On Rotten Tomatoes , the film holds an approval rating of 24 % based on 33 reviews .",
    ),
    (
        "Nurses who wore a mask were less likely to get flu.",
        "Consistently wearing a mask was protective for the nurses, and consistent use of the N95 mask was more"
        " protective than not wearing a mask.",
    ),
    # Check-COVID, labelled supported: a verb of protection words what the evidence denies ("did not show
    # detectable viral dissemination"), so the macaques the evidence's sentence opens on do not decide alone.
    (
        "Small studies have shown that one bout of the coronavirus seems to protect rhesus macaques from"
        " contracting it again.",
        "Rhesus macaques reinfected with the identical SARS-CoV-2 strain during the early recovery phase of the"
        " initial SARS-CoV-2 infection did not show detectable viral dissemination, clinical manifestations of"
        " viral disease, or histopathological changes.",
    ),
    # A "did" before no verb ("did as well") or after "so" is no emphatic one: the verbs still decide.
    (
        "Hydroxychloroquine patients hospitalized with pneumonia did as well as others .",
        "These results do not support the use of HCQ in patients hospitalised for documented SARS-CoV-2-positive"
        " hypoxic pneumonia.",
    ),
    (
        "Doctors gave HCQ to patients hospitalized less often , and so did nurses .",
        "These results do not support the use of HCQ in patients hospitalised for documented SARS-CoV-2-positive"
        " hypoxic pneumonia.",
    ),
    # A count in a clause of its own before the negation ("when people have not"), or an evidence clause that
    # denies in its own words ("avoided"), says nothing against the count.
    (
        "Models suggest that 40 percent of spreading occurs when people have not shown symptoms .",
        "We estimated that 40 % of secondary cases were infected during the presymptomatic stage .",
    ),
    ("Some 76 percent of the staff had not taken the train .", "Of the staff , 76 % avoided rail travel ."),
    # VitaminC: "not … until 1958" says when, as "after 1958" does.
    (
        "Life peerages were created after 1958 .",
        "life peerages , titles not inherited by sons , were not created until 1958 .",
    ),
]

# A heading in title case keeps its negation: it is no name.
HEADINGS = [("Free threading is enabled by default", "Free Threading Is Not Enabled By Default")]


@pytest.mark.parametrize(("claim_text", "evidence"), HEADINGS)
def test_a_negation_in_a_title_case_heading_still_denies(claim_text: str, evidence: str) -> None:
    assert [f for f in compare_claim(claim_text, evidence) if f.kind is FlagKind.NEGATION_DIFFERS]


@pytest.mark.parametrize(("claim_text", "evidence"), AGREES)
def test_a_paraphrase_that_agrees_is_not_flagged(claim_text: str, evidence: str) -> None:
    assert not [f for f in compare_claim(claim_text, evidence) if f.blocking]


def test_dropped_hedges_and_conditions_are_information() -> None:
    (hedge,) = compare_claim("Revenue rose 5% in 2023", "Revenue rose an estimated 5% in 2023.")
    assert hedge.kind is FlagKind.HEDGE_DROPPED and not hedge.blocking and '"an estimated"' in hedge.message
    (cond,) = compare_claim("The GIL is disabled", "The GIL is disabled unless an extension needs it.")
    assert cond.kind is FlagKind.CONDITION_DROPPED and not cond.blocking and '"unless"' in cond.message
    # Kept by the claim, or said with another hedge of its family: nothing dropped.
    assert compare_claim("Revenue rose about 5% in 2023", "Revenue rose an estimated 5% in 2023.") == ()
    assert compare_claim("The GIL is disabled unless needed", "The GIL is disabled unless an extension needs it.") == ()
    # "May 2024" is a month, and "about" before no number no hedge.
    assert compare_claim("It was released in 2024", "It was released in May 2024.") == ()


def test_spans_land_on_the_page_given_the_evidence_offset() -> None:
    p = corpus_page(WHATSNEW_313)
    at = p.page.text.index(EXPERIMENTAL)
    flags = compare_claim("Free threading is enabled by default", EXPERIMENTAL, at)
    spans = {f.kind: f.span for f in flags}
    assert spans.keys() == {FlagKind.NEGATION_DIFFERS, FlagKind.HEDGE_DROPPED}
    neg, hedge = spans[FlagKind.NEGATION_DIFFERS], spans[FlagKind.HEDGE_DROPPED]
    assert neg is not None and p.page.text[slice(*neg)] == "not enabled"
    assert hedge is not None and p.page.text[slice(*hedge)] == "experimental"


def test_a_claim_saying_the_opposite_of_its_quote_needs_review() -> None:
    # The classic case of issue 22: the quote is on the page and no figure differs, yet it says "not".
    url = "https://docs.python.org/3/whatsnew/3.13.html"
    p = corpus_page(WHATSNEW_313)
    src = source(url, corpus_bytes(WHATSNEW_313))
    result = check_claim(claim("c1", "Free threading is enabled by default", url, EXPERIMENTAL), src, p, Settings())
    assert result.verdict is Verdict.NEEDS_REVIEW
    assert any('"not"' in r and "Free threading is enabled by default" in r for r in result.reasons)
    assert any(r.startswith("The evidence says") and '"experimental"' in r for r in result.reasons)
    assert result.match is not None and {f.kind for f in result.match.flags} >= {
        FlagKind.NEGATION_DIFFERS,
        FlagKind.HEDGE_DROPPED,
    }
    # The same quote with a claim in its words is verified.
    honest = check_claim(claim("c2", EXPERIMENTAL, url, EXPERIMENTAL), src, p, Settings())
    assert honest.verdict is Verdict.VERIFIED


def test_an_offered_passage_carries_its_signs() -> None:
    url = "https://docs.python.org/3/whatsnew/3.13.html"
    p = corpus_page(WHATSNEW_313)
    src = source(url, corpus_bytes(WHATSNEW_313))
    result = check_claim(
        claim("c1", "The experimental free-threaded feature is enabled by default", url), src, p, Settings()
    )
    assert result.verdict is Verdict.NO_QUOTE and result.near_miss is not None
    offered: list[Candidate] = [c for c in result.near_miss.candidates if "not enabled by default" in c.text]
    assert offered, [c.text for c in result.near_miss.candidates]
    signs = offered[0].signs
    assert any(s.kind is FlagKind.NEGATION_DIFFERS for s in signs)
    for s in signs:
        assert s.span is not None and offered[0].start <= s.span[0] < s.span[1] <= offered[0].end


def test_a_long_claim_gives_a_few_flags_of_each_kind() -> None:
    # 5,500 words in one run of clauses: the comparison reads it whole and names the first few places.
    claim_text = " ".join(["the system is not enabled and may not run unless it is"] * 500)
    evidence = " ".join(["the system is enabled and may run if it is"] * 500)
    flags = compare_claim(claim_text, evidence)
    kinds = [f.kind for f in flags]
    assert kinds.count(FlagKind.NEGATION_DIFFERS) == 3
    every(set(kinds), lambda k: kinds.count(k) <= 3)


def test_an_evidence_ending_in_a_negation_word_is_compared() -> None:
    # A VitaminC passage offered first that the sentence rule cut after "No." ("case No. 3"): its last
    # token is a negation word with no token after it to read a hyphen against.
    flags = compare_claim("The father of case 3 tested positive on 13 February", "On 13 February, father of case No.")
    assert FlagKind.NEGATION_DIFFERS not in [f.kind for f in flags]


@pytest.mark.parametrize(
    ("claim_text", "verdict"),
    [
        # "at most 850" says the quote's "no more than 850": one bound, which the figures check holds.
        ("The district had at most 850 confirmed cases by the end of March .", Verdict.VERIFIED),
        # ...while a bound the other way is the figures check's mismatch, and a bare 850 still needs review.
        ("The district had more than 850 confirmed cases by the end of March .", Verdict.FIGURES_MISMATCH),
        ("The district had 850 confirmed cases by the end of March .", Verdict.NEEDS_REVIEW),
    ],
)
def test_a_negated_comparator_against_a_bound_is_left_to_the_figures(claim_text: str, verdict: Verdict) -> None:
    quote = "The district had no more than 850 confirmed cases by the end of March ."
    url = "https://example.org/outbreak"
    body = f"<html><body><h1>Outbreak</h1><p>{quote}</p></body></html>".encode()
    src = source(url, body)
    page = prepare(PageText(text=quote, kind=PageKind.TEXT))
    result = check_claim(claim("c1", claim_text, url, quote), src, page, Settings())
    assert result.verdict is verdict, result.reasons


CBP = "abd9d6291b6b"  # html/aeb: "CBP’s guidelines recommend holding people no longer than 72 hours"


@pytest.mark.parametrize(
    ("claim_text", "verdict"),
    [
        # A negated comparator of length is the same bound as "up to": the figures rules' one list.
        ("CBP’s guidelines recommend holding people for up to 72 hours", Verdict.VERIFIED),
        ("CBP’s guidelines recommend holding people longer than 72 hours", Verdict.FIGURES_MISMATCH),
    ],
)
def test_a_negated_comparator_of_length_is_a_bound_on_a_real_page(claim_text: str, verdict: Verdict, corpus) -> None:
    quote = "CBP’s guidelines recommend holding people no longer than 72 hours"
    (path,) = (CORPUS / "html" / "aeb" / "html").glob(f"{CBP}*.html.gz")
    body = gzip.decompress(path.read_bytes())
    url = "https://example.org/cbp"
    result = check_claim(
        claim("c1", claim_text, url, quote), source(url, body), prepare(extract_html(body, "text/html")), Settings()
    )
    assert result.verdict is verdict, result.reasons
    assert FlagKind.NEGATION_DIFFERS not in [f.kind for f in (result.match.flags if result.match else ())]


def test_each_denied_bound_is_set_against_the_number_counting_its_noun() -> None:
    # VitaminC: "58 Democrats" meets the "more than 57 Democrats" the claim denies, "40 Republicans" the
    # "less than 41 Republicans"; the figures check holds either bound with the other party's number.
    claim_text = "The senate has not more than 57 Democrats and less than 41 Republicans ."
    flags = compare_claim(claim_text, SENATE)
    assert [SENATE[slice(*f.span)] for f in flags if f.kind is FlagKind.NEGATION_DIFFERS and f.span] == ["58", "40"]
    every(flags, lambda f: f.blocking)
    assert '"more than 57"' in flags[0].message and '"58"' in flags[0].message


def test_a_denied_bound_another_number_of_the_quote_holds_needs_review() -> None:
    # VitaminC: the figures check holds "not less than $ 65,000" with the family's "$ 68,672".
    quote = (
        "At the 2000 census , the median income for a household in the city was $ 62,406 , and the median income"
        " for a family was $ 68,672 ."
    )
    url = "https://example.org/carrollton"
    src = source(url, f"<html><body><h1>Carrollton</h1><p>{quote}</p></body></html>".encode())
    page = prepare(PageText(text=quote, kind=PageKind.TEXT))
    claim_text = "At the 2000 census , the median income for a household in the city was not less than $ 65,000 ."
    result = check_claim(claim("c1", claim_text, url, quote), src, page, Settings())
    assert result.verdict is Verdict.NEEDS_REVIEW, result.reasons
    assert any('"less than $ 65,000"' in r and '"$ 62,406"' in r for r in result.reasons), result.reasons
