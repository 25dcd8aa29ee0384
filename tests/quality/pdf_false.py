"""False quotes made from honest PDF sentences, shared by the PDF evaluations (eval_pdf, eval_pdf_reference).

Each kind changes what the sentence says while keeping it close to the page: a digit changed,
"not" inserted, a word dropped, two words swapped, two words joined into a word the page also
writes ("not able" -> "notable", the meaning change a line-end join must never make), and two
words run together into no word. A
false quote is verified when the matcher finds it and no flag blocks it; every count must stay 0.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from core.match import PreparedPage, match_quote
from core.text import quote_part

KINDS = ("digit_changed", "negation_inserted", "word_dropped", "words_swapped", "words_joined", "words_run_together")
_DIGIT = re.compile(r"\d")
_ALPHA = re.compile(r"^[a-z]{2,}$")
_MARKER = re.compile(r"\[[^\[\]]{1,40}\]")


def false_quotes(sentence: str, page_words: frozenset[str]) -> Iterator[tuple[str, str]]:
    """Yield (kind, false quote) made from an honest sentence; page_words are the page's tokens."""
    words = sentence.split()
    # Not a digit of a reference marker ("[3]"): the matcher skips markers by design.
    markers = [m.span() for m in _MARKER.finditer(sentence)]
    m = next((d for d in _DIGIT.finditer(sentence) if not any(a <= d.start() < b for a, b in markers)), None)
    if m:
        digit = str((int(m.group()) + 1) % 10)
        yield "digit_changed", sentence[: m.start()] + digit + sentence[m.end() :]
    if len(words) >= 6:
        yield "negation_inserted", " ".join([*words[:3], "not", *words[3:]])
    # Inside the sentence: a word dropped at its start or end leaves an honest shorter quote.
    inner = range(2, len(words) - 2)
    longest = max(inner, key=lambda i: len(words[i]), default=None)
    if longest is not None and len(words[longest]) >= 4 and words[longest - 1] != words[longest]:
        yield "word_dropped", " ".join(words[:longest] + words[longest + 1 :])
    swap = next((i for i in inner if words[i].lower() != words[i + 1].lower() and words[i].isalpha()), None)
    if swap is not None and words[swap + 1].isalpha():
        swapped = [*words[:swap], words[swap + 1], words[swap], *words[swap + 2 :]]
        yield "words_swapped", " ".join(swapped)
    run_together = False
    for i in range(len(words) - 1):
        a, b = words[i].lower(), words[i + 1].lower()
        if not (_ALPHA.match(a) and _ALPHA.match(b) and a in page_words and b in page_words):
            continue
        joined = " ".join([*words[:i], words[i] + words[i + 1], *words[i + 2 :]])
        if a + b in page_words:
            yield "words_joined", joined  # a word of the page: "not able" -> "notable"
        elif not run_together:
            run_together = True
            yield "words_run_together", joined  # no word: "very limited" -> "verylimited", once a sentence


def count_verified(sentences: list[str], prepared: PreparedPage, honest: str) -> tuple[Counter[str], Counter[str]]:
    """Return (false quotes made, false quotes verified) per kind, from sentences found on the page.

    ``honest`` is the page's honest text (gold or reference): a change that gives words of it ("D1"
    -> "D2" where the page says both) is no false quote.
    """
    made: Counter[str] = Counter()
    verified: Counter[str] = Counter()
    page_words = frozenset(prepared.words)
    honest_words = f" {_words(honest)} "
    for sentence in sentences:
        for kind, quote in false_quotes(sentence, page_words):
            if f" {_words(quote)} " in honest_words:
                continue
            made[kind] += 1
            match = match_quote(quote, prepared)
            verified[kind] += match.found and not match.blocking
    return made, verified


def _words(text: str) -> str:
    """Return the matcher's tokens of a text joined by spaces (word order, no punctuation)."""
    part = quote_part(text)
    return " ".join(part.words) if part is not None else ""
