"""Briefs that cannot be read: each gives a BriefError naming the file and what to do.

A brief that reads but holds no claims is not an error (a Brief with a warning); an
extension that lies is read as what the bytes are, with a warning.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pymupdf
import pytest

from core.brief import BriefError, read_brief
from core.settings import Settings

SAMPLES = Path(__file__).resolve().parents[2] / "assets" / "samples" / "formats"
PDF = (SAMPLES / "brief.pdf").read_bytes()
DOCX = (SAMPLES / "brief.docx").read_bytes()


def _encrypted_pdf() -> bytes:
    doc = pymupdf.open(stream=PDF, filetype="pdf")
    return doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="secret", owner_pw="owner")


def _scanned_pdf() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 50, 50), False)
    pix.clear_with(200)
    page.insert_image(pymupdf.Rect(72, 72, 300, 300), pixmap=pix)
    return doc.tobytes()


def _zip_bomb() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("word/document.xml", b"\0" * (3 * 1024 * 1024))  # 3 MB of zeros: a few KB packed
    return out.getvalue()


def _zip_without_document() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("xl/workbook.xml", "<workbook/>")
    return out.getvalue()


SMALL_DOCX_LIMIT = Settings(max_docx_unpacked_bytes=1024 * 1024)

CASES = [
    (
        "empty",
        b"",
        "brief.md",
        None,
        "brief.md is empty: there is nothing to check. Choose the file again, or paste the brief.",
    ),
    (
        "blank",
        b" \n\t\n",
        "brief.txt",
        None,
        "brief.txt is empty: there is nothing to check. Choose the file again, or paste the brief.",
    ),
    (
        "too large",
        b"a" * (20 * 1024 * 1024 + 1),
        "huge.md",
        None,
        "huge.md is 20.0 MB, more than the 20 MB a brief may be. Split it into smaller briefs, or remove images and "
        "attachments.",
    ),
    (
        "encrypted pdf",
        _encrypted_pdf(),
        "brief.pdf",
        None,
        "brief.pdf is encrypted: Verbatim cannot read it. Save an unencrypted copy or paste the text.",
    ),
    (
        "truncated pdf",
        PDF[: len(PDF) // 2],
        "brief.pdf",
        None,
        "brief.pdf is a damaged or incomplete PDF (cut short?): no text could be read from it. Save or export the PDF "
        "again, or paste the text.",
    ),
    (
        "corrupt pdf",
        b"%PDF-1.7\n" + bytes(range(256)) * 40,
        "brief.pdf",
        None,
        "brief.pdf is a damaged or incomplete PDF: it cannot be opened (Failed to open stream). Save or export the PDF "
        "again, or paste the text.",
    ),
    (
        "scanned pdf",
        _scanned_pdf(),
        "scan.pdf",
        None,
        "scan.pdf has no text layer (it may be a scan), so Verbatim cannot read its claims. Export the brief as a PDF "
        "with text, or paste the text.",
    ),
    (
        "docx not a zip",
        bytes(range(256)) * 8,
        "brief.docx",
        None,
        "brief.docx is not a Word document: it is not a .docx (zip) archive, so it may be damaged or another format. "
        "Save it again from Word as .docx, or paste the text.",
    ),
    (
        "truncated docx",
        DOCX[: len(DOCX) // 2],
        "brief.docx",
        None,
        "brief.docx is not a readable Word document: it is not a complete .docx (zip) archive, so it may be damaged, "
        "cut short or another format. Save it again from Word as .docx, or paste the text.",
    ),
    (
        "zip bomb",
        _zip_bomb(),
        "bomb.docx",
        SMALL_DOCX_LIMIT,
        "bomb.docx would unpack to 3.0 MB in 2 parts, more than a Word brief may (1 MB): it is not an ordinary "
        "document (possibly a zip bomb) and was not opened. Save the brief again from Word, or paste the text.",
    ),
    (
        "zip but not word",
        _zip_without_document(),
        "sheet.docx",
        None,
        "sheet.docx is a zip archive but not a Word document (it has no word/document.xml). Upload the brief as .docx, "
        "PDF, Markdown or text.",
    ),
    (
        "old doc",
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600,
        "brief.doc",
        None,
        "brief.doc is an old Word document (.doc), which Verbatim cannot read. Save it as .docx in Word, or paste the "
        "text.",
    ),
    (
        "binary",
        bytes(range(256)) * 4,
        "brief.bin",
        None,
        "brief.bin is not a brief Verbatim can read: it holds binary data. Upload Markdown, plain text, DOCX, PDF, "
        "JSON or CSV, or paste the brief's text.",
    ),
    (
        "malformed json",
        b'{"claims": [',
        "claims.json",
        None,
        "claims.json is not valid JSON (line 1, column 13: Expecting value). Fix the file, or export the claims again "
        'as {"claims": [{"claim": ..., "url": ..., "quote": ...}]}.',
    ),
]


@pytest.mark.parametrize(("data", "name", "settings", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_unreadable_briefs_say_why_and_what_to_do(
    data: bytes, name: str, settings: Settings | None, message: str
) -> None:
    with pytest.raises(BriefError) as err:
        read_brief(data, name, settings)
    assert str(err.value) == message


def test_zip_bomb_under_the_default_limit_is_stopped_before_unpacking() -> None:
    # A declared size above the real default (200 MB): the archive is refused from its directory alone.
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("word/document.xml", "<w:document/>")
    data = bytearray(out.getvalue())
    # Patch the central directory's uncompressed size (offset 24 in the entry) to 300 MB.
    cd = data.rfind(b"PK\x01\x02")
    data[cd + 24 : cd + 28] = (300 * 1024 * 1024).to_bytes(4, "little")
    with pytest.raises(BriefError, match=r"^bomb\.docx would unpack to 300 MB in 1 parts"):
        read_brief(bytes(data), "bomb.docx")


@pytest.mark.parametrize(
    ("data", "name", "fmt", "warning"),
    [
        (PDF, "brief.docx", "pdf", "brief.docx is really a PDF file, not Word (.docx); it was read as PDF."),
        (DOCX, "brief.pdf", "docx", "brief.pdf is really a Word (.docx) file, not PDF; it was read as Word (.docx)."),
        (
            (SAMPLES / "brief.md").read_bytes(),
            "brief.docx",
            "markdown",
            "brief.docx is really a Markdown file, not Word (.docx); it was read as Markdown.",
        ),
        (
            (SAMPLES / "brief.json").read_bytes(),
            "brief.md",
            "json",
            "brief.md is really a JSON file, not Markdown; it was read as JSON.",
        ),
    ],
)
def test_an_extension_that_lies_is_read_as_what_the_file_is(data: bytes, name: str, fmt: str, warning: str) -> None:
    brief = read_brief(data, name)
    assert brief.format == fmt
    assert brief.warnings[0] == warning
    assert len(brief.claims) == 6


def test_a_brief_without_claims_is_not_an_error() -> None:
    brief = read_brief(b"Just some notes.\n\nNo links at all.", "notes.md")
    assert (brief.claims, brief.uncited) == ((), ("Just some notes.", "No links at all."))
    assert brief.warnings == (
        "notes.md has no claim with a citation: no sentence links to a source. Add links (or a references section) "
        "to the sentences to be checked.",
    )


def test_too_many_claims_are_cut_with_a_warning() -> None:
    text = "\n\n".join(f"Claim {n} is true [src](https://example.org/{n})." for n in range(12))
    brief = read_brief(text.encode(), "many.md", Settings(max_claims=10))
    assert len(brief.claims) == 10
    assert brief.warnings[-1] == (
        "many.md has 12 claims; only the first 10 are checked and 2 are left out. Split the brief to check the rest."
    )


def test_latin1_and_utf16_text_briefs_are_decoded() -> None:
    text = "Café prices rose 5% [src](https://example.org/café)."
    for data in (text.encode("cp1252"), text.encode("utf-16")):
        (claim,) = read_brief(data, "brief.txt").claims
        assert claim.text == "Café prices rose 5% src."


def test_empty_pasted_text_is_an_error() -> None:
    from core.brief.read import parse_markdown

    with pytest.raises(BriefError) as err:
        parse_markdown("  \n ")
    assert str(err.value) == (
        "The pasted brief is empty: there is nothing to check. Paste the brief's text, or upload its file."
    )
