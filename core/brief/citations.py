"""How a sentence of a brief reads: which links are citations, its quotations, its text without them.

Citation link text vs. woven link text (decided here, documented for figures): a link is a
*citation* when its text is a marker ("1", "[1]"), a URL or domain ("python.org"), a word
such as "source" or "link", when it stands alone in brackets ("([What's New](url))"), after
"see", "via" or "Source:", after the sentence's full stop, or after a dash or colon at the
sentence's end. Its text stays in ``Claim.text`` but not in ``Claim.figure_text``. Any other
link is *woven* into the sentence ("CPython is [25% faster](url)") and its words are the
claim's own, so they stay in both. Passages in quotation marks (``inline_quotes``), the
"Quote:" and "Source:" labels, and the tidying of text a citation was cut from live here too.
This module reads one sentence at a time; it refuses to decide what is a claim.
"""

from __future__ import annotations

import re

from core.brief.blocks import Cite, CiteKind

# Link texts that name a source rather than say anything ("[source](url)").
CITATION_WORDS = frozenset(
    [
        "source",
        "sources",
        "link",
        "here",
        "ref",
        "reference",
        "citation",
        "cite",
        "pdf",
        "docs",
        "documentation",
        "article",
        "report",
        "paper",
        "study",
        "website",
        "web",
        "page",
        "url",
        "via",
        "see",
    ]
)
# Words that carry no claim of their own around a citation ("See [1].", "Source: [2]").
FILLER_WORDS = CITATION_WORDS | frozenset(
    ["also", "and", "at", "from", "in", "on", "online", "available", "cf", "e", "g", "the", "per"]
)

QUOTE_LABEL = re.compile(r"^[*_>\s-]{0,3}(?:quote|quotation|evidence|excerpt)[*_]{0,2}\s*:[*_]{0,2}\s*", re.IGNORECASE)
SOURCE_LABEL = re.compile(
    r"^[*_>\s-]{0,3}(?:sources?|url|link|citation|ref|reference)[*_]{0,2}\s*:[*_]{0,2}\s*", re.IGNORECASE
)
# Quotations: double marks, guillemets, low-high marks, and single curly marks whose closing
# mark is not an apostrophe inside a word ("Python’s").
QUOTED = re.compile(r"“([^“”]*)”|\"([^\"]*)\"|«([^«»]*)»|„([^„“”]*)[“”]|(?<!\w)‘((?:[^‘’]|’(?=\w))+)’(?!\w)")
WHOLE_QUOTE = re.compile(r"^(?:“([^“”]+)”|\"([^\"]+)\"|«([^«»]+)»)[.!?]?$")
_MARKER_TEXT = re.compile(r"^[\[(]?\^?\w{1,4}[\])]?$")
_DOMAIN_TEXT = re.compile(r"^(?:https?://|www\.)\S*$|^[\w-]+(?:\.[\w-]+)+(?:/\S*)?$", re.IGNORECASE)
_TERMINALS = ".!?…。！？"


LEAD_IN = re.compile(r"(?:\b(?:see(?: also)?|via|cf\.?|sources?:)\s*[(\[]?\s*)$", re.IGNORECASE)


def is_citation_style(text: str, cite: Cite) -> bool:
    """Return True when a cite's text names its source rather than saying part of the claim."""
    if cite.kind != CiteKind.LINK:
        return True
    anchor = cite.anchor.strip()
    if not anchor or (_MARKER_TEXT.match(anchor) and any(c.isdigit() for c in anchor)):
        return True
    if _DOMAIN_TEXT.match(anchor) or anchor.lower().rstrip(".:") in CITATION_WORDS:
        return True
    # A short window either side is all the rule needs; slicing the whole block would cost O(n) per link.
    before = text[max(0, cite.start - 80) : cite.start].rstrip()
    after = text[cite.end : cite.end + 80].lstrip()
    if before[-1:] in ("(", "[") and after[:1] in (")", "]"):
        return True
    if LEAD_IN.search(before + " "):
        return True  # "see [the notes](url)", "via [PEP 632](url)"
    closed = before.rstrip("\"”’')]»")
    if closed[-1:] in _TERMINALS and closed[-2:-1] not in ("", " "):
        return True
    after_end = after[:1] == "" or after[:1] in _TERMINALS or after[:2] in (").", ")")
    return before[-1:] in ("—", "–", ":", "-") and after_end


def inline_quotes(text: str, start: int, end: int, cites: list[Cite], min_words: int) -> list[tuple[int, int, str]]:
    """Return (start, end, inner text) of the quoted passages of a sentence."""
    found = []
    for m in QUOTED.finditer(text, start, end):
        inner = next(g for g in m.groups() if g is not None).strip()
        if len(inner.split()) < min_words:
            continue
        if any(c.start < m.end() and m.start() < c.end for c in cites if c.kind != CiteKind.LINK):
            continue
        found.append((m.start(), m.end(), inner))
    return found


_TIDY = [
    (re.compile(r"[(\[]\s*[,;]?\s*[)\]]"), ""),
    (re.compile(r"\s+([.,;:!?)\]])"), r"\1"),
    (re.compile(r"\s*[—–]\s*([.!?]|$)"), r"\1"),
    (re.compile(r"[:,]\s*([.!?])$"), r"\1"),
    (re.compile(r"[:;]\s*,"), ","),
    (re.compile(r"\s*[:;,—–]+$"), ""),
]
_SPACES = re.compile(r"\s+")


# Any text one of _TIDY's patterns could change: most sentences have none, and skip the passes.
_UNTIDY = re.compile(r"[(\[][\s,;]*[)\]]|\s[.,;:!?)\]]|[—–]\s*(?:[.!?]|$)|[:,]\s*[.!?]$|[:;]\s*,|[:;,—–]$")


def tidy(text: str) -> str:
    """Return text with white space collapsed and the punctuation a removed citation left behind tidied."""
    text = _SPACES.sub(" ", text).strip()
    if not _UNTIDY.search(text):
        return text
    for _ in range(2):
        for pattern, repl in _TIDY:
            text = pattern.sub(repl, text).strip()
    return text


def cut_spans(text: str, start: int, end: int, spans: list[tuple[int, int]]) -> str:
    """Return text[start:end] without the spans (and a "see"/"via" standing right before one)."""
    parts = []
    pos = start
    for s, e in sorted(spans):
        if lead := LEAD_IN.search(text, max(pos, start), s):
            s = lead.start()
        s, e = max(s, start), min(e, end)
        if s < pos or s >= e:
            continue
        parts.append(text[pos:s])
        parts.append(" ")
        pos = e
    parts.append(text[pos:end])
    return "".join(parts)


def strip_quote_text(text: str) -> str:
    """Return a quote's words without its label ("Quote:") and enclosing quotation marks."""
    text = QUOTE_LABEL.sub("", text.strip()).strip()
    if len(text) >= 2 and text[0] in "\"“„«'‘" and text[-1] in "\"”»'’":
        text = text[1:-1].strip()
    elif len(text) >= 2 and text[0] in '"“„«' and text.count(text[0]) + text.count("”") == 2:
        # "quoted words" — attribution: drop the attribution after the closing mark
        m = QUOTED.match(text)
        if m:
            text = next(g for g in m.groups() if g is not None).strip()
    return text


def with_brackets(text: str, start: int, end: int) -> tuple[int, int]:
    """Return a citation's span with the brackets around it: "mission.” ([NSCAI](url)) Next" ends at ")"."""
    while start > 0 and end < len(text) and text[start - 1] in "([" and text[end] in ")]":
        start, end = start - 1, end + 1
    return start, end
