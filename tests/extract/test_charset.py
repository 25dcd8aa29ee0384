"""Mislabelled charsets (issue 24, 3): a page whose declared charset lies is read in its real one, and says so.

Real news pages of the corpus (aeb) whose text holds accented letters are served from a loopback
server with a lie in each direction: their Windows-1252 bytes called UTF-8, their UTF-8 bytes
called ISO-8859-1. Every honest quote (a ground-truth sentence with an accented letter that the
matcher finds on the honest page) must be found on the lying page, and the source record must say
what the server said and what the page is. Every HTML page of the corpus served as it is must
read exactly as before, with no note: a page that reads cleanly as declared is never re-decoded.
"""

from __future__ import annotations

import re

import pytest

from core.check import check_brief
from core.extract.charset import decode
from core.models import Brief, BriefFormat, Verdict
from core.settings import Settings
from tests.builders import claim
from tests.quality.eval_charset import ACCENTED, corpus_html, honest_cases, page_text
from tests.servers import LoopbackServer
from ui import draw

#: The lies: (what the bytes are, what the header says, the note the source record must carry).
LIES = {
    "windows-1252 served as utf-8": (
        "cp1252",
        "text/html; charset=utf-8",
        "The server said UTF-8; the page is Windows-1252: Verbatim read it as Windows-1252.",
    ),
    "utf-8 served as latin-1": (
        "utf-8",
        "text/html; charset=ISO-8859-1",
        "The server said ISO-8859-1; the page is UTF-8: Verbatim read it as UTF-8.",
    ),
}


def test_the_lying_pages_are_real_pages_with_honest_accented_quotes() -> None:
    cases = honest_cases()
    assert len(cases) >= 8, cases
    assert sum(len(q) for _, q in cases) >= 20


@pytest.mark.parametrize("lie", list(LIES))
def test_every_honest_quote_is_found_on_a_page_whose_charset_lies(lie: str, server: LoopbackServer) -> None:
    codec, header, note = LIES[lie]
    claims = []
    for pid, quotes in honest_cases():
        text = page_text(pid)
        assert text is not None
        url = server.add(f"/{pid}", text.encode(codec), header)
        claims += [claim(f"{pid[:8]}-{i}", quote, url, quote) for i, quote in enumerate(quotes)]
    brief = Brief(name="lies.md", format=BriefFormat.MARKDOWN, claims=tuple(claims))
    done = check_brief(brief, Settings().with_(allow_private=True, extract_workers=0))
    lost = [(r.claim.id, r.verdict.value, r.reasons[:1]) for r in done.results if r.verdict is not Verdict.VERIFIED]
    assert lost == []
    for r in done.results:
        assert r.source.charset_note == note, r.claim.id
        assert note in r.reasons
        assert note in draw.context_html(r, 400) and note in draw.source_meta_html(r.source, r.claim.quote)


@pytest.mark.parametrize("lie", list(LIES))
def test_the_diagnosis_of_a_changed_quote_on_a_lying_page_shows_the_real_letters(
    lie: str, server: LoopbackServer
) -> None:
    codec, header, _ = LIES[lie]
    pid, quotes = honest_cases()[0]
    text = page_text(pid)
    assert text is not None
    url = server.add(f"/{pid}", text.encode(codec), header)
    words = quotes[0].split()
    changed = " ".join([*words[:-2], "nothing", *words[-1:]])  # one word replaced: a near miss
    brief = Brief(name="lies.md", format=BriefFormat.MARKDOWN, claims=(claim("c1", changed, url, changed),))
    (r,) = check_brief(brief, Settings().with_(allow_private=True, extract_workers=0)).results
    assert r.verdict is Verdict.QUOTE_NOT_FOUND and r.near_miss is not None and r.near_miss.passage is not None
    shown = r.near_miss.passage.text
    assert "\ufffd" not in shown and "Ã" not in shown
    accented = [w for w in words if ACCENTED.search(w)]
    assert any(w in shown for w in accented), (accented, shown)


def test_no_corpus_page_that_reads_cleanly_as_declared_is_re_decoded() -> None:
    pages = corpus_html()
    assert len(pages) >= 280
    noted = []
    for name, body in pages:
        as_served = decode(body, "text/html")
        if as_served.note:
            # A note is only ever the truth: the page's own declaration does not read its bytes.
            declared = re.search(rb"charset\s*=\s*[\"']?([-\w]+)", body[:8192])
            assert declared is not None, name
            with pytest.raises(UnicodeDecodeError):
                body.decode(declared[1].decode())
            noted.append(name)
        try:
            honest = body.decode("utf-8")
        except UnicodeDecodeError:
            continue
        with_header = decode(body, "text/html; charset=utf-8")
        assert (with_header.text, with_header.note) == (honest.removeprefix("\ufeff"), ""), name
    assert len(noted) <= 1, noted  # readability's qq page: its <meta> says GB2312, its bytes are UTF-8


@pytest.mark.parametrize(
    ("body", "header", "expected", "note"),
    [
        # A UTF-8 page with one stray Windows-1252 byte keeps UTF-8: only that byte is lost.
        ("Zürich – the “city”".encode() + b"\x85", "text/html; charset=utf-8", "Zürich – the “city”", ""),
        # Honest Windows-1252, honestly declared: read as declared.
        ("Zürich “city”".encode("cp1252"), "text/html; charset=windows-1252", "Zürich “city”", ""),
        # ASCII called anything is ASCII.
        (b"Zurich city", "text/html; charset=iso-8859-1", "Zurich city", ""),
        (
            "Zürich “city”".encode("cp1252"),
            "text/plain; charset=utf-8",
            "Zürich “city”",
            "The server said UTF-8; the page is Windows-1252: Verbatim read it as Windows-1252.",
        ),
    ],
)
def test_a_declaration_is_overruled_only_when_its_reading_is_broken(
    body: bytes, header: str, expected: str, note: str
) -> None:
    got = decode(body, header)
    assert got.text.startswith(expected) and got.note == note
