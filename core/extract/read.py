"""Turn a source's bytes into PageText: HTML, plain text, PDF and DOCX, or Unreadable with a reason.

``extract`` decides what the bytes are from the Content-Type header AND the bytes themselves
(a server may lie: a PDF served as text/html is read as a PDF, an image called text/html is
refused), then hands them to the reader for that kind. ``decode_body`` reads the charset
(``core.extract.charset``: declared, unless the bytes show the declaration wrong, which the
page's ``charset_note`` then says). HTML entities
are decoded exactly once, by the HTML parser; plain text is never entity-decoded.

It refuses to fetch, to guess text out of binary data, to run JavaScript, or to cut the page to
a "main content" window: readability only marks main spans (core/extract/html.py).
"""

from __future__ import annotations

import dataclasses
import re

from core.extract.charset import decode
from core.extract.html import html_page_text
from core.extract.parse import Scripts
from core.models import PageKind, PageText, Span, Unreadable
from core.settings import Settings

_HTML_START = re.compile(
    r"^\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html|head|body)\b", re.I | re.S
)
_HTML_ANYWHERE = re.compile(r"<(?:html|head|body|p|div|title|meta|table|br)\b[^>]*>", re.IGNORECASE)
_GARBAGE = re.compile(r"[\x00-\x08\x0e-\x1f\x7f\ufffd]")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")
_LIST_ITEM = re.compile(r"^\s*(?:[-*•◦▪]|\d{1,3}[.)]|[a-z][.)])\s+")
_SPACES = re.compile(r"[ \t\f\v\r]+")

# Magic numbers of formats that are never text: (prefix, what it is, what to do).
_BINARY_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"RIFF", "a media file (RIFF: WebP, WAV or AVI)"),
    (b"\x1f\x8b", "gzip-compressed data that was not decompressed"),
    (b"BZh", "bzip2-compressed data"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"Rar!", "a RAR archive"),
    (b"\xd0\xcf\x11\xe0", "an old Microsoft Office file (.doc, .xls or .ppt)"),
    (b"\x00\x00\x00\x18ftyp", "a video file"),
    (b"\x00\x00\x00\x20ftyp", "a video file"),
    (b"OggS", "an audio or video file"),
    (b"ID3", "an MP3 audio file"),
)
#: File name endings an editor may upload as a source: the kinds ``extract`` reads (the desk's upload types).
SOURCE_EXTENSIONS = (".html", ".htm", ".xhtml", ".pdf", ".docx", ".txt", ".text")

_WHAT_TO_DO = "Upload a PDF, DOCX or HTML copy of the source, or paste its text."
_JS_WHAT_TO_DO = "Open it in a browser and paste the text, or upload a saved copy of the page."


def charset_of(body: bytes, content_type: str) -> str:
    """Return the codec ``body`` is read with (core.extract.charset decides); never fails."""
    return decode(body, content_type).charset


def decode_body(body: bytes, content_type: str) -> str:
    """Return the body as text, in the charset core.extract.charset finds; undecodable bytes become U+FFFD."""
    return decode(body, content_type).text


def extract_html(html: str | bytes, content_type: str = "", url: str = "") -> PageText:
    """Return the page's whole visible text with blocks, footnotes and main spans (text "" if none)."""
    text = decode_body(html, content_type) if isinstance(html, bytes) else html
    return html_page_text(text, url)[0]


def extract_text(text: str) -> PageText:
    """Return plain text as PageText: blank-line paragraphs and list-item lines become blocks."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    parts: list[str] = []
    blocks: list[Span] = []
    pos = 0
    for para in _PARAGRAPH_BREAK.split(text):
        current: list[str] = []
        for line in para.split("\n"):
            line = _SPACES.sub(" ", line).strip()
            if not line:
                continue
            if current and _LIST_ITEM.match(line):
                pos = _add_block(" ".join(current), parts, blocks, pos)
                current = []
            current.append(line)
        if current:
            pos = _add_block(" ".join(current), parts, blocks, pos)
    return PageText(text="\n".join(parts), kind=PageKind.TEXT, blocks=tuple(blocks))


def _add_block(block: str, parts: list[str], blocks: list[Span], pos: int) -> int:
    start = pos + (1 if parts else 0)
    parts.append(block)
    blocks.append((start, start + len(block)))
    return start + len(block)


def _binary_kind(body: bytes) -> str | None:
    for magic, what in _BINARY_MAGIC:
        if body.startswith(magic):
            return what
    return None


def _looks_like_html(text: str, content_type: str) -> bool:
    head = text[:4096]
    if _HTML_START.match(head):
        return True
    if "text/plain" in content_type:
        return False
    return bool(_HTML_ANYWHERE.search(head))


def _needs_js(page: PageText, scripts: Scripts, settings: Settings) -> str | None:
    """Return why the page needs JavaScript, or None: without evidence, a short page is just short."""
    shown = page.text[: page.hidden[0][0]] if page.hidden else page.text
    visible = len("".join(shown.split()))
    asks = "javascript" in scripts.noscript.lower()
    if visible < settings.js_min_text_chars:
        # Evidence that scripts build the page: an empty application root, scripts that write
        # the page, a <noscript> asking for JavaScript, or no text at all beside scripts.
        little = f"it shows only {visible} characters of text without JavaScript"
        if scripts.empty_app_root and scripts.count:
            return f"its application root is empty and {little}"
        if scripts.builders or (visible == 0 and scripts.count):
            return f"its scripts build the page and {little}"
    if visible < settings.js_noscript_max_text_chars and asks:
        return "it asks for JavaScript and shows little text without it"
    return None


def extract(body: bytes, content_type: str, url: str = "", settings: Settings | None = None) -> PageText | Unreadable:
    """Return the source's PageText, or Unreadable saying why its bytes hold no text to match."""
    settings = settings or Settings()
    ctype = (content_type or "").split(";")[0].strip().lower()
    name = f"The source {url}" if url else "The source"
    if not body or not body.strip():
        return Unreadable(f"{name} is empty: the server sent no content. {_WHAT_TO_DO}")
    head = body[:1024]
    if b"%PDF-" in head:
        from core.extract.pdf import extract_pdf

        return extract_pdf(body, settings)
    if body.startswith(b"PK\x03\x04"):
        from core.extract.docx import extract_docx

        return extract_docx(body, settings)
    if ctype == "application/pdf":
        return Unreadable(
            f"{name} says it is a PDF, but its bytes are not a PDF (it may be an error page). {_WHAT_TO_DO}"
        )
    if "wordprocessingml" in ctype:
        return Unreadable(f"{name} says it is a DOCX file, but its bytes are not a DOCX (zip) file. {_WHAT_TO_DO}")
    what = _binary_kind(body)
    if what:
        return Unreadable(f"{name} is {what}, not text, so there is nothing to match quotes against. {_WHAT_TO_DO}")
    decoded = decode(body, content_type, settings)
    text = decoded.text
    sample = text[:100_000]
    if sample and len(_GARBAGE.findall(sample)) / len(sample) > settings.max_garbage_ratio:
        return Unreadable(f"{name} is binary data ({ctype or 'no content type'}), not text. {_WHAT_TO_DO}")
    is_xml = ctype.endswith(("/xml", "+xml"))  # RSS, Atom, XHTML: the HTML parser reads their text
    if ctype in ("text/html", "application/xhtml+xml") or is_xml or _looks_like_html(text, ctype):
        page, scripts = html_page_text(text, url, settings)
        why = _needs_js(page, scripts, settings)
        if why:
            return Unreadable(f"The page needs JavaScript to show its text: {why}. {_JS_WHAT_TO_DO}")
        if not page.text:
            return Unreadable(f"{name} holds no text: its markup shows nothing a reader could quote. {_WHAT_TO_DO}")
        return dataclasses.replace(page, charset_note=decoded.note) if decoded.note else page
    if ctype.startswith(("image/", "audio/", "video/", "font/")):
        return Unreadable(f"{name} is of type {ctype}, which holds no text to match. {_WHAT_TO_DO}")
    page = extract_text(text)
    if not page.text:
        return Unreadable(f"{name} holds no text. {_WHAT_TO_DO}")
    return dataclasses.replace(page, charset_note=decoded.note) if decoded.note else page
