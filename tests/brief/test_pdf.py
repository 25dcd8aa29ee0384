"""PDF briefs: text in reading order, link annotations mapped to the words they cover.

Briefs are generated here with PyMuPDF (text placed with insert_text/insert_htmlbox, links
as annotations), so each case shows the shape of link a PDF writer produces: one rectangle,
one rectangle per word (HTML/Story output), a rectangle wider than the link with
QuadPoints saying which words it covers.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from core.brief import read_brief

URL_311 = "https://docs.python.org/3/whatsnew/3.11.html"
URL_632 = "https://peps.python.org/pep-0632/"


def _pdf(build) -> bytes:
    doc = pymupdf.open()
    build(doc)
    return doc.tobytes()


def test_html_links_wrapping_over_lines_are_one_citation() -> None:
    # insert_htmlbox writes one link annotation per word and space: many rectangles, one link.
    def build(doc) -> None:
        page = doc.new_page()
        page.insert_htmlbox(
            pymupdf.Rect(72, 72, 260, 400),
            f'<p>CPython 3.11 is on average 25% faster (<a href="{URL_311}">What’s New In Python 3.11 release '
            "notes</a>): “CPython 3.11 is an average of 25% faster than CPython 3.10”.</p>",
        )

    brief = read_brief(_pdf(build), "wrap.pdf")
    (claim,) = brief.claims
    assert claim.url == URL_311
    assert claim.anchor == "What’s New In Python 3.11 release notes"
    assert claim.quote == "CPython 3.11 is an average of 25% faster than CPython 3.10"
    assert claim.figure_text == "CPython 3.11 is on average 25% faster."
    assert claim.location is not None and claim.location.kind == "page" and claim.location.index == 1


def test_quadpoints_limit_a_wide_link_rectangle_to_its_words() -> None:
    # One annotation whose rectangle spans both lines, but whose QuadPoints cover only "PEP 632"
    # at the end of line 1 and "deprecation" at the start of line 2.
    def build(doc) -> None:
        page = doc.new_page()
        page.insert_text((72, 100), "Distutils was deprecated in Python 3.10, see PEP 632", fontsize=11)
        page.insert_text((72, 115), "deprecation notes. Python 3.12 removed it.", fontsize=11)
        words = page.get_text("words")
        covered = [w for w in words if w[4] in ("PEP", "632", "deprecation")]
        page.insert_link({"kind": pymupdf.LINK_URI, "from": pymupdf.Rect(72, 88, 400, 120), "uri": URL_632})
        page = doc.reload_page(page)
        xref = page.get_links()[0]["xref"]
        h = page.rect.height
        quads = []
        for x0, y0, x1, y1, *_ in covered:
            quads += [x0, h - y0, x1, h - y0, x0, h - y1, x1, h - y1]
        doc.xref_set_key(xref, "QuadPoints", "[" + " ".join(f"{q:.2f}" for q in quads) + "]")

    brief = read_brief(_pdf(build), "quads.pdf")
    (claim,) = brief.claims
    assert claim.anchor == "PEP 632 deprecation"
    assert claim.text == "Distutils was deprecated in Python 3.10, see PEP 632 deprecation notes."
    assert brief.uncited == ("Python 3.12 removed it.",)


def test_link_over_part_of_a_word_with_punctuation() -> None:
    # The annotation covers "632" of the word "632):": the citation is "PEP 632", punctuation left out.
    def build(doc) -> None:
        page = doc.new_page()
        page.insert_text((72, 100), "Distutils was deprecated (PEP 632): it said so.", fontsize=11)
        rects = page.search_for("PEP 632")
        for r in rects:
            page.insert_link({"kind": pymupdf.LINK_URI, "from": r, "uri": URL_632})

    (claim,) = read_brief(_pdf(build), "part.pdf").claims
    assert (claim.anchor, claim.figure_text) == ("PEP 632", "Distutils was deprecated: it said so.")


def test_reading_order_pages_bare_urls_and_headings() -> None:
    def build(doc) -> None:
        for n, (heading, body) in enumerate(
            [
                ("Speed", f'CPython 3.11 is faster, see {URL_311}. "CPython 3.11 is an average of 25% faster."'),
                ("Packaging", f"Distutils is deprecated ({URL_632})."),
            ]
        ):
            page = doc.new_page()
            page.insert_text((72, 72), heading, fontsize=20)
            page.insert_textbox(pymupdf.Rect(72, 100, 500, 300), body, fontsize=11)
            assert n == doc.page_count - 1

    brief = read_brief(_pdf(build), "pages.pdf")
    assert [(c.url, c.location.index if c.location else 0) for c in brief.claims] == [(URL_311, 1), (URL_632, 2)]
    assert brief.claims[0].quote == "CPython 3.11 is an average of 25% faster."
    assert brief.claims[0].figure_text == "CPython 3.11 is faster."
    assert "Speed" not in brief.uncited and "Packaging" not in brief.uncited  # headings are no claims


def test_ligatures_are_expanded_in_claims() -> None:
    # A brief set through HTML gets real ligatures from the font ("fi" drawn as one glyph).
    def build(doc) -> None:
        doc.new_page().insert_htmlbox(
            pymupdf.Rect(72, 72, 500, 300),
            f'<p>The official configuration file is fine (<a href="{URL_632}">PEP 632</a>).</p>',
        )

    (claim,) = read_brief(_pdf(build), "lig.pdf").claims
    assert "ﬁ" not in claim.text and "configuration file is fine" in claim.text


def test_sample_pdf_location_spans_the_claim_in_the_page_text() -> None:
    from core.brief.pdf import _open, _page_blocks

    data = (Path(__file__).resolve().parents[2] / "assets" / "samples" / "formats" / "brief.pdf").read_bytes()
    brief = read_brief(data, "brief.pdf")
    doc = _open(data, "brief.pdf")
    _, page_text = _page_blocks(doc, doc[0], 1)
    for claim in brief.claims:
        loc = claim.location
        assert loc is not None
        assert page_text[loc.start : loc.end] == claim.text


@pytest.mark.parametrize("pages", [3])
def test_page_limit_gives_a_warning(pages: int) -> None:
    from core.settings import Settings

    def build(doc) -> None:
        for n in range(pages):
            doc.new_page().insert_text((72, 72), f"Claim {n} is cited {URL_311}?p={n} here.")

    brief = read_brief(_pdf(build), "long.pdf", Settings(max_pdf_pages=2))
    assert len(brief.claims) == 2
    assert brief.warnings[0] == "long.pdf has 3 pages; only the first 2 were read. Split the brief to check the rest."
