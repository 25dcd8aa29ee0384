"""The exact matcher's rules, each on a real corpus page where it makes the difference.

Every row names a page, a quote and what the matcher must say. Each rule has at least one
row that fails without it: a quote that must be found only thanks to the rule, or a quote
that must not be found (or must be flagged) only thanks to it. Adding a case is adding a row.
"""

from __future__ import annotations

import gzip
import random

import lxml.html
import pytest

from core.match import is_too_short, match_quote, prepare, split_fragments
from core.models import PageKind, PageText
from core.settings import Settings
from tests.builders import corpus_page
from tests.servers import CORPUS

WHATSNEW_311 = "html/python/whatsnew/3.11.html"
WHATSNEW_313 = "html/python/whatsnew/3.13.html"
PEP_744 = "html/python/peps/pep-0744.html"
PEP_484 = "html/python/peps/pep-0484.html"
DOG = "html/wikipedia/Dog.html.gz"
AEB_COST = "html/aeb/html/156770d676ce79905198e1c8407f81e5ecfb617d9aa44712718707eb7e3b8e38.html.gz"
AEB_TRUMP = "html/aeb/html/702d1da63b8e064cb70617620e45c2d116b4912c9bc9d518dcf5ce54bb8057ed.html.gz"
AEB_DISNEY = "html/aeb/html/287e4d9f4af31733aad6534aefb2bd00fb344ec8d6ebf1ac99dbc4d762da0ca4.html.gz"
AEB_RESTROOM = "html/aeb/html/87438a0dacbeb979e72522f42b9020048da13dc5a079477114190c8855701b7f.html.gz"
AEB_NASCAR = "html/aeb/html/11ea381ad92b5448cf66eae62f52ac565361a244c8881615fc6a7bb523cc0c32.html.gz"
AEB_SENATE = "html/aeb/html/0dd1357045727799a447563fd8851f4ebe79f042073ea16991a9b67aa595f81a.html.gz"
AEB_BOEING = "html/aeb/html/374ac9a59a85196cdacc1679fb8993521a7b7d9d6533720f102300be1c7face4.html.gz"


# (rule, page, quote, found)
FOUND_CASES = [
    # Numbers are whole tokens, with % counted.
    ("numbers", WHATSNEW_311, "CPython 3.11 is an average of 25% faster than CPython 3.10", True),
    ("numbers", WHATSNEW_311, "CPython 3.11 is an average of 2.5% faster than CPython 3.10", False),
    ("numbers", WHATSNEW_311, "CPython 31.1 is an average of 25% faster than CPython 3.10", False),
    ("numbers", WHATSNEW_311, "CPython 311 is an average of 25% faster than CPython 3.10", False),
    ("percent counts", WHATSNEW_311, "CPython 3.11 is an average of 25 faster than CPython 3.10", False),
    # Whole tokens at both ends of the quote.
    ("whole tokens", WHATSNEW_311, "CPython 3.11 is an average of 25% faster than CPython 3.1", False),
    ("whole tokens", WHATSNEW_311, "Python 3.11 is an average of 25% faster than CPython 3.10", False),
    ("whole tokens", AEB_TRUMP, "Mr. Trump canceled an increase in tariffs planned for Oct. 1", False),
    # Grouping commas between digits dropped; currency signs count.
    (
        "grouping",
        AEB_COST,
        "The campaign, which includes both digital and TV ads, cost the state roughly $449000",
        True,
    ),
    (
        "currency",
        AEB_COST,
        "The campaign, which includes both digital and TV ads, cost the state roughly 449,000",
        False,
    ),
    (
        "currency",
        AEB_COST,
        "The campaign, which includes both digital and TV ads, cost the state roughly €449,000",
        False,
    ),
    # Other punctuation is not compared ("Doppler, who" = "Doppler , who").
    (
        "punctuation",
        AEB_COST,
        "The campaign , which includes both digital and TV ads cost the state roughly $449,000",
        True,
    ),
    ("punctuation", PEP_744, "Earlier this year, an experimental just in time compiler was merged", True),
    # A sentence end on the page may be crossed only with one in the quote.
    ("sentence break", WHATSNEW_313, "therefore is not enabled by default The free-threaded mode requires", False),
    ("sentence break", WHATSNEW_313, "therefore is not enabled by default. The free-threaded mode requires", True),
    ("sentence break", WHATSNEW_313, "therefore is not enabled by default! the free-threaded mode requires", True),
    # ...a price's decimals are not an abbreviation: "$12.99. If" ends a sentence.
    ("decimal at sentence end", AEB_DISNEY, "In that case you pay only $12.99 If you were to subscribe", False),
    ("decimal at sentence end", AEB_DISNEY, "In that case you pay only $12.99. If you were to subscribe", True),
    # ...nor is "no" before a capital: "told me no. When" ends a sentence.
    ("said no", AEB_RESTROOM, "she kept telling me no When she finally let me go", False),
    # ...but "Mr." and "Oct." before a number are abbreviations, not sentence ends.
    (
        "abbreviations",
        AEB_TRUMP,
        "While Mr Trump canceled an increase in tariffs planned for Oct 15, he made no mention",
        True,
    ),
    ("abbreviations", AEB_TRUMP, "While Mr. Trump canceled an increase in tariffs planned for Oct. 15", True),
    # A block edge (heading, paragraph) may be crossed only with a break in the quote.
    ("block break", PEP_744, "Abstract Earlier this year, an experimental “just-in-time” compiler", False),
    ("block break", PEP_744, "Abstract\nEarlier this year, an experimental “just-in-time” compiler", True),
    # A table row is one line, as a browser reads it: a quote reads along a row, never into the next row.
    ("table row", AEB_NASCAR, "1 Kyle Busch 5040 5 1 17 27", True),
    ("table row", AEB_NASCAR, "Kyle Busch 5040 5 1 17 27 2 Martin Truex Jr. 5035", False),
    ("table row", AEB_NASCAR, "Kyle Busch 5040 5 1 17 27\n2 Martin Truex Jr. 5035", True),
    # The quote's own trailing punctuation is ignored ("." where the page has ",").
    ("trailing punctuation", AEB_COST, "cost the state roughly $449,000.", True),
    # Reference markers are skipped; an index in code is not a marker.
    (
        "footnote markers",
        DOG,
        "which forms part of the wolf-like canids, and is the most widely abundant terrestrial carnivore.",
        True,
    ),
    (
        "footnote markers",
        DOG,
        "The dog and the extant gray wolf are sister taxa as modern wolves are not closely related",
        True,
    ),
    ("footnote markers", DOG, "The dog and the extant gray wolf are sister taxa[11][12] as modern wolves", True),
    ("index is content", WHATSNEW_313, "sys.path is no longer replaced by the directory of the script", False),
    ("index is content", WHATSNEW_313, "sys.path[0] is no longer replaced by the directory of the script", True),
    # Typography forgiven: case, curly quotes, dashes, no-break spaces, line breaks, entities.
    ("typography", PEP_744, 'EARLIER THIS YEAR, AN EXPERIMENTAL "JUST\u2013IN\u2013TIME" COMPILER', True),
    ("typography", WHATSNEW_313, "Importing C extensions that don't use\u00a0these\nmechanisms", True),
    ("typography", WHATSNEW_313, "Importing C extensions that don&rsquo;t use these mechanisms", True),
    # Ellipsis fragments: each found whole, in any order.
    ("ellipsis", WHATSNEW_313, "This is an experimental feature … is not enabled by default.", True),
    (
        "ellipsis",
        WHATSNEW_313,
        "This is an experimental feature ... enabled by default [...] requires a different",
        True,
    ),
    ("ellipsis", WHATSNEW_313, "This is an experimental feature … is not enabled by defaul", False),
    # A clitic split from its word by a tokeniser ("Boeing 's", "do n't") is the page's one word...
    ("clitic apart", AEB_BOEING, "finalized a deal to purchase 30 of Boeing 's 787-9 Dreamliner jets", True),
    ("clitic apart", AEB_BOEING, "finalized a deal to purchase 30 of Boeing ’s 787-9 Dreamliner jets", True),
    ("clitic apart", WHATSNEW_313, "Importing C extensions that do n't use these mechanisms", True),
    # ...also in a quote that opens with a quotation mark (an apostrophe once normalised).
    ("clitic apart", AEB_BOEING, "‘finalized a deal to purchase 30 of Boeing 's 787-9 Dreamliner jets", True),
    # ...on the page too: this one writes "Senate ’s".
    ("clitic apart", AEB_SENATE, "The details of the Senate’s plenary session was shared", True),
    ("clitic apart", AEB_SENATE, "The details of the Senate ’s plenary session was shared", True),
    # ...but not across a line: this PDF's figure label "’s" stands on the line after "several".
    (
        "clitic apart",
        "pdf/papers/pdfminer__naacl06-shinyama.pdf",
        "A GLARF converter takes a syntactic tree as an input and augments it with several",
        True,
    ),
    # ...and not without its apostrophe, nor across other punctuation.
    ("clitic apart", AEB_BOEING, "finalized a deal to purchase 30 of Boeing s 787-9 Dreamliner jets", False),
    ("clitic apart", AEB_BOEING, "finalized a deal to purchase 30 of Boeing, 's 787-9 Dreamliner jets", False),
]


@pytest.mark.parametrize(
    ("rule", "name", "quote", "found"), FOUND_CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(FOUND_CASES)]
)
def test_rule_on_real_page(rule: str, name: str, quote: str, found: bool) -> None:
    m = match_quote(quote, corpus_page(name))
    assert m.found is found, f"{rule}: {quote!r}"


# (flag, page, quote, blocking) — a found quote that must carry this flag.
FLAG_CASES = [
    ("negation_cut", WHATSNEW_313, "enabled by default. The free-threaded mode requires a different executable", True),
    (
        "condition_cut",
        WHATSNEW_313,
        "Importing C extensions that don’t use these mechanisms will cause the GIL to be enabled",
        True,
    ),
    ("hedge_cut", PEP_744, "“just-in-time” compiler was merged into CPython’s main development branch", False),
    (
        "hedge_cut",
        "html/python/whatsnew/3.12.html",
        "64% faster as a side effect of the changes required to cover PEP 701",
        False,
    ),
    ("hedge_cut", "html/python/whatsnew/3.11.html", "30% faster for integers smaller than 2**30", False),
    ("negation_cut", WHATSNEW_313, "This is an experimental feature and therefore is … enabled by default.", True),
    (
        "condition_cut",
        "html/python/peps/pep-0484.html",
        "By default, None is an invalid value for any type.",
        True,
    ),
    ("too_short", WHATSNEW_313, "enabled by default", True),
    ("order_differs", WHATSNEW_313, "is not enabled by default … This is an experimental feature", False),
]


@pytest.mark.parametrize(
    ("kind", "name", "quote", "blocking"), FLAG_CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(FLAG_CASES)]
)
def test_context_flag_on_real_page(kind: str, name: str, quote: str, blocking: bool) -> None:
    m = match_quote(quote, corpus_page(name))
    assert m.found
    flags = [f for f in m.flags if f.kind == kind]
    assert flags, [f.kind for f in m.flags]
    assert flags[0].blocking is blocking


def test_whole_sentence_carries_no_flag() -> None:
    m = match_quote(
        "This is an experimental feature and therefore is not enabled by default.", corpus_page(WHATSNEW_313)
    )
    assert m.found and m.flags == ()


def test_negation_message_shows_the_pages_words() -> None:
    p = corpus_page(WHATSNEW_313)
    m = match_quote("enabled by default. The free-threaded mode requires a different executable", p)
    (flag,) = m.flags
    assert flag.message == (
        'The page says "not enabled by default. The free-threaded mode requires…": the quote leaves out '
        '"not" just before it, which may reverse what the source says.'
    )
    assert flag.span is not None and p.page.text[slice(*flag.span)] == "not"


def test_negation_cut_between_fragments_is_flagged_once() -> None:
    m = match_quote("This is an experimental feature and therefore is … enabled by default.", corpus_page(WHATSNEW_313))
    assert m.found
    assert [f.kind for f in m.flags] == ["negation_cut"]
    assert '"not" just before it' in m.flags[0].message


def test_condition_message_names_the_condition() -> None:
    p = corpus_page(WHATSNEW_313)
    m = match_quote("Importing C extensions that don’t use these mechanisms will cause the GIL to be enabled", p)
    (flag,) = m.flags
    assert flag.message == (
        'The page goes on "…GIL to be enabled, unless the GIL was explicitly disabled…": the quote stops '
        'before the condition "unless", which limits what it says.'
    )
    assert flag.span is not None and p.page.text[slice(*flag.span)] == "unless"


def test_not_only_is_no_negation() -> None:
    page_text = PageText(
        text="It is not only fast but also enabled by default in every build we ship.", kind=PageKind.TEXT
    )
    m = match_quote("also enabled by default in every build", prepare(page_text))
    assert m.found and not m.blocking


def test_fragment_span_lands_on_original_characters() -> None:
    p = corpus_page(WHATSNEW_313)
    m = match_quote("importing c extensions that don't use these mechanisms", p)
    (f,) = m.fragments
    assert (
        f.span is not None and p.page.text[slice(*f.span)] == "Importing C extensions that don’t use these mechanisms"
    )


def test_fragments_may_not_share_a_span() -> None:
    p = corpus_page(PEP_744)
    once = "merged into CPython’s main development branch"
    assert p.page.text.count(once) == 1
    assert match_quote(f"compiler was {once} … While recent CPython releases", p).found
    m = match_quote(f"compiler was {once} … {once}", p)
    assert not m.found
    assert [f.found for f in m.fragments] == [True, False]


def test_reordered_fragments_report_both_spans() -> None:
    p = corpus_page(WHATSNEW_313)
    m = match_quote("is not enabled by default … This is an experimental feature", p)
    first, second = m.fragments
    assert first.span is not None and second.span is not None and second.span[0] < first.span[0]


def test_one_word_fragment_is_placed_beside_the_rest() -> None:
    text = "Just not correct, he said. Later: Just… what is the quote from the hearings?"
    m = match_quote("Just…what is the quote from the hearings?", prepare(PageText(text=text, kind=PageKind.TEXT)))
    assert m.found and not m.flags
    assert m.fragments[0].span is not None and m.fragments[0].span[0] == text.index("Just…")


def test_too_short_is_never_verifiable_even_when_found() -> None:
    m = match_quote("enabled by default", corpus_page(WHATSNEW_313))
    assert m.found and m.too_short
    assert m.blocking[0].kind == "too_short"
    assert m.blocking[0].message == (
        'The quote "enabled by default" is too short to check: fewer than 4 words and under 20 characters '
        "could stand almost anywhere. Quote a whole sentence from the source."
    )


@pytest.mark.parametrize("quote", ["", "   ", "\n\t", "…", "...", "[1]", " . "])
def test_empty_or_blank_quote_is_not_found(quote: str) -> None:
    m = match_quote(quote, corpus_page(WHATSNEW_313))
    assert not m.found and m.too_short and m.fragments == ()


@pytest.mark.parametrize(
    ("quote", "short"),
    [
        ("", True),
        ("enabled by default", True),
        ("is enabled by default", False),  # four words
        ("distutils removed", True),  # 17 characters
        ("distutils deprecated", False),  # 20 characters
        ("Supercalifragilistic expialidocious", False),  # 2 words but 35 characters
        ("25% faster … 3.11", True),
    ],
)
def test_is_too_short(quote: str, short: bool) -> None:
    assert is_too_short(quote) is short
    assert is_too_short(quote, Settings(min_quote_words=1, min_quote_chars=1)) is (quote == "")


@pytest.mark.parametrize(
    ("quote", "fragments"),
    [
        ("a b c", ["a b c"]),
        ("a b … c d", ["a b", "c d"]),
        ("a b...c d", ["a b", "c d"]),
        ("a b [...] c d (…) e", ["a b", "c d", "e"]),
        ("a b . . . c d", ["a b", "c d"]),
        ("… a b …", ["a b"]),
        ("in Python 3.12... it", ["in Python 3.12", "it"]),
        ("...", []),
    ],
)
def test_split_fragments(quote: str, fragments: list[str]) -> None:
    assert split_fragments(quote) == fragments


def test_indian_grouping_and_decimal_comma() -> None:
    p = prepare(
        PageText(
            text="Sales reached 1,29,940 units, up from 1,5 lakh; the price was 2,499.50 rupees.", kind=PageKind.TEXT
        )
    )
    assert match_quote("Sales reached 129940 units", p).found
    assert match_quote("the price was 2499.50 rupees", p).found
    assert not match_quote("units, up from 1", p).found  # "1,5" is one number, not "1" then "5"


def test_page_number_and_main_content_from_page_records() -> None:
    text = "Menu Home About us\nRevenue grew by 12% in the third quarter of 2023.\nContact us for more about our work"
    body = text.index("Revenue")
    footer = text.index("Contact")
    pt = PageText(
        text=text,
        kind=PageKind.PDF,
        blocks=((0, body - 1), (body, footer - 1), (footer, len(text))),
        main=((body, footer - 1),),
        pages=((1, 0, body), (2, body, len(text))),
    )
    p = prepare(pt)
    inside = match_quote("Revenue grew by 12% in the third quarter", p)
    (f,) = inside.fragments
    assert (f.page, f.in_main) == (2, True) and not inside.flags
    outside = match_quote("Contact us for more about our work", p)
    (g,) = outside.fragments
    assert (g.page, g.in_main) == (2, False)
    assert [x.kind for x in outside.flags] == ["outside_main"]
    assert not outside.flags[0].blocking


@pytest.mark.parametrize(
    ("text", "marked", "without"),
    [
        # pep-0594: the extractor marked the link "subprocess" (class "reference") as a note.
        (
            "Users are encouraged to use the subprocess module instead.",
            "subprocess",
            "Users are encouraged to use the module instead.",
        ),
        ("The format was finalised in 2023 by the committee.", "2023", "The format was finalised in by the committee."),
    ],
)
def test_extractor_spans_that_hold_words_are_not_skipped(text: str, marked: str, without: str) -> None:
    at = text.index(marked)
    p = prepare(PageText(text=text, kind=PageKind.HTML, footnotes=((at, at + len(marked)),)))
    assert match_quote(text, p).found
    assert not match_quote(without, p).found


def test_extractor_note_markers_are_skipped() -> None:
    text = "Respectively, these alerts are classified as tickets, email alerts,22 and pages."
    at = text.index("22")
    p = prepare(PageText(text=text, kind=PageKind.HTML, footnotes=((at, at + 2),)))
    assert match_quote("these alerts are classified as tickets, email alerts, and pages.", p).found


def test_blank_lines_are_block_edges_without_block_records() -> None:
    p = prepare(PageText(text="Release notes\n\nPython 3.13 adds an experimental JIT compiler", kind=PageKind.TEXT))
    assert not match_quote("Release notes Python 3.13 adds an experimental JIT", p).found
    assert match_quote("Python 3.13 adds an experimental JIT compiler", p).found


SRE = "html/readability/google-sre-book-1/source.html.gz"


@pytest.mark.parametrize(
    ("quote", "found"),
    [
        ("Respectively, these alerts are classified as tickets, email alerts,22 and pages.", True),
        ("Respectively, these alerts are classified as tickets, email alerts, and pages.", True),
        ("Respectively, these alerts are classified as tickets, email alerts,23 and pages.", False),
        (
            "an average latency of 100 ms at 1,000 requests per second, 1% of requests might easily take 5 seconds.23",
            True,
        ),
        ('22Sometimes known as "alert spam," as they are rarely read or acted on.', True),
    ],
)
def test_note_numbers_glued_by_copying_from_a_browser(quote: str, found: bool) -> None:
    # The page's <sup> note numbers are skipped; a copy from the browser glues them to words.
    assert match_quote(quote, corpus_page(SRE)).found is found


def test_chinese_quote_may_start_inside_a_run_of_characters() -> None:
    # Chinese has no spaces: each character is a token, so a quote can begin mid-sentence.
    # Real text from readability's qq page (its expected extraction; the source declares gb2312
    # for UTF-8 bytes, so the source itself decodes to mojibake as a browser would show it).
    expected = gzip.decompress((CORPUS / "html" / "readability" / "qq" / "expected.html.gz").read_bytes())
    text = "\n".join(p.text_content() for p in lxml.html.fromstring(expected.decode("utf-8")).iter("p"))
    sentence = next(line for line in text.split("\n") if "例如" in line)
    p = prepare(PageText(text=text, kind=PageKind.HTML))
    start = sentence.index("例如")
    assert match_quote(sentence[start + 3 : start + 30], p).found
    assert not match_quote(sentence[start + 3 : start + 30].replace("它", "他"), p).found


def test_any_text_and_any_quote_give_an_answer_not_an_exception() -> None:
    # Seeded noise over the characters the rules care about: marks, digits, signs, brackets, CJK.
    rng = random.Random(7)
    alphabet = "aZ9 .,!?;:'\"“”’-–—…[]()%$€\n\u00a0\u00ad\u200b\u0301ﬁ中文ıİ1,000.5e.g.U.S.[1][a]"
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 80)))
        quote = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        footnotes = ((0, min(3, len(text))),) if text else ()
        p = prepare(
            PageText(
                text=text,
                kind=PageKind.HTML,
                blocks=((0, len(text)),),
                footnotes=footnotes,
                main=((0, len(text) // 2),),
            )
        )
        m = match_quote(quote, p)
        for f in m.fragments:
            # A fragment not found has no span; a found one lies inside the page.
            assert (f.span is None) is (not f.found)
            assert f.span is None or 0 <= f.span[0] <= f.span[1] <= len(text)


def test_a_stretch_cut_from_the_page_at_word_edges_is_always_found() -> None:
    rng = random.Random(11)
    alphabet = "aZ9 .,!?;:'\"“”’-–—[]()%$€\n\u00a0\u00ad\u0301ﬁ中文1,000.5e.g.U.S.[1][a]"
    tried = 0
    for _ in range(400):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 120)))
        p = prepare(PageText(text=text, kind=PageKind.HTML, blocks=((0, len(text)),)))
        if not p.words:
            continue
        first = rng.randrange(len(p.words))
        last = rng.randrange(first, len(p.words))
        quote = text[p.ostarts[first] : p.oends[last]]
        if "…" in quote or "..." in quote or ". ." in quote:
            continue  # an ellipsis in the page's own text splits the quote: another rule
        tried += 1
        assert match_quote(quote, p).found, (text, quote)
    assert tried > 200
