"""File backend (issue 5, D16): atomic files, restarts, corruption, bounds, unwritable dirs.

Categories: round trip and restart, no-store (D13), corrupt/truncated/foreign/unknown-version
files are misses with a warning, atomic replace (no temp files left), bounded entry count with
oldest evicted, read-only directory, several processes sharing one directory.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from robotsclient._storages._file import FileStorage
from robotsclient._storages._packing import FORMAT_VERSION, MAGIC, pack
from tests.storages.entries import ORIGIN, OTHER, entry

if TYPE_CHECKING:
    from collections.abc import Callable


async def test_round_trip_survives_a_new_instance(tmp_path: Path) -> None:
    """D16: a restarted crawler (a new FileStorage on the same directory) reads the entry."""
    first = FileStorage(tmp_path)
    await first.set(ORIGIN, entry(), ttl=3600)
    second = FileStorage(tmp_path)
    got = await second.get(ORIGIN)
    assert got is not None
    assert got.result.body == entry().result.body
    assert got.result.header("etag") == '"v1"'
    assert await second.get(OTHER) is None


async def test_no_store_is_not_written(tmp_path: Path) -> None:
    """D13: a no-store result never reaches a persistent backend."""
    storage = FileStorage(tmp_path)
    await storage.set(ORIGIN, entry(no_store=True), ttl=3600)
    assert await storage.get(ORIGIN) is None
    assert not list(tmp_path.iterdir())


async def test_delete(tmp_path: Path) -> None:
    storage = FileStorage(tmp_path)
    await storage.set(ORIGIN, entry(), ttl=3600)
    await storage.delete(ORIGIN)
    await storage.delete(ORIGIN)  # twice is fine
    assert await storage.get(ORIGIN) is None


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda data: data[: len(data) // 2], id="truncated"),
        pytest.param(lambda data: b"\x00\xff" * 40, id="binary-junk"),
        pytest.param(lambda data: b"", id="empty"),
        pytest.param(
            lambda data: data.replace(b"/%d\n" % FORMAT_VERSION, b"/999\n", 1), id="unknown-version"
        ),
        pytest.param(
            lambda data: data.replace(
                b'"origin":"https://example.com"', b'"origin":"https://evil.example"'
            ),
            id="foreign-origin",
        ),
        pytest.param(lambda data: MAGIC + b"1\n{not json\n", id="corrupt-json"),
    ],
)
async def test_damaged_file_is_a_miss_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, damage
) -> None:
    """Issue 5: corrupt, truncated, foreign or unknown-version entries are misses, never a crash."""
    storage = FileStorage(tmp_path)
    await storage.set(ORIGIN, entry(), ttl=3600)
    path = storage.path_for(ORIGIN)
    path.write_bytes(damage(path.read_bytes()))
    with caplog.at_level(logging.WARNING, logger="robotsclient.storage.file"):
        assert await storage.get(ORIGIN) is None
    assert "ignoring" in caplog.text
    assert not path.exists()  # removed, so the next write starts clean
    await storage.set(ORIGIN, entry(), ttl=3600)
    assert await storage.get(ORIGIN) is not None


async def test_writes_are_atomic_and_leave_no_temp_files(tmp_path: Path) -> None:
    """Write-then-rename: many concurrent writers of one origin leave one whole entry."""
    storage = FileStorage(tmp_path)
    bodies = [b"User-agent: *\nDisallow: /%d\n" % i * 200 for i in range(20)]
    await asyncio.gather(*(storage.set(ORIGIN, entry(body), ttl=3600) for body in bodies))
    files = list(tmp_path.iterdir())
    assert [f.name for f in files] == [storage.path_for(ORIGIN).name]
    got = await storage.get(ORIGIN)
    assert got is not None and got.result.body in bodies


async def test_bounded_entry_count_evicts_the_oldest(tmp_path: Path) -> None:
    """Issue 5: a maximum entry count; past it the least recently written are removed."""
    from robotsclient._origin import origin_of

    storage = FileStorage(tmp_path, max_entries=10)
    origins = [origin_of(f"https://site{i}.example/") for i in range(25)]
    for index, origin in enumerate(origins):
        await storage.set(origin, entry(), ttl=3600)
        os.utime(storage.path_for(origin), (1_000_000 + index, 1_000_000 + index))
    remaining = list(tmp_path.glob("*.robots"))
    assert len(remaining) <= 10
    assert await storage.get(origins[-1]) is not None  # the newest survives
    assert await storage.get(origins[0]) is None  # the oldest went first


def _make_read_only(path: Path) -> Callable[[], None]:
    """Make `path` unwritable, even for root (chattr +i), and return the undo."""
    if os.geteuid() != 0:
        path.chmod(0o555)
        return lambda: path.chmod(0o755)
    if (
        shutil.which("chattr") is None
        or subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode
    ):
        pytest.skip("running as root and this filesystem cannot make a directory immutable")
    return lambda: subprocess.run(["chattr", "-i", str(path)], check=True)


async def test_read_only_directory_never_raises(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 5 fault: a cache directory made read-only: writes log a warning, reads go on."""
    storage = FileStorage(tmp_path)
    await storage.set(ORIGIN, entry(), ttl=3600)
    undo = _make_read_only(tmp_path)
    try:
        with caplog.at_level(logging.WARNING):
            await storage.set(OTHER, entry(), ttl=3600)
            await storage.set(ORIGIN, entry(b"User-agent: *\nDisallow: /new\n"), ttl=3600)
        assert "cannot write" in caplog.text
        got = await storage.get(ORIGIN)
        assert got is not None and got.result.body == entry().result.body  # the old copy is served
        assert await storage.get(OTHER) is None
    finally:
        undo()


async def test_unwritable_target_never_raises(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A cache path that cannot be a directory (a file is in the way) costs a warning only."""
    blocker = tmp_path / "cache"
    blocker.write_text("not a directory")
    storage = FileStorage(blocker)
    with caplog.at_level(logging.WARNING):
        await storage.set(ORIGIN, entry(), ttl=3600)
    assert "cannot write" in caplog.text
    assert await storage.get(ORIGIN) is None


def test_packed_entries_are_what_the_file_holds(tmp_path: Path) -> None:
    storage = FileStorage(tmp_path)
    asyncio.run(storage.set(ORIGIN, entry(), ttl=3600))
    assert storage.path_for(ORIGIN).read_bytes() == pack(ORIGIN, entry())


def test_several_processes_share_one_directory(tmp_path: Path) -> None:
    """Issue 5: processes writing and reading one directory at once never see half an entry."""
    script = textwrap.dedent(
        f"""
        import asyncio, sys
        sys.path.insert(0, {str(Path.cwd())!r})
        from robotsclient._storages._file import FileStorage
        from tests.storages.entries import ORIGIN, entry

        async def main(worker):
            storage = FileStorage({str(tmp_path)!r})
            bad = 0
            for i in range(100):
                await storage.set(ORIGIN, entry(b"User-agent: *\\nDisallow: /%d\\n" % (worker * 1000 + i) * 50), ttl=60)
                got = await storage.get(ORIGIN)
                bad += got is None
            print(bad)

        asyncio.run(main(int(sys.argv[1])))
        """
    )
    workers = [
        subprocess.Popen([sys.executable, "-c", script, str(n)], stdout=subprocess.PIPE, text=True)
        for n in range(3)
    ]
    outputs = [worker.communicate(timeout=120)[0].strip() for worker in workers]
    assert all(worker.returncode == 0 for worker in workers)
    assert outputs == ["0", "0", "0"]
    assert [p.name for p in tmp_path.iterdir()] == [FileStorage(tmp_path).path_for(ORIGIN).name]
