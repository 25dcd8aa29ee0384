"""Tokens of normalised text: what the exact matcher compares, and what every other reader counts.

A token is a word or a number taken whole (``3.12``, ``129940`` from ``1,29,940``, ``-5``,
``don't``, ``boeing's`` from ``Boeing 's``), an acronym with its dots dropped (``us`` from
``U.S.``), a single CJK character, or a sign that counts (``%``, ``$``, ``€``...). Every other
character (commas, colons, brackets, quotation marks, hyphens) only separates tokens. Reference
markers (``[12]``, ``[a]``, ``[citation needed]``, ``[edit]``) are blanked before tokenising, so
that a quote may leave them out; an index such as ``arr[0]`` is kept. ``tokenise`` reads any
text; ``plain_tokens`` reads plain ASCII text (most quotes) to the same tokens, faster, and
declines the rest. Where sentences end is ``core.text.breaks``' job: this module only cuts text
into tokens.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from itertools import accumulate, compress


def _ranges(chars: Iterable[int]) -> str:
    """Return a regex character-class body covering the given code points."""
    out: list[str] = []
    run: list[int] = []
    for c in chars:
        if run and c == run[-1] + 1:
            run.append(c)
            continue
        if run:
            out.append(_range_text(run[0], run[-1]))
        run = [c]
    if run:
        out.append(_range_text(run[0], run[-1]))
    return "".join(out)


def _range_text(a: int, b: int) -> str:
    return re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"


# Combining marks belong to their word (Arabic harakat, Devanagari vowel signs, Hebrew points).
_MARKS = _ranges(c for c in range(0x300, 0x10000) if unicodedata.category(chr(c)) in ("Mn", "Mc", "Me"))
# Currency signs count as tokens: "$5" is not "€5".
_CURRENCY = _ranges(c for c in range(0x20, 0x10000) if unicodedata.category(chr(c)) == "Sc")
# Scripts written without spaces: each character is a token, so a quote may start mid-run.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff"

_W = rf"[^\W_{_CJK}]"  # a letter or digit of a spaced script
_L = rf"[^\W\d_{_CJK}]"  # a letter of a spaced script


def _token_pattern(wc: str, w: str, others: str) -> re.Pattern[str]:
    """Return the token pattern: wc and w are the characters inside and after a word joint."""
    # Digits joined by "." or "," stay one number (3.12, 1,29,940); "'" and "_" join words.
    word = rf"{wc}+(?:(?:[.,](?<=\d[.,])(?=\d)|['_](?={w})){wc}+)*"
    # A minus sign belongs to its number only where it cannot be a hyphen or a range dash. The
    # word comes first as its own branch: most tokens start with a letter or digit, and an
    # optional sign tried ahead of every one of them costs a quarter of the splitting.
    return re.compile(rf"{word}|-(?=\d)(?<![^\s(\[\"'/]-){word}|{others}")


_OTHERS = rf"[{_CJK}]|[%‰‱{_CURRENCY}]"
TOKEN = _token_pattern(rf"(?:{_W}|[{_MARKS}])", _W, _OTHERS)
# The same tokens, faster where there is no combining mark (most text, once NFKC composed it)
# and where all is ASCII (lower case after normalising): Unicode classes cost per character.
_TOKEN_NO_MARKS = _token_pattern(_W, _W, _OTHERS)
_TOKEN_ASCII = _token_pattern("[a-z0-9]", "[a-z0-9]", "[%$]")
_HAS_MARK = re.compile(f"[{_MARKS}]")
# Signs that are tokens but not words: a quote's word count leaves them out, a figure holds them.
SIGN = re.compile(f"[%‰‱{_CURRENCY}]")
# Initials and acronyms (U.S., e.g., a.m.) are one word, dots dropped: "US" matches "U.S.".
ACRONYM = re.compile(rf"(?<![\w.]){_L}(?:\.{_L})+(?![\w]|\.\w\w)")
_ACRONYM_ASCII = re.compile(r"(?<![\w.])[a-z](?:\.[a-z])+(?![\w]|\.\w\w)")


# Reference markers, as normalised text shows them (lower case, "-" for every dash).
MARKER = re.compile(
    r"\[(?:[1-9]\d{0,2}|[a-z]|[ivx]{1,5}|(?:note|nb|n|fn|ref) ?[1-9]\d{0,2}|edit|update"
    r"|citation needed|clarification needed|verification needed|page needed|full citation needed"
    r"|better source needed|failed verification|dubious - discuss|original research\?|unreliable source\?"
    r"|when\?|who\?|which\?|by whom\?|according to whom\?|where\?|why\?|how\?|vague|sic"
    r"|(?:lower|upper)-(?:alpha|roman|greek) [1-9]\d{0,2})\]"
    # ...but not an index: "arr[1]=", "x[1](", "d[1].y" or "w[1]z" read on as code.
    r"(?![\w(=]|\.\w)"
    # Wikipedia's page-number markers after a sentence or a reference: "dogs.:35", "[5]:p158".
    r"|(?<=[.,;!?\]]):p?[1-9]\d{0,3}(?:-[1-9]\d{0,3})?(?=\s|$)"
)


def blank(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """Return text with each (start, end) span and every reference marker replaced by spaces."""
    found = _marker_spans(text) if "[" in text or ":" in text else []
    cuts = sorted({*spans, *found})
    if not cuts:
        return text
    pieces: list[str] = []
    pos = 0
    for start, end in cuts:
        start = max(start, pos)
        if start >= end:
            continue
        pieces.append(text[pos:start])
        pieces.append(" " * (end - start))
        pos = end
    pieces.append(text[pos:])
    return "".join(pieces)


def _marker_spans(text: str) -> list[tuple[int, int]]:
    """Return the spans MARKER.finditer(text) gives, trying MARKER only at each "[" and ":".

    Every marker starts with one of them, and a pattern with a look-behind branch is otherwise
    tried at every position of a page; the look-behind still sees text before pos.
    """
    spans: list[tuple[int, int]] = []
    end = 0
    for c in _MARKER_START.finditer(text):
        if c.start() >= end:
            m = MARKER.match(text, c.start())
            if m is not None:
                spans.append(m.span())
                end = m.end()
    return spans


_MARKER_START = re.compile(r"[\[:]")


def _grouped(token: str) -> str | None:
    """Return a number with grouping commas dropped, or None when its commas do not group digits."""
    parts = token.split(",")
    head, *middle, last = parts
    lead = re.search(r"\d+$", head)
    tail = re.match(r"\d+", last)
    if lead is None or tail is None or len(lead.group()) > 3 or len(tail.group()) != 3:
        return None
    if tail.end() < len(last) and last[tail.end()] != ".":
        return None
    sizes = {len(p) for p in middle}
    # Western grouping is in threes; Indian grouping (1,29,940) in twos before the last three.
    if (not middle or sizes == {3} or sizes == {2}) and all(p.isdigit() for p in middle):
        return "".join(parts)
    return None


# Each token pattern as one capturing group, to split text around its tokens.
_SPLITTERS = {p: re.compile(f"({p.pattern})") for p in (TOKEN, _TOKEN_NO_MARKS, _TOKEN_ASCII)}


def tokenise(
    work: str, original: str | None = None, offsets: Sequence[int] | None = None
) -> tuple[list[str], list[int], list[int]]:
    """Return the tokens of normalised (and blanked) text with their start and end positions.

    Given the text ``work`` was normalised from and its offset map, a clitic written apart from
    its word ("Boeing 's") is joined to it, as the matcher and its quotes read text; without them
    (positions alone, as brief sentences need) every token stays as written.
    """
    if work.isascii():
        pattern, acronym = _TOKEN_ASCII, _ACRONYM_ASCII
    else:
        pattern, acronym = (TOKEN if _HAS_MARK.search(work) else _TOKEN_NO_MARKS), ACRONYM
    # Found first, while the page's token lists do not yet exist for the garbage collector to walk.
    acronyms = _acronyms(acronym, work) if _may_hold_acronym(work) else []
    # Splitting around the tokens gives them and the text between at C speed; their lengths
    # summed give every position. A match object per token costs several times more.
    pieces = _SPLITTERS[pattern].split(work)
    bounds = list(accumulate(map(len, pieces)))
    words = pieces[1::2]
    ends = bounds[1::2]
    starts = bounds[0 : 2 * len(words) : 2]
    del pieces, bounds
    # A comma inside a token always stands between two digits: look only there.
    for m in _DIGIT_COMMA.finditer(work):
        if not work[m.start() - 1 : m.start()].isdigit():
            continue
        i = bisect_right(starts, m.start() - 1) - 1
        if i >= 0 and "," in words[i]:
            # Commas that do not group digits ("1,5" in Europe, "3,4") keep the number whole:
            # a quote "1" must not match the page's "1,5".
            words[i] = _grouped(words[i]) or words[i]
    if acronyms:
        words, starts, ends = _join_acronyms(acronyms, words, starts, ends)
    if original is not None and offsets is not None:
        _join_clitics(work, words, starts, ends, original, offsets)
    return words, starts, ends


# Led by its comma, so that the scan jumps from comma to comma; the digit before is checked after.
_DIGIT_COMMA = re.compile(r",(?=\d)")

# Plain ASCII text: every character but a letter, a digit, "'", "_" and a sign only separates
# tokens. A bytes table, since str.translate looks every distinct character up in a dict.
_PLAIN = bytes(c if re.fullmatch(rb"[a-z0-9'_%$]", bytes([c])) else ord(" ") for c in range(256))
# Where a "." or "," joins digits, a "." letters (an acronym) or a "-" may be a minus sign, the
# text is not plain. Each pattern is led by its mark, which the scan finds as fast as str.find.
_POINT = re.compile(r"\.(?:(?<=\d\.)(?=\d)|(?<=[a-z]\.)(?=[a-z]))")
_COMMA = re.compile(r",(?<=\d,)(?=\d)")
_MINUS = re.compile(r"-(?=\d)")


def plain_tokens(work: str) -> list[str] | None:
    """Return the tokens ``tokenise`` gives of plain ASCII text, without their positions, or None when not plain.

    Plain text holds no number with a decimal point, a grouping comma or a minus sign, no
    acronym, no clitic apart from its word ("Boeing 's") and no run of "'" or "_": its tokens
    are its runs of letters and digits (joined by a single "'" or "_") and its signs, which a
    translation and str.split find several times faster than the token pattern. Most quotes are
    plain, and every quote of a check is read.
    """
    if (
        not work.isascii()
        or ("." in work and _POINT.search(work))
        or ("," in work and _COMMA.search(work))
        or ("-" in work and _MINUS.search(work))
        or ("'" in work and _clitics_apart(work))  # "Boeing 's": tokenise joins those
    ):
        return None
    spaced = work.encode("ascii").translate(_PLAIN).decode("ascii")
    if "%" in spaced or "$" in spaced:
        spaced = spaced.replace("%", " % ").replace("$", " $ ")  # a sign is a token of its own: "5%" is 5, %
    words = spaced.split()
    if "'" not in spaced and "_" not in spaced:
        return words
    out = []
    for word in words:
        # A joint stands between two runs of letters and digits: "don't" is one token, "'tis" is "tis".
        word = word.strip("'_")
        if "''" in word or "__" in word or "'_" in word or "_'" in word:
            return None
        if word:
            out.append(word)
    return out


def _may_hold_acronym(work: str) -> bool:
    """Return True when a dot stands between two letters, the first standing alone ("u.s")."""
    i = work.find(".")
    while 0 <= i < len(work) - 1:
        if i > 0 and work[i + 1].isalpha() and work[i - 1].isalpha() and (i < 2 or not work[i - 2].isalnum()):
            return True
        i = work.find(".", i + 1)
    return False


def _acronyms(acronym: re.Pattern[str], work: str) -> list[re.Match[str]]:
    """Return acronym.finditer(work) as a list, trying the pattern only just before each dot.

    Every acronym starts with a letter and a dot, and a pattern led by a look-behind is
    otherwise tried at every position of a page; the look-behind still sees text before pos.
    """
    found: list[re.Match[str]] = []
    end = 0
    i = work.find(".", 1)
    while i > 0:
        # A letter stands on both sides of an acronym's dot; most dots end sentences.
        if i - 1 >= end and work[i - 1].isalnum() and work[i + 1 : i + 2].isalnum():
            m = acronym.match(work, i - 1)
            if m is not None:
                found.append(m)
                end = m.end()
        i = work.find(".", i + 1)
    return found


def _join_acronyms(
    acronyms: list[re.Match[str]], words: list[str], starts: list[int], ends: list[int]
) -> tuple[list[str], list[int], list[int]]:
    """Return the tokens with each acronym's single letters made one word."""
    out_w: list[str] = []
    out_s: list[int] = []
    out_e: list[int] = []
    k = 0
    for m in acronyms:
        first = bisect_left(starts, m.start())
        last = bisect_left(starts, m.end())
        out_w += words[k:first]
        out_s += starts[k:first]
        out_e += ends[k:first]
        out_w.append(m.group().replace(".", ""))
        out_s.append(m.start())
        out_e.append(m.end())
        k = last
    out_w += words[k:]
    out_s += starts[k:]
    out_e += ends[k:]
    return out_w, out_s, out_e


# A clitic that a tokeniser split from its word, in the page or in the text a quote was copied
# from ("Boeing 's", "we 're", "do n't"): the space before an apostrophe is typography, and the
# word is the one "Boeing's" is. Across spaces only: never across a line or other punctuation,
# and not a letter quoted alone ("the 's' key").
_CLITIC = re.compile(r"(?:'(?:s|re|ve|ll|d|m)|n't)(?![\w'])", re.IGNORECASE)
_LINE_ENDS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")


def _clitics_apart(work: str) -> list[tuple[int, int, int]]:
    """Return (gap start, clitic start, clitic end) of each clitic with spaces before it, in text order."""
    found: list[tuple[int, int, int]] = []
    i = work.find("'")
    while i >= 0:  # from apostrophe to apostrophe: a pattern tried at every space costs 20 ms a MB
        at = i - 1 if i > 0 and work[i - 1] in "nN" else i  # "n't" starts before its apostrophe
        gap = at
        while gap > 0 and work[gap - 1] in " \t":
            gap -= 1
        if gap < at:
            m = _CLITIC.match(work, at)
            if m is not None:
                found.append((gap, at, m.end()))
        i = work.find("'", i + 1)
    return found


def _join_clitics(
    work: str, words: list[str], starts: list[int], ends: list[int], original: str, offsets: Sequence[int]
) -> None:
    """Join, in place, each clitic written apart from its word to that word (tokens as ``tokenise`` cut them).

    ``original`` is the text ``work`` was normalised from and ``offsets`` maps each character of
    ``work`` to its index there: normalising reads a line end as a space, and a clitic is never
    joined across one (a figure label "'s" on the next line of a PDF is not the word's).
    """
    joined: list[int] = []  # the clitics' token indices, in text order
    for gap, at, end in _clitics_apart(work):
        start = at + 1 if work[at] == "'" else at  # the clitic's token: "s" of "'s", "n't" whole
        i = bisect_left(starts, start)
        if not (0 < i < len(words) and starts[i] == start and ends[i] == end and ends[i - 1] == gap):
            continue
        if _LINE_ENDS.isdisjoint(original[offsets[gap] : offsets[at]]):
            words[i - 1] += work[at:end]
            ends[i - 1] = end
            joined.append(i)
    if joined:  # the lists rebuilt once: a page split like a treebank has thousands
        keep = bytearray(b"\x01") * len(words)
        for k in joined:
            keep[k] = 0
        words[:] = compress(words, keep)
        starts[:] = compress(starts, keep)
        ends[:] = compress(ends, keep)


def is_sign(token: str) -> bool:
    """Return True for a token that is a sign (``%``, ``$``, ``€``...), not a word or a number."""
    return len(token) == 1 and SIGN.match(token) is not None
