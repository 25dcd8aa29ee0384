"""What the desk and every report say about a run: verdicts, decisions, figures, sources, in one wording.

The desk, the HTML report and the DOCX report all take their words (and each verdict's
colour) from here, so that a decision reads "Accepted" on the desk and in the report alike.
It produces plain text only: it refuses to produce markup or escape anything (the template,
the DOCX writer and the desk's drawing code each escape for their own format).
"""

from __future__ import annotations

from datetime import datetime

from core.models import CheckPolicy, ClaimResult, Decision, QuoteMatch, SourceStatus, Verdict

#: Verdict colours; always drawn beside the verdict's words (Verdict.label), never alone.
VERDICT_COLOURS: dict[Verdict, str] = {
    Verdict.VERIFIED: "#1a7f37",
    Verdict.NEEDS_REVIEW: "#9a6700",
    Verdict.FIGURES_MISMATCH: "#cf222e",
    Verdict.QUOTE_NOT_FOUND: "#cf222e",
    Verdict.NO_QUOTE: "#6e7781",
    Verdict.NOT_CHECKED: "#6e7781",
    Verdict.DEAD_LINK: "#8250df",
    Verdict.BLOCKED: "#57606a",
}

#: Where the evidence came from, as the report says it.
ORIGIN_WORDS: dict[str, str] = {
    "fetched": "fetched from the web for this run",
    "cache": "the stored copy from the evidence store (not fetched again for this run)",
    "editor": "supplied by the editor (uploaded or pasted), not fetched by Verbatim",
    "sample": "the bundled offline sample copy, not the live page",
}

#: Said in every report, whatever it holds (DESIGN.md, principle 4).
FOUND_IS_NOT_SUPPORT = (
    "A found quote shows that the words are on the page, not that they support the claim: "
    "whether they do is the editor's judgement."
)
NEAR_MISS_DECIDES_NOTHING = (
    "Near-miss passages and word differences are diagnosis: they explain a failure and decide nothing."
)

#: Why a figure of a claim was never compared (its source was not read, or it offers no quote).
UNCHECKED = "not checked: nothing from the source was compared with this claim"

#: What each figure mark means (core.report.marks), said beside it so that colour is never the only signal.
MARK_WORDS: dict[str, str] = {
    "hl": "matched quote",
    "near": "closest passage (diagnosis)",
    "flagged": "the page's words a context flag is about",
    "fig-matched": "figure found in the quote",
    "fig-missing": "figure NOT in the quote",
    "fig-skipped": "figure not checked",
    "fig-unchecked": f"figure {UNCHECKED}",
    "fig-other": "figure of the quote that the claim does not have",
    "held": "the claim's words or figures that the passage offered holds",
}

#: A word difference of a near miss, by its kind.
DIFF_WORDS: dict[str, str] = {
    "figure_changed": "figure changed",
    "negation_added": "negation added",
    "negation_dropped": "negation dropped",
    "word_added": "words added",
    "word_dropped": "words dropped",
    "word_replaced": "words replaced",
    "reordered": "words reordered",
    "spliced": "spliced from separate passages",
    "cut_away": "context cut away",
    "typography_only": "typography only",
}

#: The editor's decision as it stands, wherever a decision is reported ("Accepted").
DECISION_WORDS: dict[str, str] = {
    "accept": "Accepted",
    "reject": "Rejected",
    "needs_edit": "Needs an edit",
    "": "No decision yet",
}
#: The same decisions as the choices the editor makes on the desk: what the editor does ("Accept").
DECISION_CHOICES: dict[str, str] = {
    "": "Undecided",
    "accept": "Accept",
    "reject": "Reject",
    "needs_edit": "Needs an edit",
}

#: The questions the editor answers on a claim (Decision's fields); a "no" to any blocks accept.
QUESTIONS: dict[str, str] = {
    "same_period": "Same period",
    "same_metric": "Same metric",
    "same_population": "Same population",
}


def diff_words(kind: str) -> str:
    """Return a word difference's kind in words ("words dropped"), the kind itself when unknown."""
    return DIFF_WORDS.get(kind, kind.replace("_", " "))


def decision_words(decision: str) -> str:
    """Return the editor's decision as it stands ("Accepted", "Needs an edit", ...)."""
    return DECISION_WORDS.get(decision, decision)


def answers_words(decision: Decision) -> list[str]:
    """Return the editor's answers to the same-period/metric/population questions, skipping unanswered ones."""
    answers = ((label, getattr(decision, name)) for name, label in QUESTIONS.items())
    return [f"{label}: {'yes' if value else 'no'}" for label, value in answers if value is not None]


def decided_words(decision: Decision) -> str:
    """Return who made the decision's latest change and when ("decided by Ada at 2026-11-29 18:10 UTC"), or ""."""
    by = f" by {decision.decided_by}" if decision.decided_by else ""
    at = f" at {when(decision.decided_at)}" if decision.decided_at else ""
    return f"decided{by}{at}" if by or at else ""


def when(iso: str) -> str:
    """Return an ISO 8601 time as "2026-11-29 18:02 UTC"; the text itself when it is not ISO 8601."""
    if not iso:
        return "an unknown time"
    try:
        moment = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return iso
    if moment.utcoffset() is None:
        return moment.strftime("%Y-%m-%d %H:%M")
    offset = moment.utcoffset()
    suffix = " UTC" if offset is not None and offset.total_seconds() == 0 else moment.strftime(" %z")
    return moment.strftime("%Y-%m-%d %H:%M") + suffix


def page_says(result: ClaimResult, max_chars: int = 600) -> str:
    """Return what the page actually says for a claim: the closest passage, else its context, else ""."""
    nm = result.near_miss
    if nm is not None and nm.passage is not None:
        text = nm.passage.text
    elif nm is not None and nm.candidates:
        text = nm.candidates[0].text
    elif result.context is not None:
        text = result.context.text
    else:
        return ""
    text = " ".join(text.split())
    return text if len(text) <= max_chars else text[: max_chars - 1].rstrip() + "…"


def source_status_words(result: ClaimResult) -> str:
    """Return the source's state in words: "read", or the reason it was not."""
    s = result.source
    if s.status is SourceStatus.OK:
        return "read"
    return f"{s.status.value.replace('_', ' ')}: {s.reason}" if s.reason else s.status.value.replace("_", " ")


def policy_words(policy: CheckPolicy | None) -> str:
    """Return the address policy in words ("private network addresses not allowed; every public domain"), or ""."""
    if policy is None:
        return ""
    private = "private network addresses allowed" if policy.allow_private else "private network addresses not allowed"
    domains = f"only {', '.join(policy.allowed_domains)}" if policy.allowed_domains else "every public domain"
    return f"{private}; {domains}"


def refusal_words(run: CheckPolicy | None, tab: CheckPolicy, refused: str, reason: str) -> str:
    """Return what an action meets when the tab's options refuse ``refused`` (e.g. "the stored copy of URL").

    Never "could not be read": it names the options of both, the rule's reason, and what to do.
    """
    checked = f"This run was checked with {policy_words(run)}; this" if run is not None else "This"
    way_out = (
        " Use the run's options to go on, or change the options on the Check page."
        if run is not None and run != tab
        else " Change the options on the Check page to go on."
    )
    return f"{checked} tab's options ({policy_words(tab)}) refuse {refused}: {reason.rstrip('.')}.{way_out}"


def places_words(match: QuoteMatch | None) -> str:
    """Return what the report says of a quote standing in several places, or "" for one place."""
    if match is None or match.occurrence_count < 2:
        return ""
    flagged = sum(o.blocking for o in match.occurrences)
    hidden = sum(o.hidden for o in match.occurrences)
    checked = len(match.occurrences)
    each = "each was" if checked == match.occurrence_count else f"the first {checked:,} were"
    words = f"The quote stands in {match.occurrence_count:,} places on the page; {each} checked for what it cut away"
    if flagged:
        words += f", and {flagged:,} of them {'is' if flagged == 1 else 'are'} flagged (shown first)"
    if hidden:
        words += f"; {hidden:,} {'is' if hidden == 1 else 'are'} in a part of the page hidden until opened"
    return words + "."


def place_words(match: QuoteMatch, index: int) -> str:
    """Return the label of one place of a repeated quote: its number, and whether it is flagged or hidden."""
    place = match.occurrences[index]
    label = f"Place {index + 1} of {match.occurrence_count:,}"
    notes = [f.kind.value.replace("_", " ") for f in place.flags if f.blocking]
    if place.hidden:
        notes.append("hidden until opened")
    return label + (f" ({', '.join(notes)})" if notes else "")


# --------------------------------------------------------------------------- a claim without a quote

#: Where a figure of a claim without a quote stands on its cited page (Figure.where), as every report says it.
FIGURE_PLACE_WORDS: dict[str, str] = {
    "passage": "in the passage offered first",
    "elsewhere": "elsewhere on the page, not in the passage offered first",
    "nowhere": "nowhere on the cited page",
}

#: A sign beside an offered passage, or a flag comparing the claim with its quote, by its kind.
SIGN_WORDS: dict[str, str] = {
    "negation_differs": "negation on one side only",
    "hedge_dropped": "hedge the claim drops",
    "condition_dropped": "condition the claim drops",
}

#: What an offered passage is, wherever one is shown: evidence to read, never a verdict.
OFFERED_IS_NOT_CHECKED = (
    "The page's own words closest to the claim, offered by the machine: nothing is checked until the editor "
    "adopts a passage as the quote (or the author quotes the page), and then the exact matcher decides."
)

#: What the gate says of the claims it lets through unchecked (MCP's gate rule, the API's docs).
UNCHECKED_BY_GATE = (
    "no_quote claims pass the gate unchecked: their words were not checked against the page, only their figures "
    "were looked for there; resubmit each with the "
    "page's exact words as its quote, and the code decides"
)


def figure_place_words(where: str | None, around: str = "", instead: str = "") -> str:
    """Return where a figure of an unquoted claim stands, with the page's sentence or what it holds instead; ""."""
    if not where:
        return ""
    words = FIGURE_PLACE_WORDS.get(where, where)
    if where == "elsewhere" and around:
        return f"{words}: “{around}”"
    if where == "nowhere":
        said = f"“{instead}”" if instead else "no figure of its kind"
        return f"{words}; the passage closest to the claim holds {said} in its place"
    return words


def terms_words(words: tuple[str, ...], names: tuple[str, ...], figures: tuple[str, ...]) -> str:
    """Return a candidate's held or lacked words, names and figures in one line ("" when none)."""
    parts = [", ".join(words)] if words else []
    if names:
        parts.append("names " + ", ".join(names))
    if figures:
        parts.append("figures " + ", ".join(figures))
    return "; ".join(parts)


def sign_words(kind: str, message: str, claim_words: str = "", page_words: str = "") -> str:
    """Return a sign (or a claim-vs-evidence flag) in one line: its kind in words, its message, both sides' words."""
    label = SIGN_WORDS.get(kind, kind.replace("_", " "))
    sides = []
    if claim_words and claim_words not in message:
        sides.append(f"the claim: “{claim_words}”")
    if page_words and page_words not in message:
        sides.append(f"the page: “{page_words}”")
    return f"{label}: {message}" + (f" ({'; '.join(sides)})" if sides else "")


def adopted_words(adopted_by: str) -> str:
    """Return who made the quote a passage the machine offered ("quote adopted by Ada from the passages offered")."""
    return f"quote adopted by {adopted_by} from the passages offered" if adopted_by else ""


def unchecked_gate_words(count: int) -> str:
    """Return the gate's line on the claims it let through unchecked (no quote), or "" when there are none."""
    if not count:
        return ""
    one = count == 1
    its = "its" if one else "their"
    return (
        f"{count} {'claim' if one else 'claims'} passed the gate unchecked: {'it offers' if one else 'they offer'} "
        f"no quote, so {its} words were not checked against the page (only {its} figures were looked for there). "
        "Quote the page's exact words to have them checked."
    )


#: The findings an editor of a long unquoted brief goes to first (the Review page's filter).
FINDING_WORDS: dict[str, str] = {
    "nowhere": "Figures nowhere on the page",
    "signs": "Signs (negation/hedge)",
}
