"""Markdown and plain-text briefs: every convention of DESIGN.md "Brief formats".

Each ``tests/data/briefs/markdown/<name>.md`` has its expected claims, uncited sentences
and warnings in ``<name>.expected.json`` (written by hand and reviewed), and the links no claim
cites (``unused``) where the case is about them: adding a case means adding the two files.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from core.brief import parse_markdown, read_brief
from core.brief.urls import find_urls
from tests.servers import DATA

CASES = sorted((DATA / "briefs" / "markdown").glob("*.md"))


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_markdown_briefs_give_their_expected_claims(path: Path) -> None:
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    brief = read_brief(path.read_bytes(), path.name)
    got = [
        {"text": c.text, "url": c.url, "quote": c.quote, "figure_text": c.figure_text, "anchor": c.anchor}
        for c in brief.claims
    ]
    assert got == expected["claims"]
    assert list(brief.uncited) == expected["uncited"]
    assert list(brief.warnings) == expected["warnings"]
    if "unused" in expected:  # the links no claim cites, where a case is about them
        assert [u.url for u in brief.unused_links] == expected["unused"]
    assert [c.id for c in brief.claims] == [f"c{n}" for n in range(1, len(brief.claims) + 1)]


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_every_location_points_at_the_claim_in_the_source(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    brief = read_brief(path.read_bytes(), path.name)
    for claim in brief.claims:
        loc = claim.location
        assert loc is not None and loc.kind == "paragraph"
        # The span is the claim as written: its first and last words are there, markup and all.
        written = source[loc.start : loc.end]
        words = [re.sub(r"\W", "", w) for w in claim.text.split()]
        assert re.sub(r"\W", "", written).startswith(words[0]), (claim.id, written)
        assert words[-1] in re.sub(r"\W", "", written), (claim.id, written)


def test_inline_quote_blockquote_and_scare_quotes() -> None:
    brief = parse_markdown(
        'Python 3.13 has a "free-threaded" build, see [docs](https://docs.python.org/3/whatsnew/3.13.html).\n\n'
        "> This is an experimental feature and therefore is not enabled by default.\n"
    )
    (claim,) = brief.claims
    # One quoted word is scare quotes, part of the claim; the blockquote is the quote.
    assert claim.quote == "This is an experimental feature and therefore is not enabled by default."
    assert claim.figure_text == 'Python 3.13 has a "free-threaded" build.'


def test_straight_quote_with_full_stop_inside_is_one_sentence() -> None:
    brief = parse_markdown(
        'The PEP says "In Python 3.10 and 3.11, distutils will be formally marked as deprecated. '
        'All known issues will be closed at this time." [PEP 632](https://peps.python.org/pep-0632/)'
    )
    (claim,) = brief.claims
    assert claim.quote == (
        "In Python 3.10 and 3.11, distutils will be formally marked as deprecated. "
        "All known issues will be closed at this time."
    )
    assert claim.figure_text == "The PEP says"


def test_html_entities_decoded_once() -> None:
    brief = parse_markdown(
        "AT&amp;T says &amp;lt; is an entity &mdash; really [src](https://example.org/?a=1&amp;b=2)."
    )
    (claim,) = brief.claims
    assert claim.text == "AT&T says &lt; is an entity — really src."
    assert claim.url == "https://example.org/?a=1&b=2"


def test_two_citations_in_one_sentence_give_one_claim_each_with_its_quote() -> None:
    brief = parse_markdown(
        'CPython 3.11 is "an average of 25% faster" [a](https://docs.python.org/3/whatsnew/3.11.html) '
        'and 3.12 "improves error messages" [b](https://docs.python.org/3/whatsnew/3.12.html).'
    )
    assert [(c.url.rsplit("/", 1)[-1], c.quote) for c in brief.claims] == [
        ("3.11.html", "an average of 25% faster"),
        ("3.12.html", "improves error messages"),
    ]
    assert brief.claims[0].text == brief.claims[1].text


def test_plain_text_lines_and_no_claims() -> None:
    brief = read_brief(b"Nothing here cites anything. Not even this.\n", "notes.txt")
    assert brief.format == "text"
    assert brief.claims == ()
    assert brief.uncited == ("Nothing here cites anything.", "Not even this.")
    assert brief.warnings == (
        "notes.txt has no claim with a citation: no sentence links to a source. "
        "Add links (or a references section) to the sentences to be checked.",
    )


def test_code_blocks_and_images_are_no_claims() -> None:
    brief = parse_markdown(
        "```\nhttps://example.org/in-code is not a citation.\n```\n\n"
        "![chart](https://example.org/chart.png) Sales rose 5% [r](https://example.org/report).\n"
    )
    assert [c.url for c in brief.claims] == ["https://example.org/report"]
    assert brief.claims[0].text == "Sales rose 5% r."


def test_undefined_reference_is_a_warning_not_a_claim() -> None:
    brief = parse_markdown("Python is fast [7].\n\n[1]: https://example.org/\n")
    assert brief.claims == ()
    assert "Cited as [7], but the reference list has no entry 7" in brief.warnings[0]


@pytest.mark.parametrize(
    ("text", "url"),
    [
        (
            "see https://en.wikipedia.org/wiki/Python_(programming_language).",
            "https://en.wikipedia.org/wiki/Python_(programming_language)",
        ),
        (
            "(https://en.wikipedia.org/wiki/Python_(programming_language))",
            "https://en.wikipedia.org/wiki/Python_(programming_language)",
        ),
        (
            "at https://en.wikipedia.org/wiki/HTTP_418_I'm_a_teapot, it says",
            "https://en.wikipedia.org/wiki/HTTP_418_I'm_a_teapot",
        ),
        ("'https://example.org/quoted'", "https://example.org/quoted"),
        ("“https://example.org/curly”", "https://example.org/curly"),
        ("https://example.org/a?b=1;", "https://example.org/a?b=1"),
        ("[https://example.org/x]", "https://example.org/x"),
    ],
)
def test_urls_read_whole(text: str, url: str) -> None:
    ((s, e),) = find_urls(text)
    assert text[s:e] == url


def test_plain_text_one_claim_per_line_without_full_stops() -> None:
    data = (
        b"CPython 3.11 is faster https://docs.python.org/3/whatsnew/3.11.html\n"
        b"PEP 632 deprecates distutils https://peps.python.org/pep-0632/\n"
        b"a closing remark\n"
    )
    brief = read_brief(data, "claims.txt")
    assert [(c.text, c.url) for c in brief.claims] == [
        (
            "CPython 3.11 is faster https://docs.python.org/3/whatsnew/3.11.html",
            "https://docs.python.org/3/whatsnew/3.11.html",
        ),
        ("PEP 632 deprecates distutils https://peps.python.org/pep-0632/", "https://peps.python.org/pep-0632/"),
    ]
    assert brief.uncited == ("a closing remark",)


def test_single_curly_quotes_with_apostrophes_inside() -> None:
    brief = parse_markdown("The notes say ‘CPython’s speed is an average of 25% faster’ [1].\n\n[1]: https://e.org/\n")
    (claim,) = brief.claims
    assert claim.quote == "CPython’s speed is an average of 25% faster"
    assert claim.figure_text == "The notes say."
