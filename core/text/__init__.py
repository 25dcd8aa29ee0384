"""The one text layer: normalisation, tokens, sentence and block breaks, and sentence splitting.

``normalise`` forgives typography and maps every position back; ``tokens`` cuts normalised
text into the tokens the matcher compares; ``breaks`` holds the one abbreviation list and the
one sentence-end rule, and finds the breaks of a page and of a quote; ``quote`` reads a quote
as the matcher does; ``sentences`` splits a brief's paragraphs by the same rule. Brief
reading, matching, figures and diagnosis all read text through here.
"""

from core.text.breaks import (
    ABBREVIATIONS,
    NUMBER_ABBREVIATIONS,
    SENTENCE_MARKS,
    after_bracket_breaks,
    ends_sentence,
    page_breaks,
    quote_breaks,
)
from core.text.normalise import Normalised, normalise
from core.text.quote import QuotePart, QuoteTokens, quote_part, quote_tokens
from core.text.sentences import split_sentences
from core.text.tokens import MARKER, SIGN, blank, is_sign, plain_tokens, tokenise

__all__ = [
    "ABBREVIATIONS",
    "MARKER",
    "NUMBER_ABBREVIATIONS",
    "SENTENCE_MARKS",
    "SIGN",
    "Normalised",
    "QuotePart",
    "QuoteTokens",
    "after_bracket_breaks",
    "blank",
    "ends_sentence",
    "is_sign",
    "normalise",
    "page_breaks",
    "plain_tokens",
    "quote_breaks",
    "quote_part",
    "quote_tokens",
    "split_sentences",
    "tokenise",
]
