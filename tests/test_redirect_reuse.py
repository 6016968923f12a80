"""Redirect-target reuse through the client (issue 7; DECISIONS D10, D11, D14) on the local server.

When one origin's robots.txt redirects to another origin's `/robots.txt` (that exact path, no
query), the answer is cached for the target origin too; any other target is cached only for the
origin that asked. The clock is injected; nothing sleeps.

Categories:
- reuse: a.test -> 301 -> b.test/robots.txt, the later check of b.test makes no request; the
  http -> https move of one host; a 404 at the target (an answer) is reused; in a chain of two
  hops only the final origin gets the answer
- no reuse: target path not exactly /robots.txt (a query, another file, another case), the
  same origin's other path, a temporary failure (503, reset) at the target
- the reused answer is the target's own: its chain, origin and lifetime; a revalidation
  through the chain renews both origins (a 304 at the target)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from robotsclient._client import RobotsClient
from robotsclient._origin import origin_of
from robotsclient._outcome import Outcome
from robotsclient._policy import CachePolicy
from tests.clock import T0, FakeClock
from tests.servers import RESET, Validators, conditional, dynamic, redirect, respond, script

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    import httpx

    from tests.servers import Handler, LocalServer

UA = "ExampleBot/1.0 (+https://example.com/bot)"
B_FILE = b"User-agent: *\nDisallow: /from-b\n"
OTHER_FILE = b"User-agent: *\nDisallow: /from-other-file\n"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def client(
    local_server: LocalServer, loopback_client: httpx.AsyncClient, clock: FakeClock
) -> AsyncIterator[RobotsClient]:
    # No refresh-ahead: the lifetime test counts requests at the exact end of a lifetime.
    policy = CachePolicy(refresh_ahead=0.0)
    async with RobotsClient(UA, http_client=loopback_client, clock=clock, policy=policy) as made:
        yield made


def requests_to(server: LocalServer, host: str) -> int:
    """Return how many requests the server saw for `host`, any path."""
    return sum(1 for exchange in server.exchanges if exchange.request.host == host)


def by_query(with_query: Handler, without: Handler) -> Handler:
    """Answer `/robots.txt?...` and `/robots.txt` differently (the server routes by path)."""
    return dynamic(lambda request: with_query if "?" in request.target else without)


# --- reuse ----------------------------------------------------------------------------------


async def test_redirect_to_another_origins_robots_txt_is_reused(
    local_server: LocalServer, client: RobotsClient
) -> None:
    """Issue 7, D11: a.test's file is b.test's file; b.test is then answered with no request."""
    local_server.route(redirect("http://b.test/robots.txt"), host="a.test", path="/robots.txt")
    local_server.route(respond(200, B_FILE), host="b.test", path="/robots.txt")
    assert await client.can_fetch("http://a.test/from-b/x") is False  # D11: applies to a.test
    assert requests_to(local_server, "b.test") == 1  # the hop of a.test's fetch
    decision = await client.check("http://b.test/from-b/x")
    assert decision.allowed is False
    assert decision.outcome is Outcome.CONDITIONAL
    assert decision.origin == origin_of("http://b.test/")
    assert decision.chain == ("http://b.test/robots.txt",)  # b.test's own file, no redirect
    assert await client.can_fetch("http://b.test/elsewhere") is True
    assert requests_to(local_server, "b.test") == 1
    assert requests_to(local_server, "a.test") == 1


async def test_http_to_https_move_is_reused_for_the_https_origin(
    local_server: LocalServer, client: RobotsClient
) -> None:
    """Issue 7, D10: http://site.test and https://site.test are two origins; a redirect from one
    to the other's /robots.txt serves both with one file."""
    # The loopback transport serves https as plain http: the two requests come in turn.
    served = iter([redirect("https://site.test/robots.txt"), respond(200, B_FILE)])
    local_server.route(dynamic(lambda request: next(served)), host="site.test", path="/robots.txt")
    assert await client.can_fetch("http://site.test/from-b") is False
    assert len(local_server.exchanges_for("site.test")) == 2
    decision = await client.check("https://site.test/from-b")
    assert decision.allowed is False
    assert decision.chain == ("https://site.test/robots.txt",)
    assert len(local_server.exchanges_for("site.test")) == 2


async def test_a_404_at_the_target_is_reused_as_full_allow(
    local_server: LocalServer, client: RobotsClient
) -> None:
    """Issue 7, D11: a 4xx is an answer, not a failure: b.test has no robots.txt, full allow."""
    local_server.route(redirect("http://b.test/robots.txt"), host="a.test", path="/robots.txt")
    local_server.route(respond(404), host="b.test", path="/robots.txt")
    assert await client.can_fetch("http://a.test/x") is True
    decision = await client.check("http://b.test/x")
    assert decision.outcome is Outcome.FULL_ALLOW
    assert decision.status == 404
    assert requests_to(local_server, "b.test") == 1


async def test_only_the_final_origin_of_a_chain_gets_the_answer(
    local_server: LocalServer, client: RobotsClient
) -> None:
    """Issue 7, D11: a.test -> b.test/robots.txt -> c.test/robots.txt: c.test's file is reused;
    b.test's own answer is a redirect, so b.test is fetched on its own."""
    local_server.route(redirect("http://b.test/robots.txt"), host="a.test", path="/robots.txt")
    local_server.route(redirect("http://c.test/robots.txt"), host="b.test", path="/robots.txt")
    local_server.route(respond(200, B_FILE), host="c.test", path="/robots.txt")
    assert await client.can_fetch("http://a.test/from-b") is False
    assert await client.can_fetch("http://c.test/from-b") is False
    assert requests_to(local_server, "c.test") == 1
    decision = await client.check("http://b.test/from-b")
    assert decision.allowed is False
    assert decision.chain == ("http://b.test/robots.txt", "http://c.test/robots.txt")
    assert requests_to(local_server, "b.test") == 2
    assert requests_to(local_server, "c.test") == 2  # b.test's own fetch went through c.test


async def test_the_reused_answer_lives_as_long_as_the_file_says(
    local_server: LocalServer, client: RobotsClient, clock: FakeClock
) -> None:
    """Issue 7, D13: the target's copy has the file's lifetime; then b.test asks on its own."""
    local_server.route(redirect("http://b.test/robots.txt"), host="a.test", path="/robots.txt")
    local_server.route(
        respond(200, B_FILE, headers={"cache-control": "max-age=300"}),
        host="b.test",
        path="/robots.txt",
    )
    await client.can_fetch("http://a.test/")
    record = await client.robots("http://b.test/")
    assert record.expires_at == T0 + 300
    clock.advance(299)
    await client.can_fetch("http://b.test/")
    assert requests_to(local_server, "b.test") == 1
    clock.advance(1)
    await client.can_fetch("http://b.test/")
    assert requests_to(local_server, "b.test") == 2
    assert local_server.exchanges_for("b.test")[-1].request.target == "/robots.txt"


async def test_a_redirected_copy_is_revalidated_at_its_target(
    local_server: LocalServer, client: RobotsClient, clock: FakeClock
) -> None:
    """Issue 7, D11, D13: a.test's refresh sends its validators along the chain; b.test's 304
    renews a.test's copy (no re-parse), and b.test's reused copy is renewed with it."""
    validators = Validators(body=B_FILE, etag='"b1"', cache_control="max-age=300")
    local_server.route(redirect("http://b.test/robots.txt"), host="a.test", path="/robots.txt")
    local_server.route(conditional(validators), host="b.test", path="/robots.txt")
    first = await client.robots("http://a.test/")
    clock.advance(300)
    renewed = await client.robots("http://a.test/")
    assert validators.not_modified == 1
    assert [e.request.header("if-none-match") for e in local_server.exchanges] == [
        None,
        None,
        '"b1"',
        '"b1"',
    ]
    assert renewed.robots is first.robots
    assert renewed.chain == ("http://a.test/robots.txt", "http://b.test/robots.txt")
    target = await client.robots("http://b.test/")
    assert target.expires_at == T0 + 300 + 300
    assert target.chain == ("http://b.test/robots.txt",)
    assert requests_to(local_server, "b.test") == 2


# --- no reuse -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "target",
    [
        pytest.param("/robots.txt?x=1", id="query"),
        pytest.param("/other.txt", id="other-file"),
        pytest.param("/ROBOTS.TXT", id="other-case"),
        pytest.param("/robots.txt/", id="trailing-slash"),
    ],
)
async def test_a_target_that_is_not_exactly_robots_txt_is_not_reused(
    local_server: LocalServer, client: RobotsClient, target: str
) -> None:
    """Issue 7: only the exact path /robots.txt is another origin's robots.txt; b.test is then
    fetched on its own and its own file applies."""
    local_server.route(redirect(f"http://b.test{target}"), host="a.test", path="/robots.txt")
    local_server.route(respond(200, OTHER_FILE), host="b.test")  # every other path of b.test
    local_server.route(
        by_query(respond(200, OTHER_FILE), respond(200, B_FILE)), host="b.test", path="/robots.txt"
    )
    assert await client.can_fetch("http://a.test/from-other-file") is False
    assert await client.can_fetch("http://a.test/from-b") is True
    assert requests_to(local_server, "b.test") == 1
    assert await client.can_fetch("http://b.test/from-b") is False  # b.test's own file
    assert await client.can_fetch("http://b.test/from-other-file") is True
    assert requests_to(local_server, "b.test") == 2
    assert local_server.exchanges[-1].request.target == "/robots.txt"


async def test_a_redirect_to_the_same_origins_other_path_is_kept_for_that_origin(
    local_server: LocalServer, client: RobotsClient
) -> None:
    """Issue 7, D11: a.test/robots.txt -> a.test/other.txt: the rules apply to a.test, once;
    no other origin is given an answer."""
    local_server.route(redirect("/other.txt"), host="a.test", path="/robots.txt")
    local_server.route(respond(200, OTHER_FILE), host="a.test", path="/other.txt")
    decision = await client.check("http://a.test/from-other-file")
    assert decision.allowed is False
    assert decision.chain == ("http://a.test/robots.txt", "http://a.test/other.txt")
    assert await client.can_fetch("http://a.test/from-b") is True
    assert list(client.cache.hot) == [origin_of("http://a.test/")]
    assert len(local_server.exchanges) == 2


@pytest.mark.parametrize(
    ("failure", "status"),
    [
        pytest.param(respond(503), 503, id="503"),
        pytest.param(respond(429), 429, id="429"),
        pytest.param(script(RESET), None, id="reset"),
    ],
)
async def test_a_temporary_failure_at_the_target_is_not_reused(
    local_server: LocalServer, client: RobotsClient, failure: Handler, status: int | None
) -> None:
    """Issue 7, D14: a 5xx, 429 or network error at the target is no rule set: it is not cached
    for b.test, which is fetched on its own (and gets its own answer)."""
    local_server.route(redirect("http://b.test/robots.txt"), host="a.test", path="/robots.txt")
    answers = iter([failure, respond(200, B_FILE)])
    local_server.route(dynamic(lambda request: next(answers)), host="b.test", path="/robots.txt")
    decision = await client.check("http://a.test/page")
    assert decision.allowed is False
    assert decision.outcome is Outcome.FULL_DISALLOW
    assert decision.status == status
    assert origin_of("http://b.test/") not in client.cache.hot
    own = await client.check("http://b.test/from-b")
    assert own.status == 200
    assert own.allowed is False
    assert await client.can_fetch("http://b.test/page") is True
    assert requests_to(local_server, "b.test") == 2
