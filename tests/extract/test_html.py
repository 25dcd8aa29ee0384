"""HTML and plain-text extraction on real corpus pages (core/extract/read.py, core/extract/html.py)."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

from core.extract import decode_body, extract, extract_html, extract_text
from core.extract.parse import _nesting
from core.models import PageText, Unreadable
from core.text.normalise import normalise
from tests.builders import every
from tests.servers import CORPUS, DATA

EXTRACT_DATA = DATA / "extract"
AEB = CORPUS / "html" / "aeb"
READABILITY = CORPUS / "html" / "readability"
WIKI = CORPUS / "html" / "wikipedia"


def _gz(path: Path) -> bytes:
    return gzip.decompress(path.read_bytes())


def _page(body: bytes, content_type: str = "text/html") -> PageText:
    page = extract(body, content_type)
    assert isinstance(page, PageText), page
    return page


def _words(text: str) -> str:
    # The matcher compares words and numbers, not punctuation: so does this check.
    return " ".join(re.findall(r"\w+(?:[.,]\d+)*", normalise(text).text))


@pytest.fixture(scope="module")
def dog() -> PageText:
    return _page(_gz(WIKI / "Dog.html.gz"))


@pytest.fixture(scope="module")
def maths() -> PageText:
    return _page(_gz(WIKI / "ar-Mathematics.html.gz"))


# ---------------------------------------------------------------- structure


def test_blocks_are_newline_separated_spans_of_the_text(dog: PageText) -> None:
    assert dog.blocks, "no blocks"
    pieces = [dog.text[s:e] for s, e in dog.blocks]
    assert "\n".join(pieces) == dog.text
    every(pieces, lambda p: p and p == p.strip() and "\n" not in p)


def test_headings_list_items_and_table_rows_are_their_own_blocks(dog: PageText) -> None:
    blocks = {dog.text[s:e] for s, e in dog.blocks}
    # Section headings stand alone; an infobox row ("Kingdom:" | "Animalia") is one line, as a browser reads it.
    assert {"Kingdom: Animalia", "Scientific classification", "Conservation status"} <= blocks
    assert not {"Kingdom:", "Animalia"} & blocks


def test_the_cells_of_a_row_are_one_line_and_a_cell_of_paragraphs_still_breaks() -> None:
    page = extract_html(
        b"<table><tr><th>Pos.</th><th>Piloto</th><th>Pontos</th></tr>"
        b"<tr><td>1</td><td>Kyle <b>Busch</b></td><td>5040</td></tr>"
        b"<tr><td><p>Left column.</p></td><td><div>Right column</div></td></tr></table>"
    )
    assert [page.text[s:e] for s, e in page.blocks] == [
        "Pos. Piloto Pontos",
        "1 Kyle Busch 5040",
        "Left column.",
        "Right column",
    ]


def test_one_br_breaks_a_line_two_break_the_block() -> None:
    # dropbox-blog: "Task scheduling<br>Clients can ..." is one paragraph; a reader copying it gets a space.
    page = extract_html(b"<p>Task scheduling<br>Clients can run it.</p><p>One<br><br>Two.</p>")
    assert [page.text[s:e] for s, e in page.blocks] == ["Task scheduling Clients can run it.", "One", "Two."]


def test_title(dog: PageText, maths: PageText) -> None:
    assert dog.title == "Dog"
    assert maths.title == "رياضيات"


# ---------------------------------------------------------------- what must never leak


def test_parsoid_json_in_attributes_never_leaks(dog: PageText) -> None:
    for leak in ('"name":', "mw:Extension", "data-mw", '{"', "cite_note", "./Dog#"):
        assert leak not in dog.text


def test_tex_never_leaks_and_formula_text_is_kept(maths: PageText) -> None:
    for leak in ("\\displaystyle", "\\frac", "\\ldots", "{\\", "application/x-tex"):
        assert leak not in maths.text
    # The formulas' visible text (MathML presentation) is there, once.
    assert "\n1,2,…\n" in maths.text
    assert "0,1,−1,…" in maths.text


@pytest.mark.parametrize("name", ["style-tags-removal", "comment-inside-script-parsing", "wikipedia-2"])
def test_scripts_and_styles_are_dropped(name: str) -> None:
    raw = _gz(READABILITY / name / "source.html.gz").decode("utf-8")
    page = extract_html(raw)
    bodies = [
        m.group(1).strip() for m in re.finditer(r"<(?:script|style)\b[^>]*>(.*?)</(?:script|style)>", raw, re.S | re.I)
    ]
    bodies = [b for b in bodies if len(b) > 15]
    assert bodies
    assert not [b for b in bodies if b[:40] in page.text]


def test_hidden_paragraphs_are_set_apart_on_hidden_nodes_page() -> None:
    page = extract_html(_gz(READABILITY / "hidden-nodes" / "source.html.gz"))
    # A paragraph follows each header, one with style="display: none", one with hidden: the shown
    # text goes from header to header, and both paragraphs stand after it, as the hidden part.
    [(start, end)] = page.hidden
    assert page.text[: start - 1].endswith("\nSecondary header\nThird header")
    hidden = page.text[start:end].split("\n")
    assert len(hidden) == 2 and hidden[0] == hidden[1] and hidden[0].startswith("Lorem ipsum dolor sit amet")


# ---------------------------------------------------------------- inline joins and footnotes


def test_inline_tags_are_joined_without_a_space() -> None:
    # <a ...>Garrett</a>’s snaps: a space would split the word.
    page = _page(_gz(AEB / "html" / "6a72de37e8f98f4eee6c0821e593b35ce536cef6c8b424c5e1dd747ebe6621ba.html.gz"))
    assert "Garrett’s snaps" in page.text
    assert "Garrett ’s" not in page.text


def test_wikipedia_reference_markers_are_footnote_spans(dog: PageText) -> None:
    markers = [dog.text[s:e] for s, e in dog.footnotes]
    assert len(markers) > 100
    # "[12]", "[n 3]", and a reference's page locator ("[67]:35" gives "[67]" and ":35").
    odd = [m for m in markers if not re.fullmatch(r"\[[^\[\]]{1,40}\]|:[\w\s,–-]{1,30}", m)]
    assert not odd
    # Kept in the text, where the reader sees them.
    assert "Canis lupus familiaris[1]" in dog.text


def test_reference_text_is_not_a_footnote_span(maths: PageText) -> None:
    # The references list (class "mw-reference-text") is content, not a marker.
    every(maths.footnotes, lambda span: maths.text[span[0] : span[1]].startswith("["))


@pytest.mark.parametrize(
    ("path", "before", "marker"),
    [
        # <sup class="noprint Inline-Template">[<i><a>citation needed</a></i>]</sup>
        (
            "readability/wikipedia/source.html.gz",
            "40,000 active contributors from across the globe",
            "[citation needed]",
        ),
        # <sup><a data-type="noteref" href="#id-...">22</a></sup>: an O'Reilly book's note reference.
        ("readability/google-sre-book-1/source.html.gz", "these alerts are classified as tickets, email alerts,", "22"),
        # Parsoid: <sup class="mw-ref reference"><a><span class="mw-reflink-text">[1]</span></a></sup>
        ("wikipedia/Dog.html.gz", "Canis lupus familiaris", "[1]"),
    ],
)
def test_reference_markers_are_footnote_spans(path: str, before: str, marker: str) -> None:
    page = _page(_gz(CORPUS / "html" / path))
    start = page.text.index(before + marker) + len(before)
    assert (start, start + len(marker)) in page.footnotes


# ---------------------------------------------------------------- ground truth


def test_aeb_ground_truth_sentences_are_in_the_text() -> None:
    truth = json.loads((AEB / "ground-truth.json").read_text())
    total = found = 0
    for page_id, rec in list(truth.items())[::6]:  # every sixth page keeps the test quick
        text = _words(_page(_gz(AEB / "html" / f"{page_id}.html.gz")).text)
        for line in rec["articleBody"].split("\n"):
            for sentence in re.split(r"(?<=[.!?])\s+", line):
                if len(sentence.split()) >= 8:
                    total += 1
                    found += _words(sentence) in text
    assert total > 500
    assert found / total >= 0.99, (found, total)


@pytest.mark.parametrize("name", ["wikipedia-2", "medium-1", "lifehacker-post-comment-load", "ars-1", "bbc-1"])
def test_readability_main_content_is_marked_never_cut(name: str) -> None:
    page = _page(_gz(READABILITY / name / "source.html.gz"))
    expected = extract_html(_gz(READABILITY / name / "expected.html.gz"))
    assert page.main, "no main spans"
    main_text = _words(" ".join(page.text[s:e] for s, e in page.main))
    # Every paragraph of the reviewed main content is in the whole text AND inside a main span.
    paras = [p for s, e in expected.blocks if len((p := expected.text[s:e]).split()) >= 8]
    assert paras
    whole = _words(page.text)
    # readability's expected output drops a few inline bits (IPA pronunciations), so not 100%.
    assert sum(_words(p) in whole for p in paras) / len(paras) >= 0.9
    inside = sum(_words(p) in main_text for p in paras)
    assert inside / len(paras) >= 0.9, (inside, len(paras))
    # Never a window: the text is longer than the main content.
    assert sum(e - s for s, e in page.main) < len(page.text)


@pytest.mark.parametrize("name", ["whatsnew/3.11.html", "whatsnew/3.13.html", "peps/pep-0632.html"])
def test_a_page_that_marks_its_main_landmark_is_taken_at_its_word(name: str) -> None:
    # Sphinx marks <div role="main">, the PEP site <main>; readability alone picks one section of
    # a long page and would call the central paragraphs navigation.
    page = _page((CORPUS / "html" / "python" / name).read_bytes())
    covered = sum(e - s for s, e in page.main)
    assert 0.8 * len(page.text) < covered < len(page.text)
    nav = page.text.index("Theme") if "Theme" in page.text else 0
    assert not any(s <= nav < e for s, e in page.main), "the theme switcher is navigation"


# ---------------------------------------------------------------- charsets and entities


@pytest.mark.parametrize(
    ("name", "content_type", "expected"),
    [
        ("cp1251-meta.html", "text/html", "настоящие гении кулинарного искусства"),
        ("cp1251-undeclared.html", "text/html", "настоящие гении кулинарного искусства"),
        ("utf8-meta-lies.html", "text/html; charset=utf-8", "настоящие гении кулинарного искусства"),
        # A stored copy without its header: the <meta> says ISO-8859-1, the bytes are all valid UTF-8.
        ("utf8-meta-lies.html", "text/html", "настоящие гении кулинарного искусства"),
        ("cp1252-latin1-label.html", "text/html; charset=ISO-8859-1", "The café’s “house blend” costs €4 – or so"),
        ("utf16le-no-bom.html", "text/html", "настоящие гении кулинарного искусства"),
    ],
)
def test_charset(name: str, content_type: str, expected: str) -> None:
    body = (EXTRACT_DATA / name).read_bytes()
    assert expected in decode_body(body, content_type)
    assert expected in extract_html(body, content_type).text


def test_a_real_page_whose_meta_its_utf8_bytes_do_not_obey_is_read_as_utf8() -> None:
    # readability's qq: <meta charset="gb2312">, UTF-8 bytes; the ground truth's sentence is there.
    body = _gz(READABILITY / "qq" / "source.html.gz")
    assert b"gb2312" in body[:2048].lower()
    assert "沿着中央线坐一站，环线坐四站" in extract_html(body).text


def test_entities_are_decoded_exactly_once() -> None:
    page = extract_html((EXTRACT_DATA / "entities-once.html").read_bytes())
    assert "Write &lt;b&gt; to show the tag <b> on a page, and AT&T stays AT&T; “curly” and é" in page.text


def test_plain_text_is_never_entity_decoded() -> None:
    page = _page(b"Type &amp; to get an ampersand in HTML. " * 10, "text/plain")
    assert "Type &amp; to get" in page.text


# ---------------------------------------------------------------- plain text


def test_plain_text_paragraphs_and_list_items_are_blocks() -> None:
    page = extract_text("First line of a\nwrapped paragraph.\n\n\nSecond paragraph.\n- item one\n- item two\r\n")
    assert page.text == "First line of a wrapped paragraph.\nSecond paragraph.\n- item one\n- item two"
    assert [page.text[s:e] for s, e in page.blocks] == page.text.split("\n")


# ---------------------------------------------------------------- pages that hold no text, and hostile pages


def test_javascript_shell_is_unreadable_with_what_to_do() -> None:
    result = extract((EXTRACT_DATA / "js-shell.html").read_bytes(), "text/html")
    assert result == Unreadable(
        "The page needs JavaScript to show its text: its application root is empty and it shows only 0 characters "
        "of text without JavaScript. "
        "Open it in a browser and paste the text, or upload a saved copy of the page."
    )


def test_noscript_asking_for_javascript_with_little_text_is_unreadable() -> None:
    body = (
        b"<html><body><noscript>Please enable JavaScript to view this site.</noscript><p>"
        + b"Menu item. " * 40
        + b"</p>"
    )
    result = extract(body, "text/html")
    assert isinstance(result, Unreadable) and "asks for JavaScript" in result.reason


@pytest.mark.parametrize(
    ("body", "content_type", "words"),
    [
        (b"", "text/html", "is empty"),
        (b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 20, "text/html", "a PNG image"),
        (bytes(range(256)) * 200, "text/html", "binary data"),
        (b"<html><body>not a pdf</body></html>", "application/pdf", "says it is a PDF"),
        (b"\x1f\x8b\x08\x00" + bytes(200), "text/html", "gzip-compressed"),
    ],
)
def test_bytes_without_text_are_unreadable(body: bytes, content_type: str, words: str) -> None:
    result = extract(body, content_type, url="https://example.org/x")
    assert isinstance(result, Unreadable)
    assert words in result.reason and "https://example.org/x" in result.reason


def test_deep_nesting_gives_text_and_a_warning() -> None:
    body = b"<p>" + b"Before the nesting there is a sentence of ordinary words. " * 5 + b"</p>"
    body += b"<div>" * 100_000 + b"deep" + b"</div>" * 100_000
    page = _page(body)
    assert "Before the nesting" in page.text
    assert any("nests its markup" in w for w in page.warnings)


@pytest.mark.parametrize(
    ("markup", "open_at_most"),
    [
        (b"<div><br><p>x</p><BR/><img src=a><span></span></div>", 2),  # void elements open no level
        ("<br\u00e9><br\u00e9>".encode(), 2),  # a name that only starts like a void element's
        (b"</br><br-x><hr>", 1),
    ],
)
def test_nesting_is_counted_from_tag_names_as_the_tokenizer_reads_them(markup: bytes, open_at_most: int) -> None:
    assert _nesting(markup) == open_at_most


def test_huge_attribute_and_broken_markup_do_not_leak() -> None:
    body = (
        b'<html><body><p title="' + b"x" * 2_000_000 + b'">Visible words after a huge attribute value, '
        b"and some more words so that the page holds enough text to be read as a real page by the checker."
        b"<div <<p>> unclosed <b>bold <i>italic</p></div><p>" + b"Trailing paragraph of ordinary text. " * 5
    )
    page = _page(body)
    assert "xxxx" not in page.text
    assert "Visible words after a huge attribute value" in page.text
    assert "Trailing paragraph" in page.text


def test_ten_megabyte_page_gives_text() -> None:
    body = (
        b"<html><body>"
        + b"<p>A paragraph of a very long page, repeated many times over.</p>" * 160_000
        + b"</body></html>"
    )
    assert len(body) > 10_000_000
    page = _page(body)
    assert page.text.count("\n") == 160_000 - 1
    assert page.main == ()  # too large for readability: all text counts as main
    assert page.warnings


def _readability_clean(text: str) -> str:
    # readability-lxml 0.9's clean(), copied as the oracle for our linear-time version.
    text = re.sub(r"\s{255,}", " " * 255, text)
    text = re.sub(r"\s*\n\s*", "\n", text)
    text = re.sub(r"\t|[ \t]{2,}", " ", text)
    return text.strip()


@pytest.mark.parametrize("name", ["wikipedia-2", "yahoo-2", "medium-1", "nytimes-1"])
def test_fast_clean_equals_readabilitys_clean_on_real_text(name: str) -> None:
    import lxml.html

    from core.extract.main import fast_clean

    root = lxml.html.document_fromstring(_gz(READABILITY / name / "source.html.gz"))
    texts = [el.text_content() for el in root.iter() if isinstance(el.tag, str)][::3]
    texts += ["a \n" + " " * 300 + "\n b", "x" + "\t" * 3 + "y", "\xa0\xa0 \n\r\n z ", " " * 254 + "\n"]
    assert [fast_clean(t) for t in texts] == [_readability_clean(t) for t in texts]


def test_screen_reader_only_text_is_dropped() -> None:
    # <span class="sr-only">Close extra sharing options</span> inside an icon button: never on screen.
    raw = _gz(AEB / "html" / "098bb3e96c0acdf36efdcde45fb9cca3f8c82c7cb2071b76097a1b96155f1eb2.html.gz")
    assert b'class="sr-only">Close extra sharing options' in raw
    assert "Close extra sharing options" not in _page(raw).text
