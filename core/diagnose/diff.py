"""A word-level diff between a quote and the page's closest passage, each difference named.

Names (``DiffKind``): figure_changed, negation_added, negation_dropped, word_added, word_dropped,
word_replaced, reordered, spliced (the page has a sentence or block break the quote runs
across), and typography_only when the words agree in full: the exact matcher should then have
found the quote, so that is a matcher bug and is reported as one. "Added" and "dropped" are
seen from the quote: a word the quote adds is not on the page. The words are the matcher's
tokens, where "25%" is "25" and "%": a figure change is widened over the rest of its figure, so
that it reads "5%" against "25%" and "$5" against "€5". This module only names differences; it
refuses to judge whether a difference matters for the claim.
"""

from __future__ import annotations

from collections.abc import Callable

from rapidfuzz.distance import Indel

from core.diagnose.words import Words, has_digit, is_figure_part
from core.match.negation import is_negation
from core.models import DiffKind, DiffOp
from core.text import is_sign, normalise

# Show the original characters of token range [a, b) of the quote or the page.
Show = Callable[[int, int], str]


def _pair_kind(qk: str, pk: str) -> DiffKind:
    if (has_digit(qk) and has_digit(pk)) or (is_figure_part(qk) and is_figure_part(pk)):
        return DiffKind.FIGURE_CHANGED
    if is_negation(qk) and not is_negation(pk):
        return DiffKind.NEGATION_ADDED
    if is_negation(pk) and not is_negation(qk):
        return DiffKind.NEGATION_DROPPED
    return DiffKind.WORD_REPLACED


def _replace_kind(qk: tuple[str, ...], pk: tuple[str, ...]) -> DiffKind:
    if sorted(qk) == sorted(pk):
        return DiffKind.REORDERED
    if any(map(has_digit, qk)) and any(map(has_digit, pk)):
        return DiffKind.FIGURE_CHANGED
    qn, pn = sum(map(is_negation, qk)), sum(map(is_negation, pk))
    if qn > pn:
        return DiffKind.NEGATION_ADDED
    if pn > qn:
        return DiffKind.NEGATION_DROPPED
    return DiffKind.WORD_REPLACED


# One step of the diff before it is shown: kind, quote token range, page token range.
Step = tuple[DiffKind, int, int, int, int]
_ADDED = frozenset({DiffKind.WORD_ADDED, DiffKind.NEGATION_ADDED})
_DROPPED = frozenset({DiffKind.WORD_DROPPED, DiffKind.NEGATION_DROPPED})


def _steps(q: Words, p: Words) -> list[Step]:
    """Return the diff as named steps over token ranges, replacements split where it helps."""
    merged: list[list[object]] = []
    for o in Indel.opcodes(q.keys, p.keys):
        if o.tag != "equal" and merged and merged[-1][0] != "equal":
            merged[-1] = ["replace", merged[-1][1], o.src_end, merged[-1][3], o.dest_end]
        else:
            merged.append([o.tag, o.src_start, o.src_end, o.dest_start, o.dest_end])
    steps: list[Step] = []
    for tag, i1, i2, j1, j2 in merged:
        assert isinstance(i1, int) and isinstance(i2, int) and isinstance(j1, int) and isinstance(j2, int)
        qk, pk = q.keys[i1:i2], p.keys[j1:j2]
        # The tags are rapidfuzz's opcode names.
        if tag == "equal":
            steps.append((DiffKind.EQUAL, i1, i2, j1, j2))
        elif tag == "delete":
            added = DiffKind.NEGATION_ADDED if any(map(is_negation, qk)) else DiffKind.WORD_ADDED
            steps.append((added, i1, i2, j1, j2))
        elif tag == "insert":
            dropped = DiffKind.NEGATION_DROPPED if any(map(is_negation, pk)) else DiffKind.WORD_DROPPED
            steps.append((dropped, i1, i2, j1, j2))
        elif len(qk) == len(pk) and sorted(qk) != sorted(pk):
            # Word for word: "25% faster" -> "5% slower" names the figure and the word apart.
            for d in range(len(qk)):
                kind = _pair_kind(qk[d], pk[d])
                if steps and steps[-1][0] is kind and steps[-1][2] == i1 + d and kind is not DiffKind.EQUAL:
                    s = steps[-1]
                    steps[-1] = (kind, s[1], i1 + d + 1, s[3], j1 + d + 1)
                else:
                    steps.append((kind, i1 + d, i1 + d + 1, j1 + d, j1 + d + 1))
        else:
            steps.append((_replace_kind(qk, pk), i1, i2, j1, j2))
    return steps


def _moves(steps: list[Step], q: Words, p: Words) -> list[Step]:
    """Return steps with a word the quote moved (added here, dropped there) named "reordered"."""
    out = list(steps)
    moved: set[int] = set()  # the dropped steps a reordered one stands for, left out of the diff
    for a, sa in enumerate(out):
        if sa[0] not in _ADDED:
            continue
        qk = sorted(q.keys[sa[1] : sa[2]])
        for d, sd in enumerate(out):
            if d not in moved and sd[0] in _DROPPED and sorted(p.keys[sd[3] : sd[4]]) == qk:
                out[a] = (DiffKind.REORDERED, sa[1], sa[2], sd[3], sd[4])
                moved.add(d)
                break
    return [s for i, s in enumerate(out) if i not in moved]


# Steps that may be part of a figure change: a sign added, dropped or replaced beside a number.
_WIDENED = frozenset({DiffKind.FIGURE_CHANGED, DiffKind.WORD_ADDED, DiffKind.WORD_DROPPED, DiffKind.WORD_REPLACED})


def _glued(w: Words, a: int) -> bool:
    """Return True when tokens a and a + 1 of w form one figure: a number and a sign at most a space apart."""
    if not 0 <= a < len(w) - 1 or w.starts[a + 1] - w.ends[a] > 1:
        return False
    x, y = w.keys[a], w.keys[a + 1]
    return is_figure_part(x) and is_figure_part(y) and is_sign(x) != is_sign(y)


def _widen(step: Step, before: Step | None, after: Step | None, q: Words, p: Words) -> Step:
    """Return a figure's step widened over the number or sign beside it in the equal steps around it."""
    kind, i1, i2, j1, j2 = step
    lo_q, lo_p = before[1] if before else i1, before[3] if before else j1
    hi_q, hi_p = after[2] if after else i2, after[4] if after else j2
    # Left: the equal token before is a figure part glued to the step's first token on either side.
    while i1 > lo_q and j1 > lo_p and is_figure_part(q.keys[i1 - 1]):
        q_glued = i1 < i2 and is_figure_part(q.keys[i1]) and _glued(q, i1 - 1)
        p_glued = j1 < j2 and is_figure_part(p.keys[j1]) and _glued(p, j1 - 1)
        if not (q_glued or p_glued):
            break
        i1, j1 = i1 - 1, j1 - 1
    while i2 < hi_q and j2 < hi_p and is_figure_part(q.keys[i2]):
        q_glued = i2 > i1 and is_figure_part(q.keys[i2 - 1]) and _glued(q, i2 - 1)
        p_glued = j2 > j1 and is_figure_part(p.keys[j2 - 1]) and _glued(p, j2 - 1)
        if not (q_glued or p_glued):
            break
        i2, j2 = i2 + 1, j2 + 1
    if any(map(has_digit, q.keys[i1:i2])) and any(map(has_digit, p.keys[j1:j2])):
        kind = DiffKind.FIGURE_CHANGED
    return kind, i1, i2, j1, j2


def _figures(steps: list[Step], q: Words, p: Words) -> list[Step]:
    """Return steps with each figure change shown whole: "5%" against "25%", not "5" against "25"."""
    out = list(steps)
    for x, step in enumerate(out):
        if step[0] not in _WIDENED:
            continue
        before = out[x - 1] if x > 0 and out[x - 1][0] is DiffKind.EQUAL else None
        after = out[x + 1] if x + 1 < len(out) and out[x + 1][0] is DiffKind.EQUAL else None
        _, i1, i2, j1, j2 = out[x] = _widen(step, before, after, q, p)
        if before:
            out[x - 1] = (DiffKind.EQUAL, before[1], i1, before[3], j1)
        if after:
            out[x + 1] = (DiffKind.EQUAL, i2, after[2], j2, after[4])
    return [s for s in out if s[0] is not DiffKind.EQUAL or s[2] > s[1]]


def _splices(steps: list[Step], q_breaks: frozenset[int], p_breaks: frozenset[int], nq: int) -> list[Step]:
    """Return steps with a "spliced" step wherever the page breaks a sentence the quote runs across."""
    out: list[Step] = []
    for kind, i1, i2, j1, j2 in steps:
        if kind is not DiffKind.EQUAL:
            out.append((kind, i1, i2, j1, j2))
            j_last = j2 - 1
            i_near = max(i2 - 1, 0)
            if j2 > j1 and j_last in p_breaks and not q_breaks & {i_near - 1, i_near, i_near + 1} and i2 < nq:
                out.append((DiffKind.SPLICED, i_near, i_near + 2, j_last, j_last + 2))
            continue
        start = 0
        for d in range(j2 - j1):
            j, i = j1 + d, i1 + d
            if j in p_breaks and i not in q_breaks and i + 1 < nq:
                out.append((DiffKind.EQUAL, i1 + start, i + 1, j1 + start, j + 1))
                out.append((DiffKind.SPLICED, i, i + 2, j, j + 2))
                start = d + 1
        if start < j2 - j1:
            out.append((DiffKind.EQUAL, i1 + start, i2, j1 + start, j2))
    return out


def word_diff(
    q: Words, p: Words, q_breaks: frozenset[int], p_breaks: frozenset[int], show_q: Show, show_p: Show
) -> tuple[DiffOp, ...]:
    """Return the named word diff of quote q against passage p (equal runs included, in order)."""
    steps = _splices(_figures(_moves(_steps(q, p), q, p), q, p), q_breaks, p_breaks, len(q))
    ops = []
    for kind, i1, i2, j1, j2 in steps:
        if kind is DiffKind.SPLICED:
            q_words, p_words = show_q(i1, min(i2, len(q))), show_p(j1, min(j2, len(p)))
        else:
            q_words, p_words = show_q(i1, i2) if i2 > i1 else "", show_p(j1, j2) if j2 > j1 else ""
        ops.append(DiffOp(kind=kind, quote_words=q_words, page_words=p_words))
    if all(op.kind is DiffKind.EQUAL for op in ops):
        return (DiffOp(kind=DiffKind.TYPOGRAPHY_ONLY, quote_words=show_q(0, len(q)), page_words=show_p(0, len(p))),)
    return tuple(ops)


def describe(op: DiffOp) -> str:
    """Return one difference in words an editor reads, e.g. 'the page says "5%" where the quote says "25%"'."""
    q, p = op.quote_words, op.page_words
    if op.kind in (DiffKind.FIGURE_CHANGED, DiffKind.WORD_REPLACED):
        return f'the page says "{p}" where the quote says "{q}"'
    if op.kind is DiffKind.NEGATION_ADDED:
        return (
            f'the quote adds "{q}", which the page does not say'
            if not p
            else f'the page says "{p}" where the quote says "{q}", adding a negation'
        )
    if op.kind is DiffKind.NEGATION_DROPPED:
        return (
            f'the quote leaves out "{p}" (a negation on the page)'
            if not q
            else f'the page says "{p}" where the quote says "{q}", dropping a negation'
        )
    if op.kind is DiffKind.WORD_ADDED:
        return f'the quote adds "{q}"'
    if op.kind is DiffKind.WORD_DROPPED:
        return f'the quote leaves out "{p}"'
    if op.kind is DiffKind.REORDERED:
        return f'the quote moves "{q}" (the page has "{p}" elsewhere in the passage)'
    if op.kind is DiffKind.SPLICED:
        if normalise(p).text == normalise(q).text:
            # Same words, taken from another sentence than the rest of the quote.
            return f'the quote joins words from separate sentences: "{q}" stands in another sentence of the page'
        return f'the quote joins words from separate sentences: the page has "{p}" where the quote has "{q}"'
    if op.kind is DiffKind.CUT_AWAY:
        return f'the quote cuts away "{p}"'
    if op.kind is DiffKind.TYPOGRAPHY_ONLY:
        return "the words agree and only typography differs, which the matcher should forgive: this is a matcher bug"
    return ""
