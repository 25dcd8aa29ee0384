"""How a brief's citations were read, said once for the desk and every report: a claim's reading, the unused links.

``citation_words`` says how a claim's citation was read ("Citation read as: reference [3] in
“Works cited”"); ``unused_lines`` says each link of the brief that no claim cites, where it
stands and why, so that an editor sees nothing was silently dropped. Text from the brief stays
text: the callers escape it (Jinja2's autoescape, Word's runs, Streamlit's text). This module
only words; it decides nothing.
"""

from __future__ import annotations

from core.models import Claim, Location, LocationKind, UnusedLink

_PLACES = {
    LocationKind.PAGE: "page",
    LocationKind.PARAGRAPH: "paragraph",
    LocationKind.TABLE: "table",
    LocationKind.ROW: "row",
}


def citation_words(claim: Claim) -> str:
    """Return how the claim's citation was read, as a sentence ("" when the reader did not say)."""
    return f"Citation read as: {claim.citation}." if claim.citation else ""


def where_words(location: Location | None) -> str:
    """Return where a link stands in the brief ("page 3", "paragraph 12"), "" when unknown."""
    if location is None or location.index is None:
        return ""
    place = _PLACES.get(location.kind, str(location.kind))
    # Markdown and DOCX paragraphs count from 0 in the records; people count from 1. Pages are 1-based already.
    number = location.index if location.kind is LocationKind.PAGE else location.index + 1
    return f"{place} {number}"


def unused_lines(links: tuple[UnusedLink, ...]) -> list[str]:
    """Return one line per unused link: its URL, why no claim cites it, and where it stands."""
    lines = []
    for u in links:
        where = where_words(u.location)
        lines.append(f"{u.url}: {u.reason}" + (f" ({where})" if where else ""))
    return lines
