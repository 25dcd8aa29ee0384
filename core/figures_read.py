"""Reading figures out of any text: numbers, money, percentages, dates, versions, periods.

``read_figures(text)`` returns every figure it can read, with its span in the original text
and its parsed value, so that the figures check can compare them and the desk can mark them.
It reads on ``core.normalise.normalise``'s output (the project's one normalisation) and maps
spans back to the original characters. A figure that cannot be read with confidence (an
address-like "1.2.3.4", an ambiguous "03/04/2023") is returned with ``unreadable`` set to
the reason, never given a guessed value. This module reads; it refuses to compare.
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass, field, replace
from decimal import Decimal

from core import figures_vocab as v
from core.normalise import normalise
from core.settings import Settings

_SETTINGS = Settings()

# Superscript digits (lost to "108" when a page's "10⁸" is flattened) are kept apart from digits.
_SUPERSCRIPTS = {"⁰": 0, "¹": 1, "²": 2, "³": 3, "⁴": 4, "⁵": 5, "⁶": 6, "⁷": 7, "⁸": 8, "⁹": 9}
_SUP_MARK = "ABCDEFGHIJ"  # normalised text is case-folded, so capitals cannot occur otherwise
# Vulgar fractions NFKC spreads over three characters ("½" -> "1⁄2"): read as two decimals ("1½" = "1.50").
_VULGAR = {"½": ".50", "¼": ".25", "¾": ".75"}
# Spaces that group digits ("1 000 000" with thin or no-break spaces); an ordinary space never does.
_GROUPING_SPACES = frozenset("\u2009\u202f\u00a0\u2007")


@dataclass(frozen=True)
class ReadFigure:
    """One figure read from a text.

    ``kind`` is "number", "percent", "points" (percentage points), "money", "multiplier",
    "ordinal", "year", "date", "month", "partial_date", "version", "period", "label" or
    "unreadable". ``value`` (and ``high``, for a range) is the figure after its scale
    ("1.2bn" is 1200000000; percentages in percent; basis points in percentage points).
    ``precision`` is the place value of the last digit the writer wrote. ``written`` is the
    number as written, digits only (for exact comparisons). ``date`` is (year, month, day)
    and ``period`` is (label "Q"/"H"/"FY", number, year, fiscal), 0 where unknown.
    """

    text: str
    kind: str
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


_NUM = r"(?:\d{1,3}(?:,\d{3})+(?![\d])|\d{1,2}(?:,\d{2})+,\d{3}(?![\d])|\d+)(?:\.\d+)?|\.\d+"
_NUMBER = re.compile(
    r"(?P<sign>-)?(?:(?P<cur>" + v.CURRENCY_BEFORE + r")\s?)?(?P<sign2>-)?(?P<num>" + _NUM + r")"
    r"(?P<pow>(?:\^|\*\*)\d+|[A-J]+)?"
    r"(?:(?P<suf>k|mn|mm|m|bn|b|tn|cr)(?![a-z0-9])|\s(?P<scale>" + "|".join(v.SCALE_WORD) + r")(?![a-z]))?"
    r"(?:\s?(?P<pct>%|percent(?![a-z])|per cent(?![a-z])|pct(?![a-z]))"
    r"|\s(?P<pts>percentage points?|percentage-points?|pp|ppts?|pts)(?![a-z])"
    r"|\s?(?P<bps>basis points?|bps|bp)(?![a-z])"
    r"|(?P<mult>x|×)(?![a-z0-9])|\s?(?P<mult2>×)|\s(?P<times>times)(?![a-z])|(?P<fold>-fold)(?![a-z])"
    r"|\s(?P<curafter>" + v.CURRENCY_AFTER + r")(?![a-z])|(?P<ord>st|nd|rd|th)(?![a-z]))?"
)
_ACCOUNTING = re.compile(
    r"\((?P<cur>" + v.CURRENCY_BEFORE + r")\s?(?P<num>" + _NUM + r")\)"
    r"(?:\s(?P<scale>" + "|".join(v.SCALE_WORD) + r")(?![a-z]))?"
    r"|(?P<cur2>" + v.CURRENCY_BEFORE + r")\((?P<num2>" + _NUM + r")\)"
    r"(?:\s(?P<scale2>" + "|".join(v.SCALE_WORD) + r")(?![a-z]))?"
)
_ISO_DATE = re.compile(r"(?<![\d.-])(\d{4})-(\d{2})-(\d{2})(?![\d])")
_SLASH_DATE = re.compile(r"(?<![\d./])(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})(?![\d/])")
_SLASH_NUMBER = re.compile(r"(?<![\d./])(\d{1,4})/(\d{1,4})(?![\d/])")
_MDY = re.compile(r"(?<![a-z])(" + v.MONTH + r")\.?\s(\d{1,2})(?:st|nd|rd|th)?,?\s(\d{4})(?![\d])")
_DMY = re.compile(r"(?<![\d.])(\d{1,2})(?:st|nd|rd|th)?\s(?:of\s)?(" + v.MONTH + r")\.?,?\s(\d{4})(?![\d])")
_MY = re.compile(r"(?<![a-z])(" + v.MONTH + r")\.?,?\s(?:of\s)?(\d{4})(?![\d])")
_MD = re.compile(r"(?<![a-z])(" + v.MONTH + r")\.?\s(\d{1,2})(?:st|nd|rd|th)?(?![\d,.]\d|\d)")
_DM = re.compile(r"(?<![\d.,])(\d{1,2})(?:st|nd|rd|th)?\s(?:of\s)?(" + v.MONTH + r")(?![a-z])")
_YEAR_PART = r"(?:\s(?:of\s)?(?:(?P<fy>fiscal(?:\syear)?|fy)\s?'?(?P<y1>\d{4}|\d{2})|(?P<y2>\d{4})))?(?![\d])"
_ORD_PERIOD = re.compile(r"(?<![a-z])(?P<ord>" + v.ORDINAL + r")[\s-](?P<what>quarter|half)(?![a-z])" + _YEAR_PART)
_Q_PERIOD = re.compile(
    r"(?<![a-z0-9])(?P<what>[qh])(?P<n>[1-4])(?:\s?(?P<fy>fy|')\s?(?P<y1>\d{4}|\d{2})|\s(?P<y2>\d{4}))?(?![\da-z]|\.\d)"
)
_NQ_PERIOD = re.compile(
    r"(?<![a-z0-9.,])(?P<n>[1-4])(?P<what>[qh])(?:\s?'?(?P<y1>\d{2})|\s(?P<y2>\d{4}))?(?![\da-z]|\.\d)"
)
_FY = re.compile(r"(?<![a-z])(?:fy|fiscal(?:\syear)?)\s?'?(?P<y>\d{4}|\d{2})(?!\d|\.\d)")
_DOTTED = re.compile(r"(?<![\w.])\d+(?:\.\d+){2,}(?![\w]|\.\d)")
_VERSION_AFTER_WORD = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w%]|\.\d)")
_VERSION_V = re.compile(r"(?<![a-z])v(\d+(?:\.\d+)+)(?![\w]|\.\d)")
_VERSION_CHAIN = re.compile(r"(?:\s?,\s?(?:and\s|or\s)?|\s(?:and|or|to|through)\s|-)(\d+\.\d+(?:\.\d+)?)(?![\w%]|\.\d)")
_WORD_NUMBER = re.compile(
    r"(?<![a-z-])(?:(?P<tens>"
    + v.TENS_WORD
    + r")(?:-(?P<tu>"
    + v.UNIT_WORD
    + r"))?|(?P<unit>"
    + v.UNIT_WORD
    + r")|(?P<a>a))"
    r"(?:\s(?P<hundred>hundred))?(?:\s(?P<scale>thousand|million|billion|trillion|lakh|crore))?"
    r"(?:\s?(?P<pct>%|percent|per cent)|\s(?P<times>times))?(?![a-z-])"
)
# Only "half" goes without a count: "every quarter of 2023" is a period, "a quarter of users" a share.
_FRACTION = re.compile(
    r"(?<![a-z])(?:(?P<count>a|one|two|three|four)[\s-](?P<frac>half|halves|thirds?|quarters?|fifths?)|(?P<half>half))"
    r"(?=\s(?:of|the|as|more|less|fewer|[a-z]+er)(?![a-z]))"
)
_FRACTION_DIGITS = re.compile(r"(?<![\d.])(\d)\u2044(\d{1,2})(?!\d)")  # "½" normalises to "1⁄2"
# "double quotes" and "triple-quoted" are no multipliers: the base forms count only before what they multiply.
_MULT_WORD = re.compile(
    r"(?<![a-z])(?:(doubled|doubles|doubling|twice|tripled|triples|tripling|thrice|quadrupled)(?![a-z])"
    r"|(double|triple|quadruple)(?=\s(?:the|its|their|his|her|our|that|this|from|to|in|over|by)\b|[.,;:)]|$))"
)
_UNIT_AFTER = re.compile(v.UNIT_AFTER)
_CONVERSION_BEFORE = re.compile(r"\d(?:\s?[a-z€$£¥₹]{1,8})?\s?$")
_RANGE_GAP = re.compile(r"\s?-\s?|\s(?:to|and)\s")
_HEDGE_RE = re.compile(v.HEDGE)
_LABEL_RE = re.compile(v.LABEL_WORDS)
_VERSION_WORD_RE = re.compile(v.VERSION_WORDS)
_NUMERIC_KINDS = frozenset({"number", "percent", "points", "money", "multiplier", "year"})


def _working_text(text: str) -> tuple[str, tuple[int, ...]]:
    """Return the normalised text, with superscripts and grouping spaces marked, and its offsets."""
    norm = normalise(text)
    chars = list(norm.text)
    for i, ch in enumerate(chars):
        orig = text[norm.offsets[i]]
        if orig in _SUPERSCRIPTS:
            chars[i] = _SUP_MARK[_SUPERSCRIPTS[orig]]
            base = re.search(r"(?<![\d.,])[\d.,]+$", norm.text[:i]) if i and chars[i - 1].isdigit() else None
            if base and base.group(0) not in ("2", "10"):
                chars[i] = " "  # "$4.45¹", "2022²": a footnote marker, not a power (only 2 and 10 take powers)
        elif orig in _VULGAR and (i == 0 or norm.offsets[i - 1] != norm.offsets[i]):
            for k, c in enumerate(_VULGAR[orig]):
                if i + k < len(chars) and norm.offsets[i + k] == norm.offsets[i]:
                    chars[i + k] = c
        elif ch == " " and orig in _GROUPING_SPACES and i > 0 and chars[i - 1].isdigit():
            following = norm.text[i + 1 : i + 5]
            if len(following) >= 3 and following[:3].isdigit() and not following[3:4].isdigit():
                chars[i] = ","
    return "".join(chars), norm.offsets


def _precision(num: str) -> Decimal:
    """Return the place value of the last digit written (trailing zeros of whole numbers round)."""
    digits = num.replace(",", "")
    if "." in digits:
        return Decimal(1).scaleb(-len(digits.split(".")[1]))
    digits = digits.lstrip("0") or "0"
    zeros = len(digits) - len(digits.rstrip("0"))
    keep = _SETTINGS.figures_min_significant_digits
    return Decimal(1).scaleb(max(0, min(zeros, len(digits) - keep)))


def _century(two_or_four: str) -> int:
    year = int(two_or_four)
    return year + 2000 if len(two_or_four) == 2 else year


class _Reader:
    # A small stateful pass over one text; a class only to share the working text and spans.
    def __init__(self, text: str) -> None:
        self.text = text
        self.w, self.offsets = _working_text(text)
        # Spans already read, kept sorted and disjoint so that a lookup is a bisection.
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.end_set: set[int] = set()
        self.found: list[ReadFigure] = []

    def span(self, start: int, end: int) -> tuple[int, int]:
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
        i = bisect.bisect_right(self.starts, start)
        if i > 0 and self.ends[i - 1] > start:
            return False
        return not (i < len(self.starts) and self.starts[i] < end)

    def add(self, start: int, end: int, kind: str, **fields: object) -> None:
        ostart, oend = self.span(start, end)
        fig = ReadFigure(self.text[ostart:oend], kind, ostart, oend, **fields)  # type: ignore[arg-type]
        i = bisect.bisect_right(self.starts, start)
        self.starts.insert(i, start)
        self.ends.insert(i, end)
        self.end_set.add(end)
        self.found.append(fig)
        self._wspans[id(fig)] = (start, end)

    _wspans: dict[int, tuple[int, int]]

    def hedge_before(self, start: int) -> str:
        m = _HEDGE_RE.search(self.w, max(0, start - 20), start)
        return m.group("hedge") if m else ""

    # ------------------------------------------------------------------ passes

    def dates(self) -> None:
        for m in _ISO_DATE.finditer(self.w):
            y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
            if 1 <= mo <= 12 and 1 <= d <= 31:
                self.add(m.start(), m.end(), "date", date=(y, mo, d), written=m.group(0))
        for m in _SLASH_DATE.finditer(self.w):
            if not self.free(m.start(), m.end()):
                continue
            a, b, y = int(m.group(1)), int(m.group(2)), _century(m.group(3))
            if a > 12 and 1 <= b <= 12 and a <= 31:
                self.add(m.start(), m.end(), "date", date=(y, b, a), written=m.group(0))
            elif b > 12 and 1 <= a <= 12 and b <= 31:
                self.add(m.start(), m.end(), "date", date=(y, a, b), written=m.group(0))
            else:
                why = "day and month could be either way round"
                self.add(m.start(), m.end(), "unreadable", unreadable=why, written=m.group(0))
        for m in _SLASH_NUMBER.finditer(self.w):
            if self.free(m.start(), m.end()):
                why = "a number written with a slash may be a ratio, a fraction, a date or a name"
                self.add(m.start(), m.end(), "unreadable", unreadable=why, written=m.group(0))
        for rx, order in ((_MDY, "mdy"), (_DMY, "dmy"), (_MY, "my"), (_MD, "md"), (_DM, "dm")):
            for m in rx.finditer(self.w):
                if not self.free(m.start(), m.end()):
                    continue
                g = m.groups()
                if order == "mdy":
                    y, mo, d = int(g[2]), v.MONTHS[g[0]], int(g[1])
                elif order == "dmy":
                    y, mo, d = int(g[2]), v.MONTHS[g[1]], int(g[0])
                elif order == "my":
                    y, mo, d = int(g[1]), v.MONTHS[g[0]], 0
                elif order == "md":
                    y, mo, d = 0, v.MONTHS[g[0]], int(g[1])
                else:
                    y, mo, d = 0, v.MONTHS[g[1]], int(g[0])
                if d > 31:
                    continue
                kind = "date" if y and d else "month" if y else "partial_date"
                self.add(m.start(), m.end(), kind, date=(y, mo, d), written=m.group(0))

    def periods(self) -> None:
        for m in _ORD_PERIOD.finditer(self.w):
            if not self.free(m.start(), m.end()):
                continue
            label = "Q" if m.group("what") == "quarter" else "H"
            n = v.ORDINAL_WORDS[m.group("ord")]
            if label == "H" and n > 2:
                continue
            year_text = m.group("y1") or m.group("y2") or ""
            self._period(m.start(), m.end(), label, n, year_text, bool(m.group("fy")))
        for rx in (_Q_PERIOD, _NQ_PERIOD):
            for m in rx.finditer(self.w):
                if not self.free(m.start(), m.end()):
                    continue
                label = m.group("what").upper()
                n = int(m.group("n"))
                if label == "H" and n > 2:
                    continue
                fiscal = "fy" in m.groupdict() and m.group("fy") == "fy"
                self._period(m.start(), m.end(), label, n, m.group("y1") or m.group("y2") or "", fiscal)
        for m in _FY.finditer(self.w):
            if self.free(m.start(), m.end()):
                self._period(m.start(), m.end(), "FY", 0, m.group("y"), True)

    def _period(self, start: int, end: int, label: str, n: int, year_text: str, fiscal: bool) -> None:
        year = _century(year_text) if year_text else 0
        self.add(start, end, "period", period=(label, n, year, fiscal), written=self.w[start:end])

    def versions(self) -> None:
        for m in _DOTTED.finditer(self.w):
            parts = tuple(m.group(0).split("."))
            if len(parts) > _SETTINGS.figures_version_max_parts:
                why = f"{len(parts)} dot-separated parts read like an address or a section number, not a figure"
                self.add(m.start(), m.end(), "unreadable", unreadable=why, written=m.group(0))
            else:
                self.add(m.start(), m.end(), "version", parts=parts, written=m.group(0))
        for m in _VERSION_V.finditer(self.w):
            if self.free(m.start(), m.end()):
                self.add(m.start(), m.end(), "version", parts=tuple(m.group(1).split(".")), written=m.group(1))
        for m in _VERSION_AFTER_WORD.finditer(self.w):
            if not self.free(m.start(), m.end()) or not _VERSION_WORD_RE.search(
                self.w, max(0, m.start() - 12), m.start()
            ):
                continue
            word = _VERSION_WORD_RE.search(self.w, max(0, m.start() - 12), m.start())
            # "since 2008" is a year and "since 3" a count: only decimals follow since/until.
            if word and word.group(0).strip() in ("since", "until", "through") and "." not in m.group(0):
                continue
            self.add(m.start(), m.end(), "version", parts=tuple(m.group(0).split(".")), written=m.group(0))
            end = m.end()
            while (c := _VERSION_CHAIN.match(self.w, end)) and self.free(c.start(1), c.end(1)):
                self.add(c.start(1), c.end(1), "version", parts=tuple(c.group(1).split(".")), written=c.group(1))
                end = c.end()

    def accounting(self) -> None:
        for m in _ACCOUNTING.finditer(self.w):
            if not self.free(m.start(), m.end()):
                continue
            if _CONVERSION_BEFORE.search(self.w, max(0, m.start() - 12), m.start()):
                continue  # "71,350 euro ($78,770)": a conversion in brackets, not a negative
            cur, num = (m.group("cur"), m.group("num")) if m.group("num") else (m.group("cur2"), m.group("num2"))
            scale_word = m.group("scale") or m.group("scale2")
            scale = v.SCALE_WORD[scale_word] if scale_word else Decimal(1)
            value = -Decimal(num.replace(",", "")) * scale
            self.add(m.start(), m.end(), "money", value=value, precision=_precision(num) * scale,
                     currency=v.CURRENCY_CODES[cur.strip().rstrip(".") if cur.strip() != "rs." else "rs"],
                     written=num, negative=True, hedge=self.hedge_before(m.start()), scale=scale)  # fmt: skip

    def numbers(self) -> None:
        for m in _NUMBER.finditer(self.w):
            start, end = m.start(), m.end()
            sign = m.group("sign") or m.group("sign2")
            if m.group("sign") and ((start > 0 and self.w[start - 1] not in " ([:/,;\"'") or self._ends_figure(start)):
                start += 1  # a "-" after a word or a figure joins ("gh-905", "1.0% - 2.0%"); it is no sign
                sign = m.group("sign2")
            if not self.free(start, end):
                continue
            before = self.w[start - 1] if start > 0 else " "
            after = self.w[end] if end < len(self.w) else " "
            if (before.isalnum() or before in "._") or (after.isalnum() and not after.isupper()) or after == "_":
                continue  # digits inside a word or a name: "x86", "int64", "10b5"
            num = m.group("num")
            if before == "-" and start >= 2 and self.w[start - 2].isalnum() and not self._ends_figure(start - 1):
                # "gh-90564", "COVID-19": the whole name is the label.
                name_start = start - 1
                while name_start > 0 and (self.w[name_start - 1].isalnum() or self.w[name_start - 1] == "-"):
                    name_start -= 1
                if not self.free(name_start, start):
                    name_start = start
                self.add(name_start, end, "label", written=num, value=Decimal(num.replace(",", "")))
                continue
            self._number(m, start, end, num, bool(sign))

    def _ends_figure(self, pos: int) -> bool:
        while pos > 0 and self.w[pos - 1] == " ":
            pos -= 1
        return pos in self.end_set

    def _number(self, m: re.Match[str], start: int, end: int, num: str, negative: bool) -> None:
        value = Decimal(num.replace(",", ""))
        precision = _precision(num)
        cur = (m.group("cur") or "").strip()
        currency = v.CURRENCY_CODES[cur.rstrip(".") if cur != "rs." else "rs"] if cur else ""
        power = None
        if m.group("pow"):
            exp_text = m.group("pow").lstrip("^*")
            exp = int("".join(str(_SUP_MARK.index(c)) for c in exp_text)) if exp_text.isupper() else int(exp_text)
            if "." in num or "," in num:
                self.add(start, end, "unreadable", unreadable="a power of a decimal", written=num)
                return
            power = (int(num), exp)
            value = Decimal(int(num)) ** exp
            precision = Decimal(1)
        scale = Decimal(1)
        if m.group("suf"):
            if m.group("suf") in ("m", "b") and not currency:
                # "5m" may be metres and "5b" a grade; only money takes these bare suffixes.
                end = m.start("suf")
            else:
                scale = v.SCALE_SUFFIX[m.group("suf")]
        elif m.group("scale"):
            scale = v.SCALE_WORD[m.group("scale")]
        value, precision = value * scale, precision * scale
        kind = "money" if currency else "number"
        if m.group("curafter"):
            # "$7.9 million dollars" keeps its "$"; a bare "71,350 euro" takes the word's currency.
            currency, kind = currency or v.CURRENCY_CODES[m.group("curafter")], "money"
        elif m.group("pct"):
            kind = "percent"
        elif m.group("pts"):
            kind = "points"
        elif m.group("bps"):
            kind, value, precision = "points", value / 100, precision / 100
        elif m.group("mult") or m.group("mult2") or m.group("times") or m.group("fold"):
            kind = "multiplier"
        elif m.group("ord"):
            kind = "ordinal"
        if negative:
            value = -value
        hedge = self.hedge_before(start)
        standalone = (
            kind in ("number", "ordinal")
            and "." not in num
            and scale == 1
            and power is None
            and not negative
            and value <= _SETTINGS.figures_small_whole_max
        )
        label = _LABEL_RE.search(self.w, max(0, start - 12), start)
        if kind == "number" and label and "." not in num:
            kind = "label"
            if self.free(label.start(), start):
                start = label.start()  # "PEP 632" is marked whole
        elif (
            kind == "number"
            and "," not in num
            and "." not in num
            and scale == 1
            and power is None
            and _SETTINGS.figures_year_min <= value <= _SETTINGS.figures_year_max
            and len(num) == 4
        ):
            kind = "year"
        unit_match = _UNIT_AFTER.match(self.w, end) if kind in ("number", "ordinal") else None
        unit = v.UNIT_WORDS[unit_match.group("unit")] if unit_match else ""
        self.add(start, end, kind, value=value, precision=precision, currency=currency, hedge=hedge, written=num,
                 power=power, standalone=standalone, negative=negative, scale=scale, unit=unit)  # fmt: skip

    def words(self) -> None:
        for m in _WORD_NUMBER.finditer(self.w):
            if not self.free(m.start(), m.end()):
                continue
            if m.group("a") and not (m.group("hundred") or m.group("scale")):
                continue
            n = 1 if m.group("a") else v.UNITS.get(m.group("unit") or "", 0)
            if m.group("tens"):
                n = v.TENS[m.group("tens")] + v.UNITS.get(m.group("tu") or "", 0)
            precision = Decimal(1)
            if m.group("hundred"):
                n, precision = n * 100, Decimal(100)
            value, scale = Decimal(n), v.SCALE_WORD.get(m.group("scale") or "", Decimal(1))
            value, precision = value * scale, precision * scale
            kind = "percent" if m.group("pct") else "multiplier" if m.group("times") else "number"
            small = kind == "number" and value <= _SETTINGS.figures_small_whole_max
            self.add(m.start(), m.end(), kind, value=value, precision=precision, standalone=small, scale=scale,
                     hedge=self.hedge_before(m.start()), written=m.group(0))  # fmt: skip
        for m in _FRACTION.finditer(self.w):
            if not self.free(m.start(), m.end()):
                continue
            count = {"two": 2, "three": 3, "four": 4}.get(m.group("count") or "", 1)
            share = v.FRACTION_WORDS[m.group("frac") or m.group("half")] * count
            self.add(m.start(), m.end(), "percent", value=share, precision=Decimal(1),
                     hedge=self.hedge_before(m.start()), written=m.group(0))  # fmt: skip
        for m in _FRACTION_DIGITS.finditer(self.w):
            if self.free(m.start(), m.end()) and int(m.group(2)):
                share = Decimal(100) * int(m.group(1)) / int(m.group(2))
                self.add(m.start(), m.end(), "percent", value=share, precision=Decimal(1), written=m.group(0))
        for m in _MULT_WORD.finditer(self.w):
            if self.free(m.start(), m.end()):
                word = m.group(1) or m.group(2)
                self.add(m.start(), m.end(), "multiplier", value=Decimal(v.MULTIPLIER_WORDS[word]),
                         precision=Decimal("0.1"), written=m.group(0))  # fmt: skip

    def ranges(self) -> list[ReadFigure]:
        figs = sorted(self.found, key=lambda f: f.start)
        out: list[ReadFigure] = []
        i = 0
        while i < len(figs):
            a = figs[i]
            b = figs[i + 1] if i + 1 < len(figs) else None
            merged = self._merge(a, b) if b is not None else None
            if merged is not None:
                out.append(merged)
                i += 2
            else:
                out.append(a)
                i += 1
        return out

    def _merge(self, a: ReadFigure, b: ReadFigure) -> ReadFigure | None:
        if a.kind not in _NUMERIC_KINDS or b.kind not in _NUMERIC_KINDS or a.is_range or b.is_range:
            return None
        if a.value is None or b.value is None:
            return None
        (wa_start, wa_end), (wb_start, wb_end) = self._wspans[id(a)], self._wspans[id(b)]
        gap = self.w[wa_end:wb_start]
        if not _RANGE_GAP.fullmatch(gap):
            return None
        if gap.strip() == "and" and a.hedge != "between":
            return None
        kind, currency, low, precision = a.kind, a.currency or b.currency, a.value, a.precision
        if kind == "number" and b.kind in ("percent", "points", "multiplier", "money"):
            kind = b.kind
        if kind == "number" and currency:
            kind = "money"
        if kind != b.kind and not (kind == "year" and b.kind == "number"):
            return None
        if a.scale == 1 and b.scale > 1:
            # "$5.0 - $5.2 billion": the first end takes the scale the second end names.
            low, precision = low * b.scale, precision * b.scale
        if low > b.value:
            return None
        ostart, oend = a.start, b.end
        merged = replace(a, text=self.text[ostart:oend], kind=kind, start=ostart, end=oend, value=low, high=b.value,
                         precision=min(precision, b.precision), currency=currency, standalone=False, unit=b.unit,
                         written=a.written + "-" + b.written)  # fmt: skip
        self._wspans[id(merged)] = (wa_start, wb_end)
        return merged

    def run(self) -> tuple[ReadFigure, ...]:
        self._wspans = {}
        self.dates()
        self.periods()
        self.versions()
        self.accounting()
        self.numbers()
        self.words()
        # "one", "two" are words first: a small number word is read only as the end of a range.
        return tuple(f for f in self.ranges() if not (f.standalone and f.written.isalpha()))


@functools.lru_cache(maxsize=16)
def _read_cached(text: str) -> tuple[ReadFigure, ...]:
    return _Reader(text).run()


def read_figures(text: str) -> list[ReadFigure]:
    """Return every figure in the text, in text order, with spans in the original text (never raises)."""
    return list(_read_cached(text))


def power_written_flat(fig: ReadFigure) -> str:
    """Return how a power figure reads once its superscript is lost ("10⁸" -> "108"), else ""."""
    if fig.power is None:
        return ""
    return f"{fig.power[0]}{fig.power[1]}"


__all__ = ["ReadFigure", "power_written_flat", "read_figures"]
