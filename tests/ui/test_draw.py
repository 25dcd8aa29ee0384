"""Tests of ui.draw: every text from a brief or a page is escaped; only known markup is produced."""

from __future__ import annotations

import re
from dataclasses import replace

import lxml.html
import pytest

from core.models import DiffKind, DiffOp, Verdict
from core.report.marks import quote_marks
from tests.browser.records import MD, XSS, hostile_report, sample_results
from ui import draw

_ALLOWED_TAGS = {
    "span", "mark", "b", "p", "div", "ul", "li", "blockquote", "table", "tr", "th", "td",
    "code", "del", "ins", "a", "q",
}  # fmt: skip


def _tags(markup: str) -> set[str]:
    return {m.lower() for m in re.findall(r"<\s*([a-zA-Z][a-zA-Z0-9]*)", markup)}


def _everything(result) -> str:
    quote = result.claim.quote or ""
    return "".join(
        [
            draw.card_html(result, 1),
            draw.context_html(result, 2000),
            draw.near_miss_html(result.near_miss),
            draw.source_meta_html(result.source, result.claim.quote),
            draw.figures_table_html(result),
            draw.marked(quote, quote_marks(result)),
        ]
    )


@pytest.mark.parametrize("result", hostile_report().results, ids=lambda r: r.claim.id)
def test_hostile_text_becomes_escaped_text(result) -> None:
    markup = _everything(result)
    assert _tags(markup) <= _ALLOWED_TAGS
    assert "<script" not in markup.lower() and "<img" not in markup.lower()
    attributes = {name for el in lxml.html.fragments_fromstring(markup) for e in el.iter() for name in e.attrib}
    assert not {a for a in attributes if a.startswith("on")}  # no event handler, however the text is marked
    assert "href=" not in markup  # the javascript: URL never becomes a link


@pytest.mark.parametrize("result", sample_results(), ids=lambda r: r.verdict.value)
def test_every_verdict_is_drawn_in_words_and_colour(result) -> None:
    badge = draw.verdict_badge(result.verdict)
    assert f">{result.verdict.label}</span>" in badge and "background:#" in badge
    assert _tags(_everything(result)) <= _ALLOWED_TAGS


def test_a_web_source_gets_a_text_fragment_link_that_opens_apart() -> None:
    verified = sample_results()[0]
    meta = draw.source_meta_html(verified.source, verified.claim.quote)
    link = "https://docs.python.org/3/whatsnew/3.11.html#:~:text=CPython%203.11%20is%20an,the%20pyperformance%20benchmark%20suite"
    assert f'href="{link}"' in meta
    assert 'rel="noopener noreferrer nofollow"' in meta and 'target="_blank"' in meta
    assert verified.source.sha256 in meta and "200" in meta


def test_figures_are_marked_in_the_claim_by_status() -> None:
    mismatch = sample_results()[1]
    claim = draw.marked(mismatch.claim.text, draw.claim_spans(mismatch))
    assert claim == (
        'CPython <mark class="fig-missing" title="figure NOT in the quote">3.12</mark> is on average '
        '<mark class="fig-missing" title="figure NOT in the quote">30%</mark> faster than 3.11.'
    )


def test_the_quote_s_own_figures_are_flagged_when_the_claim_s_are_missing() -> None:
    mismatch = sample_results()[1]
    quote = mismatch.claim.quote or ""
    others = [quote[s:e] for s, e, mark in quote_marks(mismatch) if mark == "fig-other"]
    assert others == ["3.11", "25%", "3.10"]
    verified = sample_results()[0]
    assert quote_marks(verified) == [(30, 33, "fig-matched")]


def test_the_diagnosis_says_it_decides_nothing() -> None:
    panel = draw.near_miss_html(sample_results()[2].near_miss)
    assert "Diagnosis: explains the failure, decides nothing" in panel
    assert draw.diff_html([DiffOp(kind=DiffKind.WORD_DROPPED, quote_words="not", page_words="")]) == (
        '<span class="dop" data-kind="word_dropped">[words dropped: '
        '<del title="in the quote, not on the page">not</del>]</span>'
    )


def test_markdown_is_escaped_for_messages() -> None:
    assert (
        draw.md(MD)
        == r"\!\[i\]\(http\://127\.0\.0\.1\:9/md\.png\) \[link\]\(javascript\:alert\(9\)\) \:material/home\:"
    )
    assert draw.md("plain words") == "plain words"


def test_the_summary_bar_skips_empty_and_unknown_verdicts() -> None:
    bar = draw.summary_bar_html({"verified": 2, "dead_link": 0, "total": 2})
    assert bar.count('class="sum-item"') == 1 and 'data-verdict="verified"' in bar
    assert draw.summary_bar_html({v.value: 0 for v in Verdict}) == ""


def test_context_without_text_says_so() -> None:
    assert draw.context_html(replace(hostile_report().results[0], context=None), 2000) == (
        '<p class="muted">No page text to show for this claim.</p>'
    )
    assert XSS not in draw.context_html(hostile_report().results[0], 2000)


def test_progress_lists_every_source_with_its_state_in_words() -> None:
    states = {"https://a.example/1": ("fetching", "a.example"), f"https://b.example/{XSS}": ("failed", f"404 {XSS}")}
    words = {"fetching": "↻ fetching", "failed": "✗ failed"}
    markup = draw.progress_html(states, words)
    assert '<p class="muted tally">↻ fetching: 1 · ✗ failed: 1</p>' in markup
    assert '<tr data-state="fetching"><td>https://a.example/1</td><td>↻ fetching</td><td>a.example</td></tr>' in markup
    assert _tags(markup) <= _ALLOWED_TAGS and "<script" not in markup


def test_a_quote_in_a_hidden_part_is_shown_opened_in_the_source_view() -> None:
    # The Washington Post page's badge descriptions are display:none panels a reader opens.
    from core.check import check_claim
    from core.settings import Settings
    from tests.builders import claim, corpus_page, source

    page = corpus_page("html/readability/wapo-2/source.html.gz")
    quote = "SuperFan badge holders consistently post smart, timely comments about Washington area sports and teams."
    checked = check_claim(
        claim("1", "SuperFans post timely comments.", "https://example.org/wapo", quote),
        source("https://example.org/wapo"),
        page,
        Settings(),
    )
    assert checked.verdict is Verdict.VERIFIED
    html = draw.context_html(checked, 4000)
    assert html.startswith('<details open class="opened-part"><summary>Hidden on the page until opened')
    assert "SuperFan badge holders" in lxml.html.fromstring(html).text_content()
    # A sentence of the shown text is drawn as before, with no opened part.
    shown_text = page.page.text[: page.hidden[0][0]]
    sentence = next(b for b in shown_text.split("\n") if len(b.split()) >= 12)
    shown = check_claim(claim("2", "Shown.", "https://example.org/wapo", sentence), source("u"), page, Settings())
    assert shown.match is not None and shown.match.found
    assert draw.context_html(shown, 4000).startswith("<div")
