"""``make eval`` for how pages write figures: glued units, a page language's decimal comma, Indian scales.

Every sentence of the aeb ground truth (real articles in a dozen languages) that holds a
figure in one of these forms is a case: a number glued to its unit ("512GB"), a decimal comma
or "." groups on a page whose language writes them ("1,5 см", "1.000 Ausstellern"), or a lakh
or crore. The claim restates the figure in English ("512 GB", "1.5", "1,000", "10 trillion"),
judged by a reading written here, independent of the figures reader; it must be matched.
The same claim with one digit changed must be missing. The quote is checked against its own
article as the page, so the article's language decides, as on the desk.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterator
from decimal import Decimal

from core.figures import check_figures
from core.models import FigureStatus, PageKind, PageText
from tests.servers import CORPUS

CORPUS_FILES = ("html/aeb/ground-truth.json",)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-ZА-Я(“\"])")
_GLUED = re.compile(r"(?<![\w.,])(\d+(?:\.\d+)?)(KB|MB|GB|TB|GHz|MHz|mAh|kWh|km|kg|cm|mm)(?![\w])")
_DECIMAL_COMMA = re.compile(r"(?<![\w.,])(\d{1,3}),(\d{1,2})(?![\w.,]|,\d)")
_DOT_GROUPS = re.compile(r"(?<![\w.,])(\d{1,3})\.(\d{3})(?![\w.,]|[.,]\d)")
_LAKH = re.compile(r"(?<![\w.,])(\d+(?:\.\d+)?) (lakh crore|lakh|crore)(?![\w])")
# Languages whose articles write "1,5" for one and a half (the aeb pages' other languages).
_COMMA_WORDS = re.compile(r"(?i)(?<!\w)(?:und|der|die|das|nicht|и|не|что|não|são|ainda|les|des|est|los|las)(?!\w)")


def _comma_language(body: str) -> bool:
    """Return True for an article in a decimal-comma language: judged by a plain word count."""
    return len(_COMMA_WORDS.findall(body[:20000])) >= 20


def _english(value: Decimal) -> str:
    text = f"{value.normalize():f}"
    whole, _, frac = text.partition(".")
    return f"{int(whole):,}" + ("." + frac if frac else "")


def _cases(body: str) -> Iterator[tuple[str, str, str]]:
    """Yield (form, quote sentence, the figure restated in English) for the article's sentences."""
    comma = _comma_language(body)
    for line in body.split("\n"):
        for sentence in _SENTENCE.split(line):
            if len(sentence) > 400:
                continue
            for m in _GLUED.finditer(sentence):
                yield "glued_unit", sentence, f"{m.group(1)} {m.group(2)}"
            for m in _LAKH.finditer(sentence):
                scale = {"lakh": 10**5, "crore": 10**7, "lakh crore": 10**12}[m.group(2)]
                yield "indian_scale", sentence, _english(Decimal(m.group(1)) * scale)
            if comma:
                for m in _DECIMAL_COMMA.finditer(sentence):
                    yield "decimal_comma", sentence, f"{m.group(1)}.{m.group(2)}"
                for m in _DOT_GROUPS.finditer(sentence):
                    if not 1900 <= int(m.group(1) + m.group(2)) <= 2100:
                        yield "dot_groups", sentence, f"{m.group(1)},{m.group(2)}"


def _changed(figure: str) -> str:
    """Return the figure with its last digit changed (a wrong claim)."""
    i = max(i for i, c in enumerate(figure) if c.isdigit())
    return figure[:i] + str((int(figure[i]) + 1) % 10) + figure[i + 1 :]


def evaluate() -> dict[str, float | int]:
    """Return, per form, how many restated claims matched and how many changed ones were flagged."""
    truth = json.loads((CORPUS / CORPUS_FILES[0]).read_text(encoding="utf-8"))
    t: dict[str, int] = defaultdict(int)
    for key in sorted(truth):
        body = str(truth[key].get("articleBody", ""))
        page = PageText(text=body, kind=PageKind.TEXT)
        for form, quote, figure in _cases(body):
            t[form] += 1
            good = check_figures(f"The source gives {figure}.", quote, page).figures
            t[form + "_matched"] += bool(good) and all(f.status is FigureStatus.MATCHED for f in good)
            changed = _changed(figure)
            if re.search(rf"(?<![\d.,]){re.escape(changed.split()[0])}(?![\d]|[.,]\d)", quote.replace(" ", "")):
                continue  # the changed figure stands in the quote anyway: no wrong claim
            t[form + "_wrong"] += 1
            wrong = check_figures(f"The source gives {changed}.", quote, page).figures
            t[form + "_flagged"] += any(f.status is FigureStatus.MISSING for f in wrong)
    out: dict[str, float | int] = {}
    for form in ("glued_unit", "decimal_comma", "dot_groups", "indian_scale"):
        n = t[form]
        out[f"{form}_count"] = n
        out[f"{form}_matched_pct"] = round(100 * t[form + "_matched"] / n, 2) if n else 0.0
        wrong = t[form + "_wrong"]
        out[f"{form}_wrong_count"] = wrong
        out[f"{form}_flagged_pct"] = round(100 * t[form + "_flagged"] / wrong, 2) if wrong else 0.0
    return out
