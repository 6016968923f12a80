"""Fixtures for the storage backends: a real redis-server for the session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.redis_server import RedisServer, find_redis_server


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    server = RedisServer(find_redis_server())
    server.start()
    yield server
    server.stop()


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    redis_server.start()  # a fault test may have stopped it
    redis_server.flush()
    return redis_server.url
