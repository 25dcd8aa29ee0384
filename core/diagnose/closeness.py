"""How near a page's figure is to a claim's, for the ranking: the same value, a bound kept, a number counting nothing.

``core.diagnose.rank`` scores a sentence by the figures of the claim's kind near their value;
the rules of nearness are here, on read figures only.
"""

from __future__ import annotations

import math

from core.figures import ReadFigure
from core.figures.vocab import HEDGE_SIDE
from core.settings import Settings


def counts_nothing(text: str, figure: ReadFigure) -> bool:
    """Return True for a bare number that counts nothing: one ending a name ("Toy Story 4", "Vol. 2"), a list's "1."."""
    if not figure.standalone or figure.hedge:
        return False
    line = text[: figure.start].rsplit("\n", 1)[-1]
    if not line.strip() and text[figure.end : figure.end + 1] in (".", ")"):
        return True
    before = line.split()
    return bool(before) and before[-1][:1].isupper()


def closeness(claim: ReadFigure, page: ReadFigure, settings: Settings) -> float:
    """Return 1 for the same value, falling to 0 at a factor of 2 apart; 0 for figures of another kind or currency.

    A claim's bound ("more than 300", "less than $79 million") is as near to a page figure that
    keeps it (349; $77.6 million) as the same value would be, falling off only slowly with the
    distance: the page seldom writes the bound itself.
    """
    if claim.kind != page.kind or claim.currency != page.currency or claim.value is None or page.value is None:
        return 0.0
    a, b = float(claim.value), float(page.value)
    if a <= 0 or b <= 0:
        return 1.0 if a == b else 0.0
    apart = abs(math.log2(a / b))
    if _keeps(claim, page):
        return max(0.0, 1.0 - apart * settings.rank_bound_falloff)
    near = max(0.0, 1.0 - apart)
    # "grossed $524.9 million" breaks "more than $528 million": a figure keeping the bound elsewhere is the evidence.
    return near * settings.rank_broken_bound_share if _breaks(claim, page) else near


def _breaks(claim: ReadFigure, page: ReadFigure) -> bool:
    """Return True when the page's figure lies on the wrong side of the claim's bound: 524.9 for "more than 528"."""
    side = HEDGE_SIDE.get(claim.hedge)
    if side is None or claim.value is None or page.value is None or page.value == claim.value:
        return False
    return (page.value > claim.value) != (side == "more")


def _keeps(claim: ReadFigure, page: ReadFigure) -> bool:
    """Return True when the page's figure keeps the claim's bound: 349 or "over 300" for "more than 300"."""
    side = HEDGE_SIDE.get(claim.hedge)
    if side is None or claim.value is None or page.value is None:
        return False
    if page.value == claim.value:
        return HEDGE_SIDE.get(page.hedge) == side
    return (page.value > claim.value) == (side == "more")


__all__ = ["closeness", "counts_nothing"]
