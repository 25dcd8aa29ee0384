"""HTML snippets for the review desk, built only from escaped text and known markup.

Every piece of text that came from a brief or a source page goes through ``esc`` before it
is placed in markup; the markup itself is a handful of fixed tags and class names. These
functions return strings and never call Streamlit, so they are tested without a browser.
They refuse to build a link from anything but an http(s) URL, and never embed a source page.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence

from core.fetch.shown import mask_password, shown_url
from core.models import ClaimResult, DiffKind, DiffOp, FigureStatus, FlagKind, NearMiss, Source, Verdict
from core.report.links import is_web_url, text_fragment_link
from core.report.marks import Segment, claim_marks, context_view, figure_mark, segments, unchecked_figures
from core.report.offered import unquoted
from core.report.wording import (
    MARK_WORDS,
    ORIGIN_WORDS,
    VERDICT_COLOURS,
    adopted_words,
    diff_words,
    figure_place_words,
)

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=^])")


def md(text: object) -> str:
    """Return text with every Markdown (and Streamlit directive) character backslash-escaped.

    For the few places that render Markdown (titles, captions, messages): a brief's file name
    or an error that quotes a URL must not become a link, an image fetched from afar, or an icon.
    """
    return _MD_SPECIAL.sub(r"\\\1", str(text))


def count(n: int, one: str, many: str) -> str:
    """Return "1 claim" / "3 claims": a number with its noun in the right form."""
    return f"{n} {one if n == 1 else many}"


def esc(text: object) -> str:
    """Return text escaped for HTML element content and quoted attribute values."""
    return html.escape(str(text), quote=True)


def verdict_badge(verdict: Verdict) -> str:
    """Return the verdict as its words on its colour (the words carry the meaning)."""
    colour = VERDICT_COLOURS[verdict]
    return f'<span class="vb" style="background:{colour}" data-verdict="{verdict.value}">{esc(verdict.label)}</span>'


def marked(text: str, spans: Iterable[tuple[int, int, str]]) -> str:
    """Return text escaped, with each (start, end, css class) span wrapped in a <mark>."""
    return "".join(_segment_html(seg) for seg in segments(text, tuple(spans)))


def segments_html(segs: Iterable[Segment]) -> str:
    """Return runs of text escaped, each marked run in a <mark> with its meaning as a title."""
    return "".join(_segment_html(seg) for seg in segs)


def _segment_html(seg: Segment) -> str:
    if not seg.mark:
        return esc(seg.text)
    title = MARK_WORDS.get(seg.mark, seg.mark)
    return f'<mark class="{esc(seg.mark)}" title="{esc(title)}">{esc(seg.text)}</mark>'


def claim_spans(result: ClaimResult) -> list[tuple[int, int, str]]:
    """Return the marks of the claim's figures in Claim.text: core.report.marks', as the HTML report draws them."""
    return [(start, end, mark) for start, end, mark, _ in claim_marks(result)]


def context_html(result: ClaimResult, max_chars: int) -> str:
    """Return the page text around the match, marked as the HTML report marks it (core's context_view), or a note."""
    view = context_view(result, max_chars)
    if view is None:
        return '<p class="muted">No page text to show for this claim.</p>'
    body = "".join(_segment_html(seg) for seg in view.segments)
    before = '<span class="muted">… </span>' if view.cut_before else ""
    after = '<span class="muted"> …</span>' if view.cut_after else ""
    ctx = result.context
    page = f'<div class="muted">PDF page {int(ctx.page)}</div>' if ctx is not None and ctx.page is not None else ""
    note = f'<div class="muted">{esc(view.note)}</div>' if view.note else ""
    if result.source.charset_note:  # beside the page text: the words below were read in another charset
        note += f'<div class="muted charset">{esc(result.source.charset_note)}</div>'
    shown = f'{page}{note}<div class="ctx">{before}{body}{after}</div>'
    if result.match is not None and any(f.kind is FlagKind.HIDDEN for f in result.match.flags):
        # The page hides this part until a reader opens it: the source view shows it opened.
        return (
            '<details open class="opened-part"><summary>Hidden on the page until opened (a tab, an accordion, '
            f'"read more"): shown here opened</summary>{shown}</details>'
        )
    return shown


def diff_html(ops: Sequence[DiffOp]) -> str:
    """Return a word diff: quote words struck through, page words underlined, each labelled."""
    parts: list[str] = []
    for op in ops:
        if op.kind is DiffKind.EQUAL:
            parts.append(esc(op.quote_words or op.page_words))
            continue
        label = esc(diff_words(op.kind))
        inner = ""
        if op.quote_words:
            inner += f'<del title="in the quote, not on the page">{esc(op.quote_words)}</del>'
        if op.page_words:
            inner += f'<ins title="on the page, not in the quote">{esc(op.page_words)}</ins>'
        parts.append(f'<span class="dop" data-kind="{esc(op.kind)}">[{label}: {inner}]</span>')
    return " ".join(parts)


def near_miss_html(nm: NearMiss | None) -> str:
    """Return the diagnosis panel: summary, closest passage and word diff, labelled as deciding nothing."""
    if nm is None:
        return ""
    rows = [
        '<div class="diag"><div class="diag-label">Diagnosis: explains the failure, decides nothing</div>',
        f"<p>{esc(nm.summary)}</p>",
    ]
    if nm.found_in_source:
        rows.append(
            f"<p>The quote appears word for word on another source of this brief: {esc(nm.found_in_source)}</p>"
        )
    if nm.passage is not None:
        rows.append(f'<p class="muted">Closest passage on the page:</p><blockquote>{esc(nm.passage.text)}</blockquote>')
    if nm.diff:
        rows.append(f'<p class="muted">Word diff (quote → page):</p><p class="diff">{diff_html(nm.diff)}</p>')
    rows.append("</div>")
    return "".join(rows)


def source_meta_html(src: Source, quote: str | None) -> str:
    """Return the evidence record: final URL, HTTP status, time fetched, sha256, origin, live link."""
    final = src.final_url or src.url
    link = text_fragment_link(final, quote or "") if is_web_url(final) else ""
    rows = [
        ("Cited URL", esc(shown_url(src.url))),
        ("Final URL", esc(shown_url(final))),
        ("HTTP status", esc(src.http_status) if src.http_status is not None else "none"),
        ("Content type", esc(src.content_type or "unknown")),
        ("Fetched at", esc(src.fetched_at or "never")),
        ("sha256", f"<code>{esc(src.sha256 or 'none')}</code>"),
        ("Evidence", esc(ORIGIN_WORDS.get(src.origin, src.origin))),
    ]
    if src.reason:
        rows.append(("Why", esc(src.reason)))
    if src.drift:
        rows.append(("Page drift", "a fresh copy differs from the stored one"))
    if src.charset_note:
        rows.append(("Charset", esc(src.charset_note)))
    cells = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
    live = (
        f'<p><a href="{esc(link)}" target="_blank" rel="noopener noreferrer nofollow">'
        "Open the live page at the quote ↗</a> (a text-fragment link; the desk never renders the page itself)</p>"
        if link
        else '<p class="muted">No live link: the URL is not http(s).</p>'
    )
    return f'<table class="meta">{cells}</table>{live}'


def progress_html(states: dict[str, tuple[str, str]], words: dict[str, str]) -> str:
    """Return the sources of a running check with their states, a tally first, in brief order."""
    tally: dict[str, int] = {}
    for state, _ in states.values():
        tally[state] = tally.get(state, 0) + 1
    head = " · ".join(f"{esc(words.get(k, k))}: {n}" for k, n in tally.items())
    rows = "".join(
        f'<tr data-state="{esc(state)}"><td>{esc(mask_password(url))}</td><td>{esc(words.get(state, state))}</td>'
        f"<td>{esc(detail)}</td></tr>"
        for url, (state, detail) in states.items()
    )
    return (
        f'<p class="muted tally">{head}</p><div class="progress"><table class="meta">'
        f"<tr><th>source</th><th>state</th><th>detail</th></tr>{rows}</table></div>"
    )


def summary_bar_html(summary: dict[str, int]) -> str:
    """Return one badge per verdict present, each with its count, in precedence order."""
    known = {v.value: v for v in Verdict}
    items = [
        f'<span class="sum-item">{verdict_badge(known[v])} <b>{int(n)}</b></span>'
        for v, n in summary.items()
        if v in known and n
    ]
    return '<div class="sumbar">' + " ".join(items) + "</div>" if items else ""


def card_html(result: ClaimResult, number: int) -> str:
    """Return a claim's card: number, verdict (words and colour), claim with figures marked, quote, reasons."""
    claim = marked(result.claim.text, claim_spans(result))
    if unquoted(result):  # its figures were looked for in a passage offered, not in a quote
        claim = f'<span class="unquoted">{claim}</span>'
    quote = result.claim.quote
    quote_html = (
        f'<blockquote class="q">{esc(quote)}</blockquote>' if quote else '<p class="muted">No quote offered.</p>'
    )
    if adopted := adopted_words(result.claim.adopted_by):
        quote_html += f'<p class="adopted">{esc(adopted[0].upper() + adopted[1:])}.</p>'

    reasons = "".join(f"<li>{esc(r)}</li>" for r in result.reasons)
    return (
        f'<div class="card" data-claim="{esc(result.claim.id)}">'
        f'<div class="card-head"><span class="num">#{number}</span> {verdict_badge(result.verdict)}'
        f' <span class="muted url">{esc(shown_url(result.claim.url))}</span></div>'
        f'<p class="claim">{claim}</p>{quote_html}<ul class="reasons">{reasons}</ul></div>'
    )


def figures_table_html(result: ClaimResult) -> str:
    """Return every figure of the claim with its status in words (and, without a quote, where it stands on the page).

    A claim whose figures were never compared shows them as not checked: "No figures in this
    claim" is said only of a claim that has none.
    """
    figures = result.figures.figures or unchecked_figures(result.claim.figure_text or result.claim.text)
    if not figures:
        return '<p class="muted">No figures in this claim.</p>'
    placed = any(f.where is not None for f in figures)
    rows = []
    for fig in figures:
        mark = figure_mark(fig)
        detail = fig.quote_text if fig.status is FigureStatus.MATCHED else fig.reason
        said = figure_place_words(fig.where, fig.around, fig.instead)
        where = f'<td data-where="{esc(fig.where or "")}">{esc(said)}</td>' if placed else ""
        rows.append(
            f'<tr><td><mark class="{mark}">{esc(fig.text)}</mark></td><td>{esc(fig.status.value)}</td>'
            f"<td>{esc(detail)}</td>{where}</tr>"
        )
    head = "passage / why" if unquoted(result) else "quote / why"
    where_head = "<th>where on the page</th>" if placed else ""
    return (
        f'<table class="figs{" unquoted" if unquoted(result) else ""}">'
        f"<tr><th>figure</th><th>status</th><th>{head}</th>{where_head}</tr>" + "".join(rows) + "</table>"
    )
