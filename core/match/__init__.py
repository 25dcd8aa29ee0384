"""The exact quote matcher: ``prepare`` a page once, then ``match_quote`` each quote on it.

``page`` holds the prepared page, ``matcher`` finds a quote's fragments on it, ``context``
and ``markers`` work on top of both (what a found quote cut away, note numbers glued to
words), ``negation`` is the one rule of what a negation governs, and ``compare`` sets a claim
against its evidence (a negation on one side only, a dropped hedge or condition). Exact
matching alone decides; nothing here is fuzzy.
"""

from core.match.compare import compare_claim
from core.match.matcher import is_too_short, match_quote, needed_words, split_fragments
from core.match.page import PreparedPage, prepare

__all__ = ["PreparedPage", "compare_claim", "is_too_short", "match_quote", "needed_words", "prepare", "split_fragments"]
