"""Stored runs read back once per process (core.report.cached_report): the same stored text gives the same Report,
changed text is read afresh, and what cannot be read is refused as from_json refuses it."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from core.models import Verdict
from core.report import ReportFormatError, cached_report, from_json, to_json
from tests.report.test_cases import failed_report, python_report


def _stored(report: object) -> str:
    """Return a report's JSON text as the store keeps it (Store.save_run writes json.dumps of to_json)."""
    return json.dumps(to_json(report))  # type: ignore[arg-type]


def test_the_same_stored_text_is_read_once_and_equals_a_fresh_read() -> None:
    text = _stored(replace(python_report(), brief_name="cache-once.md"))
    first = cached_report(text, 4)
    assert first == from_json(json.loads(text))
    assert cached_report(text, 4) is first
    assert cached_report(str(text), 4) is first  # another copy of the same text, as every read of the store gives


def test_a_run_changed_in_the_store_is_read_afresh_never_served_stale() -> None:
    report = replace(python_report(), brief_name="cache-changed.md")
    before = cached_report(_stored(report), 4)
    first = report.results[0]
    changed = replace(report, results=(replace(first, verdict=Verdict.QUOTE_NOT_FOUND), *report.results[1:]))
    assert first.verdict is not Verdict.QUOTE_NOT_FOUND
    after = cached_report(_stored(changed), 4)
    assert after is not before
    assert after.results[0].verdict is Verdict.QUOTE_NOT_FOUND
    assert before.results[0].verdict is first.verdict


def test_at_most_keep_runs_are_held_the_least_recently_used_going_first() -> None:
    texts = [_stored(replace(failed_report(), brief_name=f"cache-keep-{i}.md")) for i in range(3)]
    held = [cached_report(t, 2) for t in texts[:2]]
    assert cached_report(texts[0], 2) is held[0]  # used again: now the most recent
    cached_report(texts[2], 2)  # a third run: the least recently used (texts[1]) goes
    assert cached_report(texts[0], 2) is held[0]
    again = cached_report(texts[1], 2)
    assert again == held[1] and again is not held[1]
    nothing = _stored(replace(failed_report(), brief_name="cache-keep-none.md"))
    assert cached_report(nothing, 0) is not cached_report(nothing, 0)


def test_text_that_is_not_a_report_is_refused_with_the_reason() -> None:
    with pytest.raises(ReportFormatError, match="not JSON"):
        cached_report('{"schema": 1, "claims": [', 4)
    with pytest.raises(ReportFormatError, match="schema"):
        cached_report(json.dumps({**to_json(failed_report()), "schema": 99}), 4)
