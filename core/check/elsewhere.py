"""Misattribution in a big brief: the other source holding a failed quote, pages read again only where they may.

The serial check held every prepared page of the brief until the end so that a quote not on
its own source could be looked for on every other one. Here each page leaves behind only its
word prints: the sorted 8-byte hashes of its distinct words (about 8 bytes a word, against tens
of MB for a large page's index). After the last page, a failed quote is looked for, in brief
order, only on pages whose prints hold every word the matcher would need
(``core.match.needed_words``); such a page is read again from the text the store keeps and
prepared once for every quote that needs it. The exact matcher still decides "verbatim";
the prints only skip pages where it could not find the quote. A hash collision only costs a
page read again; it never hides a page.
"""

from __future__ import annotations

import hashlib
import weakref
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from core.match import PreparedPage, match_quote, needed_words
from core.settings import Settings


def _hash(word: str) -> int:
    return int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest(), "little")


#: Prints of the pages still alive (those of the page cache, checked again): made once a page, gone with it.
_PRINTS: weakref.WeakKeyDictionary[PreparedPage, bytes] = weakref.WeakKeyDictionary()


def word_prints(page: PreparedPage) -> bytes:
    """Return the sorted hashes of the page's distinct words, as bytes (8 a word)."""
    prints = _PRINTS.get(page)
    if prints is None:
        prints = _PRINTS[page] = array("Q", sorted({_hash(w) for w in page.postings})).tobytes()
    return prints


def _holds(prints: array[int], hashes: Sequence[int]) -> bool:
    n = len(prints)
    for h in hashes:
        i = bisect_left(prints, h)
        if i == n or prints[i] != h:
            return False
    return True


@dataclass(frozen=True)
class Readable:
    """A source of the brief whose page had text, in brief order: its URL, its body's key and its prints."""

    url: str
    key: tuple[str, str]  # (sha256, content type): a copy of the same bytes is the same page
    prints: bytes


def first_holders(
    pages: Sequence[Readable],
    wanted: Iterable[tuple[int, str, tuple[str, str]]],
    read: Callable[[str], PreparedPage | None],
    settings: Settings,
) -> dict[int, tuple[int, str]]:
    """Return, for each wanted (claim index, quote, own page key), the first other page holding the quote.

    The answer is (the page's 1-based number among ``pages``, its URL), as the serial check's
    diagnosis numbered them; a claim whose quote no other page holds is left out. ``read`` gives
    a page again (None when it can no longer be read).
    """
    pending = [(i, quote, own, [_hash(w) for w in needed_words(quote)]) for i, quote, own in wanted]
    found: dict[int, tuple[int, str]] = {}
    for n, page in enumerate(pages, start=1):
        if not pending:
            break
        prints = array("Q")
        prints.frombytes(page.prints)
        hopeful = [p for p in pending if p[2] != page.key and _holds(prints, p[3])]
        if not hopeful:
            continue
        prepared = read(page.url)
        if prepared is None:
            continue
        for i, quote, _, _ in hopeful:
            if match_quote(quote, prepared, settings).found:
                found[i] = (n, page.url)
        pending = [p for p in pending if p[0] not in found]
    return found
