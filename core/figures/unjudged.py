"""Why a figure of a claim is not compared at all, in words: never a guess at a figure it cannot read.

A name or reference number (``PEP 632``), a small whole number standing alone, a bound on a day
and month without a year ("as of 17 April", "before July 7"), a figure that cannot be read with
confidence, and a power whose superscript a page may have lost (``10⁸`` against ``108``) are
skipped with these reasons, with a quote as on a page. A day and month alone ("born on February
16") is compared: the same day of the same month, in any year, holds it.
"""

from __future__ import annotations

import re

from core.figures import vocab as v
from core.figures.read import ReadFigure, power_written_flat
from core.models import FigureKind

# Words before a day and month that make it a bound in time ("as of 17 April", "since 7 March").
_BOUND_BEFORE = re.compile(r"\b(?:as of|since|until|till|through|by|before|after)\s*$", re.IGNORECASE)


def skip_reason(fig: ReadFigure, text: str = "") -> str:
    """Return why a claim figure (read from text) is not compared at all (a label, a small number...), "" when it is."""
    if fig.kind is FigureKind.UNREADABLE:
        return f"“{fig.text}” cannot be read with confidence ({fig.unreadable}); it was not compared."
    if fig.kind is FigureKind.PARTIAL_DATE and (
        (fig.hedge and fig.hedge not in v.NOT_HEDGES) or _BOUND_BEFORE.search(text, max(0, fig.start - 12), fig.start)
    ):
        # "as of 17 April", "before July 7": a bound in time on a day of a year the claim does not say.
        return f"“{fig.text}” is a bound on a day and month without a year, too little to check; check it by eye."
    if fig.kind is FigureKind.TIME and v.HEDGE_SIDE.get(fig.hedge):
        return f"“{fig.text}” is a bound on a time of day, which the figures check does not judge; check it by eye."
    if fig.kind is FigureKind.LABEL:
        return f"“{fig.text}” is a name or a reference number, not a quantity; it was not compared."
    if fig.standalone:
        return (
            f"“{fig.text}” is a small whole number standing alone, too common to check against the quote;"
            " check it by eye."
        )
    return ""


def power_doubt(claim: ReadFigure, quote_figs: list[ReadFigure]) -> str:
    """Return why a power and a flattened number cannot be told apart ("10⁸" vs "108"), else ""."""
    flat = power_written_flat(claim)
    if flat and any(q.written == flat and q.power is None for q in quote_figs):
        return (
            f"the quote's “{flat}” may be {claim.text} with its superscript lost; the two cannot be told"
            " apart with confidence, so the figure was not compared."
        )
    for q in quote_figs:
        if claim.power is None and power_written_flat(q) == claim.written and claim.written:
            return (
                f"the claim's “{claim.text}” may be the quote's {q.text} with its superscript lost; the two"
                " cannot be told apart with confidence, so the figure was not compared."
            )
    return ""
