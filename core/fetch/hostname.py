"""Whether a link's host name and percent-escapes are well formed, said in an editor's words.

A link that cannot be parsed is that claim's problem only: ``link_problem`` names what is
wrong before httpx or the IDNA codec can raise on it, so the policy refuses it as a value
(a bad punycode label such as ``xn--a-``, a label over 63 characters, an empty label, a host
of more than 253 characters, a ``%`` that starts no escape). A host written to look like
another is a valid name: ``core.fetch.lookalike`` reads it, and the claim is flagged, not refused.
It never resolves or connects.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import idna

#: DNS limits (RFC 1035): 63 octets a label, 253 characters a name written without its final dot.
MAX_LABEL = 63
MAX_NAME = 253
_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _label_problem(label: str) -> str | None:
    if not label:
        return "it has an empty label (two dots in a row, or a leading dot)"
    try:
        ascii_label = idna.encode(label, uts46=True).decode("ascii") if not label.isascii() else label.lower()
    except (idna.IDNAError, UnicodeError) as e:
        return f"“{_short(label)}” cannot be written as an internationalised domain name ({e})"
    if len(ascii_label) > MAX_LABEL:
        return f"the label “{_short(label)}” is {len(ascii_label)} characters long, over the {MAX_LABEL} DNS allows"
    if ascii_label.startswith("xn--"):
        try:
            idna.decode(ascii_label)
        except (idna.IDNAError, UnicodeError) as e:
            return f"“{_short(ascii_label)}” is not a valid punycode label ({e})"
    return None


def host_problem(host: str) -> str | None:
    """Return why a URL's host (as written, IP literals excluded) is not a valid host name, or None."""
    name = host.rstrip(".")
    if "%" in name:
        return f"“{_short(name)}” holds a percent sign, which no host name has"
    if len(name) > MAX_NAME:
        return f"it is {len(name)} characters long, over the {MAX_NAME} DNS allows"
    for label in name.split("."):
        problem = _label_problem(label)
        if problem is not None:
            return problem
    return None


def link_problem(url: str) -> str | None:
    """Return what makes an http(s) link unparseable (host name or percent-escapes), or None when it is well formed."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    # IP literals ([::1], 127.1, 0x7f000001) are judged by the address rules, not as names.
    numeric = re.fullmatch(r"[0-9a-fx.]+", host) is not None and any(c.isdigit() for c in host)
    if host and not parts.netloc.rsplit("@", 1)[-1].startswith("[") and not numeric:
        problem = host_problem(host)
        if problem is not None:
            return f"the host name is not valid: {problem}"
    bad = _BAD_ESCAPE.search(url)
    if bad is not None:
        escape = url[bad.start() : bad.start() + 3]
        return f"“{escape}” is not a percent-escape (a % must be followed by two hex digits; a plain % is written %25)"
    return None
