"""The default backend: entries in this process's memory, bounded by count, least recently used
evicted first (D16). Entries are kept as they are: no packing, no copies of bodies."""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING

from .._exceptions import InvalidArgument
from ._base import Storage

if TYPE_CHECKING:
    from .._origin import Origin
    from ._base import Entry

__all__ = ["DEFAULT_MAX_ENTRIES", "MemoryStorage"]

DEFAULT_MAX_ENTRIES = 10_000  # origins remembered; a crawl's working set, bodies a few KiB each


class MemoryStorage(Storage):
    """An LRU of entries bounded by `max_entries` origins (D16); lost when the process ends."""

    def __init__(self, max_entries: int = DEFAULT_MAX_ENTRIES) -> None:
        if isinstance(max_entries, bool) or not isinstance(max_entries, int) or max_entries < 1:
            raise InvalidArgument(f"max_entries must be an int >= 1, not {max_entries!r}")
        self.max_entries = max_entries
        self._entries: OrderedDict[Origin, Entry] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"<MemoryStorage {len(self._entries)}/{self.max_entries} entries>"

    async def get(self, origin: Origin) -> Entry | None:
        entry = self._entries.get(origin)
        if entry is not None:
            self._entries.move_to_end(origin)
        return entry

    async def set(self, origin: Origin, entry: Entry, *, ttl: float) -> None:
        entries = self._entries
        entries[origin] = entry
        entries.move_to_end(origin)
        while len(entries) > self.max_entries:
            entries.popitem(last=False)

    async def delete(self, origin: Origin) -> None:
        self._entries.pop(origin, None)

    async def aclose(self) -> None:
        self._entries.clear()
