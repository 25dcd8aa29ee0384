"""An upload read in a worker thread: the editor's stop is kept even when it comes after the read's last look."""

from __future__ import annotations

import pytest

from core.brief.docx_archive import ReadCancelled
from core.settings import Settings
from ui.services import ReadJob

BRIEF = (
    b"Python 3.13 ships an experimental free-threaded build ([docs](https://docs.python.org/3/whatsnew/3.13.html)).\n"
)


def test_a_read_gives_its_brief() -> None:
    job = ReadJob(data=BRIEF, name="brief.md", settings=Settings()).start()
    job.wait(30)
    assert len(job.result().claims) == 1


def test_a_stop_asked_after_the_last_look_still_stops_the_read() -> None:
    # A Markdown brief is read with no look at the stop while it is read: the stop is honoured at its end,
    # as when the editor clicks "Stop reading" while a DOCX's claims are being found.
    job = ReadJob(data=BRIEF, name="brief.md", settings=Settings())
    job.cancel()
    job.start().wait(30)
    with pytest.raises(ReadCancelled, match=r"Reading brief\.md was cancelled"):
        job.result()
