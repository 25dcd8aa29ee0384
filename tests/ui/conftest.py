"""Fixtures of the desk's page tests: who is at the desk."""

from __future__ import annotations

import pytest

from ui import auth


@pytest.fixture
def as_editor(monkeypatch: pytest.MonkeyPatch):
    """Return a function that makes the named editor the one at the desk (ui.auth.editor) for the runs that follow."""

    def be(name: str) -> None:
        monkeypatch.setattr(auth, "editor", lambda: auth.Editor(name=name))

    return be
