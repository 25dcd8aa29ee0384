"""A DOCX upload is read within bounds: its XML capped by what a brief can need, read streaming,
with progress and a way to stop it, and reading any accepted upload peaks under 500 MB (issue 16, 6).

The memory peak is read from a child process that reads the upload exactly as the desk does
(``ui.services.read_uploaded``): its peak resident size includes Python itself, so it is an
upper bound of what the read costs.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.brief.docx_archive import ReadCancelled, watched
from core.brief.read import read_brief
from core.errors import BriefError
from core.settings import Settings
from tests.builders import docx_brief

ROOT = Path(__file__).resolve().parents[2]
PEAK_MB = 500
#: The densest paragraph Word can write (six tags) and one of ordinary prose.
DENSE = b"<w:p><w:r><w:t>x</w:t></w:r></w:p>"
PROSE = b"<w:p><w:r><w:t>" + b"the editor reads every word of the brief " * 5 + b"</w:t></w:r></w:p>"

_CHILD = """
import json, resource, sys
from core.errors import BriefError
from core.settings import Settings
from ui.services import read_uploaded
data = open(sys.argv[1], "rb").read()
try:
    brief = read_uploaded(data, "upload.docx", Settings())
    outcome = {"claims": len(brief.claims)}
except BriefError as exc:
    outcome = {"error": str(exc)}
outcome["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(outcome))
"""


def _read_in_child(path: Path) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(path)], cwd=ROOT, capture_output=True, text=True, timeout=300, check=True
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_a_small_upload_holding_190_mb_of_xml_is_refused_at_once_within_the_memory_bound(tmp_path: Path) -> None:
    path = tmp_path / "bomb.docx"
    path.write_bytes(docx_brief(PROSE, 190 * 1024 * 1024 // len(PROSE)))
    assert path.stat().st_size < 2 * 1024 * 1024  # under the 200 MB the archive may declare, and tiny
    outcome = _read_in_child(path)
    assert outcome["error"] == (
        "upload.docx holds more than 16 MB of XML, more than a brief can need (at most 16 MB of text and markup,"
        " 800,000 tags): it was not opened, so that the desk stays responsive. Split the brief into smaller"
        " documents, or paste its text."
    )
    assert outcome["peak_mb"] < PEAK_MB  # type: ignore[operator]


def test_an_archive_lying_about_its_sizes_is_refused_within_the_memory_bound(tmp_path: Path) -> None:
    path = tmp_path / "liar.docx"
    path.write_bytes(docx_brief(DENSE, 4_000_000, lie_about_size=40_000))
    outcome = _read_in_child(path)
    assert str(outcome["error"]).startswith("upload.docx is a damaged Word document (its part word/document.xml")
    assert outcome["peak_mb"] < PEAK_MB  # type: ignore[operator]


@pytest.mark.parametrize(
    ("paragraph", "what"),
    [(DENSE, "as many tags as may be"), (PROSE, "as much XML as may be")],
    ids=["dense", "prose"],
)
def test_the_largest_accepted_uploads_are_read_under_500_mb(paragraph: bytes, what: str, tmp_path: Path) -> None:
    s = Settings()
    tags_each = paragraph.count(b"<")
    # python-docx's own template holds 818 KB of XML and 24,417 tags: what is left is filled to the brim.
    repeat = min((s.max_docx_xml_tags - 25_000) // tags_each, (s.max_docx_xml_bytes - 820_000) // len(paragraph))
    path = tmp_path / "largest.docx"
    path.write_bytes(docx_brief(paragraph, repeat))
    outcome = _read_in_child(path)
    assert outcome.get("claims") == 1, f"{what}: {outcome}"
    assert outcome["peak_mb"] < PEAK_MB, f"{what}: peak {outcome['peak_mb']:.0f} MB"  # type: ignore[operator]


def test_a_long_read_reports_progress_and_stops_when_the_editor_cancels() -> None:
    data = docx_brief(PROSE, 20_000)
    seen: list[tuple[str, int, int]] = []
    with watched(progress=lambda what, done, total: seen.append((what, done, total))):
        assert len(read_brief(data, "long.docx").claims) == 1
    kinds = [what for what, _, _ in seen]
    assert "unpacking" in kinds and "paragraphs" in kinds and kinds[-1] == "claims"
    walked = [(done, total) for what, done, total in seen if what == "paragraphs"]
    assert walked[-1] == (20_000, 20_001)  # every paragraph counted before it was walked

    seen.clear()
    with pytest.raises(ReadCancelled) as caught, watched(lambda *e: seen.append(e), lambda: len(seen) > 3):
        read_brief(data, "long.docx")
    assert len(seen) == 4  # it stopped at the first look after the editor asked
    assert str(caught.value) == "Reading long.docx was cancelled. Check it again when you are ready, or paste its text."
    assert isinstance(caught.value, BriefError)
