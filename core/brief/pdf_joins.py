"""Text a PDF's layout broke apart, put back together: a sentence across blocks or pages, a URL across a line end.

A page break, or an inline formula the PDF engine drops, cuts a sentence into two blocks ("The
model predicts that" at the foot of page 1, "the gap closes.²" at the top of page 2):
``join_split_sentences`` joins them when the first ends without a sentence's end and the second
goes on in lower case, stepping over a page number between them. A URL set over a line end is one
URL when ``url_goes_on`` says the next line's start continues it. This module sees blocks and
words only; it refuses to open files (``core.brief.pdf`` does).
"""

from __future__ import annotations

import dataclasses
import re

from core.brief.blocks import Block, BlockKind
from core.brief.refs import REF_HEADINGS
from core.brief.urls import URL_START, find_urls

# How a block that a sentence goes on after may end: a word or a comma, never a sentence's end or a colon.
_OPEN_END = re.compile(r"[\w,]$")
# A block of fewer words is a title or a label, not the head of a sentence the layout cut.
_MOST_TITLE_WORDS = 4
_PAGE_NUMBER = re.compile(r"\s*(?:page\s+)?\d{1,4}(?:\s*(?:/|of)\s*\d{1,4})?\s*", re.IGNORECASE)
# Characters that can stand in a URL (RFC 3986's unreserved, reserved and "%").
_ENTRY_NUMBER = re.compile(r"\[?\d{1,5}[\].)]")
_URL_CHARS = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+")


def join_split_sentences(blocks: list[Block]) -> list[Block]:
    """Return the blocks with each sentence that a page break or a dropped formula cut in two as one block.

    The joined block keeps the first part's page and place; the second part's citations move with it.
    """
    out: list[Block] = []
    skipped: list[Block] = []  # page numbers between the two parts, kept after the joined block
    for block in blocks:
        head = out[-1] if out else None
        if head is not None and _page_number(block) and _open(head):
            skipped.append(block)
            continue
        if head is not None and _open(head) and _goes_on(block):
            out[-1] = _joined(head, block)  # the page numbers stay pending: a third part may follow
            continue
        out.extend(skipped)
        skipped = []
        out.append(block)
    out.extend(skipped)
    return out


def _open(block: Block) -> bool:
    """Return True for a block of prose that stops mid-sentence (a title or a heading, "Sources used", is none)."""
    text = block.text.rstrip()
    return (
        block.kind == BlockKind.PARAGRAPH
        and bool(_OPEN_END.search(text))
        and len(text.split()) >= _MOST_TITLE_WORDS
        and not REF_HEADINGS.match(text)
    )


def _page_number(block: Block) -> bool:
    return bool(_PAGE_NUMBER.fullmatch(block.text)) and not block.cites


def _goes_on(block: Block) -> bool:
    text = block.text.lstrip()
    return block.kind == BlockKind.PARAGRAPH and text[:1].islower() and not URL_START.match(text)


def _joined(head: Block, tail: Block) -> Block:
    shift = len(head.text) + 1
    cites = [*head.cites, *(dataclasses.replace(c, start=c.start + shift, end=c.end + shift) for c in tail.cites)]
    return dataclasses.replace(head, text=f"{head.text} {tail.text}", cites=cites)


def url_goes_on(url_word: str, spaced: bool, next_word: str, same_link: bool | None) -> bool:
    """Return True when a URL ending a line goes on at the next line's start, so the two are one URL.

    ``spaced``: the source text has white space after the URL at the line end; ``same_link``: True
    when one link annotation covers both, False when an annotation covers one only, None when none does.
    """
    ends = find_urls(url_word)
    if not ends or ends[-1][1] < len(url_word):
        return False  # the line does not end in a URL, or ends in its sentence's punctuation
    if same_link is not None:
        return same_link
    return (
        not spaced
        and bool(_URL_CHARS.fullmatch(next_word))
        and not URL_START.match(next_word)
        and not _ENTRY_NUMBER.fullmatch(next_word)  # "2." opening a reference list's next entry
    )
