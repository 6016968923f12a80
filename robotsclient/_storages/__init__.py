"""Cache backends behind one async interface (D16): memory here; file and Redis (issue 5) import
their dependencies (aiofiles, redis) lazily, so `import robotsclient` needs neither."""

from __future__ import annotations

from ._base import Entry, Storage
from ._memory import DEFAULT_MAX_ENTRIES, MemoryStorage

__all__ = ["DEFAULT_MAX_ENTRIES", "Entry", "MemoryStorage", "Storage"]
