"""Two tiers: a fast local backend (memory) in front of a persistent or shared one (file, Redis).

The documented way to run at scale (issue 5): each worker answers from its own memory, the
fleet shares one file directory or Redis, and when the back tier is down the front tier still
holds the last good copies for the stale fallback (D14) while checks go on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._base import Storage
from ._memory import MemoryStorage

if TYPE_CHECKING:
    from contextlib import AbstractAsyncContextManager

    from .._origin import Origin
    from ._base import Entry

__all__ = ["TieredStorage"]


class TieredStorage(Storage):
    """`front` (memory by default) in front of `back`; reads fill the front, writes go to both."""

    def __init__(self, back: Storage, front: Storage | None = None) -> None:
        self.front = front if front is not None else MemoryStorage()
        self.back = back
        self.persistent = back.persistent  # type: ignore[misc]
        self.shared = back.shared  # type: ignore[misc]

    async def get(self, origin: Origin) -> Entry | None:
        if self.shared:
            # Another process may have written a newer entry: the back tier is the truth, and
            # the front answers only when the back cannot (down, or a miss after an outage).
            entry = await self.back.get(origin)
            if entry is not None:
                await self.front.set(origin, entry, ttl=0)
                return entry
            return await self.front.get(origin)
        entry = await self.front.get(origin)
        if entry is None:
            entry = await self.back.get(origin)
            if entry is not None:
                await self.front.set(origin, entry, ttl=0)
        return entry

    async def set(self, origin: Origin, entry: Entry, *, ttl: float) -> None:
        await self.front.set(origin, entry, ttl=ttl)
        await self.back.set(origin, entry, ttl=ttl)

    async def delete(self, origin: Origin) -> None:
        await self.front.delete(origin)
        await self.back.delete(origin)

    def lock(self, origin: Origin) -> AbstractAsyncContextManager[None]:
        return self.back.lock(origin)

    async def aclose(self) -> None:
        await self.front.aclose()
        await self.back.aclose()
