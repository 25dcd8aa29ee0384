"""A sentence that speaks of a subject named elsewhere: "It has grossed…", "She was born…".

A page names its subject once and then refers to it: "Ralph Breaks the Internet is a 2018 film.
… It has grossed $529 million worldwide." The claim names the subject ("Ralph Breaks the
Internet grossed more than $528 million"), so that BM25 ranks the sentence holding the evidence
below one that holds the name and less of the claim. ``credit_references`` credits a best
sentence opening with a personal pronoun, holding a figure near the claim's, with the claim's
names it lacks. Measured on the claims corpus (``make eval`` section ``claims``): "The film
has…", "His…", "This…" refer too, but on a page of many subjects (an answer's sources joined)
they credited the wrong one and lowered ExpertQA's best three; without the near figure a
pronoun's subject is anyone's. It credits terms; the ranking (``core.diagnose.rank``) ranks.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence

from core.diagnose.page_index import Prepared
from core.diagnose.terms import Term, TermKind
from core.settings import Settings

# Pronouns opening a sentence whose subject is named in another one ("It has…", "They were…").
REFERRING = frozenset({"it", "its", "he", "she", "they"})


def refers(prepared: Prepared, first: int, last: int) -> bool:
    """Return True when the sentence of tokens [first, last) opens with a personal pronoun and goes on."""
    return last - first >= 2 and prepared.words[first] in REFERRING


def credit_references(
    parts: dict[int, dict[str, float]],
    prepared: Prepared,
    bounds: Sequence[int],
    terms: tuple[Term, ...],
    stats: tuple[Mapping[str, float], Mapping[str, int], float],
    settings: Settings,
) -> None:
    """Add the claim's names to the BM25 parts of each best sentence that refers to them by a pronoun.

    ``parts[j]`` is sentence j's score per claim token (a near figure's under "#figure…");
    ``stats`` the tokens' IDF, their sentence counts and the mean sentence length. Only the
    page's subject is credited: a name standing in at least ``rank_reference_least`` sentences.
    """
    idf, dfs, avgdl = stats
    names = {
        k for t in terms if t.kind is TermKind.NAME for k in t.keys if dfs.get(k, 0) >= settings.rank_reference_least
    }
    if not names:
        return
    k1, b = settings.rank_k1, settings.rank_b
    for j in heapq.nlargest(settings.rank_best_sentences, parts, key=lambda j: sum(parts[j].values())):
        held = parts[j].keys()
        if (
            names & held
            or not any(t.startswith("#figure") for t in held)
            or not refers(prepared, bounds[j], bounds[j + 1])
        ):
            continue
        norm = k1 * (1 - b + b * (bounds[j + 1] - bounds[j]) / avgdl)
        for k in names:
            parts[j][k] = settings.rank_reference_share * idf[k] * (k1 + 1) / (1 + norm)
