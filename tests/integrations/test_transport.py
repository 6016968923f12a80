"""httpx integration: RobotsTransport on a crawler's own AsyncClient, against the local server.

Categories: a disallowed request raises Disallowed carrying the decision and never reaches the
network; allowed requests pass; /robots.txt always passes (D5); politeness spaces requests to
one origin by crawl-delay (injected clock and sleep, no real waiting), per origin, capped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import httpx
import pytest

from robotsclient import Disallowed, RobotsClient, RobotsTransport
from tests.servers import LoopbackTransport, respond

if TYPE_CHECKING:
    from tests.servers import LocalServer

ROBOTS = "User-agent: *\nDisallow: /private/\nCrawl-delay: 5\n"


class FakeTime:
    """A clock that only moves when the transport sleeps."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(round(seconds, 6))
        self.now += seconds


def serve(server: LocalServer) -> None:
    server.route(respond(200, ROBOTS), path="/robots.txt")
    for path in ("/a", "/b", "/c", "/private/x"):
        server.route(respond(200, f"page {path}"), path=path)


async def test_disallowed_request_never_reaches_the_network(local_server: LocalServer) -> None:
    serve(local_server)
    async with (
        local_server.client() as robots_http,
        RobotsClient("ExampleBot/1.0", http_client=robots_http) as robots,
        httpx.AsyncClient(
            transport=RobotsTransport(robots, LoopbackTransport(local_server.port))
        ) as client,
    ):
        response = await client.get("http://site.test/a")
        assert response.status_code == 200
        assert response.text == "page /a"
        with pytest.raises(Disallowed) as refused:
            await client.get("http://site.test/private/x")
        assert refused.value.decision.allowed is False
        assert refused.value.decision.verdict.rule.pattern == "/private/"
        assert refused.value.url == "http://site.test/private/x"
        robots_txt = await client.get("http://site.test/robots.txt")  # D5: always allowed
        assert robots_txt.status_code == 200
    assert local_server.hits[("site.test", "/private/x")] == 0
    assert local_server.hits[("site.test", "/robots.txt")] == 2  # the client's fetch + ours


async def test_polite_spacing_by_crawl_delay(local_server: LocalServer) -> None:
    """D9: requests to one origin are spaced by its crawl-delay; other origins do not wait."""
    serve(local_server)
    fake = FakeTime()
    async with (
        local_server.client() as robots_http,
        RobotsClient("ExampleBot/1.0", http_client=robots_http) as robots,
    ):
        transport = RobotsTransport(
            robots,
            LoopbackTransport(local_server.port),
            polite=True,
            clock=fake.clock,
            sleep=fake.sleep,
        )
        async with httpx.AsyncClient(transport=transport) as client:
            for path in ("/a", "/b", "/c"):
                await client.get(f"http://one.test{path}")
            await client.get("http://two.test/a")
    assert fake.sleeps == [5.0, 5.0]  # the 2nd and 3rd request to one.test; two.test at once


async def test_polite_default_delay_and_cap(local_server: LocalServer) -> None:
    local_server.route(
        respond(200, "User-agent: *\nCrawl-delay: 100000\n"), host="slow.test", path="/robots.txt"
    )
    local_server.route(respond(404, "none"), host="plain.test", path="/robots.txt")
    local_server.route(respond(200, "ok"), path="/a")
    fake = FakeTime()
    async with (
        local_server.client() as robots_http,
        RobotsClient("ExampleBot/1.0", http_client=robots_http) as robots,
    ):
        transport = RobotsTransport(
            robots,
            LoopbackTransport(local_server.port),
            polite=True,
            default_delay=2,
            max_delay=30,
            clock=fake.clock,
            sleep=fake.sleep,
        )
        async with httpx.AsyncClient(transport=transport) as client:
            for _ in range(2):
                await client.get("http://plain.test/a")  # no crawl-delay: the default, 2 s
            for _ in range(2):
                await client.get("http://slow.test/a")  # a hostile delay is capped at 30 s
    assert fake.sleeps == [2.0, 30.0]
