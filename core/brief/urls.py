"""Bare URLs in a brief's text, read whole: balanced brackets, apostrophes, no trailing punctuation.

``url_end`` reads a URL from where it starts (``HTTP_418_I'm_a_teapot``, a Wikipedia title in
parentheses); ``find_urls`` lists the bare http(s) and ``www.`` URLs of a text; ``doi_url``
turns a reference entry's DOI into its https://doi.org/ URL. This module
finds URLs only: it refuses to judge whether one may be fetched (``core.fetch`` does that).
"""

from __future__ import annotations

import re

URL_START = re.compile(r"\b(?:https?://|www\.)", re.IGNORECASE)
_URL_STOP = frozenset(' \t\r\n<>"`{}|\\^“”‘«»\u00a0\u3000')
_TRAILING = ".,;:!?*_'~…"
# A DOI ("10.1037/ebs0000397", after "doi:" or inside a doi.org link), without trailing punctuation.
_DOI = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>]+[^\s\"<>.,;)])")


def doi_url(text: str) -> str:
    """Return the https://doi.org/ URL of the first DOI in a text ("doi:10.1037/ebs0000397"), "" when none."""
    m = _DOI.search(text)
    return f"https://doi.org/{m.group(1)}" if m else ""


def url_end(text: str, start: int) -> int:
    """Return the end of the URL starting at ``start``: brackets balanced, no trailing punctuation."""
    i = start
    depth = {"(": 0, "[": 0}
    pairs = {")": "(", "]": "["}
    while i < len(text):
        ch = text[i]
        if ch in _URL_STOP or ord(ch) < 32 or ch in "，。、；：！？（）【】":
            break
        if ch == "’" and (i + 1 >= len(text) or not text[i + 1].isalnum()):
            break
        if ch in depth:
            depth[ch] += 1
        elif ch in pairs:
            if depth[pairs[ch]] == 0:
                break
            depth[pairs[ch]] -= 1
        i += 1
    end = i
    while end > start:
        ch = text[end - 1]
        if ch in _TRAILING or (ch in ")]" and _unbalanced_close(text[start:end], ch)):
            end -= 1
        else:
            break
    return end


def _unbalanced_close(url: str, closer: str) -> bool:
    opener = "(" if closer == ")" else "["
    return url.count(closer) > url.count(opener)


def find_urls(text: str) -> list[tuple[int, int]]:
    """Return the (start, end) spans of bare http(s) and www. URLs in text, in order."""
    spans: list[tuple[int, int]] = []
    pos = 0
    while True:
        m = URL_START.search(text, pos)
        if m is None:
            return spans
        end = url_end(text, m.start())
        if end - m.start() > len(m.group(0)):
            spans.append((m.start(), end))
        pos = max(end, m.end())
