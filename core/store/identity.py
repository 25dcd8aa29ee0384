"""Whether the store file is still the one the desk opened, and whether it can still be written.

A store file deleted or replaced under a running desk does not stop SQLite: the open
connection writes on into the unlinked file, and every "Saved." would be a lie that a restart
reveals. The file's device and inode, read when it was opened, tell it apart from whatever
stands at its path now. This module only looks at the file system; it never opens the database.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class FileIdentity:
    """The file a path named when the store was opened (device and inode)."""

    device: int
    inode: int


def identify(path: Path) -> FileIdentity | None:
    """Return the identity of the file at path, or None when there is none."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return FileIdentity(st.st_dev, st.st_ino)


def problem(path: Path, opened: FileIdentity | None) -> str:
    """Return why the store at path can no longer keep what is saved ("" when it can)."""
    now = identify(path)
    if now is None:
        return (
            f"The store file {path} was deleted while the desk was running: nothing saved from now on would be"
            " kept, and runs and decisions saved earlier are gone once the desk restarts. Restart the desk to"
            " start a new store, or put the file back (from a backup) and restart."
        )
    if opened is not None and now != opened:
        return (
            f"The store file {path} was replaced by another file while the desk was running: this tab's saves"
            " would go to the old file, which no one will see again. Reload the page after restarting the desk"
            " to open the new file."
        )
    if not os.access(path, os.W_OK):
        return (
            f"The store file {path} is read-only: runs and decisions cannot be saved. Make it writable"
            " (chmod u+w) or set VERBATIM_DB to a file you can write to, then restart the desk."
        )
    return ""
