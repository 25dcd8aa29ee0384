"""Gemini's PDF and DOCX exports, built here as Google Docs writes them, on sentences of the corpus's Gemini brief.

The corpus holds Gemini's Markdown export (numbers glued to the text) and a Korean DOCX; its PDF
export sets each number as a small raised span glued to the word before it (PyMuPDF's words API
sees ``problem-solving.3`` as one word) and its "Works cited" list as one block of numbered entries.
The sentences and entries are those of ``gemini_Elements-Of-A-Great-Story.md``.
"""

from __future__ import annotations

import io

import docx
import pymupdf

from core.brief import read_brief

SENTENCES = [
    ("Evolutionary psychology posits that stories function as complex cognitive simulators.", "3"),
    ("Anthropological research suggests that narrative evolved as a replacement for physical grooming.", "8"),
]
ENTRIES = [
    ("Narratology (literary theory) - EBSCO", "https://www.ebsco.com/research-starters/narratology"),
    ("The evolution of stories - PMC", "https://pmc.ncbi.nlm.nih.gov/articles/PMC5763351/"),
    ("Psychology Today", "https://www.psychologytoday.com/us/blog/storytelling"),
]
ENTRIES += [(f"Entry {n}", f"https://example.org/entry/{n}") for n in range(4, 9)]


def _pdf() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    y = 72.0
    for text, number in SENTENCES:
        page.insert_text((72, y), text, fontsize=10)
        page.insert_text((72 + pymupdf.get_text_length(text, fontsize=10) + 0.3, y - 4), number, fontsize=6)
        y += 16
    page.insert_text((72, y + 20), "Works cited", fontsize=14)
    y += 44
    for n, (title, url) in enumerate(ENTRIES, 1):
        page.insert_text((72, y), f"{n}. {title}, accessed January 16, 2026, {url}", fontsize=9)
        y += 12
    return bytes(doc.tobytes())


def _docx() -> bytes:
    document = docx.Document()
    for text, number in SENTENCES:
        p = document.add_paragraph(text)
        p.add_run(number).font.superscript = True
    document.add_heading("Works cited", level=4)
    for title, url in ENTRIES:
        document.add_paragraph(f"{title}, accessed January 16, 2026, {url}", style="List Number")
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def test_gemini_pdf_export_superscripts_resolve_through_a_works_cited_block() -> None:
    brief = read_brief(_pdf(), "gemini.pdf")
    assert [(c.text, c.url, c.citation) for c in brief.claims] == [
        (SENTENCES[0][0], ENTRIES[2][1], "superscript 3, reference [3] in “Works cited”"),
        (SENTENCES[1][0], ENTRIES[7][1], "superscript 8, reference [8] in “Works cited”"),
    ]
    assert {u.url for u in brief.unused_links} == {url for n, (_, url) in enumerate(ENTRIES, 1) if n not in (3, 8)}


def test_gemini_docx_export_superscript_runs_resolve_by_place_in_the_list() -> None:
    brief = read_brief(_docx(), "gemini.docx")
    assert [(c.text, c.url, c.citation) for c in brief.claims] == [
        (SENTENCES[0][0], ENTRIES[2][1], "superscript 3, reference [3] in “Works cited”"),
        (SENTENCES[1][0], ENTRIES[7][1], "superscript 8, reference [8] in “Works cited”"),
    ]
