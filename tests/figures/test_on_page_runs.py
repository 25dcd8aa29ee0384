"""A page's lines that may hold a figure, found by one search from holding line to holding line, are those a
line-by-line test finds, on corpus pages and at the edges (empty text, blank lines, a figure on the last line)."""

from __future__ import annotations

import gzip

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


@pytest.mark.parametrize("text", ["", "\n", "5\n\n6", "prose\n5 cases\nprose\n\nseventy", "no figure here", "1\n\n\n"])
def test_the_holding_lines_at_the_edges(text):
    assert list(on_page._holding_lines(text)) == _line_by_line(text)


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.parent.name)
def test_the_holding_lines_of_a_corpus_page_are_the_line_by_line_ones(path):
    text = extract_html(gzip.decompress(path.read_bytes()), "text/html").text
    lines = list(on_page._holding_lines(text))
    assert lines == _line_by_line(text)
    assert lines, f"{path.parent.name} has no line with a figure: the comparison would prove nothing"
