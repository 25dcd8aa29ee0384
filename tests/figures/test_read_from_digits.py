"""A pattern searched from digit to digit (``scan.from_digits``: each search starts a few characters before the
next digit), or tried only where a run of digits starts (``scan.from_runs``), finds what the pattern's own
``finditer`` finds, on corpus pages' figure lines and sentences and at the edges, within bounds as on the
whole text; the figures read so are those read with every pattern tried at every character."""

from __future__ import annotations

import gzip
import re

import pytest

from core.extract import extract_html
from core.figures import dates, on_page, page, read, scan
from core.figures.locale import writes_decimal_comma
from core.figures.scan import from_digits, from_runs, run_starts, working_text
from core.text import split_sentences
from tests.servers import CORPUS

PAGES = sorted((CORPUS / "html").rglob("*.html.gz"))[:60]

# Each pattern searched from digit to digit, with how far into a match its first digit may stand.
LED = [(read._NUMBER, read._NUMBER_LEAD), (read._ACCOUNTING, read._ACCOUNTING_LEAD)]
IDS = [p.pattern[:24] for p, _ in LED]
# Each pattern tried where a run of digits starts: led by a digit no digit may precede.
RUN_LED = [read._FRACTION_DIGITS, dates._TIME, dates._ISO_DATE, dates._SLASH_DATE, dates._SLASH_NUMBER]
RUN_LED += [dates._DOTTED, dates._VERSION_AFTER_WORD, dates._DMY, dates._DM, page._OUT_OF_100, page._OUT_OF_10]

EDGES = ["", "no digit", "5", "-us $ -5", "-us $ -.5 and (us $ .5)", "us$(.5)", "x86 and -hk$ 7", "\u0665 cases"]
EDGES += ["3:25 p.m. on 2024-01-02, 3/4/2023 and 1/2", "v3.9.0 and Python 3.12, since 3.8", "1\u20442 of them"]
EDGES += ["on 12 march 2024 and 3rd of june", "52 out of 100, 50/100 and 4.4/10", "12345 6:30 1.2.3 x1/2"]


def _found(matches) -> list[tuple[tuple[int, int], tuple[str | None, ...]]]:
    return [(m.span(), m.groups()) for m in matches]


def _texts() -> list[str]:
    out = []
    for path in PAGES:
        text = extract_html(gzip.decompress(path.read_bytes()), "text/html").text
        comma = writes_decimal_comma(text)
        pieces = [p for _, p in on_page._runs(text, 8000)]
        sentences = [text[a:b] for a, b in split_sentences(text)][:200]
        out += [working_text(t, comma)[0] for t in pieces + sentences]
    return out


@pytest.fixture(scope="module")
def texts() -> list[str]:
    return _texts()


@pytest.mark.parametrize(("pattern", "lead"), LED, ids=IDS)
def test_a_pattern_from_digit_to_digit_finds_what_it_finds_everywhere(pattern, lead, texts):
    for w in EDGES + texts:
        assert _found(from_digits(pattern, w, lead)) == _found(pattern.finditer(w)), w[:80]
    assert any(pattern.search(w) for w in EDGES + texts), f"{pattern.pattern[:40]} matches no text: nothing proven"


@pytest.mark.parametrize("pattern", RUN_LED, ids=[p.pattern[:24] for p in RUN_LED])
def test_a_pattern_tried_where_digit_runs_start_finds_what_it_finds_everywhere(pattern, texts):
    for w in EDGES + texts:
        assert _found(from_runs(pattern, w, run_starts(w))) == _found(pattern.finditer(w)), w[:80]
        # Within bounds, as a passage of a page is searched: a run spanning the start is tried there too.
        a, b = len(w) // 3, 2 * len(w) // 3 + 1
        assert _found(from_runs(pattern, w, run_starts(w, a, b), b)) == _found(pattern.finditer(w, a, b)), w[:80]
    assert any(pattern.search(w) for w in EDGES + texts), f"{pattern.pattern[:40]} matches no text: nothing proven"


def test_a_pattern_tried_only_where_runs_start_must_be_led_by_one():
    # A pattern that may start inside a run ("234" of "1234") is not one to try where runs start.
    pattern = re.compile(r"\d{3}(?!\d)")
    assert _found(from_runs(pattern, "1234", run_starts("1234"))) != _found(pattern.finditer("1234"))


@pytest.mark.parametrize(
    ("before", "lead"),
    [
        (read._NUMBER_BEFORE, read._NUMBER_LEAD),
        (r"\((?:" + read.v.CURRENCY_BEFORE + r")\s?", read._ACCOUNTING_LEAD),
        (r"(?:" + read.v.CURRENCY_BEFORE + r")\(", read._ACCOUNTING_LEAD),
    ],
)
def test_a_number_s_first_digit_stands_within_its_lead(before, lead):
    # What may stand before the digits, and a "." (".5"): a currency added to vocab may widen it.
    assert re._parser.parse(before).getwidth()[1] + 1 <= lead  # type: ignore[attr-defined]


def test_the_lead_is_needed():
    # Searched from the digit itself, a sign and a currency before it would be lost.
    w = "-us $ -5"
    assert _found(from_digits(read._NUMBER, w, 0)) != _found(read._NUMBER.finditer(w))


def _fields(figs) -> list[dict]:
    return [vars(f) for f in figs]  # every field, spans too (a figure's equality leaves its span out)


def test_the_figures_read_are_those_of_every_pattern_tried_everywhere(monkeypatch):
    originals = []
    for path in PAGES:
        text = extract_html(gzip.decompress(path.read_bytes()), "text/html").text
        comma = writes_decimal_comma(text)
        sentences = [text[a:b] for a, b in split_sentences(text)][:200]
        originals += [(t, comma) for t in [p for _, p in on_page._runs(text, 8000)] + sentences]
    fast = [_fields(read._Reader(t, comma).run()) for t, comma in originals]
    plain_search = lambda pattern, w, lead=0: pattern.finditer(w)  # noqa: E731
    plain_runs = lambda pattern, w, starts, endpos=None: pattern.finditer(w, 0, len(w) if endpos is None else endpos)  # noqa: E731
    for module in (read, dates, scan):
        monkeypatch.setattr(module, "from_digits", plain_search, raising=False)
        monkeypatch.setattr(module, "from_runs", plain_runs, raising=False)
    plain = [_fields(read._Reader(t, comma).run()) for t, comma in originals]
    assert fast == plain
    assert sum(map(len, plain)) > 1000, "the corpus texts hold too few figures for the comparison to prove much"


def test_the_figures_made_by_their_fields_are_those_their_init_makes(monkeypatch):
    # ``scan.made`` sets a figure's fields at once; ``ReadFigure(...)`` refuses a field it lacks and sets defaults.
    texts = []
    for path in PAGES[:30]:
        text = extract_html(gzip.decompress(path.read_bytes()), "text/html").text
        texts += [(p, writes_decimal_comma(text)) for _, p in on_page._runs(text, 8000)]
    fast = [read._Reader(t, comma).run() for t, comma in texts]
    monkeypatch.setattr(scan, "made", lambda **values: scan.ReadFigure(**values))
    plain = [read._Reader(t, comma).run() for t, comma in texts]
    assert [_fields(f) for f in fast] == [_fields(f) for f in plain]
    assert [list(map(list, map(vars, f))) for f in fast] == [list(map(list, map(vars, f))) for f in plain]  # order too
    assert fast == plain and sum(map(len, plain)) > 1000
