"""A passage's held words are marked in one pass over it for all the claim's terms: the same marks as one pass a
term, on claims made from 40 corpus pages' own sentences (one in two with its number changed, as the bench makes)."""

from __future__ import annotations

import gzip
import re

import pytest

from core.diagnose import candidates, offer
from core.extract import extract_html
from core.match import prepare
from core.settings import Settings
from core.text import split_sentences
from tests.servers import CORPUS

PAGES = sorted(p for p in (CORPUS / "html/readability").glob("*/source.html.gz"))[:40]
_NUMBER = re.compile(r"(?<![\d.])(\d+)(?![\d.])")


def _per_term(index, prepared, at, stems, wanted):
    # The plain marking: the passage read again for each term, its every token's word and stem looked up.
    spans = []
    for keys in wanted:
        spans += [
            index.orig_span(prepared.starts[i], prepared.ends[i])
            for i in range(at.lo, at.hi)
            if prepared.words[i] in keys or stems[prepared.words[i]] in keys
        ]
    return offer._merged(spans)


def _claims(text: str) -> list[str]:
    sentences = [text[a:b] for a, b in split_sentences(text) if 40 <= b - a <= 300]
    picked = [s for s in sentences if any(c.isdigit() for c in s)][:4] + sentences[:2]
    return [_NUMBER.sub(lambda m: str(int(m.group(1)) + 7), s, count=1) if i % 2 else s for i, s in enumerate(picked)]


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.parent.name)
def test_a_passage_s_marks_are_those_of_one_pass_a_term(path, monkeypatch):
    page = extract_html(gzip.decompress(path.read_bytes()), "text/html")
    prepared = prepare(page)
    claims = _claims(page.text)
    if not claims:
        pytest.skip(f"{path.parent.name} has no sentence of 40 to 300 characters to make a claim from")
    once = [[vars(p) for p in candidates(c, prepared, Settings())] for c in claims]  # every field, marks too
    monkeypatch.setattr(offer, "_highlights", _per_term)
    assert [[vars(p) for p in candidates(c, prepared, Settings())] for c in claims] == once
    marks = [h for found in once for p in found for h in p["highlights"]]
    assert marks, f"{path.parent.name}: no passage marked, the comparison would prove nothing"
