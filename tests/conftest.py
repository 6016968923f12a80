"""Shared fixtures. Network fixtures only ever use 127.0.0.1 (see tests/servers.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.servers import LocalServer

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

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
