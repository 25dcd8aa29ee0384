"""requirements.txt pins every package the desk runs on, its dependencies' dependencies too.

A package left unpinned is whatever the registry offers on the day a machine is built: a fresh
CI machine could then run other code than the one the tests passed on.
"""

from __future__ import annotations

import re
from importlib.metadata import distributions
from pathlib import Path

from packaging.utils import canonicalize_name

REQUIREMENTS = Path(__file__).resolve().parents[2] / "requirements.txt"
#: What builds a virtualenv, not what the desk runs on.
INSTALLERS = {"pip", "setuptools", "wheel"}


def pinned() -> dict[str, str]:
    """Return each requirement's canonical name -> the version it is pinned to (``name==version``)."""
    pins: dict[str, str] = {}
    for number, line in enumerate(REQUIREMENTS.read_text(encoding="utf-8").splitlines(), 1):
        spec = line.split("#", 1)[0].strip()
        if not spec:
            continue
        found = re.fullmatch(r"([A-Za-z0-9._-]+)==([A-Za-z0-9.+!-]+)", spec)
        assert found, f"requirements.txt line {number} is not pinned as name==version: {line!r}"
        pins[canonicalize_name(found[1])] = found[2]
    return pins


def test_every_line_is_one_pinned_package() -> None:
    pins = pinned()
    assert {"streamlit", "httpx", "readability-lxml", "pymupdf", "rapidfuzz", "pytest"} <= set(pins)


def test_every_installed_package_is_pinned_at_the_version_installed() -> None:
    pins = pinned()
    installed = {canonicalize_name(d.metadata["Name"]): d.version for d in distributions()}
    unpinned = sorted(f"{n}=={v}" for n, v in installed.items() if n not in pins and n not in INSTALLERS)
    assert not unpinned, f"installed but not in requirements.txt (pin them there, saying what needs them): {unpinned}"
    differ = sorted(
        f"{name}: {pins[name]} pinned, {installed.get(name, 'nothing')} installed"
        for name in pins
        if pins[name] != installed.get(name)
    )
    assert not differ, f"requirements.txt and the virtualenv disagree (run make setup): {differ}"
