"""The desk's rules that live in core: the decision rule, the allowlist, and the brief upload types."""

from __future__ import annotations

import pytest

from core.brief import BRIEF_EXTENSIONS, detect_format
from core.fetch import parse_allowlist
from core.models import Decision
from core.report.wording import QUESTIONS


def test_any_no_withdraws_an_accept() -> None:
    accepted = Decision(claim_id="c1", decision="accept", note="fine")
    withdrawn = accepted.changed(same_metric=False)
    assert (withdrawn.decision, withdrawn.note, withdrawn.same_metric) == ("", "fine", False)
    assert withdrawn.answered_no == ("same_metric",) and withdrawn.accept_blocked


def test_accept_is_refused_while_a_no_stands_and_allowed_once_it_is_gone() -> None:
    doubtful = Decision(claim_id="c1", same_period=False, same_population=False)
    assert doubtful.changed(decision="accept").decision == ""
    assert doubtful.answered_no == ("same_period", "same_population")
    cleared = doubtful.changed(same_period=True, same_population=None)
    assert cleared.changed(decision="accept").decision == "accept"


@pytest.mark.parametrize("choice", ["reject", "needs_edit", ""])
def test_a_no_leaves_any_other_decision_standing(choice: str) -> None:
    assert Decision(claim_id="c1", decision=choice).changed(same_period=False).decision == choice


def test_the_questions_worded_are_the_questions_decided_on() -> None:
    assert tuple(QUESTIONS) == Decision.QUESTIONS


@pytest.mark.parametrize(
    ("entries", "domains"),
    [
        ("Python.org, *.Wikipedia.org;\nhttps://example.net/x", ("python.org", "wikipedia.org", "example.net")),
        (["python.org", "docs.python.org python.org"], ("python.org", "docs.python.org")),
        (["Bücher.DE."], ("xn--bcher-kva.de",)),
        ("  ,; \n", ()),
        ([], ()),
    ],
)
def test_an_allowlist_reads_alike_from_a_box_or_repeated_options(
    entries: str | list[str], domains: tuple[str, ...]
) -> None:
    assert parse_allowlist(entries) == domains


def test_every_brief_extension_is_one_the_reader_knows() -> None:
    assert {".tsv", ".docm", ".mdown", ".text", ".md", ".json", ".csv", ".pdf", ".docx", ".txt"} <= set(
        BRIEF_EXTENSIONS
    )
    for ext, fmt in BRIEF_EXTENSIONS.items():
        assert detect_format(b"x", f"brief{ext}")[1] == fmt
