"""The one loader of ../shared/corpus/claims/: real labelled claims turned into cases of a claim against its page.

Every claims evaluation reads its cases here, so that all of them measure the same cases. A case
is a claim written with no quote, the page it cites as a tuple of sentences or passages in page
order (``page_html`` serves one ``<p>`` per item), the label of the claim against that page, and
the indices into ``page`` of the sentences or passages a person marked as its evidence.

How each dataset's records became cases:

- **Check-COVID** (``check-covid/``): one case per line of ``Check-COVID_all.json`` whose
  ``cord_id`` is in ``corpus.json``. The page is that abstract's sentences, exactly as the
  corpus splits them (its first sentence still opens with "Abstract"; a split inside "et al."
  is kept as the corpus has it). Label: SUPPORT -> supported, REFUTE -> refuted,
  NOTENOUGHINFO -> unclear. Evidence: the ``sent_index`` of every ``evidence_set`` entry,
  PRIMARY and SUPPLEMENTARY alike (indices outside the abstract dropped).
- **ExpertQA** (``expertqa/``): one case per claim of an answer that cites at least one
  passage (a claim with no evidence is left out: it has no page). The claim is the answer's
  ``claim_string`` with its ``[n]`` citation markers removed; the page is the cited passage or
  passages (the text after each evidence entry's "[n] URL" head line, one passage each, in
  citation order, the same passage once); every passage is evidence, since the experts
  judged the claim against the passages as a whole, not a sentence of them. Label: ``support``
  Complete -> supported; Partial, Incomplete, Missing, N/A or none -> unclear (an expert
  saying the passage does not fully support a claim never says it contradicts it).
- **VitaminC** (``vitaminc/``): one case per row. The Wikipedia sentence a row gives as its
  evidence is put on a page made of the evidence sentences of the other rows of the same
  article (``page``), one revision of each: sentences within ``REVISION_OVERLAP`` word overlap of
  each other are revisions of one sentence (VitaminC holds several revisions of a sentence,
  differing in a figure), and the page holds only the row's own revision of its sentence and
  the first revision, in file order, of each other sentence, at most ``VITAMINC_PAGE_SENTENCES``
  of them, in an order fixed by a hash of the text (with the row's own sentence at a
  position fixed by a hash of its id), so a page reads like a revision of the article. Claim
  and sentences are detokenised from VitaminC's Penn Treebank spelling (``-LRB-`` -> "(",
  ````` and ``''`` -> '"', no space before a comma, full stop or "%", none after "$").
  Label: SUPPORTS -> supported, REFUTES -> refuted, NOT ENOUGH INFO -> unclear. Evidence: the
  row's own sentence.

"refuted" does not mean a figure is wrong (a changed word refutes as well), and "supported"
does not mean every figure is written the same way on the page: an evaluation that needs
either reads the case, not the label alone.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from collections import defaultdict
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from core.settings import Settings
from tests.servers import CORPUS

CLAIMS = CORPUS / "claims"
#: What a claims evaluation reads, relative to the corpus (tests/quality/corpus.py digests it).
CORPUS_FILES = (
    "claims/check-covid/Check-COVID_all.json",
    "claims/check-covid/corpus.json",
    "claims/expertqa/rand_val.jsonl",
    "claims/expertqa/domain_val.jsonl",
    "claims/vitaminc/test_figures_sample.jsonl",
)
DATASETS = ("check-covid", "expertqa", "vitaminc")
LABELS = ("supported", "refuted", "unclear")
#: Share of words two VitaminC sentences of one article share when they are revisions of one sentence.
REVISION_OVERLAP = 0.5
#: The most sentences a VitaminC page holds (an article with 250 rows would make a page of one topic repeated).
VITAMINC_PAGE_SENTENCES = 40


@dataclass(frozen=True)
class ClaimCase:
    """A labelled claim against the page it cites: the page's sentences in order, the evidence's indices."""

    dataset: str
    id: str
    claim: str
    page: tuple[str, ...]
    label: str  # one of LABELS
    evidence: tuple[int, ...]


def cases(dataset: str | None = None) -> list[ClaimCase]:
    """Return every case of one dataset (check-covid, expertqa, vitaminc), or of all; ValueError for another name."""
    if dataset is not None and dataset not in DATASETS:
        raise ValueError(f"no claims dataset {dataset!r}: choose one of {', '.join(DATASETS)}")
    readers = {"check-covid": _check_covid, "expertqa": _expertqa, "vitaminc": _vitaminc}
    names = DATASETS if dataset is None else (dataset,)
    return [c for name in names for c in readers[name]()]


def page_html(case: ClaimCase) -> bytes:
    """Return the case's page as an HTML document, one <p> per sentence or passage, UTF-8."""
    body = "\n".join(f"<p>{html.escape(p)}</p>" for p in case.page)
    title = html.escape(f"{case.dataset} {case.id}")
    return (
        f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>{title}</title></head>\n'
        f"<body><main>\n{body}\n</main></body></html>\n"
    ).encode()


def _lines(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


# --------------------------------------------------------------------------- Check-COVID

_COVID_LABELS = {"SUPPORT": "supported", "REFUTE": "refuted", "NOTENOUGHINFO": "unclear"}


@cache
def _check_covid() -> tuple[ClaimCase, ...]:
    folder = CLAIMS / "check-covid"
    abstracts = {str(r["cord_id"]): tuple(str(s) for s in r["abstract"]) for r in _lines(folder / "corpus.json")}
    out = []
    for r in _lines(folder / "Check-COVID_all.json"):
        page = abstracts.get(str(r["cord_id"]))
        if not page:
            continue
        evidence = sorted({int(e["sent_index"]) for e in r["evidence_set"]})
        out.append(
            ClaimCase(
                dataset="check-covid",
                id=str(r["id"]),
                claim=str(r["claim"]).strip(),
                page=page,
                label=_COVID_LABELS[str(r["label"])],
                evidence=tuple(i for i in evidence if 0 <= i < len(page)),
            )
        )
    return tuple(out)


# --------------------------------------------------------------------------- ExpertQA

_MARKER = re.compile(r"\s*\[\d+\](?:\s*\[\d+\])*")


@cache
def _expertqa() -> tuple[ClaimCase, ...]:
    out = []
    for name in ("rand_val", "domain_val"):
        for qi, r in enumerate(_lines(CLAIMS / "expertqa" / f"{name}.jsonl")):
            answers: dict[str, Any] = r["answers"]
            for system, answer in sorted(answers.items()):
                for ci, c in enumerate(answer["claims"]):
                    passages: list[str] = []
                    for e in c["evidence"] or ():
                        _, _, body = str(e).partition("\n\n")
                        body = body.strip()
                        if body and body not in passages:
                            passages.append(body)
                    claim = _MARKER.sub("", str(c["claim_string"] or "")).strip()
                    if not passages or not claim:
                        continue
                    out.append(
                        ClaimCase(
                            dataset="expertqa",
                            id=f"{name}:{qi}:{system}:{ci}",
                            claim=claim,
                            page=tuple(passages),
                            label="supported" if c["support"] == "Complete" else "unclear",
                            evidence=tuple(range(len(passages))),
                        )
                    )
    return tuple(out)


# --------------------------------------------------------------------------- VitaminC

_VITAMINC_LABELS = {"SUPPORTS": "supported", "REFUTES": "refuted", "NOT ENOUGH INFO": "unclear"}
_PTB = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}", "``": '"', "''": '"'}
_PTB_TOKEN = re.compile("|".join(re.escape(k) for k in _PTB))
_WORD = re.compile(r"\w+")


def detokenise(text: str) -> str:
    """Return a VitaminC sentence in ordinary spelling: brackets and quotes restored, spaces before punctuation gone."""
    t = _PTB_TOKEN.sub(lambda m: _PTB[m.group()], text)
    t = re.sub(r"\s+([,.;:!?%)\]}])", r"\1", t)
    t = re.sub(r"([(\[{$])\s+", r"\1", t)
    t = re.sub(r"\s+(n't|'s|'re|'ve|'ll|'d|'m)\b", r"\1", t)
    t = re.sub(r'"\s+(.*?)\s+"', r'"\1"', t)
    t = re.sub(r"\s{2,}", " ", t)
    return t.lstrip(" ,.;:").strip()


def _words(text: str) -> frozenset[str]:
    return frozenset(w.lower() for w in _WORD.findall(text) if not w.isdigit())


def _revisions(a: frozenset[str], b: frozenset[str]) -> bool:
    return bool(a and b) and len(a & b) / min(len(a), len(b)) >= REVISION_OVERLAP


def _order(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@cache
def _vitaminc() -> tuple[ClaimCase, ...]:
    rows = _lines(CLAIMS / "vitaminc" / "test_figures_sample.jsonl")
    by_article: dict[str, list[str]] = defaultdict(list)
    for r in rows:
        sentence = detokenise(str(r["evidence"]))
        if sentence not in by_article[str(r["page"])]:
            by_article[str(r["page"])].append(sentence)
    out = []
    for r in rows:
        own = detokenise(str(r["evidence"]))
        own_words = _words(own)
        kept: list[tuple[str, frozenset[str]]] = []
        for s in by_article[str(r["page"])]:
            w = _words(s)
            if s == own or _revisions(w, own_words) or any(_revisions(w, k) for _, k in kept):
                continue
            kept.append((s, w))
        others = sorted((s for s, _ in kept), key=_order)[: VITAMINC_PAGE_SENTENCES - 1]
        at = int(_order(str(r["unique_id"]))[:8], 16) % (len(others) + 1)
        page = (*others[:at], own, *others[at:])
        out.append(
            ClaimCase(
                dataset="vitaminc",
                id=str(r["unique_id"]),
                claim=detokenise(str(r["claim"])),
                page=page,
                label=_VITAMINC_LABELS[str(r["label"])],
                evidence=(at,),
            )
        )
    return tuple(out)


def checking_settings() -> Settings:
    """Return the settings the claims evaluations check with: the product's, with its time budgets lifted.

    The ranking and the figures on the page stop at a budget of wall-clock time; on a loaded machine
    that cut a claim's ranking short and moved a figure by a case from one run of the same code to
    the next. Lifted, a figure measures the method, never the machine's load; what the budgets bound
    is measured by make bench (diagnose, unquoted) and the bad-input tests.
    """
    ample = 60.0  # seconds: far above what any page of the claims corpus takes
    return replace(
        Settings(),
        diagnose_budget_seconds=ample,
        figures_elsewhere_budget_seconds=ample,
        figures_page_budget_seconds=ample,
    )
