"""Boxes of a PDF page indexed by position, so that the lines near a line are found without reading them all.

A page of thousands of table cells asks, for each cell, which lines stand right under it or right
beside it; reading every line of the page for each would take the square of their number. The
page's width is cut into a fixed number of strips; each box is filed in the strips it covers,
sorted by its top, and a query reads only the strips and the span of tops it asks for.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

Box = tuple[float, float, float, float]  # x0, top, x1, bottom

# Strips the page's width is cut into: a narrow cell falls in one or two, a full-width line in all.
_STRIPS = 64


class BoxIndex:
    """Boxes filed by their horizontal strips and tops; ``near`` returns the keys of those in a region.

    Not a dataclass: an index built once per page and queried, never compared.
    """

    def __init__(self, boxes: list[tuple[Box, int]], width: float) -> None:
        self.width = max(width, 1.0) / _STRIPS
        self.strips: list[list[tuple[float, int]]] = [[] for _ in range(_STRIPS)]
        self.boxes: dict[int, Box] = {}
        for box, key in boxes:
            self.boxes[key] = box
            for strip in self._strips(box[0], box[2]):
                self.strips[strip].append((box[1], key))
        for entries in self.strips:
            entries.sort()

    def _strips(self, x0: float, x1: float) -> range:
        first = min(max(int(x0 / self.width), 0), _STRIPS - 1)
        last = min(max(int(x1 / self.width), 0), _STRIPS - 1)
        return range(first, last + 1)

    def near(self, x0: float, x1: float, top_from: float, top_to: float) -> list[int]:
        """Return the keys of the boxes reaching into [x0, x1] whose tops lie in [top_from, top_to], by top."""
        found: set[int] = set()
        for strip in self._strips(x0, x1):
            entries = self.strips[strip]
            start = bisect_left(entries, (top_from, -1))
            stop = bisect_right(entries, (top_to, float("inf")))
            for _, key in entries[start:stop]:
                box = self.boxes[key]
                if box[0] <= x1 and box[2] >= x0:
                    found.add(key)
        return sorted(found, key=lambda k: (self.boxes[k][1], k))
