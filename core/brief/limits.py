"""The one size rule for a brief, pasted or uploaded: not empty, not over ``Settings.max_brief_bytes``."""

from __future__ import annotations

from core.errors import BriefError, size_text
from core.settings import Settings

_AGAIN = {True: "Paste the brief's text, or upload its file.", False: "Choose the file again, or paste the brief."}
_SMALLER = {
    True: "Split it into smaller briefs.",
    False: "Split it into smaller briefs, or remove images and attachments.",
}


def check_size(size: int, blank: bool, name: str, settings: Settings, *, pasted: bool) -> None:
    """Return None when a brief of size characters or bytes may be read; raise BriefError saying why not."""
    if blank:
        raise BriefError(f"{name} is empty: there is nothing to check. {_AGAIN[pasted]}")
    if size > settings.max_brief_bytes:
        most = size_text(settings.max_brief_bytes)
        raise BriefError(f"{name} is {size_text(size)}, more than the {most} a brief may be. {_SMALLER[pasted]}")
