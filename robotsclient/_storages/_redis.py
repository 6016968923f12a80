"""Redis backend (redis-py asyncio): one shared cache for a fleet of crawlers (D15, D16).

Rules of this module:
- One key per origin holding the packed entry, with a TTL that covers the 30-day stale window
  (the cache passes it), so a dead origin's entry eventually leaves by itself.
- A cross-process single-flight lock per origin: `SET key token NX PX lock_timeout`, released
  only by its holder (compare-and-delete), so a crashed holder blocks others at most
  `lock_timeout` (the fetch deadline). Waiters poll for the lock; when they get it the cache
  re-reads the entry, finds the holder's result, and does not fetch again.
- Redis down or slow: every call is bounded by short socket timeouts; a failed call is logged
  (once per outage) and answered as a miss / a skipped write / a lock held, so checks go on
  from the memory tier and direct fetches, and recover by themselves when Redis comes back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from typing import TYPE_CHECKING, Any, ClassVar

from .._exceptions import InvalidArgument
from ._base import Storage
from ._packing import UnpackError, pack, unpack

if TYPE_CHECKING:
    from collections.abc import AsyncIterator
    from contextlib import AbstractAsyncContextManager

    from .._origin import Origin
    from ._base import Entry

__all__ = ["RedisStorage"]

logger = logging.getLogger("robotsclient.storage.redis")

DEFAULT_PREFIX = "robotsclient:v1:"
DEFAULT_LOCK_TIMEOUT = 35.0  # the whole-fetch deadline (30 s, D12) plus a margin
_SOCKET_TIMEOUT = 2.0  # no Redis call may hold a check longer than this
_POLL_FIRST = 0.02  # waiters poll the lock, backing off to _POLL_MAX
_POLL_MAX = 0.25
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


class RedisStorage(Storage):
    """Entries in Redis under `prefix`; a shared, cross-process single-flight cache."""

    persistent: ClassVar[bool] = True
    shared: ClassVar[bool] = True

    def __init__(
        self,
        url: str = "redis://127.0.0.1:6379/0",
        *,
        client: Any = None,
        prefix: str = DEFAULT_PREFIX,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
        socket_timeout: float = _SOCKET_TIMEOUT,
    ) -> None:
        if lock_timeout <= 0:
            raise InvalidArgument("lock_timeout must be positive")
        if client is None:
            try:
                import redis.asyncio as redis_asyncio
            except ImportError as error:  # pragma: no cover - depends on the extras installed
                raise InvalidArgument(
                    "RedisStorage needs redis-py: pip install 'robotsclient[redis]'"
                ) from error
            client = redis_asyncio.Redis.from_url(
                url,
                socket_timeout=socket_timeout,
                socket_connect_timeout=socket_timeout,
                retry_on_timeout=False,
            )
            self._owns_client = True
        else:
            self._owns_client = False
        self._redis = client
        self.prefix = prefix
        self.lock_timeout = lock_timeout
        self._down = False  # logged once per outage

    def _key(self, origin: Origin) -> str:
        return f"{self.prefix}entry:{origin}"

    def _lock_key(self, origin: Origin) -> str:
        return f"{self.prefix}lock:{origin}"

    def _failed(self, action: str, error: BaseException) -> None:
        if not self._down:
            logger.warning(
                "robots cache: Redis unavailable (%s: %s); going on without it", action, error
            )
        self._down = True

    def _ok(self) -> None:
        if self._down:
            logger.warning("robots cache: Redis is back")
        self._down = False

    async def get(self, origin: Origin) -> Entry | None:
        try:
            data = await self._redis.get(self._key(origin))
        except Exception as error:  # any client, connection or timeout error is an outage
            self._failed("get", error)
            return None
        self._ok()
        if data is None:
            return None
        try:
            return unpack(bytes(data), origin)
        except UnpackError as error:
            logger.warning("robots cache: ignoring the Redis entry of %s: %s", origin, error)
            return None

    async def set(self, origin: Origin, entry: Entry, *, ttl: float) -> None:
        if entry.no_store:
            return  # D13
        try:
            await self._redis.set(
                self._key(origin), pack(origin, entry), px=max(1000, int(ttl * 1000))
            )
        except Exception as error:
            self._failed("set", error)
            return
        self._ok()

    async def delete(self, origin: Origin) -> None:
        try:
            await self._redis.delete(self._key(origin))
        except Exception as error:
            self._failed("delete", error)
            return
        self._ok()

    def lock(self, origin: Origin) -> AbstractAsyncContextManager[None]:
        """Hold `origin`'s fetch lock across processes, or wait until it is free or expired."""
        return self._locked(origin)

    @contextlib.asynccontextmanager
    async def _locked(self, origin: Origin) -> AsyncIterator[None]:
        key = self._lock_key(origin)
        token = secrets.token_hex(16)
        held = await self._acquire(key, token)
        try:
            yield
        finally:
            if held:
                try:
                    await self._redis.eval(_RELEASE, 1, key, token)
                except Exception as error:
                    self._failed("unlock", error)  # it expires by itself

    async def _acquire(self, key: str, token: str) -> bool:
        """Return True once this process holds the lock; False when Redis is down or it timed out.

        Either way the caller may go on: the cache re-reads the entry first (D15).
        """
        deadline = time.monotonic() + self.lock_timeout
        pause = _POLL_FIRST
        while True:
            try:
                if await self._redis.set(key, token, nx=True, px=int(self.lock_timeout * 1000)):
                    self._ok()
                    return True
            except Exception as error:
                self._failed("lock", error)
                return False
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(pause)
            pause = min(_POLL_MAX, pause * 2)

    async def aclose(self) -> None:
        if self._owns_client:
            with contextlib.suppress(Exception):
                await self._redis.aclose()
