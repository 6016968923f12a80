"""Injectable time: every time-based rule takes a Clock, so tests never sleep."""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["Clock", "system_clock"]

Clock = Callable[[], float]
"""A callable returning the current time as POSIX seconds."""


def system_clock() -> float:
    """Return the wall-clock time (the default Clock)."""
    return time.time()
