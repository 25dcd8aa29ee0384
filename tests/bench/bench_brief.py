"""``make bench`` for reading briefs: a 200-page PDF brief and a 2 MB Markdown brief, against plain baselines.

Inputs are made in the run from corpus deliverables (``../shared/corpus/briefs/``): the PDF is
ChatGPT's 25-page export (superscript notes, link annotations, an endnote list) put together
eight times with PyMuPDF; the Markdown is the corpus's Markdown briefs (Gemini's glued numbers,
``[n]`` markers, footnotes, source lines) joined until 2 MB. Baselines, timed in the same run:
PyMuPDF's plain ``page.get_text()`` of every page, and a plain regex split of the Markdown into
sentences with the URLs found in each. Best of ``REPEAT``.

A whole check also reads every cited source: its share is estimated with the time to extract and
prepare one large corpus page (readability's wikipedia-2, about 1 MB) per distinct URL, measured
in the same run. The issue's target is that reading the brief stays under 5% of the whole check.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pymupdf

from core.brief import read_brief
from core.extract import extract
from core.match import prepare
from tests.bench.run import best_of
from tests.servers import CORPUS

REPEAT = 3
BRIEFS = CORPUS / "briefs"
PDF = BRIEFS / "Razzleberrytt+hippie-scientist-site" / "chatgpt_Deep_Research_Report.pdf"
PAGE = CORPUS / "html" / "readability" / "wikipedia-2" / "source.html.gz"
PAGES = 200
MARKDOWN_BYTES = 2_000_000
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_URL = re.compile(r"https?://[^\s)\]>]+")


def big_pdf() -> bytes:
    """Return a PDF brief of PAGES pages: the corpus's ChatGPT export, again and again."""
    with pymupdf.open(PDF) as one, pymupdf.open() as out:
        while out.page_count < PAGES:
            out.insert_pdf(one, to_page=min(one.page_count, PAGES - out.page_count) - 1)
        return bytes(out.tobytes())


def big_markdown() -> str:
    """Return a Markdown brief of about MARKDOWN_BYTES: the corpus's Markdown briefs joined, again and again."""
    parts = [p.read_text(encoding="utf-8") for p in sorted(BRIEFS.glob("*/*.md"))]
    text, n = "", 0
    while len(text.encode("utf-8")) < MARKDOWN_BYTES:
        text += parts[n % len(parts)] + "\n\n"
        n += 1
    return text


def _plain_pdf(data: bytes) -> str:
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        return " ".join(page.get_text() for page in doc)


def _regex_split(text: str) -> list[tuple[str, list[str]]]:
    return [(s, _URL.findall(s)) for para in text.split("\n\n") for s in _SENTENCE.split(para)]


def _per_source() -> float:
    body = gzip.decompress(PAGE.read_bytes())
    return best_of(lambda: prepare(extract(body, "text/html")), REPEAT)


def run() -> list[str]:
    """Return one line per brief: reading time, the baselines' and ratios, and the estimated share of a check."""
    per_source = _per_source()
    lines = []
    pdf = big_pdf()
    base = best_of(lambda: _plain_pdf(pdf), REPEAT)
    ours = best_of(lambda: read_brief(pdf, "big.pdf"), REPEAT)
    brief = read_brief(pdf, "big.pdf")
    lines.append(_line(f"PDF brief, {PAGES} pages", ours, base, "PyMuPDF get_text", brief, per_source))
    text = big_markdown()
    data = text.encode("utf-8")
    base = best_of(lambda: _regex_split(text), REPEAT)
    ours = best_of(lambda: read_brief(data, "big.md"), REPEAT)
    brief = read_brief(data, "big.md")
    lines.append(_line(f"Markdown brief, {len(data) / 1e6:.1f} MB", ours, base, "regex split", brief, per_source))
    return lines


def _line(label: str, ours: float, base: float, base_name: str, brief: object, per_source: float) -> str:
    claims = brief.claims  # type: ignore[attr-defined]
    urls = len({c.url for c in claims})
    check = ours + urls * per_source
    return (
        f"{label}: read in {ours * 1000:.0f} ms ({ours / base:.1f}x baseline {base_name} {base * 1000:.0f} ms), "
        f"{len(claims)} claims, {urls} distinct URLs; reading is {100 * ours / check:.1f}% of a check "
        f"(each source ~ {per_source * 1000:.0f} ms to extract and prepare, the corpus's 1 MB page)"
    )


if __name__ == "__main__":
    print("\n".join(run()))
    print(Path(__file__).name)
