"""Quality of the figures check on real quotes: no false alarms on honest restatements, every wrong figure flagged.

Quotes are real sentences holding figures, from the gold text of the Kroger Q2 2023 press
release and the Alphabet 2022 annual report, and from python.org pages (What's New 3.11-3.13
and a few PEPs). From each quote, claims are made by replacing ONE figure of the quote:

* equivalent restatements, which must give no missing figure at all (a false alarm otherwise):
  ``525,000`` -> ``525k`` / ``525 thousand``; ``$1,400 million`` <-> ``$1.4bn``; ``24.6%`` ->
  ``about 25%``; ``%`` -> ``percent`` / ``per cent``; ``1.31`` -> ``1.3``; dates reordered;
  ``second quarter`` <-> ``Q2``; ``fiscal 2027`` -> ``FY27``; ``$`` -> ``US$``; ``1.25x`` ->
  ``1.25 times``; ``($479)`` -> ``-$479``; ``35 basis points`` -> ``0.35 percentage points``;
  ranges as ``between A and B``.
* wrong claims, whose replaced figure must be reported missing: a changed digit (the leading
  significant digit moved by two, beyond any hedge's rounding step), a wrong scale (million <->
  billion), a wrong year, a wrong quarter or half, a wrong currency.

Generation is deterministic (files, sentences and figures in order). ``evaluate()`` also writes
tests/quality/figures_misses.txt with every false alarm and every unflagged wrong figure.
"""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from collections.abc import Iterator
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import lxml.html

from core.figures import ReadFigure, check_figures, read_figures
from core.figures.locale import writes_decimal_comma
from core.models import FigureStatus
from core.text.normalise import normalise
from tests.servers import CORPUS

HERE = Path(__file__).resolve().parent
MISSES = HERE / "figures_misses.txt"
PAGES = (
    "pdf/gold/kroger-press-release-2023.pdf.txt",
    "pdf/gold/2022-alphabet-annual-report-56-59.pdf.txt",
    "html/python/whatsnew/3.11.html",
    "html/python/whatsnew/3.12.html",
    "html/python/whatsnew/3.13.html",
    "html/python/peps/pep-0602.html",
    "html/python/peps/pep-0632.html",
    "html/python/peps/pep-0693.html",
    "html/python/peps/pep-0703.html",
    "html/python/peps/pep-0709.html",
    "html/python/peps/pep-0719.html",
    "html/python/peps/pep-0738.html",
    "html/python/peps/pep-0744.html",
    "html/python/peps/pep-0779.html",
    "html/aeb/ground-truth.json",  # 181 news articles' human-written text: money, dates, percentages
)
#: What this evaluation reads, relative to the corpus (tests/quality/corpus.py digests it).
CORPUS_FILES = PAGES
CHECKED = frozenset(
    {"number", "percent", "points", "money", "multiplier", "ordinal", "year", "date", "month", "period", "time"}
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(“\"])")
ORDINALS = ("first", "second", "third", "fourth")


def blocks(relative: str) -> list[str]:
    """Return the text blocks of a corpus page: paragraphs and list items (HTML) or lines (gold text, JSON)."""
    path = CORPUS / relative
    if relative.endswith(".json"):
        bodies = [str(item.get("articleBody", "")) for item in json.loads(path.read_text(encoding="utf-8")).values()]
        return [line.strip() for body in bodies for line in body.splitlines()]
    if relative.endswith(".html"):
        # The bytes are read here, not by lxml from the file name, so that corpus.watch() sees the read.
        root = lxml.html.parse(io.BytesIO(path.read_bytes())).getroot()
        return [" ".join(el.text_content().split()) for el in root.iter("p", "li", "td", "dd")]
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]


def quotes() -> Iterator[tuple[str, str]]:
    """Yield (page, sentence) for every distinct sentence of 6-60 words holding a checked figure."""
    seen: set[str] = set()
    for page in PAGES:
        for block in blocks(page):
            for sentence in _SENTENCE.split(block):
                words = len(sentence.split())
                if sentence in seen or not 6 <= words <= 60 or not re.search(r"\d", sentence):
                    continue
                seen.add(sentence)
                if any(usable(f) for f in figures_of(sentence)):
                    yield page, sentence


def figures_of(text: str) -> list[ReadFigure]:
    """Return a text's figures read as check_figures reads a quote with no page: in the text's own language."""
    return read_figures(text, writes_decimal_comma(text))


def usable(f: ReadFigure) -> bool:
    """Return True for a figure the check compares (not skipped by rule)."""
    return f.kind in CHECKED and not f.standalone and f.power is None


# --------------------------------------------------------------------------- writing figures


def plain(value: Decimal) -> str:
    """Return a value written plainly with grouping commas: 15000 -> "15,000", 1.50 -> "1.5"."""
    text = f"{value.normalize():f}"
    whole, _, frac = text.partition(".")
    sign = "-" if whole.startswith("-") else ""
    whole = f"{int(whole.lstrip('-')):,}"
    return sign + whole + ("." + frac if frac else "")


def rounded(value: Decimal, places: int) -> Decimal:
    return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def currency_mark(f: ReadFigure) -> str:
    m = re.match(r"\(?\s*(US\$|HK\$|A\$|C\$|\$|€|£|₹|¥|Rs\.?\s?|INR\s?|USD\s?|EUR\s?|GBP\s?)", f.text, re.IGNORECASE)
    return m.group(1) if m else ""


def equivalents(f: ReadFigure) -> list[tuple[str, str]]:
    """Return (how, text) restatements of a figure that say the same thing."""
    out: list[tuple[str, str]] = []
    t, value = f.text, f.value
    if f.kind in ("number", "money") and value is not None and not f.is_range:
        mark = currency_mark(f)
        if f.kind == "money" and mark.strip() == "$":
            out.append(("currency code", t.replace(mark, "US$", 1)))
        sign = "-" if f.negative else ""
        magnitude = abs(value)
        if f.negative and t.startswith("("):
            scale_word = re.search(r"\)\s(\w+)$", t)
            out.append(
                (
                    "accounting negative",
                    f"-{mark}{plain(magnitude / (f.scale or 1))}" + (f" {scale_word.group(1)}" if scale_word else ""),
                )
            )
        if magnitude >= 1000 and magnitude % 1000 == 0:
            out.append(("thousands", f"{sign}{mark}{plain(magnitude / 1000)}k"))
            out.append(("thousands", f"{sign}{mark}{plain(magnitude / 1000)} thousand"))
        if magnitude >= 10**9 and f.kind == "money":
            out.append(("billions as millions", f"{sign}{mark}{plain(magnitude / 10**6)} million"))
            out.append(("bn suffix", f"{sign}{mark}{plain(magnitude / 10**9)}bn"))
        elif magnitude >= 10**6 and f.kind == "money":
            out.append(("m suffix", f"{sign}{mark}{plain(magnitude / 10**6)}m"))
            if magnitude >= 10**8:
                out.append(("millions as billions", f"{sign}{mark}{plain(magnitude / 10**9)} billion"))
        if "." in f.written and len(f.written.split(".")[1]) >= 2 and f.scale == 1:
            places = len(f.written.split(".")[1]) - 1
            shorter = rounded(Decimal(f.written.replace(",", "")), places)
            out.append(("rounded", t.replace(f.written, f"{shorter:,}", 1)))
    elif f.kind == "percent" and value is not None:
        if "%" in t:
            out.append(("percent word", t.replace("%", " percent")))
            out.append(("per cent", t.replace("%", " per cent")))
        if not f.is_range and "." in f.written and "%" in t and not f.hedge:
            out.append(("about, rounded", f"about {rounded(value, 0)}%"))
        if f.is_range and f.high is not None and not f.hedge:
            out.append(("between", f"between {plain(value)} and {plain(f.high)} percent"))
    elif f.kind == "points" and "basis point" in t.lower():
        out.append(("basis points as points", f"{plain(f.value or Decimal(0))} percentage points"))
    elif f.kind == "multiplier" and re.fullmatch(r"[\d.]+x", t):
        out.append(("times", t[:-1] + " times"))
    elif f.kind == "date":
        y, m, d = f.date
        month = ("", "January", "February", "March", "April", "May", "June", "July", "August", "September",
                 "October", "November", "December")[m]  # fmt: skip
        out.append(("date reordered", f"{d} {month} {y}" if t[:1].isalpha() else f"{month} {d}, {y}"))
    elif f.kind == "period":
        label, n, year, fiscal = f.period
        if label == "Q" and n:
            words = re.match(r"(?i)(first|second|third|fourth|1st|2nd|3rd|4th)", t)
            new = f"Q{n}" if words else f"{ORDINALS[n - 1]} quarter"
            out.append(("quarter label", new + (f" {year}" if year and not fiscal else "")))
        elif label == "FY" and year:
            out.append(("fiscal label", f"FY{year % 100:02d}" if t.lower().startswith("fiscal") else f"fiscal {year}"))
    return [(how, text) for how, text in out if text != t]


def _bump_digit(text: str, start: int = 0) -> str:
    """Return text with its first significant digit (from start) moved by two: beyond any hedge's step."""
    for i in range(start, len(text)):
        if text[i] in "123456789":
            digit = int(text[i])
            return text[:i] + str(digit + 2 if digit <= 7 else digit - 2) + text[i + 1 :]
    return text


def near_other_number(text: str, quote: str) -> bool:
    """Return True when a number of the quote lies within a hedge's reach of the changed figure.

    Written independently of core.figures.compare, and cruder on purpose: the precision is the place of
    the last digit written, trailing zeros included as rounding; 1.5 of it either side is the
    most any hedge allows. Such a change is not wrong by the rules, so it is left out.
    """
    m = re.search(r"\d[\d,]*(?:\.\d+)?", text)
    if not m:
        return False
    digits = m.group(0).replace(",", "")
    value = Decimal(digits)
    if "." in digits:
        place = Decimal(1).scaleb(-len(digits.split(".")[1]))
    else:
        place = Decimal(1).scaleb(len(digits) - len(digits.rstrip("0")))
    for q in re.findall(r"\d[\d,]*(?:\.\d+)?", quote):
        other = Decimal(q.replace(",", "").rstrip("."))
        if abs(other - value) <= place * Decimal("1.5"):
            return True
    return False


def wrongs(f: ReadFigure) -> list[tuple[str, str]]:
    """Return (how, text) changes of a figure that make it wrong."""
    out: list[tuple[str, str]] = []
    t = f.text
    if f.kind in ("number", "money", "percent", "points", "multiplier", "ordinal", "time"):
        # A range keeps its order: the high end changes ("1-3%" -> "1-5%").
        gap = re.search(r"\d\s?(?:-|–|—|to|and)\s?\D{0,2}(?=\d)", t) if f.is_range else None
        changed = _bump_digit(t, gap.end() if gap else 0)
        if gap and not any(g.is_range for g in read_figures(changed)):
            changed = _bump_digit(t)  # moving the high end below the low one would break the range
        out.append(("changed digit", changed))
        for a, b in (("million", "billion"), ("billion", "million"), ("thousand", "million"), ("bn", "mn")):
            if re.search(rf"\b{a}\b|\d{a}\b", t):
                out.append(("wrong scale", re.sub(rf"(?<=[\d ]){a}\b", b, t, count=1)))
                break
        mark = currency_mark(f)
        if f.kind == "money" and mark:
            other = "€" if "$" in mark or "USD" in mark.upper() else "$"
            out.append(("wrong currency", t.replace(mark.strip(), other, 1)))
    if f.kind in ("year", "date", "month") or (f.kind == "period" and f.period[2]):
        years = list(re.finditer(r"(?<!\d)(\d{4}|(?<=[qhy'])\d{2})(?!\d)", t, re.IGNORECASE))
        year = years[-1] if years else None  # the later end of a year range
        if year:
            old = year.group(1)
            new = str(int(old) + 1).zfill(len(old))
            out.append(("wrong year", t[: year.start(1)] + new + t[year.end(1) :]))
    if f.kind == "date":
        d = f.date[2]
        day = re.search(rf"(?<!\d){d}(?!\d)", t)
        if day and d <= 26:
            out.append(("changed digit", t[: day.start()] + str(d + 2) + t[day.end() :]))
    if f.kind == "period" and f.period[0] in ("Q", "H") and f.period[1]:
        label, n = f.period[0], f.period[1]
        other = n % (4 if label == "Q" else 2) + 1
        words = {1: "first", 2: "second", 3: "third", 4: "fourth"}
        numbered = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}
        new = re.sub(rf"(?i)\b{words[n]}\b", words[other], t, count=1)
        new = re.sub(rf"(?i)\b{numbered[n]}\b", numbered[other], new, count=1)
        new = re.sub(rf"(?i)(?<=[qh]){n}|{n}(?=[qh])", str(other), new, count=1)
        out.append(("wrong quarter" if label == "Q" else "wrong half", new))
    if f.kind == "version" and f.parts:
        out.append(("changed digit", ".".join((*f.parts[:-1], str(int(f.parts[-1]) + 1)))))
    return [(how, text) for how, text in out if text != t]


# --------------------------------------------------------------------------- the evaluation


def flat(text: str) -> str:
    return normalise(text).text


def evaluate() -> dict[str, float | int]:
    """Return the false-alarm and flagged counts and rates; write figures_misses.txt."""
    equivalent = wrong = false_alarms = flagged = discarded = 0
    by_how: Counter[str] = Counter()
    missed_by_how: Counter[str] = Counter()
    alarms_by_how: Counter[str] = Counter()
    lines: list[str] = []
    n_quotes = 0
    for page, quote in quotes():
        n_quotes += 1
        for f in figures_of(quote):
            if not usable(f) and f.kind != "version":
                continue
            for how, text in equivalents(f) if usable(f) else []:
                claim = quote[: f.start] + text + quote[f.end :]
                equivalent += 1
                by_how["equivalent: " + how] += 1
                check = check_figures(claim, quote)
                if check.missing:
                    false_alarms += 1
                    alarms_by_how[how] += 1
                    lines.append(f"FALSE ALARM [{how}] {page}\n  quote: {quote}\n  claim: {claim}\n  "
                                 + "\n  ".join(f"{m.text}: {m.reason}" for m in check.missing))  # fmt: skip
            for how, text in wrongs(f):  # one figure changed at a time
                claim = quote[: f.start] + text + quote[f.end :]
                in_quote = re.search(rf"(?<![\w.]){re.escape(flat(text))}(?![\w]|\.\d)", flat(quote))
                if in_quote or (how == "changed digit" and f.kind != "version" and near_other_number(text, quote)):
                    # The changed figure is in the quote anyway ("3.10" -> "3.11" beside "Python 3.11").
                    discarded += 1
                    continue
                wrong += 1
                by_how["wrong: " + how] += 1
                check = check_figures(claim, quote)
                changed = [
                    g for g in check.figures if g.span and g.span[0] < f.start + len(text) and g.span[1] > f.start
                ]
                if any(g.status is FigureStatus.MISSING for g in changed):
                    flagged += 1
                else:
                    missed_by_how[how] += 1
                    got = "; ".join(f"{g.text}: {g.status.value} {g.quote_text}" for g in changed) or "no figure read"
                    lines.append(f"NOT FLAGGED [{how}] {page}\n  quote: {quote}\n  claim: {claim}\n  {got}")
        # Every figure restated at once: the restatements must not trip over one another.
        edits = [(f, equivalents(f)[0][1]) for f in figures_of(quote) if usable(f) and equivalents(f)]
        if len(edits) > 1:
            claim = quote
            for f, text in sorted(edits, key=lambda e: -e[0].start):
                claim = claim[: f.start] + text + claim[f.end :]
            equivalent += 1
            by_how["equivalent: all figures at once"] += 1
            check = check_figures(claim, quote)
            if check.missing:
                false_alarms += 1
                lines.append(f"FALSE ALARM [all figures at once] {page}\n  quote: {quote}\n  claim: {claim}\n  "
                             + "\n  ".join(f"{m.text}: {m.reason}" for m in check.missing))  # fmt: skip
    MISSES.write_text(
        f"# Figures eval misses: {false_alarms} false alarms, {wrong - flagged} wrong figures not flagged\n\n"
        + "\n\n".join(lines)
        + "\n",
        encoding="utf-8",
    )
    result: dict[str, float | int] = {
        "quotes_count": n_quotes,
        "equivalent_claims_count": equivalent,
        "false_alarm_count": false_alarms,
        "false_alarm_pct": round(100 * false_alarms / equivalent, 2) if equivalent else 0.0,
        "wrong_claims_count": wrong,
        "flagged_pct": round(100 * flagged / wrong, 2) if wrong else 0.0,
        "unflagged_count": wrong - flagged,
        "wrong_discarded_as_in_quote_count": discarded,
    }
    for how, n in sorted(by_how.items()):
        key = how.replace(": ", "_").replace(" ", "_").replace(",", "")
        result[f"{key}_count"] = n
    return result


if __name__ == "__main__":
    for key, value in evaluate().items():
        print(f"{key:<50} {value}")
