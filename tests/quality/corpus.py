"""The files each evaluation reads, and their digest: a floor is only ever compared on its own data.

Each tests/quality/eval_<name>.py declares ``CORPUS_FILES``, glob patterns of what it reads,
relative to ../shared/corpus/ (or starting with ``tests/data/`` for the repository's own
files). The digest is the sha256 over the sorted names and the sha256 of each file's bytes.
``make eval`` prints the digest it measured with and records it in figures_<name>.json;
floor_<name>.json pins, under ``"corpus"``, the digest its floor was recorded with; the floor
test refuses to compare figures measured on other data. ``watch`` lists the corpus files an
evaluation really opened, so that a file read but not declared cannot escape the digest.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from tests.servers import CORPUS, DATA

HERE = Path(__file__).resolve().parent
#: The key of the pinned digest in a floor file (every other key is a figure's floor).
KEY = "corpus"
_DATA_PREFIX = "tests/data/"


@dataclass(frozen=True)
class Digest:
    """What an evaluation reads: the digest of its files and how many there are."""

    sha256: str
    files: int

    def as_json(self) -> dict[str, object]:
        """Return the digest as a floor or figures file records it."""
        return {"sha256": self.sha256, "files": self.files}


def _root(pattern: str) -> tuple[Path, str, str]:
    """Return (folder, pattern inside it, name prefix) of a declared pattern."""
    if pattern.startswith(_DATA_PREFIX):
        return DATA, pattern.removeprefix(_DATA_PREFIX), _DATA_PREFIX
    return CORPUS, pattern, "corpus/"


def files(patterns: Sequence[str]) -> dict[str, Path]:
    """Return name -> path of every file the patterns match; raise ValueError naming a pattern that matches none."""
    out: dict[str, Path] = {}
    for pattern in patterns:
        root, inside, prefix = _root(pattern)
        matched = [p for p in root.glob(inside) if p.is_file()]
        if not matched:
            raise ValueError(f"the evaluation's pattern {pattern!r} matches no file under {root}")
        out.update({prefix + p.relative_to(root).as_posix(): p for p in matched})
    return dict(sorted(out.items()))


def digest(patterns: Sequence[str]) -> Digest:
    """Return the digest of the files the patterns match (names and contents, in name order)."""
    total = hashlib.sha256()
    found = files(patterns)
    for name, path in found.items():
        total.update(f"{name}\0{hashlib.sha256(path.read_bytes()).hexdigest()}\n".encode())
    return Digest(total.hexdigest(), len(found))


def pinned(floor: dict[str, object]) -> Digest | None:
    """Return the digest a floor file pins, or None when it pins none."""
    entry = floor.get(KEY)
    if not isinstance(entry, dict):
        return None
    return Digest(str(entry.get("sha256", "")), int(entry.get("files", 0)))


def stale(name: str, floor: dict[str, object], measured: Digest) -> str | None:
    """Return why floor_<name>.json must not be compared with figures measured on this data, or None."""
    pin = pinned(floor)
    again = f"re-run make eval and record the floor on purpose (python -m tests.quality.run --pin {name})"
    if pin is None:
        return f"tests/quality/floor_{name}.json pins no corpus digest: {again}"
    if pin != measured:
        return (
            f"the corpus under {CORPUS} (or tests/data/) that eval_{name} reads changed since the floor was recorded"
            f" (pinned {pin.sha256[:12]}, {pin.files} files; now {measured.sha256[:12]}, {measured.files} files):"
            f" {again}"
        )
    return None


def undeclared(opened: set[str], patterns: Sequence[str]) -> list[str]:
    """Return the opened corpus files that the patterns do not declare."""
    return sorted(opened - set(files(patterns)))


# --------------------------------------------------------------------------- watching what is opened

_watching: list[set[str]] = []
_lock = threading.Lock()


def _name_of(raw: object) -> str | None:
    if not isinstance(raw, str | bytes | os.PathLike):
        return None  # a file descriptor
    path = Path(os.fsdecode(raw)).resolve()
    for root, prefix in ((CORPUS.resolve(), "corpus/"), (DATA.resolve(), _DATA_PREFIX)):
        if path.is_relative_to(root):
            return prefix + path.relative_to(root).as_posix()
    return None


def _hook(event: str, args: tuple[object, ...]) -> None:
    if event != "open" or not _watching:
        return
    name = _name_of(args[0])
    if name is not None:
        with _lock:
            for seen in _watching:
                seen.add(name)


_hooked = False


@contextmanager
def watch() -> Iterator[set[str]]:
    """Yield the set of corpus and tests/data files opened (by Python's open) during the with-block.

    Files opened by C libraries on their own (lxml parsing a file name) are not seen: the
    evaluations read bytes with Python and hand them over.
    """
    global _hooked
    if not _hooked:
        sys.addaudithook(_hook)  # an audit hook cannot be removed: it does nothing outside watch()
        _hooked = True
    seen: set[str] = set()
    with _lock:
        _watching.append(seen)
    try:
        yield seen
    finally:
        with _lock:
            _watching[:] = [s for s in _watching if s is not seen]


# --------------------------------------------------------------------------- the floor tests


def floor_of(name: str) -> dict[str, object]:
    """Return floor_<name>.json: each figure's floor, and the pinned corpus digest under KEY."""
    loaded: dict[str, object] = json.loads((HERE / f"floor_{name}.json").read_text(encoding="utf-8"))
    return loaded


def measure(name: str, evaluation: ModuleType) -> tuple[dict[str, float | int], dict[str, object]]:
    """Return (figures, floor) of eval_<name>, measured on the data its floor was recorded with.

    Raises AssertionError, saying what to do, when the corpus differs from the pinned digest
    (before any figure is measured) or when the evaluation opened a file it does not declare.
    """
    floor = floor_of(name)
    problem = stale(name, floor, digest(evaluation.CORPUS_FILES))
    if problem:
        raise AssertionError(problem)
    with watch() as opened:
        figures: dict[str, float | int] = evaluation.evaluate()
    hidden = undeclared(opened, evaluation.CORPUS_FILES)
    if hidden:
        raise AssertionError(
            f"eval_{name} read files that its CORPUS_FILES does not declare, so the floor's digest misses them:"
            f" {hidden[:5]}{' ...' if len(hidden) > 5 else ''}"
        )
    return figures, floor
