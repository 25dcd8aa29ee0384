"""One text layer: the matcher, the diagnosis and the brief reader see the same tokens and breaks.

Each row is text as a corpus page has it (``../shared/corpus/html/<source>``, checked below),
with the sentences every reader must cut it into and a few tokens the matcher must read. The
matcher's view is ``core.match.prepare`` (its tokens and its page breaks), the diagnosis's is
its page index and its reading of a quote, the brief reader's is ``split_sentences``. Before
the text layer was one, the diagnosis broke after "Mr." and "Oct." and read a run of CJK
characters as one token; the brief reader had an abbreviation list of its own.
"""

from __future__ import annotations

import functools
import gzip
import unicodedata
from dataclasses import dataclass

import pytest

from core.diagnose.page_index import page_index
from core.diagnose.words import quote_words
from core.extract import extract_html
from core.match import PreparedPage, prepare
from core.models import PageKind, PageText
from core.text import split_sentences
from tests.servers import CORPUS

AEB = "aeb/html/"


@dataclass(frozen=True)
class Row:
    """Real text, where it comes from, the sentences it holds and tokens the matcher reads in it."""

    case: str
    source: str  # a page under ../shared/corpus/html/, or where the text comes from otherwise
    sentences: tuple[str, ...]
    tokens: tuple[str, ...] = ()  # a run of consecutive tokens the matcher must read
    nfd: bool = False  # the page's text decomposed (NFD), as some systems store and copy it
    gap: str = " "  # what stands between the sentences: nothing in scripts written without spaces

    @property
    def text(self) -> str:
        text = self.gap.join(self.sentences)
        return unicodedata.normalize("NFD", text) if self.nfd else text


ROWS = [
    Row(
        "abbreviations Mr. and Oct.",
        AEB + "702d1da63b8e064cb70617620e45c2d116b4912c9bc9d518dcf5ce54bb8057ed.html.gz",
        (
            "The president announced the Phase 1 trade deal during a meeting in the Oval Office with Liu He, "
            "China’s top trade negotiator.",
            "While Mr. Trump canceled an increase in tariffs planned for Oct. 15, he made no mention of rolling "
            "back any levies.",
        ),
        ("while", "mr", "trump"),
    ),
    Row(
        "acronym U.S. before a capital",
        AEB + "06e5123e4ef7cfb4533250dc45d1e03d0838fc66223f45c583c4d12f48b4da85.html.gz",
        (
            "Bloomberg News reported on Friday that WeWork is facing scrutiny from the U.S. Securities and Exchange "
            "Commission over whether it violated financial rules as it sought its public listing.",
            "WeWork declined to comment on the report.",
        ),
        ("the", "us", "securities"),
    ),
    Row(
        "ranks Lt. Col.",
        AEB + "87bf60570e6e2e33cb1f0fdb5600d6c85012e60be25ba6fa587b8f90eb9a3770.html.gz",
        (
            "including Ambassador William Taylor, Lt. Col. Alexander Vindman, Deputy Assistant Secretary of State "
            "George Kent, and former U.S. Ambassador to Ukraine Marie Yovanovitch.",
        ),
        ("lt", "col", "alexander"),
    ),
    Row(
        "title Dr.",
        AEB + "bd673bd7988144f0ab7b9c5e19fed140fb5aaa30d8894cb045b72d3b79a7dc54.html.gz",
        (
            "His general practitioner ordered a chest X-ray, which was considered to be normal.",
            "But when Dr. Owen Dempsey, a pulmonologist at the Aberdeen Royal Infirmary in the UK, took a look, he "
            "disagreed and performed a more detailed CT scan.",
        ),
        ("dr", "owen", "dempsey"),
    ),
    Row(
        "e.g. in brackets",
        "python/peps/pep-0008.html",
        (
            "Extra blank lines may be used (sparingly) to separate groups of related functions.",
            "Blank lines may be omitted between a bunch of related one-liners (e.g. a set of dummy implementations).",
        ),
        ("eg", "a", "set"),
    ),
    Row(
        "e.g. before a capital",
        "python/peps/pep-0594.html",
        (
            "This PEP proposed a list of standard library modules to be removed from the standard library.",
            "The modules are mostly historic data formats (e.g. Commodore and SUN file formats), APIs and operating "
            "systems that have been superseded a long time ago (e.g. Mac OS 9), or modules that have security "
            "implications and better alternatives (e.g. password and login).",
        ),
        ("eg", "commodore"),
    ),
    Row(
        "initials W. M. Keck",
        AEB + "14cc2a0ca59c62a8c9f205a171e9ccf4ef4cf69b0c642f51c8c65c051b39024f.html.gz",
        (
            "Out of 17 observations by the W. M. Keck Observatory in Hawaii, which uses a spectrograph to detect the "
            "chemical compositions of other planets' atmospheres by scanning the infrared light they release or "
            "absorb, the scientists only spotted water vapor in one.",
        ),
        ("the", "w", "m", "keck"),
    ),
    Row(
        "initials A. G. Sulzberger",
        AEB + "f5c90a6d5253c3a21ff3168c64bea4b5ffade7a1ba5bed952a59ebee0d648d98.html.gz",
        ("he's challenged New York Times publisher A. G. Sulzberger to a public debate",),
        ("publisher", "a", "g", "sulzberger"),
    ),
    Row(
        "versions 3.4.7 and 3.5.4",
        "python/whatsnew/3.12.html",
        (
            "The smtpd module has been removed according to the schedule in PEP 594, having been deprecated in "
            "Python 3.4.7 and 3.5.4.",
            "Use the aiosmtpd PyPI module or any other asyncio-based server instead.",
        ),
        ("python", "3.4.7", "and", "3.5.4"),
    ),
    Row(
        "version 3.12.0a4",
        "python/peps/pep-0703.html",
        (
            "The nogil-3.12 is based on Python 3.12.0a4.",
            "It is useful for evaluating single-threaded execution overhead and as a reference implementation for "
            "this PEP.",
        ),
        ("python", "3.12.0a4", "it"),
    ),
    Row(
        "decimals 3.12 and 3.11",
        "python/whatsnew/3.12.html",
        (
            "This article explains the new features in Python 3.12, compared to 3.11.",
            "Python 3.12 was released on October 2, 2023.",
            "For full details, see the changelog.",
        ),
        ("python", "3.12", "was"),
    ),
    Row(
        "decimal 26.6",
        "readability/ars-1/source.html.gz",
        (
            "And this isn’t even the theoretical maximum for this attack.",
            "Just the nbt data for this payload is 26.6 megabytes.",
        ),
        ("is", "26.6", "megabytes"),
    ),
    Row(
        "grouping commas 1,786,300",
        "readability/nytimes-3/source.html.gz",
        (
            "transportation officials have compiled the number of potholes the city has filled — more than "
            "1,786,300 — since Mayor Bill de Blasio took office in 2014.",
        ),
        ("than", "1786300", "since"),
    ),
    Row(
        "Indian grouping 1,29,940",
        # No corpus page writes Indian grouping; DESIGN.md's own example, as tests/match/test_matcher.py writes it.
        "DESIGN.md, Matching rules",
        ("Sales reached 1,29,940 units, up from 1,5 lakh; the price was 2,499.50 rupees.",),
        ("reached", "129940", "units"),
    ),
    Row(
        "Japanese, 。 between sentences",
        "readability/yahoo-4/source.html.gz",
        (
            "正規事業者が提供する安全性の高いフリーWi-Fiのほかにも、通信を暗号化していない安全性の低いフリーWi-Fi、"
            "さらにはサイバー犯罪者が設置したフリーWi-Fiなどさまざまなものが混在している。",
            "また、利用者は、接続する前にひとつひとつ安全性を確認するのは難しい状況だとしている。",
        ),
        ("混", "在", "し", "て", "い", "る", "ま", "た"),
        gap="",
    ),
    Row(
        "Arabic",
        "wikipedia/ar-Mathematics.html.gz",
        (
            "تعرف الرياضيات بأنها دراسة القياس والحساب والهندسة.",
            "هذا بالإضافة إلى المفاهيم الحديثة نسبياً ومنها البنية، الفضاء أو الفراغ، والتغير والأبعاد.",
        ),
        ("والهندسة", "هذا"),
    ),
    Row(
        "Arabic abbreviation ق. م",
        "wikipedia/ar-Mathematics.html.gz",
        ("الرياضياتي اليوناني إقليدس في القرن الثالث ق. م، كما تخيله رفائيل في لوحته المعروفة بمدرسة أثينا",),
        ("ق", "م", "كما"),
    ),
    Row(
        "decomposed accents (NFD)",
        "readability/la-nacion/source.html.gz",
        (
            "La protesta social es indisociable de la democracia.",
            "Cuando desborda, recanalizarla es más eficiente que reprimirla: ahí reside el arte del acuerdo.",
        ),
        ("es", "más", "eficiente"),
        nfd=True,
    ),
]
IDS = [r.case for r in ROWS]
ON_PAGES = [r for r in ROWS if r.source.endswith((".html", ".gz"))]


@functools.cache
def page_text(source: str) -> str:
    """Return a corpus page's text as the checker extracts it."""
    data = (CORPUS / "html" / source).read_bytes()
    return extract_html(gzip.decompress(data) if source.endswith(".gz") else data).text


@functools.cache
def prepared(text: str) -> PreparedPage:
    return prepare(PageText(text=text, kind=PageKind.TEXT))


def sentence_breaks(row: Row) -> set[int]:
    """Return the token indices the row's sentences start at, the first left out."""
    p = prepared(row.text)
    starts = [p.ostarts[k] for k in range(len(p.words))]
    out, pos = set(), 0
    for sentence in row.sentences:
        pos = row.text.index(unicodedata.normalize("NFD", sentence) if row.nfd else sentence, pos)
        if pos > 0:
            out.add(starts.index(pos))
    return out


@pytest.mark.parametrize("row", ON_PAGES, ids=[r.case for r in ON_PAGES])
def test_each_row_is_on_its_page(row: Row) -> None:
    text = page_text(row.source)
    assert row.gap.join(row.sentences) in text


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_the_matcher_reads_the_tokens_and_breaks_at_each_sentence_end(row: Row) -> None:
    p = prepared(row.text)
    n = len(row.tokens)
    assert any(tuple(p.words[i : i + n]) == row.tokens for i in range(len(p.words))), p.words
    assert p.breaks == sentence_breaks(row)


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_the_diagnosis_reads_the_matchers_tokens_and_breaks(row: Row) -> None:
    p = prepared(row.text)
    index = page_index(p)
    on_page = index.words(0, len(p.norm.text))
    assert list(on_page.keys) == p.words
    assert {j + 1 for j in index.breaks(on_page)} == p.breaks
    # The same text as a quote is read by the same tokeniser.
    _, as_quote, quote_breaks = quote_words(row.text)
    assert list(as_quote.keys) == p.words
    # A quote breaks at every sentence mark (it may only cross a break it shows), so at least there.
    assert {j + 1 for j in quote_breaks} >= p.breaks


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_the_brief_reader_splits_where_the_matcher_breaks(row: Row) -> None:
    text = row.text
    spans = split_sentences(text)
    assert [text[s:e] for s, e in spans] == [unicodedata.normalize("NFD", s) if row.nfd else s for s in row.sentences]
    p = prepared(text)
    starts = [p.ostarts[k] for k in range(len(p.words))]
    assert {starts.index(s) for s, _ in spans[1:]} == p.breaks
