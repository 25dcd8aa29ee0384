"""The shared ground of figure reading: the ReadFigure record and one text prepared for reading.

``working_text`` runs ``core.text.normalise.normalise`` (the project's one normalisation) and marks
what normalisation would lose (superscript digits, thin-space digit grouping, vulgar
fractions) without changing its length, so that every span maps back to the original.
``Scan`` holds one text's spans while the passes of ``core.figures.read`` and
``core.figures.dates`` read it. This module prepares; it refuses to read or compare figures.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import MISSING, dataclass, field
from dataclasses import fields as fields_of
from decimal import Decimal

from core.figures import vocab as v
from core.figures.locale import regroup
from core.models import FigureKind
from core.settings import Settings
from core.text.normalise import normalise

SETTINGS = Settings()

# Superscript digits (lost to "108" when a page's "10⁸" is flattened) are kept apart from digits.
_SUPERSCRIPTS = {"⁰": 0, "¹": 1, "²": 2, "³": 3, "⁴": 4, "⁵": 5, "⁶": 6, "⁷": 7, "⁸": 8, "⁹": 9}
SUP_MARK = "ABCDEFGHIJ"  # normalised text is case-folded, so capitals cannot occur otherwise
# Vulgar fractions NFKC spreads over three characters ("½" -> "1⁄2"): read as two decimals ("1½" = "1.50").
_VULGAR = {"½": ".50", "¼": ".25", "¾": ".75"}
# Spaces that group digits ("1 000 000" with thin or no-break spaces); an ordinary space never does.
_GROUPING_SPACES = frozenset("\u2009\u202f\u00a0\u2007")
_DIGIT = re.compile(r"\d")  # one search in C, not a generator over every character
_DIGITS = re.compile(r"\d+")
_HEDGE_RE = re.compile(v.HEDGE)
# The negation of a comparator: right before it, or a "not" ("hasn't") with up to two words of its
# verb between ("had not recorded less than 7,100", "there have not been more than 850").
_NEGATED = re.compile(
    r"(?<![a-z'])(?:(?P<no>no)\s|(?P<neg>not|[a-z]+n't)\s(?:(?!(?:only|just|merely|simply|and|or|but)\s)[a-z]+\s){0,2})$"
)
# The same three written with a fraction slash ("1⁄2"): the same text once normalised, read alike.
_SLASHED = {unicodedata.normalize("NFKC", k): x for k, x in _VULGAR.items()}
_BEFORE_NUMBER = frozenset("0123456789.,")  # "41⁄2" may be 41/2, "2.1⁄2" no fraction
_MARKED = frozenset(_SUPERSCRIPTS) | frozenset(_VULGAR) | _GROUPING_SPACES | {"\u2044"}


@dataclass(frozen=True, kw_only=True)
class ReadFigure:
    """One figure read from a text.

    ``kind`` is a ``FigureKind`` (UNREADABLE when the figure cannot be read with confidence).
    ``value`` (and ``high``, for a range) is the figure after its scale ("1.2bn" is
    1200000000; percentages in percent; basis points in percentage points).
    ``precision`` is the place value of the last digit the writer wrote. ``written`` is the
    number as written, digits only (for exact comparisons). ``date`` is (year, month, day)
    and ``period`` is (label "Q"/"H"/"FY", number, year, fiscal), 0 where unknown.
    """

    text: str
    kind: FigureKind
    start: int = field(compare=False)
    end: int = field(compare=False)
    value: Decimal | None = None
    high: Decimal | None = None
    precision: Decimal = Decimal(1)
    currency: str = ""
    hedge: str = ""  # the hedge word before the figure ("about", "more than"), "" when exact
    written: str = ""
    parts: tuple[str, ...] = ()
    date: tuple[int, int, int] = (0, 0, 0)
    period: tuple[str, int, int, bool] = ("", 0, 0, False)
    power: tuple[int, int] | None = None  # (base, exponent) for "10^8", "10⁸", "2**30"
    unreadable: str = ""
    standalone: bool = False  # a bare whole number with no unit, scale, sign or decimals
    negative: bool = False
    scale: Decimal = Decimal(1)  # the scale word or suffix the writer used ("bn": 10**9)
    unit: str = ""  # a unit of measure named right after the number ("miles" -> "mile"), "" when none

    @property
    def is_range(self) -> bool:
        """Return True when the figure is a range with two ends ("10-60%")."""
        return self.high is not None


def shifted(fig: ReadFigure, offset: int) -> ReadFigure:
    """Return the figure with its span moved by offset characters: what ``dataclasses.replace`` gives, ten times faster.

    A page's figures are read piece by piece and moved to the page's positions, thousands a page;
    ``replace`` calls ``__init__`` with every field by name, a copy of the fields is all it makes.
    """
    moved = object.__new__(ReadFigure)
    moved.__dict__.update(fig.__dict__, start=fig.start + offset, end=fig.end + offset)
    return moved


# Each field's default in the fields' order, for figures made by their fields (``made``) as ``__init__``
# makes them (the four without a default are always given: None only holds their place).
_DEFAULTS = {f.name: None if f.default is MISSING else f.default for f in fields_of(ReadFigure)}


def made(**values: object) -> ReadFigure:
    """Return the figure ``ReadFigure(**values)`` gives, its fields set at once: several times faster.

    A frozen dataclass's ``__init__`` sets each of its nineteen fields one call at a time; a page
    holds thousands of figures. Every field without a default (text, kind, start, end) must be given.
    """
    fig = object.__new__(ReadFigure)
    fig.__dict__.update(_DEFAULTS, **values)
    return fig


def _slashed(base: str, i: int) -> bool:
    """Return True when the fraction slash at i writes a vulgar fraction ("1⁄2"), with no digit or mark around it."""
    return (
        base[i - 1 : i + 2] in _SLASHED
        and base[max(0, i - 2) : i - 1] not in _BEFORE_NUMBER
        and not base[i + 2 : i + 3].isdigit()
    )


def working_text(text: str, decimal_comma: bool = False) -> tuple[str, tuple[int, ...]]:
    """Return the normalised text, numbers regrouped, superscripts and grouping spaces marked, and its offsets."""
    norm = normalise(text)
    base = regroup(norm.text, decimal_comma)
    if _MARKED.isdisjoint(text):
        return _unglued(base, norm.offsets, text)  # nothing to mark: most pages, read at once, not char by char
    chars = list(base)
    for i, ch in enumerate(chars):
        orig = text[norm.offsets[i]]
        if orig in _SUPERSCRIPTS:
            chars[i] = SUP_MARK[_SUPERSCRIPTS[orig]]
            power = re.search(r"(?<![\d.,])[\d.,]+$", base[:i]) if i and chars[i - 1].isdigit() else None
            if power and power.group(0) not in ("2", "10"):
                chars[i] = " "  # "$4.45¹", "2022²": a footnote marker, not a power (only 2 and 10 take powers)
        elif orig in _VULGAR and (i == 0 or norm.offsets[i - 1] != norm.offsets[i]):
            for k, c in enumerate(_VULGAR[orig]):
                if i + k < len(chars) and norm.offsets[i + k] == norm.offsets[i]:
                    chars[i + k] = c
        elif orig == "\u2044" and _slashed(base, i):
            chars[i - 1 : i + 2] = _SLASHED[base[i - 1 : i + 2]]
        elif ch == " " and orig in _GROUPING_SPACES and i > 0 and chars[i - 1].isdigit():
            following = base[i + 1 : i + 5]
            if len(following) >= 3 and following[:3].isdigit() and not following[3:4].isdigit():
                chars[i] = ","
    return _unglued("".join(chars), norm.offsets, text)


# Words a page glues to a figure with its space lost ("3.8million", "of6.4/10", "35in Thackerville",
# "1986The"); and a thousands group a tokenised text sets apart by spaces around its comma ("700 , 000").
# The patterns after a figure match its last digit (the word starts at the match's end), and each that can
# opens with a digit, looking behind it after: searched from digit to digit, not tried at every character.
_GLUED_AFTER = re.compile(r"\d(?=(?:million|billion|trillion|thousand|crores?|lakhs?|and|in|of|the)(?![a-z]))")
_GLUED_BEFORE = re.compile(r"(?<![a-z])(?:of|in|at|on|to|by|is|and|the|from|was|than)(?=\d)")
_CAPITAL_AFTER = re.compile(r"\d(?=[a-z]{2,})")
_SPACED_GROUPS = re.compile(r"\d(?<![\d.,] \d)(?<![\d.,]\d)\d{0,2}(?: , \d{3})+(?![\d]| ?[.,] ?\d)")
# What the three glue patterns above cannot match without: a digit glued to a letter (the groups need " , ").
_GLUED_ANY = re.compile(r"\d(?:[a-z]|(?<=[a-z]\d))")


def _capitalised(text: str, i: int) -> bool:
    """Return True when a capitalised word starts at i ("The"), not a unit in capitals ("512MB")."""
    return text[i].isupper() and text[i + 1 : i + 2].islower()


def _unglued(w: str, offsets: tuple[int, ...], text: str) -> tuple[str, tuple[int, ...]]:
    """Return the working text with a space between a figure and a word glued to it, and spaced groups joined.

    An inserted space maps to the original character after it, so spans still map back; a capitalised
    word glued after digits ("1986The") is told by the original text, the working text being case-folded.
    """
    if _DIGIT.search(w) is None or (_GLUED_ANY.search(w) is None and " , " not in w):
        return w, offsets  # each cut needs a digit glued to a letter, each drop a " , " between groups
    cuts = {m.end() for m in _GLUED_AFTER.finditer(w)} | {m.end() for m in _GLUED_BEFORE.finditer(w)}
    cuts |= {m.end() for m in _CAPITAL_AFTER.finditer(w) if _capitalised(text, offsets[m.end()])}
    drops = {
        m.start() + k for m in _SPACED_GROUPS.finditer(w) for k in range(m.end() - m.start()) if w[m.start() + k] == " "
    }
    if not cuts and not drops:
        return w, offsets
    chars: list[str] = []
    offs: list[int] = []
    for i, ch in enumerate(w):
        if i in cuts:
            chars.append(" ")
            offs.append(offsets[i])
        if i not in drops:
            chars.append(ch)
            offs.append(offsets[i])
    return "".join(chars), tuple(offs)


def from_digits(pattern: re.Pattern[str], w: str, lead: int = 0) -> Iterator[re.Match[str]]:
    """Yield what ``pattern.finditer(w)`` yields, for a pattern every match of which has a digit within lead chars.

    No match can then start more than lead characters before the next digit, so each search starts
    there: the prose between figures is passed by one digit search, not tried by the pattern at every
    character (a lookbehind still sees the text before the search's start).
    """
    pos = 0
    while (d := _DIGIT.search(w, pos)) is not None:
        m = pattern.search(w, max(pos, d.start() - lead))
        if m is None:
            return
        yield m
        pos = m.end()


def run_starts(w: str, pos: int = 0, endpos: int | None = None) -> list[int]:
    """Return where each run of digits of w[pos:endpos] starts (pos itself, when a run spans it)."""
    return [m.start() for m in _DIGITS.finditer(w, pos, len(w) if endpos is None else endpos)]


def from_runs(
    pattern: re.Pattern[str], w: str, starts: list[int], endpos: int | None = None
) -> Iterator[re.Match[str]]:
    """Yield what ``pattern.finditer(w, pos, endpos)`` yields, starts being ``run_starts(w, pos, endpos)``.

    For a pattern led by a digit that no digit may precede (``(?<![\\d.])\\d``): it can match only where
    a run of digits starts, so it is tried there alone, not at every character of the prose.
    """
    end = len(w) if endpos is None else endpos
    pos = 0
    for p in starts:
        if p >= pos and (m := pattern.match(w, p, end)) is not None:
            yield m
            pos = m.end()


def precision_of(num: str) -> Decimal:
    """Return the place value of the last digit written (trailing zeros of whole numbers round)."""
    digits = num.replace(",", "")
    if "." in digits:
        return Decimal(1).scaleb(-len(digits.split(".")[1]))
    digits = digits.lstrip("0") or "0"
    zeros = len(digits) - len(digits.rstrip("0"))
    keep = SETTINGS.figures_min_significant_digits
    return Decimal(1).scaleb(max(0, min(zeros, len(digits) - keep)))


# An era after a year: "44 BC", "753 B.C.", "10,000 BCE"; "AD" and "CE" only where the sentence or a
# word of time goes on, for "ad" is also a word ("100 ad slots"). In the lowercased working text.
_ERA_AFTER = re.compile(
    r"\s?(?:(?P<bc>b\.?\s?c\.?(?:e\.?)?)|a\.?d\.?|c\.?e\.?)(?![a-z])"
    r"(?(bc)|(?=\s*(?:[.,;:)\]–—-]|$|\s(?:to|and|until|through|in|when|after|before)\b)))"
)
_ERA_BEFORE = re.compile(r"(?<![a-z.])a\.?d\.?\s$")  # "AD 476"


def era(w: str, start: int, end: int) -> str:
    """Return "BC" or "AD" for the number w[start:end] whose era is written beside it, "" for none.

    Read as the number's unit, an era keeps "44 BC" from holding a claim's "44 AD": two units that
    never convert (``core.figures.units``), and a year without one is held by either.
    """
    after = _ERA_AFTER.match(w, end)
    if after:
        return "BC" if after.group("bc") else "AD"
    return "AD" if _ERA_BEFORE.search(w, max(0, start - 5), start) else ""


def century(two_or_four: str) -> int:
    """Return a year from four digits, or from two taken as 20xx ("FY27" is 2027)."""
    year = int(two_or_four)
    return year + 2000 if len(two_or_four) == 2 else year


class Scan:
    # The state one reading of a text shares between passes: a class only to hold the working text and spans.
    def __init__(self, text: str, decimal_comma: bool = False) -> None:
        self.text = text
        self.w, self.offsets = working_text(text, decimal_comma)
        # Spans already read, kept sorted and disjoint so that a lookup is a bisection.
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.end_set: set[int] = set()
        self.found: list[ReadFigure] = []
        # Each figure's span in the working text (keyed by id: figures are equal by value).
        self.wspans: dict[int, tuple[int, int]] = {}
        self._run_starts: list[int] | None = None

    def runs(self) -> list[int]:
        """Return where the working text's runs of digits start, found once for every pass led by one."""
        if self._run_starts is None:
            self._run_starts = run_starts(self.w)
        return self._run_starts

    def span(self, start: int, end: int) -> tuple[int, int]:
        """Return the original text's span for a span of the working text."""
        if start >= end:
            return (0, 0)
        ostart = self.offsets[start]
        oend = self.offsets[end] if end < len(self.offsets) else len(self.text)
        if oend <= self.offsets[end - 1]:
            oend = self.offsets[end - 1] + 1
        # An original span ends before trailing spaces the normalisation collapsed.
        while oend > ostart and self.text[oend - 1].isspace():
            oend -= 1
        return ostart, oend

    def free(self, start: int, end: int) -> bool:
        """Return True when no figure read so far overlaps the working text's span."""
        i = bisect.bisect_right(self.starts, start)
        if i > 0 and self.ends[i - 1] > start:
            return False
        return not (i < len(self.starts) and self.starts[i] < end)

    def add(self, start: int, end: int, kind: FigureKind, **fields: object) -> None:
        """Record a figure read at a span of the working text."""
        ostart, oend = self.span(start, end)
        fig = made(text=self.text[ostart:oend], kind=kind, start=ostart, end=oend, **fields)
        i = bisect.bisect_right(self.starts, start)
        self.starts.insert(i, start)
        self.ends.insert(i, end)
        self.end_set.add(end)
        self.found.append(fig)
        self.wspans[id(fig)] = (start, end)

    def lacks(self, *needles: str | re.Pattern[str]) -> bool:
        """Return True when the working text holds none of the needles, so that a pass needing one finds nothing.

        A pass whose every match holds one of them is skipped whole on a text without: one look for a
        literal instead of a pattern tried at every character.
        """
        w = self.w
        for n in needles:  # noqa: SIM110 (a loop, not all() over a generator: most texts read are short)
            if (n in w) if isinstance(n, str) else (n.search(w) is not None):
                return False
        return True

    def hedge_before(self, start: int) -> str:
        """Return the hedge word right before a position ("about", "more than"), or ""."""
        m = _HEDGE_RE.search(self.w, max(0, start - 20), start)
        if m and self.w[max(0, m.start() - 3) : m.start()].rstrip()[-1:].isdigit():
            return ""  # "40 Under 40" is a name, "5 to 7" a range: a word between two numbers hedges neither
        if m is None:
            return ""
        hedge = m.group("hedge")
        # A negated comparator is one hedge ("not more than", "no fewer than"), with the bound it says.
        if (hedge in v.NEGATABLE or hedge in v.NEGATABLE_TIME) and (
            n := _NEGATED.search(self.w, max(0, m.start() - 30), m.start())
        ):
            return f"{'no' if n.group('no') else 'not'} {hedge}"
        return hedge

    def ends_figure(self, pos: int) -> bool:
        """Return True when a figure read so far ends at the position (spaces before it allowed)."""
        while pos > 0 and self.w[pos - 1] == " ":
            pos -= 1
        return pos in self.end_set
