"""The passage offered for a claim without a quote, as the desk and every report show it.

What the machine found for an unquoted claim: the passage offered first (``near_miss.candidates[0]``)
cut into runs with the claim's words and figures it holds marked ("held"), what it holds and
lacks, its signs, and the findings an editor goes to first in a long brief (figures that stand
nowhere on the page, signs of a negation, hedge or condition). It decides nothing: the verdict
is core.check's, and an offered passage is checked only once adopted as the quote.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.models import Candidate, ClaimResult, Flag, FlagKind
from core.report.marks import Segment, segments
from core.report.wording import sign_words, terms_words

#: The flags that compare a claim with its evidence (its quote, an adopted passage or the passage offered).
SIGN_KINDS = frozenset({FlagKind.NEGATION_DIFFERS, FlagKind.HEDGE_DROPPED, FlagKind.CONDITION_DROPPED})
HELD_MARK = "held"


@dataclass(frozen=True)
class Offer:
    """One passage offered for a claim without a quote, ready to draw: its runs, held and lacked terms, signs."""

    index: int  # 0 = the passage offered first
    candidate: Candidate
    segments: tuple[Segment, ...]
    holds: str  # "global, interpreter, lock; names PEP; figures 703", or ""
    lacks: str
    signs: tuple[str, ...]  # each sign in words, a negation first


def unquoted(result: ClaimResult) -> bool:
    """Return True when the claim offers no quote and its page was read (it has passages offered, or none found)."""
    return not (result.claim.quote or "").strip() and result.near_miss is not None and result.match is None


def offers(result: ClaimResult) -> tuple[Offer, ...]:
    """Return the passages offered for a claim without a quote, best first; () for a claim with a quote."""
    if not unquoted(result) or result.near_miss is None:
        return ()
    return tuple(_offer(i, c) for i, c in enumerate(result.near_miss.candidates))


def offered_first(result: ClaimResult) -> Offer | None:
    """Return the passage offered first for a claim without a quote, or None."""
    found = offers(result)
    return found[0] if found else None


def _offer(index: int, c: Candidate) -> Offer:
    spans = [(s - c.start, e - c.start, HELD_MARK) for s, e in c.highlights if e > s]
    signs = sorted(c.signs, key=lambda f: f.kind is not FlagKind.NEGATION_DIFFERS)  # a negation first
    return Offer(
        index=index,
        candidate=c,
        segments=tuple(segments(c.text, spans)),
        holds=terms_words(c.holds.words, c.holds.names, c.holds.figures),
        lacks=terms_words(c.lacks.words, c.lacks.names, c.lacks.figures),
        signs=tuple(flag_words(f) for f in signs),
    )


def flag_words(flag: Flag) -> str:
    """Return a sign or claim-vs-evidence flag in words, with both sides' words."""
    return sign_words(flag.kind.value, flag.message, flag.claim_words, flag.page_words)


def figures_nowhere(result: ClaimResult) -> bool:
    """Return True when a figure of the claim stands nowhere on its cited page."""
    return bool(result.figures.nowhere)


def signs(result: ClaimResult) -> tuple[Flag, ...]:
    """Return where the claim parts from its evidence: flags on its quote's match, else the first offer's signs."""
    flags = tuple(f for f in result.match.flags if f.kind in SIGN_KINDS) if result.match is not None else ()
    first = offered_first(result)
    return flags + (first.candidate.signs if first is not None else ())


def has_signs(result: ClaimResult) -> bool:
    """Return True when the claim parts from its quote or from the passage offered first."""
    return bool(signs(result))


def figure_statuses(result: ClaimResult) -> str:
    """Return every figure's status in one line for a CSV cell ("25%: missing (nowhere); 703: matched (passage)")."""
    parts = []
    for f in result.figures.figures:
        where = f" ({f.where.value})" if f.where is not None else ""
        parts.append(f"{f.text}: {f.status.value}{where}")
    return "; ".join(parts)


def has_finding(result: ClaimResult, finding: str) -> bool:
    """Return True when the claim has the finding (a key of wording.FINDING_WORDS: "nowhere", "signs")."""
    if finding == "nowhere":
        return figures_nowhere(result)
    if finding == "signs":
        return has_signs(result)
    return False
