"""The figures check: read every figure of a claim and of its quote, and compare them.

``read`` (with ``scan``, ``dates`` and ``vocab``) reads figures out of any text; ``compare``
checks each figure of a claim against the quote's.
"""

from __future__ import annotations

from core.figures.compare import check_figures
from core.figures.read import ReadFigure, read_figures

__all__ = ["ReadFigure", "check_figures", "read_figures"]
