"""No diagnosis ever changes a verdict: every false quote of the diagnosis eval, diagnosed.

For every mutated quote of tests/quality/eval_diagnose.py (a real sentence of an aeb page with
one word or number changed, dropped, added, negated or moved), for the same quotes cited on the
wrong page (misattribution), for the honest sentences themselves (verified) and for quotes that
cut a "not" away (found but blocked), the
verdict computed from the QuoteMatch alone is the same before and after diagnosing, the
QuoteMatch is untouched field for field, and what comes back is a NearMiss and nothing else.

tests/quality/eval_match.py builds its false quotes inside its evaluate() and exposes no
generator, so the mutations here are this eval's own, over the same aeb corpus.
"""

from __future__ import annotations

import copy
import dataclasses
import re

from core.diagnose import diagnose
from core.match import match_quote
from core.models import NearMiss, QuoteMatch, Verdict
from tests.quality import eval_diagnose


def verdict_of(m: QuoteMatch) -> Verdict:
    """Return the verdict the matcher's answer alone gives (figures aside)."""
    if not m.found:
        return Verdict.QUOTE_NOT_FOUND
    if m.blocking or m.too_short:
        return Verdict.NEEDS_REVIEW
    return Verdict.VERIFIED


def _everything(m: QuoteMatch) -> tuple:  # type: ignore[type-arg]
    # astuple reaches the fields kept out of equality too (spans, pages): all must stay.
    return dataclasses.astuple(m)


def test_no_diagnosis_changes_a_verdict(corpus):
    seen = {Verdict.QUOTE_NOT_FOUND: 0, Verdict.NEEDS_REVIEW: 0, Verdict.VERIFIED: 0}
    previous = None
    sentences: set[str] = set()
    for m, prepared in eval_diagnose.mutations():
        quotes = [m.quote]
        if m.sentence not in sentences:
            sentences.add(m.sentence)
            quotes.append(m.sentence)  # the honest sentence itself: verified, diagnosed all the same
        cut = re.search(r"\bnot (\w+(?: \w+){4,})", m.sentence)
        if cut:
            quotes.append(cut.group(1))
        for quote in quotes:
            for page, others in ((prepared, {}), (previous or prepared, {"https://example.org/own": prepared})):
                match = match_quote(quote, page)
                before, snapshot = verdict_of(match), copy.deepcopy(_everything(match))
                near = diagnose(quote, page, match, others)
                assert type(near) is NearMiss
                assert _everything(match) == snapshot, quote
                assert verdict_of(match) is before, quote
                seen[before] += 1
        previous = prepared
    # The run covered failed quotes, blocked ones and verified ones alike.
    assert seen[Verdict.QUOTE_NOT_FOUND] > 3000
    assert seen[Verdict.NEEDS_REVIEW] > 10
    assert seen[Verdict.VERIFIED] > 100
