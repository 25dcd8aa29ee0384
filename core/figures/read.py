"""Reading figures out of any text: numbers, money, percentages, dates, versions, periods.

``read_figures(text)`` returns every figure it can read, with its span in the original text
and its parsed value, so that the figures check can compare them and the desk can mark them.
It reads on ``core.text.normalise.normalise``'s output (the project's one normalisation) and maps
spans back to the original characters. A figure that cannot be read with confidence (an
address-like "1.2.3.4", an ambiguous "03/04/2023") is returned with ``unreadable`` set to
the reason, never given a guessed value. Dates, periods and versions are read first (by
``core.figures.dates``), then money and accounting negatives, numbers with their scales, units
and signs, number words, fractions and multipliers, and last the ranges joining two figures.
This module reads; it refuses to compare.
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace
from decimal import Decimal

from core.figures import vocab as v
from core.figures.dates import read_forms, read_lone_vulgar
from core.figures.scan import SETTINGS, SUP_MARK, ReadFigure, Scan, era, from_digits, from_runs, precision_of
from core.figures.words import FRACTION_COUNTS, FRACTION_NEEDLES, MULTIPLIER_NEEDLES, WORD_SCALES
from core.models import FigureKind

_NUM = r"(?:\d{1,3}(?:,\d{3})+(?![\d])|\d{1,2}(?:,\d{2})+,\d{3}(?![\d])|\d+)(?:\.\d+)?|\.\d+"
# What may stand before a number's digits: a sign, a currency (with a space after it), a sign again.
_NUMBER_BEFORE = r"(?P<sign>-)?(?:(?P<cur>" + v.CURRENCY_BEFORE + r")\s?)?(?P<sign2>-)?"
_NUMBER = re.compile(
    _NUMBER_BEFORE + r"(?P<num>" + _NUM + r")"
    r"(?P<pow>(?:\^|\*\*)\d+|[A-J]+)?"
    r"(?:(?P<suf>k|mn|mm|m|bn|b|tn|cr)(?![a-z0-9])|\s(?P<scale>" + "|".join(v.SCALE_WORD) + r")(?![a-z]))?"
    r"(?:\s?(?P<pct>%|percent(?![a-z])|per cent(?![a-z])|pct(?![a-z]))"
    r"|\s(?P<pts>percentage points?|percentage-points?|pp|ppts?|pts)(?![a-z])"
    r"|\s?(?P<bps>basis points?|bps|bp)(?![a-z])"
    r"|(?P<mult>x|×)(?![a-z0-9])|\s?(?P<mult2>×)|\s(?P<times>times)(?![a-z])|(?P<fold>-fold)(?![a-z])"
    r"|\s(?P<curafter>" + v.CURRENCY_AFTER + r")(?![a-z])|(?P<ord>st|nd|rd|th)(?![a-z]))?"
)
# A number's first digit stands at most this far into its match: _NUMBER_BEFORE ("-us $ -" at most) and a ".".
_NUMBER_LEAD = 8
# An accounting negative's too: "(", a currency ("us $" at most), a space, a "."; or a currency, "(", ".".
_ACCOUNTING_LEAD = 7
_ACCOUNTING = re.compile(
    r"\((?P<cur>" + v.CURRENCY_BEFORE + r")\s?(?P<num>" + _NUM + r")\)"
    r"(?:\s(?P<scale>" + "|".join(v.SCALE_WORD) + r")(?![a-z]))?"
    r"|(?P<cur2>" + v.CURRENCY_BEFORE + r")\((?P<num2>" + _NUM + r")\)"
    r"(?:\s(?P<scale2>" + "|".join(v.SCALE_WORD) + r")(?![a-z]))?"
)
# A number word joined to its unit by a hyphen is read ("a sixty-year war"), as "60-year" is.
_HYPHEN_UNIT = r"(?:" + "|".join(sorted(v.UNIT_WORDS, key=len, reverse=True)) + r")(?![a-z])"
_WORD_NUMBER = re.compile(
    r"(?<![a-z-])(?:(?P<tens>"
    + v.TENS_WORD
    + r")(?:-(?P<tu>"
    + v.UNIT_WORD
    + r"))?|(?P<unit>"
    + v.UNIT_WORD
    + r")|(?P<a>a))"
    r"(?:\s(?P<hundred>hundred)(?:\s(?:and\s)?(?:(?P<htens>"
    + v.TENS_WORD
    + r")(?:-(?P<htu>"
    + v.UNIT_WORD
    + r"))?|(?P<hunit>"
    + v.UNIT_WORD
    + r")))?)?(?P<andhalf>[\s-]and[\s-]a[\s-]half)?"
    r"(?:\s(?P<scale>" + "|".join(WORD_SCALES) + "))?"
    r"(?:\s?(?P<pct>%|percent|per cent)|\s(?P<times>times))?(?![a-z]|-(?!" + _HYPHEN_UNIT + r"))"
)
# Only "half" goes without a count: "every quarter of 2023" is a period, "a quarter of users" a share.
_FRACTION = re.compile(
    r"(?<![a-z])(?:(?P<count>"
    + "|".join(FRACTION_COUNTS)
    + r")[\s-](?P<frac>half|halves|thirds?|quarters?|fifths?)|(?P<half>half))"
    r"(?=\s(?:of|the|as|more|less|fewer|[a-z]+er)(?![a-z]))"
)
_FRACTION_DIGITS = re.compile(r"(?<![\d.])(\d)\u2044(\d{1,2})(?!\d)")  # "⅔" normalises to "2⁄3"
# "double quotes" and "triple-quoted" are no multipliers: the base forms count only before what they multiply.
# A share told as a count in another ("1 in 4 adults", "one in every five"): 25%, 20%.
_SCALE_COUNTS = {"hundred": 100, "thousand": 1000, "million": 10**6}
_SHARE_WORDS = {w: n for w, n in (*v.UNITS.items(), *v.TENS.items()) if n > 1}
_SHARE_WORDS |= {f"{a}{w}": n for w, n in _SCALE_COUNTS.items() for a in ("", "a ", "one ")}
_ONE_IN = re.compile(
    r"(?<![\w.,$€£¥₹-])(?P<n>[1-9]|" + "|".join(w for w, n in v.UNITS.items() if 1 <= n <= 9) + r")\sin\s(?:every\s)?"
    r"(?P<d>[1-9]\d{0,2}(?:,\d{3})*(?![\d.,]\d)|" + "|".join(sorted(_SHARE_WORDS, key=len, reverse=True)) + r")"
    r"(?![\w%-]|\s?per\s?cent)"
)
# "twice", "thrice" multiply what they compare ("twice as many"); alone they count events ("won twice").
_MULT_WORD = re.compile(
    r"(?<![a-z])(?:(doubled|doubles|doubling|tripled|triples|tripling|quadrupled)(?![a-z])"
    r"|(twice|thrice)(?=\s(?:as|the|" + v.THAT_FIGURE + r"|this|these|those|its|their|his|her|our|my|your|what"
    r"|more|less|fewer|(?!over|under|after|never|ever|other)[a-z]{2,}er)(?![a-z]))"
    r"|(double|triple|quadruple)(?=\s(?:the|its|their|his|her|our|that|this|from|to|in|over|by)\b|[.,;:)]|$))"
)
_UNIT_AFTER = re.compile(v.UNIT_AFTER)
# "mid-20th century", "late-1990s": a prefix in time, not a name ("COVID-19").
_TIME_PREFIX = re.compile(r"(?<![a-z])(?:mid|early|late)-$")
_GLUED_UNIT = re.compile(v.GLUED_UNIT)
_CONVERSION_BEFORE = re.compile(r"\d(?:\s?[a-z€$£¥₹]{1,8})?\s?$")
_RANGE_GAP = re.compile(r"\s?-\s?|\s(?:to|and)\s")
_LABEL_RE = re.compile(v.LABEL_WORDS)
# The kinds that name what a bare number at the other end of a range counts ("10-60%").
_UNIT_KINDS = frozenset({FigureKind.PERCENT, FigureKind.POINTS, FigureKind.MULTIPLIER, FigureKind.MONEY})
_NUMERIC_KINDS = frozenset(
    {FigureKind.NUMBER, FigureKind.PERCENT, FigureKind.POINTS, FigureKind.MONEY, FigureKind.MULTIPLIER, FigureKind.YEAR}
)


class _Reader(Scan):
    # The number, word and range passes over one text, after the dates, periods and versions.
    def accounting(self) -> None:
        for m in () if self.lacks("(") else from_digits(_ACCOUNTING, self.w, _ACCOUNTING_LEAD):
            if not self.free(m.start(), m.end()):
                continue
            if _CONVERSION_BEFORE.search(self.w, max(0, m.start() - 12), m.start()):
                continue  # "71,350 euro ($78,770)": a conversion in brackets, not a negative
            cur, num = (m.group("cur"), m.group("num")) if m.group("num") else (m.group("cur2"), m.group("num2"))
            scale_word = m.group("scale") or m.group("scale2")
            scale = v.SCALE_WORD[scale_word] if scale_word else Decimal(1)
            value = -Decimal(num.replace(",", "")) * scale
            self.add(m.start(), m.end(), FigureKind.MONEY, value=value, precision=precision_of(num) * scale,
                     currency=v.CURRENCY_CODES[cur.strip().rstrip(".") if cur.strip() != "rs." else "rs"],
                     written=num, negative=True, hedge=self.hedge_before(m.start()), scale=scale)  # fmt: skip

    def slashed(self) -> None:
        read_lone_vulgar(self)
        # "2⁄3" ("⅔" normalised) is a share, read before its digits are read as two numbers ("½" is ".50").
        for m in () if self.lacks("\u2044") else from_runs(_FRACTION_DIGITS, self.w, self.runs()):
            if self.free(m.start(), m.end()) and int(m.group(2)):
                share = Decimal(100) * int(m.group(1)) / int(m.group(2))
                self.add(m.start(), m.end(), FigureKind.PERCENT, value=share, precision=Decimal(1), written=m.group(0),
                         hedge=self.hedge_before(m.start()))  # fmt: skip

    def one_in(self) -> None:
        # Each " in " tried with the count before it: a digit or a word of three to five letters.
        pos = self.w.find(" in ")
        while pos >= 0:
            for back in (1, 3, 4, 5):
                m = _ONE_IN.match(self.w, pos - back) if pos >= back else None
                if m is None or not self.free(m.start(), m.end()):
                    continue
                n = int(m.group("n")) if m.group("n").isdigit() else v.UNITS[m.group("n")]
                d = int(m.group("d").replace(",", "")) if m.group("d")[0].isdigit() else _SHARE_WORDS[m.group("d")]
                if n < d:
                    share = Decimal(100) * n / d
                    self.add(m.start(), m.end(), FigureKind.PERCENT, value=share, written=m.group(0),
                             precision=min(Decimal(1), Decimal(1).scaleb(share.adjusted() - 1)),
                             hedge=self.hedge_before(m.start()))  # fmt: skip
                break
            pos = self.w.find(" in ", pos + 1)

    def numbers(self) -> None:
        for m in from_digits(_NUMBER, self.w, _NUMBER_LEAD):
            start, end = m.start(), m.end()
            sign = m.group("sign") or m.group("sign2")
            if m.group("sign") and ((start > 0 and self.w[start - 1] not in " ([:/,;\"'") or self.ends_figure(start)):
                start += 1  # a "-" after a word or a figure joins ("gh-905", "1.0% - 2.0%"); it is no sign
                sign = m.group("sign2")
            if not self.free(start, end):
                continue
            before = self.w[start - 1] if start > 0 else " "
            after = self.w[end] if end < len(self.w) else " "
            glued = _GLUED_UNIT.match(self.w, end) if after.isalpha() and not m.group("pct") else None
            if (before.isalnum() or before in "._") or (after.isalnum() and not after.isupper() and not glued):
                continue  # digits inside a word or a name: "x86", "int64", "10b5"
            if after == "_":
                continue
            num = m.group("num")
            if (
                before == "-"
                and start >= 2
                and self.w[start - 2].isalnum()
                and not self.ends_figure(start - 1)
                and not _TIME_PREFIX.search(self.w, max(0, start - 7), start)
            ):
                # "gh-90564", "COVID-19": the whole name is the label.
                name_start = start - 1
                while name_start > 0 and (self.w[name_start - 1].isalnum() or self.w[name_start - 1] == "-"):
                    name_start -= 1
                if not self.free(name_start, start):
                    name_start = start
                self.add(name_start, end, FigureKind.LABEL, written=num, value=Decimal(num.replace(",", "")))
                continue
            self._number(m, start, end, num, bool(sign), glued.group("unit") if glued else "")

    def _number(self, m: re.Match[str], start: int, end: int, num: str, negative: bool, glued: str = "") -> None:
        value = Decimal(num.replace(",", ""))
        precision = precision_of(num)
        cur = (m.group("cur") or "").strip()
        currency = v.CURRENCY_CODES[cur.rstrip(".") if cur != "rs." else "rs"] if cur else ""
        power = None
        if m.group("pow"):
            exp_text = m.group("pow").lstrip("^*")
            exp = int("".join(str(SUP_MARK.index(c)) for c in exp_text)) if exp_text.isupper() else int(exp_text)
            if "." in num or "," in num:
                self.add(start, end, FigureKind.UNREADABLE, unreadable="a power of a decimal", written=num)
                return
            power = (int(num), exp)
            value = Decimal(int(num)) ** exp
            precision = Decimal(1)
        scale = Decimal(1)
        if m.group("suf") == "mm" and not currency and not glued:
            # "38mm": only money takes "mm" for millions ("$5mm"); a bare one is millimetres.
            glued, end = "mm", m.start("suf")
        if m.group("suf") and not glued:
            if m.group("suf") in ("m", "b") and not currency:
                # "5m" may be metres and "5b" a grade; only money takes these bare suffixes.
                end = m.start("suf")
            else:
                scale = v.SCALE_SUFFIX[m.group("suf")]
        elif m.group("scale"):
            scale = v.SCALE_WORD[m.group("scale")]
        value, precision = value * scale, precision * scale
        kind = FigureKind.MONEY if currency else FigureKind.NUMBER
        if m.group("curafter"):
            # "$7.9 million dollars" keeps its "$"; a bare "71,350 euro" takes the word's currency.
            currency, kind = currency or v.CURRENCY_CODES[m.group("curafter")], FigureKind.MONEY
        elif m.group("pct"):
            kind = FigureKind.PERCENT
        elif m.group("pts"):
            kind = FigureKind.POINTS
        elif m.group("bps"):
            kind, value, precision = FigureKind.POINTS, value / 100, precision / 100
        elif m.group("mult") or m.group("mult2") or m.group("times") or m.group("fold"):
            kind = FigureKind.MULTIPLIER
        elif m.group("ord"):
            kind = FigureKind.ORDINAL
        if negative:
            value = -value
        hedge = self.hedge_before(start)
        standalone = (
            kind in (FigureKind.NUMBER, FigureKind.ORDINAL)
            and "." not in num
            and scale == 1
            and power is None
            and not negative
            and value <= SETTINGS.figures_small_whole_max
        )
        label = _LABEL_RE.search(self.w, max(0, start - 12), start)
        if kind is FigureKind.NUMBER and label and "." not in num:
            kind = FigureKind.LABEL
            if self.free(label.start(), start):
                start = label.start()  # "PEP 632" is marked whole
        elif (
            kind is FigureKind.NUMBER
            and "," not in num
            and "." not in num
            and scale == 1
            and power is None
            and SETTINGS.figures_year_min <= value <= SETTINGS.figures_year_max
            and len(num) == 4
        ):
            kind = FigureKind.YEAR
        unit_match = _UNIT_AFTER.match(self.w, end) if kind in (FigureKind.NUMBER, FigureKind.ORDINAL) else None
        unit = v.UNIT_WORDS[unit_match.group("unit")] if unit_match else era(self.w, start, end)  # "44 BC"
        if glued:
            # "512MB": the unit glued to the number is read as "512 MB" is, and marked with it.
            unit, end = v.UNIT_WORDS.get(glued, glued), end + len(glued)
        # "8 GB", "4km": a number with its unit measures something; "5 years" is still a small
        # count, often a paraphrase of two dates.
        standalone = standalone and (not unit or unit in v.TIME_UNITS)
        self.add(start, end, kind, value=value, precision=precision, currency=currency, hedge=hedge, written=num,
                 power=power, standalone=standalone, negative=negative, scale=scale, unit=unit)  # fmt: skip

    def words(self) -> None:
        # A fraction first: "two thirds of" is a share, not the word "two" (a small number alone, then dropped).
        for m in () if self.lacks(*FRACTION_NEEDLES) else _FRACTION.finditer(self.w):
            if not self.free(m.start(), m.end()):
                continue
            count = FRACTION_COUNTS.get(m.group("count") or "", 1)
            share = v.FRACTION_WORDS[m.group("frac") or m.group("half")] * count
            self.add(m.start(), m.end(), FigureKind.PERCENT, value=share, precision=Decimal(1),
                     hedge=self.hedge_before(m.start()), written=m.group(0))  # fmt: skip
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
                rest = v.TENS.get(m.group("htens") or "", 0) + v.UNITS.get(m.group("htu") or m.group("hunit") or "", 0)
                n, precision = n * 100 + rest, Decimal(1) if rest else Decimal(100)
            value, scale = Decimal(n), v.SCALE_WORD.get(m.group("scale") or "", Decimal(1))
            if m.group("andhalf"):  # "four-and-a-half out of four stars" is 4.5
                value, precision = value + Decimal("0.5"), Decimal("0.1")
            value, precision = value * scale, precision * scale
            kind = FigureKind.NUMBER
            if m.group("pct"):
                kind = FigureKind.PERCENT
            elif m.group("times"):
                kind = FigureKind.MULTIPLIER
            small = kind is FigureKind.NUMBER and value <= SETTINGS.figures_small_whole_max and not m.group("andhalf")
            self.add(m.start(), m.end(), kind, value=value, precision=precision, standalone=small, scale=scale,
                     hedge=self.hedge_before(m.start()), written=m.group(0))  # fmt: skip
        for m in () if self.lacks(*MULTIPLIER_NEEDLES) else _MULT_WORD.finditer(self.w):
            if self.free(m.start(), m.end()):
                word = m.group(1) or m.group(2) or m.group(3)
                self.add(m.start(), m.end(), FigureKind.MULTIPLIER, value=Decimal(v.MULTIPLIER_WORDS[word]),
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
        (wa_start, wa_end), (wb_start, wb_end) = self.wspans[id(a)], self.wspans[id(b)]
        gap = self.w[wa_end:wb_start]
        if not _RANGE_GAP.fullmatch(gap):
            return None
        if gap.strip() == "and" and a.hedge != "between":
            return None
        if (
            a.kind is FigureKind.YEAR
            and b.kind is FigureKind.NUMBER
            and b.value is not None
            and len(b.written) == 2
            and gap.strip() == "-"
        ):
            # "2018-19" is the years 2018 to 2019: the second end is written with its last two digits only.
            year = a.value - a.value % 100 + b.value
            if year > a.value:  # "2018-17" is no range of years
                b = replace(b, kind=FigureKind.YEAR, value=year, written=str(year))
        kind, currency, low, precision = a.kind, a.currency or b.currency, a.value, a.precision
        if kind is FigureKind.NUMBER and b.kind in _UNIT_KINDS:
            kind = b.kind
        if kind is FigureKind.NUMBER and currency:
            kind = FigureKind.MONEY
        if (
            kind != b.kind
            and not (kind is FigureKind.YEAR and b.kind is FigureKind.NUMBER)
            and not (kind is FigureKind.MONEY and b.kind is FigureKind.NUMBER)
        ):
            return None  # "$3.4-3.6 billion": the second end's missing "$" is the first end's
        if a.scale == 1 and b.scale > 1:
            # "$5.0 - $5.2 billion": the first end takes the scale the second end names.
            low, precision = low * b.scale, precision * b.scale
        if b.value is None or low > b.value:
            return None
        ostart, oend = a.start, b.end
        merged = replace(a, text=self.text[ostart:oend], kind=kind, start=ostart, end=oend, value=low, high=b.value,
                         precision=min(precision, b.precision), currency=currency, standalone=False, unit=b.unit,
                         written=a.written + "-" + b.written)  # fmt: skip
        self.wspans[id(merged)] = (wa_start, wb_end)
        return merged

    def run(self) -> tuple[ReadFigure, ...]:
        read_forms(self)
        self.accounting()
        self.slashed()
        self.one_in()
        self.numbers()
        self.words()
        # "one", "two" are words first: a small number word is read only as the end of a range.
        return tuple(f for f in self.ranges() if not (f.standalone and f.written.isalpha()))


@functools.lru_cache(maxsize=16)
def _read_cached(text: str, decimal_comma: bool) -> tuple[ReadFigure, ...]:
    return _Reader(text, decimal_comma).run()


def read_figures(text: str, decimal_comma: bool = False) -> list[ReadFigure]:
    """Return every figure in the text, in text order, with spans in the original text (never raises).

    ``decimal_comma``: the text is in a language that writes "2,5" for 2.5 and "5.500" for 5500
    (``core.figures.locale.writes_decimal_comma`` of the page it comes from).
    """
    return list(_read_cached(text, decimal_comma))


def power_written_flat(fig: ReadFigure) -> str:
    """Return how a power figure reads once its superscript is lost ("10⁸" -> "108"), else ""."""
    if fig.power is None:
        return ""
    return f"{fig.power[0]}{fig.power[1]}"


__all__ = ["ReadFigure", "power_written_flat", "read_figures"]
