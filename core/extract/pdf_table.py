"""The cells and rows of a PDF page's tables and figure labels, found by the geometry of its text lines.

MuPDF's blocks do not follow a table's cells: it cuts a cell whose text wraps ("Total Number / of
Class A Shares / Purchased") into blocks stacked one under another, and puts pieces of several
cells in one block. So a block of narrow lines out of reading order (a line higher than the one
before it, or left of it on its band) is taken apart into its lines, and a cell's lines are joined
back when they follow at the leading of one paragraph's lines (a table's rows stand further apart)
in one size, each right under the one before and alone there (a header spanning two columns wraps
into neither). Cells side by side whose first lines share one baseline band (a row
read left to right), or cells of lines one under another that stand mostly level (a header of
bottom-aligned or centred cells of different line counts), are the cells of one row: they are read
as one block, left to right, as a reader (and pdfminer) reads it.

It refuses to read as one cell what a table sets as rows: a line with a figure (no letters) next to
it on its band is a row of its own ("OOD: 3 0.00" over "OOD: 4 0.00"). A line as wide as running
text is never a cell, nor is a piece of a line MuPDF cut at a subscript (glued to the text beside
it), and on a page set in two columns a row stays in its column.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right, insort
from dataclasses import dataclass
from itertools import pairwise

from core.extract.pdf_index import Box, BoxIndex

# A line this wide (share of half the page) is running text, not a table cell or a label.
RUNNING = 0.6
# Two lines sharing this much of the taller one's height stand on one baseline band (not a rotated
# stamp); two cells sharing this much of the shorter one's height stand level, in one row.
_BAND = 0.6
# The wrapped lines of one cell follow at a paragraph's leading, at most this many times their font
# size (1.1-1.25 in the corpus); a table's rows stand further apart (1.7-1.8 in its reports).
_LEADING = 1.3
# Two lines of one cell are set in one font size (points of slack).
_SIZE = 0.3
# A header cell wraps over a few lines; a taller stack is read by its first line only (and the
# search for level cells stays bounded on a page of thousands of cells).
_CELL_LINES = 8
# Pieces of one line of text stand closer than this many times their font size (a word space):
# the cells of a table row stand further apart (0.6 em and more in the corpus).
_SPACE = 0.35
# The blocks of a two-column page stand on one side of its middle within this many points.
_MIDDLE = 2.0
_LETTER = re.compile(r"[^\W\d_]")

Line = tuple[str, Box, float]  # text, bounding box, font size (of its longest span)


@dataclass(frozen=True)
class Block:
    """One block of a page's text: its lines, its box, and the geometry the table rules read."""

    lines: list[str]
    x0: float
    y0: float
    x1: float
    y1: float
    # The first line's top and bottom, and whether a line runs the width of a column of text.
    first: tuple[float, float] = (0.0, 0.0)
    running: bool = True
    # Every line with its box and size; whether they stand one under another (a cell, not a row).
    geometry: tuple[Line, ...] = ()
    stacked: bool = False

    @property
    def last(self) -> tuple[float, float]:
        box = self.geometry[-1][1]
        return box[1], box[3]


def block_of(lines: list[Line], mid: float) -> Block:
    """Return the block of these lines (not empty), with the geometry the table rules read."""
    boxes = [bb for _, bb, _ in lines]
    return Block(
        [t for t, _, _ in lines],
        min(bb[0] for bb in boxes),
        min(bb[1] for bb in boxes),
        max(bb[2] for bb in boxes),
        max(bb[3] for bb in boxes),
        (boxes[0][1], boxes[0][3]),
        any(bb[2] - bb[0] >= RUNNING * mid for bb in boxes),
        tuple(lines),
        all(b[1] >= a[3] - 0.5 * (a[3] - a[1]) and min(a[2], b[2]) > max(a[0], b[0]) for a, b in pairwise(boxes)),
    )


def two_columns(blocks: list[Block], width: float) -> bool:
    """Return True when the page is set in two columns: each half holds a real share of the text."""
    mid = width / 2
    chars = sum(len(" ".join(b.lines)) for b in blocks) or 1
    left_chars = sum(len(" ".join(b.lines)) for b in blocks if b.x1 <= mid + _MIDDLE)
    right_chars = sum(len(" ".join(b.lines)) for b in blocks if b.x0 >= mid - _MIDDLE)
    return left_chars >= 0.25 * chars and right_chars >= 0.25 * chars


def table_blocks(blocks: list[Block], width: float) -> list[Block]:
    """Return the page's blocks with its tables' cells joined, and each row of cells as one block."""
    return rows(stack_cells(_apart_lines(blocks, width), width), width)


def _apart_lines(blocks: list[Block], width: float) -> list[Block]:
    """Return the blocks with each block of pieces of cells cut into its lines.

    A block is taken apart when its narrow lines are out of reading order and one of them wraps
    into a line of the page or from one: a formula's lines, out of order too, carry no wrapped text.
    """
    lines = [line for b in blocks for line in b.geometry]
    index: BoxIndex | None = None
    out: list[Block] = []
    for b in blocks:
        geometry = b.geometry
        if b.running or not any(
            _goes_back(geometry[k - 1] if k else None, geometry[k], geometry[k + 1]) for k in range(len(geometry) - 1)
        ):
            out.append(b)
            continue
        index = index or BoxIndex([(line[1], n) for n, line in enumerate(lines)], width)
        if any(_wrapped(line, lines, index) for line in geometry):
            out += [block_of([line], width / 2) for line in geometry]
        else:
            out.append(b)
    return out


def _wrapped(line: Line, lines: list[Line], index: BoxIndex) -> bool:
    """Return True when line wraps into a line of the page right under it, or carries on one right above it."""
    x0, top, x1, bottom = line[1]
    reach = _LEADING * (line[2] + _SIZE)
    if any(_wraps(line, lines[n]) for n in index.near(x0, x1, bottom - 0.5 * (bottom - top), top + reach)):
        return True
    return any(_wraps(lines[n], line) for n in index.near(x0, x1, top - reach, top))


def _goes_back(before: Line | None, p: Line, q: Line) -> bool:
    """Return True when line q, read after p, goes back: above p, left of it on its band, or up after a wrapped line.

    A line half a line higher than the one before is a cell set between two rows ("87.07" beside
    "Qwen2-7B-Instruct" over "+ YARN + DCA"), unless the one before wrapped from the line above it:
    then MuPDF has gone on from one cell of a header to the next ("CoT finetuned / T5 XXL using",
    then "CoT 8-Shot").
    """
    (x0_p, top_p, _, bottom_p), (x0_q, top_q, _, bottom_q) = p[1], q[1]
    if bottom_q <= top_p + 1.0 or (_same_band((top_p, bottom_p), (top_q, bottom_q)) and x0_q < x0_p):
        return True
    return top_q < top_p - 0.5 * (bottom_p - top_p) and before is not None and _wraps(before, p)


def _merge(parts: list[Block], head: Block, stacked: bool) -> Block:
    return Block(
        [line for b in parts for line in b.lines],
        min(b.x0 for b in parts),
        min(b.y0 for b in parts),
        max(b.x1 for b in parts),
        max(b.y1 for b in parts),
        head.first,
        False,
        tuple(line for b in parts for line in b.geometry),
        stacked,
    )


class _Bands:
    """The lines of a page on their baseline bands, left to right: which lines stand next to a line.

    Not a dataclass: built once per page (sorted, so a page of thousands of cells costs little) and
    queried, never compared.
    """

    def __init__(self, blocks: list[Block]) -> None:
        lines = sorted((line[1][1], k, n) for k, b in enumerate(blocks) for n, line in enumerate(b.geometry))
        self.taken: set[tuple[int, int]] = set()
        band: list[tuple[float, int, int]] = []
        anchor = (0.0, 0.0)
        for _, k, n in lines:
            box = blocks[k].geometry[n][1]
            if band and _same_band(anchor, (box[1], box[3])):
                band.append((box[0], k, n))
                continue
            self._mark(blocks, band)
            band, anchor = [(box[0], k, n)], (box[1], box[3])
        self._mark(blocks, band)

    def _mark(self, blocks: list[Block], band: list[tuple[float, int, int]]) -> None:
        """Note the lines of one band that have a figure, or a piece of their own line, next to them."""
        band.sort()
        lines = [blocks[k].geometry[n] for _, k, n in band]
        for at in range(len(band) - 1):
            left, right = lines[at], lines[at + 1]
            glued = right[1][0] - left[1][2] < _SPACE * min(left[2], right[2])
            if glued or not _LETTER.search(right[0]):
                self.taken.add(band[at][1:])
            if glued or not _LETTER.search(left[0]):
                self.taken.add(band[at + 1][1:])

    def alone(self, k: int, n: int) -> bool:
        """Return True when line n of block k stands alone on its band: no figure, nor text glued to it, next to it."""
        return (k, n) not in self.taken


def _wraps(a: Line, b: Line) -> bool:
    """Return True when line b carries on line a's cell: right under it, at a paragraph's leading, in its size."""
    box_a, size, box_b = a[1], a[2], b[1]
    if abs(size - b[2]) > _SIZE:
        return False
    below = box_b[1] >= box_a[3] - 0.5 * (box_a[3] - box_a[1]) and box_b[1] - box_a[1] <= _LEADING * size
    overlap = min(box_a[2], box_b[2]) - max(box_a[0], box_b[0])
    return below and overlap >= 0.5 * min(box_a[2] - box_a[0], box_b[2] - box_b[0])


def stack_cells(blocks: list[Block], width: float) -> list[Block]:
    """Return the blocks with each cell's wrapped pieces joined into one block, at its first piece's place."""
    cells = [i for i, b in enumerate(blocks) if b.stacked and not b.running]
    if not cells:
        return blocks
    firsts = BoxIndex([(blocks[i].geometry[0][1], i) for i in cells], width)
    bands = _Bands(blocks)
    under: dict[int, list[int]] = {}
    over: dict[int, list[int]] = {}
    for i in cells:
        a = blocks[i]
        _, (x0, top, x1, bottom), size = a.geometry[-1]
        for j in firsts.near(x0, x1, bottom - 0.5 * (bottom - top), top + _LEADING * size):
            if j != i and _wraps(a.geometry[-1], blocks[j].geometry[0]):
                under.setdefault(i, []).append(j)
                over.setdefault(j, []).append(i)
    # Only a piece right under one block carries it on, and only when no figure stands next to
    # either: a header spanning two columns ("T5 XXL using" over "PaLM" and "GPT-3") wraps into
    # neither, and "OOD: 3" beside "0.00" over "OOD: 4" beside "0.00" are two rows of a table.
    below = {
        i: js[0]
        for i, js in under.items()
        if len(js) == 1
        and len(over[js[0]]) == 1
        and bands.alone(i, len(blocks[i].geometry) - 1)
        and bands.alone(js[0], 0)
    }
    if not below:
        return blocks
    out: list[Block | None] = list(blocks)
    for head in sorted(set(below) - set(below.values())):
        chain = [head]
        while chain[-1] in below:
            chain.append(below[chain[-1]])
        parts = [blocks[k] for k in chain]
        for k in chain:
            out[k] = None
        out[min(chain)] = _merge(parts, parts[0], True)
    return [b for b in out if b is not None]


def _side(b: Block, mid: float) -> int | None:
    """Return which column of a two-column page b stands in (0 left, 1 right), or None when it spans both."""
    if b.x1 <= mid + _MIDDLE:
        return 0
    return 1 if b.x0 >= mid - _MIDDLE else None


def _level(a: Block, b: Block) -> bool:
    """Return True when cells a and b (lines one under another) share most of the shorter one's height."""
    shared = min(a.y1, b.y1) - max(a.y0, b.y0)
    return shared >= _BAND * min(a.y1 - a.y0, b.y1 - b.y0) > 0


def _header_cell(b: Block) -> bool:
    return b.stacked and not b.running and len(b.lines) <= _CELL_LINES


def rows(blocks: list[Block], width: float) -> list[Block]:
    """Return the blocks with the cells of each table row joined into one block, left to right.

    Cells of a row are blocks side by side whose first lines share one baseline band, or cells of
    a few lines one under another that stand level; none of them holds a line as wide as running
    text, and on a page set in two columns all of them stand in one column.
    """
    mid = width / 2
    in_column = two_columns(blocks, width)
    # Cells by the top of their first line and by their top: a block is compared only with those
    # within the tallest first line (or header cell) of its own, so a table of thousands of cells is
    # not read against every other block of its page.
    side = {i: _side(b, mid) if in_column else 0 for i, b in enumerate(blocks) if not b.running}
    cells = [i for i, at in side.items() if at is not None]
    header = {i for i in cells if _header_cell(blocks[i])}
    by_first = sorted(cells, key=lambda i: blocks[i].first[0])
    firsts = [blocks[i].first[0] for i in by_first]
    tallest = max((blocks[i].first[1] - blocks[i].first[0] for i in cells), default=0.0)
    headers = sorted(header, key=lambda i: blocks[i].y0)
    header_tops = [blocks[i].y0 for i in headers]
    highest = max((blocks[i].y1 - blocks[i].y0 for i in headers), default=0.0)
    out: list[Block] = []
    placed: set[int] = set()
    cell = set(cells)
    for i, a in enumerate(blocks):
        if i in placed:
            continue
        row = [a]
        spans = [(a.x0, a.x1)]  # the row's cells left to right, to place a new one by bisection
        if i in cell:
            near = set(by_first[bisect_left(firsts, a.first[0] - tallest) : bisect_right(firsts, a.first[1])])
            if i in header:
                near.update(headers[bisect_left(header_tops, a.y0 - highest) : bisect_right(header_tops, a.y1)])
            for j in sorted(k for k in near if k > i and k not in placed and side[k] == side[i]):
                b = blocks[j]
                level = i in header and j in header and len(a.lines) + len(b.lines) > 2 and _level(a, b)
                if (_same_band(a.first, b.first) or level) and _fits(spans, b):
                    insort(spans, (b.x0, b.x1))
                    row.append(b)
                    placed.add(j)
        if len(row) == 1:
            out.append(a)
            continue
        row.sort(key=lambda b: b.x0)
        out.append(_merge(row, a, False))
    return out


def _same_band(a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Return True when lines a and b (top, bottom) share most of the taller one's height: one baseline band."""
    (top_a, bottom_a), (top_b, bottom_b) = a, b
    shared = min(bottom_a, bottom_b) - max(top_a, top_b)
    return shared >= _BAND * max(bottom_a - top_a, bottom_b - top_b) > 0


def _fits(spans: list[tuple[float, float]], b: Block) -> bool:
    """Return True when b stands beside the row's cells (spans, left to right), overlapping none (a point of slack).

    The cells stand apart, so only b's neighbours on either side can overlap it.
    """
    at = bisect_left(spans, (b.x0, b.x1))
    return all(b.x0 >= x1 - 1.0 or x0 >= b.x1 - 1.0 for x0, x1 in spans[max(at - 1, 0) : at + 1])
