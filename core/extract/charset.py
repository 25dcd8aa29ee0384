"""A body's charset: the one it declares, unless the bytes show that declaration to be wrong.

``decode`` reads the byte order mark, the Content-Type header, then ``<meta charset>`` /
http-equiv / the XML declaration, and without any of them UTF-16's shape, UTF-8, then detection
(charset_normalizer). A declaration is overruled in two cases only, both said in the returned
note ("The server said UTF-8; the page is Windows-1252"): a body declared in a one-byte charset
that is valid UTF-8 beyond ASCII (read as declared it is mojibake, "ZÃ¼rich"), and a body
declared UTF-8 whose non-ASCII bytes are mostly not UTF-8 (read as declared they are U+FFFD,
"Z�rich") and that another charset reads without a single bad byte. A page that reads cleanly as
declared is never re-decoded; a UTF-8 page with a stray byte keeps UTF-8.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from charset_normalizer import from_bytes

from core.settings import Settings

_CHARSET_PARAM = re.compile(r"charset\s*=\s*[\"']?\s*([-\w.:]+)", re.IGNORECASE)
_META_CHARSET = re.compile(
    rb"<meta[^>]{0,500}?charset\s*=\s*[\"']?\s*([-\w.:]+)|<\?xml[^>]{0,200}?encoding\s*=\s*[\"']([-\w.:]+)",
    re.IGNORECASE,
)
# Browsers read these labels as windows-1252 (WHATWG Encoding); so must we, or curly quotes break.
_AS_CP1252 = frozenset({"latin_1", "iso8859-1", "ascii", "us-ascii", "iso-8859-1", "latin1", "l1", "cp819"})
# A well-formed UTF-8 sequence of two to four bytes (RFC 3629: no overlongs, no surrogates).
_UTF8_MULTI = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}|\xed[\x80-\x9f][\x80-\xbf]"
    rb"|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}|\xf4[\x80-\x8f][\x80-\xbf]{2}"
)
#: The legacy charsets web servers still send (WHATWG Encoding's list): DOS code pages never are.
_WEB_LEGACY = (
    "cp1252", "cp1250", "cp1251", "cp1253", "cp1254", "cp1255", "cp1256", "cp1257", "cp1258", "cp874",
    "iso8859_2", "iso8859_5", "iso8859_7", "iso8859_15", "koi8_r", "koi8_u",
    "shift_jis", "euc_jp", "gb18030", "big5", "euc_kr",
)  # fmt: skip
_HIGH = re.compile(rb"[\x80-\xff]")
# C1 controls: a one-byte charset that yields them is not the page's (cp1252 prints 0x80-0x9f).
_C1 = re.compile(r"[\x80-\x9f]")
_NAMES = {
    "utf-8": "UTF-8",
    "utf_8": "UTF-8",
    "cp1252": "Windows-1252",
    "cp1250": "Windows-1250",
    "cp1251": "Windows-1251",
    "cp1253": "Windows-1253",
    "cp1254": "Windows-1254",
    "cp1257": "Windows-1257",
    "koi8-r": "KOI8-R",
    "mac-roman": "Mac Roman",
    "shift_jis": "Shift_JIS",
    "euc_jp": "EUC-JP",
    "gb2312": "GB2312",
    "gbk": "GBK",
    "big5": "Big5",
    "euc_kr": "EUC-KR",
}


@dataclass(frozen=True, kw_only=True)
class Decoded:
    """A body as text: the codec it was read with, and a note when its declared charset was overruled."""

    text: str
    charset: str
    note: str = ""


def codec(label: str) -> str | None:
    """Return Python's codec name for a charset label (latin-1 read as cp1252), or None when unknown."""
    try:
        name = codecs.lookup(label.strip().lower()).name
    except LookupError:
        return None
    return "cp1252" if name in _AS_CP1252 or label.strip().lower() in _AS_CP1252 else name


def shown_charset(name: str) -> str:
    """Return a codec or a declared label as an editor knows it ("Windows-1252", "UTF-8", "ISO-8859-1")."""
    key = name.strip().lower()
    if key in _NAMES:
        return _NAMES[key]
    if key.startswith(("windows-", "cp12")):
        return "Windows-" + key.removeprefix("windows-").removeprefix("cp")
    return key.upper().replace("_", "-").replace("ISO8859", "ISO-8859")


def _bom(body: bytes) -> tuple[str, int] | None:
    if body.startswith(codecs.BOM_UTF8):
        return "utf-8", 3
    if body.startswith(codecs.BOM_UTF16_LE) or body.startswith(codecs.BOM_UTF16_BE):
        return "utf-16", 0
    return None


def _utf8(body: bytes) -> str | None:
    """Return the body read strictly as UTF-8, or None when a byte is not UTF-8."""
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _clean(body: bytes, name: str) -> str | None:
    """Return the body read strictly in ``name``, or None when a byte is not of it or it gives C1 controls."""
    try:
        text = body.decode(name)
    except (UnicodeDecodeError, LookupError):
        return None
    return None if _C1.search(text) else text


def _wide(name: str) -> bool:
    """Return True for UTF-16 and UTF-32, whose zero bytes make English text look like ASCII."""
    return name.replace("_", "-").startswith(("utf-16", "utf-32"))


def _declared(body: bytes, content_type: str) -> tuple[str, str, str] | None:
    """Return (codec, label as declared, who declared it) from the header, else the page's own declaration."""
    m = _CHARSET_PARAM.search(content_type or "")
    if m and (name := codec(m.group(1))):
        return name, m.group(1), "The server said"
    m2 = _META_CHARSET.search(body[:8192])
    if m2:
        label = (m2.group(1) or m2.group(2)).decode("ascii", "replace")
        name = codec(label)
        if name:
            # A <meta> cannot truthfully claim UTF-16: it was readable as ASCII (WHATWG says utf-8).
            return ("utf-8" if _wide(name) else name), label, "The page's own markup said"
    return None


def _legacy(body: bytes, settings: Settings) -> str | None:
    """Return the one-byte (or legacy multi-byte) charset that reads a body UTF-8 does not, or None."""
    high = len(_HIGH.findall(body))
    in_utf8 = sum(len(m) for m in _UTF8_MULTI.findall(body))
    if not high or (high - in_utf8) / high < settings.charset_min_not_utf8_share:
        return None  # mostly UTF-8 with a stray byte: U+FFFD for that byte is the truthful reading
    found = from_bytes(body, cp_isolation=list(_WEB_LEGACY))
    best = found.best()
    if best is None:
        return "cp1252" if _clean(body, "cp1252") is not None else None
    # Where Windows-1252 reads as cleanly as the best guess, it is the page's: the web's own legacy
    # default (WHATWG), and the detector ties Western text with DOS and Baltic code pages.
    western = from_bytes(body, cp_isolation=["cp1252"]).best() if _clean(body, "cp1252") is not None else None
    name = "cp1252" if western is not None and western.chaos <= best.chaos else codec(best.encoding)
    return name if name and _clean(body, name) is not None else None


def _note(who: str, label: str, actual: str) -> str:
    return (
        f"{who} {shown_charset(label)}; the page is {shown_charset(actual)}:"
        f" Verbatim read it as {shown_charset(actual)}."
    )


def decode(body: bytes, content_type: str, settings: Settings | None = None) -> Decoded:
    """Return the body as text in its charset, with a note when the declared one was wrong; never fails."""
    settings = settings or Settings()
    bom = _bom(body)
    if bom:
        return Decoded(text=body[bom[1] :].decode(bom[0], errors="replace"), charset=bom[0])
    declared = _declared(body, content_type)
    if declared is not None:
        name, label, who = declared
        if _wide(name):
            return Decoded(text=_lenient(body, name), charset=name)  # its zero bytes make it look ASCII
        if body.isascii():
            return Decoded(text=body.decode("ascii"), charset=name)
        text = _utf8(body)
        if text is not None:
            # Text in a one-byte charset is valid UTF-8 by chance only when it is very short.
            return Decoded(text=text, charset="utf-8", note="" if name == "utf-8" else _note(who, label, "utf-8"))
        other = _legacy(body, settings) if name == "utf-8" else None
        if other is not None:
            return Decoded(text=body.decode(other), charset=other, note=_note(who, label, other))
        return Decoded(text=_lenient(body, name), charset=name)
    head = body[:4096]
    odd, even = head[1::2].count(0), head[0::2].count(0)
    # UTF-16 without a byte order mark: each ASCII character leaves a zero byte on the same side.
    # Text in any other encoding has no zero bytes at all.
    if odd + even > len(head) // 10 and max(odd, even) >= 9 * min(odd, even):
        name = "utf-16-le" if odd > even else "utf-16-be"
        return Decoded(text=body.decode(name, errors="replace"), charset=name)
    text = _utf8(body)
    if text is not None:
        return Decoded(text=text, charset="utf-8")
    best = from_bytes(body).best()
    name = (codec(best.encoding) if best is not None else None) or "cp1252"
    return Decoded(text=_lenient(body, name), charset=name)


def _lenient(body: bytes, name: str) -> str:
    try:
        return body.decode(name, errors="replace")
    except LookupError:  # a codec codecs.lookup knows but cannot decode with (rare)
        return body.decode("utf-8", errors="replace")
