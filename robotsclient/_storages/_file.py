"""File backend (aiofiles): one file per origin under a directory, survives restarts (D16).

Rules of this module:
- An entry is written to a temporary file in the same directory and renamed over the old one,
  so a reader in any process sees the old entry or the new one, never half of one.
- A file that is corrupt, truncated, foreign or of an unknown format version is a miss with a
  logged warning (and is removed), never a crash.
- Bounded: at most `max_entries` files; past that the least recently written are removed.
- A directory that cannot be written (read-only, full) costs a logged warning per failed
  write; reads go on, and nothing raises into a crawl.
- Processes sharing the directory share fetches (D15): a lock file per origin, created with
  O_EXCL and removed by its holder; one older than `lock_timeout` is a dead holder's and is
  broken, so a crashed process blocks the others at most that long.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import secrets
import time
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

import aiofiles
import aiofiles.os

from ._base import Storage
from ._packing import UnpackError, pack, unpack

if TYPE_CHECKING:
    from collections.abc import AsyncIterator
    from contextlib import AbstractAsyncContextManager

    from .._origin import Origin
    from ._base import Entry

__all__ = ["FileStorage"]

logger = logging.getLogger("robotsclient.storage.file")

_SUFFIX = ".robots"
_TEMP_SUFFIX = ".tmp"
_MAX_FILE_BYTES = 4 * 1024 * 1024  # a packed entry holds at most 512,000 body bytes (D12)
DEFAULT_MAX_ENTRIES = 100_000
_EVICT_TO = 0.9  # an eviction pass brings the count down to this share of the bound
_LOCK_SUFFIX = ".lock"
DEFAULT_LOCK_TIMEOUT = 35.0  # the whole-fetch deadline (30 s, D12) plus a margin
_POLL_FIRST = 0.02  # waiters poll the lock file, backing off to _POLL_MAX
_POLL_MAX = 0.25


class FileStorage(Storage):
    """Entries as files under `directory` (created if missing); safe to share between processes."""

    persistent: ClassVar[bool] = True
    shared: ClassVar[bool] = True

    def __init__(
        self,
        directory: str | os.PathLike[str],
        *,
        max_entries: int = DEFAULT_MAX_ENTRIES,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
    ) -> None:
        if max_entries < 1:
            raise ValueError("max_entries must be at least 1")
        if lock_timeout <= 0:
            raise ValueError("lock_timeout must be positive")
        self.directory = Path(directory)
        self.max_entries = max_entries
        self.lock_timeout = lock_timeout
        self._count: int | None = None  # files on disk, counted once then kept up to date

    def path_for(self, origin: Origin) -> Path:
        """Return the file that holds `origin`'s entry (a hash: any host fits a file name)."""
        digest = hashlib.sha256(str(origin).encode("utf-8")).hexdigest()[:40]
        return self.directory / f"{digest}{_SUFFIX}"

    async def get(self, origin: Origin) -> Entry | None:
        path = self.path_for(origin)
        try:
            async with aiofiles.open(path, "rb") as handle:
                data = await handle.read(_MAX_FILE_BYTES + 1)
        except FileNotFoundError:
            return None
        except OSError as error:
            logger.warning("robots cache: cannot read %s: %s", path, error)
            return None
        try:
            if len(data) > _MAX_FILE_BYTES:
                raise UnpackError(f"larger than {_MAX_FILE_BYTES} bytes")
            return unpack(data, origin)
        except UnpackError as error:
            logger.warning("robots cache: ignoring %s: %s", path, error)
            await self._remove(path)
            return None

    async def set(self, origin: Origin, entry: Entry, *, ttl: float) -> None:
        if entry.no_store:
            return  # D13: a no-store answer is never written to a persistent backend
        path = self.path_for(origin)
        temp = path.with_name(f"{path.name}.{secrets.token_hex(6)}{_TEMP_SUFFIX}")
        try:
            await aiofiles.os.makedirs(self.directory, exist_ok=True)
            existed = await aiofiles.os.path.exists(path)
            async with aiofiles.open(temp, "wb") as handle:
                await handle.write(pack(origin, entry))
            await aiofiles.os.replace(temp, path)
        except OSError as error:
            logger.warning("robots cache: cannot write %s: %s", path, error)
            await self._remove(temp)
            return
        if not existed:
            await self._grew()

    async def delete(self, origin: Origin) -> None:
        if await self._remove(self.path_for(origin)) and self._count is not None:
            self._count -= 1

    def lock(self, origin: Origin) -> AbstractAsyncContextManager[None]:
        """Hold `origin`'s fetch lock across processes, or wait until it is free or stale (D15)."""
        return self._locked(self.path_for(origin).with_suffix(_LOCK_SUFFIX))

    @contextlib.asynccontextmanager
    async def _locked(self, path: Path) -> AsyncIterator[None]:
        held = await self._acquire(path)
        try:
            yield
        finally:
            if held:
                await self._remove(path)

    async def _acquire(self, path: Path) -> bool:
        """Return True once this process holds the lock file; False if it cannot or timed out.

        Either way the caller may go on: the cache re-reads the entry first (D15).
        """
        deadline = time.monotonic() + self.lock_timeout
        pause = _POLL_FIRST
        while True:
            try:
                await aiofiles.os.makedirs(self.directory, exist_ok=True)
                descriptor = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                if await self._stale(path):
                    await self._remove(path)
                    continue
            except OSError as error:
                logger.warning("robots cache: cannot lock %s: %s", path, error)
                return False
            else:
                os.close(descriptor)
                return True
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(pause)
            pause = min(_POLL_MAX, pause * 2)

    async def _stale(self, path: Path) -> bool:
        """Return True when a lock file is older than the lock timeout: its holder died."""
        try:
            written = (await aiofiles.os.stat(path)).st_mtime
        except OSError:
            return False
        return time.time() - written > self.lock_timeout

    async def _remove(self, path: Path) -> bool:
        try:
            await aiofiles.os.remove(path)
        except FileNotFoundError:
            return False
        except OSError as error:
            logger.warning("robots cache: cannot remove %s: %s", path, error)
            return False
        return True

    async def _grew(self) -> None:
        """Count a new file; past the bound, remove the least recently written (D16)."""
        if self._count is None:
            self._count = len(await self._entries())
        else:
            self._count += 1
        if self._count > self.max_entries:
            await self._evict()

    async def _entries(self) -> list[os.DirEntry[str]]:
        try:
            listing = await aiofiles.os.scandir(self.directory)
        except OSError:
            return []
        with listing:
            return [item for item in listing if item.name.endswith(_SUFFIX)]

    async def _evict(self) -> None:
        entries = await self._entries()
        keep = int(self.max_entries * _EVICT_TO)

        def written(item: os.DirEntry[str]) -> float:
            try:
                return item.stat().st_mtime
            except OSError:
                return 0.0

        entries.sort(key=written)
        removed = 0
        for item in entries[: max(0, len(entries) - keep)]:
            removed += await self._remove(Path(item.path))
        self._count = len(entries) - removed
