"""Redis backend (issue 5, D15, D16) against a real redis-server on a free loopback port.

Categories: round trip and TTL covering the stale window, no-store (D13), corrupt and
unknown-version entries, the cross-process lock (SET NX PX, holder-only release, expiry of a
dead holder's lock), Redis killed mid-run and restarted (no hang, no raise, recovery).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import pytest
import redis.asyncio as redis_asyncio

from robotsclient._storages._redis import RedisStorage
from tests.storages.entries import ORIGIN, OTHER, entry

if TYPE_CHECKING:
    from tests.redis_server import RedisServer

THIRTY_DAYS = 30 * 86_400


async def test_round_trip_and_ttl(redis_url: str) -> None:
    """Entries carry a TTL covering the 30-day stale window (the cache passes it)."""
    async with RedisStorage(redis_url) as storage:
        await storage.set(ORIGIN, entry(), ttl=THIRTY_DAYS)
        got = await storage.get(ORIGIN)
        assert got is not None and got.result.body == entry().result.body
        assert await storage.get(OTHER) is None
        raw = redis_asyncio.Redis.from_url(redis_url)
        ttl = await raw.pttl(f"robotsclient:v1:entry:{ORIGIN}")
        await raw.aclose()
        assert THIRTY_DAYS * 1000 - 60_000 < ttl <= THIRTY_DAYS * 1000
        await storage.delete(ORIGIN)
        assert await storage.get(ORIGIN) is None


async def test_two_clients_share_entries(redis_url: str) -> None:
    """A fleet shares one cache: what one worker writes, another reads."""
    async with RedisStorage(redis_url) as writer, RedisStorage(redis_url) as reader:
        await writer.set(ORIGIN, entry(), ttl=60)
        assert await reader.get(ORIGIN) is not None


async def test_no_store_is_not_written(redis_url: str) -> None:
    async with RedisStorage(redis_url) as storage:
        await storage.set(ORIGIN, entry(no_store=True), ttl=60)
        assert await storage.get(ORIGIN) is None


@pytest.mark.parametrize(
    "payload",
    [
        pytest.param(b"garbage", id="junk"),
        pytest.param(b"robotsclient-entry/999\n{}\n", id="unknown-version"),
        pytest.param(b'robotsclient-entry/1\n{"origin":', id="cut"),
    ],
)
async def test_corrupt_entry_is_a_miss(
    redis_url: str, payload: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    raw = redis_asyncio.Redis.from_url(redis_url)
    await raw.set(f"robotsclient:v1:entry:{ORIGIN}", payload)
    await raw.aclose()
    async with RedisStorage(redis_url) as storage:
        with caplog.at_level(logging.WARNING, logger="robotsclient.storage.redis"):
            assert await storage.get(ORIGIN) is None
    assert "ignoring" in caplog.text


async def test_lock_is_single_flight_across_clients(redis_url: str) -> None:
    """D15: while one client holds an origin's lock, another waits for it."""
    async with RedisStorage(redis_url) as first, RedisStorage(redis_url) as second:
        order: list[str] = []
        holding = asyncio.Event()
        release = asyncio.Event()

        async def holder() -> None:
            async with first.lock(ORIGIN):
                order.append("first in")
                holding.set()
                await release.wait()
                order.append("first out")

        async def waiter() -> None:
            await holding.wait()
            async with second.lock(ORIGIN):
                order.append("second in")

        tasks = [asyncio.create_task(holder()), asyncio.create_task(waiter())]
        await holding.wait()
        for _ in range(10):
            await asyncio.sleep(0)
        assert order == ["first in"]
        release.set()
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=10)
        assert order == ["first in", "first out", "second in"]


async def test_a_dead_holders_lock_expires(redis_url: str) -> None:
    """D15: a crashed holder cannot block others longer than the lock timeout."""
    raw = redis_asyncio.Redis.from_url(redis_url)
    await raw.set(f"robotsclient:v1:lock:{ORIGIN}", "dead-process", px=300)
    await raw.aclose()
    async with RedisStorage(redis_url, lock_timeout=5) as storage:
        acquired: list[bool] = []

        async def take() -> None:
            async with storage.lock(ORIGIN):
                acquired.append(
                    await storage._redis.get(f"robotsclient:v1:lock:{ORIGIN}") != b"dead-process"
                )

        await asyncio.wait_for(take(), timeout=5)
        assert acquired == [True]


async def test_only_the_holder_releases(redis_url: str) -> None:
    raw = redis_asyncio.Redis.from_url(redis_url)
    async with RedisStorage(redis_url, lock_timeout=0.3) as storage:
        await raw.set(f"robotsclient:v1:lock:{ORIGIN}", "someone-else", px=60_000)
        async with storage.lock(ORIGIN):  # times out waiting, goes on without holding
            pass
        assert await raw.get(f"robotsclient:v1:lock:{ORIGIN}") == b"someone-else"
    await raw.aclose()


async def test_redis_killed_and_restarted(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 5 fault: Redis down = misses and skipped writes, quickly, logged; then recovery."""
    redis_server.start()
    redis_server.flush()
    async with RedisStorage(redis_server.url, socket_timeout=0.5, lock_timeout=2) as storage:
        await storage.set(ORIGIN, entry(), ttl=60)
        redis_server.stop()
        with caplog.at_level(logging.WARNING, logger="robotsclient.storage.redis"):
            results = await asyncio.wait_for(
                asyncio.gather(
                    storage.get(ORIGIN), storage.set(OTHER, entry(), ttl=60), storage.delete(OTHER)
                ),
                timeout=10,
            )
            async with storage.lock(ORIGIN):  # does not hang either
                pass
        assert results[0] is None
        assert "Redis unavailable" in caplog.text
        assert caplog.text.count("Redis unavailable") == 1  # once per outage, not per call
        redis_server.start()
        for _ in range(50):
            await storage.set(OTHER, entry(), ttl=60)
            if await storage.get(OTHER) is not None:
                break
            await asyncio.sleep(0.1)
        assert await storage.get(OTHER) is not None
        assert "Redis is back" in caplog.text
