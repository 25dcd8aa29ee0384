"""Read agents' claims files: JSON and CSV with one claim, URL and quote per row.

JSON: ``{"claims": [{"claim": ..., "url": ..., "quote": ...}]}`` or a bare list of such
objects; ``id`` optional (kept when given, made unique); extra fields ignored. CSV: a header
row naming the columns ``claim,url,quote`` (any order, extra columns ignored, a BOM and
``;`` or tab delimiters tolerated).

Key variants that research agents commonly write are accepted (first one present wins):

- claim: ``claim``, ``text``, ``statement``, ``assertion``, ``sentence``, ``claim_text``
- url: ``url``, ``source_url``, ``sourceUrl``, ``source`` (a string, or an object with
  ``url``), ``link``, ``href``, ``uri``, ``citation``, ``citation_url``, ``reference``
- quote: ``quote``, ``quotes``, ``evidence``, ``quotation``, ``excerpt``, ``supporting_quote``,
  ``source_quote``, ``verbatim``, ``snippet`` (a list of passages is joined with " … ", so
  each is matched as a fragment)

A URL value must look like one ("://", "www." or a scheme such as ``javascript:`` with no white
space, which is kept so that the check blocks it): ``"source": "What's New"`` is a title.
- the list of claims under ``claims``, ``results``, ``items``, ``citations`` or ``data``.

A row with no URL is listed as uncited; a row with no claim text is left out with a
warning. This module refuses to guess at anything beyond these names.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from core.errors import BriefError
from core.models import Brief, BriefFormat, Claim, Location, LocationKind
from core.settings import Settings

# A scheme and no white space: "javascript:alert(1)", "data:text/html,...", "mailto:x@y".
_SCHEME_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:\S+$")

CLAIM_KEYS = ("claim", "text", "statement", "assertion", "sentence", "claim_text")
URL_KEYS = (
    "url",
    "source_url",
    "sourceurl",
    "source",
    "link",
    "href",
    "uri",
    "citation",
    "citation_url",
    "reference",
)
QUOTE_KEYS = (
    "quote",
    "quotes",
    "evidence",
    "quotation",
    "excerpt",
    "supporting_quote",
    "source_quote",
    "verbatim",
    "snippet",
)
LIST_KEYS = ("claims", "results", "items", "citations", "data")
_MARKERS = re.compile(r"\s*\[\^?\w{1,4}\]")

_FIX_JSON = 'Fix the file, or export the claims again as {"claims": [{"claim": ..., "url": ..., "quote": ...}]}.'


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return ""


def _pick(row: Mapping[str, Any], keys: tuple[str, ...], *, url: bool = False) -> str:
    """Return the first non-empty value under one of keys (for URLs: the first that looks like one)."""
    lowered = {str(k).strip().lower(): v for k, v in row.items()}
    for key in keys:
        value = lowered.get(key)
        if isinstance(value, Mapping):
            value = {str(k).lower(): v for k, v in value.items()}.get("url") or value.get("href")
        if isinstance(value, list) and value:
            if not url and all(isinstance(v, str) for v in value):
                # A list of quoted passages: fragments of one quote, as an ellipsis would join them.
                value = " … ".join(v.strip() for v in value if v.strip())
            else:
                value = value[0]
                if isinstance(value, Mapping):
                    value = value.get("url")
        text = _text(value)
        # "source": "What's New in Python 3.11" names a source, it is no URL.
        if text and (not url or "://" in text or text.lower().startswith("www.") or _SCHEME_URL.match(text)):
            return text
    return ""


def _rows_to_brief(
    rows: Sequence[Mapping[str, Any]], name: str, fmt: BriefFormat, settings: Settings, raw: bytes, first_row: int
) -> Brief:
    claims: list[Claim] = []
    uncited: list[str] = []
    warnings: list[str] = []
    used: set[str] = set()
    for n, row in enumerate(rows):
        label = f"row {n + first_row}"
        text = _pick(row, CLAIM_KEYS)
        url = _pick(row, URL_KEYS, url=True)
        quote = _pick(row, QUOTE_KEYS) or None
        if not text:
            warnings.append(f'{name}, {label}: no claim text, so the row was left out. Fill in its "claim".')
            continue
        if not url:
            uncited.append(text)
            continue
        if len(claims) >= settings.max_claims:
            continue
        given = _text(row.get("id", row.get("claim_id")))
        cid = given or f"c{len(claims) + 1}"
        while cid in used:
            cid = f"{cid}-{n + first_row}" if given else f"c{len(claims) + 1}-{n + first_row}"
        if given and cid != given:
            warnings.append(f"{name}, {label}: the id {given!r} is used twice; this claim is {cid!r}.")
        used.add(cid)
        claims.append(
            Claim(
                id=cid,
                text=text,
                url=url,
                quote=quote,
                figure_text=_MARKERS.sub("", text).strip(),
                anchor="",
                location=Location(kind=LocationKind.ROW, index=n, start=0, end=len(text)),
            )
        )
    cited = sum(1 for r in rows if _pick(r, CLAIM_KEYS) and _pick(r, URL_KEYS, url=True))
    if cited > settings.max_claims:
        warnings.append(
            f"{name} has {cited} claims; only the first {settings.max_claims} are checked and "
            f"{cited - settings.max_claims} are left out. Split the file to check the rest."
        )
    if uncited:
        warnings.append(f"{name}: {len(uncited)} claim(s) have no URL and are listed as uncited.")
    if not claims:
        warnings.append(f"{name} has no claim with a URL. Give each claim the URL of its source.")
    return Brief(name=name, format=fmt, claims=tuple(claims), uncited=tuple(uncited), warnings=tuple(warnings), raw=raw)


def parse_json(text: str, name: str, settings: Settings | None = None, raw: bytes = b"") -> Brief:
    """Return the Brief a JSON claims file holds; raises BriefError when it is not valid JSON of claims."""
    settings = settings or Settings()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BriefError(
            f"{name} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}). {_FIX_JSON}"
        ) from None
    except RecursionError:
        raise BriefError(f"{name} is nested too deeply to be a claims file. {_FIX_JSON}") from None
    rows: Any = data
    if isinstance(data, Mapping):
        rows = next((data[k] for k in LIST_KEYS if isinstance(data.get(k), list)), None)
        if rows is None and _pick(data, CLAIM_KEYS):
            rows = [data]
    if not isinstance(rows, list):
        raise BriefError(f'{name} holds no list of claims: expected a "claims" list or a bare list. {_FIX_JSON}')
    bad = next((i for i, r in enumerate(rows) if not isinstance(r, Mapping)), None)
    if bad is not None:
        raise BriefError(f'{name}: claim {bad + 1} is not an object with "claim", "url" and "quote". {_FIX_JSON}')
    return _rows_to_brief(rows, name, BriefFormat.JSON, settings, raw or text.encode("utf-8"), 1)


def parse_csv(text: str, name: str, settings: Settings | None = None, raw: bytes = b"") -> Brief:
    """Return the Brief a CSV claims file holds; raises BriefError when its header lacks claim and url."""
    settings = settings or Settings()
    text = text.lstrip("\ufeff")
    first = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=first.count) if first else ","
    try:
        reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
        header = [h.strip().lower() for h in (reader.fieldnames or [])]
        rows = [{k: v for k, v in row.items() if k is not None} for row in reader]
    except csv.Error as exc:
        raise BriefError(
            f"{name} is not a readable CSV file ({exc}). Save it again as CSV with the header claim,url,quote."
        ) from None
    if not any(h in CLAIM_KEYS for h in header) or not any(h in URL_KEYS for h in header):
        shown = ", ".join(header[:6]) or "nothing"
        raise BriefError(
            f'{name} has no "claim" and "url" columns (its first row reads: {shown}). '
            "Make the first row the header claim,url,quote."
        )
    return _rows_to_brief(rows, name, BriefFormat.CSV, settings, raw or text.encode("utf-8"), 2)
