"""What an agent reads about its claims: each verdict with what it means and what to do, and the evidence.

Built from DESIGN.md's JSON report, so an agent and an editor read the same facts. The words
are written so that an agent neither takes a fetch failure for a wrong quote nor retries a
correct one: found is not support, ``not_checked`` and ``blocked`` are no failure of the quote,
and a near miss is the page's exact words offered as diagnosis, never as a verdict or a fix.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from core.models import GATE_UNCHECKED, STRICT_FAILURES, Verdict
from core.report.wording import FOUND_IS_NOT_SUPPORT, UNCHECKED_BY_GATE

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
        "The quote is on the page, but it cut away words that change its meaning (a 'not', an 'unless'), is "
        "too short to mean anything, or the claim says the opposite of it (a flag negation_differs quotes both "
        "sides' words). Quote the whole clause, or correct the claim to say what the page says."
    ),
    Verdict.QUOTE_NOT_FOUND: (
        "The page was read and the quote is not on it word for word. Copy the passage from the page exactly, or "
        "drop the claim. The near miss shows the page's closest words as diagnosis only."
    ),
    Verdict.NO_QUOTE: (
        "Not checked: the claim offers no quote, so its words were not checked against the page (only its figures "
        "were looked for there), and it passes the "
        "gate unchecked (gate.unchecked). near_miss.candidates are the page's passages closest to the claim, best "
        "first, each with the claim's words it holds and lacks and its signs (a negation, hedge or condition where "
        "the claim parts from it); figures say where each of the claim's figures stands on the page. To have it "
        "checked, resubmit the claim with the page's exact words as its quote, and the code decides; if the "
        "passage lacks what the claim says, or a sign shows it says otherwise, correct the claim first."
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

#: What figures_mismatch means for a claim without a quote: not its quote's figures, the whole page's.
UNQUOTED_FIGURES_MISMATCH = (
    "A figure of the claim stands nowhere on the cited page (the figure's 'instead' says what the passage closest "
    "to the claim holds in its place), and the claim's words were not checked: it offers no quote. Correct the "
    "claim to what the page says, then resubmit it with the page's exact words as its quote."
)

#: Said with the passages offered for a claim without a quote.
CANDIDATES_USE = (
    "Passages of the page closest to a claim without a quote, best first: information, never a verdict. To have "
    "the claim checked, resubmit it with one passage's exact words as its quote; the exact matcher and the "
    "comparison of claim and quote then decide. The claim must say what the passage says: 'lacks' lists the "
    "claim's words, names and figures the passage does not hold, 'signs' where the claim parts from it."
)

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
        "candidates": [_candidate(c) for c in near["candidates"]],
        "candidates_use": CANDIDATES_USE if near["candidates"] else None,
    }


def _terms(terms: Json | None) -> Json:
    t = terms or {}
    return {"words": t.get("words", []), "names": t.get("names", []), "figures": t.get("figures", [])}


def _flag(f: Json) -> Json:
    return {
        "kind": f["kind"],
        "message": f["message"],
        "blocking": f["blocking"],
        "claim_words": f.get("claim_words", ""),
        "page_words": f.get("page_words", ""),
    }


def _candidate(c: Json) -> Json:
    """Return a passage offered for a claim without a quote: its words and span, what it holds and lacks, its signs."""
    return {
        "text": c["text"],
        "start": c["start"],
        "end": c["end"],
        "holds": _terms(c.get("holds")),
        "lacks": _terms(c.get("lacks")),
        "signs": [_flag(f) for f in c.get("signs", [])],
    }


def _figure(f: Json) -> Json:
    """Return a figure of the claim: its status, and for a claim without a quote where it stands on the page."""
    return {
        "text": f["text"],
        "status": f["status"],
        "quote_text": f["quote_text"],
        "reason": f["reason"],
        "where": f.get("where"),
        "around": f.get("around", ""),
        "instead": f.get("instead", ""),
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
        "meaning": _meaning(verdict, quoted=claim["quote"] is not None),
        "fails_gate": verdict in STRICT_FAILURES,
        # Passed the gate without anything on the page being compared with it: no quote to check.
        "unchecked": verdict in GATE_UNCHECKED,
        "adopted_by": claim.get("adopted_by", ""),
        "reasons": claim["reasons"],
        "matched": [
            {"quote_text": f["text"], "page_text": _page_words(context, f["start"], f["end"]), **_span(f)}
            for f in claim["fragments"]
            if f["found"]
        ],
        "figures": [_figure(f) for f in claim["figures"]],
        "flags": [_flag(f) for f in claim["flags"]],
        "near_miss": _near_miss(claim["near_miss"]),
        "source": {k: claim["source"][k] for k in _SOURCE_FIELDS},
    }


def _meaning(verdict: Verdict, *, quoted: bool) -> str:
    """Return what verdict means for this claim: a claim without a quote reads what holds for it alone."""
    if verdict is Verdict.FIGURES_MISMATCH and not quoted:
        return UNQUOTED_FIGURES_MISMATCH
    return MEANINGS[verdict]


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
            "unchecked": [c["id"] for c in claims if c["unchecked"]],
            "rule": (
                "fails on quote_not_found, figures_mismatch or dead_link; not_checked and blocked do not fail it; "
                + UNCHECKED_BY_GATE
            ),
        },
        "notice": FOUND_IS_NOT_SUPPORT,
        "claims": claims,
        "uncited": report["uncited"],
        # Links no claim cites, where the brief reader lists them (DESIGN.md, "Brief formats").
        "unused_links": report.get("unused_links", []),
        "warnings": report["warnings"],
    }


def agent_page(agent: Json, start: int = 0, count: int | None = None, ids: Collection[str] | None = None) -> Json:
    """Return an agent's report holding some of its claims: those of ids (all when None), from start, count at most.

    An agent's context has room for a few hundred thousand characters, and a claim takes about
    two thousand: a long brief's answer would not fit. The run id, summary and gate still cover
    every claim; claims_total (the claims asked for), claims_start and claims_next (where the next
    page starts, None after the last) say where this page stands.
    """
    chosen = agent["claims"] if ids is None else [c for c in agent["claims"] if c["id"] in ids]
    end = len(chosen) if count is None else min(len(chosen), start + count)
    return {
        **agent,
        "claims": chosen[start:end],
        "claims_total": len(chosen),
        "claims_start": start,
        "claims_next": end if end < len(chosen) else None,
    }
