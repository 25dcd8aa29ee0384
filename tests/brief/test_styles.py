"""Every citation style of real research agents, one row each, read from the corpus deliverables.

Each row names a brief of ``../shared/corpus/briefs/`` (see its README), words of one cited
sentence, the URL its citation resolves to and how the citation is read (``Claim.citation``).
The eval (tests/quality/eval_briefs.py) counts every cited unit; these rows pin one of each style.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.brief import read_brief
from core.models import Brief
from tests.builders import every
from tests.servers import CORPUS

BRIEFS = CORPUS / "briefs"

# (brief, words of the claim, URL, how the citation is read)
STYLES = [
    pytest.param(
        "angrysky56+deep-research-reports/gemini_Elements-Of-A-Great-Story.md",
        "stories function as complex cognitive simulators.",
        "https://www.psychologytoday.com/us/blog/parenting-from-a-neuroscience-perspective/202503/"
        "the-science-of-storytelling-how-fiction",
        "note 3 glued to the text, reference [3] in “Works cited”",
        id="gemini-markdown-glued-number",
    ),
    pytest.param(
        "angrysky56+deep-research-reports/gemini_Hypergraphs-in-AI-and-Advanced-Data-Organization.md",
        "form closed cycles of length",
        "https://web.engr.oregonstate.edu/~zhange/images/Scalable_Hypergraph_Paper_main.pdf",
        "note 4 glued to the text, reference [4] in “Works cited”",
        id="gemini-number-glued-to-a-dropped-image",
    ),
    pytest.param(
        "JiSeok1579+high-na-euv-twin/gemini_high_na_euv_deep_research_report.docx",
        "비대칭 광학계의 도입이 강제된다.",
        "https://www.imec-int.com/en/articles/high-na-euvl-next-major-step-lithography",
        "superscript 6, reference [6] in “참고 자료”",
        id="gemini-docx-superscript-run",
    ),
    pytest.param(
        "Razzleberrytt+hippie-scientist-site/chatgpt_herb-research-0.pdf",
        "it is left unresolved rather than inferred.",
        "https://www.ncbi.nlm.nih.gov/books/NBK548536/?utm_source=chatgpt.com",
        "superscript 1, linked",
        id="chatgpt-pdf-linked-superscript",
    ),
    pytest.param(
        "angrysky56+deep-research-reports/chatgpt_Speculative_Avian-Inspired_AI_Architecture_Blueprint.md",
        "As Dr. García-Moreno explains",
        "https://www.sciencedaily.com/releases/2025/02/250213143301.htm#:~:text=Rewriting%20the%20Evolutionary"
        "%20History%20of,the%20Brain",
        "inline link",
        id="chatgpt-link-after-closing-quote",
    ),
    pytest.param(
        "Ayanami0730+deep_research_bench/claude-3-7-sonnet_id62.md",
        "32 trapped ions.",
        "https://en.wikipedia.org/wiki/Trapped-ion_quantum_computer",
        "reference [1] in “References”",
        id="claude-bracket-marker-url-list",
    ),
    pytest.param(
        "Ayanami0730+deep_research_bench/claude-3-7-sonnet_id20.md",
        "消除了对高可用性长连接的需求",
        "https://deepnewz.com/software/anthropic-introduces-streamable-http-model-context-protocol-enabling-"
        "stateless-b9ffd6f8",
        "reference [2] in “References”",
        id="claude-marker-after-full-width-stop",
    ),
    pytest.param(
        "langchain-ai+open_deep_research/drb_gpt-5_id88.md",
        "rooted in Latin America",
        "https://variety.com/2025/tv/news/netflix-one-hundred-years-of-solitude-shooting-in-colombia-1236278697/",
        "reference [2] in “Sources”",
        id="open-deep-research-adjacent-markers",
    ),
    pytest.param(
        "jiange91+lm_compiler/storm_Hurricane_Hilary_references.md",
        "Southwestern United States",
        "https://www.census.gov/topics/preparedness/events/hurricanes/hilary.html",
        "reference [2] in “References”",
        id="storm-definition-with-link",
    ),
    pytest.param(
        "prometheusWaluigi+ideaFilaments/perplexity_OnePointFiveBitNature.md",
        "trigger ribosomal pausing",
        "https://www.the-scientist.com/expanding-the-genetic-alphabet-72046",
        "footnote [^12]",
        id="perplexity-caret-footnote",
    ),
    pytest.param(
        "bradabrams+deep-research-reports/claude-opus_what_is_rag_report.md",
        "Meta AI, UCL, and NYU",
        "https://arxiv.org/abs/2005.11401",
        "reference [2] in “Sources”",
        id="claude-opus-apa-like-entry",
    ),
    pytest.param(
        "assafelovic+gpt-researcher/permchain_AAPL.pdf",
        "divided each share into four (StockAnalysis.com, 2022).",
        "https://www.stockanalysis.com/stocks/aapl/",
        "author–year (StockAnalysis.com, 2022), reference list entry",
        id="permchain-author-date-url-broken-over-lines",
    ),
    pytest.param(
        "assafelovic+gpt-researcher/deepagent_gptr_carbon_capture.md",
        "in current deployments.",
        "https://www.iea.org/commentaries/unlocking-the-potential-of-direct-air-capture-is-scaling-up-through-"
        "carbon-markets-possible",
        "source line (bare URL)",
        id="gpt-researcher-url-lines-after-sources-label",
    ),
    pytest.param(
        "assafelovic+gpt-researcher/deepagent_baseline_ai_governance.md",
        "manipulative or exploitative",
        "https://eur-lex.europa.eu/eli/reg/2024/1689/oj/eng",
        "source line (bare URL)",
        id="tavily-labelled-url-in-sources-list",
    ),
    pytest.param(
        "assafelovic+gpt-researcher/deepagent_gptr_mrna_vaccines.md",
        "the clearest proof that the platform works outside SARS-CoV-2.",
        "https://www.nejm.org/doi/full/10.1056/NEJMoa2307079",
        "source line (bare URL)",
        id="gpt-researcher-indented-sources-in-list-item",
    ),
]


def _read(rel: str) -> Brief:
    path = BRIEFS / rel
    return read_brief(path.read_bytes(), Path(rel).name)


@pytest.mark.parametrize(("rel", "words", "url", "how"), STYLES)
def test_each_agent_style_gives_the_cited_sentence_its_url(rel: str, words: str, url: str, how: str) -> None:
    brief = _read(rel)
    claims = [c for c in brief.claims if words in c.text and c.url == url]
    assert [c.citation for c in claims] == [how], [(c.text[:80], c.url) for c in brief.claims if words in c.text]


def test_a_glued_note_number_is_not_part_of_the_claim() -> None:
    brief = _read("angrysky56+deep-research-reports/gemini_Elements-Of-A-Great-Story.md")
    (claim,) = [c for c in brief.claims if "cognitive simulators" in c.text]
    assert claim.text == "Evolutionary psychology posits that stories function as complex cognitive simulators."
    assert "3" not in claim.figure_text


def test_a_sentence_with_four_markers_gives_four_claims() -> None:
    brief = _read("langchain-ai+open_deep_research/drb_gpt-5_id88.md")
    claims = [c for c in brief.claims if "rooted in Latin America" in c.text]
    assert [c.citation for c in claims] == [f"reference [{n}] in “Sources”" for n in (1, 2, 3, 4)]


@pytest.mark.parametrize(
    "rel",
    ["bytedance+deer-flow/openai_sora_report.md", "langchain-ai+open_deep_research/arxiv.md"],
    ids=["deerflow-key-citations", "open-deep-research-sources-per-section"],
)
def test_a_closing_list_of_sources_is_no_claim_and_every_link_is_listed(rel: str) -> None:
    brief = _read(rel)
    assert brief.claims == ()
    assert brief.unused_links
    assert {u.reason for u in brief.unused_links} == {"a reference never cited"}
    every(brief.unused_links, lambda u: u.location is not None)


def test_the_chatgpt_pdf_endnote_list_gives_no_claims() -> None:
    brief = _read("Razzleberrytt+hippie-scientist-site/chatgpt_herb-research-0.pdf")
    titles = ("Ashwagandha - LiverTox - NCBI Bookshelf", "Botanical Supplement Fact Sheets")
    assert [c for c in brief.claims if c.text.startswith(titles)] == []
    # The export's own link (a logo, over no words) is listed, not dropped.
    assert [u.reason for u in brief.unused_links if "chatgpt.com" in u.url and "utm_src" in u.url] == [
        "a link over no text on the page (a logo or an image)"
    ]


def test_author_year_labels_without_urls_in_their_entries_are_one_clear_note() -> None:
    brief = _read("angrysky56+deep-research-reports/boundary_conditions_paper.pdf")
    assert brief.claims == ()
    (note,) = [w for w in brief.warnings if w.startswith("Cited by author and year")]
    assert "carry no URL or DOI" in note and "Rosas et al., 2024" in note


def test_each_cited_sentence_keeps_its_own_citation_across_ellipses_and_quoted_sentences() -> None:
    from core.brief import parse_markdown

    brief = parse_markdown(
        "The commission wrote that AI “will transform warfare… and the economy.” ([NSCAI](https://www.nscai.gov/r)) "
        "It added: “The US is not prepared. Nor are its allies.” ([Report](https://example.org/r)) "
        "Both sources agree on the timeline ([A](https://a.example/x)) ([B](https://b.example/y)).\n"
    )
    assert [(c.url, c.quote) for c in brief.claims] == [
        ("https://www.nscai.gov/r", "will transform warfare… and the economy."),
        ("https://example.org/r", "The US is not prepared. Nor are its allies."),
        ("https://a.example/x", None),
        ("https://b.example/y", None),
    ]
