"""A fleet and a restart (issue 5, D15, D16): real worker processes, a real local HTTP server,
one Redis or one file directory shared between them.

Categories: several processes checking the same cold origins make exactly one request per
origin in total (Redis, file); a process started after another reads the file cache and makes
no request; two tiers (memory in front) behave the same.
"""

from __future__ import annotations

import asyncio
import json
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.servers import delayed, dynamic, respond

if TYPE_CHECKING:
    from tests.servers import LocalServer, Request

ORIGINS = 12
WORKERS = 4
PROJECT = Path(__file__).resolve().parents[2]

WORKER = textwrap.dedent(
    """
    import asyncio, json, sys
    sys.path.insert(0, {project!r})
    import httpx
    from robotsclient import FileStorage, RedisStorage, RobotsClient, TieredStorage
    from tests.servers import LoopbackTransport

    async def main(port, backend, where, tiered, origins):
        storage = RedisStorage(where) if backend == "redis" else FileStorage(where)
        if tiered:
            storage = TieredStorage(storage)
        async with httpx.AsyncClient(transport=LoopbackTransport(port)) as http:
            async with RobotsClient("FleetBot/1.0", http_client=http, cache=storage) as robots:
                urls = [f"http://site{{i}}.test/private/x" for i in range(origins)]
                urls += [f"http://site{{i}}.test/public" for i in range(origins)]
                answers = await asyncio.gather(*(robots.can_fetch(url) for url in urls))
        print(json.dumps(answers))

    asyncio.run(main(int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4] == "1", int(sys.argv[5])))
    """
).format(project=str(PROJECT))


def _robots(request: Request):
    return delayed(0.3, respond(200, f"User-agent: *\nDisallow: /private/\n# {request.host}\n"))


async def _run_workers(
    port: int, backend: str, where: str, count: int, *, tiered: bool = False
) -> list[list[bool]]:
    processes = [
        await asyncio.create_subprocess_exec(
            sys.executable, "-c", WORKER, str(port), backend, where, "1" if tiered else "0", str(ORIGINS),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        for _ in range(count)
    ]  # fmt: skip
    outputs = await asyncio.wait_for(
        asyncio.gather(*(p.communicate() for p in processes)), timeout=180
    )
    for process, (_, err) in zip(processes, outputs, strict=True):
        assert process.returncode == 0, err.decode()
    return [json.loads(out) for out, _ in outputs]


def _requests(server: LocalServer) -> int:
    return sum(count for (_, path), count in server.hits.items() if path == "/robots.txt")


def _expected() -> list[bool]:
    return [False] * ORIGINS + [True] * ORIGINS


@pytest.mark.parametrize("tiered", [False, True], ids=["redis", "memory+redis"])
async def test_fleet_through_redis_fetches_each_origin_once(
    local_server: LocalServer, redis_url: str, tiered: bool
) -> None:
    """D15: 4 processes x 12 cold origins through one Redis = 12 requests in all."""
    local_server.route(dynamic(_robots), path="/robots.txt")
    answers = await _run_workers(local_server.port, "redis", redis_url, WORKERS, tiered=tiered)
    assert answers == [_expected()] * WORKERS
    assert _requests(local_server) == ORIGINS


@pytest.mark.parametrize("tiered", [False, True], ids=["file", "memory+file"])
async def test_fleet_through_one_directory_fetches_each_origin_once(
    local_server: LocalServer, tmp_path: Path, tiered: bool
) -> None:
    """D15: 4 processes x 12 cold origins through one file directory = 12 requests in all."""
    local_server.route(dynamic(_robots), path="/robots.txt")
    answers = await _run_workers(local_server.port, "file", str(tmp_path), WORKERS, tiered=tiered)
    assert answers == [_expected()] * WORKERS
    assert _requests(local_server) == ORIGINS


async def test_restarted_process_reads_the_file_cache(
    local_server: LocalServer, tmp_path: Path
) -> None:
    """D16: a second process started after the first makes no request at all."""
    local_server.route(dynamic(_robots), path="/robots.txt")
    first = await _run_workers(local_server.port, "file", str(tmp_path), 1)
    assert _requests(local_server) == ORIGINS
    second = await _run_workers(local_server.port, "file", str(tmp_path), 1)
    assert first == second == [_expected()]
    assert _requests(local_server) == ORIGINS  # no new request
