"""Every link of a brief that no claim cites, with where it stands and why: nothing is dropped unseen.

A reader hands over its blocks (each citation in them) and the links it found outside blocks
(reference definitions, footnotes, code); a link whose URL no claim cites is listed once, at
its first place, with the reason: a reference never cited, a link in a heading, in a code
block, in a quotation, a licence or ORCID link, a source line that follows no sentence. Only
web links count (``http``/``https``): a ``data:`` image or a ``mailto:`` is no source. This
module only lists; it refuses to make claims.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from core.brief.blocks import Block, BlockKind
from core.models import Claim, Location, UnusedLink

_LICENCE = re.compile(r"creativecommons\.org/(?:licenses|publicdomain)|opensource\.org/licen[cs]es|/licen[cs]e\b", re.I)
_ORCID = re.compile(r"\borcid\.org/", re.I)
_WHY = {
    BlockKind.REFERENCE: "a reference never cited",
    BlockKind.HEADING: "a link in a heading",
    BlockKind.CODE: "a link inside a code block",
    BlockKind.BLOCKQUOTE: "a link in a quotation, which is no claim",
    BlockKind.QUOTE_LINE: "a link in a quote line, which is no claim",
    BlockKind.SOURCE_LINE: "a source line that follows no sentence",
    BlockKind.FOOTNOTE: "a footnote never cited",
}
#: (url, text as written, why, location or None) of a link found outside the blocks.
Elsewhere = tuple[str, str, str, Location | None]


def same_source(url: str) -> str:
    """Return a URL as one source is known by: URLs that differ only by a trailing slash are one source."""
    return url[:-1] if url.endswith("/") and not url.endswith("://") else url


def _web(url: str) -> bool:
    return url.lower().startswith(("http://", "https://"))


def _reason(url: str, why: str) -> str:
    if _ORCID.search(url):
        return "an ORCID link (an author's identifier, not a source)"
    if _LICENCE.search(url):
        return "a licence link, not a source"
    return why


def unused_links(
    blocks: Iterable[Block],
    claims: Iterable[Claim],
    elsewhere: Iterable[Elsewhere],
    where: Callable[[Block, int, int], Location],
) -> tuple[UnusedLink, ...]:
    """Return one UnusedLink per web URL of the brief that no claim cites, in brief order."""
    cited = {same_source(c.url) for c in claims}
    seen: set[str] = set()
    out: list[UnusedLink] = []

    def add(url: str, text: str, why: str, location: Location | None) -> None:
        if same_source(url) in cited or same_source(url) in seen or not _web(url):
            return
        seen.add(same_source(url))
        out.append(
            UnusedLink(url=url, text=" ".join(text[:400].split())[:300], reason=_reason(url, why), location=location)
        )

    for block in blocks:
        for cite in block.cites:
            if cite.url:
                why = _WHY.get(block.kind, "a link in a sentence that gave no claim")
                # A reference entry as written (its start: a run-on list must not cost its whole length per link).
                text = block.text[:400] if block.kind == BlockKind.REFERENCE else cite.anchor or cite.url
                add(cite.url, text, why, where(block, cite.start, cite.end))
    for url, text, why, location in elsewhere:
        add(url, text, why, location)
    return tuple(out)
