"""A synchronous face for scripts that are not async: the same RobotsClient, on its own loop.

It runs one event loop in a daemon thread and hands each call to it, so there is no second
implementation to drift from the async one. Not for use from inside a running event loop
(await RobotsClient there instead).
"""

from __future__ import annotations

import asyncio
import threading
from typing import TYPE_CHECKING, Any, TypeVar

from ._client import RobotsClient

if TYPE_CHECKING:
    from collections.abc import Coroutine
    from types import TracebackType

    from typing_extensions import Self

    from ._client import Decision, RobotsRecord
    from ._rules import RequestRate

__all__ = ["SyncRobotsClient"]

_T = TypeVar("_T")


class SyncRobotsClient:
    """Blocking wrapper of RobotsClient; takes the same arguments. Use as a context manager."""

    def __init__(self, user_agent: str, **options: Any) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="robotsclient-sync", daemon=True
        )
        self._thread.start()
        self._closed = False
        self._client: RobotsClient = self._run(self._open(user_agent, options))

    @staticmethod
    async def _open(user_agent: str, options: dict[str, Any]) -> RobotsClient:
        client = RobotsClient(user_agent, **options)
        await client.__aenter__()
        return client

    def _run(self, coroutine: Coroutine[Any, Any, _T]) -> _T:
        if self._closed:
            coroutine.close()
            raise RuntimeError("SyncRobotsClient is closed")
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    def can_fetch(self, url: str) -> bool:
        """Return True if robots.txt lets this client's agent fetch `url`."""
        return self._run(self._client.can_fetch(url))

    def check(self, url: str) -> Decision:
        """Return the full decision for `url`."""
        return self._run(self._client.check(url))

    def crawl_delay(self, url: str) -> float | None:
        """Return the crawl-delay of `url`'s origin for this agent, or None."""
        return self._run(self._client.crawl_delay(url))

    def request_rate(self, url: str) -> RequestRate | None:
        """Return the request-rate of `url`'s origin for this agent, or None."""
        return self._run(self._client.request_rate(url))

    def sitemaps(self, url: str) -> list[str]:
        """Return the sitemaps listed by `url`'s origin."""
        return self._run(self._client.sitemaps(url))

    def robots(self, url: str) -> RobotsRecord:
        """Return the fetched record of `url`'s origin."""
        return self._run(self._client.robots(url))

    def close(self) -> None:
        """Close the client and stop its loop; safe to call twice."""
        if self._closed:
            return
        try:
            self._run(self._client.aclose())
        finally:
            self._closed = True
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5)
            self._loop.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
