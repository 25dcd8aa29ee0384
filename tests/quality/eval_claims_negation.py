"""``make eval`` for the claim against its quote: a claim made to say the opposite of its quote is never verified.

Every case goes through ``core.check.check_claim`` as a brief's claim would, with its quote:

- pages: honest quotes of the matcher's evaluation (tests/quality/eval_match.py) that are
  verified on their real page with the quote's own words as the claim (the controls). From each,
  a claim with a "not" added after its first auxiliary ("is" -> "is not"), or with the quote's
  "not" dropped ("is not" -> "is", "doesn't" -> "does", "cannot" -> "can"), quoting the honest
  quote: never verified.
- claims: the real labelled claims of ../shared/corpus/claims (VitaminC's Wikipedia claims and
  Check-COVID's news claims, each labelled SUPPORT by people against its evidence sentence),
  checked with that sentence as the quote on a page of that sentence. Where the claim as written
  is verified, the same claim with a "not" added or dropped is never verified; and no claim the
  evidence supports gets a negation flag (a paraphrase that agrees is never flagged).

The rules that make the cases are written here, independent of core.match.negation.

``evaluate()`` also writes tests/quality/claims_negation_misses.txt: every labelled claim made to
contradict its evidence that is still verified ("added" or "dropped"; "pages_added", "pages_dropped"
for a real page's quote), and every supported claim
flagged for a negation ("flagged"), with its evidence and the flag's message.
"""

from __future__ import annotations

import json
import random
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

from core.check.claims import check_claim
from core.match import match_quote, prepare
from core.models import Claim, FlagKind, PageKind, PageText, Source, SourceStatus, Verdict
from core.settings import Settings
from tests.quality.claims_corpus import checking_settings
from tests.quality.eval_match import CORPUS_FILES as MATCH_FILES
from tests.quality.eval_match import SEED, cases, prepared, would_verify
from tests.servers import CORPUS

CLAIMS = CORPUS / "claims"
CORPUS_FILES = (
    *MATCH_FILES,
    "claims/vitaminc/test_figures_sample.jsonl",
    "claims/check-covid/Check-COVID_all.json",
    "claims/check-covid/corpus.json",
)
PER_KIND = 300
MISSES = Path(__file__).resolve().parent / "claims_negation_misses.txt"
_URL = "https://example.org/evidence"
# An auxiliary not already denied: where a writer adds a "not".
_AUX = re.compile(
    r"\b(is|are|was|were|will|can|could|would|should|has|have|had|does|did|must)\b"
    r"(?! not\b)(?!n[’']t)(?!\W+(?i:only|just|merely|simply)\b)"
)
# A "not" the quote says, and how the claim says the same without it.
_NOT = re.compile(r"\b(?:(not) |(cannot)\b|(\w+)n[’']t\b)", re.IGNORECASE)
_POSITIVE = {"wo": "will", "ca": "can", "sha": "shall"}


def _added(q: str) -> str | None:
    m = _AUX.search(q)
    if m is None or _NOT.search(q):
        return None
    return f"{q[: m.end()]} not{q[m.end() :]}"


def _dropped(q: str) -> str | None:
    m = _NOT.search(q)
    if m is None or re.match(r"(?i)\W*(only|just|merely|simply)\b", q[m.end() :]):
        return None
    if m.group(1):
        return q[: m.start()] + q[m.end() :]
    if m.group(2):
        return q[: m.start()] + "can" + q[m.end() :]
    stem = m.group(3)
    return q[: m.start()] + _POSITIVE.get(stem.lower(), stem) + q[m.end() :]


def _source(page_text: str) -> Source:
    return Source(url=_URL, status=SourceStatus.OK, final_url=_URL, http_status=200, body=page_text.encode())


def _verdict(claim: str, quote: str, page: object, source: Source, settings: Settings) -> tuple[Verdict, str]:
    """Return the claim's verdict with its quote, and its negation flag's message ("" when none)."""
    result = check_claim(Claim(id="c", text=claim, url=_URL, quote=quote), source, page, settings)  # type: ignore[arg-type]
    flags = result.match.flags if result.match is not None else ()
    negated = next((f.message for f in flags if f.kind is FlagKind.NEGATION_DIFFERS), "")
    return result.verdict, negated


def _labelled() -> Iterator[tuple[str, str]]:
    """Yield (claim, evidence sentence) of the real claims people labelled as supported by their evidence."""
    for line in (CLAIMS / "vitaminc" / "test_figures_sample.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row.get("label") == "SUPPORTS" and row.get("evidence"):
            yield str(row["claim"]), str(row["evidence"])
    abstracts = {}
    for line in (CLAIMS / "check-covid" / "corpus.json").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        abstracts[row["cord_id"]] = row["abstract"]
    for line in (CLAIMS / "check-covid" / "Check-COVID_all.json").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        sentences = abstracts.get(row.get("cord_id"), [])
        picked = [e["sent_index"] for e in row.get("evidence_set", []) if e.get("sent_index", -1) < len(sentences)]
        if row.get("label") == "SUPPORT" and len(picked) == 1:
            yield str(row["claim"]).strip(), str(sentences[picked[0]])


def evaluate() -> dict[str, float | int]:
    """Return the figures of claims set against their quotes."""
    rng = random.Random(SEED)
    settings = checking_settings()
    t: dict[str, int] = defaultdict(int)
    misses: list[str] = []
    honest = [(c, q) for c in cases() for q in c.quotes]
    rng.shuffle(honest)
    for case, q in honest:
        if t["pages_added"] >= PER_KIND and t["pages_dropped"] >= PER_KIND:
            break
        made = {"pages_added": _added(q), "pages_dropped": _dropped(q)}
        made = {k: v for k, v in made.items() if v is not None and t[k] < PER_KIND}
        if not made:
            continue
        p = prepared(case.name, case.html)
        if not would_verify(match_quote(q, p)):
            continue
        source = _source(p.page.text)
        control, _ = _verdict(q, q, p, source, settings)
        t["pages_controls"] += 1
        t["pages_controls_verified"] += control is Verdict.VERIFIED
        if control is not Verdict.VERIFIED:
            continue
        for kind, claim in made.items():
            verdict, _ = _verdict(claim, q, p, source, settings)
            t[kind] += 1
            t[f"{kind}_kept"] += verdict is not Verdict.VERIFIED
            if verdict is Verdict.VERIFIED:
                misses.append(f"{kind}\t{claim}\t{q}\t{case.name}")
    labelled = list(_labelled())
    rng.shuffle(labelled)
    for claim, evidence in labelled[: 4 * PER_KIND]:
        page = prepare(PageText(text=evidence, kind=PageKind.TEXT))
        source = _source(evidence)
        verdict, negated = _verdict(claim, evidence, page, source, settings)
        t["claims_supported"] += 1
        t["claims_supported_negation_flagged"] += bool(negated)
        if negated:
            misses.append(f"flagged\t{claim}\t{evidence}\t{negated}")
        if verdict is not Verdict.VERIFIED:
            continue
        t["claims_verified"] += 1
        for kind, made_claim in (("claims_added", _added(claim)), ("claims_dropped", _dropped(claim))):
            if made_claim is None:
                continue
            contradicted, _ = _verdict(made_claim, evidence, page, source, settings)
            t[kind] += 1
            t[f"{kind}_kept"] += contradicted is not Verdict.VERIFIED
            if contradicted is Verdict.VERIFIED:
                misses.append(f"{kind.removeprefix('claims_')}\t{made_claim}\t{evidence}\t")
    MISSES.write_text("\n".join(sorted(misses)) + "\n", encoding="utf-8")

    def pct(good: str, of: str) -> float:
        return round(100 * t[good] / t[of], 2) if t[of] else 0.0

    return {
        "pages_controls_count": t["pages_controls"],
        "pages_controls_verified_pct": pct("pages_controls_verified", "pages_controls"),
        "pages_not_added_count": t["pages_added"],
        "pages_not_added_kept_pct": pct("pages_added_kept", "pages_added"),
        "pages_not_dropped_count": t["pages_dropped"],
        "pages_not_dropped_kept_pct": pct("pages_dropped_kept", "pages_dropped"),
        "claims_supported_count": t["claims_supported"],
        "claims_supported_negation_flagged_pct": pct("claims_supported_negation_flagged", "claims_supported"),
        "claims_verified_count": t["claims_verified"],
        "claims_not_added_count": t["claims_added"],
        "claims_not_added_kept_pct": pct("claims_added_kept", "claims_added"),
        "claims_not_dropped_count": t["claims_dropped"],
        "claims_not_dropped_kept_pct": pct("claims_dropped_kept", "claims_dropped"),
    }
