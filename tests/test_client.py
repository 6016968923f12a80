"""RobotsClient end to end (issue 4; DECISIONS D4, D5, D10-D18) on the local server and respx.

The local server (tests/servers.py) is a real HTTP/1.1 server on 127.0.0.1 that tells origins
apart by their Host header; `local_server.client()` reaches it for any host name. respx covers
header-level cases. The clock is injected everywhere time matters; nothing sleeps.

Categories:
- API: can_fetch / check / Decision fields / explain text / robots record / crawl-delay,
  request-rate, sitemaps / the User-Agent sent and the agent token matched (D4)
- arguments (D10, D17): relative, non-http(s) and host-less URLs; bad agents; closed client
- every status class mapped (D11) on the local server: 2xx, redirects kept and given up on,
  4xx, 429, 5xx, resets and short bodies; /robots.txt always allowed (D5)
- scale and single-flight (D12, D15): 2,000 cold origins by Host each fetched once and right;
  500 checks of one slow origin, one request; the fetch bound reaches the wire
- hot path: a fresh origin's check makes no request and completes without suspending
- caching through the client (D13, D14) with respx and the injected clock: max-age, no-store,
  Expires, stale copy on 503 with its explanation, Retry-After, the default 24 h
- ownership: a given httpx client is reused and left open; ours is closed
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import httpx
import pytest
import respx

from robotsclient._client import Decision, RobotsClient
from robotsclient._exceptions import InvalidArgument, InvalidURL, InvalidUserAgent
from robotsclient._outcome import Outcome
from robotsclient._policy import DAY, Basis, CachePolicy
from robotsclient._rules import RequestRate
from tests.clock import T0, FakeClock
from tests.servers import (
    RESET,
    Connection,
    Request,
    gated,
    redirect,
    respond,
    script,
)

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable

    from tests.servers import LocalServer

UA = "ExampleBot/1.0 (+https://example.com/bot)"
GUARD = 10.0  # seconds: a hung check fails the test instead of hanging it (a bound, not a timing)
ROBOTS = b"""User-agent: *
Disallow: /private
Crawl-delay: 2.5
Request-rate: 3/10

User-agent: ExampleBot
Disallow: /only-for-others
Allow: /private/ok

Sitemap: https://site.test/sitemap.xml
"""


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def robots_client(
    local_server: LocalServer, loopback_client: httpx.AsyncClient, clock: FakeClock
) -> AsyncIterator[RobotsClient]:
    async with RobotsClient(UA, http_client=loopback_client, clock=clock) as client:
        yield client


def serve(server: LocalServer, host: str, handler: Callable[..., object]) -> None:
    server.route(handler, host=host, path="/robots.txt")  # type: ignore[arg-type]


async def bounded(awaitable: object) -> object:
    return await asyncio.wait_for(awaitable, GUARD)  # type: ignore[arg-type]


# --- API ----------------------------------------------------------------------------------------


async def test_can_fetch_and_check(local_server: LocalServer, robots_client: RobotsClient) -> None:
    """Issue 4 API: can_fetch gives a bool, check a Decision with the parser's verdict (D18)."""
    serve(local_server, "site.test", respond(200, ROBOTS))
    assert await robots_client.can_fetch("https://site.test/private/ok") is True
    assert await robots_client.can_fetch("https://site.test/only-for-others/x") is False
    assert await robots_client.can_fetch("https://site.test/private") is True  # named group only
    decision = await robots_client.check("https://site.test/only-for-others/x?q=1#frag")
    assert isinstance(decision, Decision)
    assert decision.allowed is False
    assert decision.outcome is Outcome.CONDITIONAL
    assert decision.outcome.value == "conditional"
    assert decision.status == 200
    assert decision.url == "https://site.test/only-for-others/x?q=1#frag"
    assert str(decision.origin) == "https://site.test"
    assert decision.stale is False
    assert decision.fetched_at == T0
    assert decision.age == 0.0
    assert decision.chain == ("https://site.test/robots.txt",)
    assert decision.verdict is not None
    assert decision.verdict.rule is not None
    assert decision.verdict.rule.line == 7
    assert local_server.hits[("site.test", "/robots.txt")] == 1


async def test_d18_explain_says_everything(
    local_server: LocalServer, robots_client: RobotsClient, clock: FakeClock
) -> None:
    """D18: outcome, status, redirect chain, fetched-at, age, stale or not, group, rule + line."""
    serve(local_server, "old.test", redirect("https://site.test/robots.txt"))
    serve(local_server, "site.test", respond(200, ROBOTS))
    await robots_client.check("https://old.test/")
    clock.advance(3 * 3600 + 120)
    text = (await robots_client.check("https://old.test/only-for-others/page")).explain()
    assert "disallowed" in text
    assert "conditional" in text
    assert "status:      200" in text
    assert "https://old.test/robots.txt -> https://site.test/robots.txt" in text
    assert "2023-11-14T22:13:20Z" in text  # fetched at
    assert "age 3 h 2 min" in text
    assert "fresh until 2023-11-15T22:13:20Z" in text
    assert "user-agent ExampleBot (line 6)" in text
    assert "Disallow: /only-for-others (line 7)" in text


async def test_d4_agent_token_for_browser_like_headers(
    local_server: LocalServer, loopback_client: httpx.AsyncClient
) -> None:
    """D4: the header is sent as given; the product token to match can be named separately."""
    serve(local_server, "site.test", respond(200, ROBOTS))
    browser = "Mozilla/5.0 (compatible; ExampleBot/1.0)"
    async with RobotsClient(browser, http_client=loopback_client) as plain:
        assert plain.token == "mozilla"
        assert await plain.can_fetch("https://site.test/only-for-others") is True  # '*' group
    async with RobotsClient(
        browser, agent_token="ExampleBot", http_client=loopback_client
    ) as named:
        assert named.token == "examplebot"
        assert await named.can_fetch("https://site.test/only-for-others") is False
        decision = await named.check("https://site.test/only-for-others")
        assert decision.verdict is not None
        assert decision.verdict.agent == "examplebot"
    agents = {exchange.request.header("user-agent") for exchange in local_server.exchanges}
    assert agents == {browser}


async def test_d9_crawl_delay_request_rate_sitemaps(
    local_server: LocalServer, loopback_client: httpx.AsyncClient
) -> None:
    """D9: the extensions come from the matched group; none without rules."""
    serve(local_server, "site.test", respond(200, ROBOTS))
    serve(local_server, "none.test", respond(404))
    async with RobotsClient("OtherBot/2", http_client=loopback_client) as client:
        assert await client.crawl_delay("https://site.test/x") == 2.5
        assert await client.request_rate("https://site.test/x") == RequestRate(3, 10.0)
        assert await client.sitemaps("https://site.test/") == ["https://site.test/sitemap.xml"]
        assert await client.crawl_delay("https://none.test/") is None
        assert await client.request_rate("https://none.test/") is None
        assert await client.sitemaps("https://none.test/") == []
    assert local_server.hits[("site.test", "/robots.txt")] == 1


async def test_robots_record(local_server: LocalServer, robots_client: RobotsClient) -> None:
    """Issue 4: robots(url) is the fetched record: parsed file, status, headers, times, chain."""
    serve(local_server, "site.test", respond(200, ROBOTS, headers={"x-served-by": "local"}))
    serve(local_server, "gone.test", respond(410))
    record = await robots_client.robots("https://site.test/anything")
    assert record.robots is not None
    assert record.robots.sitemaps == ["https://site.test/sitemap.xml"]
    assert record.body == ROBOTS
    assert record.status == 200
    assert ("x-served-by", "local") in record.headers
    assert record.fetched_at == T0
    assert record.robots_url == "https://site.test/robots.txt"
    assert record.expires_at == T0 + DAY
    assert record.basis is Basis.FETCHED
    gone = await robots_client.robots("https://gone.test/")
    assert gone.robots is None
    assert gone.outcome is Outcome.FULL_ALLOW
    assert gone.status == 410


# --- arguments (D10, D17) -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        pytest.param("/relative/path", id="relative"),
        pytest.param("site.test/page", id="no-scheme"),
        pytest.param("ftp://site.test/file", id="ftp"),
        pytest.param("mailto:someone@site.test", id="mailto"),
        pytest.param("http:///path", id="no-host"),
        pytest.param("https://:443/", id="port-only"),
        pytest.param("", id="empty"),
    ],
)
async def test_d17_bad_urls_raise_invalid_url(robots_client: RobotsClient, url: str) -> None:
    """D10/D17: relative, non-http(s) or host-less URLs raise InvalidURL (a ValueError)."""
    for method in (
        robots_client.can_fetch,
        robots_client.check,
        robots_client.robots,
        robots_client.crawl_delay,
        robots_client.sitemaps,
    ):
        with pytest.raises(InvalidURL):
            await method(url)
    with pytest.raises(ValueError, match=r"\S"):
        await robots_client.can_fetch(url)


@pytest.mark.parametrize(
    ("agent", "token"),
    [
        pytest.param("", None, id="empty-agent"),
        pytest.param("   ", None, id="blank-agent"),
        pytest.param(42, None, id="agent-not-a-str"),
        pytest.param("Bot/1\r\nX-Evil: 1", None, id="header-injection"),
        pytest.param(UA, "", id="empty-token"),
        pytest.param(UA, 7, id="token-not-a-str"),
    ],
)
def test_d17_bad_agents_rejected_when_built(agent: object, token: object) -> None:
    """D4/D17: a client with no usable agent is refused when it is built, before any fetch."""
    with pytest.raises(InvalidUserAgent):
        RobotsClient(agent, agent_token=token)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "options",
    [
        pytest.param({"max_concurrent_fetches": 0}, id="no-fetch-slots"),
        pytest.param({"memory_size": -1}, id="negative-memory"),
        pytest.param({"policy": {"max_lifetime": 1}}, id="policy-not-a-CachePolicy"),
    ],
)
def test_d17_bad_options_rejected_when_built(options: dict[str, object]) -> None:
    """D17: bad options are a clear InvalidArgument at construction."""
    with pytest.raises(InvalidArgument):
        RobotsClient(UA, **options)  # type: ignore[arg-type]


async def test_closed_client_refuses_checks(
    local_server: LocalServer, loopback_client: httpx.AsyncClient
) -> None:
    """A closed client says so instead of fetching through a closed connection pool."""
    client = RobotsClient(UA, http_client=loopback_client)
    await client.aclose()
    await client.aclose()  # twice is fine
    with pytest.raises(RuntimeError, match="closed"):
        await client.can_fetch("https://site.test/")
    with pytest.raises(RuntimeError, match="closed"):
        await client.__aenter__()


# --- every status class (D11) -------------------------------------------------------------------

H = "HTTP/1.1"
STATUS_TABLE = [
    pytest.param(
        respond(200, b"User-agent: *\nDisallow: /x\n"), Outcome.CONDITIONAL, 200, id="200"
    ),
    pytest.param(respond(204), Outcome.CONDITIONAL, 204, id="204-empty-allows"),
    pytest.param(
        respond(206, b"User-agent: *\nDisallow: /x\n"), Outcome.CONDITIONAL, 206, id="206"
    ),
    pytest.param(redirect(None, 302), Outcome.FULL_ALLOW, 302, id="3xx-without-location"),
    pytest.param(redirect("/robots.txt", 301), Outcome.FULL_ALLOW, 301, id="3xx-loop"),
    pytest.param(respond(400), Outcome.FULL_ALLOW, 400, id="400"),
    pytest.param(respond(401), Outcome.FULL_ALLOW, 401, id="401"),
    pytest.param(respond(403), Outcome.FULL_ALLOW, 403, id="403"),
    pytest.param(respond(404), Outcome.FULL_ALLOW, 404, id="404"),
    pytest.param(respond(410), Outcome.FULL_ALLOW, 410, id="410"),
    pytest.param(respond(429), Outcome.FULL_DISALLOW, 429, id="429"),
    pytest.param(respond(500), Outcome.FULL_DISALLOW, 500, id="500"),
    pytest.param(respond(502), Outcome.FULL_DISALLOW, 502, id="502"),
    pytest.param(respond(503), Outcome.FULL_DISALLOW, 503, id="503"),
    pytest.param(script(RESET), Outcome.FULL_DISALLOW, None, id="reset-before-answer"),
    pytest.param(
        script(f"{H} 200 OK\r\ncontent-le".encode(), RESET),
        Outcome.FULL_DISALLOW,
        None,
        id="reset-mid-headers",
    ),
    pytest.param(
        script(f"{H} 200 OK\r\ncontent-length: 100\r\n\r\nUser-agent: *\n".encode()),
        Outcome.FULL_DISALLOW,
        None,
        id="short-body",
    ),
    pytest.param(script(b"garbage\r\n\r\n"), Outcome.FULL_DISALLOW, None, id="malformed"),
]


@pytest.mark.parametrize(("handler", "outcome", "status"), STATUS_TABLE)
async def test_d11_every_status_class_mapped(
    local_server: LocalServer,
    robots_client: RobotsClient,
    handler: Callable[[Request, Connection], object],
    outcome: Outcome,
    status: int | None,
) -> None:
    """D11: 2xx conditional; 3xx given up on and 4xx full allow; 429, 5xx, network errors deny."""
    serve(local_server, "site.test", handler)
    decision = await bounded(robots_client.check("https://site.test/x/page"))
    assert isinstance(decision, Decision)
    assert (decision.outcome, decision.status) == (outcome, status)
    expected = {Outcome.FULL_ALLOW: True, Outcome.FULL_DISALLOW: False}.get(outcome)
    if outcome is Outcome.CONDITIONAL:
        expected = status == 204  # `Disallow: /x` applies; the empty 204 allows all
    assert decision.allowed is expected
    assert status is not None or decision.record.error  # a network error says what it was
    assert decision.reason


async def test_d11_redirects_followed_and_rules_applied_to_the_original_origin(
    local_server: LocalServer, robots_client: RobotsClient
) -> None:
    """D11: up to 5 redirects to any host; the rules found apply to the origin that asked."""
    for hop in range(5):
        serve(local_server, f"hop{hop}.test", redirect(f"http://hop{hop + 1}.test/robots.txt"))
    serve(local_server, "hop5.test", respond(200, b"User-agent: *\nDisallow: /\n"))
    decision = await robots_client.check("http://hop0.test/page")
    assert decision.allowed is False
    assert decision.outcome is Outcome.CONDITIONAL
    assert len(decision.chain) == 6
    assert str(decision.origin) == "http://hop0.test"


async def test_d11_a_sixth_redirect_is_a_404(
    local_server: LocalServer, robots_client: RobotsClient
) -> None:
    """D11: a 6th redirect counts as 404: full allow."""
    for hop in range(6):
        serve(local_server, f"hop{hop}.test", redirect(f"http://hop{hop + 1}.test/robots.txt"))
    serve(local_server, "hop6.test", respond(200, b"User-agent: *\nDisallow: /\n"))
    decision = await robots_client.check("http://hop0.test/page")
    assert decision.allowed is True
    assert decision.outcome is Outcome.FULL_ALLOW


@pytest.mark.parametrize(
    "handler",
    [
        pytest.param(respond(503), id="503"),
        pytest.param(script(RESET), id="network-error"),
        pytest.param(respond(200, b"User-agent: *\nDisallow: /\n"), id="disallow-all"),
    ],
)
async def test_d5_robots_txt_itself_is_always_allowed(
    local_server: LocalServer, robots_client: RobotsClient, handler: object
) -> None:
    """D5: /robots.txt is allowed even under full disallow or `Disallow: /`."""
    serve(local_server, "site.test", handler)  # type: ignore[arg-type]
    assert await robots_client.can_fetch("https://site.test/robots.txt") is True
    assert await robots_client.can_fetch("https://site.test/robots.txt?x=1") is True
    assert await robots_client.can_fetch("https://site.test/other") is False
    decision = await robots_client.check("https://site.test/robots.txt")
    assert decision.allowed is True
    assert "D5" in decision.reason


# --- scale and single-flight (D12, D15) -----------------------------------------------------------


async def test_d12_2000_cold_origins_by_host_each_fetched_once(
    local_server: LocalServer, loopback_client: httpx.AsyncClient
) -> None:
    """D12/D15: 2,000 origins at once on one server, told apart by Host: all right, one GET each."""

    def per_host(request: Request) -> Callable[[Request, Connection], object]:
        return respond(200, f"User-agent: *\nDisallow: /{request.host}/\n")

    from tests.servers import dynamic

    local_server.route(dynamic(per_host), path="/robots.txt")  # type: ignore[arg-type]
    hosts = [f"site{index}.test" for index in range(2000)]
    async with RobotsClient(UA, http_client=loopback_client) as client:
        checks = []
        for host in hosts:
            checks.append(client.can_fetch(f"http://{host}/{host}/secret"))  # disallowed
            checks.append(client.can_fetch(f"http://{host}/public"))  # allowed
        answers = await asyncio.wait_for(asyncio.gather(*checks), 120)
        assert answers == [False, True] * 2000
        assert all(local_server.hits[(host, "/robots.txt")] == 1 for host in hosts)
        assert len(local_server.exchanges) == 2000
        assert await client.can_fetch(f"http://{hosts[0]}/{hosts[0]}/x") is False
    assert len(local_server.exchanges) == 2000


async def test_d15_500_checks_of_a_slow_origin_one_request(
    local_server: LocalServer, robots_client: RobotsClient
) -> None:
    """D15: 500 concurrent checks while the server holds its answer: exactly one request."""
    arrived, release = asyncio.Event(), asyncio.Event()
    held = gated(release, respond(200, b"User-agent: *\nDisallow: /a\n"))

    async def slow(request: Request, connection: Connection) -> None:
        arrived.set()
        await held(request, connection)

    serve(local_server, "slow.test", slow)
    checks = [
        asyncio.create_task(robots_client.can_fetch(f"https://slow.test/{'a' if i % 2 else 'b'}"))
        for i in range(500)
    ]
    await asyncio.wait_for(arrived.wait(), GUARD)
    for _ in range(10):
        await asyncio.sleep(0)  # let every check reach the cache while the answer is held
    release.set()
    answers = await asyncio.wait_for(asyncio.gather(*checks), GUARD)
    assert answers == [i % 2 == 0 for i in range(500)]
    assert local_server.hits[("slow.test", "/robots.txt")] == 1


async def test_d12_fetch_bound_reaches_the_wire(
    local_server: LocalServer, loopback_client: httpx.AsyncClient
) -> None:
    """D12: with max_concurrent_fetches=4 the server never sees more than 4 requests at once."""
    active = 0
    peak = 0

    async def paced(request: Request, connection: Connection) -> None:
        nonlocal active, peak
        active += 1
        peak = max(peak, active)
        await asyncio.sleep(0.05)  # server-side pacing so requests overlap; nothing is timed
        active -= 1
        await respond(404)(request, connection)

    local_server.route(paced, path="/robots.txt")
    async with RobotsClient(UA, http_client=loopback_client, max_concurrent_fetches=4) as client:
        checks = [client.can_fetch(f"http://o{i}.test/") for i in range(40)]
        assert all(await asyncio.wait_for(asyncio.gather(*checks), 60))
    assert len(local_server.exchanges) == 40
    assert peak <= 4  # without the bound all 40 overlap


# --- hot path ---------------------------------------------------------------------------------


async def test_hot_path_no_io_no_suspension(
    local_server: LocalServer, robots_client: RobotsClient
) -> None:
    """Issue 4: a check of a fresh cached origin makes no request and never suspends."""
    serve(local_server, "site.test", respond(200, ROBOTS))
    await robots_client.can_fetch("https://site.test/")
    before = len(local_server.exchanges)
    for path, expected in (("/private/ok", True), ("/only-for-others/1", False), ("/", True)):
        coroutine = robots_client.can_fetch(f"https://site.test{path}")
        with pytest.raises(StopIteration) as done:
            coroutine.send(None)  # runs to the end at once: no await ever suspended
        assert done.value.value is expected
    assert len(local_server.exchanges) == before


# --- caching through the client (D13, D14), respx and the clock ----------------------------------


@pytest.fixture
def router() -> respx.MockRouter:
    return respx.MockRouter(assert_all_called=False)


@pytest.fixture
async def mocked(
    router: respx.MockRouter, clock: FakeClock
) -> AsyncIterator[tuple[RobotsClient, respx.Route]]:
    route = router.get("https://site.test/robots.txt")
    transport = httpx.MockTransport(router.async_handler)
    # No refresh-ahead: these tests count requests at exact lifetimes (issue 7 tests it).
    policy = CachePolicy(refresh_ahead=0.0)
    async with (
        httpx.AsyncClient(transport=transport) as http,
        RobotsClient(UA, http_client=http, clock=clock, policy=policy) as client,
    ):
        yield client, route


def answer(status: int = 200, body: bytes = ROBOTS, **headers: str) -> httpx.Response:
    return httpx.Response(
        status, content=body, headers={k.replace("_", "-"): v for k, v in headers.items()}
    )


async def test_d13_max_age_through_the_client(
    mocked: tuple[RobotsClient, respx.Route], clock: FakeClock
) -> None:
    """D13: Cache-Control max-age sets when the client asks again."""
    client, route = mocked
    route.mock(return_value=answer(cache_control="public, max-age=600"))
    await client.can_fetch("https://site.test/a")
    clock.advance(599)
    await client.can_fetch("https://site.test/b")
    assert route.call_count == 1
    clock.advance(1)
    await client.can_fetch("https://site.test/c")
    assert route.call_count == 2


async def test_d13_default_day_through_the_client(
    mocked: tuple[RobotsClient, respx.Route], clock: FakeClock
) -> None:
    """D13: with no caching headers the copy lasts 24 h."""
    client, route = mocked
    route.mock(return_value=answer())
    await client.can_fetch("https://site.test/a")
    clock.advance(DAY - 1)
    await client.can_fetch("https://site.test/a")
    assert route.call_count == 1
    clock.advance(1)
    await client.can_fetch("https://site.test/a")
    assert route.call_count == 2


@pytest.mark.parametrize("value", ["no-store", "no-cache", "max-age=0", "private, max-age=0"])
async def test_d13_refetch_every_check(
    mocked: tuple[RobotsClient, respx.Route], value: str
) -> None:
    """D13: no-store / no-cache / max-age=0: each check fetches again (no minimum TTL)."""
    client, route = mocked
    route.mock(return_value=answer(cache_control=value))
    for _ in range(3):
        assert await client.can_fetch("https://site.test/only-for-others") is False
    assert route.call_count == 3


async def test_d13_expires_through_the_client(
    mocked: tuple[RobotsClient, respx.Route], clock: FakeClock
) -> None:
    """D13: Expires - Date when there is no max-age."""
    client, route = mocked
    route.mock(
        return_value=answer(
            date="Tue, 14 Nov 2023 22:13:20 GMT", expires="Tue, 14 Nov 2023 23:13:20 GMT"
        )
    )
    await client.can_fetch("https://site.test/")
    clock.advance(3599)
    await client.can_fetch("https://site.test/")
    assert route.call_count == 1
    clock.advance(1)
    await client.can_fetch("https://site.test/")
    assert route.call_count == 2


async def test_d14_stale_copy_on_503_explained(
    mocked: tuple[RobotsClient, respx.Route], clock: FakeClock
) -> None:
    """D14: the last good copy is served on 503, marked stale, and explain() says so."""
    client, route = mocked
    route.mock(return_value=answer(cache_control="max-age=60"))
    await client.check("https://site.test/")
    route.mock(return_value=httpx.Response(503, headers={"retry-after": "120"}))
    clock.advance(60)
    decision = await client.check("https://site.test/only-for-others")
    assert decision.allowed is False
    assert decision.stale is True
    assert decision.status == 200  # the copy's status; the failure is in the record
    assert decision.age == 60
    assert decision.record.failure is not None
    assert decision.record.failure.status == 503
    text = decision.explain()
    assert "stale copy" in text
    assert "the latest: 503" in text
    assert "next retry at 2023-11-14T22:16:20Z" in text
    assert route.call_count == 2
    clock.advance(119)
    await client.check("https://site.test/")
    assert route.call_count == 2  # Retry-After: 120 is honoured
    route.mock(return_value=answer(cache_control="max-age=60"))
    clock.advance(1)
    await client.check("https://site.test/")  # answered stale at once, the retry runs behind
    await client.cache.join()
    fresh = await client.check("https://site.test/")
    assert fresh.stale is False
    assert route.call_count == 3


async def test_d14_no_copy_full_disallow_then_allow_after_30_days(
    mocked: tuple[RobotsClient, respx.Route], clock: FakeClock
) -> None:
    """D14: a site down from the start is fully disallowed, then after 30 days fully allowed."""
    client, route = mocked
    route.mock(return_value=httpx.Response(500))
    assert await client.can_fetch("https://site.test/page") is False
    while clock.now < T0 + 30 * DAY:
        clock.advance(3600)
        await client.can_fetch("https://site.test/page")
        await client.cache.join()
    decision = await client.check("https://site.test/page")
    assert decision.allowed is True
    assert decision.outcome is Outcome.FULL_ALLOW
    assert decision.record.basis is Basis.GAVE_UP
    assert "30 days" in decision.explain()


async def test_policy_is_settable_through_the_client(
    router: respx.MockRouter, clock: FakeClock
) -> None:
    """D13: the cap and the other numbers are settable on the client."""
    route = router.get("https://site.test/robots.txt").mock(
        return_value=answer(cache_control="max-age=864000")
    )
    policy = CachePolicy(max_lifetime=2 * DAY)
    async with (
        httpx.AsyncClient(transport=httpx.MockTransport(router.async_handler)) as http,
        RobotsClient(UA, http_client=http, clock=clock, policy=policy) as client,
    ):
        await client.can_fetch("https://site.test/")
        clock.advance(2 * DAY)
        await client.can_fetch("https://site.test/")
    assert route.call_count == 2


# --- ownership ----------------------------------------------------------------------------------


async def test_given_http_client_is_left_open(router: respx.MockRouter) -> None:
    """Issue 4: an http_client passed in is reused and not closed by us."""
    router.get("https://site.test/robots.txt").mock(return_value=answer())
    async with httpx.AsyncClient(transport=httpx.MockTransport(router.async_handler)) as http:
        async with RobotsClient(UA, http_client=http) as client:
            assert await client.can_fetch("https://site.test/private/ok")
        assert not http.is_closed


async def test_own_http_client_is_closed_and_follows_no_redirects() -> None:
    """Issue 4: without http_client one is made (redirects left to the fetcher) and closed."""
    client = RobotsClient(UA)
    http = client._http
    assert http.follow_redirects is False
    await client.aclose()
    assert http.is_closed
