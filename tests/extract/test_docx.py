"""DOCX sources (core/extract/docx.py) on the corpus's real DOCX files, and bad files."""

from __future__ import annotations

import io
import re
import zipfile
from collections import Counter
from pathlib import Path

import pytest

from core.extract import extract, extract_docx
from core.match import match_quote, prepare
from core.models import PageText, Unreadable
from core.settings import Settings
from tests.servers import CORPUS

DOCX = CORPUS / "docx"
PANDOC = sorted((DOCX / "pandoc").glob("*.docx"))


def _text(path: Path) -> PageText:
    return _text_of(path.read_bytes())


def _text_of(body: bytes) -> PageText:
    page = extract_docx(body)
    assert isinstance(page, PageText), page
    return page


def _unescape(word: str) -> str:
    # Haskell's show: "\\24076" is a code point in decimal, "\\&" separates it from a following digit.
    return re.sub(r"\\(\d+)|\\&|\\(.)", lambda m: chr(int(m[1])) if m[1] else (m[2] or ""), word)


def _native_words(native: str) -> Counter[str]:
    # Every Str token of pandoc's expected document tree (link targets and attributes are not text).
    return Counter(_unescape(w) for w in re.findall(r'Str "((?:[^"\\]|\\.)*)"', native))


def _without_markers(page: PageText) -> str:
    text = page.text
    for s, e in sorted(page.footnotes, reverse=True):
        text = text[:s] + " " + text[e:]
    return text


@pytest.mark.parametrize("path", PANDOC, ids=lambda p: p.name)
def test_every_word_pandoc_expects_is_in_the_text(path: Path) -> None:
    expected = _native_words(path.with_suffix(".native").read_text(encoding="utf-8"))
    assert expected
    # Pandoc splits words at link edges ("Mitchell的" + link "Foundations") and places a note inside its
    # paragraph: so each token is looked for in our text (white space aside), not word by word in order.
    ours = "".join(_without_markers(_text(path)).split())
    missing = [w for w in expected if w not in ours]
    assert not missing, missing


def test_field_instructions_never_leak() -> None:
    # instrText holds 'HYPERLINK "http://..."': Word shows only the field's result.
    for path in PANDOC:
        text = _text(path).text
        assert "HYPERLINK" not in text and "PAGEREF" not in text and "XE " not in text


def test_footnotes_and_endnotes_follow_the_body_with_marked_numbers() -> None:
    page = _text(DOCX / "pandoc" / "notes.docx")
    assert (
        page.text
        == "A footnote\nTest footnote.1 Test endnote.i\n1 My note.\ni This is an endnote at the end of the document."
    )
    assert [page.text[s:e] for s, e in page.footnotes] == ["1", "i", "1", "i"]
    assert [page.text[s:e] for s, e in page.blocks] == page.text.split("\n")


def test_hyperlink_split_across_runs_reads_as_one_sentence() -> None:
    page = _text(DOCX / "python-docx" / "par-hyperlinks.docx")
    assert "Three hyperlinks: the first one here, the second one, and the third." in page.text.split("\n")


def test_table_of_contents_and_paragraphs_are_blocks() -> None:
    page = _text(DOCX / "docx2python" / "zen_of_python.docx")
    blocks = [page.text[s:e] for s, e in page.blocks]
    assert "Explicit is better than implicit." in blocks
    assert "Readability counts." in blocks


GEMINI_DOCX = CORPUS / "briefs" / "JiSeok1579+high-na-euv-twin" / "gemini_high_na_euv_deep_research_report.docx"


def test_the_cells_of_a_table_row_are_one_line_and_rows_are_lines() -> None:
    # Gemini's report, saved as DOCX, tabulates absorber materials: one paragraph per cell.
    page = _text(GEMINI_DOCX)
    blocks = [page.text[s:e] for s, e in page.blocks]
    assert "Ruthenium (Ru) ~0.89 ~0.017 ~20 nm 불량 (피치 의존성 극심) 초점 변화에 극도로 취약" in blocks
    prepared = prepare(page)
    assert match_quote("Ruthenium (Ru) ~0.89 ~0.017 ~20 nm", prepared).found
    # The end of a row is a line end: a quote runs into the next row only with the break.
    across = "초점 변화에 극도로 취약 High- 신소재 (Ni, Al계)"
    assert not match_quote(across, prepared).found
    assert match_quote(across.replace("취약 ", "취약\n"), prepared).found


def test_a_cell_of_several_paragraphs_breaks_at_each() -> None:
    # The same report with the Ruthenium row's first cell holding a second paragraph, as a cell
    # with a note under its name does: that cell's paragraphs are lines of their own.
    with zipfile.ZipFile(GEMINI_DOCX) as zf:
        parts = {n: zf.read(n) for n in zf.namelist()}
    xml = parts["word/document.xml"].decode()
    cell_end = xml.index("</w:p>", xml.index("Ruthenium (Ru)")) + len("</w:p>")
    parts["word/document.xml"] = (
        xml[:cell_end] + "<w:p><w:r><w:t>Platinum group</w:t></w:r></w:p>" + xml[cell_end:]
    ).encode()
    blocks = _text_of(_zip(parts)).text.split("\n")
    at = blocks.index("Ruthenium (Ru)")
    assert blocks[at + 1 : at + 3] == [
        "Platinum group",
        "~0.89 ~0.017 ~20 nm 불량 (피치 의존성 극심) 초점 변화에 극도로 취약",
    ]


def test_docx_served_as_octet_stream_is_read() -> None:
    result = extract((DOCX / "pandoc" / "notes.docx").read_bytes(), "application/octet-stream")
    assert isinstance(result, PageText) and result.kind == "docx"


# ---------------------------------------------------------------- bad files


def _zip(parts: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    return buf.getvalue()


def test_zip_bomb_is_unreadable() -> None:
    # A real document.xml padded to 5 MB of white space: 5 KB zipped, above a 1 MB cap.
    with zipfile.ZipFile(DOCX / "pandoc" / "notes.docx") as zf:
        parts = {n: zf.read(n) for n in zf.namelist()}
    parts["word/document.xml"] += b" " * 5_000_000
    body = _zip(parts)
    assert len(body) < 100_000
    result = extract_docx(body, Settings(docx_max_part_bytes=1_000_000))
    assert result == Unreadable(
        "The DOCX file's part word/document.xml unpacks to more than 1 MB (a zip bomb, or not a real document), "
        "so it was not read. Open it in Word and save it as .docx again, or upload a PDF of it, or paste its text."
    )


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"This is plain text with a .docx name.", "not a zip archive"),
        (_zip({"xl/workbook.xml": b"<workbook/>", "[Content_Types].xml": b"<Types/>"}), "an Excel workbook"),
        (_zip({"mimetype": b"application/epub+zip"}), "a zip archive, not a Word document"),
        (_zip({"word/document.xml": b"<w:document><unclosed"}), "its XML could not be read"),
    ],
)
def test_files_that_are_not_docx_are_unreadable(body: bytes, words: str) -> None:
    result = extract_docx(body)
    assert isinstance(result, Unreadable)
    assert words in result.reason


def test_truncated_docx_is_unreadable() -> None:
    body = (DOCX / "docx2python" / "zen_of_python.docx").read_bytes()
    result = extract_docx(body[: len(body) // 2])
    assert isinstance(result, Unreadable)
    assert "Open it in Word and save it as .docx again" in result.reason
