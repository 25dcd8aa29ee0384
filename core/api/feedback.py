"""What an agent reads about its claims: each verdict with what it means and what to do, and the evidence.

Built from DESIGN.md's JSON report, so an agent and an editor read the same facts. The words
are written so that an agent neither takes a fetch failure for a wrong quote nor retries a
correct one: found is not support, ``not_checked`` and ``blocked`` are no failure of the quote,
and a near miss is the page's exact words offered as diagnosis, never as a verdict or a fix.
"""

from __future__ import annotations

from typing import Any

from core.models import STRICT_FAILURES, Verdict
from core.report.wording import FOUND_IS_NOT_SUPPORT

Json = dict[str, Any]

#: Per verdict: what it means, and what an agent should (and should not) do next.
MEANINGS: dict[Verdict, str] = {
    Verdict.VERIFIED: (
        "The quote is on the page word for word and every figure of the claim is in it. Keep the quote as it is. "
        "Found is not support: whether the words support the claim is still the editor's judgement."
    ),
    Verdict.FIGURES_MISMATCH: (
        "The quote is on the page, but a figure of the claim is not in the quote. Correct the claim's figure to "
        "what the source says, or cite the passage that holds it; do not change the quote."
    ),
    Verdict.NEEDS_REVIEW: (
        "The quote is on the page, but it cut away words that change its meaning (a 'not', an 'unless') or is "
        "too short to mean anything. Quote the whole clause, or say what the page says."
    ),
    Verdict.QUOTE_NOT_FOUND: (
        "The page was read and the quote is not on it word for word. Copy the passage from the page exactly, or "
        "drop the claim. The near miss shows the page's closest words as diagnosis only."
    ),
    Verdict.NO_QUOTE: (
        "The claim offers no quote. Add the exact passage of the source that supports it; the candidates are "
        "passages of the page for information, not a verified quote."
    ),
    Verdict.NOT_CHECKED: (
        "Not a failure: the source could not be read by the machine (the reason says why: paywall, JavaScript, "
        "timeout, size). Do not rewrite a quote because of it and do not retry at once; an editor may supply the page."
    ),
    Verdict.DEAD_LINK: (
        "The source does not exist (404/410, or the host name does not resolve): possibly an invented source. "
        "Cite a source that exists."
    ),
    Verdict.BLOCKED: (
        "Not a judgement of the quote: this server's fetch policy refuses the URL (not http(s), a private "
        "address, or outside the allowlist), and nothing was fetched. Cite a public http(s) source."
    ),
}

#: Said with every near miss and every candidate passage.
NEAR_MISS_WARNING = (
    "Diagnosis only, never a verdict: the page's own words closest to the quote, for the editor's and the "
    "agent's information. Replacing the quote with these words does not make the claim true: the claim must "
    "say what these words say."
)

_SOURCE_FIELDS = ("status", "http_status", "final_url", "content_type", "sha256", "fetched_at", "origin", "reason")


def _page_words(context: Json | None, start: int, end: int) -> str | None:
    """Return the page's own text at [start, end) when the report's context holds it, else None."""
    if context is None or start < 0:
        return None
    offset, text = context["offset"], context["text"]
    if start < offset or end > offset + len(text):
        return None
    return str(text[start - offset : end - offset])


def _near_miss(near: Json | None) -> Json | None:
    if near is None:
        return None
    passage = near.get("passage")
    return {
        "diagnosis_only": True,
        "warning": NEAR_MISS_WARNING,
        "summary": near["summary"],
        "page_words": passage["text"] if passage else None,
        "start": passage["start"] if passage else None,
        "end": passage["end"] if passage else None,
        "differences": [d for d in near["diff"] if d["kind"] != "equal"],
        "found_verbatim_in_source": near["found_in_source"],
        "candidates": [{"text": c["text"], "start": c["start"], "end": c["end"]} for c in near["candidates"]],
    }


def agent_claim(claim: Json) -> Json:
    """Return one claim of a JSON report as an agent reads it: verdict, meaning, reasons, evidence."""
    verdict = Verdict(claim["verdict"])
    context = claim.get("context")
    return {
        "id": claim["id"],
        "claim": claim["claim"],
        "url": claim["url"],
        "quote": claim["quote"],
        "verdict": verdict.value,
        "meaning": MEANINGS[verdict],
        "fails_gate": verdict in STRICT_FAILURES,
        "reasons": claim["reasons"],
        "matched": [
            {"quote_text": f["text"], "page_text": _page_words(context, f["start"], f["end"]), **_span(f)}
            for f in claim["fragments"]
            if f["found"]
        ],
        "figures": [
            {"text": f["text"], "status": f["status"], "quote_text": f["quote_text"], "reason": f["reason"]}
            for f in claim["figures"]
        ],
        "flags": [{"kind": f["kind"], "message": f["message"], "blocking": f["blocking"]} for f in claim["flags"]],
        "near_miss": _near_miss(claim["near_miss"]),
        "source": {k: claim["source"][k] for k in _SOURCE_FIELDS},
    }


def _span(fragment: Json) -> Json:
    return {"start": fragment["start"], "end": fragment["end"], "page": fragment.get("page")}


def agent_report(report: Json) -> Json:
    """Return a JSON report as an agent reads it: the gate, each claim, what was not checked."""
    claims = [agent_claim(c) for c in report["claims"]]
    return {
        "run_id": report["run_id"],
        "client": report.get("client", ""),
        "brief": report["brief"],
        "summary": report["summary"],
        "gate": {
            "passed": not any(c["fails_gate"] for c in claims),
            "failing": [c["id"] for c in claims if c["fails_gate"]],
            "rule": "fails on quote_not_found, figures_mismatch or dead_link; not_checked and blocked do not fail it",
        },
        "notice": FOUND_IS_NOT_SUPPORT,
        "claims": claims,
        "uncited": report["uncited"],
        # Links no claim cites, where the brief reader lists them (DESIGN.md, "Brief formats").
        "unused_links": report.get("unused_links", []),
        "warnings": report["warnings"],
    }
