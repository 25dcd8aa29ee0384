"""Superscript note numbers and the closing endnote list of a PDF brief (ChatGPT's export, Gemini's PDF).

PyMuPDF reads a raised note number as a block of its own, away from its sentence: ``place_superscripts``
puts each back into the line on its level, after the word it follows (``Word.sup`` marks it, so the
text glues it to that word). ``mark_endnotes`` marks the list of titles, URL lines and back-link
numbers that closes such a PDF under no heading as a reference list. This module sees words and
blocks only; it refuses to open files (``core.brief.pdf`` does).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from core.brief.blocks import Block, BlockKind, CiteKind
from core.brief.urls import URL_START


@dataclass
class Word:
    text: str
    rect: tuple[float, float, float, float]
    start: int = 0
    end: int = 0
    url: str = ""
    sup: bool = False  # a superscript note number, glued to the word before it
    tail: str = ""  # punctuation set after a raised number in body type ("electron¹." gives "."), kept with it


SUP_TEXT = re.compile(r"^\d{1,3}(?:[,–-]\d{1,3})*$")
# A note number is set clearly smaller than the text it follows (ChatGPT's export: 6 pt on 9 pt).
SUP_RATIO = 0.8


#: A raised note number found in the page's spans: its box and its digits.
Raised = tuple[tuple[float, float, float, float], str]


# Punctuation a raised note number may have after it, set in body type in the same word ("electron¹.", "³:").
_NOTE_TAIL = re.compile(r"[.,;:!?)\]\"”’']{1,3}")


def split_raised(words: list[Any], raised: list[Raised]) -> list[Any]:
    """Return the page's words with each raised note number inside a word split off as a word of its own.

    Each word keeps PyMuPDF's 8 values and gains a ninth, the punctuation set after its raised
    number ("electron¹." is "electron", then "1" with "." after it; a spaced "³:" is "3" with ":").
    The eighth (the word's number in its line) becomes True for a split-off note number, so the
    reader knows it is raised whatever its box's height.
    """
    if not raised:
        return [(*w[:8], "") for w in words]
    out = []
    for w in words:
        x0, y0, x1, y1, text = w[0], w[1], w[2], w[3], w[4]
        hit = None
        for box, digits in raised:
            if not (x0 - 1 < box[0] < x1 + 1 and y0 - 2 <= box[1] <= y1):
                continue
            at = text.rfind(digits)
            tail = text[at + len(digits) :] if at >= 0 else ""
            if at >= 0 and (not tail or _NOTE_TAIL.fullmatch(tail)) and (at or tail):
                hit = (box, digits, at, tail)
                break
        if hit is None:
            out.append((*w[:8], ""))
            continue
        box, digits, at, tail = hit
        if at:
            out.append((x0, y0, box[0], y1, text[:at], w[5], w[6], w[7], ""))
        out.append((box[0], box[1], box[2], box[3], digits, w[5], w[6], True, tail))
    return out


def _glued_to(text: str, rect: tuple[float, float, float, float], raised: Raised) -> bool:
    """Return True when the raised number ends this word, inside its box: "problem-solving.3"."""
    box, digits = raised
    inside = rect[0] < box[0] < rect[2] + 1 and rect[1] - 2 <= box[1] <= rect[3]
    return inside and len(text) > len(digits) and text.endswith(digits)


def glues(before: Word) -> bool:
    """Return True when a superscript number may be glued to the word before it (not another number, not a URL)."""
    return not before.sup and not URL_START.match(before.text) and "://" not in before.text


def body_height(words: list[Any]) -> float:
    """Return the median height of the page's words: the body text's line height."""
    heights = sorted(w[3] - w[1] for w in words if w[4].strip())
    return heights[len(heights) // 2] if heights else 0.0


def place_superscripts(
    sups: list[Word], lines: dict[tuple[int, int], list[Word]], blocks: dict[int, list[list[Word]]]
) -> None:
    """Put each superscript number into the line it is raised above, after the word to its left.

    PyMuPDF reads a raised number as a block of its own, away from its sentence; a number that
    stands on no line of text stays a block of its own.
    """
    bounds = _bounds(lines)
    for sup in sups:
        home = _line_left_of(sup, bounds)
        if home is None:
            home = _line_above(sup, bounds)
            if home is not None:
                lines[home].append(sup)  # a number wrapped onto the next line ends the line above
                continue
            key = (10_000 + len(blocks), 0)
            lines[key] = [sup]
            blocks.setdefault(key[0], []).append(lines[key])
            continue
        words = lines[home]
        at = next((i for i, w in enumerate(words) if w.rect[0] >= sup.rect[0]), len(words))
        words.insert(at, sup)


Bounds = dict[tuple[int, int], tuple[float, float, float, float]]


def _bounds(lines: dict[tuple[int, int], list[Word]]) -> Bounds:
    """Return each line's (top, bottom, left, right), measured once per page."""
    return {
        key: (min(w.rect[1] for w in ws), max(w.rect[3] for w in ws), ws[0].rect[0], ws[-1].rect[2])
        for key, ws in lines.items()
        if ws
    }


def _line_left_of(sup: Word, bounds: Bounds) -> tuple[int, int] | None:
    """Return the line on the superscript's level that ends nearest before it (a few spaces' width at most)."""
    cy = (sup.rect[1] + sup.rect[3]) / 2
    best, gap = None, float("inf")
    for key, (top, bottom, left, right) in bounds.items():
        if not top - 2 <= cy <= bottom:
            continue
        if left - 2 <= sup.rect[0] <= right:
            return key  # inside the line: goes between its words
        # Up to a few line heights away: a note may follow a space or other notes.
        if right <= sup.rect[0] and sup.rect[0] - right < gap and sup.rect[0] - right <= 3 * (bottom - top):
            best, gap = key, sup.rect[0] - right
    return best


def _line_above(sup: Word, bounds: Bounds) -> tuple[int, int] | None:
    """Return the line right above a superscript that wrapped to the start of the next line, or None."""
    best, best_bottom = None, 0.0
    height = sup.rect[3] - sup.rect[1]
    for key, (_top, bottom, left, _right) in bounds.items():
        if bottom - 1 <= sup.rect[1] <= bottom + height * 1.5 and sup.rect[0] <= left + 24 and bottom > best_bottom:
            best, best_bottom = key, bottom
    return best


def mark_endnotes(blocks: list[Block]) -> None:
    """Mark the endnote list that closes a PDF under no heading: titles, their URLs, numbers, never claims.

    ChatGPT's PDF export lists its sources after the text: each a page title (with small
    back-link numbers), then its URL as a line of its own. The list is the trailing run of such
    blocks that holds at least one URL line; it ends (reading backwards) at the first block
    that is a sentence of prose.
    """
    start = len(blocks)
    urls = 0
    for n in range(len(blocks) - 1, -1, -1):
        kind = _entry_part(blocks[n])
        if kind is None:
            break
        urls += kind
        start = n
    if urls:
        for block in blocks[start:]:
            block.kind = BlockKind.REFERENCE


def _entry_part(block: Block) -> int | None:
    """Return 1 for a URL line, 0 for a title or number line of an endnote list, None for prose."""
    text = block.text.strip()
    if any(c.kind != CiteKind.MARKER and c.end - c.start >= 0.8 * len(text) for c in block.cites):
        return 1  # a URL line, or a title linked whole
    rest = text
    for c in sorted(block.cites, key=lambda c: -c.start):
        if c.kind == CiteKind.MARKER:
            rest = rest[: c.start] + rest[c.end :]
    if re.fullmatch(r"[\d.\s]*", rest):
        return 0
    # A title: short, and not ended like a sentence (prose ends with a full stop).
    if len(rest.split()) <= 30 and not rest.rstrip().endswith((".", ":", "!", "?")):
        return 0
    return None
