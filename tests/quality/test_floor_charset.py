"""Mislabelled charsets: the quality floor of tests/quality/eval_charset.py.

Fails when an honest quote is missed on a page whose declared charset lies (in either direction),
when such a page does not say what its charset is, when a page that reads cleanly as declared is
re-decoded, or when the pages differ from those the floor was recorded with (tests/quality/corpus.py).
Raise a floor on purpose, in its own commit.
"""

from __future__ import annotations

from pathlib import Path

from tests.quality import eval_charset
from tests.quality.corpus import measure
from tests.quality.run import compare


def test_charset_reading_is_not_below_its_floor(corpus: Path) -> None:
    figures, floor = measure("charset", eval_charset)
    assert compare(figures, floor) == []  # type: ignore[arg-type]
    # The repair is measured against the declared reading of the same pages, which finds none of them.
    assert figures["cp1252_as_utf8_found_as_declared_pct"] < 50 and figures["utf8_as_latin1_found_as_declared_pct"] < 50
