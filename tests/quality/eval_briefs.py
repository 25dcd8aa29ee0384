"""``make eval`` for reading briefs: cited units of real agent deliverables found with the right URL.

The labels (``labels_briefs.json``, drafted by ``label_briefs.py`` from each brief's known
style and read through by hand, see ``labels_briefs.md``) list each corpus brief's cited units
(a URL and the last words of the sentence before the citation) and every http(s) link it
holds. The hand-written brief cases (``tests/data/briefs/markdown/*.expected.json`` and the PDFs
of ``tests/data/briefs/pdf/``, one class of input each) count too: each expected claim is a unit,
found when a claim has its text and URL; a PDF case's expected unused links are among its links.

Per brief, and in total: units found (a claim with the unit's URL holds its words), units lost
to "uncited" (the words stand in an uncited sentence), units missed otherwise (no claim, or a
wrong URL), spurious claims (a claim no unit accounts for: a title, a source line, a reference
entry) and links unaccounted for (a link of the brief that no claim cites and that
``Brief.unused_links`` does not list). Every miss is written to ``briefs_misses.txt``.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

from core.brief import read_brief
from core.models import Brief
from tests.quality.label_briefs import BRIEFS, LABELS, clean_url
from tests.servers import DATA

HERE = Path(__file__).resolve().parent
MISSES = HERE / "briefs_misses.txt"
CASES = DATA / "briefs" / "markdown"
PDF_CASES = DATA / "briefs" / "pdf"
#: What this evaluation reads (tests/quality/corpus.py digests it).
CORPUS_FILES = (
    "briefs/*/*.md",
    "briefs/*/*.pdf",
    "briefs/*/*.docx",
    "tests/data/briefs/markdown/*",
    "tests/data/briefs/pdf/*",
)


def norm(text: str) -> str:
    """Return text as words only: NFKC, case folded, one space between words, empty brackets gone."""
    text = re.sub(r"\(\s*\)|\[\s*\]", "", unicodedata.normalize("NFKC", text))  # a formula image's gap
    return " ".join(re.findall(r"\w+", text.casefold()))


def _holds(claim_text: str, words: str) -> bool:
    """Return True when the claim holds the words (a unit with no words before it matches on its URL alone)."""
    return not norm(words) or f" {norm(words)} " in f" {norm(claim_text)} "


def score(brief: Brief, units: list[dict[str, str]], links: list[str]) -> tuple[dict[str, int], list[str]]:
    """Return the counts of one brief and its miss lines."""
    claims = [(clean_url(c.url), c) for c in brief.claims]
    used: set[str] = set()
    found = lost = missed = 0
    misses: list[str] = []
    for unit in units:
        url, before = clean_url(unit["url"]), unit.get("before", "")
        hit = next((c for u, c in claims if u == url and _holds(c.text, before)), None)
        if hit is not None:
            found += 1
            used.add(hit.id)
            continue
        if before and any(_holds(s, before) for s in brief.uncited):
            lost += 1
            misses.append(f"  LOST TO UNCITED  …{before} -> {url}")
        else:
            missed += 1
            wrong = next((c for u, c in claims if _holds(c.text, before)), None) if before else None
            said = f" (claim {wrong.id} cites {wrong.url})" if wrong else ""
            misses.append(f"  MISSED  …{before} -> {url}{said}")
    for u, c in claims:
        if c.id not in used and not any(
            clean_url(x["url"]) == u and _holds(c.text, x.get("before", "")) for x in units
        ):
            misses.append(f"  SPURIOUS  {c.id} {c.text[:90]!r} -> {c.url}")
    accounted = {u for u, _ in claims} | {clean_url(x.url) for x in brief.unused_links}
    unaccounted = [u for u in links if clean_url(u) not in accounted]
    misses.extend(f"  UNACCOUNTED LINK  {u}" for u in unaccounted)
    spurious = sum(1 for line in misses if line.startswith("  SPURIOUS"))
    counts = {
        "units": len(units),
        "found": found,
        "lost_uncited": lost,
        "missed": missed,
        "spurious": spurious,
        "unaccounted": len(unaccounted),
    }
    return counts, misses


def _cases() -> list[tuple[str, Brief, list[dict[str, str]], list[str]]]:
    out = []
    labels = json.loads(LABELS.read_text(encoding="utf-8"))
    for rel, entry in sorted(labels.items()):
        path = BRIEFS / rel
        out.append((rel, read_brief(path.read_bytes(), path.name), entry["units"], entry["links"]))
    for path in [*sorted(CASES.glob("*.md")), *sorted(PDF_CASES.glob("*.pdf"))]:
        expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
        units = [{"url": c["url"], "before": c["text"]} for c in expected["claims"]]
        links = [*(c["url"] for c in expected["claims"]), *expected.get("unused", [])]
        rel = f"tests/data/briefs/{path.parent.name}/{path.name}"
        out.append((rel, read_brief(path.read_bytes(), path.name), units, links))
    return out


def _key(rel: str) -> str:
    stem = Path(rel).stem.lower()
    return re.sub(r"[^a-z0-9]+", "_", stem)[:40].strip("_")


def evaluate() -> dict[str, float | int]:
    """Return per-brief found counts and the totals; write every miss to briefs_misses.txt."""
    figures: dict[str, float | int] = {}
    totals = dict.fromkeys(("units", "found", "lost_uncited", "missed", "spurious", "unaccounted"), 0)
    lines: list[str] = []
    for rel, brief, units, links in _cases():
        counts, misses = score(brief, units, links)
        for k, v in counts.items():
            totals[k] += v
        figures[f"{_key(rel)}_found_count"] = counts["found"]
        lines.append(
            f"{rel}: {counts['found']}/{counts['units']} found, {counts['lost_uncited']} lost to uncited, "
            f"{counts['missed']} missed, {counts['spurious']} spurious, {counts['unaccounted']} links unaccounted"
        )
        lines.extend(misses)
    figures["total_units_count"] = totals["units"]
    figures["total_found_count"] = totals["found"]
    figures["found_share"] = round(totals["found"] / max(totals["units"], 1), 4)
    figures["lost_uncited_count"] = totals["lost_uncited"]
    figures["missed_count"] = totals["missed"]
    figures["spurious_count"] = totals["spurious"]
    figures["unaccounted_links_count"] = totals["unaccounted"]
    MISSES.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return figures
