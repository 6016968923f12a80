"""What a cache backend stores and the async interface every backend implements (D15, D16).

An `Entry` is one origin's cache state: the latest fetch result, the last good one, and the
failure bookkeeping of D14. Backends store it as it is (memory) or packed (`_packing`: raw body
plus fetch record); the parsed robots.txt is never stored, it is rebuilt in memory (D16).

`Storage` is the async ABC. Its `lock(origin)` hook is where a shared backend (Redis, issue 5)
holds a cross-process single-flight lock (D15); in-process single-flight is the cache's job,
so the default lock is a no-op.
"""

from __future__ import annotations

import abc
import contextlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from collections.abc import AsyncIterator
    from contextlib import AbstractAsyncContextManager
    from types import TracebackType

    from typing_extensions import Self

    from .._origin import Origin
    from .._outcome import FetchResult

__all__ = ["Entry", "Storage"]


@dataclass(frozen=True, slots=True)
class Entry:
    """One origin's cache state (D13, D14); built and advanced by `_policy.record`.

    `result` is the latest fetch; `good` the latest answer that is not a temporary failure
    (2xx, 4xx: D14), often the same object. `expires_at` ends the good copy's freshness,
    `lifetime` is its length (for refresh-ahead). While the origin fails, `failures` counts the
    failed attempts in a row, `failing_since` is when the first of them was made and `retry_at`
    when the next one is due; all three reset on success.
    """

    result: FetchResult
    good: FetchResult | None
    expires_at: float
    lifetime: float
    no_store: bool = False  # D13: never written to a persistent backend
    failures: int = 0
    failing_since: float | None = None
    retry_at: float | None = None

    @property
    def failing(self) -> bool:
        """Return True while the latest fetch was a temporary failure (D14)."""
        return self.failing_since is not None


class Storage(abc.ABC):
    """An async cache backend keyed by origin (D16); `async with` closes it.

    Backends raise StorageError when they cannot read or write; the cache then logs it and
    carries on as with a miss (a cache outage must not stop a crawl). A backend that cannot
    decode an entry (corrupt, foreign, unknown version) returns None: a miss, never a crash.
    """

    persistent: ClassVar[bool] = False
    """True when entries outlive the process: `no-store` results are then not written (D13)."""

    shared: ClassVar[bool] = False
    """True when other processes write it too: the cache re-reads an entry under `lock` (D15)."""

    @abc.abstractmethod
    async def get(self, origin: Origin) -> Entry | None:
        """Return the entry stored for `origin`, or None."""

    @abc.abstractmethod
    async def set(self, origin: Origin, entry: Entry, *, ttl: float) -> None:
        """Store `entry` for `origin`; `ttl` says how many seconds it can still be of use (D14)."""

    @abc.abstractmethod
    async def delete(self, origin: Origin) -> None:
        """Forget `origin`'s entry, if any."""

    def lock(self, origin: Origin) -> AbstractAsyncContextManager[None]:
        """Return a context holding `origin`'s cross-process fetch lock (D15); here a no-op.

        A shared backend holds a short lock with an expiry so a dead holder cannot block others,
        and returns when it holds the lock or the lock expired; the cache then re-reads.
        """
        return _no_lock()

    async def aclose(self) -> None:  # noqa: B027 - an optional hook, not an abstract method
        """Release the backend's resources; the default has none."""

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()


@contextlib.asynccontextmanager
async def _no_lock() -> AsyncIterator[None]:
    yield
