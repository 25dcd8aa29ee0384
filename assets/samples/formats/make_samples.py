"""Write the format samples: one set of python.org claims as brief.md, .docx, .pdf, .json, .csv.

Run from the repository root to rebuild them after changing CLAIMS:

    .venv/bin/python assets/samples/formats/make_samples.py

Each format uses its own conventions for citations and quotes (Markdown: inline link with
a quote in the sentence, blockquote, "Quote:" line, reference definition title; DOCX:
hyperlinks, a HYPERLINK field code, a "Quote" paragraph; PDF: link annotations over the
link text), so that every reader is shown reading the same claims. The sources are the
stored python.org pages the desk bundles; the expected verdicts are in EXPECTED.
This script only writes files next to itself: it fetches nothing.
"""

from __future__ import annotations

import csv
import io
import json
from html import escape
from pathlib import Path

HERE = Path(__file__).resolve().parent

# (claim, url, link text, quote or None)
CLAIMS = [
    (
        "CPython 3.11 is on average 25% faster than CPython 3.10.",
        "https://docs.python.org/3/whatsnew/3.11.html",
        "What’s New in Python 3.11",
        "CPython 3.11 is an average of 25% faster than CPython 3.10 as measured with the pyperformance benchmark suite",
    ),
    (
        "CPython 3.12 is on average 25% faster than CPython 3.11.",
        "https://docs.python.org/3/whatsnew/3.11.html",
        "What’s New in Python 3.11",
        "CPython 3.11 is an average of 25% faster than CPython 3.10 as measured with the pyperformance benchmark suite",
    ),
    (
        "Python 3.12 removed the distutils package from the standard library.",
        "https://docs.python.org/3/whatsnew/3.12.html",
        "What’s New in Python 3.12",
        None,
    ),
    (
        "distutils was formally marked as deprecated in Python 3.10 and 3.11.",
        "https://peps.python.org/pep-0632/",
        "PEP 632",
        "In Python 3.10 and 3.11, distutils will be formally marked as deprecated.",
    ),
    (
        "The free-threaded mode is enabled by default.",
        "https://docs.python.org/3/whatsnew/3.13.html",
        "What’s New in Python 3.13",
        "enabled by default",
    ),
    (
        "PEP 703 proposes a way to run CPython without the global interpreter lock.",
        "https://peps.python.org/pep-0703/",
        "PEP 703",
        # One word ("build") dropped from the PEP's sentence: the checker must not find it.
        "This PEP proposes adding a configuration (--disable-gil) to CPython to let it run Python code without the "
        "global interpreter lock",
    ),
]

#: The verdict each claim must get, in order (tests/test_samples_formats.py checks them).
EXPECTED = ["verified", "figures_mismatch", "no_quote", "verified", "needs_review", "quote_not_found"]

TITLE = "Python releases 3.11 to 3.13: claims to check"
INTRO = "A short brief about Python releases, written to show each brief format."


def markdown() -> str:
    """Return the claims as Markdown, each quote in a different convention."""
    (c1, c2, c3, c4, c5, c6) = CLAIMS
    lines = [f"# {TITLE}", "", INTRO, ""]
    lines.append(f"{c1[0][:-1]} ([{c1[2]}]({c1[1]})): “{c1[3]}”.")
    lines.append("")
    lines.append(f"{c2[0][:-1]} ([{c2[2]}]({c2[1]})).")
    lines.append("")
    lines.append(f"> {c2[3]}")
    lines.append("")
    lines.append(f"{c3[0][:-1]} ([{c3[2]}]({c3[1]})).")
    lines.append("")
    lines.append(f"{c4[0][:-1]} [1].")
    lines.append("")
    lines.append(f"{c5[0][:-1]} ([{c5[2]}]({c5[1]})).")
    lines.append(f"Quote: “{c5[3]}”")
    lines.append("")
    lines.append(f"{c6[0][:-1]} [2].")
    lines.append("")
    lines.append("## References")
    lines.append("")
    lines.append(f'[1]: {c4[1]} "{c4[3]}"')
    lines.append(f'[2]: {c6[1]} "{c6[3]}"')
    return "\n".join(lines) + "\n"


def claims_json() -> str:
    """Return the claims as an agent's JSON claims file."""
    rows = [{"id": f"c{n}", "claim": c, "url": u, "quote": q} for n, (c, u, _t, q) in enumerate(CLAIMS, 1)]
    return json.dumps({"brief": TITLE, "claims": rows}, indent=2, ensure_ascii=False) + "\n"


def claims_csv() -> str:
    """Return the claims as CSV with the header claim,url,quote."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["claim", "url", "quote"])
    for claim, url, _text, quote in CLAIMS:
        writer.writerow([claim, url, quote or ""])
    return out.getvalue()


def _hyperlink(paragraph: object, url: str, text: str) -> None:
    """Append a w:hyperlink to a python-docx paragraph (python-docx has no call for it)."""
    from docx.opc.constants import RELATIONSHIP_TYPE as RT
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    part = paragraph.part  # type: ignore[attr-defined]
    rid = part.relate_to(url, RT.HYPERLINK, is_external=True)
    link = OxmlElement("w:hyperlink")
    link.set(qn("r:id"), rid)
    run = OxmlElement("w:r")
    rpr = OxmlElement("w:rPr")
    style = OxmlElement("w:rStyle")
    style.set(qn("w:val"), "Hyperlink")
    rpr.append(style)
    run.append(rpr)
    t = OxmlElement("w:t")
    t.text = text
    t.set(qn("xml:space"), "preserve")
    run.append(t)
    link.append(run)
    paragraph._p.append(link)  # type: ignore[attr-defined]


def _field_link(paragraph: object, url: str, text: str) -> None:
    """Append a HYPERLINK field code (fldChar begin, instrText, separate, result, end)."""
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    def run_with(child: object) -> None:
        r = OxmlElement("w:r")
        r.append(child)
        paragraph._p.append(r)  # type: ignore[attr-defined]

    for kind, instr in (("begin", None), (None, f' HYPERLINK "{url}" '), ("separate", None)):
        if kind:
            el = OxmlElement("w:fldChar")
            el.set(qn("w:fldCharType"), kind)
        else:
            el = OxmlElement("w:instrText")
            el.set(qn("xml:space"), "preserve")
            el.text = instr
        run_with(el)
    paragraph.add_run(text)  # type: ignore[attr-defined]
    end = OxmlElement("w:fldChar")
    end.set(qn("w:fldCharType"), "end")
    run_with(end)


def docx_bytes() -> bytes:
    """Return the claims as a Word document with hyperlinks, a field code and a Quote paragraph."""
    import docx

    doc = docx.Document()
    doc.core_properties.title = TITLE
    doc.core_properties.author = "Verbatim samples"
    doc.add_heading(TITLE, level=1)
    doc.add_paragraph(INTRO)
    (c1, c2, c3, c4, c5, c6) = CLAIMS
    p = doc.add_paragraph(f"{c1[0][:-1]} (")
    _hyperlink(p, c1[1], c1[2])
    p.add_run(f"): “{c1[3]}”.")
    p = doc.add_paragraph(f"{c2[0][:-1]} (")
    _hyperlink(p, c2[1], c2[2])
    p.add_run(").")
    doc.add_paragraph(c2[3], style="Quote")
    p = doc.add_paragraph(f"{c3[0][:-1]} (")
    _field_link(p, c3[1], c3[2])
    p.add_run(").")
    p = doc.add_paragraph(f"{c4[0][:-1]} (")
    _hyperlink(p, c4[1], c4[2])
    p.add_run(f"): “{c4[3]}”.")
    p = doc.add_paragraph(f"{c5[0][:-1]} (")
    _hyperlink(p, c5[1], c5[2])
    p.add_run(").")
    doc.add_paragraph(f"Quote: “{c5[3]}”")
    table = doc.add_table(rows=1, cols=2)
    cell = table.rows[0].cells[0].paragraphs[0]
    cell.add_run(f"{c6[0][:-1]} (")
    _hyperlink(cell, c6[1], c6[2])
    cell.add_run(f"): “{c6[3]}”.")
    table.rows[0].cells[1].text = "Check this one."
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def pdf_bytes() -> bytes:
    """Return the claims as a PDF whose links are annotations over the link text."""
    import pymupdf

    (c1, c2, c3, c4, c5, c6) = CLAIMS

    def a(c: tuple[str, str, str, str | None]) -> str:
        return f'<a href="{escape(c[1])}">{escape(c[2])}</a>'

    paragraphs = [
        f"<h1>{escape(TITLE)}</h1>",
        f"<p>{escape(INTRO)}</p>",
        f"<p>{escape(c1[0][:-1])} ({a(c1)}): “{escape(c1[3] or '')}”.</p>",
        f"<p>{escape(c2[0][:-1])} ({a(c2)}).</p>",
        f"<p>Quote: “{escape(c2[3] or '')}”</p>",
        f"<p>{escape(c3[0][:-1])} ({a(c3)}).</p>",
        f"<p>{escape(c4[0][:-1])} ({a(c4)}): “{escape(c4[3] or '')}”.</p>",
        f"<p>{escape(c5[0][:-1])} ({a(c5)}): “{escape(c5[3] or '')}”.</p>",
        f"<p>{escape(c6[0][:-1])} ({a(c6)}): “{escape(c6[3] or '')}”.</p>",
    ]
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_htmlbox(pymupdf.Rect(56, 56, 540, 800), "".join(paragraphs))
    doc.set_metadata({"title": TITLE, "author": "Verbatim samples", "creationDate": "", "modDate": ""})
    data: bytes = doc.tobytes(garbage=3, deflate=True, no_new_id=True)
    return data


def main() -> None:
    (HERE / "brief.md").write_text(markdown(), encoding="utf-8")
    (HERE / "brief.json").write_text(claims_json(), encoding="utf-8")
    (HERE / "brief.csv").write_text(claims_csv(), encoding="utf-8")
    (HERE / "brief.docx").write_bytes(docx_bytes())
    (HERE / "brief.pdf").write_bytes(pdf_bytes())


if __name__ == "__main__":
    main()
