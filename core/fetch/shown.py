"""How a cited URL is shown, stored and exported: its password masked, a look-alike host beside its punycode.

``mask_password`` replaces the password of every ``scheme://user:password@`` in a text by ``***``
(``alice:***@``): the one masking, applied where a brief becomes a run (``masked_brief``), so
that no claim, source record, report, store row or log line ever holds it. The policy still
refuses such a link without a request (the ``@`` stays). ``shown_url`` is a URL as the desk and
every export write it: masked, and a look-alike host (``core.fetch.lookalike``) followed by the
punycode a server really sees. It never fetches or resolves.
"""

from __future__ import annotations

import dataclasses
import io
import re
import zipfile
from urllib.parse import urlsplit

from core.fetch.lookalike import LookAlike, lookalike
from core.models import Brief, BriefFormat, Claim, UnusedLink

MASK = "***"
# scheme://user:password@ — the password runs to the authority's last "@" (a raw "@" in it is
# read so by urlsplit too); the authority ends at "/", "?", "#" or white space.
_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://[^\s/?#@:]*):([^\s/?#]*)@")


def mask_password(text: str) -> str:
    """Return text with the password of every URL in it replaced by ``***`` (user names kept)."""
    if "@" not in text:
        return text
    return _USERINFO.sub(lambda m: f"{m[1]}:{MASK}@" if m[2] != MASK else m[0], text)


def host_lookalike(url: str) -> LookAlike | None:
    """Return what makes the URL's host a look-alike of another name, or None (honest, ASCII or unparseable)."""
    try:
        host = urlsplit(url.strip()).hostname or ""
    except ValueError:
        return None
    return lookalike(host)


def shown_url(url: str) -> str:
    """Return a URL as the desk and the exports write it: password masked, a look-alike's punycode beside it."""
    masked = mask_password(url)
    found = host_lookalike(url)
    return f"{masked} (punycode: {found.punycode})" if found is not None else masked


def _masked_claim(claim: Claim) -> Claim:
    if "@" not in claim.text + claim.url + claim.figure_text + claim.anchor + claim.citation:
        return claim
    return dataclasses.replace(
        claim,
        text=mask_password(claim.text),
        url=mask_password(claim.url),
        figure_text=mask_password(claim.figure_text),
        anchor=mask_password(claim.anchor),
        citation=mask_password(claim.citation),
    )


def _masked_link(link: UnusedLink) -> UnusedLink:
    if "@" not in link.url + link.text + link.reason:
        return link
    return dataclasses.replace(
        link, url=mask_password(link.url), text=mask_password(link.text), reason=mask_password(link.reason)
    )


def _masked_docx(raw: bytes) -> bytes:
    """Return a DOCX with every password of a URL masked in its XML parts (links, field codes, text)."""
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as src:
            parts = [(info, src.read(info)) for info in src.infolist()]
    except (zipfile.BadZipFile, OSError, ValueError):
        return raw
    masked = [
        (info, mask_password(data.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape"))
        if info.filename.endswith((".xml", ".rels")) and b"@" in data
        else (info, data)
        for info, data in parts
    ]
    if all(a[1] is b[1] or a[1] == b[1] for a, b in zip(parts, masked, strict=True)):
        return raw  # nothing to mask: the file stays byte for byte as uploaded
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info, data in masked:
            dst.writestr(info, data)
    return out.getvalue()


def _masked_raw(raw: bytes, kind: BriefFormat) -> bytes:
    """Return the brief's own file with its URLs' passwords masked (a PDF's are left: its bytes are not text)."""
    if b"@" not in raw and kind is not BriefFormat.DOCX:
        return raw
    if kind is BriefFormat.DOCX:
        return _masked_docx(raw)
    if kind is BriefFormat.PDF:
        return raw
    return mask_password(raw.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape")


def masked_brief(brief: Brief, *, file: bool = True) -> Brief:
    """Return the brief with every password of a URL masked: claims, notes, unused links and (``file``) its own file."""
    return dataclasses.replace(
        brief,
        raw=_masked_raw(brief.raw, brief.format) if file else brief.raw,
        claims=tuple(_masked_claim(c) for c in brief.claims),
        uncited=tuple(mask_password(u) for u in brief.uncited),
        warnings=tuple(mask_password(w) for w in brief.warnings),
        unused_links=tuple(_masked_link(u) for u in brief.unused_links),
    )
