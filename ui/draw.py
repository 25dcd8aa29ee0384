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

from core.models import ClaimResult, Context, DiffOp, Figure, FigureStatus, NearMiss, Source, Verdict
from core.report.spans import VERDICT_COLOURS, is_web_url, segments, text_fragment_link

#: Figure status -> CSS class of its mark in the claim text.
FIGURE_MARKS = {
    FigureStatus.MATCHED: "fig-ok",
    FigureStatus.MISSING: "fig-miss",
    FigureStatus.SKIPPED: "fig-skip",
}

#: Words shown in a figure mark's tooltip, so that colour is never the only signal.
FIGURE_TITLES = {
    "fig-ok": "figure found in the quote",
    "fig-miss": "figure NOT in the quote",
    "fig-skip": "figure not checked",
    "fig-other": "figure of the quote that the claim does not have",
}

_ORIGINS = {
    "fetched": "fetched from the web in this run",
    "cache": "stored copy from the evidence store",
    "editor": "supplied by the editor",
    "sample": "bundled sample copy (offline)",
}


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
    out: list[str] = []
    for seg in segments(text, tuple(spans)):
        if seg.mark:
            title = FIGURE_TITLES.get(seg.mark, "matched quote" if seg.mark == "match" else seg.mark)
            out.append(f'<mark class="{esc(seg.mark)}" title="{esc(title)}">{esc(seg.text)}</mark>')
        else:
            out.append(esc(seg.text))
    return "".join(out)


def _locate(text: str, fig: Figure) -> tuple[int, int] | None:
    # Spans come from the figures check; when they do not land on the figure's own
    # characters (e.g. they were taken in another text), fall back to the first occurrence.
    if fig.span is not None and 0 <= fig.span[0] < fig.span[1] <= len(text) and text[slice(*fig.span)] == fig.text:
        return fig.span
    if fig.text:
        at = text.find(fig.text)
        if at >= 0:
            return at, at + len(fig.text)
    return None


def claim_spans(result: ClaimResult) -> list[tuple[int, int, str]]:
    """Return the marks of the claim's figures in Claim.text, one class per figure status."""
    spans: list[tuple[int, int, str]] = []
    for fig in result.figures.figures:
        where = _locate(result.claim.text, fig)
        if where:
            spans.append((where[0], where[1], FIGURE_MARKS[fig.status]))
    return spans


def quote_spans(
    quote: str, result: ClaimResult, quote_figures: Sequence[tuple[int, int]] = ()
) -> list[tuple[int, int, str]]:
    """Return marks in the quote: figures matched by the claim, and other figures flagged."""
    spans: list[tuple[int, int, str]] = []
    taken: list[tuple[int, int]] = []
    for fig in result.figures.figures:
        if fig.status is FigureStatus.MATCHED and fig.quote_text:
            at = quote.find(fig.quote_text)
            if at >= 0:
                spans.append((at, at + len(fig.quote_text), "fig-ok"))
                taken.append((at, at + len(fig.quote_text)))
    if result.figures.missing:
        # A claim figure is missing: the quote's own figures that no claim figure matched
        # are the likely other side of the mismatch, so they are flagged.
        for start, end in quote_figures:
            if not any(s < end and start < e for s, e in taken):
                spans.append((start, end, "fig-other"))
    return spans


def context_html(ctx: Context | None) -> str:
    """Return the page text around the match with the matched quote highlighted, or a note."""
    if ctx is None or not ctx.text:
        return '<p class="muted">No page text to show for this claim.</p>'
    body = marked(ctx.text, [(s, e, "match") for s, e in ctx.highlights])
    page = f'<div class="muted">PDF page {int(ctx.page)}</div>' if ctx.page is not None else ""
    return f'{page}<div class="ctx">{body}</div>'


_DIFF_WORDS = {
    "figure_changed": "figure changed",
    "negation_added": "negation added",
    "negation_dropped": "negation dropped",
    "word_added": "words added",
    "word_dropped": "words dropped",
    "word_replaced": "words replaced",
    "reordered": "words reordered",
    "spliced": "spliced from separate passages",
    "cut_away": "context cut away",
    "typography_only": "typography only",
}


def diff_html(ops: Sequence[DiffOp]) -> str:
    """Return a word diff: quote words struck through, page words underlined, each labelled."""
    parts: list[str] = []
    for op in ops:
        if op.kind == "equal":
            parts.append(esc(op.quote_words or op.page_words))
            continue
        label = esc(_DIFF_WORDS.get(op.kind, op.kind))
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
        ("Cited URL", esc(src.url)),
        ("Final URL", esc(final)),
        ("HTTP status", esc(src.http_status) if src.http_status is not None else "none"),
        ("Content type", esc(src.content_type or "unknown")),
        ("Fetched at", esc(src.fetched_at or "never")),
        ("sha256", f"<code>{esc(src.sha256 or 'none')}</code>"),
        ("Evidence", esc(_ORIGINS.get(src.origin, src.origin))),
    ]
    if src.reason:
        rows.append(("Why", esc(src.reason)))
    if src.drift:
        rows.append(("Page drift", "a fresh copy differs from the stored one"))
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
        f'<tr data-state="{esc(state)}"><td>{esc(url)}</td><td>{esc(words.get(state, state))}</td>'
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
    quote = result.claim.quote
    quote_html = (
        f'<blockquote class="q">{esc(quote)}</blockquote>' if quote else '<p class="muted">No quote offered.</p>'
    )
    reasons = "".join(f"<li>{esc(r)}</li>" for r in result.reasons)
    return (
        f'<div class="card" data-claim="{esc(result.claim.id)}">'
        f'<div class="card-head"><span class="num">#{number}</span> {verdict_badge(result.verdict)}'
        f' <span class="muted url">{esc(result.claim.url)}</span></div>'
        f'<p class="claim">{claim}</p>{quote_html}<ul class="reasons">{reasons}</ul></div>'
    )


def figures_table_html(result: ClaimResult) -> str:
    """Return every figure of the claim with its status in words, or a note when there are none."""
    if not result.figures.figures:
        return '<p class="muted">No figures in this claim.</p>'
    rows = []
    for fig in result.figures.figures:
        mark = FIGURE_MARKS[fig.status]
        detail = fig.quote_text if fig.status is FigureStatus.MATCHED else fig.reason
        rows.append(
            f'<tr><td><mark class="{mark}">{esc(fig.text)}</mark></td><td>{esc(fig.status.value)}</td>'
            f"<td>{esc(detail)}</td></tr>"
        )
    return (
        '<table class="figs"><tr><th>figure</th><th>status</th><th>quote / why</th></tr>' + "".join(rows) + "</table>"
    )
