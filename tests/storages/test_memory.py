"""The memory backend (DECISIONS D16: LRU bounded by entry count, the default).

Categories: get/set/delete, LRU order (reads refresh recency), the bound, bad sizes, closing,
the Storage interface defaults (no-op lock, flags).
"""

from __future__ import annotations

import pytest

from robotsclient._exceptions import InvalidArgument
from robotsclient._origin import origin_of
from robotsclient._storages import DEFAULT_MAX_ENTRIES, MemoryStorage, Storage
from tests.storages.entries import ORIGIN, OTHER, entry


async def test_d16_set_get_delete() -> None:
    """D16: an entry is returned as stored (the same object: no copies) and can be deleted."""
    storage = MemoryStorage()
    assert await storage.get(ORIGIN) is None
    stored = entry()
    await storage.set(ORIGIN, stored, ttl=60)
    assert await storage.get(ORIGIN) is stored
    assert await storage.get(OTHER) is None
    await storage.delete(ORIGIN)
    assert await storage.get(ORIGIN) is None
    await storage.delete(ORIGIN)  # deleting what is not there is fine
    assert len(storage) == 0


async def test_d16_replacing_an_entry() -> None:
    """D16: one entry per origin; a new one replaces the old."""
    storage = MemoryStorage()
    await storage.set(ORIGIN, entry(b"old"), ttl=60)
    await storage.set(ORIGIN, entry(b"new"), ttl=60)
    got = await storage.get(ORIGIN)
    assert got is not None
    assert got.result.body == b"new"
    assert len(storage) == 1


async def test_d16_bounded_by_entry_count_least_recently_used_out() -> None:
    """D16: past `max_entries` the least recently used origin is evicted; reads count as use."""
    storage = MemoryStorage(max_entries=3)
    origins = [origin_of(f"https://site{i}.test/") for i in range(5)]
    for origin in origins[:3]:
        await storage.set(origin, entry(), ttl=60)
    assert await storage.get(origins[0]) is not None  # site0 is now the most recent
    await storage.set(origins[3], entry(), ttl=60)  # evicts site1
    assert len(storage) == 3
    assert await storage.get(origins[1]) is None
    await storage.set(origins[4], entry(), ttl=60)  # evicts site2
    assert [await storage.get(o) is not None for o in origins] == [True, False, False, True, True]


async def test_d16_many_origins_stay_bounded() -> None:
    """D16: memory is bounded however many origins a crawl touches."""
    storage = MemoryStorage(max_entries=100)
    for i in range(1000):
        await storage.set(origin_of(f"https://s{i}.test/"), entry(), ttl=60)
    assert len(storage) == 100
    assert await storage.get(origin_of("https://s999.test/")) is not None
    assert await storage.get(origin_of("https://s899.test/")) is None


def test_default_bound() -> None:
    """D16: the default keeps 10,000 origins."""
    assert MemoryStorage().max_entries == DEFAULT_MAX_ENTRIES == 10_000


@pytest.mark.parametrize("size", [0, -1, 1.5, "10", True])
def test_d17_bad_size_is_refused(size: object) -> None:
    """D17: a bound that is not a positive int is a clear InvalidArgument."""
    with pytest.raises(InvalidArgument):
        MemoryStorage(size)  # type: ignore[arg-type]


async def test_d16_interface_defaults() -> None:
    """D15/D16: memory is neither persistent nor shared, and its lock is a no-op."""
    async with MemoryStorage() as storage:
        assert isinstance(storage, Storage)
        assert storage.persistent is False
        assert storage.shared is False
        async with storage.lock(ORIGIN), storage.lock(ORIGIN):  # re-entrant: nothing is held
            await storage.set(ORIGIN, entry(), ttl=60)
        assert len(storage) == 1
    assert len(storage) == 0  # closing frees the entries
