"""Status-policy presets through the real client (issue 7; DECISIONS D11, D14, D17) on the
local server. tests/test_outcome.py checks each cell of the table in isolation; here every cell
of GOOGLE and RFC9309 is reached by a real HTTP answer, and its two halves are observed: the
outcome (what checks answer) and whether it is a temporary failure (D14: not cached as a rule
set, retried after the 1-minute backoff) or an answer (cached for 24 h). The clock is injected.

Categories:
- GOOGLE preset, every cell: 2xx, 3xx given up on (loop, no Location, a 6th redirect),
  401/403, 429, other 4xx, 5xx, network errors (D11)
- RFC9309 preset, every cell (RFC 9309 2.3.1.1-2.3.1.4): 429 is "unavailable", full allow
- the table drives D14: a 429 keeps the last good copy under GOOGLE, replaces it under RFC9309
- switches: 401/403 as full disallow; network errors as full allow (still retried); 5xx as full
  allow after N days of failure (injected clock; network errors and 429 untouched; recovery)
- invalid combinations and non-policies rejected when RobotsClient is built, before any request
"""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import replace
from typing import TYPE_CHECKING

import pytest

from robotsclient._client import RobotsClient
from robotsclient._exceptions import InvalidArgument
from robotsclient._outcome import (
    GOOGLE,
    RFC9309,
    Cell,
    InvalidPolicy,
    Outcome,
    StatusClass,
    StatusPolicy,
)
from robotsclient._policy import DAY, Basis, CachePolicy
from tests.clock import T0, FakeClock
from tests.servers import RESET, Handler, redirect, respond, script

if TYPE_CHECKING:
    from collections.abc import Callable

    import httpx

    from tests.servers import LocalServer

UA = "ExampleBot/1.0 (+https://example.com/bot)"
GUARD = 10.0  # seconds: a hung check fails the test instead of hanging it (a bound, not a timing)
FILE = b"User-agent: *\nDisallow: /private\n"
PAST_BACKOFF = 61.0  # D14: the first retry of a failure is due 1 min after it
ALLOW, DENY, COND = Outcome.FULL_ALLOW, Outcome.FULL_DISALLOW, Outcome.CONDITIONAL
NO_REFRESH_AHEAD = CachePolicy(refresh_ahead=0.0)  # requests are counted at exact times


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


Routes = tuple[tuple[str, Handler], ...]


def six_redirects() -> Routes:
    hops = ["site.test"] + [f"hop{index}.test" for index in range(1, 7)]
    routes = [
        (host, redirect(f"http://{after}/robots.txt")) for host, after in itertools.pairwise(hops)
    ]
    return (*routes, ("hop6.test", respond(200, FILE)))


# One row per way of reaching a cell: (routes, final status, GOOGLE (outcome, temporary),
# RFC9309 (outcome, temporary)). Every StatusClass appears at least once.
CELLS: list[tuple[str, StatusClass, Routes, int | None, tuple[Outcome, bool], tuple[Outcome, bool]]] = [
    ("200", StatusClass.SUCCESS, (("site.test", respond(200, FILE)),), 200, (COND, False), (COND, False)),
    ("206", StatusClass.SUCCESS, (("site.test", respond(206, FILE)),), 206, (COND, False), (COND, False)),
    ("3xx-loop", StatusClass.REDIRECT_EXHAUSTED, (("site.test", redirect("/robots.txt")),), 301, (ALLOW, False), (ALLOW, False)),
    ("3xx-no-location", StatusClass.REDIRECT_EXHAUSTED, (("site.test", redirect(None, 302)),), 302, (ALLOW, False), (ALLOW, False)),
    ("3xx-sixth-redirect", StatusClass.REDIRECT_EXHAUSTED, six_redirects(), 301, (ALLOW, False), (ALLOW, False)),
    ("401", StatusClass.UNAUTHORIZED, (("site.test", respond(401)),), 401, (ALLOW, False), (ALLOW, False)),
    ("403", StatusClass.UNAUTHORIZED, (("site.test", respond(403)),), 403, (ALLOW, False), (ALLOW, False)),
    ("429", StatusClass.TOO_MANY_REQUESTS, (("site.test", respond(429)),), 429, (DENY, True), (ALLOW, False)),
    ("400", StatusClass.CLIENT_ERROR, (("site.test", respond(400)),), 400, (ALLOW, False), (ALLOW, False)),
    ("404", StatusClass.CLIENT_ERROR, (("site.test", respond(404)),), 404, (ALLOW, False), (ALLOW, False)),
    ("410", StatusClass.CLIENT_ERROR, (("site.test", respond(410)),), 410, (ALLOW, False), (ALLOW, False)),
    ("500", StatusClass.SERVER_ERROR, (("site.test", respond(500)),), 500, (DENY, True), (DENY, True)),
    ("503", StatusClass.SERVER_ERROR, (("site.test", respond(503)),), 503, (DENY, True), (DENY, True)),
    ("599", StatusClass.SERVER_ERROR, (("site.test", respond(599)),), 599, (DENY, True), (DENY, True)),
    ("network-reset", StatusClass.NETWORK_ERROR, (("site.test", script(RESET)),), None, (DENY, True), (DENY, True)),
]  # fmt: skip


def preset_params(preset: StatusPolicy, column: int) -> list[object]:
    return [
        pytest.param(routes, status, row[column], id=f"{preset.name}-{name}")
        for name, _, routes, status, *row in CELLS
    ]


def test_the_table_above_reaches_every_cell() -> None:
    """Issue 7: the rows below cover every StatusClass of both presets."""
    assert {kind for _, kind, *_ in CELLS} == set(StatusClass)
    for name, kind, _, _, google, rfc in CELLS:
        assert (GOOGLE.cell(kind).outcome, GOOGLE.cell(kind).temporary) == google, name
        assert (RFC9309.cell(kind).outcome, RFC9309.cell(kind).temporary) == rfc, name


async def assert_cell(
    server: LocalServer,
    http: httpx.AsyncClient,
    clock: FakeClock,
    preset: StatusPolicy,
    routes: Routes,
    status: int | None,
    expected: tuple[Outcome, bool],
) -> None:
    """Check the outcome through the client, then whether it was cached or is retried (D14)."""
    outcome, temporary = expected
    for host, handler in routes:
        server.route(handler, host=host, path="/robots.txt")
    async with RobotsClient(
        UA, http_client=http, clock=clock, status_policy=preset, policy=NO_REFRESH_AHEAD
    ) as client:
        decision = await asyncio.wait_for(client.check("http://site.test/private/x"), GUARD)
        assert (decision.outcome, decision.status) == (outcome, status)
        assert decision.allowed is (outcome is ALLOW)  # COND: the file disallows /private
        assert await client.can_fetch("http://site.test/public") is (outcome is not DENY)
        assert (decision.record.failure is not None) is temporary
        assert (decision.record.retry_at == T0 + PAST_BACKOFF - 1) is temporary
        clock.advance(PAST_BACKOFF)
        await client.can_fetch("http://site.test/public")
        await asyncio.wait_for(client.cache.join(), GUARD)
        assert len(server.exchanges_for("site.test")) == (2 if temporary else 1)


@pytest.mark.parametrize(("routes", "status", "expected"), preset_params(GOOGLE, 0))
async def test_google_preset_every_cell_through_the_client(
    local_server: LocalServer,
    loopback_client: httpx.AsyncClient,
    clock: FakeClock,
    routes: Routes,
    status: int | None,
    expected: tuple[Outcome, bool],
) -> None:
    """Issue 7, D11 (GOOGLE, the default): 2xx conditional; 3xx given up on, 401/403 and other
    4xx full allow, cached; 429, 5xx and network errors full disallow, retried (D14)."""
    await assert_cell(local_server, loopback_client, clock, GOOGLE, routes, status, expected)


@pytest.mark.parametrize(("routes", "status", "expected"), preset_params(RFC9309, 1))
async def test_rfc9309_preset_every_cell_through_the_client(
    local_server: LocalServer,
    loopback_client: httpx.AsyncClient,
    clock: FakeClock,
    routes: Routes,
    status: int | None,
    expected: tuple[Outcome, bool],
) -> None:
    """Issue 7, RFC 9309 2.3.1.1-2.3.1.4: 2xx conditional; 3xx past five redirects and every
    4xx, 429 included, "unavailable": full allow, cached; 5xx and network errors
    "unreachable": full disallow, retried."""
    await assert_cell(local_server, loopback_client, clock, RFC9309, routes, status, expected)


async def test_default_is_google(
    local_server: LocalServer, loopback_client: httpx.AsyncClient
) -> None:
    """Issue 7, D11: without status_policy the client uses GOOGLE: 429 is full disallow."""
    local_server.route(respond(429), host="site.test", path="/robots.txt")
    async with RobotsClient(UA, http_client=loopback_client) as client:
        assert client.cache.statuses is GOOGLE
        assert await client.can_fetch("http://site.test/") is False


@pytest.mark.parametrize(
    ("preset", "stale", "allowed"),
    [
        pytest.param(GOOGLE, True, False, id="google-keeps-the-copy"),
        pytest.param(RFC9309, False, True, id="rfc9309-429-is-the-answer"),
    ],
)
async def test_the_table_decides_what_a_429_does_to_a_good_copy(
    local_server: LocalServer,
    loopback_client: httpx.AsyncClient,
    clock: FakeClock,
    preset: StatusPolicy,
    stale: bool,
    allowed: bool,
) -> None:
    """Issue 7, D14: under GOOGLE a 429 is temporary: the last good copy is served, stale;
    under RFC9309 it is an answer ("unavailable"): it replaces the copy, full allow."""
    answers = iter([respond(200, FILE, headers={"cache-control": "max-age=60"}), respond(429)])
    local_server.route(lambda r, c: next(answers)(r, c), host="site.test", path="/robots.txt")
    async with RobotsClient(
        UA, http_client=loopback_client, clock=clock, status_policy=preset, policy=NO_REFRESH_AHEAD
    ) as client:
        await client.check("http://site.test/private/x")
        clock.advance(60)
        decision = await client.check("http://site.test/private/x")
    assert decision.stale is stale
    assert decision.allowed is allowed


# --- switches -----------------------------------------------------------------------------------


@pytest.mark.parametrize("status", [401, 403])
async def test_switch_auth_as_disallow(
    local_server: LocalServer, loopback_client: httpx.AsyncClient, clock: FakeClock, status: int
) -> None:
    """Issue 7 switch: 401/403 as full disallow (a site locking crawlers out); an answer, so
    cached like any 4xx, not retried; other 4xx stay full allow."""
    local_server.route(respond(status), host="site.test", path="/robots.txt")
    local_server.route(respond(404), host="other.test", path="/robots.txt")
    policy = GOOGLE.with_auth_as_disallow()
    await assert_cell(local_server, loopback_client, clock, policy, (), status, (DENY, False))
    async with RobotsClient(UA, http_client=loopback_client, status_policy=policy) as client:
        assert await client.can_fetch("http://other.test/x") is True


async def test_switch_network_errors_as_allow(
    local_server: LocalServer, loopback_client: httpx.AsyncClient, clock: FakeClock
) -> None:
    """Issue 7 switch (archiving crawlers): a network error is full allow, but still a failure
    that is retried with backoff (D14); a 5xx stays full disallow."""
    policy = RFC9309.with_network_errors_as_allow()
    await assert_cell(
        local_server,
        loopback_client,
        clock,
        policy,
        (("site.test", script(RESET)),),
        None,
        (ALLOW, True),
    )
    local_server.route(respond(503), host="down.test", path="/robots.txt")
    async with RobotsClient(UA, http_client=loopback_client, status_policy=policy) as client:
        assert await client.can_fetch("http://down.test/x") is False


async def test_switches_combine_through_the_client(
    local_server: LocalServer, loopback_client: httpx.AsyncClient
) -> None:
    """Issue 7: RFC9309 + 401/403 disallow + network allow, each cell as switched."""
    policy = RFC9309.with_auth_as_disallow().with_network_errors_as_allow()
    for host, handler in (
        ("auth.test", respond(403)),
        ("reset.test", script(RESET)),
        ("busy.test", respond(429)),
        ("down.test", respond(500)),
        ("ok.test", respond(200, FILE)),
    ):
        local_server.route(handler, host=host, path="/robots.txt")
    async with RobotsClient(UA, http_client=loopback_client, status_policy=policy) as client:
        answers = {
            host: await client.can_fetch(f"http://{host}/private")
            for host in ("auth.test", "reset.test", "busy.test", "down.test", "ok.test")
        }
    assert answers == {
        "auth.test": False,
        "reset.test": True,
        "busy.test": True,
        "down.test": False,
        "ok.test": False,
    }


async def test_switch_5xx_allow_after_n_days(
    local_server: LocalServer, loopback_client: httpx.AsyncClient, clock: FakeClock
) -> None:
    """Issue 7 switch, D14: a site answering 503 with no copy is full disallow until it has
    failed for N days (counted from the first failure, on the injected clock), then full allow
    while still retried; when it recovers its rules apply again."""
    down = True
    local_server.route(
        lambda r, c: (respond(503) if down else respond(200, FILE))(r, c),
        host="site.test",
        path="/robots.txt",
    )
    policy = GOOGLE.with_server_errors_allow_after(2)
    async with RobotsClient(
        UA, http_client=loopback_client, clock=clock, status_policy=policy, policy=NO_REFRESH_AHEAD
    ) as client:
        assert await client.can_fetch("http://site.test/page") is False
        clock.advance(2 * DAY - 1)
        assert await client.can_fetch("http://site.test/page") is False  # a retry runs behind
        await asyncio.wait_for(client.cache.join(), GUARD)
        assert await client.can_fetch("http://site.test/page") is False
        requests = len(local_server.exchanges_for("site.test"))
        assert requests == 2
        clock.advance(1)  # two days since the first failure; the next retry is not due yet
        decision = await client.check("http://site.test/page")
        assert decision.allowed is True
        assert decision.outcome is ALLOW
        assert decision.status == 503
        assert decision.record.basis is Basis.FAILURE
        assert decision.record.failing_since == T0
        assert len(local_server.exchanges_for("site.test")) == requests  # no fetch needed
        clock.advance(3600)
        assert await client.can_fetch("http://site.test/private") is True
        await asyncio.wait_for(client.cache.join(), GUARD)
        assert len(local_server.exchanges_for("site.test")) == requests + 1  # still retried
        down = False
        clock.advance(3600)
        await client.can_fetch("http://site.test/private")
        await asyncio.wait_for(client.cache.join(), GUARD)
        recovered = await client.check("http://site.test/private")
        assert recovered.allowed is False  # the file's rules again
        assert recovered.record.failure is None


@pytest.mark.parametrize(
    "handler",
    [
        pytest.param(script(RESET), id="network-error"),
        pytest.param(respond(429), id="429-is-not-5xx"),
    ],
)
async def test_switch_5xx_allow_after_n_days_leaves_other_failures(
    local_server: LocalServer,
    loopback_client: httpx.AsyncClient,
    clock: FakeClock,
    handler: Handler,
) -> None:
    """Issue 7 switch: only 5xx turn into full allow after N days; a network error or a 429
    stays full disallow until D14's 30 days."""
    local_server.route(handler, host="site.test", path="/robots.txt")
    policy = GOOGLE.with_server_errors_allow_after(2)
    async with RobotsClient(
        UA, http_client=loopback_client, clock=clock, status_policy=policy, policy=NO_REFRESH_AHEAD
    ) as client:
        assert await client.can_fetch("http://site.test/page") is False
        clock.advance(3 * DAY)
        assert await client.can_fetch("http://site.test/page") is False
        await asyncio.wait_for(client.cache.join(), GUARD)
        assert await client.can_fetch("http://site.test/page") is False


# --- invalid combinations, rejected when the client is built ---------------------------------------


def _cells(change: Callable[[StatusClass, Cell], Cell]) -> tuple[tuple[StatusClass, Cell], ...]:
    return tuple((kind, change(kind, cell)) for kind, cell in GOOGLE.cells)


ALLOW_ALL_5XX = StatusPolicy(
    "x", _cells(lambda k, c: Cell(ALLOW) if k is StatusClass.SERVER_ERROR else c)
)


@pytest.mark.parametrize(
    "status_policy",
    [
        pytest.param(
            StatusPolicy("x", _cells(lambda k, c: Cell(ALLOW) if k is StatusClass.SUCCESS else c)),
            id="2xx-not-conditional",
        ),
        pytest.param(
            StatusPolicy(
                "x", _cells(lambda k, c: Cell(COND, True) if k is StatusClass.SUCCESS else c)
            ),
            id="2xx-temporary",
        ),
        pytest.param(
            StatusPolicy(
                "x", _cells(lambda k, c: Cell(COND) if k is StatusClass.CLIENT_ERROR else c)
            ),
            id="404-conditional",
        ),
        pytest.param(StatusPolicy("x", GOOGLE.cells[1:]), id="a-cell-missing"),
        pytest.param(StatusPolicy("x", (*GOOGLE.cells, GOOGLE.cells[0])), id="a-cell-twice"),
        pytest.param(replace(GOOGLE, server_errors_allow_after=0.0), id="allow-after-0-days"),
        pytest.param(replace(GOOGLE, server_errors_allow_after=-DAY), id="allow-after-negative"),
        pytest.param(
            replace(ALLOW_ALL_5XX, server_errors_allow_after=DAY), id="5xx-already-allowed"
        ),
    ],
)
def test_invalid_combinations_rejected_when_the_client_is_built(
    local_server: LocalServer, status_policy: StatusPolicy
) -> None:
    """Issue 7, D17: a status table that cannot work is refused by RobotsClient(...) with a
    clear InvalidPolicy (an InvalidArgument, a ValueError), before any request."""
    with pytest.raises(InvalidPolicy) as raised:
        RobotsClient(UA, status_policy=status_policy)
    assert isinstance(raised.value, InvalidArgument)
    assert isinstance(raised.value, ValueError)
    assert len(str(raised.value)) > 20
    assert local_server.exchanges == []


@pytest.mark.parametrize(
    "status_policy",
    [
        pytest.param("rfc9309", id="a-name"),
        pytest.param({"5xx": "allow"}, id="a-dict"),
        pytest.param(GOOGLE.cells, id="bare-cells"),
    ],
)
def test_a_non_policy_is_rejected_when_the_client_is_built(status_policy: object) -> None:
    """Issue 7, D17: bad caller input raises a clear InvalidArgument naming the parameter, not
    an AttributeError from deep inside."""
    with pytest.raises(InvalidArgument, match="status_policy must be a StatusPolicy"):
        RobotsClient(UA, status_policy=status_policy)  # type: ignore[arg-type]
