"""Refresh ahead through the client (issue 7; DECISIONS D12-D15) on the local server.

An entry used within the last part of its lifetime (default: the last 10%) is refreshed in the
background, once, while checks keep answering from the cache. The server holds the refresh on
an asyncio.Event, so "the check returned while the fetch was held" is shown by order, never by
timing; the clock is injected and nothing sleeps (asyncio.sleep(0) only yields).

Categories:
- answers at once: within the last 10% checks return while the refresh is held, can_fetch does
  not even suspend; before that window no fetch is made
- one background fetch (D15) for 200 concurrent checks; the new answer is used once it lands
- settings: refresh_ahead=0 turns it off (the check waits at expiry), another fraction moves
  the window (CachePolicy.refresh_ahead)
- a 304 landing renews the copy without a re-parse; a failed refresh keeps the fresh copy in
  use, not stale, until it expires (D14)
- bounds: the background fetch holds one of the max_concurrent_fetches slots (D12)
- closing cancels an in-flight refresh cleanly: no task left, no warning, no asyncio error
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import httpx
import pytest

from robotsclient._client import RobotsClient
from robotsclient._policy import CachePolicy
from tests.clock import T0, FakeClock
from tests.servers import LoopbackTransport, Validators, conditional, respond

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from tests.servers import Connection, Handler, LocalServer, Request

UA = "ExampleBot/1.0 (+https://example.com/bot)"
GUARD = 10.0  # seconds: a hung check fails the test instead of hanging it (a bound, not a timing)
OLD = b"User-agent: *\nDisallow: /private\n"
NEW = b"User-agent: *\nDisallow: /new\n"
LIFETIME = 1000.0
MAX_AGE = {"cache-control": "max-age=1000"}
WINDOW_OPENS = LIFETIME * 0.9  # the default: the last 10% of the lifetime
URL = "https://site.test/private/page"  # disallowed by OLD, allowed by NEW


class Held:
    """A robots.txt handler: the first request answered at once with `first`, every later one
    held until `release` is set, then answered with `later`; `arrived` is set when one waits."""

    def __init__(self, first: Handler, later: Handler) -> None:
        self.first = first
        self.later = later
        self.requests = 0
        self.arrived = asyncio.Event()
        self.release = asyncio.Event()

    async def __call__(self, request: Request, connection: Connection) -> None:
        self.requests += 1
        if self.requests == 1:
            await self.first(request, connection)
            return
        self.arrived.set()
        await self.release.wait()
        await self.later(request, connection)

    async def held(self) -> None:
        await asyncio.wait_for(self.arrived.wait(), GUARD)


class Recording(LoopbackTransport):
    """The loopback transport, noting each request's host the moment the client sends it."""

    def __init__(self, port: int) -> None:
        super().__init__(port)
        self.sent: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.sent.append(request.url.host)
        return await super().handle_async_request(request)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def client(
    local_server: LocalServer, loopback_client: httpx.AsyncClient, clock: FakeClock
) -> AsyncIterator[RobotsClient]:
    async with RobotsClient(UA, http_client=loopback_client, clock=clock) as made:  # defaults
        yield made


def held_site(server: LocalServer, later: Handler | None = None) -> Held:
    handler = Held(respond(200, OLD, headers=MAX_AGE), later or respond(200, NEW, headers=MAX_AGE))
    server.route(handler, host="site.test", path="/robots.txt")
    return handler


async def yield_a_little() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


# --- answers at once, one fetch ----------------------------------------------------------------


async def test_checks_in_the_last_tenth_answer_while_the_refresh_is_held(
    local_server: LocalServer, client: RobotsClient, clock: FakeClock
) -> None:
    """Issue 7: in the last 10% the check returns from the cache while the refresh is still held
    by the server; the new rules are used once it lands."""
    site = held_site(local_server)
    first = await client.robots(URL)
    clock.advance(WINDOW_OPENS - 1)
    assert await client.can_fetch(URL) is False
    await yield_a_little()
    assert site.requests == 1  # before the window: no refresh
    clock.advance(1)
    decision = await asyncio.wait_for(client.check(URL), GUARD)
    assert decision.allowed is False  # the cached rules, at once
    assert decision.record.robots is first.robots
    assert decision.stale is False
    await site.held()  # the refresh reached the server and is held there...
    (refresh,) = local_server.exchanges_for("site.test")[1:]
    assert not refresh.done.is_set()  # ...while the check above had already returned
    coroutine = client.can_fetch(URL)
    with pytest.raises(StopIteration) as done:
        coroutine.send(None)  # the hot path does not even suspend during the refresh
    assert done.value.value is False
    site.release.set()
    await asyncio.wait_for(client.cache.join(), GUARD)
    assert await client.can_fetch(URL) is True  # the new file, now
    record = await client.robots(URL)
    assert record.fetched_at == T0 + WINDOW_OPENS
    assert record.expires_at == T0 + WINDOW_OPENS + LIFETIME
    assert site.requests == 2


async def test_200_concurrent_checks_make_exactly_one_background_fetch(
    local_server: LocalServer, client: RobotsClient, clock: FakeClock
) -> None:
    """Issue 7, D15: 200 checks arriving together in the window all answer from the cache while
    the one refresh is held; after it lands the answer is the new one, still one request."""
    site = held_site(local_server)
    await client.can_fetch(URL)
    clock.advance(LIFETIME * 0.95)
    answers = await asyncio.wait_for(
        asyncio.gather(
            *(client.check(URL) for _ in range(100)), *(client.can_fetch(URL) for _ in range(100))
        ),
        GUARD,
    )
    assert [getattr(answer, "allowed", answer) for answer in answers] == [False] * 200
    await site.held()
    assert not site.release.is_set()
    site.release.set()
    await asyncio.wait_for(client.cache.join(), GUARD)
    answers = await asyncio.gather(*(client.can_fetch(URL) for _ in range(100)))
    assert answers == [True] * 100
    assert site.requests == 2
    assert len(local_server.exchanges_for("site.test")) == 2


# --- settings ----------------------------------------------------------------------------------


async def test_refresh_ahead_zero_turns_it_off(
    local_server: LocalServer, loopback_client: httpx.AsyncClient, clock: FakeClock
) -> None:
    """Issue 7, D13: with refresh_ahead=0 nothing is fetched before expiry, and at expiry the
    check waits for the fetch (it is not done while the server holds it)."""
    site = held_site(local_server)
    policy = CachePolicy(refresh_ahead=0.0)
    async with RobotsClient(UA, http_client=loopback_client, clock=clock, policy=policy) as client:
        await client.can_fetch(URL)
        clock.advance(LIFETIME - 1)
        assert await client.can_fetch(URL) is False
        await yield_a_little()
        assert site.requests == 1
        clock.advance(1)
        check = asyncio.create_task(client.can_fetch(URL))
        await site.held()
        assert not check.done()  # expired: nothing to answer with until the fetch ends
        site.release.set()
        assert await asyncio.wait_for(check, GUARD) is True


async def test_the_window_is_settable(
    local_server: LocalServer, loopback_client: httpx.AsyncClient, clock: FakeClock
) -> None:
    """Issue 7: CachePolicy.refresh_ahead=0.5 refreshes in the second half of the lifetime."""
    site = held_site(local_server)
    policy = CachePolicy(refresh_ahead=0.5)
    async with RobotsClient(UA, http_client=loopback_client, clock=clock, policy=policy) as client:
        await client.can_fetch(URL)
        clock.advance(LIFETIME / 2 - 1)
        await client.can_fetch(URL)
        await yield_a_little()
        assert site.requests == 1
        clock.advance(1)
        assert await asyncio.wait_for(client.can_fetch(URL), GUARD) is False
        await site.held()
        site.release.set()
        await asyncio.wait_for(client.cache.join(), GUARD)
        assert await client.can_fetch(URL) is True
        assert site.requests == 2


# --- what lands ---------------------------------------------------------------------------------


async def test_a_304_landing_in_the_background_renews_without_a_reparse(
    local_server: LocalServer, client: RobotsClient, clock: FakeClock
) -> None:
    """Issue 7: a refresh-ahead is a conditional request too; its 304 renews the lifetime and
    keeps the parsed file (the same object)."""
    validators = Validators(body=OLD, etag='"v1"', cache_control="max-age=1000")
    site = Held(conditional(validators), conditional(validators))
    local_server.route(site, host="site.test", path="/robots.txt")
    first = await client.robots(URL)
    clock.advance(LIFETIME * 0.95)
    assert await asyncio.wait_for(client.can_fetch(URL), GUARD) is False
    await site.held()
    site.release.set()
    await asyncio.wait_for(client.cache.join(), GUARD)
    assert validators.not_modified == 1
    assert local_server.exchanges_for("site.test")[1].request.header("if-none-match") == '"v1"'
    record = await client.robots(URL)
    assert record.robots is first.robots
    assert record.expires_at == T0 + LIFETIME * 0.95 + LIFETIME


async def test_a_failed_refresh_keeps_the_fresh_copy_until_it_expires(
    local_server: LocalServer, client: RobotsClient, clock: FakeClock
) -> None:
    """Issue 7, D14: a 503 to the background refresh does not make the copy stale while it is
    still within its lifetime; after expiry the same copy is served, marked stale."""
    site = held_site(local_server, later=respond(503))
    site.release.set()  # nothing to hold here
    await client.can_fetch(URL)
    clock.advance(LIFETIME * 0.95)
    assert await client.can_fetch(URL) is False
    await asyncio.wait_for(client.cache.join(), GUARD)
    decision = await client.check(URL)
    assert decision.allowed is False
    assert decision.stale is False
    assert decision.record.failure is not None
    assert decision.record.failure.status == 503
    assert site.requests == 2
    clock.advance(LIFETIME * 0.05)  # expired; the next retry (1 min after the failure) not due
    expired = await client.check(URL)
    assert expired.allowed is False
    assert expired.stale is True
    assert site.requests == 2


# --- bounds and closing -------------------------------------------------------------------------


async def test_the_background_refresh_takes_a_fetch_slot(
    local_server: LocalServer, clock: FakeClock
) -> None:
    """Issue 7, D12: with max_concurrent_fetches=1, a held refresh keeps a cold origin's fetch
    queued (not sent) until it ends; the cold check then completes."""
    site = held_site(local_server)
    local_server.route(respond(404), host="cold.test", path="/robots.txt")
    transport = Recording(local_server.port)
    async with (
        httpx.AsyncClient(transport=transport) as http,
        RobotsClient(UA, http_client=http, clock=clock, max_concurrent_fetches=1) as client,
    ):
        await client.can_fetch(URL)
        clock.advance(LIFETIME * 0.95)
        assert await asyncio.wait_for(client.can_fetch(URL), GUARD) is False
        await site.held()
        cold = asyncio.create_task(client.can_fetch("https://cold.test/x"))
        await yield_a_little()  # unbounded, the cold fetch would reach the transport by now
        assert transport.sent == ["site.test", "site.test"]
        assert not cold.done()
        site.release.set()
        assert await asyncio.wait_for(cold, GUARD) is True
        assert transport.sent == ["site.test", "site.test", "cold.test"]


async def test_closing_cancels_an_in_flight_refresh_cleanly(
    local_server: LocalServer,
    loopback_client: httpx.AsyncClient,
    clock: FakeClock,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Issue 7: closing the client while a background refresh is held cancels it: no task left
    running, no warning (pytest runs with filterwarnings=error), no asyncio error logged."""
    caplog.set_level(logging.DEBUG, logger="asyncio")
    site = held_site(local_server)
    client = RobotsClient(UA, http_client=loopback_client, clock=clock)
    await client.can_fetch(URL)
    clock.advance(LIFETIME * 0.95)
    assert await asyncio.wait_for(client.can_fetch(URL), GUARD) is False
    await site.held()
    (refresh,) = [t for t in asyncio.all_tasks() if t.get_name().startswith("robots.txt")]
    await asyncio.wait_for(client.aclose(), GUARD)
    assert refresh.cancelled()
    assert client.cache.in_flight == 0
    assert [t for t in asyncio.all_tasks() if t.get_name().startswith("robots.txt")] == []
    with pytest.raises(RuntimeError, match="closed"):
        await client.can_fetch(URL)
    site.release.set()  # the server's handler may finish; nobody listens any more
    await yield_a_little()
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
