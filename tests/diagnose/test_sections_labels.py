"""A page's section labels, the pattern tried only on the run before each colon, are those the pattern finds
tried at every character: on 120 corpus pages (two thousand labels) and at the edges (white space runs, letters
case-blind matching takes for ASCII ones, colons back to back, labels past the end read)."""

from __future__ import annotations

import gzip

import pytest

from core.diagnose import sections
from core.extract import extract_html
from tests.servers import CORPUS

PAGES = sorted((CORPUS / "html").rglob("*.html.gz"))[:120]
EDGES = [
    "Results: x",
    "abstract  \n  RESULTS: y",
    "\u017fcope: a",  # "ſ", case-blind an "s"
    "\u212aey findings: b",  # the Kelvin sign, case-blind a "k"
    "\u0130nterpretation, and Results:",
    "x. Methods:\n\nMethods : z",
    "   \n\n\t  Background:",
    "Design, Setting, and Participants: yes",
    "BACKGROUND:OBJECTIVE:METHODS:",
    "(see below) Funding: none",
    "Cost: 5. Aims : a",
]


def _both(text: str, end: int) -> tuple[list, list]:
    plain = [(m.span(), m.group(1)) for m in sections._LABEL.finditer(text, 0, end)]
    return [(m.span(), m.group(1)) for m in sections._labels(text, end)], plain


@pytest.mark.parametrize("text", EDGES)
def test_an_edge_s_labels_are_those_of_the_pattern_at_every_character(text):
    fast, plain = _both(text, sections._SECTION_MAX_CHARS)
    assert fast == plain
    assert plain, f"{text!r} holds no label: the comparison would prove nothing"
    short, short_plain = _both(text, 12)  # a label past the end read is none, either way
    assert short == short_plain


@pytest.mark.parametrize("text", [": x", "a:b:c", "no colon at all", ""])
def test_a_text_without_a_label_has_none_either_way(text):
    assert _both(text, sections._SECTION_MAX_CHARS) == ([], [])


def test_the_corpus_pages_labels_are_those_of_the_pattern_at_every_character():
    found = 0
    for path in PAGES:
        text = extract_html(gzip.decompress(path.read_bytes()), "text/html").text
        for end in (sections._SECTION_MAX_CHARS, len(text) // 2):
            fast, plain = _both(text, end)
            assert fast == plain, path.parent.name
            found += len(plain)
    assert found > 500, f"only {found} labels on {len(PAGES)} pages: the comparison proves little"
