"""The public Python API, through its public names only: the sample brief's real pages served on loopback."""

from __future__ import annotations

from pathlib import Path

import pytest

from core import api
from core.report.wording import UNCHECKED_BY_GATE
from tests.builders import sample_claims, sample_on_loopback
from tests.servers import LoopbackServer, corpus_bytes

# The sample brief's claims in order, with the verdict DESIGN.md gives each (as in tests/test_check.py).
SAMPLE = [
    "verified",
    "verified",
    "figures_mismatch",
    "figures_mismatch",
    "verified",
    "no_quote",
    "figures_mismatch",
    "quote_not_found",
    "quote_not_found",
    "dead_link",
]

# DESIGN.md's JSON contract: the fields every claim has at least.
CLAIM_FIELDS = {"id", "claim", "url", "quote", "verdict", "reasons", "fragments", "flags", "figures", "near_miss"}
SOURCE_FIELDS = {"status", "http_status", "final_url", "content_type", "sha256", "fetched_at", "reason"}


def test_check_claims_gives_each_verdict_and_keeps_the_run(server: LoopbackServer, tmp_path: Path) -> None:
    db = tmp_path / "desk.sqlite3"
    report = api.check_claims(sample_claims(server), allow_private=True, store=db, client="research-agent")
    assert [r.verdict.value for r in report.results] == SAMPLE
    assert report.summary["verified"] == 3 and not report.passed
    assert [r.claim.id for r in report.failures] == ["c3", "c4", "c7", "c8", "c9", "c10"]
    with api.Store(db) as store:
        (run,) = store.list_runs()
        assert (run.run_id, run.client, run.brief_name) == (report.run_id, "research-agent", "claims")
        assert store.load_run(report.run_id) == report.to_json()


def test_to_json_is_the_design_contract(server: LoopbackServer) -> None:
    data = api.check_claims(sample_claims(server), allow_private=True, client="research-agent").to_json()
    assert data["schema"] == 1 and data["client"] == "research-agent" and data["run_id"] == ""
    assert data["summary"] == {v.value: SAMPLE.count(v.value) for v in api.Verdict}
    for claim in data["claims"]:
        assert set(claim) >= CLAIM_FIELDS and set(claim["source"]) >= SOURCE_FIELDS
    first = data["claims"][0]
    assert first["fragments"][0]["found"] and first["fragments"][0]["start"] >= 0
    assert {"text", "status", "quote_text"} <= set(data["claims"][2]["figures"][0])
    assert data["claims"][7]["near_miss"]["is_diagnosis"] is True


def test_check_brief_reads_a_file_or_its_bytes(server: LoopbackServer, tmp_path: Path) -> None:
    path = tmp_path / "python-releases.md"
    path.write_text(sample_on_loopback(server), encoding="utf-8")
    from_file = api.check_brief(path, allow_private=True)
    from_bytes = api.check_brief(path.read_bytes(), name="python-releases.md", allow_private=True)
    assert [r.verdict.value for r in from_file.results] == SAMPLE
    assert [(r.claim, r.verdict, r.reasons) for r in from_bytes.results] == [
        (r.claim, r.verdict, r.reasons) for r in from_file.results
    ]
    assert from_file.record.brief_name == "python-releases.md"


def test_a_brief_of_verified_claims_passes_the_gate(server: LoopbackServer) -> None:
    claims = sample_claims(server)
    report = api.check_claims([claims[0], claims[1], claims[4]], allow_private=True)
    assert report.passed and report.failures == ()


def test_a_page_that_cannot_be_read_is_not_a_failure(server: LoopbackServer) -> None:
    # The 3.11 page behind a login wall: the quote is right, the machine could not read the page.
    url = server.add("/login", corpus_bytes("html/python/whatsnew/3.11.html"), status=403)
    claim = {**sample_claims(server)[0], "url": url}
    report = api.check_claims([claim], allow_private=True)
    assert report.results[0].verdict is api.Verdict.NOT_CHECKED
    assert report.passed
    assert report.for_agent()["claims"][0]["meaning"].startswith("Not a failure")


def test_private_addresses_are_refused_and_nothing_is_fetched(server: LoopbackServer) -> None:
    claims = sample_claims(server)
    server.requests.clear()
    report = api.check_claims(claims)  # allow_private is off by default
    assert {r.verdict for r in report.results} == {api.Verdict.BLOCKED}
    assert "not a public internet address" in report.results[0].reasons[0]
    assert server.requests == []
    narrowed = api.check_claims(claims, allow_private=True, allow_domains=["python.org"])
    assert {r.verdict for r in narrowed.results} == {api.Verdict.BLOCKED}
    assert "outside the allowed domains (python.org)" in narrowed.results[0].reasons[0]
    assert server.requests == []


def test_offline_reads_the_stored_copies_only(server: LoopbackServer, tmp_path: Path) -> None:
    db = tmp_path / "desk.sqlite3"
    claims = sample_claims(server)
    api.check_claims(claims, allow_private=True, store=db)
    server.requests.clear()
    again = api.check_claims(claims, allow_private=True, store=db, offline=True)
    assert [r.verdict.value for r in again.results] == SAMPLE
    assert server.requests == []


def test_for_agent_labels_diagnosis_and_says_found_is_not_support(server: LoopbackServer) -> None:
    agent = api.check_claims(sample_claims(server), allow_private=True).for_agent()
    verified, dropped = agent["claims"][0], agent["claims"][7]
    assert "Found is not support" in verified["meaning"]
    assert verified["matched"][0]["page_text"].startswith("CPython 3.11 is an average of 25% faster")
    assert dropped["near_miss"]["diagnosis_only"] is True
    assert dropped["near_miss"]["warning"] == api.NEAR_MISS_WARNING
    assert "experimental support" in dropped["near_miss"]["page_words"]
    assert agent["gate"] == {
        "passed": False,
        "failing": ["c3", "c4", "c7", "c8", "c9", "c10"],
        "unchecked": ["c6"],  # no quote: passed, and said to have passed unchecked
        "rule": "fails on quote_not_found, figures_mismatch or dead_link; not_checked and blocked do not fail it; "
        + UNCHECKED_BY_GATE,
    }


def test_get_source_reads_the_stored_evidence_around_a_span(server: LoopbackServer, tmp_path: Path) -> None:
    db = tmp_path / "desk.sqlite3"
    report = api.check_claims(sample_claims(server)[:1], allow_private=True, store=db)
    claim = report.to_json()["claims"][0]
    fragment = claim["fragments"][0]
    settings = api.Settings(allow_private=True, db_path=db)
    with api.Store(db) as store:
        span = {"start": fragment["start"], "end": fragment["end"]}
        evidence = api.get_source(claim["url"], store=store, settings=settings, **span)
        assert evidence["sha256"] == claim["source"]["sha256"] and evidence["status"] == "ok"
        assert evidence["fetched_at"] == claim["source"]["fetched_at"]
        excerpt = evidence["excerpt"]
        inside = excerpt["text"][fragment["start"] - excerpt["start"] : fragment["end"] - excerpt["start"]]
        assert inside.startswith("CPython 3.11 is an average of 25% faster")
        with pytest.raises(api.RequestError, match=r"No evidence is stored for http://127\.0\.0\.1:"):
            api.get_source(server.url("/never-checked"), store=store, settings=settings)
        with pytest.raises(api.RequestError, match=r"The span 0-99999999 is not inside the page's text"):
            api.get_source(claim["url"], store=store, settings=settings, start=0, end=99_999_999)
        # The copy was stored with private addresses allowed; under the default policy it is not handed out.
        with pytest.raises(api.RequestError, match="not a public internet address"):
            api.get_source(claim["url"], store=store, settings=api.Settings(db_path=db))


@pytest.mark.parametrize(
    ("claims", "message"),
    [
        ("not a list", 'The claims must be a list of objects with "claim", "url" and "quote", not str.'),
        ([], 'The list of claims is empty: give at least one {"claim", "url", "quote"} object.'),
        ([{"claim": "x", "url": "https://example.org/"}, 7], "claims: claim 2 is not an object"),
    ],
)
def test_claims_that_are_no_list_of_objects_say_what_to_do(claims: object, message: str) -> None:
    with pytest.raises(api.BriefError, match="^" + message.replace("(", r"\(").replace("{", r"\{")):
        api.check_claims(claims)  # type: ignore[arg-type]


def test_a_brief_that_cannot_be_read_says_why(tmp_path: Path) -> None:
    with pytest.raises(api.BriefError, match=r"^Cannot read the brief .*nowhere.md: No such file or directory\."):
        api.check_brief(tmp_path / "nowhere.md")
    big = tmp_path / "huge.md"
    big.write_bytes(b"x" * (50 << 20))
    with pytest.raises(api.BriefError, match=r"^huge.md is 50 MB, more than the 20 MB a brief may be\."):
        api.check_brief(big)


def test_a_lone_surrogate_in_a_claim_is_written_as_a_replacement_character(server: LoopbackServer) -> None:
    # JSON allows "\\ud800"; an agent's claims file decoded by json.loads can carry one.
    claim = {"claim": "Python 3.11 is faster \ud800", "url": server.url("/x"), "quote": "an average of \udfff"}
    data = api.check_claims([claim]).to_json()
    assert data["claims"][0]["claim"] == "Python 3.11 is faster \ufffd"
    assert data["claims"][0]["verdict"] == "blocked"
