"""DOCX briefs: links in every form Word writes them, notes, tables, quotes, locations.

The link reader is measured on real files from ../shared/corpus/docx/: every link target
that pandoc's expected output (``*.native``) lists must be found with the same text, and
the python-docx, mammoth and docx2python files' links with their anchor text. Briefs with
claims are generated here with python-docx, so that what they hold is visible in the test.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import docx
import pytest
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.oxml import OxmlElement
from docx.oxml.ns import qn

from core.brief import docx_links, read_brief
from tests.servers import CORPUS

PANDOC = sorted((CORPUS / "docx" / "pandoc").glob("*.native"))


def _haskell_string(s: str) -> str:
    s = s.replace("\\&", "")
    s = re.sub(r"\\(\d+)", lambda m: chr(int(m.group(1))), s)
    return s.replace('\\"', '"').replace("\\\\", "\\")


def native_links(native: str) -> list[tuple[str, str]]:
    """Return (target, text) of every Link in a pandoc native document tree."""
    out = []
    for m in re.finditer(
        r"Link \(\"[^\"]*\",\[[^\]]*\],\[[^\]]*\]\) \[(.*?)\] \(\"((?:[^\"\\]|\\.)*)\",", native, re.S
    ):
        inlines, target = m.group(1), _haskell_string(m.group(2))
        words = []
        for tok in re.finditer(r'Str "((?:[^"\\]|\\.)*)"|(Space|SoftBreak)', inlines):
            words.append(_haskell_string(tok.group(1)) if tok.group(1) is not None else " ")
        out.append((target, "".join(words)))
    return out


@pytest.mark.parametrize("native", PANDOC, ids=lambda p: p.stem)
def test_every_pandoc_link_target_is_found_with_its_text(native: Path) -> None:
    expected = native_links(native.read_text(encoding="utf-8"))
    found = [(link.url, link.anchor) for link in docx_links(native.with_suffix(".docx").read_bytes())]
    for pair in expected:
        assert pair in found, f"{native.stem}: pandoc's link {pair} not found in {found}"


def test_pandoc_native_parser_reads_the_links() -> None:
    # The measurement above means nothing if the .native files yield no links.
    total = sum(len(native_links(p.read_text(encoding="utf-8"))) for p in PANDOC)
    assert total == 12


@pytest.mark.parametrize(
    ("path", "links"),
    [
        (
            "python-docx/par-hyperlinks.docx",
            [
                ("http://yahoo.com/", "awesome hyperlink"),
                ("http://google.com/", "the first one"),
                ("http://python.org/", "second one"),
                ("http://yahoo.com/", "third"),
            ],
        ),
        (
            "python-docx/par-hlink-frags.docx",
            [
                ("#linkedBookmark", "link to bookmark"),
                ("https://foo.com", "https://foo.com"),
                ("https://foo.com?q=bar", "https://foo.com?q=bar"),
                ("http://foo.com/#intro", "http://foo.com#introduction"),
                ("https://foo.com?q=bar#baz", "https://foo.com?q=bar#the-bar"),
                ("court-exif.jpg", "link to file"),
            ],
        ),
        ("mammoth/footnote-hyperlink.docx", [("http://www.example.com", "Example")]),
        ("docx2python/hyperlink.docx", [("http://www.shayallenhill.com/", "my website")]),
        (
            "docx2python/long_hyperlink.docx",
            [
                (
                    "https://connect.asdfg.com/wikis/home?lang-en-us#!/wiki/asdfasdf_asdfasdf/page/EOL%20support%20-%20MDGI",
                    "hyperlink",
                )
            ],
        ),
        (
            # Three w:hyperlink elements with one target in one paragraph are one link.
            "docx2python/merged_links.docx",
            [
                ("https://www.shayallenhill.com", "hy"),
                ("https://www.shayallenhill.com", "per"),
                ("https://www.shayallenhill.com", "link"),
                ("https://www.shayallenhill.com", "hyperlink"),
            ],
        ),
    ],
)
def test_corpus_links_with_anchor_text(path: str, links: list[tuple[str, str]]) -> None:
    assert [(link.url, link.anchor) for link in docx_links((CORPUS / "docx" / path).read_bytes())] == links


def test_footnote_link_is_in_the_footnote_part() -> None:
    (link,) = docx_links((CORPUS / "docx" / "mammoth" / "footnote-hyperlink.docx").read_bytes())
    assert link.part == "footnote"


@pytest.mark.parametrize("path", sorted((CORPUS / "docx").glob("*/*.docx")), ids=lambda p: p.stem)
def test_paragraph_text_agrees_with_python_docx(path: Path) -> None:
    # Locations are offsets in python-docx's Paragraph.text: our text must be the same.
    from core.brief.docx import _open
    from core.brief.docx_walk import Walker, body_paragraphs, read_styles
    from core.settings import Settings

    data = path.read_bytes()
    doc = _open(data, path.name, Settings())
    ours = [
        p
        for p in body_paragraphs(doc, Walker(doc.part.rels, read_styles(doc)))
        if p.loc_kind == "paragraph" and p.index is not None
    ]
    assert [p.text for p in ours] == [p.text for p in docx.Document(io.BytesIO(data)).paragraphs]


# Files whose every web link stands in a sentence; the mammoth file's only link is in a footnote
# whose mark stands in an empty paragraph, so it cites nothing.
EVERY_LINK_A_CLAIM = [p for p in sorted((CORPUS / "docx").glob("*/*.docx")) if p.parent.name != "mammoth"]


@pytest.mark.parametrize("path", EVERY_LINK_A_CLAIM, ids=lambda p: p.stem)
def test_reader_cites_exactly_the_web_links_of_real_files(path: Path) -> None:
    data = path.read_bytes()
    web = {link.url for link in docx_links(data) if link.url.startswith(("http://", "https://"))}
    brief = read_brief(data, path.name)
    # Internal (#bookmark) and relative (court-exif.jpg) links are no sources.
    assert {c.url for c in brief.claims} == web


# --------------------------------------------------------------------------- generated briefs


def _hyperlink(paragraph, url: str, *texts: str) -> None:
    """Append one w:hyperlink whose text is split over several runs."""
    rid = paragraph.part.relate_to(url, RT.HYPERLINK, is_external=True)
    link = OxmlElement("w:hyperlink")
    link.set(qn("r:id"), rid)
    for text in texts:
        run = OxmlElement("w:r")
        t = OxmlElement("w:t")
        t.set(qn("xml:space"), "preserve")
        t.text = text
        run.append(t)
        link.append(run)
    paragraph._p.append(link)


def _field(paragraph, instr: str, result: str, nested: tuple[str, str] | None = None) -> None:
    """Append a complex field; ``nested`` puts another field (instr, result) inside its result."""

    def add(tag: str, **attrs: str) -> None:
        r = OxmlElement("w:r")
        el = OxmlElement(tag)
        for k, v in attrs.items():
            el.set(qn(k), v)
        if tag == "w:instrText":
            el.set(qn("xml:space"), "preserve")
            el.text = attrs.pop("text", "")
        r.append(el)
        paragraph._p.append(r)

    add("w:fldChar", **{"w:fldCharType": "begin"})
    r = OxmlElement("w:r")
    it = OxmlElement("w:instrText")
    it.set(qn("xml:space"), "preserve")
    it.text = instr
    r.append(it)
    paragraph._p.append(r)
    add("w:fldChar", **{"w:fldCharType": "separate"})
    paragraph.add_run(result)
    if nested:
        _field(paragraph, nested[0], nested[1])
    add("w:fldChar", **{"w:fldCharType": "end"})


def _note_ref(paragraph, kind: str, nid: int) -> None:
    r = OxmlElement("w:r")
    ref = OxmlElement(f"w:{kind}Reference")
    ref.set(qn("w:id"), str(nid))
    r.append(ref)
    paragraph._p.append(r)


W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def _add_notes(data: bytes, kind: str, notes: dict[int, tuple[str, str, str]]) -> bytes:
    """Return the DOCX with a footnotes or endnotes part: id -> (text before, link url, text after)."""
    rels, body = [], []
    for nid, (before, url, after) in notes.items():
        rels.append(f'<Relationship Id="rIdN{nid}" Type="{RT.HYPERLINK}" Target="{url}" TargetMode="External"/>')
        body.append(
            f'<w:{kind} w:id="{nid}"><w:p><w:r><w:t xml:space="preserve">{before}</w:t></w:r>'
            f'<w:hyperlink r:id="rIdN{nid}"><w:r><w:t>{url}</w:t></w:r></w:hyperlink>'
            f'<w:r><w:t xml:space="preserve">{after}</w:t></w:r></w:p></w:{kind}>'
        )
    part = (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:{kind}s xmlns:w="{W_NS}" xmlns:r="{R_NS}">'
        f'<w:{kind} w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:{kind}>'
        + "".join(body)
        + f"</w:{kind}s>"
    )
    part_rels = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        + "".join(rels)
        + "</Relationships>"
    )
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for item in src.infolist():
            content = src.read(item.filename)
            if item.filename == "[Content_Types].xml":
                content = content.replace(
                    b"</Types>",
                    f'<Override PartName="/word/{kind}s.xml" ContentType="application/'
                    f'vnd.openxmlformats-officedocument.wordprocessingml.{kind}s+xml"/></Types>'.encode(),
                )
            if item.filename == "word/_rels/document.xml.rels":
                content = content.replace(
                    b"</Relationships>",
                    f'<Relationship Id="rIdNotes{kind}" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
                    f'relationships/{kind}s" Target="{kind}s.xml"/></Relationships>'.encode(),
                )
            z.writestr(item, content)
        z.writestr(f"word/{kind}s.xml", part)
        z.writestr(f"word/_rels/{kind}s.xml.rels", part_rels)
    return out.getvalue()


def _save(doc) -> bytes:
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def test_generated_brief_reads_every_link_form_and_quote_convention() -> None:
    doc = docx.Document()
    doc.add_heading("Python releases", level=1)
    p = doc.add_paragraph("CPython 3.11 is ")
    _hyperlink(p, "https://docs.python.org/3/whatsnew/3.11.html", "25% ", "faster")  # split over runs
    p.add_run(" than 3.10: “CPython 3.11 is an average of 25% faster than CPython 3.10”. Nothing else here.")
    p = doc.add_paragraph("Distutils was deprecated in 3.10 (")
    _field(p, ' HYPERLINK "https://peps.python.org/pep-0632/" \\o "tip" ', "PEP 632")
    p.add_run(").")
    doc.add_paragraph("In Python 3.10 and 3.11, distutils will be formally marked as deprecated.", style="Quote")
    p = doc.add_paragraph("Free threading landed in ")
    _field(p, ' HYPERLINK "https://docs.python.org/3/whatsnew/3.13.html" ', "Python ", nested=(" DATE ", "3.13"))
    p.add_run(".")
    doc.add_paragraph("Quote: “This is an experimental feature and therefore is not enabled by default.”")
    p = doc.add_paragraph("PEP 703 makes the GIL optional.")
    _note_ref(p, "footnote", 1)
    p.add_run(" It was accepted in 2023.")
    _note_ref(p, "endnote", 1)
    table = doc.add_table(rows=1, cols=2)
    table.rows[0].cells[0].text = "Left cell cites nothing."
    cell = table.rows[0].cells[1].paragraphs[0]
    cell.add_run("Python 3.12 removed distutils, see ")
    _hyperlink(cell, "https://docs.python.org/3/whatsnew/3.12.html", "docs.python.org")
    cell.add_run(".")
    data = _save(doc)
    data = _add_notes(
        data,
        "footnote",
        {1: ("See ", "https://peps.python.org/pep-0703/", " — “This PEP proposes adding a build configuration”.")},
    )
    data = _add_notes(data, "endnote", {1: ("Accepted: ", "https://discuss.python.org/t/pep-703/", "")})

    brief = read_brief(data, "brief.docx")
    got = [(c.url, c.quote, c.figure_text) for c in brief.claims]
    assert got == [
        (
            "https://docs.python.org/3/whatsnew/3.11.html",
            "CPython 3.11 is an average of 25% faster than CPython 3.10",
            "CPython 3.11 is 25% faster than 3.10.",
        ),
        (
            "https://peps.python.org/pep-0632/",
            "In Python 3.10 and 3.11, distutils will be formally marked as deprecated.",
            "Distutils was deprecated in 3.10.",
        ),
        (
            "https://docs.python.org/3/whatsnew/3.13.html",
            "This is an experimental feature and therefore is not enabled by default.",
            "Free threading landed in Python 3.13.",
        ),
        (
            "https://peps.python.org/pep-0703/",
            "This PEP proposes adding a build configuration",
            "PEP 703 makes the GIL optional.",
        ),
        ("https://discuss.python.org/t/pep-703/", None, "It was accepted in 2023."),
        ("https://docs.python.org/3/whatsnew/3.12.html", None, "Python 3.12 removed distutils."),
    ]
    assert brief.claims[0].anchor == "25% faster"
    assert brief.uncited == ("Nothing else here.", "Left cell cites nothing.")
    # Locations: body paragraphs by python-docx's index, table cells by their path.
    reread = docx.Document(io.BytesIO(data))
    for claim in brief.claims[:5]:
        loc = claim.location
        assert loc is not None and loc.kind == "paragraph"
        assert reread.paragraphs[loc.index].text[loc.start : loc.end] == claim.text
    loc = brief.claims[5].location
    assert loc is not None and (loc.kind, loc.index, loc.path) == ("table", 0, (0, 0, 1, 0))
    assert reread.tables[0].rows[0].cells[1].paragraphs[0].text[loc.start : loc.end] == brief.claims[5].text


def test_numbered_references_in_a_word_list() -> None:
    doc = docx.Document()
    doc.add_paragraph("CPython 3.11 is faster [1]. Distutils is deprecated [2].")
    doc.add_heading("References", level=2)
    for url in ("https://docs.python.org/3/whatsnew/3.11.html", "https://peps.python.org/pep-0632/"):
        p = doc.add_paragraph("", style="List Number")  # Word's own numbering: no number in the text
        _hyperlink(p, url, url)
    brief = read_brief(_save(doc), "refs.docx")
    assert [(c.text, c.url) for c in brief.claims] == [
        ("CPython 3.11 is faster [1].", "https://docs.python.org/3/whatsnew/3.11.html"),
        ("Distutils is deprecated [2].", "https://peps.python.org/pep-0632/"),
    ]
    assert brief.uncited == ()
