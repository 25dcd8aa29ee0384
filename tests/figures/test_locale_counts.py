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
