"""The records of Verbatim's data flow, with the fixed sets of values they hold (from ``kinds``).

Brief(claims) -> Source(bytes) -> PageText -> QuoteMatch -> FigureCheck -> ClaimResult -> Report.
Records are frozen dataclasses; character spans and positions are kept out of equality
(``compare=False``) so that two records of the same thing compare equal wherever they sit, and
an unknown position is None, never -1. Records of more than a few fields, or of several fields
of one type, are built with keywords only (``kw_only=True``). Every enum of ``core.models.kinds`` is
re-exported by the package, so that ``from core.models import Verdict`` works. This module holds
no logic beyond small derived properties: it refuses to parse, fetch or match.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.models.kinds import (
    BriefFormat,
    DiffKind,
    FigureKind,
    FigurePlace,
    FigureStatus,
    FlagKind,
    LocationKind,
    Origin,
    PageKind,
    SourceStatus,
    Verdict,
)

#: A (start, end) character span, end exclusive.
Span = tuple[int, int]
#: A PDF line end decided one way that could be read the other: (start, end, reading, attested) says
#: that the text's characters [start, end) read ``reading`` then ("models" read "mod-els": (at, at,
#: "-", True)); ``attested`` is False for a join that nothing in the document shows to be one word.
LineEnd = tuple[int, int, str, bool]


# --------------------------------------------------------------------------- briefs


@dataclass(frozen=True, kw_only=True)
class Location:
    """Where a claim stands in its brief.

    ``index`` is the 0-based paragraph or row number, or the 1-based PDF page.
    ``start``/``end`` are character offsets of the claim inside that paragraph/page text (or
    inside the whole brief text for Markdown, where ``index`` is the 0-based paragraph number).
    """

    kind: LocationKind
    index: int | None  # None when unknown (a DOCX paragraph inside a content control)
    start: int = field(default=0, compare=False)
    end: int = field(default=0, compare=False)
    # Where inside a table or note: DOCX table cell (table, row, cell, paragraph in cell); empty otherwise.
    path: tuple[int, ...] = field(default=(), compare=False)


@dataclass(frozen=True, kw_only=True)
class Claim:
    """One claim of a brief: what it says, the URL it cites and the quote it offers.

    ``text`` is the claim as the editor reads it (link markup removed). ``figure_text`` is
    the claim's own words, from which figures are read: no citation link text, no footnote
    marker, no reference title, no inline quote (DESIGN.md, "Figures rules"). ``quote`` is
    None when the claim offers no quote.
    """

    id: str
    text: str
    url: str
    quote: str | None = None
    figure_text: str = ""
    anchor: str = ""
    location: Location | None = field(default=None, compare=False)
    # How the citation was read: "inline link", 'reference [3] in "Works cited"', "superscript 2", ...
    citation: str = field(default="", compare=False)
    # Who made the quote a passage the machine offered (the editor who adopted it); empty when the brief gave it.
    adopted_by: str = ""


@dataclass(frozen=True, kw_only=True)
class UnusedLink:
    """A link or reference entry of a brief that no claim cites: where it stands and why it is unused."""

    url: str
    text: str  # the link's text or the reference entry as written (untrusted)
    reason: str  # a sentence: "a reference never cited", "a link in a heading", ...
    location: Location | None = field(default=None, compare=False)


@dataclass(frozen=True, kw_only=True)
class Brief:
    """A parsed brief: its claims in brief order, the sentences that cite nothing, and notes."""

    name: str
    format: BriefFormat
    claims: tuple[Claim, ...]
    uncited: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    raw: bytes = field(default=b"", repr=False, compare=False)  # the file as uploaded (DOCX export)
    unused_links: tuple[UnusedLink, ...] = ()  # every link no claim cites, so nothing is dropped unseen


# --------------------------------------------------------------------------- sources


@dataclass(frozen=True, kw_only=True)
class Source:
    """A fetched source: the exact bytes kept as evidence, or the reason there are none.

    ``drift`` is True when a fresh fetch's text differs from the stored copy's.
    """

    url: str
    status: SourceStatus
    reason: str = ""
    final_url: str = ""
    http_status: int | None = None
    content_type: str = ""
    headers: tuple[tuple[str, str], ...] = field(default=(), compare=False, repr=False)
    body: bytes = field(default=b"", compare=False, repr=False)
    sha256: str = ""
    fetched_at: str = ""  # ISO 8601, UTC
    origin: Origin = Origin.FETCHED
    drift: bool = False
    #: (host, address) of every connection the fetch made, redirects included; None when not recorded
    #: (a copy older than the record, or one no fetch made): a stored copy is served only where they are allowed.
    addresses: tuple[tuple[str, str], ...] | None = field(default=None, compare=False, repr=False)
    #: What its page text says of the charset when the declared one was wrong (PageText.charset_note), else "".
    charset_note: str = ""


# --------------------------------------------------------------------------- page text


@dataclass(frozen=True, kw_only=True)
class PageText:
    """The visible text of a source, with the structure the matcher needs.

    ``text`` is the whole visible text (never a window of it); blocks are separated by a
    newline. ``blocks`` are the (start, end) spans of blocks (paragraph, heading, list item,
    table cell, PDF block): a quote may cross from one block to the next only where it has
    a sentence break of its own. ``footnotes`` are spans of reference markers the matcher
    skips ("[12]", "[citation needed]"). ``main`` are spans judged main content (readability)
    as opposed to navigation, sidebars or footers; empty means "all main". ``pages`` are
    (page number, start, end) for PDFs, empty otherwise. ``hidden`` are spans of text the page
    hides until a reader opens it (tabs, accordions, "read more"); ``ocr_pages`` the numbers of
    PDF pages whose text was read by OCR from their image. ``line_ends`` are word boundaries
    that could be read the other way, sorted, for the matcher's alternative reading: a PDF's
    line-end decisions (a hyphen dropped or kept, a word joined or left in two), and an HTML
    page's words that its markup splits (a space inserted, core.extract.joints).
    """

    text: str
    kind: PageKind
    blocks: tuple[Span, ...] = field(default=(), compare=False, repr=False)
    footnotes: tuple[Span, ...] = field(default=(), compare=False, repr=False)
    main: tuple[Span, ...] = field(default=(), compare=False, repr=False)
    pages: tuple[tuple[int, int, int], ...] = field(default=(), compare=False, repr=False)
    hidden: tuple[Span, ...] = field(default=(), compare=False, repr=False)
    ocr_pages: tuple[int, ...] = field(default=(), compare=False, repr=False)
    line_ends: tuple[LineEnd, ...] = field(default=(), compare=False, repr=False)
    title: str = ""
    warnings: tuple[str, ...] = ()
    # Set when the declared charset was wrong and another read the bytes: "The server said UTF-8; ...".
    charset_note: str = ""


@dataclass(frozen=True)
class Unreadable:
    """A source whose bytes arrived but hold no text to match, and why (gives not_checked)."""

    reason: str


# --------------------------------------------------------------------------- matching


@dataclass(frozen=True, kw_only=True)
class Fragment:
    """One ellipsis-separated part of a quote and where it was found: ``span`` is None when not found."""

    text: str
    found: bool
    span: Span | None = field(default=None, compare=False)
    page: int | None = field(default=None, compare=False)
    in_main: bool | None = field(default=None, compare=False)
    hidden: bool = False  # found in a part of the page hidden until opened


@dataclass(frozen=True, kw_only=True)
class Flag:
    """A context finding about a match.

    ``blocking`` flags give needs_review; the others are information. ``page_words`` are the
    page's own words that the flag is about, ``span`` where the words it names stand on the
    page (None when it names none). ``claim_words`` are the claim's own words the flag is about, for
    the flags that compare the claim with its evidence (``negation_differs``, ``hedge_dropped``,
    ``condition_dropped``); empty for the others.
    """

    kind: FlagKind
    message: str
    blocking: bool
    page_words: str = ""
    span: Span | None = field(default=None, compare=False)
    claim_words: str = ""


@dataclass(frozen=True, kw_only=True)
class Occurrence:
    """One place where a one-fragment quote stands on the page, with the context flags of that place.

    ``hidden`` is True when the place lies in a part of the page hidden until opened.
    """

    span: Span = field(compare=False)
    flags: tuple[Flag, ...] = ()
    hidden: bool = False
    in_main: bool | None = field(default=None, compare=False)
    page: int | None = field(default=None, compare=False)
    # The page's text around this place, for the desk to step through (the first few places only).
    context: Context | None = field(default=None, compare=False)

    @property
    def blocking(self) -> bool:
        """Return True when a context flag of this place stops the claim from being verified."""
        return any(f.blocking for f in self.flags)


@dataclass(frozen=True)
class QuoteMatch:
    """The exact matcher's answer for one quote on one page.

    ``occurrences`` are the places a one-fragment quote stands, each with its own context
    flags, in the order the desk shows them (a flagged place first, then shown before hidden
    text, then page order); the first is the place its fragment reports. ``occurrence_count``
    is how many places the page holds (at least ``len(occurrences)``: past the matcher's
    limit, places are counted but not checked). Both are empty for a quote of several
    fragments or one not found.
    """

    quote: str
    fragments: tuple[Fragment, ...]
    flags: tuple[Flag, ...] = ()
    too_short: bool = False
    occurrences: tuple[Occurrence, ...] = ()
    occurrence_count: int = 0

    @property
    def found(self) -> bool:
        """Return True when every fragment was found (and there is at least one)."""
        return bool(self.fragments) and all(f.found for f in self.fragments)

    @property
    def blocking(self) -> tuple[Flag, ...]:
        """Return the flags that stop the claim from being verified."""
        return tuple(f for f in self.flags if f.blocking)


# --------------------------------------------------------------------------- figures


@dataclass(frozen=True, kw_only=True)
class Figure:
    """One figure of a claim and what the figures check made of it.

    ``quote_text`` is the quote's own figure when matched. ``reason`` says why a figure was
    skipped or missing. ``kind`` is None when unknown (a report from another writer).
    ``span`` is the figure's place in Claim.figure_text (the text figures are read from; the
    reports carry it over to Claim.text), None when unknown. ``elsewhere`` lists spans in the
    page text where a missing figure does appear (diagnosis only).

    For a claim without a quote, the figure is looked for in the passage offered first, then on the
    whole page: ``where`` says which held it (None when it was not looked for: a claim with a
    quote, or a skipped figure), ``around`` is the page's sentence at its first place elsewhere,
    and ``instead`` what the passage closest to the claim holds in its place when it stands
    nowhere ("an estimated 5%"), empty when it holds no figure of the kind.
    """

    text: str
    status: FigureStatus
    quote_text: str = ""
    reason: str = ""
    kind: FigureKind | None = None
    span: Span | None = field(default=None, compare=False)
    elsewhere: tuple[Span, ...] = field(default=(), compare=False)
    where: FigurePlace | None = None
    around: str = ""
    instead: str = ""


@dataclass(frozen=True)
class FigureCheck:
    """Every figure of a claim, checked against its quote."""

    figures: tuple[Figure, ...] = ()

    @property
    def missing(self) -> tuple[Figure, ...]:
        """Return the figures of the claim that the quote does not hold."""
        return tuple(f for f in self.figures if f.status is FigureStatus.MISSING)

    @property
    def skipped(self) -> tuple[Figure, ...]:
        """Return the figures that were not checked, each with its reason."""
        return tuple(f for f in self.figures if f.status is FigureStatus.SKIPPED)

    @property
    def nowhere(self) -> tuple[Figure, ...]:
        """Return the figures of a claim without a quote that stand nowhere on its cited page."""
        return tuple(f for f in self.figures if f.where is FigurePlace.NOWHERE)


# --------------------------------------------------------------------------- diagnosis


@dataclass(frozen=True, kw_only=True)
class DiffOp:
    """One named difference between a quote and the page's closest passage."""

    kind: DiffKind
    quote_words: str = ""
    page_words: str = ""


@dataclass(frozen=True)
class Terms:
    """Some of a claim's telling words, names and figures, each as the claim writes it."""

    words: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    figures: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.words or self.names or self.figures)


@dataclass(frozen=True, kw_only=True)
class Candidate:
    """A passage of the page: closest to a failed quote, or offered for a claim without one.

    For a claim without a quote, ``holds`` and ``lacks`` are the claim's words, names and figures
    the passage holds and lacks, ``highlights`` where the held ones stand in the page text, and
    ``signs`` where the claim parts from the passage (a negation on one side only, a hedge or
    condition the claim drops): information beside an offer, never a verdict.
    """

    text: str
    start: int = field(compare=False)
    end: int = field(compare=False)
    score: float = field(default=0.0, compare=False)
    page: int | None = field(default=None, compare=False)
    holds: Terms = field(default=Terms(), compare=False)
    lacks: Terms = field(default=Terms(), compare=False)
    highlights: tuple[Span, ...] = field(default=(), compare=False)
    signs: tuple[Flag, ...] = field(default=(), compare=False)


@dataclass(frozen=True, kw_only=True)
class NearMiss:
    """Diagnosis of a failure. It explains; it never changes a verdict (DESIGN.md, principle 1)."""

    summary: str
    passage: Candidate | None = None
    diff: tuple[DiffOp, ...] = ()
    found_in_source: str | None = None  # URL of another source of the brief holding the quote verbatim
    candidates: tuple[Candidate, ...] = ()  # for no_quote: passages the editor may adopt


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, kw_only=True)
class Context:
    """The page's text around a match, with highlight spans relative to ``text``."""

    text: str
    offset: int  # where ``text`` starts in PageText.text
    highlights: tuple[Span, ...] = ()
    page: int | None = None


@dataclass(frozen=True, kw_only=True)
class ClaimResult:
    """A claim, its source and everything the checks found, with the verdict and its reasons."""

    claim: Claim
    verdict: Verdict
    reasons: tuple[str, ...]
    source: Source
    match: QuoteMatch | None = None
    figures: FigureCheck = FigureCheck()
    near_miss: NearMiss | None = None
    context: Context | None = field(default=None, compare=False)
