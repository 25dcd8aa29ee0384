"""The format samples (assets/samples/formats/): one brief in five formats, checked end to end.

Every format must give the same claims (URL, quote, the claim's own words), and each claim
must get the verdict make_samples.EXPECTED names, against the real python.org pages served
from a loopback server (the claims' URLs are pointed at it; nothing leaves the machine).
"""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from core.brief import read_brief
from core.check import check_brief
from core.models import Brief
from core.settings import Settings
from tests.servers import CORPUS, LoopbackServer

FORMATS = Path(__file__).resolve().parents[1] / "assets" / "samples" / "formats"
FILES = ["brief.md", "brief.docx", "brief.pdf", "brief.json", "brief.csv"]
PAGES = {
    "/3/whatsnew/3.11.html": "html/python/whatsnew/3.11.html",
    "/3/whatsnew/3.12.html": "html/python/whatsnew/3.12.html",
    "/3/whatsnew/3.13.html": "html/python/whatsnew/3.13.html",
    "/pep-0632/": "html/python/peps/pep-0632.html",
    "/pep-0703/": "html/python/peps/pep-0703.html",
}


def _samples_module():
    spec = importlib.util.spec_from_file_location("make_samples", FORMATS / "make_samples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SAMPLES = _samples_module()


def _claims(brief: Brief) -> list[tuple[str, str | None, str]]:
    return [(c.url, c.quote, c.figure_text) for c in brief.claims]


@pytest.mark.parametrize("name", FILES)
def test_each_format_gives_the_same_claims(name: str) -> None:
    brief = read_brief((FORMATS / name).read_bytes(), name)
    expected = [(url, quote, claim) for claim, url, _text, quote in SAMPLES.CLAIMS]
    assert _claims(brief) == expected
    assert brief.format == {"md": "markdown"}.get(name.rsplit(".", 1)[1], name.rsplit(".", 1)[1])


@pytest.mark.parametrize("name", ["brief.md", "brief.json", "brief.csv"])
def test_text_samples_are_what_make_samples_writes(name: str) -> None:
    # The committed files must be rebuilt when CLAIMS changes.
    writer = {"brief.md": SAMPLES.markdown, "brief.json": SAMPLES.claims_json, "brief.csv": SAMPLES.claims_csv}[name]
    assert (FORMATS / name).read_text(encoding="utf-8") == writer()


@pytest.mark.parametrize("name", FILES)
def test_each_format_checked_end_to_end(name: str, server: LoopbackServer, settings: Settings) -> None:
    for path, corpus_file in PAGES.items():
        server.add(path, (CORPUS / corpus_file).read_bytes())
    brief = read_brief((FORMATS / name).read_bytes(), name, settings)
    local = dataclasses.replace(
        brief, claims=tuple(dataclasses.replace(c, url=server.url(urlsplit(c.url).path)) for c in brief.claims)
    )
    report = check_brief(local, settings)
    got = [(r.claim.id, r.verdict.value) for r in report.results]
    assert got == [(f"c{n}", v) for n, v in enumerate(SAMPLES.EXPECTED, 1)], [r.reasons for r in report.results]
    assert sorted(set(server.requests)) == sorted(PAGES)  # every source fetched from loopback, once per URL
