"""The DOCX export: the editor's own brief back with Word comments, or a new DOCX report.

When the brief was a DOCX and its bytes are given, the same document comes back with one
comment anchored on each claim that is not verified (every claim with ``all_claims=True``),
saying the verdict, the reasons and what the page actually says, plus one summary comment on
the first paragraph saying what was not checked. Where a comment goes:

- ``Location("paragraph", i, start, end)``: body paragraph ``i`` of python-docx's
  ``document.paragraphs``, on the runs covering ``start:end`` (the whole paragraph when the
  span is unknown). When that paragraph does not hold the claim's first words, the claim is
  looked up by its words in the body and then in table cells.
- ``"table"`` claims are looked up by their words in table cells, then in the body.
- ``"footnote"`` claims: python-docx cannot put comments in footnotes or endnotes, so they are
  looked up in the body (a claim quoted there), and otherwise commented on a note paragraph
  that this export appends at the end: "Verbatim: claims that could not be marked in the text".

Any other brief gives a new DOCX report. A brief whose bytes python-docx cannot open (a
macro-enabled or broken file) also gives a new report, which says so. All text is written as
text (python-docx escapes it); characters XML cannot hold are dropped. This module refuses to
read sources or decide verdicts.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import docx
from docx.document import Document as DocxDocument
from docx.text.hyperlink import Hyperlink
from docx.text.paragraph import Paragraph
from docx.text.run import Run

from core.fetch.shown import shown_url
from core.models import BriefFormat, ClaimResult, LocationKind, Report, SourceStatus, Verdict
from core.report.brief_links import citation_words, unused_lines
from core.report.offered import flag_words, offered_first, signs
from core.report.unchecked import NotChecked, not_checked
from core.report.wording import (
    FOUND_IS_NOT_SUPPORT,
    OFFERED_IS_NOT_CHECKED,
    ORIGIN_WORDS,
    adopted_words,
    decided_words,
    decision_words,
    figure_place_words,
    page_says,
    source_status_words,
    when,
)

AUTHOR = "Verbatim"
INITIALS = "VB"
UNPLACED_HEADING = "Verbatim: claims that could not be marked in the text"
# XML 1.0 forbids most control characters and lone surrogates; a page's text may hold them.
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
# Words of a claim used to find its paragraph when its location does not hold it.
_KEY_WORDS = 8


def xml_text(text: str) -> str:
    """Return text without the characters an XML document cannot hold."""
    return _NOT_XML.sub("", text)


def comment_text(result: ClaimResult) -> str:
    """Return the comment for one claim: verdict, reasons, what the page says, and the source."""
    lines = [f"Verbatim: {result.verdict.label}."]
    lines.extend(result.reasons)
    said = page_says(result) if offered_first(result) is None else ""  # an offered passage is said below
    if said:
        label = "The page says" if result.match is not None and result.match.found else "Closest passage on the page"
        lines.append(f"{label}: \u201c{said}\u201d")
    if result.near_miss is not None and result.near_miss.summary:
        lines.append(f"Diagnosis (decides nothing): {result.near_miss.summary}")
    lines.extend(_offered_lines(result))
    for f in result.figures.missing:
        where = figure_place_words(f.where, f.around, f.instead)
        missing = f"Figure {f.text} is {where}." if where else f"Figure {f.text} is not in the quote."
        lines.append(missing + (f" {f.reason}" if f.reason else ""))
    lines.append(f"Source: {shown_url(result.source.final_url or result.claim.url)} ({source_status_words(result)}).")
    if read_as := citation_words(result.claim):
        lines.append(read_as)
    return xml_text("\n".join(lines))


def _offered_lines(result: ClaimResult) -> list[str]:
    """Return the lines on a claim's signs, who adopted its quote, and the passage offered first (no quote)."""
    lines = [f"Sign: {flag_words(f)}" for f in signs(result)]
    if adopted := adopted_words(result.claim.adopted_by):
        lines.append(adopted[0].upper() + adopted[1:] + ".")
    first = offered_first(result)
    if first is not None:
        lines.append(f"The passage offered first: \u201c{first.candidate.text}\u201d ({OFFERED_IS_NOT_CHECKED})")
        if first.holds:
            lines.append(f"It holds the claim\u2019s: {first.holds}.")
        if first.lacks:
            lines.append(f"It lacks the claim\u2019s: {first.lacks}.")
    return lines


def summary_text(report: Report, missing: NotChecked) -> str:
    """Return the summary comment: counts per verdict and everything that was not checked."""
    counts = ", ".join(f"{v.label} {n}" for v in Verdict if (n := report.summary[v.value]))
    lines = [f"Verbatim checked {len(report.results)} claims on {when(report.checked_at)}: {counts or 'none'}."]
    lines.extend(_not_checked_lines(missing, unused_lines(report.unused_links)))
    lines.append(FOUND_IS_NOT_SUPPORT)
    return xml_text("\n".join(lines))


def _not_checked_lines(missing: NotChecked, unused: list[str]) -> list[str]:
    lines = []
    if missing.no_claims:
        lines.append("No claims were found in this brief, so nothing was checked.")
    for s in missing.sources:
        lines.append(f"Not read: {s.url} ({s.verdict.label}): {s.reason}. Claims {', '.join(s.claim_ids)}.")
    if not missing.sources and not missing.no_claims:
        lines.append("Every cited source was read.")
    if missing.no_quote:
        lines.append(f"No quote offered: {', '.join(missing.no_quote)}.")
    for f in missing.figures:
        lines.append(f"Figure skipped in {f.claim_id}: {f.figure}: {f.reason}")
    for cid, url, words in missing.not_from_web:
        lines.append(f"Evidence for {cid} ({url}): {words}.")
    for cid, url in missing.drift:
        lines.append(f"Page drift for {cid} ({url}): a fresh copy differs from the stored one.")
    for sentence in missing.uncited:
        lines.append(f"Cites no source: {sentence}")
    lines.extend(f"Link no claim cites: {line}" for line in unused)
    lines.extend(f"Note on the brief: {w}" for w in missing.warnings)
    return lines


# --------------------------------------------------------------------------- the brief back, with comments


def _key(text: str) -> str:
    return " ".join(text.split()[:_KEY_WORDS]).casefold()


def _holds(paragraph: Paragraph, key: str) -> bool:
    return bool(key) and key in " ".join(paragraph.text.split()).casefold()


def _table_paragraphs(document: DocxDocument) -> Iterator[Paragraph]:
    for table in document.tables:
        for row in table.rows:
            for cell in row.cells:
                yield from cell.paragraphs


def _runs_with_offsets(paragraph: Paragraph) -> list[tuple[int, int, Run]]:
    out: list[tuple[int, int, Run]] = []
    pos = 0
    for item in paragraph.iter_inner_content():
        runs = item.runs if isinstance(item, Hyperlink) else [item]
        for run in runs:
            out.append((pos, pos + len(run.text), run))
            pos += len(run.text)
    return out


def _anchor_runs(paragraph: Paragraph, start: int, end: int) -> list[Run]:
    """Return the runs covering start:end (all runs when the span is unknown); adds an empty run if none."""
    runs = _runs_with_offsets(paragraph)
    if 0 <= start < end:
        covering = [r for s, e, r in runs if s < end and e > start]
        if covering:
            return covering
    if runs:
        return [r for _, _, r in runs]
    return [paragraph.add_run("")]


def _place(body: list[Paragraph], cells: list[Paragraph], result: ClaimResult) -> tuple[Paragraph, int, int] | None:
    """Return the paragraph holding a claim and the claim's span in it, or None when not found."""
    claim, loc = result.claim, result.claim.location
    key = _key(claim.text)
    at_index = (
        body[loc.index]
        if loc is not None
        and loc.kind == LocationKind.PARAGRAPH
        and loc.index is not None
        and 0 <= loc.index < len(body)
        else None
    )
    if loc is not None and at_index is not None and (_holds(at_index, key) or not key):
        return at_index, loc.start, loc.end
    searches = [cells, body] if loc is not None and loc.kind == LocationKind.TABLE else [body, cells]
    for paragraphs in searches:
        for p in paragraphs:
            if _holds(p, key):
                at = p.text.find(claim.text)
                return (p, at, at + len(claim.text)) if at >= 0 else (p, 0, 0)
    if at_index is not None:
        return at_index, 0, 0  # the brief's own words differ (link markup); trust its location
    return None


def _commented_brief(report: Report, document: DocxDocument, all_claims: bool) -> None:
    flagged = [r for r in report.results if all_claims or r.verdict is not Verdict.VERIFIED]
    # Place every claim before adding anything, so that an appended note cannot shift indices.
    body, cells = document.paragraphs, list(_table_paragraphs(document))
    placed = [(r, _place(body, cells, r)) for r in flagged]
    unplaced_heading: Paragraph | None = None
    for result, where in placed:
        if where is None:
            if unplaced_heading is None:
                unplaced_heading = document.add_paragraph(UNPLACED_HEADING)
            paragraph, start, end = document.add_paragraph(xml_text(f"{result.claim.id}: {result.claim.text}")), 0, 0
        else:
            paragraph, start, end = where
        document.add_comment(_anchor_runs(paragraph, start, end), comment_text(result), AUTHOR, INITIALS)
    first = next((p for p in document.paragraphs if p.text.strip()), None) or document.add_paragraph("")
    document.add_comment(_anchor_runs(first, 0, 0), summary_text(report, not_checked(report)), AUTHOR, INITIALS)


# --------------------------------------------------------------------------- a new report


class _Writer:
    """Adds styled paragraphs fast.

    Not a dataclass: it wraps a live python-docx document. python-docx looks a style name up
    by scanning every style on each call (about 1.5 ms); a 500-claim report would spend seconds
    there, so each style id is looked up once and set on the paragraph's XML (python-docx 1.2).
    """

    def __init__(self, document: DocxDocument) -> None:
        self.document = document
        self._ids: dict[str, str] = {}

    def add(self, text: str, style: str = "") -> Paragraph:
        paragraph = self.document.add_paragraph(xml_text(text))
        if style:
            if style not in self._ids:
                self._ids[style] = self.document.styles[style].style_id
            paragraph._p.style = self._ids[style]
        return paragraph


def _new_report(report: Report, document: DocxDocument, note: str = "") -> None:
    w = _Writer(document)
    w.add(f"Verbatim report: {report.brief_name or 'unnamed brief'}", "Title")
    w.add(f"Checked {when(report.checked_at)}; {len(report.results)} claims.")
    if note:
        w.add(note)
    table = document.add_table(rows=1 + len(Verdict), cols=2)
    table.autofit = False  # a fixed layout: no text in a cell can widen the table past the page
    table.rows[0].cells[0].text, table.rows[0].cells[1].text = "Verdict", "Claims"
    for row, v in zip(table.rows[1:], Verdict, strict=True):
        row.cells[0].text, row.cells[1].text = v.label, str(report.summary[v.value])
    w.add("What was not checked", "Heading 1")
    w.add(FOUND_IS_NOT_SUPPORT)
    for line in _not_checked_lines(not_checked(report), unused_lines(report.unused_links)):
        w.add(line, "List Bullet")
    for r in report.results:
        _claim_section(report, w, r)


def _claim_section(report: Report, w: _Writer, r: ClaimResult) -> None:
    w.add(f"{r.claim.id}: {r.verdict.label}", "Heading 2")
    w.add(r.claim.text)
    for reason in r.reasons:
        w.add(reason, "List Bullet")
    w.add(f"Quote offered: \u201c{r.claim.quote}\u201d" if r.claim.quote else "No quote offered.")
    said = page_says(r) if offered_first(r) is None else ""  # an offered passage is said below
    if said:
        label = "The page says" if r.match is not None and r.match.found else "Closest passage on the page (diagnosis)"
        w.add(f"{label}: \u201c{said}\u201d")
    for line in _offered_lines(r):
        w.add(line)
    for f in r.figures.figures:
        extra = f" ({f.quote_text})" if f.quote_text else ""
        where = figure_place_words(f.where, f.around, f.instead)
        where = f" {where[0].upper()}{where[1:]}." if where else ""
        w.add(f"Figure {f.text}: {f.status.value}{extra}. {f.reason}{where}".rstrip(), "List Bullet")
    if r.near_miss is not None and r.near_miss.summary:
        w.add(f"Diagnosis (decides nothing): {r.near_miss.summary}")
    s = r.source
    facts = [
        f"Source: {shown_url(s.final_url or r.claim.url)}",
        f"State: {source_status_words(r)}",
        f"HTTP status: {s.http_status if s.http_status is not None else 'none'}",
        f"Fetched: {when(s.fetched_at) if s.fetched_at else 'not fetched'}",
        f"SHA-256: {s.sha256 or 'none'}",
    ]
    if s.status is SourceStatus.OK:
        facts.append(f"Evidence: {ORIGIN_WORDS.get(s.origin, s.origin)}")
    if s.charset_note:
        facts.append(f"Charset: {s.charset_note}")
    if s.drift:
        facts.append("Page drift: a fresh copy differs from the stored one.")
    w.add("\n".join(facts))
    decision = report.decision_for(r.claim.id)
    if decision is not None:
        text = f"Editor's decision: {decision_words(decision.decision)}"
        decided = decided_words(decision)
        text += f" ({decided})" if decided else ""
        w.add(text + (f". Note: {decision.note}" if decision.note else ""))


def comments_on_brief(report: Report, brief_raw: bytes | None) -> bool:
    """Return True when the DOCX export is the brief itself with comments: a DOCX brief whose file is given."""
    return report.brief_format is BriefFormat.DOCX and bool(brief_raw)


def to_docx(report: Report, brief_raw: bytes | None = None, *, all_claims: bool = False) -> bytes:
    """Return a DOCX: the DOCX brief with comments when given one, else a new report; never fails on content."""
    if brief_raw is not None and comments_on_brief(report, brief_raw):
        try:
            document = docx.Document(io.BytesIO(brief_raw))
        except Exception as exc:  # any file python-docx cannot open gives a new report, said in it
            document = docx.Document()
            note = (
                f"The brief's DOCX file could not be opened to add comments ({type(exc).__name__}: {exc}); "
                "this is a separate report instead."
            )
            _new_report(report, document, note)
        else:
            _commented_brief(report, document, all_claims)
    else:
        document = docx.Document()
        _new_report(report, document)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()
