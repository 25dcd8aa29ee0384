"""``make eval`` for claims without a quote: does the passage offered first hold the claim's labelled evidence?

Cases are tests/quality/claims_corpus's (Check-COVID abstracts, ExpertQA cited passages,
VitaminC sentences grouped into one revision of their article), those labelled ``supported``:
the issue's target is the passage offered first holding supporting evidence. Each page is
served as its bytes (``claims_corpus.page_html``, one paragraph per sentence or passage),
extracted and prepared as the checker does, and the claim, with its URL and no quote, goes
through ``core.check.claims.check_claim``: the figures are what an editor's brief gets, with the
time budgets lifted (``claims_corpus.checking_settings``) so that no figure moves with the load.

An ExpertQA claim's own page is only the passages it cites, where any passage holds its
evidence; here its page is every passage cited by the same answer, one paragraph each, and the
evidence is the claim's own passages, so that the ranking chooses among the answer's sources.

A candidate holds the evidence when its span overlaps a labelled evidence sentence's span on
the page. Figures: ``first_pct`` and ``three_pct`` (the passage offered first, one of the best
three), overall and per dataset (``first_pct_vitaminc``...), higher is better; ``cases_count``.
Misses go to tests/quality/claims_misses.txt.
"""

from __future__ import annotations

import dataclasses
import re
from collections import defaultdict
from pathlib import Path

from core.check.claims import check_claim
from core.extract.read import extract_html
from core.match import PreparedPage, prepare
from core.models import Candidate, Claim, Source, SourceStatus
from tests.quality.claims_corpus import CORPUS_FILES, DATASETS, ClaimCase, cases, checking_settings, page_html

HERE = Path(__file__).resolve().parent
MISSES = HERE / "claims_misses.txt"
__all__ = ["CORPUS_FILES", "evaluate"]
_MISSES_KEPT = 300


def answer_pages(all_cases: list[ClaimCase]) -> list[ClaimCase]:
    """Return the cases with each ExpertQA claim's page made of every passage its answer cites."""
    passages: dict[str, list[str]] = defaultdict(list)
    for c in all_cases:
        if c.dataset == "expertqa":
            answer = c.id.rsplit(":", 1)[0]
            passages[answer] += [p for p in c.page if p not in passages[answer]]
    out = []
    for c in all_cases:
        if c.dataset != "expertqa":
            out.append(c)
            continue
        page = tuple(passages[c.id.rsplit(":", 1)[0]])
        out.append(dataclasses.replace(c, page=page, evidence=tuple(page.index(c.page[i]) for i in c.evidence)))
    return out


def evidence_spans(case: ClaimCase, text: str) -> list[tuple[int, int] | None]:
    """Return each page item's span in the page text (white space compared loosely), None when not found."""
    flat: list[str] = []
    offsets: list[int] = []
    for m in re.finditer(r"\S+", text):
        if flat:
            flat.append(" ")
            offsets.append(m.start())
        flat.extend(m.group())
        offsets.extend(range(m.start(), m.end()))
    joined = "".join(flat)
    out: list[tuple[int, int] | None] = []
    pos = 0
    for item in case.page:
        want = " ".join(item.split())
        k = joined.find(want, pos)
        if k < 0 or not want:
            out.append(None)
            continue
        out.append((offsets[k], offsets[k + len(want) - 1] + 1))
        pos = k + len(want)
    return out


def _holds(c: Candidate, spans: list[tuple[int, int] | None]) -> bool:
    return any(s is not None and c.start < s[1] and s[0] < c.end for s in spans)


def evaluate() -> dict[str, float | int]:
    """Return the share of supported claims whose first (or one of three) offered passages holds the evidence."""
    settings = checking_settings()
    chosen = [c for c in answer_pages(cases()) if c.label == "supported"]
    counts: dict[str, list[int]] = {d: [0, 0, 0] for d in DATASETS}
    misses: list[str] = []
    page: PreparedPage | None = None
    spans: list[tuple[int, int] | None] = []
    last: tuple[str, ...] = ()
    for case in chosen:
        if case.page != last or page is None:
            body = page_html(case)
            page = prepare(extract_html(body, "text/html"))
            spans = evidence_spans(case, page.page.text)
            last = case.page
        url = f"http://127.0.0.1/{case.dataset}/{case.id}"
        source = Source(url=url, status=SourceStatus.OK, content_type="text/html", body=page_html(case))
        result = check_claim(Claim(id=case.id, text=case.claim, url=url), source, page, settings)
        offered = result.near_miss.candidates if result.near_miss else ()
        wanted = [spans[i] for i in case.evidence]
        first = bool(offered) and _holds(offered[0], wanted)
        three = any(_holds(c, wanted) for c in offered)
        n = counts[case.dataset]
        n[0] += 1
        n[1] += first
        n[2] += three
        if not first and len(misses) < _MISSES_KEPT:
            said = "\n".join(f"  offered {i + 1}: {c.text[:160]}" for i, c in enumerate(offered)) or "  nothing offered"
            evidence = " | ".join(case.page[i][:160] for i in case.evidence)
            misses.append(f"[{case.dataset} {case.id}] {case.claim}\n  evidence: {evidence}\n{said}\n")
    MISSES.write_text(
        f"{len(misses)} of the first misses (passage offered first not holding the evidence)\n\n" + "\n".join(misses)
    )
    pct = lambda a, b: round(100.0 * a / b, 2) if b else 0.0  # noqa: E731
    total = sum(n[0] for n in counts.values())
    figures: dict[str, float | int] = {
        "first_pct": pct(sum(n[1] for n in counts.values()), total),
        "three_pct": pct(sum(n[2] for n in counts.values()), total),
        "cases_count": total,
    }
    for d, (n, first_n, three_n) in counts.items():
        figures[f"first_pct_{d}"] = pct(first_n, n)
        figures[f"three_pct_{d}"] = pct(three_n, n)
    return figures
