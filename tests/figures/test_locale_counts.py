"""The language guess counts each distinct word once and says what counting word by word says, on corpus pages."""

from __future__ import annotations

import gzip

import pytest

from core.extract import extract_html
from core.figures import locale
from tests.servers import CORPUS

PAGES = sorted((CORPUS / "html").rglob("*.html.gz"))[:80]


def _word_by_word(text: str) -> tuple[bool, dict[str, int]]:
    # The plain reading: every word of the sample against every language's list.
    counts = dict.fromkeys(locale._COMMON_WORDS, 0)
    for word in locale._WORD.findall(text[: locale._SAMPLE_CHARS].lower()):
        for lang, words in locale._COMMON_WORDS.items():
            if word in words:
                counts[lang] += 1
    best = max(counts, key=lambda lang: counts[lang])
    runner_up = max(n for lang, n in counts.items() if lang != best)
    return best != "en" and counts[best] >= locale._MIN_HITS and counts[best] >= 2 * runner_up, counts


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.parent.name)
def test_the_guess_is_the_word_by_word_guess_on_a_corpus_page(path):
    text = extract_html(gzip.decompress(path.read_bytes()), "text/html").text
    assert locale.writes_decimal_comma.__wrapped__(text) is _word_by_word(text)[0]


def test_a_german_text_writes_a_decimal_comma_and_an_english_one_does_not():
    german = "Die Stadt hat 5.500 Einwohner und ist nicht groß, aber die Lage ist mit der Bahn gut, und das auch"
    assert _word_by_word(german)[0] is True
    assert locale.writes_decimal_comma(german) is True
    assert (
        locale.writes_decimal_comma("The town has 5,500 people and is one of the few that was built with a wall.")
        is False
    )


def test_a_text_whose_reading_the_guess_cannot_change_is_read_without_guessing_its_page():
    german = "Die Stadt hat 5.500 Einwohner und ist nicht groß, aber die Lage ist mit der Bahn gut, und das auch"
    assert locale.comma_for(german, "Die Stadt hat 5.500 Einwohner") is True  # "5.500" is 5500 there
    assert locale.comma_for(german, "Die Stadt wurde 1850 gegründet") is True  # not ASCII: guessed
    assert locale.comma_for(german, "Seit 1850 hat die Stadt 12 Schulen") is False  # no number the guess regroups


def test_the_sentences_read_unguessed_are_read_as_the_guess_reads_them():
    from core.figures import read_figures
    from core.text import split_sentences

    unguessed = []
    for path in PAGES[:30]:
        text = extract_html(gzip.decompress(path.read_bytes()), "text/html").text
        # The texts comma_for answers without guessing: ASCII, no point, comma or space between digits.
        unguessed += [
            text[a:b]
            for a, b in split_sentences(text)
            if text[a:b].isascii() and not locale._MAY_REGROUP.search(text[a:b]) and any(map(str.isdigit, text[a:b]))
        ]
    assert len(unguessed) > 100, len(unguessed)
    for s in unguessed:
        assert [vars(f) for f in read_figures(s, True)] == [vars(f) for f in read_figures(s, False)], s
