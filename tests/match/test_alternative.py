"""A PDF's line ends read the other way (core/match/alternative.py, core/extract/pdf_lines.py), on real corpus PDFs.

Each rule has a quote from a real PDF that is found only with it, and a false quote it must not let through.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pymupdf
import pytest

import core.extract.pdf as pdf_module
from core.extract.pdf import extract_pdf
from core.extract.pdf_lines import Vocabulary
from core.match import match_quote, prepare
from core.models import FlagKind, PageKind, PageText
from core.pagecache import page_from_json, page_to_json
from tests.servers import CORPUS

PDF = CORPUS / "pdf"


def _page(path: Path) -> PageText:
    page = extract_pdf(path.read_bytes())
    assert isinstance(page, PageText), page
    return page


@pytest.fixture(scope="module")
def arxiv() -> PageText:
    return _page(PDF / "gold" / "teaching-lm-reason.pdf")


@pytest.fixture(scope="module")
def patent() -> PageText:
    return _page(PDF / "gold" / "pet-display-patent.pdf")


@pytest.fixture(scope="module")
def ieee() -> PageText:
    return _page(PDF / "papers" / "pdfminer__ieee-tifs-paper__issue-1061.pdf")


def _without_alternatives(page: PageText) -> PageText:
    return replace(page, line_ends=())


@pytest.mark.parametrize(
    ("quote", "page_has"),
    [
        # Copied from a PDF viewer, the quote keeps the syllable hyphen the extractor dropped.
        ("transfer of such reasoning capabilities to smaller mod- els via knowledge distillation", "smaller models"),
        # The extractor read "in-/depth" as a syllable break; the page means "in-depth".
        ("we present a more in-depth exploration on more datasets", "more indepth exploration"),
        # "AI-/generated" joined into "Aigenerated".
        ("Ai- generated text as a tool of media misinformation", "Aigenerated text"),
    ],
)
def test_a_hyphen_line_end_read_the_other_way_finds_the_quote(arxiv: PageText, quote: str, page_has: str) -> None:
    assert page_has in arxiv.text
    assert not match_quote(quote, prepare(_without_alternatives(arxiv))).found
    match = match_quote(quote, prepare(arxiv))
    assert match.found and not match.blocking, match
    span = match.fragments[0].span
    assert span is not None
    # The highlight lands on the page's own characters, as the extractor wrote them.
    assert page_has in arxiv.text[span[0] : span[1]]
    text = arxiv.text
    assert not text[span[0] - 1].isalnum() and text[span[0]].isalnum() and not text[span[1]].isalnum()
    assert match.occurrences[0].span == span


def test_a_join_the_document_attests_is_found_without_a_flag(patent: PageText) -> None:
    # The OCR layer lost the hyphen of "passage-/ways"; the patent writes "passageways" 14 times.
    quote = "so that pets traversing the passageways or tunnels can be viewed by a spectator"
    assert "passage ways" in patent.text
    assert not match_quote(quote, prepare(_without_alternatives(patent))).found
    match = match_quote(quote, prepare(patent))
    assert match.found and not match.blocking, match.flags


def test_a_join_only_a_hyphen_losing_layer_suggests_is_found_but_flagged(patent: PageText) -> None:
    quote = "the above are intended for relatively large pets, such as cats and small dogs"
    match = match_quote(quote, prepare(patent))
    assert match.found
    flags = [f for f in match.flags if f.kind is FlagKind.LINE_END_JOIN]
    assert [f.blocking for f in flags] == [True]
    assert flags[0].page_words == "rela tively"
    assert flags[0].span is not None and patent.text[flags[0].span[0] : flags[0].span[1]] == "rela tively"
    assert flags[0].message.startswith('The quote reads "relatively" where the PDF has "rela" at a line end')


def test_two_rare_words_run_together_are_never_verified(patent: PageText) -> None:
    # "very" / "limited" stand at a line end of the same hyphen-losing layer: a false quote
    # that runs them together is found at most with the blocking flag.
    assert "very limited" in patent.text
    match = match_quote("provide only verylimited pet display in particular", prepare(patent))
    assert not match.found or match.blocking


def test_two_words_of_the_document_are_never_joined_at_a_line_end(ieee: PageText) -> None:
    # "data" / "sets" at a line end of the paper, both words it writes: "datasets" is not its reading.
    assert "for all data sets D1 and D2" in ieee.text
    assert match_quote("for all data sets D1 and D2 that differ", prepare(ieee)).found
    assert not match_quote("for all datasets D1 and D2 that differ", prepare(ieee)).found
    # Nor is a hyphen it kept between two of its words ("data-/dependent") read away.
    assert "a data-dependent noise" in ieee.text
    assert not match_quote("but a datadependent noise may still permit accurate results", prepare(ieee)).found


def test_only_a_layer_without_hyphens_counts_as_one_that_lost_them() -> None:
    def vocabulary(path: Path) -> Vocabulary:
        with pymupdf.open(path) as doc:
            return Vocabulary([b.lines for page in doc for b in pdf_module._blocks_of(page)])

    assert vocabulary(PDF / "gold" / "pet-display-patent.pdf").lost_hyphens
    assert not vocabulary(PDF / "gold" / "teaching-lm-reason.pdf").lost_hyphens
    # A ragged-right press release has no hyphens either, and no line end the document shows to be one word.
    assert not vocabulary(PDF / "gold" / "kroger-press-release-2023.pdf").lost_hyphens


def test_a_quote_found_on_the_page_or_a_page_without_line_ends_builds_no_alternative(arxiv: PageText) -> None:
    prepared = prepare(arxiv)
    assert match_quote("we explore the transfer of such reasoning capabilities", prepared).found
    assert prepared.alternative is None
    html = prepare(PageText(text="A page of the web with no line ends at all, said twice.", kind=PageKind.HTML))
    assert not match_quote("A page of the web with line ends", html).found
    assert html.alternative is None


def test_line_ends_survive_the_page_cache(patent: PageText) -> None:
    again = page_from_json(page_to_json(patent))
    assert isinstance(again, PageText)
    assert again.line_ends == patent.line_ends and patent.line_ends


def test_the_prepared_page_does_not_import_its_alternative_readings() -> None:
    # core.match.alternative imports core.match.page; the page's slot for the readings names no type of it,
    # not even for the type checker, so that the two modules form no import circle.
    import ast
    from pathlib import Path

    import core.match.page

    tree = ast.parse(Path(core.match.page.__file__).read_text(encoding="utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "core.match.alternative" not in imported
