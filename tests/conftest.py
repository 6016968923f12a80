"""Shared fixtures. Network fixtures only ever use 127.0.0.1 (see tests/servers.py)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings

from tests.redis_server import RedisServer, find_redis_server
from tests.servers import LocalServer

# CI replays the same examples every run (a landing must not depend on luck); developers get
# fresh random examples each run, which is where new counterexamples come from.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Iterator

    import httpx


@pytest.fixture
async def local_server() -> AsyncIterator[LocalServer]:
    """A misbehaving-on-demand HTTP/1.1 server on 127.0.0.1; register routes with `.route()`."""
    async with LocalServer() as server:
        yield server


@pytest.fixture
async def loopback_client(local_server: LocalServer) -> AsyncIterator[httpx.AsyncClient]:
    """An httpx.AsyncClient that reaches `local_server` for ANY hostname, without DNS."""
    async with local_server.client() as client:
        yield client


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """A real redis-server on a free loopback port for the session (see tests/redis_server.py)."""
    server = RedisServer(find_redis_server())
    server.start()
    yield server
    server.stop()


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """The URL of a running, empty redis-server (restarted if a fault test stopped it)."""
    redis_server.start()
    redis_server.flush()
    return redis_server.url
