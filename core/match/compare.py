"""Where a claim parts from its evidence: a negation on one side only, a hedge or condition the claim drops.

``compare_claim(claim, evidence)`` reads both texts as the matcher reads a page (core.match.page)
and decides on the words both sides share, so that a paraphrase that agrees is never flagged:

- a negation (core.match.negation: what it governs) whose first content word the other side
  holds too, and holds only with the other polarity ("is not enabled by default" against
  "enabled by default"; "doesn't support" against "supports"), is a blocking NEGATION_DIFFERS.
  Double negations count as none, "never" is "not ever", "not only … but also" denies nothing,
  and a negation of words the other side lacks entirely ("disabled" against "not enabled") is
  no difference. Where the other side words no denial at all, the shared words that are no names
  decide though the rest is paraphrased, and so does the subject of a sentence's first predicate
  (core.match.plain: "Cats are not susceptible to infection" against "SARS-CoV-2 has infected cat
  population"). Nor is a denial that the other side words as an ending ("no longer supports"
  against "stopped supporting"), nor a negated comparator of a number the other side bounds too
  ("no more than 850" against "at most 850": the figures check compares the bounds). In the
  passive a negation denies its subject too ("96,108 cases were not confirmed"). A bound the
  claim denies that the evidence's number in its place meets is one too (core.match.bounds:
  "not less than $ 65,000" against "$ 62,406"), and so is a count whose predicate the claim denies
  where the evidence's number holds it ("more than 1,680 people had not tested positive" against
  "1,692 confirmed cases"). "None of these masks exhibited …" denies the
  predicate of what it counts, and the masks with it where the other side's sentence denies nothing;
  a "no-" compound denies its word ("no-mask groups" agree with "not wearing masks"), and a word
  that denies with an affix its root where the other side holds that (core.match.affixes: "were
  asymptomatic" against "did exhibit symptoms"; "mild symptoms" say little of them, and agree).
  A "not", "never" or "no" after "than" names a comparison's alternative ("than never smokers")
  and denies nothing. Against an emphatic "does" ("does significantly help", what a dropped
  "not" leaves of "does not") the shared words decide though the verbs differ. "zero cases"
  denies the cases as "no cases" does, and a "no" of a noun is judged on the noun, not on the
  place after it ("no reported cases in Brčko District").
  A name's "Not" one side drops from the same name is a difference too (core.match.names). "has
  yet to report" denies as "has not reported" does, a list after a denial's colon is denied with
  it, and a date in a denial decides only when nothing else is shared ("was yet to be found in
  Burundi by March 25"). A word one side says both ways is set against its counterpart
  (core.match.counterparts); one with none decides nothing, and where only such words are
  shared, a count may. Words are compared by stem, a hyphened word, or a verb and its
  particle, as the one word the other side writes ("code-named", "codenamed"; "going on",
  "ongoing").
- a hedge ("experimental", "an estimated", "up to 40%") or a condition ("unless", "only if") of
  an evidence sentence that shares words with the claim, which the claim lacks, is a
  HEDGE_DROPPED or CONDITION_DROPPED flag: information, never blocking (core.match.dropped).

Each side is read once (core.match.side). Messages quote both sides' own words. Spans are on the
evidence side, in the evidence text, or in the page's text when the evidence's offset in it is
given. Nothing here finds a quote.
"""

from __future__ import annotations

from core.match.affixes import denied_roots
from core.match.bounds import MONTHS, counted_difference, denied_bounds, time_tokens
from core.match.claim_words import DENIAL_WORDS, LIGHT_VERBS, is_content
from core.match.counterparts import counterparts, every_one
from core.match.dropped import dropped
from core.match.names import dropped_names
from core.match.negation import bounds_time, passive_subject
from core.match.plain import COMPARATORS, emphatic, emphatic_subject, plain_subject, said_plainly
from core.match.side import BACK_WORDS, LITTLE, NUMBER, Side, span
from core.models import Flag, FlagKind

_UNTIL = frozenset({"until", "till"})
# Adverbs of how sure a statement is: after a negation they say little of what it denies ("not likely a link").
_SURE = frozenset("likely probably possibly necessarily certainly definitely".split())  # noqa: SIM905
_SAYS_LITTLE = LIGHT_VERBS | _SURE
# Words that set a second subject against the first: "Python supports it and Ruby does not."
_SETS_AGAINST = frozenset("and or but while whereas unlike than as".split())  # noqa: SIM905
# The words before a number that bound it on the other side ("at most 850", "up to 850", "no more than 850").
_BOUND_WORDS = frozenset("than most least over under above below exceeding maximum minimum".split())  # noqa: SIM905
_BOUND_PAIRS = frozenset({("up", "to"), ("as", "many"), ("as", "much"), ("in", "excess")})
# Flags of each kind kept for one comparison: an editor reads the first few; the rest say the same.
_FLAGS_KEPT = 3


def compare_claim(claim: str, evidence: str, offset: int | None = None) -> tuple[Flag, ...]:
    """Return where the claim parts from its evidence: negation differences (blocking), dropped hedges and conditions.

    ``offset`` is where ``evidence`` starts in the page's text: the flags' spans are then page
    positions; without it they are positions in ``evidence``. Never raises on any two strings.
    """
    c, e = Side(claim), Side(evidence)
    c.join_hyphens(e)
    e.join_hyphens(c)
    c.join_particles(e)
    e.join_particles(c)
    c.read_affixes(e)
    e.read_affixes(c)
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
            flags.append(_negation_flag(e, c, (ev_at, cl_at), (on_evidence, scope[0]), offset))
    flags.extend(dropped_names(c, e, offset))  # "We're Gonna Take It" against "We're Not Gonna Take It"
    if not flags:
        flags.extend(denied_bounds(c, e, offset))  # "not less than $ 65,000" against "$ 62,406"
    flags.extend(dropped(e, c, offset))
    # A long text may part from the other at many places: the first few of each kind say it.
    kept: list[Flag] = []
    for kind in (FlagKind.NEGATION_DIFFERS, FlagKind.HEDGE_DROPPED, FlagKind.CONDITION_DROPPED):
        kept.extend([f for f in flags if f.kind is kind][:_FLAGS_KEPT])
    return tuple(kept)


def _difference(side: Side, other: Side, scope: tuple[int, int, int, int]) -> tuple[int, int] | None:
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
        return (
            _subject_difference(side, other, k)
            or _partitive_difference(side, other, scope)
            or _elided_difference(side, other, scope)
            or counted_difference(side, other, k)
            or plain_subject(side, other, k)
            or emphatic_subject(side, other, k)
        )
    said = [i for i in range(decides, b) if is_content(words[i])]
    while len(said) > 1 and words[said[0]] in _SAYS_LITTLE and side.stems[said[0]] not in other.places:
        # "has not registered 90 cases" against "90 cases have been reported": the cases decide; "is not
        # likely a link" says how sure, the link and what it links decide.
        said.pop(0)
    if (
        said
        and b > k
        and side.stems[said[0]] not in other.places
        and 2 * len(shared) < len(said)
        and not emphatic(side, other, k, shared)
        and not said_plainly(side, other, k, shared)
    ):
        # The other side says neither what the negation denies first nor most of the rest: its subject may decide.
        return (
            _subject_difference(side, other, k)
            or _partitive_difference(side, other, scope)
            or counted_difference(side, other, k)
            or plain_subject(side, other, k)
        )
    # "no reported cases in Brčko District" is judged on the cases, not on where they are.
    if k in side.until:
        shared = [i for i in shared if i < side.until[k]]
    # "was yet to be found in Burundi by March 25": what it denies decides, not when, unless only a date is shared.
    if any(NUMBER.match(words[i]) or words[i] in MONTHS for i in shared):
        times = time_tokens(side)  # read the side's figures only where a shared word may be a date's
        shared = [i for i in shared if i not in times] or shared
    theirs = {i: [other.polarity[j] for j in counterparts(side, other, i)] for i in shared}
    differ = [i for i in shared if every_one(p != side.polarity[i] for p in theirs[i])]
    agree = [i for i in shared if every_one(p == side.polarity[i] for p in theirs[i])]
    # Shared words the other side says both ways ("in Assam", "to Assam") decide nothing: the rest, or the count, do.
    if not differ or len(differ) <= len(agree):
        return None if agree or differ else counted_difference(side, other, k)
    h = differ[0]
    j = other.places[side.stems[h]][0]
    if _worded_as_ending(side, other, h, j, denies=bool(side.polarity[h])):
        return None
    if k in side.affixed and j > 0 and other.p.words[j - 1] in LITTLE:
        return None  # "asymptomatic carriers" against "mild symptoms": little of it, close to none
    return h, j


def _both_bound(side: Side, other: Side, k: int) -> bool:
    """Return True when the negation at k negates a comparator of a number the other side bounds too.

    "no more than 850 cases" against "at most 850 cases" says one bound in two ways: the figures
    check compares the bounds (and flags "more than 850" against it). Against a bare "850" the
    negation is still a difference.
    """
    words = side.p.words
    n = len(words)
    at = next((k + 1 + len(c) for c in COMPARATORS if tuple(words[k + 1 : k + 1 + len(c)]) == c), None)
    if at is None or at >= n or not NUMBER.match(words[at]):
        return False
    for j in other.places.get(side.stems[at], ()):
        before = tuple(other.p.words[max(0, j - 2) : j])
        if before and (before[-1] in _BOUND_WORDS or before in _BOUND_PAIRS):
            return True
    return False


def _subject_difference(side: Side, other: Side, k: int) -> tuple[int, int] | None:
    """Return (a denied subject word, its place on other) when a passive negation denies what other affirms."""
    a = passive_subject(side.p, k, BACK_WORDS)
    if a < 0:
        return None
    words = side.p.words
    verb = next((i for i in range(k + 1, len(words)) if is_content(words[i]) and words[i] != "been"), None)
    if verb is not None and any(side.stems[verb] in denied_roots(w) for w in other.p.words):
        return None  # "were not reported" against "went unreported": the other side denies it with a prefix
    shared = [i for i in range(a, k) if is_content(words[i]) and side.stems[i] in other.places]
    # The subject's words are denied with the predicate: their polarity is the other one here.
    differ = [
        i for i in shared if every_one(other.polarity[j] == side.polarity[i] for j in counterparts(side, other, i))
    ]
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


def _partitive_difference(side: Side, other: Side, scope: tuple[int, int, int, int]) -> tuple[int, int] | None:
    """Return (a word of what "none of" counts, its place on other) when other affirms what side denies of it.

    "None of these surgical masks exhibited adequate filter performance" denies the masks' predicate:
    against "Surgical masks do provide full protection" the masks' sentence denies nothing, and differs;
    against "Surgical masks do not provide full protection" it agrees.
    """
    k, _, _, decides = scope
    words = side.p.words
    if decides <= k + 2 or words[k + 1] != "of":
        return None
    shared = [i for i in range(k + 2, decides) if is_content(words[i]) and side.stems[i] in other.places]
    if not shared:
        return None
    h = shared[0]
    j = other.places[side.stems[h]][0]
    a_j, b_j = other.sentence_of[j]
    if other.polarity[j] or any(a_j <= n < b_j for n, _, _, _ in other.scopes):
        return None  # the other side denies something of the same words in its own
    if _worded_as_ending(side, other, h, j, denies=True):
        return None
    return h, j


def _elided_difference(side: Side, other: Side, scope: tuple[int, int, int, int]) -> tuple[int, int] | None:
    """Return (a word of the predicate a sentence-final "does not." elides, its place on other) when other affirms it.

    "69 drugs that target the same proteins in our cells the novel coronavirus does not." denies the
    coronavirus the sentence's own "target the same proteins": against "proteins targeted by 69 drugs"
    it differs. A sentence that sets another subject against it ("Python supports it and Ruby does
    not.") elides for that subject alone, and is left to the words of its clause.
    """
    k, a, b, _ = scope
    words = side.p.words
    ends = k + 1 == len(words) or (k + 1) in side.p.breaks
    if b != k or not ends or side.own.get(k) is None:
        return None
    start = side.sentence_of[k][0]
    if any(w in _SETS_AGAINST for w in words[start:k]):
        return None
    shared = [i for i in range(start, a) if is_content(words[i]) and side.stems[i] in other.places]
    # The elided copy of these words is denied where they stand affirmed: the other side's affirming differs.
    differ = [i for i in shared if every_one(not other.polarity[j] for j in counterparts(side, other, i))]
    if len(shared) < 2 or len(differ) <= len(shared) - len(differ):
        return None
    h = differ[0]
    j = other.places[side.stems[h]][0]
    if _worded_as_ending(side, other, h, j, denies=True):
        return None
    return h, j


def _worded_as_ending(side: Side, other: Side, h: int, j: int, denies: bool) -> bool:
    """Return True when the affirming side words the denial (of h on side, j on other) as an ending near it.

    "stopped supporting" for "no longer supports"; ``denies`` says whether side is the denying one.
    """
    denied, affirmed = (side, other) if denies else (other, side)
    d_at, a_at = (h, j) if denies else (j, h)
    return bool((affirmed.near_tokens(a_at) & DENIAL_WORDS) - denied.sentence_tokens(d_at))


def _denier(side: Side, at: int) -> int | None:
    """Return the token of the negation that denies token ``at`` on side (the nearest before it), None if none."""
    found = [k for k, a, b, _ in side.scopes if a <= at < b or side.own.get(k) == at]
    before = [k for k in found if k <= at]
    return max(before) if before else min(found, default=None)


def _negation_flag(e: Side, c: Side, at: tuple[int, int], found: tuple[bool, int], offset: int | None) -> Flag:
    """Return the blocking flag of a word one side denies and the other affirms, quoting both sides.

    ``at`` is the word's place on each side (evidence, claim), ``found`` the negation whose scope
    found it (on the evidence or not, its token). The side that denies the word is the one whose
    polarity there says so ("is not harmless" affirms the harm that "will not bring him to any harm"
    denies); where both say it alike (a passive's subject) it is the side of that negation.
    """
    ev_at, cl_at = at
    on_evidence, k = found
    if e.polarity[ev_at] != c.polarity[cl_at]:
        on_evidence = bool(e.polarity[ev_at])
        k = (_denier(e, ev_at) if on_evidence else _denier(c, cl_at)) or k
    ev_neg, cl_neg = (k, None) if on_evidence else (None, k)
    ev_first = ev_neg if ev_neg is not None else ev_at
    cl_first = cl_neg if cl_neg is not None else cl_at
    # A word the negation denies by ellipsis stands before it ("69 drugs ... the coronavirus does not.").
    ev_first, ev_last = min(ev_first, ev_at), max(ev_first, ev_at)
    page_words = e.shown(ev_first - 3, ev_last + 3)
    claim_words = c.shown(min(cl_first, cl_at) - 3, max(cl_first, cl_at) + 3)
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
        span=span(e, ev_first, ev_last, offset),
        claim_words=claim_words,
    )
