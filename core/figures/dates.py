"""Reading figures of a fixed form: times, dates, periods, versions and scores.

Dates in their common orders ("October 24, 2022", "24 October 2022", "2022-10-24"), months
("January 2024"), days without a year (held by that day in any year), period labels ("Q1",
"first quarter", "2Q23", "H2", "FY27", "fiscal 2027"), versions ("3.12", "v3.9.0", "since
3.8", "Python 3.10 and 3.11") and scores or records ("won 3-1", "a 16-0 record"). Each pass adds
to a ``core.figures.scan.Scan`` (``read_forms`` runs them in order, before any count); a slash
date that could be read either way round, or "1.2.3.4", is added as unreadable. This module
reads; it refuses to compare.
"""

from __future__ import annotations

import re
from decimal import Decimal

from core.figures import vocab as v
from core.figures.scan import SETTINGS, Scan, century, from_runs
from core.models import FigureKind

_ISO_DATE = re.compile(r"(?<![\d.-])(\d{4})-(\d{2})-(\d{2})(?![\d])")
_SLASH_DATE = re.compile(r"(?<![\d./])(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})(?![\d/])")
_SLASH_NUMBER = re.compile(r"(?<![\d./])(\d{1,4})/(\d{1,4})(?![\d/])")
# "December 10 , 1986": a space before the comma (text split into tokens) still writes one date.
_MDY = re.compile(r"(?<![a-z])(" + v.MONTH + r")\.?\s(\d{1,2})(?:st|nd|rd|th)?(?:\s?,)?\s(\d{4})(?![\d])")
_DMY = re.compile(r"(?<![\d.])(\d{1,2})(?:st|nd|rd|th)?\s(?:of\s)?(" + v.MONTH + r")\.?(?:\s?,)?\s(\d{4})(?![\d])")
# "As of June,2018": a comma without its space still joins a month to its year.
_MY = re.compile(r"(?<![a-z])(" + v.MONTH + r")\.?(?:\s?,\s?|\s)(?:of\s)?(\d{4})(?![\d])")
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
# "FY2023-24" (India's fiscal year, April to March) is the fiscal year that ends in 2024: FY24.
_FY = re.compile(r"(?<![a-z])(?:fy|fiscal(?:\syear)?)\s?'?(?P<y>\d{4}|\d{2})(?:-(?P<y2>\d{4}|\d{2}))?(?!\d|\.\d)")
# A decade: "the 1980s", "1990's", "the mid-1990s", "the '80s" (its century unread, kept as 80).
# A year with an "s" that ends in no 0 ("the 1991s") is no decade: it is read as its year.
_DECADE = re.compile(r"(?<![\w'.,])(?:(?P<y4>1\d{3}|20\d\d)'?|'(?P<y2>\d0))s(?![a-z0-9])")
_DECADE_NEEDLE = re.compile(r"\d'?s(?![a-z])")
# A decade after a word of time ("before the 1990s", "since the 1980s", "between the 1970s and 1980s")
# bounds a span of time: it is not read as the decade itself.
_DECADE_BOUND = re.compile(
    r"(?<![a-z])(?:before|after|since|until|till|by|prior to|from|between|through|into|beyond|pre|post)[\s-]"
)
_DOTTED = re.compile(r"(?<![\w.])\d+(?:\.\d+){2,}(?![\w]|\.\d)")
# A number with a percent sign after it, glued or spaced ("the PlayStation 4 version 75.43 %"), is no version.
_NOT_VERSION_AFTER = r"(?![\w%]|\.\d|\s?(?:%|percent|per cent)(?![a-z]))"
_VERSION_AFTER_WORD = re.compile(r"(?<![\w.])\d+(?:\.\d+)?" + _NOT_VERSION_AFTER)
_VERSION_V = re.compile(r"v(?<![a-z]v)(\d+(?:\.\d+)+)(?![\w]|\.\d)")  # its look behind after the "v": searched fast
_VERSION_CHAIN = re.compile(
    r"(?:\s?,\s?(?:and\s|or\s)?|\s(?:and|or|to|through)\s|-)(\d+\.\d+(?:\.\d+)?)" + _NOT_VERSION_AFTER
)
_VERSION_WORD_RE = re.compile(v.VERSION_WORDS)
# What each pass cannot match without (``Scan.lacks``): a month's name, a quarter or half, a version word.
_ANY_MONTH = re.compile(v.MONTH)
_Q_OR_H = re.compile(r"[qh][1-4]|[1-4][qh]")
# A version after a word needs the word right before its digits ("python 3", "v 2"), wherever it stands.
# (A pattern of another form gives the empty needle, found in any text: the pass is never skipped.)
_VW = v.VERSION_WORDS
_VERSION_NEEDLE = re.compile(
    _VW.removeprefix("(?<![a-z])").removesuffix("$") + r"\d"
    if _VW.startswith("(?<![a-z])") and _VW.endswith(r"\s?$")
    else ""
)


# A time of day: "11:59 pm", "3:25 p.m.", "11.59 p.m", "8 pm", "7pm"; "11:30" with a colon alone.
_TIME = re.compile(
    r"(?<![\d.,:])(?:(?P<h>\d{1,2})[:.](?P<m>\d{2})\s?(?P<ap>[ap])\.?m\b\.?|(?P<h2>\d{1,2}):(?P<m2>\d{2})(?![\d:])"
    r"|(?P<h3>\d{1,2})\s?(?P<ap3>[ap])(?:\.m\.?|m)(?![a-z]))"
)


def read_times(scan: Scan) -> None:
    """Read times of day ("11:59 pm", "3:25 p.m."), so that their digits are not read as counts.

    ``date`` holds (0, hour, minute) on a 24-hour clock, and ``parts`` ("am"/"pm") how it was written,
    () for a time with a colon and no "am" or "pm" ("11:30"), which may be either.
    """
    for m in from_runs(_TIME, scan.w, scan.runs()):
        hour = int(m.group("h") or m.group("h2") or m.group("h3"))
        minute = int(m.group("m") or m.group("m2") or 0)
        half = m.group("ap") or m.group("ap3") or ""
        if not scan.free(m.start(), m.end()) or hour > (12 if half else 23) or minute > 59:
            continue
        hour24 = hour % 12 + (12 if half == "p" else 0) if half else hour
        scan.add(m.start(), m.end(), FigureKind.TIME, written=m.group(0), date=(0, hour24, minute),
                 parts=(half + "m",) if half else (), hedge=scan.hedge_before(m.start()))  # fmt: skip


def read_dates(scan: Scan) -> None:
    """Read ISO, slash and written dates, months and days of months."""
    for m in () if scan.lacks("-") else from_runs(_ISO_DATE, scan.w, scan.runs()):
        y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if 1 <= mo <= 12 and 1 <= d <= 31:
            scan.add(m.start(), m.end(), FigureKind.DATE, date=(y, mo, d), written=m.group(0),
                     hedge=_time_hedge(scan, m.start()))  # fmt: skip
    if scan.lacks("/"):
        return _written_dates(scan)
    for m in from_runs(_SLASH_DATE, scan.w, scan.runs()):
        if not scan.free(m.start(), m.end()):
            continue
        a, b, y = int(m.group(1)), int(m.group(2)), century(m.group(3))
        if a > 12 and 1 <= b <= 12 and a <= 31:
            scan.add(m.start(), m.end(), FigureKind.DATE, date=(y, b, a), written=m.group(0))
        elif b > 12 and 1 <= a <= 12 and b <= 31:
            scan.add(m.start(), m.end(), FigureKind.DATE, date=(y, a, b), written=m.group(0))
        else:
            why = "day and month could be either way round"
            scan.add(m.start(), m.end(), FigureKind.UNREADABLE, unreadable=why, written=m.group(0))
    for m in from_runs(_SLASH_NUMBER, scan.w, scan.runs()):
        if scan.free(m.start(), m.end()):
            why = "a number written with a slash may be a ratio, a fraction, a date or a name"
            scan.add(m.start(), m.end(), FigureKind.UNREADABLE, unreadable=why, written=m.group(0))
    _written_dates(scan)


def _written_dates(scan: Scan) -> None:
    """Read dates, months and days written with a month's name."""
    if scan.lacks(_ANY_MONTH):
        return
    for rx, order in ((_MDY, "mdy"), (_DMY, "dmy"), (_MY, "my"), (_MD, "md"), (_DM, "dm")):
        led = rx is _DMY or rx is _DM  # led by the day's digits
        for m in from_runs(rx, scan.w, scan.runs()) if led else rx.finditer(scan.w):
            if not scan.free(m.start(), m.end()):
                continue
            g = m.groups()
            month = 1 if order in ("dmy", "dm") else 0
            if g[month] == "may" and not _capital(scan, m.start(month + 1), m.end(month + 1)):
                continue  # "COVID-19 may be spread": the verb, which no writer capitalises as the month
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
            kind = FigureKind.DATE if y and d else FigureKind.MONTH if y else FigureKind.PARTIAL_DATE
            scan.add(m.start(), m.end(), kind, date=(y, mo, d), written=m.group(0), hedge=_time_hedge(scan, m.start()))


def _capital(scan: Scan, start: int, end: int) -> bool:
    """Return True when the original text writes the working text's span with a capital first letter."""
    ostart, oend = scan.span(start, end)
    return scan.text[ostart:oend][:1].isupper()


# A bound in time over "the" ("after the 6th of June 1967"), and "by" before a date ("by February 2009").
_TIME_HEDGE = re.compile(r"(?<![a-z])(before|after|prior to|preceding|earlier than|later than|by)\s(?:the\s)?$")


def _time_hedge(scan: Scan, start: int) -> str:
    """Return the word before a date that makes it a bound in time ("before", "after", "by"), or ""."""
    hedge = scan.hedge_before(start)
    if hedge in v.TIME_HEDGES:
        return hedge
    m = _TIME_HEDGE.search(scan.w, max(0, start - 20), start)
    return m.group(1) if m else ""


def read_periods(scan: Scan) -> None:
    """Read quarters, halves, fiscal years and decades ("Q1", "second quarter of 2023", "FY27", "the 1980s")."""
    for m in () if scan.lacks("quarter", "half") else _ORD_PERIOD.finditer(scan.w):
        if not scan.free(m.start(), m.end()):
            continue
        label = "Q" if m.group("what") == "quarter" else "H"
        n = v.ORDINAL_WORDS[m.group("ord")]
        if label == "H" and n > 2:
            continue
        year_text = m.group("y1") or m.group("y2") or ""
        _period(scan, m.start(), m.end(), label, n, year_text, bool(m.group("fy")))
    for rx in () if scan.lacks(_Q_OR_H) else (_Q_PERIOD, _NQ_PERIOD):
        for m in rx.finditer(scan.w):
            if not scan.free(m.start(), m.end()):
                continue
            label = m.group("what").upper()
            n = int(m.group("n"))
            if label == "H" and n > 2:
                continue
            fiscal = "fy" in m.groupdict() and m.group("fy") == "fy"
            _period(scan, m.start(), m.end(), label, n, m.group("y1") or m.group("y2") or "", fiscal)
    for m in () if scan.lacks("fy", "fiscal") else _FY.finditer(scan.w):
        if not scan.free(m.start(), m.end()):
            continue
        y, y2 = m.group("y"), m.group("y2")
        if y2 is None:
            _period(scan, m.start(), m.end(), "FY", 0, y, True)
        elif (century(y) + 1) % 100 == int(y2) % 100:
            scan.add(m.start(), m.end(), FigureKind.PERIOD, period=("FY", 0, century(y) + 1, True),
                     written=scan.w[m.start() : m.end()])  # fmt: skip
        else:
            _period(scan, m.start(), m.start() + len(m.group()) - len(y2) - 1, "FY", 0, y, True)
    read_decades(scan)


# "½", "¼", "¾" with no whole number before them, as a share ("½ of the residents" = "half of"): the
# working text writes them ".50", ".25", ".75" (``scan``), so the original text tells them from "$.50".
_LONE_VULGAR = re.compile(r"(?<![\d.,])\.(50|25|75)(?=\s(?:of|the|as|more|less|fewer|[a-z]+er)(?![a-z]))")
_VULGAR_WRITTEN = frozenset({"½", "¼", "¾", "1⁄2", "1⁄4", "3⁄4"})


def read_lone_vulgar(scan: Scan) -> None:
    """Read a vulgar fraction alone before "of" as the share it writes ("½ of the residents" = 50%)."""
    for m in () if scan.lacks(".50 ", ".25 ", ".75 ") else _LONE_VULGAR.finditer(scan.w):
        ostart, oend = scan.span(m.start(), m.end())
        if scan.free(m.start(), m.end()) and scan.text[ostart:oend] in _VULGAR_WRITTEN:
            scan.add(m.start(), m.end(), FigureKind.PERCENT, value=Decimal(m.group(1)), precision=Decimal(1),
                     written=m.group(0), hedge=scan.hedge_before(m.start()))  # fmt: skip


def read_decades(scan: Scan) -> None:
    """Read decades as periods of ten years ("the 1980s": ("decade", 0, 1980, False)), none that bounds a span."""
    for m in () if scan.lacks(_DECADE_NEEDLE) else _DECADE.finditer(scan.w):
        if scan.free(m.start(), m.end()) and not _DECADE_BOUND.search(scan.w, max(0, m.start() - 40), m.start()):
            year = int(m.group("y4") or m.group("y2"))
            if year % 10:
                scan.add(m.start(), m.end(), FigureKind.YEAR, value=Decimal(year), written=m.group("y4"))
            else:
                scan.add(m.start(), m.end(), FigureKind.PERIOD, period=("decade", 0, year, False), written=m.group(0))


def _period(scan: Scan, start: int, end: int, label: str, n: int, year_text: str, fiscal: bool) -> None:
    year = century(year_text) if year_text else 0
    scan.add(start, end, FigureKind.PERIOD, period=(label, n, year, fiscal), written=scan.w[start:end])


def read_versions(scan: Scan) -> None:
    """Read versions: dotted ("3.9.0"), after a word ("Python 3.12", "since 3.8"), and their lists."""
    for m in from_runs(_DOTTED, scan.w, scan.runs()):
        parts = tuple(m.group(0).split("."))
        if len(parts) > SETTINGS.figures_version_max_parts:
            why = f"{len(parts)} dot-separated parts read like an address or a section number, not a figure"
            scan.add(m.start(), m.end(), FigureKind.UNREADABLE, unreadable=why, written=m.group(0))
        else:
            scan.add(m.start(), m.end(), FigureKind.VERSION, parts=parts, written=m.group(0))
    for m in _VERSION_V.finditer(scan.w):
        if scan.free(m.start(), m.end()):
            scan.add(m.start(), m.end(), FigureKind.VERSION, parts=tuple(m.group(1).split(".")), written=m.group(1))
    for m in () if scan.lacks(_VERSION_NEEDLE) else from_runs(_VERSION_AFTER_WORD, scan.w, scan.runs()):
        if not scan.free(m.start(), m.end()) or not _VERSION_WORD_RE.search(scan.w, max(0, m.start() - 12), m.start()):
            continue
        word = _VERSION_WORD_RE.search(scan.w, max(0, m.start() - 12), m.start())
        # "since 2008" is a year and "since 3" a count: only decimals follow since/until.
        if word and word.group(0).strip() in ("since", "until", "through") and "." not in m.group(0):
            continue
        scan.add(m.start(), m.end(), FigureKind.VERSION, parts=tuple(m.group(0).split(".")), written=m.group(0))
        end = m.end()
        while (c := _VERSION_CHAIN.match(scan.w, end)) and scan.free(c.start(1), c.end(1)):
            scan.add(c.start(1), c.end(1), FigureKind.VERSION, parts=tuple(c.group(1).split(".")), written=c.group(1))
            end = c.end()


# A score or a win-loss record: two whole numbers of a dash, the first no smaller ("won 3-1", "a 29–13 win", "a 1-1
# draw", "a 16-0 record"). Counting up ("ages 25-64", "weeks 5-17") is a range; a chain ("1-2-3") or decimals none.
_SCORE = re.compile(r"(?<![\w.,$€£¥₹%/:-])(\d{1,3}) ?[-–—] ?(\d{1,3})(?![\w%/:-]|[.,]\d| ?(?:%|percent|per cent))")


def read_scores(scan: Scan) -> None:
    """Read scores and records, so that "3-1" is one figure of two numbers, not two small counts left unjudged."""
    for m in () if scan.lacks("-", "–", "—") else from_runs(_SCORE, scan.w, scan.runs()):
        a, b = int(m.group(1)), int(m.group(2))
        if a >= b and scan.free(m.start(), m.end()):
            scan.add(m.start(), m.end(), FigureKind.SCORE, value=Decimal(a), high=Decimal(b), written=f"{a}-{b}")


def read_forms(scan: Scan) -> None:
    """Read the figures of a fixed form, before any count: times, dates, periods, versions, then scores."""
    read_times(scan)
    read_dates(scan)
    read_periods(scan)
    read_versions(scan)
    read_scores(scan)
