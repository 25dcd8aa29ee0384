"""Bad reference lists and markers: each gives a clear note, never a crash, never a silent drop.

Built on sentences of the corpus's Gemini and Claude deliverables (``../shared/corpus/briefs/``):
a list that numbers an entry twice, a marker with no entry, a list without URLs, a 10,000-entry
bibliography, markers inside code blocks and tables, numbers that are figures and not notes.
"""

from __future__ import annotations

import csv
import io
import json

import pytest

from core.brief import parse_markdown
from core.models import Report, SourceStatus, Verdict
from core.report import from_json, to_csv, to_html, to_json
from core.report.as_docx import comment_text
from tests.builders import claim, report, result, source

SIMULATORS = "Evolutionary psychology posits that stories function as complex cognitive simulators"
WORKS_CITED = (
    "#### **Works cited**\n\n"
    "1. Narratology (literary theory) - EBSCO, [https://www.ebsco.com/research-starters/narratology]"
    "(https://www.ebsco.com/research-starters/narratology)  \n"
    "2. The evolution of stories - PMC, [https://pmc.ncbi.nlm.nih.gov/articles/PMC5763351/]"
    "(https://pmc.ncbi.nlm.nih.gov/articles/PMC5763351/)  \n"
    "3. The Science of Storytelling | Psychology Today, [https://www.psychologytoday.com/us/blog/x]"
    "(https://www.psychologytoday.com/us/blog/x)  \n"
)


def test_a_marker_with_no_entry_says_which_number_and_keeps_the_sentence() -> None:
    brief = parse_markdown(
        "The largest system was 32 trapped ions. [12]\n\nFidelity reached 99.9%. [1]\n\n"
        "[1] https://en.wikipedia.org/wiki/Trapped-ion_quantum_computer - Trapped-ion quantum computer\n"
    )
    assert [c.url for c in brief.claims] == ["https://en.wikipedia.org/wiki/Trapped-ion_quantum_computer"]
    assert brief.uncited == ("The largest system was 32 trapped ions. [12]",)
    (note,) = [w for w in brief.warnings if "[12]" in w]
    assert note.startswith("Cited as [12], but the reference list has no entry 12")


def test_a_number_listed_twice_is_noted_and_the_first_entry_used() -> None:
    brief = parse_markdown(
        "The largest system was 32 trapped ions. [1]\n\n"
        "[1] https://en.wikipedia.org/wiki/Trapped-ion_quantum_computer - Trapped-ion quantum computer\n"
        "[1] https://www.nature.com/articles/s41467-022-35285-3 - A quantum matter-link\n"
    )
    assert [c.url for c in brief.claims] == ["https://en.wikipedia.org/wiki/Trapped-ion_quantum_computer"]
    assert any("two entries [1]" in w for w in brief.warnings)
    # The second entry is no claim, and its link is listed as cited by nothing.
    assert [u.url for u in brief.unused_links] == ["https://www.nature.com/articles/s41467-022-35285-3"]


def test_a_reference_list_without_urls_is_noted() -> None:
    brief = parse_markdown(
        f"{SIMULATORS}.3\n\n#### **Works cited**\n\n1. Narratology (literary theory) - EBSCO\n"
        "2. The evolution of stories - PMC\n3. The Science of Storytelling | Psychology Today\n"
    )
    assert brief.claims == ()
    assert any("entry 3" in w and "holds no URL" in w for w in brief.warnings)


@pytest.mark.parametrize(
    "sentence",
    [
        "Revenue grew 2.1 percent in the quarter.",
        "The interpreter shipped as Python 3.12.1.",
        "The report was published in 2024.",
        "Plants fix atmospheric CO2.",
        "Dilute urine 1:10 for tender plants.",
        "Aim for a C:N ratio of approximately 44:1 in the pile.",
    ],
)
def test_figures_are_never_read_as_glued_notes(sentence: str) -> None:
    brief = parse_markdown(f"{sentence}\n\n{SIMULATORS}.3\n\n{WORKS_CITED}")
    assert [c.text for c in brief.claims] == [f"{SIMULATORS}."]
    assert sentence in brief.uncited


def test_glued_numbers_are_not_read_when_the_brief_uses_bracket_markers() -> None:
    brief = parse_markdown(f"{SIMULATORS} [3].\n\nThe study ran over 12 weeks in phase2.\n\n{WORKS_CITED}")
    assert [c.citation for c in brief.claims] == ["reference [3] in “Works cited”"]


def test_markers_and_links_in_code_blocks_are_no_claims_and_are_listed() -> None:
    brief = parse_markdown(
        f"{SIMULATORS}.3\n\n```python\nedge[2] = weights[1]  # see https://example.org/code\n```\n\n{WORKS_CITED}"
    )
    assert [c.text for c in brief.claims] == [f"{SIMULATORS}."]
    code = [u for u in brief.unused_links if u.url == "https://example.org/code"]
    assert [u.reason for u in code] == ["a link inside a code block"]


def test_markers_in_table_cells_cite_their_cell() -> None:
    brief = parse_markdown(
        "| Use case | Result |\n|---|---|\n| Customer support chatbot | 28.6% faster resolution [1] |\n\n"
        "## Sources\n\n[1] https://www.evidentlyai.com/blog/rag-examples - RAG examples\n"
    )
    assert [(c.text, c.citation) for c in brief.claims] == [
        ("28.6% faster resolution [1]", "reference [1] in “Sources”")
    ]


def test_a_10000_entry_bibliography_is_read_and_every_entry_listed() -> None:
    entries = "".join(f"[{n}] https://example.org/paper/{n} - Paper {n}\n" for n in range(1, 10_001))
    brief = parse_markdown(f"The largest system was 32 trapped ions. [7]\n\n## References\n\n{entries}")
    assert [c.url for c in brief.claims] == ["https://example.org/paper/7"]
    assert len(brief.unused_links) == 9_999


def test_one_bad_marker_does_not_sink_the_other_claims() -> None:
    brief = parse_markdown(f"{SIMULATORS} [99].\n\nThe answer lies in the narrative framework [2].\n\n{WORKS_CITED}")
    assert [c.url for c in brief.claims] == ["https://pmc.ncbi.nlm.nih.gov/articles/PMC5763351/"]
    assert any("no entry 99" in w for w in brief.warnings)


def test_unused_links_and_citations_survive_the_json_report_and_stay_escaped_in_html() -> None:
    brief = parse_markdown(
        f"{SIMULATORS}.3\n\n#### **Works cited**\n\n1. <script>alert(1)</script> "
        "[https://evil.example/x](https://evil.example/x)\n3. Psychology Today, [x](https://www.psychologytoday.com/x)\n"
    )
    report = _unread(brief)
    data = to_json(report)
    assert data["claims"][0]["citation"] == "note 3 glued to the text, reference [3] in “Works cited”"
    assert [u["url"] for u in data["unused_links"]] == ["https://evil.example/x"]
    back = from_json(json.loads(json.dumps(data)))
    assert back.unused_links == report.unused_links
    assert back.results[0].claim.citation == report.results[0].claim.citation
    html = to_html(report)
    assert "<script>alert(1)</script>" not in html
    assert "https://evil.example/x: a reference never cited" in html
    rows = list(csv.reader(io.StringIO(to_csv(report))))
    column = rows[0].index("citation")
    assert rows[1][column] == "note 3 glued to the text, reference [3] in “Works cited”"
    assert "Citation read as: note 3 glued to the text" in comment_text(report.results[0])


def _unread(brief: object) -> Report:
    """Return the report of a brief whose sources were not read (no network in tests)."""
    results = [
        result(c, Verdict.NOT_CHECKED, ("Not fetched in this test.",), source(c.url, status=SourceStatus.NOT_CHECKED))
        for c in brief.claims  # type: ignore[attr-defined]
    ]
    return report(*results, unused_links=brief.unused_links)  # type: ignore[attr-defined]


def test_a_report_written_before_citations_were_recorded_still_reads() -> None:
    one = claim("c1", "Python 3.12 shipped.", "https://docs.python.org/3/whatsnew/3.12.html", citation="inline link")
    data = to_json(report(result(one, Verdict.NO_QUOTE, ("No quote.",), source(one.url))))
    for written in data["claims"]:
        del written["citation"]
    del data["unused_links"]
    back = from_json(data)
    assert back.unused_links == ()
    assert {r.claim.citation for r in back.results} == {""}


def test_author_year_and_key_labels_resolve_through_a_list_with_dois() -> None:
    brief = parse_markdown(
        "Stories work as cognitive simulators (Oatley et al., 2016). Gossip replaced grooming [Dun04].\n\n"
        "## References\n\n"
        "- Oatley, K., Dunbar, R. (2016). Fiction and social networks. doi:10.1037/ebs0000397\n"
        "- [Dun04] Dunbar, R. (2004). Gossip in evolutionary perspective. https://doi.org/10.1037/1089-2680.8.2.100\n"
    )
    assert [(c.url, c.citation) for c in brief.claims] == [
        ("https://doi.org/10.1037/ebs0000397", "author–year (Oatley et al., 2016), reference list entry"),
        ("https://doi.org/10.1037/1089-2680.8.2.100", "author–year (Dun04), reference list entry"),
    ]


def test_a_name_and_year_in_a_numbered_brief_is_no_citation() -> None:
    brief = parse_markdown(
        "GraphRAG (Microsoft, 2024) links entities [1].\n\n## Sources\n\n"
        "[1] https://arxiv.org/abs/2404.16130 - From local to global\n"
        "[2] Microsoft. (2024). GraphRAG. https://microsoft.github.io/graphrag/\n"
    )
    assert [c.citation for c in brief.claims] == ["reference [1] in “Sources”"]


def test_superscript_digits_are_notes_and_exponents_stay_figures() -> None:
    brief = parse_markdown(f"{SIMULATORS}.³ The plot covers 5 km² of land. Yields rose 10⁶ fold.\n\n{WORKS_CITED}")
    assert [(c.text, c.citation) for c in brief.claims] == [
        (f"{SIMULATORS}.", "superscript 3, reference [3] in “Works cited”")
    ]
    assert brief.uncited == ("The plot covers 5 km² of land.", "Yields rose 10⁶ fold.")
