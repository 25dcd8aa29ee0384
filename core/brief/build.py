"""Turn a brief's blocks (paragraphs with their citations) into claims: shared by every reader.

Markdown, DOCX and PDF readers each produce ``Block`` records (``core.brief.blocks``). This
module cuts blocks into sentences (``core.text.split_sentences``) and applies DESIGN.md's
conventions, reading each sentence's citations and quotes with ``core.brief.citations``:

- a claim is a sentence (or list item) that carries a citation; one claim per distinct URL;
- its quote: text in quotation marks inside the sentence (at least
  ``Settings.min_inline_quote_words`` words: a single word in quotation marks is scare
  quotes, part of the claim), a blockquote or a "Quote:"/"Evidence:" line right after it,
  or the title of the reference definition it cites;
- a sentence that is only a citation ("See [1].", "Source: https://..."), a "Source:"
  line, or a table cell holding only a link, after an uncited sentence, give that
  sentence its citation; a sentence that is only a quotation, after a cited sentence,
  is its quote;
- sentences without a citation are kept in ``Brief.uncited``, never dropped.

This module refuses to read files: it only sees blocks the readers give it.
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from dataclasses import dataclass

from core.brief.blocks import Block, BlockKind, Cite, CiteKind
from core.brief.citations import (
    FILLER_WORDS,
    QUOTE_LABEL,
    SOURCE_LABEL,
    WHOLE_QUOTE,
    cut_spans,
    inline_quotes,
    is_citation_style,
    strip_quote_text,
    tidy,
    with_brackets,
)
from core.brief.glued import cut_after_numbers
from core.brief.unused import Elsewhere, same_source, unused_links
from core.models import Brief, BriefFormat, Claim, Location, LocationKind
from core.settings import Settings
from core.text import split_sentences


@dataclass
class _Draft:
    text: str
    url: str
    anchor: str
    quote: str | None
    figure_text: str
    location: Location
    key: int  # which sentence it came from: quotes after a sentence go to all its claims
    how: str = ""  # how its citation was read (Claim.citation)


@dataclass
class _Sentence:
    block: Block
    start: int
    end: int
    key: int


def _location(block: Block, start: int, end: int) -> Location:
    if block.offsets is not None and block.offsets:
        s = block.offsets[min(start, len(block.offsets) - 1)]
        e = block.offsets[max(min(end, len(block.offsets)) - 1, 0)] + 1
    else:
        s, e = block.base + start, block.base + end
    return Location(kind=LocationKind(block.loc_kind), index=block.loc_index, start=s, end=e, path=block.path)


class _Builder:
    """Walks the sentences in brief order, keeping the last one so that what follows can attach to it."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.drafts: list[_Draft] = []
        self.by_key: dict[int, list[_Draft]] = {}  # drafts of each sentence
        self.uncited: dict[int, str] = {}  # key -> text, in brief order (a dict: a sentence leaves it in O(1))
        self.warnings: list[str] = []
        self.last: _Sentence | None = None  # the last sentence a quote or source may still attach to
        self.last_cited = False
        self.pending_quote: str | None = None  # a quote after an uncited sentence, waiting for its source
        self.row_cites: list[Cite] = []  # a row's first cell, only a citation: it cites the row's next cell
        self.key = 0

    # -- sentences
    def sentence(self, block: Block, start: int, end: int, cites: list[Cite]) -> None:
        text = block.text
        active = [c for c in cites if c.url]
        citation = [c for c in cites if is_citation_style(text, c)]
        if active and self.last is not None:
            removed = [(c.start, c.end) for c in citation]
            if label := SOURCE_LABEL.match(text[start:end]):
                removed.append((start, start + label.end()))
            words = re.findall(r"\w+", cut_spans(text, start, end, removed))
            if label:
                # "Sources: Agency A, Journal B ([Agency A](u1), [Journal B](u2))": the names are its links' own.
                named = {w.lower() for c in active for w in re.findall(r"\w+", c.anchor)}
                words = re.findall(r"\w+", cut_spans(text, start, end, removed + _spans(active)))
                words = [w for w in words if w.lower() not in named]
            if not [w for w in words if w.lower() not in FILLER_WORDS]:
                # "See [1]." or "Source: https://..." after a sentence: the citation is that sentence's.
                self.attach_sources(active)
                return
        if not active and _label_only(text[start:end]):
            return  # "… deployments. Sources:" with the URLs on the lines below: a label, no sentence
        self.drop_pending()
        self.key += 1
        if self.row_cites and block.kind == BlockKind.TABLE:
            row, self.row_cites = self.row_cites, []
            self._claims(_Sentence(block, start, end, self.key), cites, extra=row)
            return
        if not active:
            # A note number whose entry has no URL ("tables¹." citing an uploaded file) is no word of the sentence.
            bare = [(c.start, c.end) for c in cites if c.kind == CiteKind.MARKER and c.anchor.isdigit()]
            self.uncited[self.key] = tidy(cut_spans(text, start, end, bare) if bare else text[start:end])
            self.last, self.last_cited = _Sentence(block, start, end, self.key), False
            return
        self._claims(_Sentence(block, start, end, self.key), cites)

    def attach_sources(self, cites: list[Cite]) -> None:
        prev = self.last
        if prev is None:
            return
        if self.last_cited:
            known = {d.url for d in self.by_key.get(prev.key, [])}
            extra = [c for c in cites if c.url not in known]
            if extra:
                self._claims(prev, [], extra=extra)
            return
        quote = self.pending_quote
        self.pending_quote = None
        self.uncited.pop(prev.key, None)
        self._claims(prev, [], extra=[_with_quote(c, quote) for c in cites])

    def _claims(self, sent: _Sentence, cites: list[Cite], extra: list[Cite] | None = None) -> None:
        block, start, end = sent.block, sent.start, sent.end
        text = block.text
        in_sentence = cites
        citation = [c for c in in_sentence if is_citation_style(text, c)]
        quotes = inline_quotes(text, start, end, in_sentence, self.settings.min_inline_quote_words)
        removed = [(c.start, c.end) for c in citation] + [(q[0], q[1]) for q in quotes]
        if label := SOURCE_LABEL.match(text[start:end]):
            removed.append((start, start + label.end()))
        figure_text = tidy(cut_spans(text, start, end, removed))
        claim_text = tidy(text[start:end])
        # A bare note number (glued or superscript) is a citation, not the claim's words.
        bare = [(c.start, c.end) for c in in_sentence if c.kind == CiteKind.MARKER and c.anchor.isdigit()]
        shown = tidy(cut_spans(text, start, end, bare)) if bare else claim_text
        linked = [c for c in in_sentence if c.url] + (extra or [])
        owners = _quote_owners(quotes, linked)
        seen = {same_source(d.url) for d in self.by_key.get(sent.key, [])}
        for cite in linked:
            if same_source(cite.url) in seen:
                continue
            seen.add(same_source(cite.url))
            own = [q[2] for q, owner in zip(quotes, owners, strict=True) if owner is cite]
            quote = cite.quote if cite.quote else (" … ".join(own) if own else None)
            draft = _Draft(
                shown, cite.url, cite.anchor, quote, figure_text, _location(block, start, end), sent.key, _how(cite)
            )
            self.drafts.append(draft)
            self.by_key.setdefault(sent.key, []).append(draft)
        self.last, self.last_cited = sent, True

    # -- quotes and sources after a claim
    def quote_after(self, block: Block, quote: str) -> None:
        if not quote:
            return
        cites = [c for c in block.cites if c.url]
        if self.last is not None and self.last_cited:
            for d in self.by_key.get(self.last.key, []):
                if d.quote is None:
                    d.quote = quote
                elif d.quote != quote:
                    self.warnings.append(
                        f"The claim “{_short(d.text)}” has two quotes; the first is kept "
                        f"and “{_short(quote)}” is ignored. Keep one quote per claim."
                    )
            return
        if self.last is not None:
            self.pending_quote = quote
            if cites:
                self.attach_sources(cites)
            return
        self.warnings.append(
            f"The quote “{_short(quote)}” follows no claim, so it was not used. "
            "Put the quote right after the sentence that cites its source."
        )

    def source_after(self, block: Block) -> None:
        cites = [dataclasses.replace(c, how=f"source line ({_how(c)})") for c in block.cites if c.url]
        if cites and self.last is not None:
            self.attach_sources(cites)
        elif cites and block.kind == BlockKind.TABLE:
            self.row_cites = cites  # "| [2] | Tool Y trails |": the citation of the row's next cell
        elif cites:
            self.sentence(block, 0, len(block.text), block.cites)

    def drop_pending(self) -> None:
        if self.pending_quote is not None:
            self.warnings.append(
                f"The quote “{_short(self.pending_quote)}” follows a sentence that cites no source, so it "
                "was not used. Add the source's link to that sentence."
            )
            self.pending_quote = None

    def reset(self) -> None:
        self.drop_pending()
        self.last, self.last_cited = None, False
        self.row_cites = []


def _spans(cites: list[Cite]) -> list[tuple[int, int]]:
    return [(c.start, c.end) for c in cites]


def _label_only(sentence: str) -> bool:
    """Return True for a sentence that is only a citation label ending in a colon ("Sources:", "See also:")."""
    words = re.findall(r"\w+", sentence)
    return sentence.rstrip(" *_").endswith(":") and bool(words) and all(w.lower() in FILLER_WORDS for w in words)


def _with_quote(cite: Cite, quote: str | None) -> Cite:
    if quote is None or cite.quote:
        return cite
    return dataclasses.replace(cite, quote=quote)


_HOW = {CiteKind.LINK: "inline link", CiteKind.URL: "bare URL", CiteKind.MARKER: "marker"}


def _how(cite: Cite) -> str:
    return cite.how or _HOW[cite.kind]


def _quote_owners(quotes: list[tuple[int, int, str]], cites: list[Cite]) -> list[Cite | None]:
    """Give each quoted passage to the first citation after it, else the last citation."""
    owners: list[Cite | None] = []
    ordered = sorted(cites, key=lambda c: c.start)
    for qs, _qe, _ in quotes:
        after = [c for c in ordered if c.start >= qs]
        owners.append(after[0] if after else (ordered[-1] if ordered else None))
    if len({c.url for c in cites}) == 1 and ordered:
        owners = [ordered[0]] * len(quotes)
    return owners


def _short(text: str, n: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def build_brief(
    name: str,
    fmt: str,
    blocks: list[Block],
    settings: Settings,
    *,
    warnings: list[str] | None = None,
    raw: bytes = b"",
    elsewhere: list[Elsewhere] | None = None,
) -> Brief:
    """Return the Brief the blocks hold: claims in order, uncited sentences, warnings, links no claim cites."""
    b = _Builder(settings)
    row: tuple[int, ...] | None = None
    for block in blocks:
        if (here := _row(block)) != row:
            row = here
            if here is not None:
                b.reset()  # a table row starts: its notes never attach to another row's cells
        if block.kind in (BlockKind.HEADING, BlockKind.CODE, BlockKind.REFERENCE):
            b.reset()
            continue
        if block.kind in (BlockKind.BLOCKQUOTE, BlockKind.QUOTE_LINE):
            if block.kind == BlockKind.BLOCKQUOTE and b.last is None:
                _sentences(b, block)  # a blockquote that follows no claim is read as text
                continue
            b.quote_after(block, strip_quote_text(cut_spans(block.text, 0, len(block.text), _citation_spans(block))))
            continue
        if block.kind == BlockKind.SOURCE_LINE or (
            block.kind == BlockKind.TABLE
            and block.cites
            and not re.search(r"\w", cut_spans(block.text, 0, len(block.text), [(c.start, c.end) for c in block.cites]))
        ):
            # A "Source:" line, or a table cell holding only a link: the source of the sentence before.
            b.source_after(block)
            continue
        _sentences(b, block)
    brief = finish(name, fmt, b, settings, warnings or [], raw)
    return dataclasses.replace(brief, unused_links=unused_links(blocks, brief.claims, elsewhere or [], _location))


def _row(block: Block) -> tuple[int, ...] | None:
    """Return which table row a block is a cell of (a Markdown line, a DOCX table and row), None outside tables."""
    if block.row is not None:
        return (block.row,)
    if block.loc_kind == LocationKind.TABLE and len(block.path) >= 2:
        return block.path[:2]
    return None


def _citation_spans(block: Block) -> list[tuple[int, int]]:
    return [(c.start, c.end) for c in block.cites if is_citation_style(block.text, c)]


def _sentences(b: _Builder, block: Block) -> None:
    text = block.text
    protected = [(c.start, c.end) for c in block.cites]
    attached = [with_brackets(text, c.start, c.end) for c in block.cites if is_citation_style(text, c)]
    spans = cut_after_numbers(text, split_sentences(text, protected, attached), block.cites)
    block.cites.sort(key=lambda c: c.start)
    cite_starts = [c.start for c in block.cites]
    for n, (start, end) in enumerate(spans):
        # A citation in the gap after a sentence (a footnote mark after its full stop) is that sentence's.
        limit = spans[n + 1][0] if n + 1 < len(spans) else len(text) + 1
        m = QUOTE_LABEL.match(text[start:end])
        if m and b.last is not None:
            # "Quote: ..." inside a paragraph: the rest of the paragraph is the quote.
            rest = text[start:]
            cites = [dataclasses.replace(c, start=c.start - start, end=c.end - start) for c in block.cites]
            sub = Block(BlockKind.QUOTE_LINE, rest, [c for c in cites if c.start >= 0], block.loc_kind, block.loc_index)
            spans = [(c.start, c.end) for c in sub.cites if is_citation_style(rest, c)]
            b.quote_after(sub, strip_quote_text(cut_spans(rest, 0, len(rest), spans)))
            return
        lo = 0 if n == 0 else bisect.bisect_left(cite_starts, start)
        cites = block.cites[lo : bisect.bisect_left(cite_starts, limit)]
        whole = WHOLE_QUOTE.match(text[start:end])
        if whole and b.last is not None and b.last_cited and not [c for c in cites if c.url]:
            # A sentence that is only a quotation, right after a cited claim, is that claim's quote.
            b.quote_after(block, next(g for g in whole.groups() if g is not None).strip())
            continue
        b.sentence(block, start, end, cites)


def finish(name: str, fmt: str, b: _Builder, settings: Settings, warnings: list[str], raw: bytes) -> Brief:
    """Return the Brief from a builder's drafts, cut to settings.max_claims with a warning."""
    b.drop_pending()
    drafts = b.drafts
    all_warnings = [*warnings, *b.warnings]
    if len(drafts) > settings.max_claims:
        all_warnings.append(
            f"{name} has {len(drafts)} claims; only the first {settings.max_claims} are checked and "
            f"{len(drafts) - settings.max_claims} are left out. Split the brief to check the rest."
        )
        drafts = drafts[: settings.max_claims]
    claims = tuple(
        Claim(
            id=f"c{i}",
            text=d.text,
            url=d.url,
            quote=d.quote if d.quote else None,
            figure_text=d.figure_text,
            anchor=d.anchor,
            location=d.location,
            citation=d.how,
        )
        for i, d in enumerate(drafts, 1)
    )
    if not claims:
        all_warnings.append(
            f"{name} has no claim with a citation: no sentence links to a source. "
            "Add links (or a references section) to the sentences to be checked."
        )
    return Brief(
        name=name,
        format=BriefFormat(fmt),
        claims=claims,
        uncited=tuple(t for t in b.uncited.values() if t),
        warnings=tuple(all_warnings),
        raw=raw,
    )
