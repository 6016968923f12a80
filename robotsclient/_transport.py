"""httpx integration: a transport that enforces robots.txt on a crawler's own AsyncClient.

    client = httpx.AsyncClient(transport=RobotsTransport(robots_client))

A disallowed request raises `Disallowed` (carrying the decision) before any byte is sent.
With `polite=True`, requests to one origin are spaced by its crawl-delay (or `default_delay`).
Requests for `/robots.txt` itself always pass (D5).
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

import httpx

from ._exceptions import Disallowed
from ._origin import origin_of

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from ._client import RobotsClient
    from ._origin import Origin

__all__ = ["RobotsTransport"]

MAX_DELAY = 60.0  # a crawl-delay above this is capped: a hostile file cannot park a crawler


class RobotsTransport(httpx.AsyncBaseTransport):
    """Wraps an httpx transport; refuses requests robots.txt disallows, optionally spaces them."""

    def __init__(
        self,
        robots: RobotsClient,
        transport: httpx.AsyncBaseTransport | None = None,
        *,
        polite: bool = False,
        default_delay: float = 0.0,
        max_delay: float = MAX_DELAY,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._robots = robots
        self._transport = transport if transport is not None else httpx.AsyncHTTPTransport()
        self._polite = polite
        self._default_delay = default_delay
        self._max_delay = max_delay
        self._clock = clock  # injectable, so politeness is tested without sleeping
        self._sleep = sleep
        self._next_slot: dict[Origin, float] = {}
        self._locks: dict[Origin, asyncio.Lock] = {}

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        url = str(request.url)
        decision = await self._robots.check(url)
        if not decision.allowed:
            raise Disallowed(f"robots.txt disallows {url}", url=url, decision=decision)
        if self._polite:
            await self._wait_turn(url)
        return await self._transport.handle_async_request(request)

    async def _wait_turn(self, url: str) -> None:
        """Sleep until this origin's next slot, then book the one after it (crawl-delay, D9)."""
        origin = origin_of(url)
        delay = await self._robots.crawl_delay(url)
        delay = min(self._max_delay, delay if delay is not None else self._default_delay)
        if delay <= 0:
            return
        lock = self._locks.setdefault(origin, asyncio.Lock())
        async with lock:
            wait = self._next_slot.get(origin, float("-inf")) - self._clock()
            if wait > 0:
                await self._sleep(wait)
            self._next_slot[origin] = self._clock() + delay

    async def aclose(self) -> None:
        await self._transport.aclose()
