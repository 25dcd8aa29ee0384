"""Two editors' desks on one store (two AppTest sessions): no lost update, their choice, the history (issue 14, 2-3).

Each session is a desk of its own on the same store file; ``ui.auth.editor`` is set to the
editor whose session runs next, as the sign-in would be.
"""

from __future__ import annotations

import html
import re

from streamlit.testing.v1 import AppTest

from core.models import Choice
from tests.ui.test_pages import _all_html, _no_exceptions, _open, _plain, _saved_run, _store


def _desk(run_id: str, claim_id: str = "c1") -> AppTest:
    at = _open(run_id)
    at.button(key=f"openbtn|{claim_id}").click().run()
    _no_exceptions(at)
    return at


def _warnings(at: AppTest) -> list[str]:
    return [_plain(w.value) for w in at.warning]


def _text(at: AppTest) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", _all_html(at)))


def _history_items(page: str) -> list[str]:
    return re.findall(r"<li>.*?</li>", page.split('<ul class="history">')[1].split("</ul>")[0])


def test_a_save_refused_shows_who_changed_what_and_saving_mine_is_checked_again(as_editor) -> None:
    run_id = _saved_run()
    key = f"dec|{run_id}|c1|"
    as_editor("Ada")
    ada = _desk(run_id)
    as_editor("Bo")
    bo = _desk(run_id)

    as_editor("Ada")
    ada.radio(key=key + "choice").set_value("accept").run()
    as_editor("Bo")
    bo.text_area(key=key + "note").set_value("The figure is rounded").run()
    _no_exceptions(bo)
    [said] = [w for w in _warnings(bo) if w.startswith("Changed by")]
    assert re.fullmatch(
        r"Changed by Ada at \d\d:\d\d UTC while you were reading\. Nothing was overwritten: choose which stands\.", said
    )
    page = _text(bo)
    assert "Theirs: Note no note" in page and "Yours: Note “The figure is rounded”" in page
    assert "Ada · Decision No decision yet → Accepted" in page
    assert bo.radio(key=key + "choice").value == "accept"  # theirs is shown
    assert [(d.decision, d.note) for d in _store().decisions(run_id)] == [(Choice.ACCEPT, "")]

    bo.button(key="mine|c1").click().run()
    _no_exceptions(bo)
    [kept] = _store().decisions(run_id)
    assert (kept.decision, kept.note, kept.decided_by, kept.version) == (
        Choice.ACCEPT,
        "The figure is rounded",
        "Bo",
        2,
    )
    assert any(_plain(c.value) == "Saved." for c in bo.caption)

    # Ada, still on version 1, answers a question: refused. Before she chooses, Bo changes the note again:
    # her "save mine" is made on version 2, the one she was shown, and is refused again.
    as_editor("Ada")
    ada.radio(key=key + "same_metric").set_value("yes").run()
    assert any(w.startswith("Changed by Bo") for w in _warnings(ada))
    as_editor("Bo")
    bo.text_area(key=key + "note").set_value("The figure is rounded up").run()
    as_editor("Ada")
    ada.button(key="mine|c1").click().run()
    assert any(w.startswith("Changed by Bo") for w in _warnings(ada))
    assert "Yours: Same metric? yes" in _text(ada)
    assert _store().decisions(run_id)[0].same_metric is None
    ada.button(key="mine|c1").click().run()
    _no_exceptions(ada)
    assert [(e.seq, e.author, e.field) for e in _store().decision_history(run_id, "c1")] == [
        (4, "Ada", "same_metric"),
        (3, "Bo", "note"),
        (2, "Bo", "note"),
        (1, "Ada", "decision"),
    ]


def test_keeping_theirs_saves_nothing_and_says_so(as_editor) -> None:
    run_id = _saved_run()
    key = f"dec|{run_id}|c2|"
    as_editor("Ada")
    ada = _desk(run_id, "c2")
    as_editor("Bo")
    bo = _desk(run_id, "c2")
    as_editor("Ada")
    ada.radio(key=key + "choice").set_value("reject").run()
    as_editor("Bo")
    bo.radio(key=key + "choice").set_value("accept").run()
    assert "Theirs: Decision Rejected" in _text(bo) and "Yours: Decision Accepted" in _text(bo)
    bo.button(key="keep|c2").click().run()
    _no_exceptions(bo)
    assert not [w for w in _warnings(bo) if w.startswith("Changed by")]
    assert any(_plain(c.value) == "Kept their change; yours was not saved." for c in bo.caption)
    assert bo.radio(key=key + "choice").value == "reject"
    assert [(d.decision, d.decided_by) for d in _store().decisions(run_id)] == [(Choice.REJECT, "Ada")]


def test_the_same_editor_in_two_tabs_is_told_it_was_another_tab(as_editor) -> None:
    run_id = _saved_run()
    key = f"dec|{run_id}|c1|"
    as_editor("Ada")
    first, second = _desk(run_id), _desk(run_id)
    first.radio(key=key + "choice").set_value("accept").run()
    second.radio(key=key + "same_period").set_value("no").run()
    assert any(w.startswith("Changed by you, in another tab or window, at ") for w in _warnings(second))


def test_the_history_is_newest_first_escaped_and_paged(as_editor) -> None:
    run_id = _saved_run()
    store = _store()
    store.save_decision_change(run_id, "c1", "note", "<script>alert(1)</script>", 0, author="<b>Eve</b>")
    for n in range(1, 25):
        store.save_decision_change(run_id, "c1", "note", f"take {n}", n, author="Ada")
    as_editor("Ada")
    at = _desk(run_id)
    page = _all_html(at)
    assert "<script>alert(1)" not in page
    items = _history_items(page)
    assert len(items) == 20 and "“take 23” → “take 24”" in html.unescape(items[0])
    assert any(e.label.startswith("History of this decision (20 changes+)") for e in at.expander)
    at.button(key="older|c1").click().run()
    _no_exceptions(at)
    items = _history_items(_all_html(at))
    assert len(items) == 25
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in items[-1] and "&lt;b&gt;Eve&lt;/b&gt;" in items[-1]
    assert not [b for b in at.button if b.key == "older|c1"]


def test_changes_made_before_the_history_was_kept_are_counted_not_invented(as_editor) -> None:
    run_id = _saved_run()
    store = _store()
    with store.engine.write() as conn:  # a decision saved by a desk before events were recorded: version 3, no event
        conn.execute(
            "INSERT INTO decisions (run_id, claim_id, decision, note, decided_at, version)"
            " VALUES (?, 'c1', 'accept', 'old note', '2026-11-29T18:10:00+00:00', 3)",
            (run_id,),
        )
    as_editor("Ada")
    at = _desk(run_id)
    assert any(_plain(c.value) == "3 earlier changes were made before the history was kept." for c in at.caption)
    at.radio(key=f"dec|{run_id}|c1|same_metric").set_value("yes").run()
    _no_exceptions(at)
    assert "Ada · Same metric? not answered → yes" in _text(at)
    assert any(_plain(c.value) == "3 earlier changes were made before the history was kept." for c in at.caption)
    assert [e.seq for e in store.decision_history(run_id, "c1")] == [4]
