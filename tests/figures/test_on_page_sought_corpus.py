"""On real pages, a claim figure looked for only where it may be is placed exactly as reading every piece places it.

``core.figures.page`` tells ``core.figures.on_page`` what a piece must hold to hold a claim figure
(``Sought``), so that most of a page is never read for it. That filter mirrors the figures reader;
this test holds it to the reader on real pages: the readability corpus's pages (news, blogs,
documentation), each sentence holding a digit made a claim as an agent cites it, as written and
with its first number changed (the figure then stands elsewhere or nowhere), against the page's
first sentence as the passage offered. Every figure's status, place, reason and spans must be the
same with the filter as with every piece read.
"""

from __future__ import annotations

import gzip
import re

import pytest

import core.figures.page as page_module
from core.extract import extract_html
from core.figures import on_page
from core.figures.page import place_figures
from core.models import Candidate, FigureCheck, FigureStatus, PageText
from core.settings import Settings
from core.text import split_sentences
from tests.servers import CORPUS

PAGES = 40
PER_PAGE = 8
_NUMBER = re.compile(r"(?<![\d.])(\d+)(?![\d.])")


def _cases() -> list[tuple[str, PageText, Candidate, list[str]]]:
    folders = sorted(p for p in (CORPUS / "html/readability").iterdir() if (p / "source.html.gz").is_file())
    out = []
    for folder in folders[:PAGES]:
        page = extract_html(gzip.decompress((folder / "source.html.gz").read_bytes()), "text/html")
        spans = [(a, b) for a, b in split_sentences(page.text) if 20 <= b - a <= 300]
        if len(spans) < 2:
            continue
        first = Candidate(text=page.text[spans[0][0] : spans[0][1]], start=spans[0][0], end=spans[0][1], score=1.0)
        said = [page.text[a:b] for a, b in spans[1:] if any(c.isdigit() for c in page.text[a:b])][:PER_PAGE]
        claims = [" ".join(s.split()) for s in said]
        claims += [_NUMBER.sub(lambda m: str(int(m.group(1)) + 7), c, count=1) for c in claims]
        out.append((folder.name, page, first, claims))
    return out


def _placed(check: FigureCheck) -> list[tuple[object, ...]]:
    return [(f.text, f.status, f.where, f.reason, f.elsewhere, f.around, f.instead) for f in check.figures]


def test_the_filtered_reading_places_every_figure_as_reading_every_piece(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = Settings(figures_page_budget_seconds=60.0)  # no page stops at the budget: both readings are whole
    cases = _cases()
    filtered = []
    for _name, page, first, claims in cases:
        on_page._page_read.cache_clear()
        filtered.append([_placed(place_figures(c, [first], page, settings)) for c in claims])
    monkeypatch.setattr(page_module, "_sought", lambda c, s: None)  # every piece read for every figure
    whole = []
    for _name, page, first, claims in cases:
        on_page._page_read.cache_clear()
        whole.append([_placed(place_figures(c, [first], page, settings)) for c in claims])
    placed = [f for per_page in whole for check in per_page for f in check]
    assert len(cases) >= PAGES // 2 and len(placed) > 500, (len(cases), len(placed))
    # The changed numbers make some figures stand elsewhere or nowhere: the filter is put to work.
    assert {FigureStatus.MATCHED, FigureStatus.MISSING} <= {f[1] for f in placed}, {f[1] for f in placed}
    for (name, _page, _first, claims), a, b in zip(cases, filtered, whole, strict=True):
        for claim, x, y in zip(claims, a, b, strict=True):
            assert x == y, (name, claim, x, y)
