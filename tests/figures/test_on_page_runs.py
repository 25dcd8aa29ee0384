"""A page's lines that may hold a figure, found line by line in two cheap steps (or by one search from holding
line to holding line), are those the case-blind pattern finds line by line, on corpus pages and at the edges
(empty text, blank lines, a figure on the last line, letters case-blind matching takes for ASCII ones)."""

from __future__ import annotations

import gzip
import re
from dataclasses import replace

import pytest

from core.extract import extract_html
from core.figures import on_page
from core.settings import Settings
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


def _counting(monkeypatch):
    # Each piece the page reading hands to the figures reader, in order.
    pieces: list[str] = []

    def read(piece, comma=False):
        pieces.append(piece)
        return real(piece, comma)

    real = on_page.read_figures
    monkeypatch.setattr(on_page, "read_figures", read)
    on_page._page_read.cache_clear()
    return pieces


def test_a_page_is_read_once_for_the_quoted_check_and_the_unquoted_placement(monkeypatch):
    # A brief with a quoted and an unquoted claim on one page asks for its figures with two budgets.
    text = extract_html(gzip.decompress(PAGES[0].read_bytes()), "text/html").text
    pieces = _counting(monkeypatch)
    first = on_page.read_page_figures(text, 30.0, 8000)
    figs, whole = on_page.page_figures(text, 60.0, Settings())
    assert whole and figs == first and len(first) > 0
    assert pieces == [p for _, p in on_page._runs(text, 8000)]


def test_each_budget_is_spent_once_in_all_on_a_page(monkeypatch):
    # A clock that moves one second a look: each piece costs a second.
    text = extract_html(gzip.decompress(PAGES[0].read_bytes()), "text/html").text
    pieces = _counting(monkeypatch)
    clock = iter(range(1000))
    monkeypatch.setattr(on_page.time, "monotonic", lambda: float(next(clock)))
    assert len(list(on_page._runs(text, 200))) > 4
    _, whole = on_page._read_page(text, 0.0, 200)
    assert (len(pieces), whole) == (1, False)  # one piece at least, then the budget is spent
    on_page._read_page(text, 0.0, 200)
    assert len(pieces) == 1  # a budget spent already reads nothing more
    on_page._read_page(text, 2.5, 200)
    assert len(pieces) == 3  # a larger budget goes on where the reading stopped, up to 2.5 s in all
    assert pieces == [p for _, p in on_page._runs(text, 200)][:3]


def test_a_page_whose_pieces_raised_is_never_said_to_be_read_whole(monkeypatch):
    # A bug in the cutting of the page's text is raised once, and a later call does not take the
    # stopped reading for a whole one (nor read a piece twice).
    text = extract_html(gzip.decompress(PAGES[0].read_bytes()), "text/html").text
    real = on_page._runs

    def runs(text, size):
        pieces = real(text, size)
        yield next(pieces)
        raise ValueError("cut")

    monkeypatch.setattr(on_page, "_runs", runs)
    pieces = _counting(monkeypatch)
    with pytest.raises(ValueError, match="cut"):
        on_page._read_page(text, 60.0, 200)
    _, whole = on_page._read_page(text, 60.0, 200)
    assert (len(pieces), whole) == (1, False)


@pytest.mark.parametrize("path", PAGES[:30], ids=lambda p: p.parent.name + "/" + p.name)
def test_a_page_s_figures_moved_into_place_are_those_replace_makes(path, monkeypatch):
    # Each piece's figures moved to the page's positions by a copy of their fields, as dataclasses.replace
    # moves them: every field alike, spans included (a figure's equality leaves its span out).
    text = extract_html(gzip.decompress(path.read_bytes()), "text/html").text
    on_page._page_read.cache_clear()
    fast = [vars(f) for f in on_page._read_page(text, 60.0, 8000)[0]]
    monkeypatch.setattr(on_page, "shifted", lambda f, o: replace(f, start=f.start + o, end=f.end + o))
    on_page._page_read.cache_clear()
    plain = [vars(f) for f in on_page._read_page(text, 60.0, 8000)[0]]
    assert fast == plain
    later = [o for o, _ in on_page._runs(text, 8000)][1:]
    assert later and any(f["start"] >= later[0] for f in plain), f"{path.name}: no figure past the first piece"
