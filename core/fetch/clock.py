"""The clock the fetcher measures its deadlines and Retry-After waits by.

``SYSTEM`` is the real one. A test hands the Fetcher a fake clock instead, so that it can see
what was decided (which deadline, which wait, whether it was waited) without timing anything.
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """Where the fetcher takes time from."""

    def now(self) -> float:
        """Return monotonic seconds: deadlines are measured in these."""
        ...

    def wall(self) -> float:
        """Return seconds since the Unix epoch: a Retry-After HTTP date is read against these."""
        ...

    def sleep(self, seconds: float) -> None:
        """Wait seconds before asking again."""
        ...


class SystemClock:
    """The computer's own clocks and a real sleep (a class, not a dataclass: it holds no data)."""

    def now(self) -> float:
        """Return time.monotonic()."""
        return time.monotonic()

    def wall(self) -> float:
        """Return time.time()."""
        return time.time()

    def sleep(self, seconds: float) -> None:
        """Sleep for real."""
        time.sleep(seconds)


SYSTEM: Clock = SystemClock()
