"""Who is working on what: assigning a run on the Review page, History's filters and its work line (issue 14, 4)."""

from __future__ import annotations

import html
import re

from core.models import Choice, Decision
from tests.browser.records import hostile_report, sample_report
from tests.ui.test_pages import _app, _no_exceptions, _open, _plain, _saved_run, _store


def _captions(at) -> list[str]:
    return [_plain(c.value) for c in at.caption]


def test_assign_to_me_then_to_a_named_editor_each_recorded_with_who_and_when(as_editor) -> None:
    run_id = _saved_run()
    _store().save_decision(run_id, Decision(claim_id="c1", decision=Choice.ACCEPT), author="Cy")
    as_editor("Ada")
    at = _open(run_id)
    _no_exceptions(at)
    assert "Not assigned to anyone." in _captions(at)
    at.button(key=f"assign_me|{run_id}").click().run()
    _no_exceptions(at)
    assert any(_plain(s.value) == "Assigned to you." for s in at.success)
    assert any(re.fullmatch(r"Assigned to you by you at \d\d:\d\d UTC\.", c) for c in _captions(at))
    assert not [b for b in at.button if b.key == f"assign_me|{run_id}"]  # it is already hers
    box = at.selectbox(key=f"assign|{run_id}|1")
    assert list(box.options) == ["nobody", "Ada", "Cy"]  # whoever is here, and whoever decided before
    box.set_value("Cy").run()
    _no_exceptions(at)
    assert [(a.assigned_to, a.assigned_by) for a in _store().assignments(run_id)] == [("Cy", "Ada"), ("Ada", "Ada")]
    assert any(c.startswith("Assigned to Cy by you at ") for c in _captions(at))
    as_editor("Cy")
    again = _open(run_id)
    assert any(c.startswith("Assigned to you by Ada at ") for c in _captions(again))


def test_someone_who_may_not_decide_sees_the_assignment_and_cannot_change_it(monkeypatch) -> None:
    from ui import auth

    run_id = _saved_run()
    _store().assign_run(run_id, "Ada", by="Ada")
    monkeypatch.setattr(auth, "editor", lambda: auth.Editor(name="Reader", may_decide=False))
    at = _open(run_id)
    _no_exceptions(at)
    assert any(c.startswith("Assigned to Ada by Ada at ") for c in _captions(at))
    assert not at.selectbox and not [b for b in at.button if b.key.startswith("assign")]


def _listed(at) -> list[str]:
    return [html.unescape(re.sub(r"<[^>]+>", " ", h.proto.body)) for h in at.html if 'class="work"' in h.proto.body]


def test_history_filters_by_mine_unassigned_undecided_and_done_and_says_who_works_on_what(as_editor) -> None:
    store = _store()
    mine = _saved_run()
    theirs = _saved_run(hostile_report())
    store.assign_run(mine, "Ada", by="Bo")
    claims = [r.claim.id for r in sample_report().results]
    for claim in claims:
        store.save_decision(mine, Decision(claim_id=claim, decision=Choice.ACCEPT), author="Ada")
    as_editor("Ada")
    at = _app().run()
    at.switch_page("views/history.py").run()
    _no_exceptions(at)
    rows = _listed(at)
    assert len(rows) == 2
    [row] = [r for r in rows if mine in r]
    n = len(claims)
    assert re.search(rf"assigned to you · decided {n} of {n} claims · last change by you at \d\d:\d\d UTC", row)
    [other] = [r for r in rows if theirs in r]
    assert "not assigned · decided 0 of " in other and "last change" not in other
    control = at.segmented_control(key="hist_show")
    for show, expected in [("mine", [mine]), ("unassigned", [theirs]), ("undecided", [theirs]), ("done", [mine])]:
        control.set_value(show).run()
        _no_exceptions(at)
        assert [run for run in (mine, theirs) if any(run in r for r in _listed(at))] == expected, show
    as_editor("Bo")
    at.segmented_control(key="hist_show").set_value("mine").run()
    assert any("No runs to show under Mine." in _plain(i.value) for i in at.info)


def test_every_configured_editor_is_offered_before_signing_in_and_finds_the_run_as_theirs(monkeypatch) -> None:
    # Issue 24, 6: the desk's editor list names Ann and Ben; neither has used the desk yet.
    from ui import auth

    monkeypatch.setenv("VERBATIM_EDITORS", "ann@example.org, Ben@Example.org")
    run_id = _saved_run()
    monkeypatch.setattr(auth, "editor", lambda: auth.Editor(name="Ada"))
    at = _open(run_id)
    _no_exceptions(at)
    box = at.selectbox(key=f"assign|{run_id}|0")
    assert list(box.options) == ["nobody", "Ada", "ann@example.org", "ben@example.org"]
    box.set_value("ann@example.org").run()
    _no_exceptions(at)
    assert [a.assigned_to for a in _store().assignments(run_id)] == ["ann@example.org"]

    monkeypatch.setattr(auth, "editor", lambda: auth.Editor(name="Ann Editor", email="ann@example.org"))
    again = _open(run_id)
    assert any(c.startswith("Assigned to you by Ada at ") for c in _captions(again))
    # Her address is hers: the run assigned to it is shown as it is, and she is offered by name.
    options = list(again.selectbox(key=f"assign|{run_id}|1").options)
    assert options == ["nobody", "Ada", "Ann Editor", "ann@example.org", "ben@example.org"]
    again.switch_page("views/history.py").run()
    again.segmented_control(key="hist_show").set_value("mine").run()
    _no_exceptions(again)
    assert [r for r in _listed(again) if run_id in r and "assigned to you" in r]
