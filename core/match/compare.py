"""Where a claim parts from its evidence: a negation on one side only, a hedge or condition the claim drops.

``compare_claim(claim, evidence)`` reads both texts as the matcher reads a page (core.match.page)
and decides on the words both sides share, so that a paraphrase that agrees is never flagged:

- a negation (core.match.negation: what it governs) whose first content word the other side
  holds too, and holds only with the other polarity ("is not enabled by default" against
  "enabled by default"; "doesn't support" against "supports"), is a blocking NEGATION_DIFFERS.
  Double negations count as none, "never" is "not ever", "not only … but also" denies nothing,
  and a negation of words the other side lacks entirely ("disabled" against "not enabled") is
  no difference. Nor is a denial that the other side words as an ending ("no longer supports"
  against "stopped supporting"), nor a negated comparator of a number the other side bounds too
  ("no more than 850" against "at most 850": the figures check compares the bounds). In the
  passive a negation denies its subject too ("96,108 cases were not confirmed").
- a hedge ("experimental", "an estimated", "up to 40%") or a condition ("unless", "only if") of
  an evidence sentence that shares words with the claim, which the claim lacks, is a
  HEDGE_DROPPED or CONDITION_DROPPED flag: information, never blocking.

Messages quote both sides' own words. Spans are on the evidence side, in the evidence text, or
in the page's text when the evidence's offset in it is given. Nothing here finds a quote.
"""

from __future__ import annotations

import re
from itertools import pairwise

from core.match.claim_words import (
    DENIAL_WORDS,
    HEDGE_FAMILIES,
    LIGHT_VERBS,
    denied_verb,
    is_content,
    word_stem,
)
from core.match.context import CONDITIONS, HEDGES, NUMBER_HEDGES
from core.match.negation import (
    FINITE_VERBS,
    bounds_time,
    clause_start,
    gap,
    in_name,
    negations,
    parities,
    passive_subject,
)
from core.match.page import PreparedPage, prepare
from core.models import Flag, FlagKind, PageKind, PageText

# Words before a negation that it may deny by ellipsis ("how pure the seizures were not").
_BACK_WORDS = 4
_NOUN_NEGATIONS = frozenset({"no", "none", "nobody", "nothing", "neither"})
_COMPOUNDS = frozenset({"non", "no"})
_UNTIL = frozenset({"until", "till"})
# Prefixes that deny the word they stand on ("unreported", "non-confirmed"), as the other side's "not" does.
_UN = ("un", "non", "non-", "dis", "in")
# Words either side of a shared word a denial worded as an ending stands within ("stopped supporting"):
# farther off ("at the end of 2005 , ... was the third best-selling") it says something else.
_NEAR = 8
# Comparators a negation may bound a number with ("no more than 850"), and the words before a number
# that bound it on the other side ("at most 850", "up to 850", "over 850", "no more than 850").
_COMPARATORS = tuple(
    tuple(c.split())
    for c in "more than|less than|fewer than|greater than|higher than|lower than|over|under|above|below".split("|")  # noqa: SIM905
)
_BOUND_WORDS = frozenset("than most least over under above below exceeding maximum minimum".split())  # noqa: SIM905
_BOUND_PAIRS = frozenset({("up", "to"), ("as", "many"), ("as", "much"), ("in", "excess")})
_SNIPPET_WORDS = 10
# Flags of each kind kept for one comparison: an editor reads the first few; the rest say the same.
_FLAGS_KEPT = 3


class _Side:
    """One side of the comparison read once: tokens, stems, negation scopes and polarities."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.p: PreparedPage = prepare(PageText(text=text, kind=PageKind.TEXT))
        words = self.p.words
        self.stems = [word_stem(denied_verb(w)) if w.endswith("n't") else word_stem(w) for w in words]
        scopes = [(k, end) for k, end in negations(self.p, verbs=True) if self._denies(k, end)]
        self.scopes = [self._governed(k, end) for k, end in scopes]
        # The verb a negation stands on is denied with it: "doesn't" and "does not" deny "does".
        self.own = {k: self._own(k) for k, _, _, _ in self.scopes}
        ranges = [(a, b) for _, a, b, _ in self.scopes]
        ranges += [(o, o + 1) for (k, a, b, _) in self.scopes if (o := self.own[k]) is not None and not a <= o < b]
        self.polarity = parities(len(words), ranges)
        self.places: dict[str, list[int]] = {}
        for i, s in enumerate(self.stems):
            self.places.setdefault(s, []).append(i)
        self.sentence_of = _sentences(self.p)
        self.content_stems = {st for st, w in zip(self.stems, words, strict=True) if is_content(w)}

    def _denies(self, k: int, end: int) -> bool:
        """Return True when the negation at token k denies the words it governs.

        "non-citizens" and "no-mask groups" are other words than "citizens" and "mask", "Faith No
        More" is a name.
        """
        compound = self.p.words[k] in _COMPOUNDS and gap(self.p, k + 1) == "-"
        return not (compound or in_name(self.p, k))

    def _own(self, k: int) -> int | None:
        """Return the token of the verb the negation at k stands on: itself for "doesn't", "does" for "does not"."""
        words = self.p.words
        if words[k].endswith("n't"):
            return k
        if words[k] == "not" and k > 0 and words[k - 1] in FINITE_VERBS and (k - 1) not in self.p.breaks:
            return k - 1
        return None

    def _governed(self, k: int, end: int) -> tuple[int, int, int, int]:
        """Return (negation, first, end, decides from) of what the negation at k governs and is judged on.

        Its words after it in its clause; when none of those says anything ("you are not.", "may not
        be that"), the few words before it in its clause, which it denies by ellipsis. A negation of a
        noun ("no users have reported crashes") is judged on its predicate when it has one, so that
        "neither Linux nor Windows is supported" agrees with "Linux is not supported".
        """
        words = self.p.words
        if not any(is_content(w) for w in words[k + 1 : end]):
            a = max(clause_start(self.p, k), k - _BACK_WORDS)
            if any(is_content(w) for w in words[a:k]) or k + 1 == end:
                return k, a, k, a
        verb = next((j for j in range(k + 2, end) if words[j] in FINITE_VERBS), None)
        decides = verb if verb is not None and words[k] in _NOUN_NEGATIONS else k + 1
        return k, k + 1, end, decides

    def sentence_words(self, i: int) -> set[str]:
        """Return the stems of the sentence holding token i."""
        a, b = self.sentence_of[i]
        return set(self.stems[a:b])

    def near_tokens(self, i: int) -> set[str]:
        """Return the words, as written (normalised), of token i's sentence within _NEAR words of it."""
        a, b = self.sentence_of[i]
        return set(self.p.words[max(a, i - _NEAR) : min(b, i + _NEAR + 1)])

    def sentence_tokens(self, i: int) -> set[str]:
        """Return the words, as written (normalised), of the sentence holding token i."""
        a, b = self.sentence_of[i]
        return set(self.p.words[a:b])

    def shown(self, first: int, last: int) -> str:
        """Return the side's own words from token first to last (inclusive), "…" where cut."""
        n = len(self.p.words)
        a, b = max(0, first), min(n - 1, last)
        text = self.p.original_text(a, b)
        return ("…" if a > 0 else "") + text + ("…" if b < n - 1 else "")


def _sentences(p: PreparedPage) -> list[tuple[int, int]]:
    """Return, for every token, the token range [a, b) of its sentence."""
    bounds = [0, *sorted(b for b in p.breaks if 0 < b < len(p.words)), len(p.words)]
    out: list[tuple[int, int]] = []
    for a, b in pairwise(bounds):
        out.extend([(a, b)] * (b - a))
    return out


def compare_claim(claim: str, evidence: str, offset: int | None = None) -> tuple[Flag, ...]:
    """Return where the claim parts from its evidence: negation differences (blocking), dropped hedges and conditions.

    ``offset`` is where ``evidence`` starts in the page's text: the flags' spans are then page
    positions; without it they are positions in ``evidence``. Never raises on any two strings.
    """
    c, e = _Side(claim), _Side(evidence)
    if not c.p.words or not e.p.words:
        return ()
    flags: list[Flag] = []
    seen: set[tuple[int, int]] = set()
    for side, other, on_evidence in ((e, c, True), (c, e, False)):
        for scope in side.scopes:
            found = _difference(side, other, scope)
            if found is None:
                continue
            h, j = found
            ev_at, cl_at = (h, j) if on_evidence else (j, h)
            if (ev_at, cl_at) in seen:
                continue
            seen.add((ev_at, cl_at))
            k = scope[0]
            flags.append(
                _negation_flag(e, c, ev_at, cl_at, k if on_evidence else None, None if on_evidence else k, offset)
            )
    flags.extend(_dropped(e, c, offset))
    # A long text may part from the other at many places: the first few of each kind say it.
    kept: list[Flag] = []
    for kind in (FlagKind.NEGATION_DIFFERS, FlagKind.HEDGE_DROPPED, FlagKind.CONDITION_DROPPED):
        kept.extend([f for f in flags if f.kind is kind][:_FLAGS_KEPT])
    return tuple(kept)


def _difference(side: _Side, other: _Side, scope: tuple[int, int, int, int]) -> tuple[int, int] | None:
    """Return (a denied word on side, its place on other) when the negation denies there what other affirms.

    Decided on the governed words both sides hold: each agrees when the other side says it once
    with the same polarity; the negation differs when more of them disagree than agree.
    """
    k, _, b, decides = scope
    words = side.p.words
    if _both_bound(side, other, k):
        return None  # "no more than 850" against "at most 850": a bound, which the figures check judges
    if bounds_time(side.p, k, b) and not _UNTIL & set(other.p.words):
        return None  # "not created until 1958" says when, as "created after 1958" does
    content = any(is_content(w) for w in words[decides:b])
    governed = list(range(decides, b))
    own = side.own.get(k)
    if own is not None and not content:
        governed.append(own)
    shared = [i for i in governed if side.stems[i] in other.places and (is_content(words[i]) or not content)]
    if not shared:
        # "96,108 cases were not confirmed" against "96,108 cases have been reported": in the passive
        # the negation denies its subject, judged on the subject's words when its own are not shared.
        return _subject_difference(side, other, k)
    said = [i for i in range(decides, b) if is_content(words[i])]
    while len(said) > 1 and words[said[0]] in LIGHT_VERBS and side.stems[said[0]] not in other.places:
        said.pop(0)  # "has not registered 90 cases" against "90 cases have been reported": the cases decide
    if said and b > k and side.stems[said[0]] not in other.places and 2 * len(shared) < len(said):
        # The other side says neither what the negation denies first nor most of the rest: its subject may decide.
        return _subject_difference(side, other, k)
    differ = [i for i in shared if all(other.polarity[j] != side.polarity[i] for j in _counterparts(side, other, i))]
    if not differ or len(differ) <= len(shared) - len(differ):
        return None
    h = differ[0]
    j = other.places[side.stems[h]][0]
    if _worded_as_ending(side, other, h, j, denies=bool(side.polarity[h])):
        return None
    return h, j


def _both_bound(side: _Side, other: _Side, k: int) -> bool:
    """Return True when the negation at k negates a comparator of a number the other side bounds too.

    "no more than 850 cases" against "at most 850 cases" says one bound in two ways: the figures
    check compares the bounds (and flags "more than 850" against it). Against a bare "850" the
    negation is still a difference.
    """
    words = side.p.words
    n = len(words)
    at = next((k + 1 + len(c) for c in _COMPARATORS if tuple(words[k + 1 : k + 1 + len(c)]) == c), None)
    if at is None or at >= n or not _NUMBER.match(words[at]):
        return False
    for j in other.places.get(side.stems[at], ()):
        before = tuple(other.p.words[max(0, j - 2) : j])
        if before and (before[-1] in _BOUND_WORDS or before in _BOUND_PAIRS):
            return True
    return False


def _subject_difference(side: _Side, other: _Side, k: int) -> tuple[int, int] | None:
    """Return (a denied subject word, its place on other) when a passive negation denies what other affirms."""
    a = passive_subject(side.p, k, _BACK_WORDS)
    if a < 0:
        return None
    words = side.p.words
    verb = next((i for i in range(k + 1, len(words)) if is_content(words[i]) and words[i] != "been"), None)
    if verb is not None and any(
        w.startswith(p) and word_stem(w.removeprefix(p)) == side.stems[verb] for w in other.p.words for p in _UN
    ):
        return None  # "were not reported" against "went unreported": the other side denies it with a prefix
    shared = [i for i in range(a, k) if is_content(words[i]) and side.stems[i] in other.places]
    # The subject's words are denied with the predicate: their polarity is the other one here.
    differ = [i for i in shared if all(other.polarity[j] == side.polarity[i] for j in _counterparts(side, other, i))]
    if not differ or len(differ) <= len(shared) - len(differ):
        return None
    h = differ[0]
    j = other.places[side.stems[h]][0]
    a_j, b_j = other.sentence_of[j]
    if any(a_j <= n < b_j for n, _, _, _ in other.scopes):
        return None  # the other side denies something of the same subject in its own words
    # The subject's words are denied where their polarity is not: the other way round from the predicate's.
    if _worded_as_ending(side, other, h, j, denies=not side.polarity[h]):
        return None
    return h, j


def _worded_as_ending(side: _Side, other: _Side, h: int, j: int, denies: bool) -> bool:
    """Return True when the affirming side words the denial (of h on side, j on other) as an ending near it.

    "stopped supporting" for "no longer supports"; ``denies`` says whether side is the denying one.
    """
    denied, affirmed = (side, other) if denies else (other, side)
    d_at, a_at = (h, j) if denies else (j, h)
    return bool((affirmed.near_tokens(a_at) & DENIAL_WORDS) - denied.sentence_tokens(d_at))


def _counterparts(side: _Side, other: _Side, i: int) -> list[int]:
    """Return the other side's places of token i's word: the one in the same order when both say it as often."""
    mine, theirs = side.places[side.stems[i]], other.places[side.stems[i]]
    if len(mine) == len(theirs):
        return [theirs[mine.index(i)]]
    return theirs


def _span(side: _Side, first: int, last: int, offset: int | None) -> tuple[int, int]:
    a, b = side.p.ostarts[first], side.p.oends[last]
    base = offset or 0
    return a + base, b + base


def _negation_flag(
    e: _Side, c: _Side, ev_at: int, cl_at: int, ev_neg: int | None, cl_neg: int | None, offset: int | None
) -> Flag:
    """Return the blocking flag of a word one side denies and the other affirms, quoting both sides."""
    ev_first = ev_neg if ev_neg is not None else ev_at
    cl_first = cl_neg if cl_neg is not None else cl_at
    page_words = e.shown(ev_first - 3, ev_at + 3)
    claim_words = c.shown(cl_first - 3, cl_at + 3)
    if ev_neg is not None:
        neg = e.p.original_text(ev_neg, ev_neg)
        what = f'the evidence denies it with "{neg}", the claim does not'
    else:
        neg = c.p.original_text(cl_neg, cl_neg) if cl_neg is not None else "not"
        what = f'the claim denies it with "{neg}", the evidence does not'
    word = e.p.original_text(ev_at, ev_at)
    return Flag(
        kind=FlagKind.NEGATION_DIFFERS,
        message=f'The claim says "{claim_words}" where its evidence says "{page_words}": {what} ("{word}"). '
        "Check which one the source supports before the claim goes on.",
        blocking=True,
        page_words=page_words,
        span=_span(e, ev_first, ev_at, offset),
        claim_words=claim_words,
    )


_NUMBER = re.compile(r"[-$€£¥]?\d")


def _phrases(side: _Side, phrases: tuple[tuple[str, ...], ...]) -> list[tuple[int, tuple[str, ...]]]:
    """Return (first token, phrase) of every phrase of the list the side holds, longest first at each place."""
    words = side.p.words
    out: list[tuple[int, tuple[str, ...]]] = []
    taken = -1
    for i in range(len(words)):
        if i <= taken:
            continue
        for phrase in sorted((ph for ph in phrases if ph[0] == words[i]), key=len, reverse=True):
            if tuple(words[i : i + len(phrase)]) == phrase:
                out.append((i, phrase))
                taken = i + len(phrase) - 1
                break
    return out


def _holds(side: _Side, phrase: tuple[str, ...]) -> bool:
    words = side.p.words
    n = len(phrase)
    return any(
        tuple(words[i : i + n]) == phrase for i in side.places.get(word_stem(phrase[0]), ()) if words[i] == phrase[0]
    )


def _shares(e: _Side, c: _Side, i: int) -> bool:
    """Return True when the evidence sentence of token i shares at least two content words with the claim."""
    a, b = e.sentence_of[i]
    mine = {e.stems[j] for j in range(a, b) if is_content(e.p.words[j])}
    theirs = c.content_stems
    return len(mine & theirs) >= min(2, len(theirs))


def _dropped(e: _Side, c: _Side, offset: int | None) -> list[Flag]:
    """Return the hedges and conditions of the evidence's sentences near the claim that the claim drops."""
    flags: list[Flag] = []
    claim_words = set(c.p.words)
    for i, phrase in _phrases(e, HEDGES):
        last = i + len(phrase) - 1
        nxt = e.p.words[last + 1] if last + 1 < len(e.p.words) else ""
        if phrase in NUMBER_HEDGES and not _NUMBER.match(nxt):
            continue
        if phrase == ("may",) and _NUMBER.match(nxt):
            continue  # "May 2024": a month
        family = next((f for f in HEDGE_FAMILIES if set(phrase) & f), frozenset())
        if _holds(c, phrase) or claim_words & family or not _shares(e, c, i):
            continue
        flags.append(_dropped_flag(e, c, FlagKind.HEDGE_DROPPED, i, last, (3, 4), "its", offset))
    for i, phrase in _phrases(e, CONDITIONS):
        last = i + len(phrase) - 1
        if _holds(c, phrase) or not _shares(e, c, i):
            continue
        flags.append(_dropped_flag(e, c, FlagKind.CONDITION_DROPPED, i, last, (4, 5), "its condition", offset))
    return flags


def _dropped_flag(
    e: _Side, c: _Side, kind: FlagKind, i: int, last: int, around: tuple[int, int], what: str, offset: int | None
) -> Flag:
    """Return the information flag of evidence words i..last the claim drops, ``around`` words shown each side."""
    shown = e.shown(i - around[0], last + around[1])
    words = e.p.original_text(i, last)
    return Flag(
        kind=kind,
        message=f'The evidence says "{shown}": the claim drops {what} "{words}".',
        blocking=False,
        page_words=shown,
        span=_span(e, i, last, offset),
        claim_words=c.shown(0, _SNIPPET_WORDS),
    )
