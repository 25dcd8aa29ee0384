"""``make eval`` for mislabelled charsets: honest quotes on pages whose declared charset lies, clean pages untouched.

The lying pages are the corpus's real news pages (aeb) whose whole text Windows-1252 can write and
whose ground truth holds sentences of 8+ words with an accented letter that the matcher finds on
the honest page: those sentences are the honest quotes. Each page is read with a lie in each
direction (its Windows-1252 bytes declared UTF-8; its UTF-8 bytes declared ISO-8859-1), by the
extractor and, in the same run, by the declared charset alone (the reading before the repair).
Every HTML page of the corpus that is UTF-8, declared UTF-8, must read exactly as before with no
note (``clean_pages_redecoded_count``); pages noted as served with no header are counted.
"""

from __future__ import annotations

import functools
import gzip
import json
import re

from core.extract import extract, html_page_text
from core.extract.charset import decode
from core.match import match_quote, prepare
from core.models import PageText
from core.settings import Settings
from tests.servers import CORPUS, DATA

MIN_WORDS = 8
QUOTES_PER_PAGE = 5
ACCENTED = re.compile(r"[À-ÖØ-öø-ÿ]")
#: The lies: name -> (what the bytes are, the header that lies about them).
LIES = {
    "cp1252_as_utf8": ("cp1252", "text/html; charset=utf-8"),
    "utf8_as_latin1": ("utf-8", "text/html; charset=ISO-8859-1"),
}
CORPUS_FILES = (
    "html/aeb/ground-truth.json",
    "html/aeb/html/*.html.gz",
    "html/readability/*/*.html.gz",
    "html/python/*/*.html",
    "html/wikipedia/*.html.gz",
    "tests/data/pages/*.html",
)


def page_text(pid: str) -> str | None:
    """Return an aeb page's text (its bytes are UTF-8) when Windows-1252 can write all of it, else None."""
    text = gzip.decompress((CORPUS / f"html/aeb/html/{pid}.html.gz").read_bytes()).decode("utf-8")
    try:
        text.encode("cp1252")
    except UnicodeEncodeError:
        return None
    return text


@functools.cache
def honest_cases() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Return (aeb page id, its honest accented quotes) for every page a lie can be told about."""
    truth = json.loads((CORPUS / "html/aeb/ground-truth.json").read_text(encoding="utf-8"))
    cases = []
    for pid in sorted(truth):
        sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n+", str(truth[pid]["articleBody"]))]
        accented = [s for s in sentences if len(s.split()) >= MIN_WORDS and ACCENTED.search(s)]
        if not accented or (text := page_text(pid)) is None:
            continue
        page = extract(text.encode("utf-8"), "text/html; charset=utf-8")
        assert isinstance(page, PageText)
        prepared = prepare(page)
        found = tuple(q for q in accented if match_quote(q, prepared, Settings()).found)
        if found:
            cases.append((pid, found[:QUOTES_PER_PAGE]))
    return tuple(cases)


def _found(page: PageText, quotes: tuple[str, ...]) -> int:
    prepared = prepare(page)
    return sum(match_quote(q, prepared, Settings()).found for q in quotes)


def corpus_html() -> list[tuple[str, bytes]]:
    """Return (name, bytes) of every HTML page of the corpus and of tests/data/pages/."""
    paths = [*sorted(CORPUS.glob("html/**/*.html")), *sorted(CORPUS.glob("html/**/*.html.gz"))]
    paths += sorted(DATA.glob("pages/*.html"))
    return [(str(p), gzip.decompress(p.read_bytes()) if p.suffix == ".gz" else p.read_bytes()) for p in paths]


def evaluate() -> dict[str, float | int]:
    """Return the figures: honest quotes found on lying pages (repaired and as declared), clean pages re-decoded."""
    figures: dict[str, float | int] = {}
    cases = honest_cases()
    total = sum(len(q) for _, q in cases)
    figures["lying_pages_count"] = len(cases)
    figures["honest_quotes_count"] = total
    for name, (codec, header) in LIES.items():
        repaired = declared = noted = 0
        for pid, quotes in cases:
            text = page_text(pid)
            assert text is not None
            body = text.encode(codec)
            page = extract(body, header)
            assert isinstance(page, PageText)
            repaired += _found(page, quotes)
            noted += bool(page.charset_note)
            as_declared = body.decode("utf-8" if "utf-8" in header else "cp1252", errors="replace")
            declared += _found(html_page_text(as_declared)[0], quotes)
        figures[f"{name}_found_pct"] = round(100 * repaired / total, 2)
        figures[f"{name}_found_as_declared_pct"] = round(100 * declared / total, 2)
        figures[f"{name}_noted_pct"] = round(100 * noted / len(cases), 2)
    redecoded = clean = noted_as_served = 0
    for _, body in corpus_html():
        noted_as_served += bool(decode(body, "text/html").note)
        try:
            honest = body.decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError:
            continue
        clean += 1
        got = decode(body, "text/html; charset=utf-8")
        redecoded += got.text != honest or bool(got.note)
    figures["clean_pages_count"] = clean
    figures["clean_pages_redecoded_count"] = redecoded
    figures["pages_noted_as_served_count"] = noted_as_served
    return figures
