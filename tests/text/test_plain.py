"""The quick readings of plain quotes give exactly what the full readings give.

``quote_part`` reads a plain quote (one that normalises one to one into ASCII, with no
sentence mark between its tokens) with str methods instead of the token pattern; asked for
word starts (``with_starts=True``) it always takes the full reading, which is what each
quick reading is compared with here: on every honest quote of ``make eval``'s match section
(real pages of ../shared/corpus/), on hand-written cases at the edges of "plain", and on
seeded random strings over the characters that decide it. The quick normalisation of a
short text (``one_to_one``) is compared with the run-by-run one, which a text too long for the
quick one takes.
"""

from __future__ import annotations

import random

import pytest

from core.text import QuotePart, blank, normalise, plain_tokens, quote_part, tokenise
from core.text.normalise import normalise_text, one_to_one
from tests.quality.eval_match import cases

# Each at an edge of what the quick reading may read: joints, signs, marks, markers, case.
EDGES = [
    "we'd buy a game, sit down in front of a console",
    "'tis the season_of joy' and it's_over",
    "a''b and c__d and e'_f",
    "prices rose 5% to $40 in a year",
    "%$ and $% and 5%%",
    "Python 3.12 was released",
    "Python 3.x and example.com",
    "about 1,29,940 people and 3,4 and 1,5",
    "a fall of -5 degrees, a range 5-10 and a pre-war x-5",
    "U.S. forces and e.g. the a.m. train",
    "the end. The start",
    "is it? yes! no",
    "as noted [1] in the text [citation needed] here",
    "who said it [who?] first",
    "note: dogs.:35 bark",
    "HELLO World",
    "“Curly” quotes — and dashes – here",
    "tabs\tand\nlines",
    "  leading and trailing spaces  ",
    "A &amp; B",
    "café au lait",
    "…",
    "",
    "12345",
    "x_1 y'2 3'z",
]


def _full(text: str) -> QuotePart | None:
    """Return the full reading of a fragment, without the word starts the quick one never gives."""
    part = quote_part(text, with_starts=True)
    return None if part is None else part._replace(ostarts=())


@pytest.mark.parametrize("text", EDGES)
def test_edge_cases_read_alike(text: str) -> None:
    assert quote_part(text) == _full(text)


def test_plain_quotes_take_the_quick_reading() -> None:
    # Without this, every comparison here could pass with the quick reading never taken.
    assert plain_tokens("we'd buy a game, sit down in front of a console") == [
        "we'd",
        "buy",
        "a",
        "game",
        "sit",
        "down",
        "in",
        "front",
        "of",
        "a",
        "console",
    ]
    assert plain_tokens("prices rose 5% to $40") == ["prices", "rose", "5", "%", "to", "$", "40"]
    for not_plain in ("python 3.12", "1,000 people", "a fall of -5", "u.s. forces", "a''b", "café"):
        assert plain_tokens(not_plain) is None


def test_every_honest_quote_of_the_evaluation_reads_alike() -> None:
    quotes = [q for case in cases() for q in case.quotes]
    assert len(quotes) > 1000
    differ = [q for q in quotes if quote_part(q.strip()) != _full(q.strip())]
    assert differ == []
    quick = [q.strip() for q in quotes if one_to_one(q.strip(), entities=True) is not None]
    assert [q for q in quick if (one_to_one(q, entities=True), tuple(range(len(q)))) != _run_by_run(q)] == []


def test_random_strings_read_alike() -> None:
    rng = random.Random(13)
    alphabet = "ab1 9'_.,-%$!?[]:()\"’“”–—é\nAZ&;#"
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 16))) for _ in range(20_000)]
    differ = [t for t in texts if quote_part(t) != _full(t)]
    assert differ == []
    works = [blank(normalise(t, entities=True).text, ()) for t in texts]
    quick = [(w, plain_tokens(w)) for w in works]
    assert [w for w, words in quick if words is not None and words != tokenise(w)[0]] == []
    assert sum(words is not None for _, words in quick) > 1000  # the quick reading was taken


def _run_by_run(text: str) -> tuple[str, tuple[int, ...]]:
    """Return text normalised as the run-by-run path does: followed by a word too long for the quick path."""
    normal, offsets = normalise_text(text + " " + "x" * 5000, entities=True)
    return normal[: len(text)], offsets[: len(text)]


@pytest.mark.parametrize("text", [*EDGES, "‚low‘ „double“ ‘single’ “curly” en–dash em—dash no\u00a0break", "€5 … ’"])
def test_quick_normalisation_is_the_run_by_run_one(text: str) -> None:
    quick = one_to_one(text, entities=True)
    if quick is not None:
        assert (quick, tuple(range(len(text)))) == _run_by_run(text)


def test_typography_takes_the_quick_normalisation() -> None:
    text = "‚low‘ „double“ ‘single’ “curly” en–dash em—dash no\u00a0break"
    assert one_to_one(text) == "'low' \"double\" 'single' \"curly\" en-dash em-dash no break"
    assert one_to_one("café") is None
    assert one_to_one("€5") is None
