"""PDFs without gold text: the quality floor of tests/quality/eval_pdf_reference.py.

Fails when fewer of pdfminer.six's sentences (an independent reading of the corpus's papers and
edge PDFs) are found in core.extract.pdf's text than the floor, when a false quote made from them
is verified, or when the PDFs differ from those the floor was recorded with
(tests/quality/corpus.py). Raise a floor on purpose, in its own commit.
"""

from __future__ import annotations

from pathlib import Path

from tests.quality import eval_pdf_reference
from tests.quality.corpus import measure
from tests.quality.run import compare


def test_pdf_reference_quotes_are_not_below_their_floor(corpus: Path) -> None:
    figures, floor = measure("pdf_reference", eval_pdf_reference)
    worse = compare(figures, floor)  # type: ignore[arg-type]
    assert not worse, "\n".join(worse) + f"\nsee {eval_pdf_reference.MISSES}"
