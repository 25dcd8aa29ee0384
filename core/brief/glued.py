"""Footnote numbers glued to the text (Gemini's ``crop.1``, ``true?2.``, ``terms2:``), told from figures.

Gemini Deep Research writes its citation numbers with no bracket and no space, right after a
word, a closing mark or the full stop, and lists the numbered URLs under "Works cited". A
glued number is read as a citation only on the list's evidence and where the sentence reads
complete without it:

- the number is an entry of the brief's numbered reference list, and the brief cites that
  list no other way (no ``[n]`` or ``[^n]`` markers), so bracketed briefs never lose a figure;
- it is glued: right after a lower-case word of three letters or more, a closing mark
  (``) ] " ” ’ *``), a full stop, ``?``, ``!`` or ``:`` (never after a digit or a digit's
  point: ``3.12.1``, ``2.1``), or right where an image was dropped (``![][image3]4``);
- it ends there: at the end, before white space, or before ``. , ; : ! ? ) * |``; after a word,
  the next word does not go on in lower case ("primates8 and" would be a word such as "mp3").

"grew 2.1", "Python 3.12.1", "in 2024." and "CO2" are figures by these rules. This module only
finds the numbers, and cuts a sentence after one glued to a year's full stop ("by 2030.2 This");
``core.brief.markdown`` and the PDF and DOCX readers turn them into citations.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping

from core.brief.blocks import Block, BlockKind, Cite, CiteKind

_NUMBER = re.compile(r"\d{1,3}(?!\d)")
_CLOSERS = frozenset(')]"”’*.?!:')
_ENDS = frozenset(".,;:!?)*|")
_SPACED_AFTER = frozenset(')]"”’')
_YEAR_BEFORE = re.compile(r"(?<![\d.,])(?:1[89]|20)\d\d$")
_NEW_SENTENCE = re.compile(r"$|\s+[A-Z]")


def glued_numbers(
    text: str, known: Collection[str], glue: Collection[int] = (), closes: Collection[int] = ()
) -> list[tuple[int, int, str]]:
    """Return (start, end, number) of each note number glued to text that the reference list holds.

    ``closes``: where emphasis closed in the text (``**Tool X** 1``), after which a spaced note may stand.
    """
    out: list[tuple[int, int, str]] = []
    for m in _NUMBER.finditer(text):
        start, end, number = m.start(), m.end(), m.group(0)
        if number not in known or start == 0 or text[start - 1].isdigit():
            continue
        prev = text[start - 1]
        if prev == " " and start >= 2 and (text[start - 2] in _SPACED_AFTER or start - 1 in closes):
            # Gemini's note after a space: "grew (since 2010) 2, and", "| **Tool X** 1 |"; it must end there.
            nxt = text[end : end + 1]
            if not nxt or (nxt in _ENDS and not text[end + 1 : end + 2].isdigit()):
                out.append((start, end, number))
            continue
        if prev == "." and _YEAR_BEFORE.search(text, 0, start - 1) and _NEW_SENTENCE.match(text, end):
            out.append((start, end, number))  # "by 2030.2 This strains": a year, its full stop, the note
            continue
        after_word = prev.isalpha()
        if after_word:
            letters = len(text[:start]) - len(
                text[:start].rstrip("abcdefghijklmnopqrstuvwxyzßàáâãäåæçèéêëìíîïñòóôõöøùúûüýÿ")
            )
            if not prev.islower() or letters < 3:
                continue
        elif start not in glue:
            if prev not in _CLOSERS:
                continue
            if prev in ".:" and start >= 2 and text[start - 2].isdigit():
                continue  # "3.12.1": a version's point; "1:10": a ratio or a time
        nxt = text[end : end + 1]
        if nxt and not nxt.isspace() and nxt not in _ENDS:
            continue
        if nxt in ".:" and text[end + 1 : end + 2].isdigit():
            continue
        if after_word and nxt.isspace() and text[end + 1 : end + 2].islower():
            continue
        out.append((start, end, number))
    return out


_READ = (BlockKind.PARAGRAPH, BlockKind.LIST, BlockKind.TABLE, BlockKind.BLOCKQUOTE)


_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
_SUPER_RUN = re.compile(r"[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,3}(?:,\s?[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,3})*")


def superscript_numbers(text: str, known: Collection[str]) -> list[tuple[int, int, str]]:
    """Return (start, end, number) of each note set in superscript digits ("…true.¹", "¹,³") the list holds.

    Not after a digit ("10⁶") or a word of fewer than three letters ("km²"): those are exponents.
    """
    out = []
    for m in _SUPER_RUN.finditer(text):
        before = text[: m.start()]
        letters = len(before) - len(before.rstrip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"))
        if before[-1:].isdigit() or 0 < letters < 3:
            continue
        for part in m.group(0).split(","):
            number = part.strip().translate(_SUPERSCRIPTS)
            if number in known:
                out.append((m.start(), m.end(), number))
    return out


def add_glued_numbers(
    blocks: list[Block],
    entries: Mapping[str, str],
    reading: Callable[[str], str],
    glue: Mapping[int, list[int]],
    closes: Mapping[int, list[int]] | None = None,
) -> None:
    """Add a citation for each superscript digit note, and for each glued note number when the brief cites its
    list no other way."""
    known = {k for k, url in entries.items() if k.isdigit() and url.lower().startswith(("http://", "https://"))}
    if not known:
        return
    for block in blocks:
        if block.kind in _READ:
            for s, e, num in superscript_numbers(block.text, known):
                how = f"superscript {num}, {reading(num)}"
                block.cites.append(Cite(s, e, entries[num], num, CiteKind.MARKER, how=how))
            block.cites.sort(key=lambda c: c.start)
    if any(
        c.kind == CiteKind.MARKER and not c.how.startswith("superscript")
        for b in blocks
        if b.kind in _READ
        for c in b.cites
    ):
        return
    for n, block in enumerate(blocks):
        if block.kind not in _READ:
            continue
        found = [
            (s, e, num)
            for s, e, num in glued_numbers(block.text, known, glue.get(n, ()), (closes or {}).get(n, ()))
            if not any(c.start <= s < c.end for c in block.cites)
        ]
        for s, e, num in found:
            how = f"note {num} glued to the text, {reading(num)}"
            block.cites.append(Cite(s, e, entries[num], num, CiteKind.MARKER, how=how))
        if found:
            block.cites.sort(key=lambda c: c.start)


def cut_after_numbers(text: str, spans: list[tuple[int, int]], cites: list[Cite]) -> list[tuple[int, int]]:
    """Return the sentence spans cut after each note glued to a number's full stop ("by 2030.2 This strains").

    The text layer reads "2030.2" as one number, so the sentence break rule cannot see the full stop.
    """
    cuts = sorted(
        c.end
        for c in cites
        if c.kind == CiteKind.MARKER
        and c.start >= 2
        and text[c.start - 1] == "."
        and text[c.start - 2].isdigit()
        and re.match(r"\s+\S", text[c.end :])
    )
    if not cuts:
        return spans
    out: list[tuple[int, int]] = []
    for start, end in spans:
        for cut in (c for c in cuts if start < c < end):
            out.append((start, cut))
            start = cut + len(text[cut:end]) - len(text[cut:end].lstrip())
        out.append((start, end))
    return out
