"""Fixtures for the real-browser tests: the desk as a subprocess, Debian's Chromium, a watched page.

The desk runs exactly as `make run` starts it, on a free loopback port, with its own store
(VERBATIM_DB in a temporary folder). Every page records dialogs and console errors so that
a test can prove that no script of a brief or a source ran.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.browser.desk import CHROMIUM, CHROMIUM_ARGS, ROOT, Desk, start_desk

SCREENSHOTS = ROOT / "assets" / "screenshots"


@pytest.fixture(scope="module")
def desk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Desk]:
    try:
        running = start_desk(tmp_path_factory.mktemp("desk"))
    except RuntimeError as exc:
        pytest.fail(str(exc))
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def chromium() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run `make browser` (Debian's chromium package)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class Watched:
    """A browser page with every dialog and console error it produced."""

    page: object
    dialogs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    #: Requests to anything but the desk and the test's own loopback servers (should stay empty).
    strays: list[str] = field(default_factory=list)


@pytest.fixture
def watched(chromium) -> Iterator[Watched]:
    context = chromium.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(30_000)
    w = Watched(page)

    def on_dialog(dialog) -> None:
        w.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    page.on("dialog", on_dialog)
    page.on("console", lambda msg: w.errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: w.errors.append(f"pageerror: {exc}"))

    def on_request(request) -> None:
        url = request.url
        if url.startswith(("data:", "blob:", "file:", "about:")):
            return
        host = urlsplit(url).hostname or ""
        if host != "127.0.0.1" or urlsplit(url).port == 9:
            w.strays.append(url)

    page.on("request", on_request)
    try:
        yield w
    finally:
        context.close()
