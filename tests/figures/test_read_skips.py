"""A pass of the figures reader skipped on a text that lacks what it needs (``Scan.lacks``: a month's name, a
slash, a bracket, a version word…; the working text's glue, without a digit glued to a letter) reads what every
pass run on every text reads, on corpus pages' figure lines and sentences, and on a text each pass reads a
figure from."""

from __future__ import annotations

import gzip
import re

import pytest

from core.extract import extract_html
from core.figures import dates, on_page, read, scan
from core.figures.locale import writes_decimal_comma
from core.figures.scan import Scan
from core.text import split_sentences
from tests.servers import CORPUS

PAGES = sorted((CORPUS / "html").rglob("*.html.gz"))[:60]

# One text for each pass that may be skipped, which that pass reads a figure from, and the pass's needles.
EACH_PASS = [
    ("on 2024-01-02 it opened", ("-",)),  # ISO date
    ("on 3/4/2023 or 25/12/2023, 3/4 of them", ("/",)),  # slash dates and numbers
    ("March 3, 2024; 4 June 2023; June 2022; May 5; 7 of July", (dates._ANY_MONTH,)),
    ("the first quarter of 2023 and the second half", ("quarter", "half")),
    ("Q1 2023, 2Q23 and H2", (dates._Q_OR_H,)),
    ("FY27 and fiscal 2026, FY2023-24", ("fy", "fiscal")),
    ("Python 3.12, since 3.8, version 2, v 1.4 and 1.5", (dates._VERSION_NEEDLE,)),
    ("a loss of ($5.2) million and $(3.1)", ("(",)),  # accounting negatives
    ("a third of users, two quarters of them, half the time", ("half", "halv", "third", "quarter", "fifth")),
    ("sales doubled, twice as many, it tripled, thrice, quadrupled", read.MULTIPLIER_NEEDLES),
]


def _plain(monkeypatch):
    monkeypatch.setattr(Scan, "lacks", lambda self, *needles: False)
    monkeypatch.setattr(scan, "_GLUED_ANY", re.compile(""))  # found in any text: every glue pattern runs


def _fields(figs) -> list[dict]:
    # Every field, spans too (a figure's equality leaves its span out).
    return [vars(f) for f in figs]


def _both(texts: list[str], comma: bool, monkeypatch) -> tuple[list, list]:
    skipping = [_fields(read._Reader(t, comma).run()) for t in texts]
    with monkeypatch.context() as m:
        _plain(m)
        plain = [_fields(read._Reader(t, comma).run()) for t in texts]
    return skipping, plain


@pytest.mark.parametrize(("text", "needles"), EACH_PASS, ids=[t for t, _ in EACH_PASS])
def test_a_text_each_pass_reads_from_is_read_alike(text, needles, monkeypatch):
    skipping, plain = _both([text], False, monkeypatch)
    assert skipping == plain
    # That pass skipped reads otherwise: the text needs the pass, and the guard let it run.
    with monkeypatch.context() as m:
        m.setattr(Scan, "lacks", lambda self, *asked: asked == needles)
        assert _fields(read._Reader(text, False).run()) != plain[0]


@pytest.mark.parametrize("text", ["3.8million and of6.4/10 in 1986The", "700 , 000 people"])
def test_a_text_with_figures_glued_or_spaced_apart_is_read_alike(text, monkeypatch):
    skipping, plain = _both([text], False, monkeypatch)
    assert skipping == plain
    with monkeypatch.context() as m:  # the glue left alone reads otherwise: the text needs it
        m.setattr(scan, "_unglued", lambda w, offsets, text: (w, offsets))
        assert _fields(read._Reader(text, False).run()) != plain[0]


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.parent.name)
def test_a_corpus_page_reads_alike_with_passes_skipped(path, monkeypatch):
    text = extract_html(gzip.decompress(path.read_bytes()), "text/html").text
    comma = writes_decimal_comma(text)
    pieces = [p for _, p in on_page._runs(text, 8000)]
    sentences = [text[a:b] for a, b in split_sentences(text)][:400]
    skipping, plain = _both(pieces + sentences, comma, monkeypatch)
    assert skipping == plain
    assert sum(map(len, plain)) > 0, f"{path.parent.name} holds no figure: the comparison would prove nothing"
