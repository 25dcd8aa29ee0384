"""The exact quote matcher: is this quote on this page, where, and what did it cut away?

``prepare(page)`` normalises a page once and indexes its tokens; ``match_quote`` then finds
each ellipsis fragment of a quote whole, as a run of the page's tokens (words and numbers
compared whole, other punctuation not compared, reference markers skipped), never crossing a
sentence end or block edge that the quote does not cross too. Fragments may come in any
order but never share a page span. Spans are reported in the page's original characters,
with the page number and whether they lie in the main content, and context flags say what
the quote cut away (core.match.context). A too-short quote is matched but never verifiable.

Exact matching alone decides: this module refuses any fuzzy comparison (that is diagnosis).
"""

from __future__ import annotations

import dataclasses
import functools
import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from itertools import pairwise

from core.match.alternative import match_alternative
from core.match.context import context_flags, ellipsis_gap_flags
from core.match.markers import glued_marker_match, unglued
from core.match.page import PreparedPage
from core.match.places import hidden_flag, places
from core.match.reading import ocr_flags
from core.models import Flag, FlagKind, Fragment, Occurrence, QuoteMatch
from core.settings import Settings
from core.text import QuotePart, quote_part

# "…", "...", ". . .", and the bracketed forms "[...]", "[…]", "(...)" an editor writes for a cut.
_ELLIPSIS = re.compile(r"\s*(?:[\[(]\s*(?:…|\.\s?\.\s?\.)\s*[\])]|…|\.(?:\s?\.){2,})\s*")


def split_fragments(quote: str) -> list[str]:
    """Return the quote's ellipsis-separated fragments, stripped, without those holding no word."""
    return [part.text for part in _parts(quote)]


@functools.lru_cache(maxsize=4096)
def _parts(quote: str) -> tuple[QuotePart, ...]:
    """Return the quote's fragments, each normalised and tokenised once (quotes repeat across pages)."""
    if "…" not in quote and ".." not in quote and ". ." not in quote:
        part = quote_part(quote.strip())  # most quotes hold no ellipsis
        return () if part is None else (part,)
    parts = [quote_part(piece.strip()) for piece in _ELLIPSIS.split(quote)]
    return tuple(part for part in parts if part is not None)


def needed_words(quote: str) -> frozenset[str]:
    """Return the words a page must hold for ``match_quote`` to find the quote on it, read either way."""
    need: set[str] = set()
    for part in _parts(quote):
        # A fragment is found as written or without its glued note numbers: only words both readings hold.
        words = set(part.words)
        alt = unglued(part.text)
        if alt is not None:
            words &= set(alt[0].words)
        need |= words
    return frozenset(need)


@functools.cache
def _default_settings() -> Settings:
    return Settings()


def is_too_short(quote: str, settings: Settings | None = None) -> bool:
    """Return True when a quote is empty or has too few words and characters to mean anything alone."""
    return _too_short(_parts(quote), settings or _default_settings())


def _too_short(parts: Sequence[QuotePart], settings: Settings) -> bool:
    words = chars = 0
    for part in parts:
        words += part.counted
        chars += part.chars
    chars += max(len(parts) - 1, 0)
    return not words or (words < settings.min_quote_words and chars < settings.min_quote_chars)


def _overlaps(a: int, b: int, taken: Sequence[tuple[int, int]]) -> bool:
    return any(a < y and x < b for x, y in taken)


def _in_order(occ: list[list[int]], sizes: list[int], anchor: int, at: int) -> list[int] | None:
    """Return the tightest in-order placement with fragment anchor at token at, or None."""
    chosen = {anchor: at}
    edge = at
    for k in range(anchor - 1, -1, -1):
        i = bisect_right(occ[k], edge - sizes[k]) - 1
        if i < 0:
            return None
        chosen[k] = edge = occ[k][i]
    edge = at + sizes[anchor]
    for k in range(anchor + 1, len(occ)):
        i = bisect_left(occ[k], edge)
        if i == len(occ[k]):
            return None
        chosen[k] = occ[k][i]
        edge = chosen[k] + sizes[k]
    return [chosen[k] for k in range(len(occ))]


def _place(occ: list[list[int]], sizes: list[int], steps: int) -> list[int | None]:
    """Return one start per fragment, in page order when possible, never two on one span."""
    if len(occ) == 1:
        return [occ[0][0] if occ[0] else None]
    if occ and all(occ):
        # In page order, as tight as possible around the rarest fragment: a one-word fragment
        # ("Just") is placed next to the rest of the quote, not at its first use on the page.
        anchor = min(range(len(occ)), key=lambda k: (len(occ[k]), -sizes[k]))
        best: list[int] | None = None
        for at in occ[anchor][: max(1, steps // len(occ))]:
            placed = _in_order(occ, sizes, anchor, at)
            if placed is not None and (best is None or placed[-1] - placed[0] < best[-1] - best[0]):
                best = placed
        if best is not None:
            return list(best)
    # Any order (PDF layout scrambles it), by bounded backtracking.
    budget = [steps]
    taken: list[tuple[int, int]] = []

    def search(k: int) -> list[int] | None:
        if k == len(occ):
            return []
        for s in occ[k]:
            budget[0] -= 1
            if budget[0] < 0:
                return None
            if _overlaps(s, s + sizes[k], taken):
                continue
            taken.append((s, s + sizes[k]))
            rest = search(k + 1)
            taken.pop()
            if rest is not None:
                return [s, *rest]
        return None

    full = search(0) if occ and all(occ) else None
    if full is not None:
        return list(full)
    # No placement for all: place what can be placed, first come first served.
    partial: list[int | None] = []
    used: set[int] = set()
    for starts, size in zip(occ, sizes, strict=True):
        s = next((s for s in starts if used.isdisjoint(range(s, s + size))), None)
        if s is not None:
            used.update(range(s, s + size))
        partial.append(s)
    return partial


def match_quote(quote: str, prepared: PreparedPage, settings: Settings | None = None) -> QuoteMatch:
    """Return where each fragment of the quote stands on the page, with context flags; not found is a value."""
    settings = settings or _default_settings()
    p = prepared
    parts = _parts(quote)
    flags: list[Flag] = []
    too_short = _too_short(parts, settings)
    if too_short:
        shown = " ".join(quote.split())
        flags.append(
            Flag(
                kind=FlagKind.TOO_SHORT,
                message=f'The quote "{shown}" is too short to check: fewer than {settings.min_quote_words} words '
                f"and under {settings.min_quote_chars} characters could stand almost anywhere. "
                "Quote a whole sentence from the source.",
                blocking=True,
            )
        )
    # Many fragments share one budget of places tried, so that no quote can stall a check; the
    # places of a one-fragment quote are counted further, and the first of them checked.
    limit = max(8, settings.max_occurrences // max(len(parts), 1))
    if len(parts) == 1:
        limit = settings.max_occurrences_counted
    occ = [p.find(part.words, part.breaks, limit, part.weak) for part in parts]
    for k, part in enumerate(parts):
        if not occ[k]:
            # Copied from a browser, a superscript note number sticks to its word ("alerts,22").
            alt = glued_marker_match(p, part.text, limit)
            if alt is not None:
                parts = (*parts[:k], alt[0], *parts[k + 1 :])
                occ[k] = alt[1]
    sizes = [len(part.words) for part in parts]
    occurrences: list[Occurrence] = []
    place_flags: list[Flag] = []
    count = 0
    if len(parts) == 1 and occ[0]:
        count = len(occ[0])
        order, occurrences, place_flags = places(p, occ[0][: settings.max_occurrences], sizes[0], count, settings)
        occ[0] = order[:1]
    placed = _place(occ, sizes, settings.max_fragment_search_steps)
    fragments: list[Fragment] = []
    outside: list[str] = []
    for part, s, size in zip(parts, placed, sizes, strict=True):
        if s is None:
            fragments.append(Fragment(text=part.text, found=False))
            continue
        if occurrences:
            # The place shown first is the fragment's: its span and whereabouts are known.
            o = occurrences[0]
            span, page, in_main, hidden = o.span, o.page, bool(o.in_main), o.hidden
        else:
            span = (p.ostarts[s], p.oends[s + size - 1])
            page, in_main, hidden = p.page_number(span[0]), p.in_main(*span), p.in_hidden(*span)
        fragments.append(Fragment(text=part.text, found=True, span=span, page=page, in_main=in_main, hidden=hidden))
        if not in_main:
            outside.append(p.original_text(s, s + size - 1))
    if occurrences:
        flags.extend(place_flags)
    else:
        covered = [(s, s + size) for s, size in zip(placed, sizes, strict=True) if s is not None]
        flags.extend(_fragment_flags(p, covered, settings))
        if len(parts) > 1 and len(covered) == len(parts):
            flags.extend(_elsewhere_flags(p, parts, occ, covered, flags, settings))
        placed_parts = [f for f in fragments if f.found]
        if placed_parts and all(f.hidden for f in placed_parts):
            flags.append(hidden_flag(_short(placed_parts[0].text)))
    flags.extend(_splices(p, parts, placed, sizes))
    found = [s for s in placed if s is not None] if len(placed) > 1 else []
    if len(found) > 1 and found != sorted(found):
        flags.append(
            Flag(
                kind=FlagKind.ORDER_DIFFERS,
                message="The parts of the quote stand on the page in a different order: check that joining them "
                "this way does not change what the source says.",
                blocking=False,
            )
        )
    if outside:
        flags.append(
            Flag(
                kind=FlagKind.OUTSIDE_MAIN,
                message=f'The quote was found outside the page\'s main content, in "{_short(outside[0])}" '
                "(navigation, a sidebar or a footer): check that it is the source's own statement.",
                blocking=False,
                page_words=outside[0],
            )
        )
    flags += ocr_flags(p, fragments)
    result = QuoteMatch(quote, tuple(fragments), tuple(flags), too_short, tuple(occurrences), count)
    # Not found here: the page's uncertain word boundaries (PDF line ends, HTML markup joints) read the
    # other way (core.match.alternative).
    if p.page.line_ends and not result.found:
        result = match_alternative(quote, p, settings, match_quote) or result
    return result


def _fragment_flags(p: PreparedPage, covered: list[tuple[int, int]], settings: Settings) -> list[Flag]:
    """Return the context flags of placed fragments, each page word flagged once."""
    # Later fragments first: a negation cut between two fragments reads best as "just before"
    # the second.
    flags: list[Flag] = []
    seen: set[tuple[FlagKind, int | None]] = set()
    in_order = sorted(covered)
    gaps = [ellipsis_gap_flags(p, b, c) for (_, b), (c, _) in pairwise(in_order)]
    for a, b in sorted(covered, reverse=True):
        for flag in context_flags(p, a, b, covered, settings.context_window_words, settings.negation_after_words):
            key = (flag.kind, flag.span[0] if flag.span is not None else None)
            if key not in seen:
                seen.add(key)
                flags.append(flag)
    for flag in (f for gap in gaps for f in gap):
        key = (flag.kind, flag.span[0] if flag.span is not None else None)
        if key not in seen:
            seen.add(key)
            flags.append(flag)
    return flags


def _elsewhere_flags(
    p: PreparedPage,
    parts: Sequence[QuotePart],
    occ: list[list[int]],
    covered: list[tuple[int, int]],
    known: Sequence[Flag],
    settings: Settings,
) -> list[Flag]:
    """Return the blocking flags of a fragment's other places, each taken in its placed place's stead.

    A quote of several fragments stands on the page wherever its fragments do: "The free-threaded
    mode … enabled by default" is placed where the page says "color enabled by default", but its
    second fragment also stands, nearer the first, after "is not". Like a one-fragment quote, it is
    checked at every place (DESIGN.md, "Matching rules"): a blocking flag at any blocks ``verified``.
    A place is another reading of the quote only when it keeps the fragments as close as the one
    placed, and in page order when that one is: a one-word fragment's far use ("How", 19 places on
    a page) is not where the quote came from. Each place is read for what it cuts away itself, on
    its two sides; the places tried are the matcher's, so the work stays bounded.
    """
    seen = {(f.kind, f.span) for f in known}
    out: list[Flag] = []
    in_order = _in_page_order(covered)
    spread = _spread(covered)
    window, after = settings.context_window_words, settings.negation_after_words
    for k, part in enumerate(parts):
        a, b = covered[k]
        rest = covered[:k] + covered[k + 1 :]
        for s in occ[k]:
            e = s + b - a
            if s == a or _overlaps(s, e, rest):
                continue
            swapped = [*covered[:k], (s, e), *covered[k + 1 :]]
            # A reading as close as the one placed: a short fragment's far use ("Just" at its 23rd) is none.
            if _spread(swapped) > spread or (in_order and not _in_page_order(swapped)):
                continue
            before = max((y for _, y in rest if y <= s), default=None)
            next_ = min((x for x, _ in rest if x >= e), default=None)
            here = context_flags(p, s, e, swapped, window, after)
            here += ellipsis_gap_flags(p, before, s) if before is not None else []
            here += ellipsis_gap_flags(p, e, next_) if next_ is not None else []
            for flag in here:
                if not flag.blocking or (flag.kind, flag.span) in seen:
                    continue
                seen.add((flag.kind, flag.span))
                said = f'The quote\'s part "{_short(part.text)}" also stands elsewhere on the page, no farther '
                said += f"from its other parts; there, {_lower_first(flag.message)}"
                out.append(dataclasses.replace(flag, message=said))
    return out


def _in_page_order(covered: Sequence[tuple[int, int]]) -> bool:
    return all(x < y for (x, _), (y, _) in pairwise(covered))


def _spread(covered: Sequence[tuple[int, int]]) -> int:
    return max(b for _, b in covered) - min(a for a, _ in covered)


def _lower_first(message: str) -> str:
    return message[:1].lower() + message[1:]


# A sentence mark at a fragment's edge, past closing brackets and quotation marks.
_ENDS_SENTENCE = re.compile(r"[.!?][\s)\]\"'”’]*\Z")
_ONE_ELLIPSIS = re.compile(r"\.\.\.|…")
_OPENS_AFTER_END = re.compile(r"\A[\s)\]\"'”’]*[.!?]")


def _splices(p: PreparedPage, parts: Sequence[QuotePart], placed: Sequence[int | None], sizes: list[int]) -> list[Flag]:
    """Return a blocking flag for each ellipsis that cuts nothing where the page ends a sentence the quote does not.

    The page's own ellipsis ("…hardware….) The") copied without its full stop splits the quote into
    fragments that stand side by side: the sentence end between them must be the quote's too.
    """
    flags: list[Flag] = []
    for i in range(len(parts) - 1):
        a, b = placed[i], placed[i + 1]
        if a is None or b is None or a + sizes[i] != b or b not in p.breaks:
            continue
        if _ENDS_SENTENCE.search(parts[i].text) or _OPENS_AFTER_END.match(parts[i + 1].text):
            continue
        # An ellipsis may end the page's sentence by itself ("code coverage… Mostly"): the quote's shows it.
        if not re.search(r"[.!?]", _ONE_ELLIPSIS.sub("", p.work[p.ends[b - 1] : p.starts[b]], count=1)):
            continue
        shown = p.original_text(max(a, b - 4), min(b + 3, len(p.words) - 1))
        flags.append(
            Flag(
                kind=FlagKind.SPLICE,
                message=f'The quote joins "{_short(parts[i].text)}" and "{_short(parts[i + 1].text)}" over an '
                f'ellipsis that cuts nothing, where the page ends a sentence: "{shown}". Quote each sentence '
                "with its own full stop.",
                blocking=True,
                page_words=shown,
                span=(p.ostarts[a], p.oends[b + sizes[i + 1] - 1]),
            )
        )
    return flags


def _short(text: str, words: int = 12) -> str:
    parts = text.split()
    return text if len(parts) <= words else " ".join(parts[:words]) + " …"
