"""Citations that live away from their sentence: footnote bodies and numbered references.

``note_citation`` reads a footnote's body: its first link is the source, and a passage in
quotation marks *after* that link (or after "Quote:") is the quote; a passage before the
link is usually the cited page's title and is not taken. ``link_numbered_references``
finds a references section in a reader's blocks ("References", "Sources", "Notes", ...)
and turns "[1]" markers elsewhere into citations of its entries (numbered by their own
"[1]" or "1.", or by their place in a Word numbered list). Used by the DOCX and PDF
readers; the Markdown reader resolves its own definitions inline.

This module only links markers to entries: it refuses to read files or to make claims.
"""

from __future__ import annotations

import re

from core.brief.blocks import Block, BlockKind, Cite, CiteKind
from core.brief.citations import QUOTED, strip_quote_text

# The headings agents and exports put over a reference list, with a short addition ("References
# (Excerpt)", "Sources used", "Works cited:"); Chinese, Japanese and Korean ones too.
REF_HEADINGS = re.compile(
    r"^\W*(?:references?|sources?(?: used| cited| consulted)?|notes|footnotes|endnotes|bibliography|works cited"
    r"|citations|key citations|key sources|links|further reading|reference list|literature cited"
    r"|参考文献|参考资料|参考資料|引用文献|출처|참고 ?자료|참고 ?문헌)(?:\s*\([^()]{0,30}\))?\W*$",
    re.IGNORECASE,
)
# "[1]", "[1, 4]", "[3–5]"; glued to a word ("devices[1]") only when the list has the entry (else "arr[0]").
NUM_REFS = re.compile(r"(?<!\[)\[(\d{1,5}(?:\s*[,;–-]\s*\d{1,5})*)\](?![(:])")
# Between an entry's number and its text: white space, or an invisible character Google Docs writes there
# ("1.\u200b Title", "2.\u00a0Title").
_GAP = r"(?:[\u200b-\u200d\u2060\ufeff]+\s*|\s+)"
_REF_ENTRY = re.compile(rf"^\s*(?:\[(\d{{1,5}})\](?:{_GAP})?|(\d{{1,5}})[.)]{_GAP})")  # not "0.55 NA …"


def missing_entry(number: str, text: str) -> str:
    """Return the note for a marker whose entry the reference list lacks, naming the sentence it stands in."""
    where = " ".join(text.split())[:70]
    return (
        f"Cited as [{number}], but the reference list has no entry {number} (in “{where}…”), so that claim has "
        f"no source. Add entry {number} with its URL to the reference list."
    )


def no_url(number: str, entry: str) -> str:
    """Return the note for a marker whose entry holds no URL (an uploaded file), naming the entry."""
    entry = " ".join(entry.split())
    entry = re.sub(rf"^\[?{number}[\].)]?[\s\u200b-\u200d\u2060\ufeff]*", "", entry)[:70]
    what = (
        "an uploaded file with no URL" if re.search(r"\buploaded\b", entry, re.IGNORECASE) else "an entry with no URL"
    )
    return (
        f"Cited as {number}, {what} (“{entry}”), so the claims citing it have no source to check; the other "
        "entries are read. Check that file by hand, or cite the web page it came from."
    )


def note_citation(text: str, cites: list[Cite], min_words: int) -> tuple[str, str, str | None]:
    """Return a footnote's (URL, link text, quote): its first link, and a quoted passage after it."""
    first = next((c for c in cites if c.url), None)
    if first is None:
        return "", "", None
    quote = None
    if m := re.search(r"(?:quote|quotation|evidence|excerpt)\W{0,2}\s*:", text, re.IGNORECASE):
        quote = strip_quote_text(text[m.end() :]) or None
    else:
        for q in QUOTED.finditer(text, first.end):
            inner = next(g for g in q.groups() if g is not None).strip()
            if len(inner.split()) >= min_words:
                quote = inner
                break
    return first.url, first.anchor, quote


_SUP_NUMBERS = re.compile(r"\s*\d{1,3}(?:\s*[,–-]\s*\d{1,3})*\s*$")


def superscript_marks(text: str, spans: list[tuple[int, int]], cites: list[Cite]) -> list[Cite]:
    """Return a note marker for each superscript span that is only numbers ("¹", "2,3"), to resolve later.

    A superscript inside a link or a footnote mark is that citation already; "m²" is no number run.
    """
    out: list[Cite] = []
    for s, e in spans:
        if not _SUP_NUMBERS.match(text[s:e]) or any(c.start <= s < c.end for c in cites):
            continue
        if s and text[s - 1].isdigit():
            continue  # "10⁶": an exponent
        out.extend(Cite(s, e, "", n, CiteKind.MARKER, how=f"superscript {n}") for n in numbers(text[s:e].strip()))
    return out


def numbers(spec: str) -> list[str]:
    """Return the reference numbers of a marker's inside: "1, 3-5" gives 1, 3, 4, 5."""
    out: list[str] = []
    for part in re.split(r"\s*[,;]\s*", spec):
        if m := re.fullmatch(r"(\d+)\s*[–-]\s*(\d+)", part):
            lo, hi = int(m.group(1)), int(m.group(2))
            out.extend(str(x) for x in range(lo, min(hi, lo + 50) + 1))
        elif part.strip():
            out.append(part.strip())
    return out


def link_numbered_references(blocks: list[Block]) -> list[str]:
    """Resolve "[1]" markers in blocks from a references section; mark that section; return warnings.

    The section starts at a heading (or a paragraph alone) reading "References", "Sources",
    "Notes", ... and runs to the next heading. An entry is numbered by its own "[1]" or "1."
    or, in a Word numbered list whose numbers are not in the text, by its place.
    """
    refs: dict[str, Cite] = {}  # entry number -> the entry's first link
    unlinked: dict[str, str] = {}  # entry number -> the text of an entry with no link (an uploaded file)
    headings: dict[str, str] = {}
    in_refs = False
    place = 0
    last: str | None = None  # the number of the entry before, when the list numbers its entries
    heading = ""
    for block in blocks:
        if REF_HEADINGS.match(block.text.strip()) and len(block.text) < 40:
            in_refs, place, last, heading = True, 0, None, block.text.strip()
            block.kind = BlockKind.HEADING
            continue
        if block.kind == BlockKind.HEADING:
            in_refs = False
            continue
        if not in_refs or not block.text.strip():
            continue
        block.kind = BlockKind.REFERENCE  # an entry, with a URL or not, is never a claim
        for label, start, end in _entries(block.text, place + 1, last):
            if label != last:
                place += 1
            if _REF_ENTRY.match(block.text[start:end]):
                last = label
            link = next((c for c in block.cites if c.url and start <= c.start < end), None)
            if link is not None:
                refs.setdefault(label, link)
                headings.setdefault(label, heading)
            else:
                unlinked.setdefault(label, block.text[start:end])
    if not refs and not unlinked:
        return []
    warnings: list[str] = []
    for block in blocks:
        if block.kind in (BlockKind.REFERENCE, BlockKind.HEADING):
            continue
        block.cites = [_resolved(c, refs, headings, warnings, unlinked) for c in block.cites]
        for m in NUM_REFS.finditer(block.text):
            if any(c.start <= m.start() < c.end for c in block.cites):
                continue
            if m.start() and block.text[m.start() - 1].isalnum() and not set(numbers(m.group(1))) <= refs.keys():
                continue  # "arr[0]": a word's index, not a marker
            for number in numbers(m.group(1)):
                cite = refs.get(number)
                if cite is None:
                    where = block.text[max(0, m.start() - 60) : m.end()]
                    warnings.append(
                        no_url(number, unlinked[number]) if number in unlinked else missing_entry(number, where)
                    )
                    block.cites.append(Cite(m.start(), m.end(), "", m.group(0), CiteKind.MARKER))
                else:
                    how = f"reference [{number}] in “{headings[number]}”"
                    block.cites.append(Cite(m.start(), m.end(), cite.url, m.group(0), CiteKind.MARKER, cite.quote, how))
        block.cites.sort(key=lambda c: c.start)
    return list(dict.fromkeys(warnings))


def _entries(text: str, place: int, last: str | None = None) -> list[tuple[str, int, int]]:
    """Return (number, start, end) of the entries a block holds: one, or several numbered in sequence.

    A PDF often sets a whole reference list as one block ("1. A, url 2. B, url 3. …"): it is cut
    where the next number of the sequence starts. In a list that numbers its entries (``last``, the
    number before), text before a block's first number is the rest of entry ``last`` (its URL wrapped
    to the next page); a block not numbered in a list that is not is one entry, numbered by its place.
    """
    m = _REF_ENTRY.match(text)
    if m is None and last is None:
        return [(str(place), 0, len(text))]
    if m is None:
        cuts = [(str(last), 0)]
        at = 0
    else:
        cuts = [(m.group(1) or m.group(2), 0)]
        at = m.end()
    for n in _ENTRY_START.finditer(text, at):
        number = n.group(1) or n.group(2)
        if number == str(int(cuts[-1][0]) + 1):
            cuts.append((number, n.start()))
    return [(label, start, cuts[i + 1][1] if i + 1 < len(cuts) else len(text)) for i, (label, start) in enumerate(cuts)]


_ENTRY_START = re.compile(rf"(?<=\s)(?:\[(\d{{1,5}})\]|(\d{{1,5}})[.)]){_GAP}")


def _resolved(
    cite: Cite, refs: dict[str, Cite], headings: dict[str, str], warnings: list[str], unlinked: dict[str, str]
) -> Cite:
    """Return a superscript marker (one number) with its entry's URL, or as it is with a warning when none."""
    if cite.kind != CiteKind.MARKER or cite.url or not cite.how.startswith("superscript"):
        return cite
    number = cite.anchor
    link = refs.get(number)
    if link is None:
        warnings.append(no_url(number, unlinked[number]) if number in unlinked else missing_entry(number, cite.anchor))
        return cite
    how = f"superscript {cite.anchor}, reference [{number}] in “{headings.get(number, '')}”"
    return Cite(cite.start, cite.end, link.url, cite.anchor, CiteKind.MARKER, link.quote, how)
