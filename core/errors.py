"""The one exception of brief reading, and the wording of its messages.

``BriefError`` is raised when a brief cannot be read at all (empty, too large, encrypted,
damaged, not the format it claims, malformed JSON/CSV). Its message names the file, says
what is wrong and what the editor can do. A brief that reads but holds no claims is not an
error: it gives a Brief with a warning. This module refuses to read anything itself.
"""

from __future__ import annotations


class VerbatimError(Exception):
    """Every exception Verbatim raises on purpose; str(error) is the message shown to the editor."""


class BriefError(VerbatimError):
    """A brief that cannot be read; str(error) is the message shown to the editor."""


def size_text(n: int) -> str:
    """Return a byte count as an editor reads it ("20 MB", "512 KB")."""
    if n >= 1024 * 1024:
        mb = n / (1024 * 1024)
        return f"{mb:.0f} MB" if mb == int(mb) else f"{mb:.1f} MB"
    if n >= 1024:
        return f"{n // 1024} KB"
    return f"{n} bytes"
