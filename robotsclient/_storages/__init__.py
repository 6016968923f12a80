"""Cache backends behind one async interface (D16): memory (the default), file and Redis.

The file and Redis backends are imported on first use (`FileStorage`, `RedisStorage`), so
`import robotsclient` loads neither aiofiles nor redis, and pure modules that need `Entry`
stay free of I/O libraries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._base import Entry, Storage
from ._memory import DEFAULT_MAX_ENTRIES, MemoryStorage
from ._tiered import TieredStorage

if TYPE_CHECKING:
    from ._file import FileStorage
    from ._redis import RedisStorage

__all__ = [
    "DEFAULT_MAX_ENTRIES",
    "Entry",
    "FileStorage",
    "MemoryStorage",
    "RedisStorage",
    "Storage",
    "TieredStorage",
]


def __getattr__(name: str) -> Any:
    """Import the file and Redis backends on first use (their dependencies are heavier)."""
    if name == "FileStorage":
        from ._file import FileStorage

        return FileStorage
    if name == "RedisStorage":
        from ._redis import RedisStorage

        return RedisStorage
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
