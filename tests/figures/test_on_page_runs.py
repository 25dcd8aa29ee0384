"""A page's lines that may hold a figure, found line by line in two cheap steps (or by one search from holding
line to holding line), are those the case-blind pattern finds line by line, on corpus pages and at the edges
(empty text, blank lines, a figure on the last line, letters case-blind matching takes for ASCII ones)."""

from __future__ import annotations

import gzip
import re

import pytest

from core.extract import extract_html
from core.figures import on_page
from tests.servers import CORPUS

PAGES = sorted((CORPUS / "html").rglob("*.html.gz"))[:60]


def _line_by_line(text: str) -> list[tuple[int, int]]:
    # The plain reading: every line tested on its own.
    out, start = [], 0
    while start <= len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        if on_page._MAY_HOLD.search(text, start, end):
            out.append((start, end))
        start = end + 1
    return out


EDGES = ["", "\n", "5\n\n6", "prose\n5 cases\nprose\n\nseventy", "no figure here", "1\n\n\n"]
# Letters case-blind matching takes for ASCII ones, in words a figure is read from; capitals; other scripts' digits.
EDGES += [
    "the \u017fecond\nprose",
    "tw\u0130ce as many",
    "a th\u0131rd of them",
    "one la\u212ah",
    "FIFTY Years",
    "\u0665 cases",
]


@pytest.mark.parametrize("cheap", [True, False], ids=["line-lowered", "pattern-alone"])
@pytest.mark.parametrize("text", EDGES)
def test_the_holding_lines_at_the_edges(text, cheap, monkeypatch):
    if not cheap:
        monkeypatch.setattr(on_page, "_WORDS", None)  # a pattern of more than literal words decides alone
    assert list(on_page._holding_lines(text)) == _line_by_line(text)


def test_the_line_test_uses_its_cheap_steps():
    # The literal words of vocab.MAY_HOLD_FIGURE are tested on the line lowered, not by the case-blind pattern.
    assert on_page._WORDS is not None


def test_only_the_four_letters_the_pattern_takes_for_ascii_ones_are_made_ascii():
    # Lowering (after the four are made ASCII) gives an ASCII letter exactly where case-blind matching finds one.
    letter = re.compile("[a-z]", re.IGNORECASE)
    for code in range(128, 0x110000):
        c = chr(code)
        lowered = c.translate(on_page._AS_ASCII).lower()
        assert (letter.fullmatch(c) is not None) == any("a" <= x <= "z" for x in lowered), hex(code)


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.parent.name)
def test_the_holding_lines_of_a_corpus_page_are_the_line_by_line_ones(path):
    text = extract_html(gzip.decompress(path.read_bytes()), "text/html").text
    lines = list(on_page._holding_lines(text))
    assert lines == _line_by_line(text)
    assert lines, f"{path.parent.name} has no line with a figure: the comparison would prove nothing"
