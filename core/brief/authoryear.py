"""Author–year citations (``(Smith et al., 2023)``, ``(StockAnalysis.com, 2022)``, ``[Joh15b]``), resolved.

A label is a citation only on the reference list's evidence, and only in a brief that cites its list
no other way (no numbered marker or note anywhere): an entry of the brief's reference list (a block
the reader marked as a reference) that starts with the label's whole author name (every word of it,
in order, before the year: "WP Desk" is not "WP Rocket") and holds its year, or that starts with the
bracketed key (``[Joh15b] Johnson, …``). The entry's URL is its first link, else its DOI (as its
https://doi.org/ URL). A label whose entry carries neither gives one note naming it, never a silent
drop; a part that is a link of its own (``([Acme Labs, 2025](u1); …)``) keeps its link, and each part
of several has its own span. This module only links labels to entries: it refuses to guess an entry
from anything but its author name and year.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from core.brief.blocks import Block, BlockKind, Cite, CiteKind
from core.brief.urls import doi_url

_YEAR = r"(?:1[6-9]|20)\d\d[a-z]?"
# "(Smith et al., 2023; Jones & Lee, 2021)": the parenthesis holds name-year parts only.
_PAREN = re.compile(rf"\((?P<body>[^()]{{2,200}}?\b{_YEAR})\)")
_PART = re.compile(
    rf"^\s*(?P<name>[A-Z][\w.&'’-]*(?:\s+(?:&|and|[A-Z][\w.'’-]*)){{0,4}})(?:\s+et\s+al\.?)?,?\s+(?P<year>{_YEAR})\s*$"
)
_KEY = re.compile(r"\[(?P<key>[A-Z][A-Za-z]{1,3}\+?\d{2}[a-z]?)\]")
_LEAD = re.compile(r"^\s*(?:\[\d+\]|\d+[.)]|[-*•])\s*")
_READ = (BlockKind.PARAGRAPH, BlockKind.LIST, BlockKind.TABLE, BlockKind.BLOCKQUOTE)
_MOST_NOTES = 10


def entry_url(block: Block) -> str:
    """Return a reference entry's URL: its first link, else its DOI as an https://doi.org/ URL, else ""."""
    link = next((c.url for c in block.cites if c.url), "")
    if link:
        return link
    return doi_url(block.text)


def _first_name(text: str) -> str:
    words = _LEAD.sub("", text).split()
    return words[0].strip(".,;:()").casefold() if words else ""


def _parts(body: str) -> Iterator[tuple[int, int, str, list[str], str]]:
    """Yield (start, end in body, part as written, name's words, year) of each name-year part; nothing when
    a part is not one."""
    found = []
    at = 0
    for piece in body.split(";"):
        m = _PART.match(piece)
        if m is None:
            return
        lead = len(piece) - len(piece.lstrip())
        words = [w.strip(".,").casefold() for w in m.group("name").split() if w not in ("&", "and")]
        found.append((at + lead, at + len(piece.rstrip()), piece.strip(), words, m.group("year")))
        at += len(piece) + 1
    yield from found


def _names(entry: Block, words: list[str], year: str) -> bool:
    """Return True when a reference entry starts with the label's whole author name and holds its year.

    "WP Desk, 2024" is not the entry "WP Rocket. (2024)…": every word of the name, in order, before the year.
    """
    text = _LEAD.sub("", entry.text)
    at = text.find(year)
    if at < 0 or _first_name(entry.text) != words[0]:
        return False
    head = [w.strip(".,;:()").casefold() for w in text[:at].split()]
    pos = 0
    for word in words:
        if word not in head[pos:]:
            return False
        pos = head.index(word, pos) + 1
    return True


def link_author_year(blocks: list[Block]) -> list[str]:
    """Add a citation for each author–year label whose reference entry is known; return the notes."""
    entries = [b for b in blocks if b.kind == BlockKind.REFERENCE]
    if not entries or any(c.kind == CiteKind.MARKER for b in blocks if b.kind in _READ for c in b.cites):
        return []  # a brief citing its list by number: "GraphRAG (Microsoft, 2024) [19]" names, it cites [19]
    by_key = {m.group("key"): b for b in entries if (m := _KEY.match(_LEAD.sub("", b.text)))}
    unresolved: list[str] = []
    for block in blocks:
        if block.kind not in _READ:
            continue
        found: list[Cite | None] = []
        for m in _PAREN.finditer(block.text):
            parts = list(_parts(m.group("body")))
            for start, end, part, words, year in parts:
                if any(c.start < m.start("body") + end and m.start("body") + start < c.end for c in block.cites):
                    continue  # "[Acme Labs, 2025](u1)": the part is a link of its own, which it keeps
                entry = next((b for b in entries if _names(b, words, year)), None)
                # One part: the whole parenthesis is the citation; several: each its own span.
                span = (m.start(), m.end()) if len(parts) == 1 else (m.start("body") + start, m.start("body") + end)
                found.append(_cite(span[0], span[1], part, entry, unresolved))
        for m in _KEY.finditer(block.text):
            if m.group("key") in by_key:
                found.append(_cite(m.start(), m.end(), m.group("key"), by_key[m.group("key")], unresolved))
        added = [c for c in found if c is not None and not any(o.start <= c.start < o.end for o in block.cites)]
        if added:
            block.cites = sorted([*block.cites, *added], key=lambda c: c.start)
    return _notes(unresolved)


def _cite(start: int, end: int, label: str, entry: Block | None, unresolved: list[str]) -> Cite | None:
    if entry is None:
        return None  # no entry by that name and year: a parenthesis of words, not a citation
    url = entry_url(entry)
    if not url:
        unresolved.append(label)
        return None
    return Cite(start, end, url, label, CiteKind.MARKER, how=f"author–year ({label}), reference list entry")


def _notes(unresolved: list[str]) -> list[str]:
    labels = list(dict.fromkeys(unresolved))
    if not labels:
        return []
    shown = "; ".join(labels[:_MOST_NOTES]) + (
        f"; and {len(labels) - _MOST_NOTES} more" if len(labels) > _MOST_NOTES else ""
    )
    return [
        f"Cited by author and year ({shown}), but the reference list's entries carry no URL or DOI, so those "
        "claims have no source. Add each entry's URL or DOI."
    ]
