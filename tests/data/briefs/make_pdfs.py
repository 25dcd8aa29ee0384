"""Write the PDF briefs of ``pdf/`` as Google Docs exports set them (``python tests/data/briefs/make_pdfs.py``).

Each function below is one class of input of issue 23, built with PyMuPDF on DejaVu Sans (a font
with the invisible characters Google Docs writes, so they reach the text layer): note numbers
raised in small type (with and without PyMuPDF's superscript flag), a "Works cited" list set as
one block per page with a zero-width or no-break space after each number, link annotations over
URLs, a sentence or a URL broken by a page or a line end. The sentences and entries were written
for these tests; ``pdf/<name>.expected.json`` holds each file's expected claims, written by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pymupdf

HERE = Path(__file__).resolve().parent / "pdf"
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
BODY = 10.0
NOTE = 6.0
ZWSP, NBSP = "\u200b", "\u00a0"


class Page:
    """A page being written line by line, left to right, as a word processor sets it."""

    def __init__(self, doc: pymupdf.Document) -> None:
        self.page = doc.new_page()
        self.page.insert_font(fontname="F1", fontfile=FONT)
        self.font = pymupdf.Font(fontfile=FONT)
        self.x, self.y = 72.0, 72.0

    def text(self, text: str, size: float = BODY, rise: float = 0.0, uri: str = "") -> None:
        """Write text at the pen, raised by rise points; a URI puts a link annotation over it."""
        self.page.insert_text((self.x, self.y - rise), text, fontsize=size, fontname="F1")
        width = self.font.text_length(text, fontsize=size)
        if uri:
            rect = pymupdf.Rect(self.x, self.y - rise - size, self.x + width, self.y - rise + size * 0.25)
            self.page.insert_link({"kind": pymupdf.LINK_URI, "from": rect, "uri": uri})
        self.x += width

    def note(self, number: str, rise: float = 3.0, size: float = NOTE) -> None:
        """Write a raised note number in small type right after the pen."""
        self.text(number, size=size, rise=rise)

    def newline(self, gap: float = 14.0) -> None:
        self.x, self.y = 72.0, self.y + gap


def _write(name: str, build: Callable[[pymupdf.Document], None]) -> None:
    doc = pymupdf.open()
    build(doc)
    doc.subset_fonts()
    doc.set_metadata({})  # no creation date: the file is the same at every run
    (HERE / f"{name}.pdf").write_bytes(doc.tobytes(garbage=4, deflate=True, no_new_id=True))


def _entry(page: Page, number: int, gap: str, title: str, url: str) -> None:
    page.text(f"{number}.{gap}{' ' if gap == ZWSP else ''}{title}, accessed January 16, 2026, ", size=9)
    page.text(url, size=9, uri=url)
    page.newline(12)


def works_cited_invisible_gap(doc: pymupdf.Document) -> None:
    """Item 1: "n.\u200b Title" and "n.\u00a0Title" entries, one block per page, entry 5's URL on page 2."""
    p = Page(doc)
    p.text("Solar output grew by a third in two years.")
    p.note("2")
    p.text(" Storage costs fell faster than forecasts said.")
    p.note("5")
    p.newline()
    p.text("Grid operators now plan for evening peaks.")
    p.note("6")
    p.newline(30)
    p.text("Works cited", size=14)
    p.newline(20)
    _entry(p, 1, ZWSP, "Solar statistics - Agency A", "https://a.test/solar/1")
    _entry(p, 2, ZWSP, "Two years of solar - Journal B", "https://b.test/solar/2")
    _entry(p, 3, NBSP, "Wind outlook - Agency C", "https://c.test/wind/3")
    _entry(p, 4, ZWSP, "Hydro review - Office D", "https://d.test/hydro/4")
    p.y = 780.0
    p.text(f"5.{ZWSP} Storage cost survey - Lab E, accessed January 16, 2026,", size=9)
    q = Page(doc)
    q.text("https://e.test/storage/5", size=9, uri="https://e.test/storage/5")
    q.newline(12)
    _entry(q, 6, ZWSP, "Evening peaks - Operator F", "https://f.test/peaks/6")
    _entry(q, 7, NBSP, "Demand notes - Board G", "https://g.test/demand/7")


def raised_note_punctuation(doc: pymupdf.Document) -> None:
    """Item 2: "charge¹." (one word to PyMuPDF), a spaced "³:", a note set small and high without the
    superscript flag, a subscript "CO₂" that is no note, and an entry that is an uploaded file."""
    p = Page(doc)
    p.text("Each electron carries one charge")
    p.note("2")
    p.text(". Energy is conserved ")
    p.note("3")
    p.text(": no process creates it.")
    p.newline()
    p.text("The field decays quickly")
    p.note("4", rise=5.5)
    p.text(".")
    p.newline()
    p.text("Plants take in CO")
    p.note("2", rise=-2.0)
    p.text(" by day")
    p.note("5")
    p.text(".")
    p.newline()
    p.text("The archive holds the raw tables")
    p.note("1")
    p.text(".")
    p.newline(30)
    p.text("Works cited", size=14)
    p.newline(20)
    p.text(f"1.{ZWSP} references.zip, uploaded:references.zip", size=9)
    p.newline(12)
    _entry(p, 2, ZWSP, "Charge of the electron - Lab B", "https://b.test/charge/2")
    _entry(p, 3, NBSP, "Conservation laws - Notes C", "https://c.test/energy/3")
    _entry(p, 4, ZWSP, "Field decay - Paper D", "https://d.test/field/4")
    _entry(p, 5, ZWSP, "Plant uptake - Review E", "https://e.test/plants/5")


def sentence_across_pages(doc: pymupdf.Document) -> None:
    """Item 3: a sentence cut by a page break (a page number between) and one cut by a dropped display formula."""
    p = Page(doc)
    p.text("Prices rose in every region.")
    p.note("1")
    p.newline(30)
    p.text("The bound holds when")
    p.page.draw_rect(pymupdf.Rect(200, p.y + 8, 300, p.y + 30), color=(0, 0, 0))  # the formula, drawn: no text
    p.newline(44)
    p.text("the load is low and steady.")
    p.note("3")
    p.newline(30)
    p.y = 760.0
    p.text("The model predicts that")
    p.page.insert_text((300, 810), "1", fontsize=8, fontname="F1")  # the page number
    q = Page(doc)
    q.text("the gap closes within a decade.")
    q.note("2")
    q.text(" Nothing else changes.")
    q.newline(30)
    q.text("Works cited", size=14)
    q.newline(20)
    _entry(q, 1, ZWSP, "Regional prices - Office A", "https://a.test/prices/1")
    _entry(q, 2, ZWSP, "Gap model - Paper B", "https://b.test/gap/2")
    _entry(q, 3, ZWSP, "Load bounds - Notes C", "https://c.test/load/3")


def url_wrapped_at_line_end(doc: pymupdf.Document) -> None:
    """Item 4: URLs the layout wrapped at a line end, with and without a link annotation, and one a space ends."""
    p = Page(doc)
    p.text("Battery packs hit a record low in 2024 (https://x.test/reports/record-low-of-1")
    p.newline()
    p.text("39-kwh).")
    p.newline(30)
    url = "https://w.test/wind/costs/offshore-2024"
    p.text("Offshore wind costs fell by a fifth (")
    p.text("https://w.test/wind/costs/", uri=url)
    p.newline()
    p.text("offshore-2024", uri=url)
    p.text(").")
    p.newline(30)
    p.text("Solar output is reported at https://s.test/solar ")
    p.newline()
    p.text("and the grid held through the summer.")


CASES = [works_cited_invisible_gap, raised_note_punctuation, sentence_across_pages, url_wrapped_at_line_end]


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for build in CASES:
        _write(build.__name__, build)
        print(HERE / f"{build.__name__}.pdf")


if __name__ == "__main__":
    main()
