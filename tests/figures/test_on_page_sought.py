"""A claim figure looked for on its page reads only the pieces that may hold it, and finds what reading all finds.

A page's pieces are its runs of lines that may hold a figure (``core.figures.on_page``). For a claim
figure judged by value, a piece is read only when one of its digit strings, times a power of ten,
falls within the figure's rounding, when it writes the year's last two digits, or when it holds a
number word that may write the value; a comparative, judged against the page figure nearest in
value, reads them all. Each case is a real-style page of many pieces (a news report's table of
figures between paragraphs of prose) and the figure written in another form in a far piece.
"""

from __future__ import annotations

import pytest

from core.figures import on_page
from core.figures import vocab as v
from core.figures import words as number_words
from core.figures.page import _sought
from core.figures.read import read_figures
from core.models import Candidate, FigurePlace, FigureStatus, PageKind, PageText
from core.settings import Settings

# A report's prose between lines of figures: each line of figures its own piece.
_PROSE = "The council met on Tuesday to hear the residents and the officers of the trust.\n"
_FILLER = [
    "Ticket sales reached 81,240 in the spring season.",
    "The museum counted 3,200,000 visitors over the year.",
    "Admission rose to $14.50 for adults and $7 for children.",
    "Volunteers gave 12,600 hours to the gardens.",
    "The library lent 455,000 books and 19,800 films.",
    "Repairs to the roof cost £2,700,000 in 2021.",
]


def _page(far: str) -> str:
    lines = [x for line in _FILLER for x in (_PROSE, line + "\n")]
    return "".join(lines) + _PROSE + far + "\n" + _PROSE


def _claim(text: str):
    return read_figures(text)[0]


def _pieces_read(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    read: list[str] = []
    real = on_page.read_figures

    def counting(piece: str, comma: bool = False):
        read.append(piece)
        return real(piece, comma)

    monkeypatch.setattr(on_page, "read_figures", counting)
    on_page._page_read.cache_clear()
    return read


def _placed(claim: str, text: str) -> tuple[FigureStatus, FigurePlace | None]:
    from core.figures.page import place_figures

    passage = Candidate(text=_PROSE.strip(), start=0, end=len(_PROSE) - 1, score=1.0)
    figure = place_figures(claim, [passage], PageText(text=text, kind=PageKind.HTML), Settings()).figures[0]
    return figure.status, figure.where


@pytest.mark.parametrize(
    ("claim", "far"),
    [
        ("The trust spent 4,500,000 on the bridge.", "The bridge cost 4.5 million to mend."),  # a scale word
        ("The trust spent $4.5bn on the bridge.", "The bridge cost $4,500 million to mend."),  # digits regrouped
        ("The fund holds 1,29,940 shares.", "The fund holds 129,940 shares."),  # Indian grouping
        ("The bridge took 29 months to mend.", "The bridge took twenty-nine months to mend."),  # written out
        ("The bridge took about 30 months.", "The bridge took 31 months to mend."),  # a hedge's step
        ("The bridge opened in 2019.", "The bridge opened in the 2018-19 season."),  # an abbreviated year
        ("The bridge opened on 4 March 2019.", "The bridge opened on March 4, 2019."),  # a date reordered
        ("Of the residents, 50% voted.", "Of the residents, half of them voted."),  # a fraction
        ("The bridge opened at 9:30 pm.", "The bridge opened at 21:30 to traffic."),  # a time's hour
        ("The trust lent $479 million to the city.", "The trust lent ($479) million to the city."),  # a bracket
        ("About 25% of the residents voted.", "About 1 in 4 of the residents voted."),  # a share told as a count
        ("Some 20% of the residents voted.", "One in five of the residents voted."),  # the same in words
        ("Two thirds of the residents voted.", "Of the residents, 67% voted."),  # a fraction's share
        ("The bridge took ½ year to mend.", "The bridge took 1\u20442 year to mend."),  # a fraction slash
    ],
)
def test_a_figure_written_in_another_form_far_down_the_page_is_found_there(claim, far, monkeypatch):
    text = _page(far)
    read = _pieces_read(monkeypatch)
    assert _placed(claim, text) == (FigureStatus.MISSING, FigurePlace.ELSEWHERE)
    assert any(far in piece for piece in read)


def test_a_page_whose_pieces_cannot_hold_the_figure_reads_none_of_them_and_says_it_stands_nowhere(monkeypatch):
    # "4,500,000" might be written "four and a half million": the page's pieces write no scale word.
    text = _page("The bridge cost 6,100,000 to mend.")
    read = _pieces_read(monkeypatch)
    status, where = _placed("The trust spent 4,500,000 on the bridge.", text)
    assert (status, where) == (FigureStatus.MISSING, FigurePlace.NOWHERE)
    assert read == []  # every piece told by its digits alone: none holds a value near 4,500,000


def test_a_number_word_of_another_kind_is_no_reason_to_read_a_piece(monkeypatch):
    # "one" may write 1 to 10, "forty" 40 to 49.5, "hundred" 100 to 9,999: neither "one" nor "forty" may write 456.
    text = _page("One of the trustees gave the library forty books.")
    read = _pieces_read(monkeypatch)
    assert _placed("The library lent 456 books.", text)[1] is FigurePlace.NOWHERE
    assert read == []


def test_a_year_is_looked_for_where_a_run_of_digits_ends_with_its_last_two():
    sought = _sought(_claim("The bridge opened in 2019."), Settings())
    assert sought is not None
    assert on_page._Piece(0, "It opened in the 2018-19 season.").may_hold(sought)
    assert on_page._Piece(0, "It opened in FY19.").may_hold(sought)
    assert not on_page._Piece(0, "It cost 1,190 and 219 more.").may_hold(sought)  # "19" ends no run of digits


def test_a_comparative_reads_every_piece_for_the_figure_nearest_in_value():
    assert _sought(_claim("more than 4,500,000 visitors"), Settings()) is None
    sought = _sought(_claim("about 4,500,000 visitors"), Settings())
    assert sought is not None and sought.values[0][0] < 4_400_000 < sought.values[0][1]  # a hedge's step of 100,000


def test_a_piece_with_a_character_that_normalises_to_a_digit_is_always_read():
    sought = on_page.Sought(values=((4.4e6, 4.6e6),))
    assert on_page._Piece(0, "It cost \uff14.5 million.").may_hold(sought)  # a fullwidth digit
    assert on_page._Piece(0, "It cost 4\u00bd million.").may_hold(sought)  # a vulgar fraction
    assert on_page._Piece(0, "It cost 10^6 or so.").may_hold(sought)  # a power
    assert not on_page._Piece(0, "It cost 3.9 million.").may_hold(sought)


def test_the_number_words_looked_for_are_every_word_the_reader_reads_a_value_from():
    # vocab's number words (the reader's) and its scale, fraction and multiplier words: each found by a kind.
    words = [w for w, n in v.UNITS.items() if n] + list(v.TENS) + ["hundred", "thousand", "million", "billion"]
    words += ["trillion", "lakh", "crore", *v.FRACTION_WORDS, *v.MULTIPLIER_WORDS]
    for word in words:
        assert any(kind.search(word) for kind in number_words.WORD_KINDS.values()), word
    # Each whole number from 1 to 99 written out ("twenty-nine") holds the word it is looked for by.
    unit = {n: w for w, n in v.UNITS.items()}
    tens = {n: w for w, n in v.TENS.items()}
    for n in range(1, 100):
        written = unit[n] if n < 20 else tens[n - n % 10] + (f"-{unit[n % 10]}" if n % 10 else "")
        assert number_words.WORD_KINDS[number_words.NUMBER_WORD[n]].search(written), (n, written)


@pytest.mark.parametrize("scale", number_words.WORD_SCALES)
def test_every_scale_the_reader_reads_after_a_number_word_is_one_the_filter_looks_for(scale):
    # One table: "five thousand crore" is read as 5 * 10**10, and a piece holding it holds the word looked for.
    fig = read_figures(f"It cost five {scale} to build.")[0]
    assert fig.value == 5 * v.SCALE_WORD[scale]
    kinds = number_words.needed(fig.value - 1, fig.value + 1)
    assert any(number_words.WORD_KINDS[k].search(f"five {scale}") for k in kinds), (scale, kinds)


def test_a_date_is_looked_for_only_where_its_day_is_written_beside_its_year(monkeypatch):
    # A date is held by the same date alone, whose day is written in digits: a report full of other days of 2019.
    others = "The hall reopened on 12 June 2019.\nThe fair ran from 20 to 28 July 2019.\n"
    text = _page("The bridge opened on March 4, 2019.").replace(_PROSE, _PROSE + others, 1)
    read = _pieces_read(monkeypatch)
    assert _placed("The bridge opened on 4 March 2019.", text) == (FigureStatus.MISSING, FigurePlace.ELSEWHERE)
    assert read and not any("12 June 2019" in piece for piece in read)
    sought = _sought(_claim("It opened on 4 March 2019."), Settings())
    assert sought is not None
    assert on_page._Piece(0, "It opened on 2019-03-04.").may_hold(sought)
    assert not on_page._Piece(0, "It opened on 14 March 2019.").may_hold(sought)  # "14" is no "4"


@pytest.mark.parametrize("count", number_words.FRACTION_COUNTS)
def test_every_count_the_reader_reads_before_a_fraction_is_a_share_the_filter_looks_for(count):
    fig = read_figures(f"Of the residents, {count} third of them voted.")[0]
    assert "fraction" in number_words.needed(fig.value - 1, fig.value + 1), (count, fig.value)
