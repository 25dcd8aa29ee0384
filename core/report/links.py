"""The links a report or the desk may draw: only http(s) URLs, and text-fragment links to a quote.

It returns URLs as text; the caller escapes them for its own markup. It refuses to make a
link of any other scheme, so a ``javascript:`` URL from a brief stays text everywhere.
"""

from __future__ import annotations

from urllib.parse import quote as url_quote
from urllib.parse import urlsplit


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
