"""Real browser: a store file deleted under a running desk is said on every page, and nothing is "Saved." (issue 16, 7).

This module runs its own desk (the fixture is per module): its store is deleted on purpose.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.report import to_json
from core.store import Store
from tests.browser.conftest import Watched
from tests.browser.desk import Desk
from tests.browser.records import sample_report

pytestmark = pytest.mark.browser

GONE = "Nothing is being saved. The store file"


def test_deleting_the_store_under_a_running_desk_is_said_and_no_save_claims_success(
    desk: Desk, watched: Watched
) -> None:
    page = watched.page
    run_id = Store(desk.db).save_run(to_json(sample_report()), b"", "hand-built.md")
    page.goto(f"{desk.url}/review?run={run_id}&claim=c1")
    page.get_by_role("radiogroup", name="Decision").get_by_text("Accept", exact=True).click()
    page.get_by_text("Saved.").wait_for()
    assert page.get_by_text(GONE).count() == 0

    for suffix in ("", "-wal", "-shm"):
        Path(f"{desk.db}{suffix}").unlink(missing_ok=True)

    page.get_by_role("radiogroup", name="Decision").get_by_text("Reject", exact=True).click()
    page.get_by_text(f"Not saved: The evidence store at {desk.db} cannot be written").wait_for()
    assert page.get_by_text("Saved.", exact=True).count() == 0
    page.get_by_text(GONE).first.wait_for()
    assert "was deleted while the desk was running" in page.get_by_text(GONE).first.inner_text()
    for name in ("Check", "Report", "History"):
        page.get_by_role("link", name=name).click()
        page.wait_for_timeout(300)
        page.get_by_text(GONE).first.wait_for()
    assert not Path(desk.db).exists()  # nothing was written into a file someone would find
