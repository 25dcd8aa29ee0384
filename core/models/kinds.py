"""The fixed sets of values that Verbatim's records hold, each a StrEnum, and the one Verdict enum.

Members are StrEnums so that a record written as JSON, stored or printed holds the same plain
strings as before, and a member compares equal to its string. The records themselves live in
``core.models``, which re-exports every name here. This module holds values, no logic.
"""

from __future__ import annotations

import enum


class Verdict(enum.StrEnum):
    """A claim's verdict. Members are listed in precedence order, the first that holds winning, with one exception.

    For a claim without a quote, a figure that stands nowhere on its page makes it FIGURES_MISMATCH
    before NO_QUOTE (``core.check.claims.decide``); the order here is the one reports list verdicts in.
    """

    BLOCKED = "blocked"
    DEAD_LINK = "dead_link"
    NOT_CHECKED = "not_checked"
    NO_QUOTE = "no_quote"
    QUOTE_NOT_FOUND = "quote_not_found"
    FIGURES_MISMATCH = "figures_mismatch"
    NEEDS_REVIEW = "needs_review"
    VERIFIED = "verified"

    @property
    def label(self) -> str:
        """Return the verdict as words an editor reads."""
        return _LABELS[self]


_LABELS = {
    Verdict.BLOCKED: "Blocked",
    Verdict.DEAD_LINK: "Dead link",
    Verdict.NOT_CHECKED: "Not checked",
    Verdict.NO_QUOTE: "No quote",
    Verdict.QUOTE_NOT_FOUND: "Quote not found",
    Verdict.FIGURES_MISMATCH: "Figures mismatch",
    Verdict.NEEDS_REVIEW: "Needs review",
    Verdict.VERIFIED: "Verified",
}

#: Verdicts that ``--strict`` turns into exit status 1.
STRICT_FAILURES = frozenset({Verdict.QUOTE_NOT_FOUND, Verdict.FIGURES_MISMATCH, Verdict.DEAD_LINK})
#: The verdicts the gate lets through although the claim's words were not checked against the page (no quote):
#: every gate says how many, so that no one reads them as checked.
GATE_UNCHECKED = frozenset({Verdict.NO_QUOTE})


class BriefFormat(enum.StrEnum):
    """The format a brief was read as."""

    MARKDOWN = "markdown"
    TEXT = "text"
    DOCX = "docx"
    PDF = "pdf"
    JSON = "json"
    CSV = "csv"


class LocationKind(enum.StrEnum):
    """What part of its brief a claim stands in."""

    PARAGRAPH = "paragraph"  # Markdown, text, DOCX body
    TABLE = "table"  # DOCX table cell
    FOOTNOTE = "footnote"  # DOCX footnote
    ENDNOTE = "endnote"  # DOCX endnote
    PAGE = "page"  # PDF
    ROW = "row"  # JSON/CSV claims files


class SourceStatus(enum.StrEnum):
    """What fetching a source gave. Anything but OK decides the verdict of its claims."""

    OK = "ok"
    BLOCKED = "blocked"
    DEAD_LINK = "dead_link"
    NOT_CHECKED = "not_checked"


class Origin(enum.StrEnum):
    """Where a source's bytes came from."""

    FETCHED = "fetched"  # the network, in this run
    CACHE = "cache"  # the evidence store, fetched by an earlier run
    EDITOR = "editor"  # uploaded or pasted by the editor
    SAMPLE = "sample"  # the bundled copy of a sample source


class PageKind(enum.StrEnum):
    """What a page's text was extracted from."""

    HTML = "html"
    PDF = "pdf"
    DOCX = "docx"
    TEXT = "text"


class FlagKind(enum.StrEnum):
    """What a context flag is about."""

    NEGATION_CUT = "negation_cut"  # a negation right before or after the span, left out
    CONDITION_CUT = "condition_cut"  # a condition right after the span ("unless"), left out
    HEDGE_CUT = "hedge_cut"  # a hedge dropped from the start ("an estimated")
    TOO_SHORT = "too_short"  # too few words to mean anything alone
    ORDER_DIFFERS = "order_differs"  # the fragments stand on the page in another order
    OUTSIDE_MAIN = "outside_main"  # found in navigation, a sidebar or a footer
    HIDDEN = "hidden"  # found only in a part of the page hidden until opened (information)
    TOO_MANY_PLACES = "too_many_places"  # stands in more places than the matcher checks
    OCR = "ocr"  # found in text read by OCR from a scanned page's image
    LINE_END_JOIN = "line_end_join"  # found reading two parts at a PDF line end as one word, unattested
    SPLICE = "splice"  # an ellipsis that cuts nothing joins two sentences the page ends apart ("…hardware…) The")
    # The claim against its evidence (its quote, an adopted passage or the passage offered first):
    NEGATION_DIFFERS = "negation_differs"  # a negation governs words both share, on one side only
    HEDGE_DROPPED = "hedge_dropped"  # the evidence hedges ("an estimated", "experimental"), the claim does not
    CONDITION_DROPPED = "condition_dropped"  # the evidence sets a condition ("unless", "only if") the claim drops
    # The cited link itself:
    LOOKALIKE_HOST = "lookalike_host"  # the host is written to look like another (UTS #39): blocks verified


class FigureStatus(enum.StrEnum):
    """What the figures check made of one figure of a claim."""

    MATCHED = "matched"
    MISSING = "missing"
    SKIPPED = "skipped"


class FigurePlace(enum.StrEnum):
    """Where a figure of a claim without a quote stands on its cited page."""

    PASSAGE = "passage"  # in the passage offered first
    ELSEWHERE = "elsewhere"  # on the page, not in that passage
    NOWHERE = "nowhere"  # nowhere on the cited page (gives figures_mismatch)


class FigureKind(enum.StrEnum):
    """What kind of figure a text holds; figures compare only within their kind."""

    NUMBER = "number"
    PERCENT = "percent"
    POINTS = "points"  # percentage points
    MONEY = "money"
    MULTIPLIER = "multiplier"
    ORDINAL = "ordinal"
    YEAR = "year"
    DATE = "date"
    MONTH = "month"  # a month and year, no day
    PARTIAL_DATE = "partial_date"  # a day and month, no year
    VERSION = "version"
    PERIOD = "period"  # a quarter, half or fiscal year
    LABEL = "label"  # a reference number ("PEP 632")
    UNREADABLE = "unreadable"
    TIME = "time"  # a time of day ("11:59 pm", "3:25 p.m."): not compared
    SCORE = "score"  # a score or a win-loss record ("3-1", "29–13", "1-1"): both numbers, told from either side


class DiffKind(enum.StrEnum):
    """The name of one difference between a quote and the page ("added"/"dropped": seen from the quote)."""

    EQUAL = "equal"
    FIGURE_CHANGED = "figure_changed"
    NEGATION_ADDED = "negation_added"
    NEGATION_DROPPED = "negation_dropped"
    WORD_ADDED = "word_added"
    WORD_DROPPED = "word_dropped"
    WORD_REPLACED = "word_replaced"
    REORDERED = "reordered"
    SPLICED = "spliced"  # the quote runs across a sentence or block break of the page
    CUT_AWAY = "cut_away"  # page words next to a found quote, which a context flag names
    TYPOGRAPHY_ONLY = "typography_only"  # the words agree: a matcher bug if ever seen


class Choice(enum.StrEnum):
    """What the editor decided about a claim."""

    NONE = ""  # no decision yet
    ACCEPT = "accept"
    REJECT = "reject"
    NEEDS_EDIT = "needs_edit"


class FetchState(enum.StrEnum):
    """Where one source stands while a check fetches it (the progress a check reports)."""

    WAITING = "waiting"
    FETCHING = "fetching"
    FETCHED = "fetched"
    CACHED = "cached"  # a stored or supplied copy is used
    FAILED = "failed"
