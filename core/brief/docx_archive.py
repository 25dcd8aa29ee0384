"""Opening a DOCX archive within bounds: its XML read streaming, capped by what a brief can need, cancellable.

``slim_archive`` reads every XML part of the archive a chunk at a time, counting the bytes
it really unpacks (never trusting the sizes the archive declares) and the tags they hold,
and refuses the file once either passes ``Settings.max_docx_xml_bytes`` or
``max_docx_xml_tags``: a brief's text needs far less, and the parsed document costs memory
by its tags. It returns the archive rewritten with those XML parts and every other part
(images, fonts, embedded files) emptied, which is all python-docx needs to read the text,
so that opening the document never holds more than the capped XML. ``watched`` lets a caller
(the desk) follow a long read and stop it: reading reports progress and checks for a stop
between chunks and between paragraphs. It never parses XML itself.
"""

from __future__ import annotations

import io
import threading
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from core.errors import BriefError, size_text
from core.settings import Settings

#: (what is being done, done so far, of how many): "unpacking" in bytes, "paragraphs" in paragraphs.
ReadProgress = Callable[[str, int, int], None]

_CHUNK = 1024 * 1024
#: Parts a text reader never needs (images, fonts, embedded files): emptied, never unpacked. Every other
#: part counts as XML against the caps, whatever its name says.
_BINARY_ENDINGS = (
    ".png", ".jpg", ".jpeg", ".jfif", ".gif", ".bmp", ".tif", ".tiff", ".emf", ".wmf", ".wdp", ".webp", ".ico",
    ".svg", ".bin", ".odttf", ".ttf", ".otf", ".xlsx", ".xlsm", ".docx", ".pptx", ".mp3", ".mp4", ".wav",
)  # fmt: skip
_local = threading.local()


class ReadCancelled(BriefError):
    """The editor stopped a long read; the message says so."""


@contextmanager
def watched(progress: ReadProgress | None = None, cancelled: Callable[[], bool] | None = None) -> Iterator[None]:
    """Report the progress of DOCX reads on this thread to progress, and stop them once cancelled() is true."""
    previous = getattr(_local, "watch", None)
    _local.watch = (progress, cancelled)
    try:
        yield
    finally:
        _local.watch = previous


def checkpoint(name: str, what: str, done: int, total: int) -> None:
    """Report progress to the watcher of this thread; raise ReadCancelled when it asked to stop."""
    progress, cancelled = getattr(_local, "watch", None) or (None, None)
    if cancelled is not None and cancelled():
        raise ReadCancelled(f"Reading {name} was cancelled. Check it again when you are ready, or paste its text.")
    if progress is not None:
        progress(what, done, total)


def _too_much(name: str, what: str, settings: Settings) -> BriefError:
    return BriefError(
        f"{name} holds {what}, more than a brief can need (at most {size_text(settings.max_docx_xml_bytes)} of"
        f" text and markup, {settings.max_docx_xml_tags:,} tags): it was not opened, so that the desk stays"
        " responsive. Split the brief into smaller documents, or paste its text."
    )


def slim_archive(archive: zipfile.ZipFile, name: str, settings: Settings) -> tuple[bytes, int]:
    """Return the archive with its XML parts only (others emptied) and the number of paragraphs it holds.

    Raises BriefError when the XML passes the caps or a part is damaged, ReadCancelled when stopped.
    """
    xml = [i for i in archive.infolist() if not i.filename.lower().endswith(_BINARY_ENDINGS)]
    declared = sum(i.file_size for i in xml) or 1
    out = io.BytesIO()
    seen = tags = paragraphs = 0
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as slim:
        for info in archive.infolist():
            if info.filename.lower().endswith(_BINARY_ENDINGS):
                slim.writestr(info.filename, b"")  # kept by name: the document's relationships point at it
                continue
            try:
                with archive.open(info) as part, slim.open(info.filename, "w") as copy:
                    tail = b""
                    while chunk := part.read(_CHUNK):
                        seen += len(chunk)
                        tags += chunk.count(b"<")
                        # A paragraph's tag may straddle two chunks; four bytes cannot hold one whole.
                        joined = tail + chunk
                        paragraphs += joined.count(b"<w:p>") + joined.count(b"<w:p ")
                        tail = chunk[-4:]
                        if seen > settings.max_docx_xml_bytes:
                            raise _too_much(
                                name, f"more than {size_text(settings.max_docx_xml_bytes)} of XML", settings
                            )
                        if tags > settings.max_docx_xml_tags:
                            raise _too_much(name, f"more than {settings.max_docx_xml_tags:,} XML tags", settings)
                        copy.write(chunk)
                        checkpoint(name, "unpacking", min(seen, declared), declared)
            except (zipfile.BadZipFile, EOFError, OSError, ValueError, NotImplementedError) as exc:
                raise BriefError(
                    f"{name} is a damaged Word document (its part {info.filename} cannot be unpacked: {exc})."
                    " Open it in Word and save it again, or paste the text."
                ) from None
    return out.getvalue(), paragraphs
