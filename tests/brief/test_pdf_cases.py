"""PDF briefs set as Google Docs exports them (issue 23), one file per class of input, each with its expected claims.

Each ``tests/data/briefs/pdf/<name>.pdf`` is written by ``tests/data/briefs/make_pdfs.py`` (its
docstring says how each class is built) and has its expected claims, uncited sentences, warnings
and unused links in ``<name>.expected.json``, written by hand: adding a case means adding a file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.brief import read_brief
from tests.servers import DATA

CASES = sorted((DATA / "briefs" / "pdf").glob("*.pdf"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_pdf_briefs_give_their_expected_claims(path: Path) -> None:
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    brief = read_brief(path.read_bytes(), path.name)
    assert [{"text": c.text, "url": c.url, "citation": c.citation} for c in brief.claims] == expected["claims"]
    assert list(brief.uncited) == expected["uncited"]
    assert list(brief.warnings) == expected["warnings"]
    assert [u.url for u in brief.unused_links] == expected["unused"]


def test_there_are_pdf_cases() -> None:
    assert len(CASES) >= 1
