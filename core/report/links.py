"""Small presentation helpers shared by the review desk and the reports.

They turn a Report's spans into segments and links; the caller escapes every segment's
text before drawing it. This module produces no markup and refuses to escape on anyone's
behalf: escaping belongs to the template or the drawing code that knows its context.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote as url_quote
from urllib.parse import urlsplit

from core.models import Verdict


@dataclass(frozen=True)
class Segment:
    """A run of text and what it is: "" (plain) or a mark such as "match" or "figure"."""

    text: str
    mark: str = ""


def segments(text: str, spans: list[tuple[int, int, str]] | tuple[tuple[int, int, str], ...]) -> list[Segment]:
    """Return text cut into plain and marked runs; overlapping or out-of-range spans are clipped."""
    out: list[Segment] = []
    pos = 0
    for start, end, mark in sorted(spans):
        start, end = max(start, pos), min(end, len(text))
        if start >= end:
            continue
        if start > pos:
            out.append(Segment(text[pos:start]))
        out.append(Segment(text[start:end], mark))
        pos = end
    if pos < len(text):
        out.append(Segment(text[pos:]))
    return out


def is_web_url(url: str) -> bool:
    """Return True only for http(s) URLs with a host: the only ones ever made into links."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.netloc)


def _fragment_words(text: str) -> str:
    # Text fragments percent-encode "-", "&" and "," too, since they are directive syntax.
    return url_quote(" ".join(text.split()), safe="").replace("-", "%2D")


def text_fragment_link(url: str, quote: str, max_words: int = 8) -> str:
    """Return a link that opens the live page scrolled to the quote (``#:~:text=``).

    A long quote becomes ``start,end`` (its first and last words) so that browsers find it
    across markup. Returns "" when the URL is not http(s), so no other scheme becomes a link.
    """
    if not is_web_url(url):
        return ""
    base = url.split("#", 1)[0]
    words = quote.split()
    if not words:
        return base
    if len(words) <= max_words:
        directive = _fragment_words(" ".join(words))
    else:
        half = max_words // 2
        directive = _fragment_words(" ".join(words[:half])) + "," + _fragment_words(" ".join(words[-half:]))
    return f"{base}#:~:text={directive}"


#: Verdict colours; always drawn beside the verdict's words, never alone.
VERDICT_COLOURS: dict[Verdict, str] = {
    Verdict.VERIFIED: "#1a7f37",
    Verdict.NEEDS_REVIEW: "#9a6700",
    Verdict.FIGURES_MISMATCH: "#cf222e",
    Verdict.QUOTE_NOT_FOUND: "#cf222e",
    Verdict.NO_QUOTE: "#6e7781",
    Verdict.NOT_CHECKED: "#6e7781",
    Verdict.DEAD_LINK: "#8250df",
    Verdict.BLOCKED: "#57606a",
}
