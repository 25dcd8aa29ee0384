"""Stored runs read back once per process: the Report that a run's stored JSON text holds, by the text's digest.

Opening a stored run of 2,000 claims spent about a second parsing its JSON and rebuilding its
Report, again in every tab that opened it (a link, a reload). A Report is a frozen record, so
one read serves every tab. The key is the sha256 of the stored text itself, not the run's id:
a run changed in the store (a re-check, an adopted passage, another desk's change) has other
text and is read afresh, so a stale copy is never served and nothing needs invalidating. Callers
pass the text they read from the store.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict

from core.errors import ReportFormatError
from core.models import Report
from core.report.read_json import from_json

_LOCK = threading.Lock()
_HELD: OrderedDict[str, Report] = OrderedDict()  # digest of the stored text -> its Report, the last used last


def cached_report(text: str, keep: int) -> Report:
    """Return the Report the stored JSON text holds (the one read before for the same text); raises ReportFormatError.

    At most ``keep`` Reports are held (the least recently used goes first); 0 holds none.
    """
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    with _LOCK:
        held = _HELD.get(digest)
        if held is not None:
            _HELD.move_to_end(digest)
            return held
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ReportFormatError(f"JSON report: the stored text is not JSON ({exc})") from exc
    report = from_json(data)
    with _LOCK:
        _HELD[digest] = report
        while len(_HELD) > max(keep, 0):
            _HELD.popitem(last=False)
    return report
