"""Each quality floor pins the digest of the corpus its evaluation reads, and a changed corpus is caught.

The floor tests themselves (tests/test_quality_*.py) refuse a changed corpus before measuring;
these check the digest quickly, and that the machinery sees a changed, added or undeclared file.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from tests.quality import corpus
from tests.quality.run import floor_text

QUALITY = Path(corpus.__file__).resolve().parent
NAMES = sorted(p.stem.removeprefix("floor_") for p in QUALITY.glob("floor_*.json"))


def test_every_evaluation_has_a_floor() -> None:
    evals = sorted(p.stem.removeprefix("eval_") for p in QUALITY.glob("eval_*.py"))
    assert (
        NAMES
        == evals
        == [
            "briefs",
            "charset",
            "claims",
            "claims_figures",
            "claims_negation",
            "context",
            "diagnose",
            "figures",
            "forms",
            "match",
            "ocr",
            "pages",
            "pdf",
            "pdf_reference",
        ]
    )


@pytest.mark.parametrize("name", NAMES)
def test_each_floor_pins_the_digest_of_the_corpus_as_it_is(corpus_dir: Path, name: str) -> None:
    evaluation = importlib.import_module(f"tests.quality.eval_{name}")
    floor = corpus.floor_of(name)
    assert corpus.pinned(floor) is not None, f"floor_{name}.json pins no corpus digest"
    assert corpus.stale(name, floor, corpus.digest(evaluation.CORPUS_FILES)) is None


@pytest.fixture
def corpus_dir() -> Path:
    if not corpus.CORPUS.is_dir():
        pytest.fail(f"the shared corpus is missing at {corpus.CORPUS}: check out ../shared beside the repo")
    return corpus.CORPUS


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A small corpus of its own in tmp_path, standing in for ../shared/corpus."""
    root = tmp_path / "corpus"
    (root / "html" / "aeb").mkdir(parents=True)
    (root / "html" / "aeb" / "a.html").write_bytes(b"<p>one</p>")
    (root / "html" / "aeb" / "b.html").write_bytes(b"<p>two</p>")
    (root / "truth.json").write_text("{}")
    monkeypatch.setattr(corpus, "CORPUS", root)
    return root


PATTERNS = ("truth.json", "html/aeb/*.html")


def test_the_digest_changes_with_a_file_changed_added_or_renamed(fake: Path) -> None:
    first = corpus.digest(PATTERNS)
    assert first.files == 3 and first == corpus.digest(PATTERNS)
    (fake / "html" / "aeb" / "b.html").write_bytes(b"<p>two!</p>")
    changed = corpus.digest(PATTERNS)
    (fake / "html" / "aeb" / "c.html").write_bytes(b"<p>three</p>")
    added = corpus.digest(PATTERNS)
    (fake / "html" / "aeb" / "c.html").rename(fake / "html" / "aeb" / "d.html")
    renamed = corpus.digest(PATTERNS)
    assert len({first.sha256, changed.sha256, added.sha256, renamed.sha256}) == 4
    assert (added.files, renamed.files) == (4, 4)


def test_a_changed_corpus_is_refused_with_what_to_do(fake: Path) -> None:
    floor = {"x_count": {"floor": 1, "better": "higher"}, corpus.KEY: corpus.digest(PATTERNS).as_json()}
    assert corpus.stale("demo", floor, corpus.digest(PATTERNS)) is None
    (fake / "truth.json").write_text('{"changed": true}')
    problem = corpus.stale("demo", floor, corpus.digest(PATTERNS))
    assert problem is not None
    assert problem.startswith(f"the corpus under {fake} (or tests/data/) that eval_demo reads changed since the floor")
    assert problem.endswith("re-run make eval and record the floor on purpose (python -m tests.quality.run --pin demo)")
    assert corpus.stale("demo", {"x_count": {"floor": 1}}, corpus.digest(PATTERNS)) == (
        "tests/quality/floor_demo.json pins no corpus digest: re-run make eval and record the floor on purpose"
        " (python -m tests.quality.run --pin demo)"
    )


def test_a_pattern_that_matches_nothing_is_an_error(fake: Path) -> None:
    with pytest.raises(ValueError, match=r"the evaluation's pattern 'html/gone/\*\.html' matches no file"):
        corpus.digest(("html/gone/*.html",))


def test_watch_sees_a_file_read_but_not_declared(fake: Path) -> None:
    with corpus.watch() as opened:
        (fake / "truth.json").read_bytes()
        (fake / "html" / "aeb" / "a.html").read_text()
    assert opened == {"corpus/truth.json", "corpus/html/aeb/a.html"}
    assert corpus.undeclared(opened, PATTERNS) == []
    assert corpus.undeclared(opened, ("html/aeb/*.html",)) == ["corpus/truth.json"]
    (fake / "truth.json").read_bytes()  # outside the with-block: not recorded
    assert opened == {"corpus/truth.json", "corpus/html/aeb/a.html"}


def test_a_pinned_floor_file_keeps_one_figure_per_line() -> None:
    floor = {"a_pct": {"floor": 98.0, "better": "higher"}, corpus.KEY: {"sha256": "ab", "files": 2}}
    text = floor_text(floor)
    assert text.splitlines() == [
        "{",
        '  "a_pct": {"floor": 98.0, "better": "higher"},',
        '  "corpus": {"sha256": "ab", "files": 2}',
        "}",
    ]
    assert json.loads(text) == floor
