"""What a negation governs: the one rule the cut-negation flags and the claim-vs-evidence comparison share.

A negation ("not", "n't", "never", "no", "none", "without", "cannot", "neither", "nor", …)
governs the words after it in its own clause: up to a sentence or block break, a comma, semicolon
or colon, a spaced dash, a contrast word ("but", "however", "although"…), a finite verb that starts
the next predicate ("extensions that don't use these mechanisms will cause…"; not one after a
second negation: "never could not have imagined" is one denial of "could not have"), a reason given
after the denied words ("will not receive the update due to its aging hardware"), or the closing
bracket of a parenthesis it stands in ("(without parameters) of the message's header": "without" governs
"parameters" only); a comma before a word said again for weight ("not many, many cases") ends none.
"not only", "not just", "not merely", "not simply" widen a statement rather than deny it. A "nor"
after a "neither" of its clause repeats that denial rather than adding one.
In the passive ("96,108 cases were not confirmed") it denies its subject too (``passive_subject``);
before a verb of thinking ("I don't think bands should keep going") it denies the clause after the
verb (``raised``), which the claim comparison reads; the cut-negation flags keep the plain scope.
This module reads positions of a prepared page (core.match.page); it refuses to judge meaning
beyond that scope: what the governed words say is the callers' business.
"""

from __future__ import annotations

from core.match.page import PreparedPage

NEGATIONS = frozenset(
    "not no never none nobody nothing nowhere neither nor without cannot non hardly barely scarcely".split()  # noqa: SIM905
)
# Verbs that deny what they govern as a "not" does ("failed to pay" is "did not pay", "lacks a GIL" is
# "has no GIL"): read by the claim-vs-evidence comparison, not by the cut-negation flags, where a quote
# ending before "failed to" keeps a subject and cuts no denial of its words.
DENIAL_VERBS = frozenset("fail fails failed failing lack lacks lacked lacking unable".split())  # noqa: SIM905
# A count of none denies what it counts as a "no" does ("confirmed zero cases" is "no confirmed cases"), read
# with the denial verbs; before a number or a unit ("zero to 60", "zero percent") it is a figure.
_ZERO = "zero"
# "has yet to report a case" says "has not reported one": after these verbs a "yet to" denies.
_YET_VERBS = frozenset("have has had is are was were be been remain remains remained".split())  # noqa: SIM905
_ZERO_FIGURES = frozenset("percent % point points per to degrees".split())  # noqa: SIM905
# "not only ... but", "not just": these widen a statement rather than deny it.
WIDENERS = frozenset({"only", "just", "merely", "simply"})
# A contrast starts a new clause: "not cheap but enabled by default".
CLAUSE_WORDS = frozenset({"but", "however", "yet", "although", "though", "whereas", "while"})
# Quotation marks and brackets do not end a clause: 'is not "enabled"', 'is not (yet) enabled'.
_CLAUSE_MARKS = frozenset(",;:")
# A finite verb after the denied words starts the next predicate: "extensions that don't use these
# mechanisms will cause the GIL to be enabled" denies "use these mechanisms", not "be enabled".
FINITE_VERBS = frozenset(
    "is are was were will would can could may might must shall should has have had does do did".split()  # noqa: SIM905
)
# These deny a noun phrase and the predicate after it: "no users have reported crashes".
NOUN_NEGATIONS = frozenset({"no", "none", "nobody", "nothing", "nowhere", "neither", "nor", _ZERO})
# Words an aside right after a negation may hold ("is not, as it were, imagined").
_ASIDE_WORDS = 5
_COMPLEMENTS = frozenset({"that", "whether"})
_JOINS = frozenset({"and", "or"})
# Words that give a reason after what a negation denies: "not enabled because of", "not received due to".
_CAUSES = frozenset({("due", "to"), ("owing", "to"), ("thanks", "to")})
# Tokens a negation governs at most: a clause is rarely longer, and a text of one endless clause
# (a 5,000-word claim) is then read in time proportional to its length.
MAX_SCOPE = 40
_OPEN = "([{"
_CLOSE = ")]}"


def is_negation(word: str) -> bool:
    """Return True when a (normalised) token is a negation word or a contraction with "n't" ("wouldn't've" too)."""
    if "'" in word:
        word = word.removesuffix("'ve").removesuffix("'d").removesuffix("'ll")
    return word in NEGATIONS or word.endswith("n't")


def _denial(word: str) -> bool:
    """Return True for a negation or a verb that denies as one does ("failed")."""
    return is_negation(word) or word in DENIAL_VERBS


def _finite(word: str) -> bool:
    """Return True for a finite auxiliary, denied or not ("will", "doesn't")."""
    return word in FINITE_VERBS or word.endswith("n't")


def widens(p: PreparedPage, k: int) -> bool:
    """Return True when the negation at token k is "not only", "not just"…: it widens, it does not deny."""
    return k + 1 < len(p.words) and p.words[k + 1] in WIDENERS and (k + 1) not in p.breaks


def gap(p: PreparedPage, k: int) -> str:
    """Return the page's text between token k - 1 and token k (the normalised, blanked text); "" past either end."""
    return p.work[p.ends[k - 1] : p.starts[k]] if 0 < k < len(p.starts) else ""


def clause_break(p: PreparedPage, k: int) -> bool:
    """Return True when a sentence, block or clause boundary stands before token k."""
    if k in p.breaks:
        return True
    between = gap(p, k)
    if between == " ":
        return False  # most words stand one space apart
    if between.strip() == "," and p.words[k] == p.words[k - 1]:
        return False  # "not many, many cases": a word said again for weight goes on with its clause
    # A spaced dash (" - ") sets off an aside; a hyphen inside a word ("non-default") does not.
    return any(c in _CLAUSE_MARKS for c in between) or " - " in between


def scope_end(p: PreparedPage, k: int, limit: int | None = None) -> int:
    """Return one past the last token the negation at token k governs (k + 1 when it governs none).

    The scope runs from token k + 1 to the end of k's clause, at most ``limit`` tokens when given.
    """
    n = len(p.words)
    stop = n if limit is None else min(n, k + 1 + limit)
    depth = 0
    word = p.words[k]
    complement = False
    j = k + 1
    after_aside = -1
    while j < stop:
        if clause_break(p, j) and j != after_aside:
            if j == k + 1 and _aside(p, j):
                # "is not, in practice, ever enforced": the aside set off by commas is skipped, and its
                # closing comma ends no clause.
                j = after_aside = _aside(p, j)
                continue
            return j
        # Right after the negation a clause word is its adverb: "not yet detected", "could not but".
        if p.words[j] in CLAUSE_WORDS and j > k + 1:
            return j
        # "will not receive the update due to its aging hardware": the reason given is said, not denied
        # (right after the negation it is what is denied: "not because of the cost").
        if j > k + 1 and (p.words[j] == "because" or tuple(p.words[j : j + 2]) in _CAUSES):
            return j
        # "failed to defend the title and failed to qualify": a second denial joined on is its own.
        if p.words[j] in _JOINS and j > k + 1 and j + 1 < n and _denial(p.words[j + 1]):
            return j
        denies_noun = word in NOUN_NEGATIONS
        # "never could not have imagined": a verb after a second negation is still the first one's.
        after = _finite(p.words[j - 1]) or is_negation(p.words[j - 1])
        if _finite(p.words[j]) and j > k + 1 and not after and not denies_noun and not complement:
            return j
        # "not true that it isn't enabled": a clause of what is denied stays denied.
        complement = complement or p.words[j] in _COMPLEMENTS
        between = gap(p, j)
        if between != " ":
            for c in between:
                if c in _OPEN:
                    depth += 1
                elif c in _CLOSE:
                    if depth == 0:
                        return j  # the parenthesis the negation stands in closes here
                    depth -= 1
        j += 1
    return j


def _aside(p: PreparedPage, j: int) -> int:
    """Return the token after an aside set off by commas opening before token j ("not, in fact, done"); 0 if none."""
    if j in p.breaks or gap(p, j).strip() != ",":
        return 0
    for m in range(j + 1, min(len(p.words), j + 1 + _ASIDE_WORDS)):
        if m in p.breaks:
            return 0
        between = gap(p, m)
        if between.strip() == ",":
            return m
        if between != " ":
            return 0
    return 0


def negations(p: PreparedPage, verbs: bool = False) -> list[tuple[int, int]]:
    """Return (token, scope end) of every denying negation of the page, in page order.

    A widening "not only" is none; a "nor" inside the scope of a "neither" repeats its denial.
    With ``verbs``, the verbs that deny as a "not" does ("failed to", "lacks") are negations too, and
    so are a "zero" of a noun ("confirmed zero cases") and the "yet" of "has yet to report".
    """
    out: list[tuple[int, int]] = []
    neither_until = -1
    for k, word in enumerate(p.words):
        denial = verbs and (word in DENIAL_VERBS or _counts_none(p, k) or _yet_to(p, k))
        if not (is_negation(word) or denial) or widens(p, k):
            continue
        if word == "nor" and k < neither_until:
            continue
        end = scope_end(p, k, MAX_SCOPE)
        if word == "neither":
            # "neither A nor B is supported": the "nor" and what follows it are in the same denial.
            neither_until = end
            j = end
            while j < len(p.words) and p.words[j] != "nor" and j - end < 12 and j not in p.breaks:
                j += 1
            if j < len(p.words) and p.words[j] == "nor":
                neither_until = j + 1
                end = scope_end(p, j, MAX_SCOPE)
        out.append((k, end))
    return out


def _yet_to(p: PreparedPage, k: int) -> bool:
    """Return True when token k is the "yet" of "has yet to", "was yet to": it denies as "has not" does."""
    words = p.words
    if words[k] != "yet" or k == 0 or k + 1 >= len(words) or k in p.breaks or (k + 1) in p.breaks:
        return False
    # "has not yet to report" (a "not" added to "has yet to") still reads its verb two words back.
    verb = words[k - 2] if words[k - 1] == "not" and k > 1 and (k - 1) not in p.breaks else words[k - 1]
    return words[k + 1] == "to" and verb in _YET_VERBS


def _counts_none(p: PreparedPage, k: int) -> bool:
    """Return True when token k is a "zero" that counts none of a noun after it ("zero cases"), not a figure's."""
    words = p.words
    if words[k] != _ZERO or k + 1 >= len(words) or (k + 1) in p.breaks:
        return False
    return not (words[k + 1] in _ZERO_FIGURES or words[k + 1][:1].isdigit())


def parities(n: int, ranges: list[tuple[int, int]]) -> list[int]:
    """Return, for each of n tokens, how many of the governed ranges [a, b) hold it, modulo 2 (1 = denied)."""
    flips = [0] * (n + 1)
    for a, b in ranges:
        if a < b:
            flips[a] ^= 1
            flips[b] ^= 1
    out: list[int] = []
    state = 0
    for i in range(n):
        state ^= flips[i]
        out.append(state)
    return out


def clause_start(p: PreparedPage, k: int) -> int:
    """Return the first token of the clause holding token k."""
    j = k
    while j > 0 and not clause_break(p, j) and p.words[j - 1] not in CLAUSE_WORDS:
        j -= 1
    return j


# Negations that deny by degree: before a capitalised word, a sentence's first one is a title's word.
_DEGREE_ADVERBS = frozenset({"hardly", "barely", "scarcely"})


def in_name(p: PreparedPage, k: int) -> bool:
    """Return True when the negation at token k is part of a name ("Faith No More", "Double or Nothing", "No Way Out").

    Written with a capital inside a clause, or starting a sentence before two more capitalised
    words (one for "Barely", "Hardly", "Scarcely": "Barely Lethal received 33 reviews"), in a
    sentence that is no title-case heading (it holds a word of four letters or more in lower case).
    """
    text = p.page.text

    def capital(i: int) -> bool:
        return a <= i < b and text[p.ostarts[i] : p.ostarts[i] + 1].isupper()

    word = text[p.ostarts[k] : p.oends[k]]
    if not word[:1].isupper() or word.isupper():
        return False
    a, b = k, k + 1
    while a > 0 and a not in p.breaks:
        a -= 1
    while b < len(p.words) and b not in p.breaks:
        b += 1
    # After a label ("CONCLUSION: None of…"), a quotation mark or a dash ('--"Not yet"') a capital starts a sentence.
    # An adverb of degree ("Barely Lethal received…") modifies no capitalised word in a sentence: one more names.
    needed = capital(k + 1) if p.words[k] in _DEGREE_ADVERBS else capital(k + 1) and capital(k + 2)
    named = needed if k == a or gap(p, k) != " " else True
    return named and any(_lower_word(text[p.ostarts[i] : p.oends[i]]) for i in range(a, b))


def _lower_word(word: str) -> bool:
    return len(word) >= 4 and word.isalpha() and word.islower()


def bounds_time(p: PreparedPage, k: int, end: int) -> bool:
    """Return True when the negation at token k governs an "until" ("not created until 1958": created from 1958)."""
    return "until" in p.words[k + 1 : end] or "till" in p.words[k + 1 : end]


# Verbs a negation before them denies the clause after ("I don't think bands should keep going" says
# they should not), and words a clause of theirs may open on.
_RAISING = frozenset("think thinks thought believe believes believed expect expects expected suppose supposed".split())  # noqa: SIM905
_RAISED_REACH = 6


def raised(p: PreparedPage, k: int) -> tuple[int, int] | None:
    """Return the words [a, b) the negation at token k denies past a verb of thinking, None when it stands before none.

    "I do n't think bands should keep going past 33" denies "keep going past 33", not "bands": the
    clause after the verb, from past its own auxiliary to its end.
    """
    words = p.words
    j = k + 1
    if j >= len(words) or words[j] not in _RAISING or clause_break(p, j):
        return None
    for m in range(j + 1, min(len(words), j + 1 + _RAISED_REACH)):
        if clause_break(p, m):
            return None
        if words[m] in FINITE_VERBS:
            end = scope_end(p, m, MAX_SCOPE)
            return (m + 1, end) if end > m + 1 else None
    return None


# Forms of "be" a passive stands on, and participles that end in none of "-ed", "-en", "-wn".
_BE = frozenset({"is", "are", "was", "were", "be", "been", "being"})
_HAVE = frozenset({"have", "has", "had"})
_DETERMINERS = frozenset("a an the any enough many much two three four five six seven eight nine ten".split())  # noqa: SIM905
_RELATIVES = frozenset({"that", "which", "who", "whom", "whose"})
_PARTICIPLES = frozenset(
    """done made sold found held paid built told kept sent brought bought caught cut put set hit shut spread led
    won lost met left heard meant read run thought taught""".split()  # noqa: SIM905
)
# Adverbs between a passive's "be" and its participle ("was not first shown", "were not officially confirmed").
_PASSIVE_ADVERBS = frozenset("first yet already ever also still even fully widely".split())  # noqa: SIM905


def passive_subject(p: PreparedPage, k: int, back: int) -> int:
    """Return the first of the (at most ``back``) words before the negation at token k it denies in the passive.

    "96,108 cases were not confirmed", "25,000 tests have not been done": a passive says what
    happened to its subject, so the negation denies the subject's words too (from the clause's
    start); so does a "has not" of what is had ("Jeremy Lamb has not 2 older siblings"). -1 when
    the negation stands in neither or opens its clause.
    """
    words = p.words
    j = k + 1
    if k == 0 or j >= len(words) or j in p.breaks:
        return -1  # nothing before the negation to deny, or nothing after it to be a passive
    # The word before the negation is its verb unless it opens the sentence ("Was not confirmed.").
    verb_before = words[k - 1] if (k - 1) not in p.breaks else ""
    # "Eric Cantona has not a child named Raphael": "has not" before what is had is "has no".
    owns = verb_before in _HAVE and (words[j] in _DETERMINERS or words[j][:1].isdigit())
    passive = verb_before in _BE
    if words[j] in _BE:
        passive, j = True, j + 1
    while passive and j < len(words) - 1 and (words[j] in _PASSIVE_ADVERBS or words[j].endswith("ly")):
        j += 1  # "was not first shown at the LA Film Festival": the participle follows
    if j >= len(words) or j in p.breaks:
        return -1
    verb = words[j]
    if not owns and not (passive and (verb in _PARTICIPLES or (len(verb) > 4 and verb.endswith(("ed", "en", "wn"))))):
        return -1
    a = max(clause_start(p, k), k - back)
    if any(w in _RELATIVES for w in words[a:k]):
        return -1  # "cases that were never identified": the subject stands outside the clause
    return a if a < k else -1
