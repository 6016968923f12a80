"""Conditional revalidation through the client (issue 7; DECISIONS D11, D13) on the local server.

The local server's `conditional` handler answers 304 when the request's validators match; the
clock is injected and moved by hand, nothing sleeps. Refresh-ahead is off here (these tests
count requests at exact lifetimes; tests/test_refresh_ahead.py covers it).

Categories:
- conditional requests: ETag only, Last-Modified only, both; the refresh sends If-None-Match /
  If-Modified-Since (asserted on the request headers the server saw); the first fetch does not
- a 304 renews: the 304's new Cache-Control sets the next refetch, its missing headers keep the
  stored ones, an old Age does not shorten the renewed lifetime; the body is kept and not parsed
  again (the same RobotsTxt object)
- stray 304s (a 304 to an unconditional request, or with no copy to renew): exactly one extra
  unconditional GET and the full file, never an error or an empty file; a server that answers
  only 304 costs two requests, no loop
- a changed file: a new ETag gives a 200 and the new rules; a validator beyond ASCII is left
  out of the request (D17: never raised)
- savings: 100 unchanged origins re-checked after expiry, 100 requests, all 304, 0 body bytes
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import pytest

from robotsclient._client import RobotsClient
from robotsclient._events import Events, Fetched
from robotsclient._origin import origin_of
from robotsclient._outcome import Outcome
from robotsclient._policy import DAY, CachePolicy
from tests.clock import T0, FakeClock
from tests.servers import Validators, conditional, respond

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    import httpx

    from tests.servers import Connection, Handler, LocalServer, Request

UA = "ExampleBot/1.0 (+https://example.com/bot)"
GUARD = 10.0  # seconds: a hung check fails the test instead of hanging it (a bound, not a timing)
BODY = b"User-agent: *\nDisallow: /private\n"
NEW_BODY = b"User-agent: *\nDisallow: /private\nDisallow: /drafts\n"
LAST_MODIFIED = "Tue, 14 Nov 2023 20:00:00 GMT"
CONDITIONAL_HEADERS = ("if-none-match", "if-modified-since")
NO_REFRESH_AHEAD = CachePolicy(refresh_ahead=0.0)  # requests counted at exact lifetimes


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def fetched() -> list[Fetched]:
    return []


@pytest.fixture
async def client(
    local_server: LocalServer,
    loopback_client: httpx.AsyncClient,
    clock: FakeClock,
    fetched: list[Fetched],
) -> AsyncIterator[RobotsClient]:
    async with RobotsClient(
        UA,
        http_client=loopback_client,
        clock=clock,
        policy=NO_REFRESH_AHEAD,
        events=Events(on_fetched=fetched.append),
    ) as made:
        yield made


def serve(server: LocalServer, host: str, handler: Handler) -> None:
    server.route(handler, host=host, path="/robots.txt")


def in_turn(*handlers: Handler) -> Handler:
    """Answer the n-th request with the n-th handler; the last one answers every later request."""
    left = list(handlers)

    async def handler(request: Request, connection: Connection) -> None:
        chosen = left.pop(0) if len(left) > 1 else left[0]
        await chosen(request, connection)

    return handler


def sent(server: LocalServer, host: str) -> list[dict[str, str | None]]:
    """Return the conditional headers of every robots.txt request the server saw for `host`."""
    return [
        {name: exchange.request.header(name) for name in CONDITIONAL_HEADERS}
        for exchange in server.exchanges_for(host)
    ]


UNCONDITIONAL = dict.fromkeys(CONDITIONAL_HEADERS)


# --- conditional requests and the 304 renewal -------------------------------------------------


@pytest.mark.parametrize(
    ("etag", "last_modified", "expected"),
    [
        pytest.param('"v1"', None, {"if-none-match": '"v1"'}, id="etag-only"),
        pytest.param(None, LAST_MODIFIED, {"if-modified-since": LAST_MODIFIED}, id="lm-only"),
        pytest.param(
            'W/"v1"',
            LAST_MODIFIED,
            {"if-none-match": 'W/"v1"', "if-modified-since": LAST_MODIFIED},
            id="both",
        ),
    ],
)
async def test_expired_copy_is_revalidated_and_a_304_renews_it(
    local_server: LocalServer,
    client: RobotsClient,
    clock: FakeClock,
    etag: str | None,
    last_modified: str | None,
    expected: dict[str, str],
) -> None:
    """Issue 7, D13: the refresh sends the validators; the 304 renews body, rules and lifetime."""
    validators = Validators(
        body=BODY, etag=etag, last_modified=last_modified, cache_control="max-age=600"
    )
    serve(local_server, "site.test", conditional(validators))
    first = await client.robots("https://site.test/")
    clock.advance(600)  # D13: the copy's lifetime is over: the next check refreshes
    validators.cache_control = "public, max-age=3600"  # the 304 brings a new lifetime
    second = await asyncio.wait_for(client.robots("https://site.test/"), GUARD)
    assert sent(local_server, "site.test") == [UNCONDITIONAL, {**UNCONDITIONAL, **expected}]
    assert validators.not_modified == 1
    assert second.robots is first.robots  # not parsed again
    assert second.body is first.body
    assert second.status == 200
    assert second.outcome is Outcome.CONDITIONAL
    assert second.fetched_at == T0 + 600
    assert second.expires_at == T0 + 600 + 3600  # the 304's Cache-Control, not the old 600 s
    assert ("cache-control", "public, max-age=3600") in second.headers
    assert await client.can_fetch("https://site.test/private/x") is False
    assert await client.can_fetch("https://site.test/public") is True
    clock.advance(3599)
    await client.can_fetch("https://site.test/")
    assert len(local_server.exchanges_for("site.test")) == 2
    clock.advance(1)
    third = await client.robots("https://site.test/")
    assert len(local_server.exchanges_for("site.test")) == 3
    assert validators.not_modified == 2
    assert third.robots is first.robots


async def test_a_304_without_caching_headers_keeps_the_stored_ones(
    local_server: LocalServer, client: RobotsClient, clock: FakeClock
) -> None:
    """Issue 7 (RFC 9111 4.3.4): headers a 304 lacks stay as stored: the old max-age again."""
    stored = [("etag", '"v1"'), ("cache-control", "max-age=600"), ("x-kept", "yes")]
    serve(
        local_server,
        "site.test",
        in_turn(respond(200, BODY, headers=stored), respond(304, headers=[("etag", '"v1"')])),
    )
    first = await client.robots("https://site.test/")
    clock.advance(600)
    second = await client.robots("https://site.test/")
    assert sent(local_server, "site.test")[1]["if-none-match"] == '"v1"'
    assert second.robots is first.robots
    assert second.expires_at == T0 + 600 + 600
    assert ("x-kept", "yes") in second.headers


async def test_an_old_age_header_does_not_shorten_the_renewed_lifetime(
    local_server: LocalServer, client: RobotsClient, clock: FakeClock
) -> None:
    """Issue 7, D13: a copy that came through a cache with Age: 500 lived 100 s of its 600; the
    304 (no Age: its answer is new) renews it for the 304's full 600 s, not 100 s again."""
    validators = Validators(
        body=BODY, etag='"v1"', cache_control="max-age=600", extra=[("age", "500")]
    )
    serve(local_server, "site.test", conditional(validators))
    first = await client.robots("https://site.test/")
    assert first.expires_at == T0 + 100
    clock.advance(100)
    validators.extra = []  # the origin server's 304 carries no Age
    second = await client.robots("https://site.test/")
    assert validators.not_modified == 1
    assert second.expires_at == T0 + 100 + 600
    clock.advance(599)
    await client.can_fetch("https://site.test/")
    assert len(local_server.exchanges_for("site.test")) == 2


async def test_a_304_with_cache_control_on_two_lines_keeps_both(
    local_server: LocalServer, client: RobotsClient, clock: FakeClock
) -> None:
    """Issue 7, D13 (RFC 9111 5.2: directives may span several lines): the renewed copy keeps
    every Cache-Control line of the 304, so `max-age=3600` counts though `public` follows it."""
    two_lines = [("etag", '"v1"'), ("cache-control", "max-age=3600"), ("cache-control", "public")]
    serve(
        local_server,
        "site.test",
        in_turn(
            respond(200, BODY, headers={"etag": '"v1"', "cache-control": "max-age=60"}),
            respond(304, headers=two_lines),
        ),
    )
    await client.robots("https://site.test/")
    clock.advance(60)
    second = await client.robots("https://site.test/")
    assert second.expires_at == T0 + 60 + 3600
    assert [v for k, v in second.headers if k == "cache-control"] == ["max-age=3600", "public"]


async def test_a_304_after_failures_restores_the_copy_without_a_download(
    local_server: LocalServer, client: RobotsClient, clock: FakeClock
) -> None:
    """Issue 7, D14: while the origin fails the stale copy is served; the retry that finally
    gets through is conditional, and its 304 makes the same parsed copy fresh again."""
    validators = Validators(body=BODY, etag='"v1"', cache_control="max-age=60")
    serve(
        local_server,
        "site.test",
        in_turn(conditional(validators), respond(503), conditional(validators)),
    )
    first = await client.robots("https://site.test/")
    clock.advance(60)
    stale = await client.check("https://site.test/private/x")
    assert (stale.stale, stale.allowed, stale.record.failures) == (True, False, 1)
    clock.advance(60)  # D14: the first retry is due 1 min after the failure
    await client.can_fetch("https://site.test/private/x")  # answered stale, retried behind
    await asyncio.wait_for(client.cache.join(), GUARD)
    record = await client.robots("https://site.test/")
    assert sent(local_server, "site.test")[2]["if-none-match"] == '"v1"'
    assert validators.not_modified == 1
    assert (record.stale, record.failure, record.failures) == (False, None, 0)
    assert record.robots is first.robots
    assert record.expires_at == T0 + 120 + 60


@pytest.mark.parametrize(
    ("etag", "last_modified", "expected"),
    [
        pytest.param('"caf\xe9"', LAST_MODIFIED, {"if-modified-since": LAST_MODIFIED}, id="etag"),
        pytest.param('"caf\xe9"', "Tue, 14 Nov 2023 20:00:00 GMT\xa0", {}, id="both"),
    ],
)
async def test_a_validator_beyond_ascii_is_left_out_never_raised(
    local_server: LocalServer,
    client: RobotsClient,
    clock: FakeClock,
    etag: str,
    last_modified: str,
    expected: dict[str, str],
) -> None:
    """Issue 7, D17: a server's ETag with a byte beyond ASCII cannot go back in a request
    header; it is left out (the other validator, or an unconditional GET), and the check never
    raises (it used to raise InvalidArgument on every check once the copy expired)."""
    validators = Validators(
        body=BODY, etag=etag, last_modified=last_modified, cache_control="max-age=60"
    )
    serve(local_server, "site.test", conditional(validators))
    first = await client.robots("https://site.test/")
    assert first.headers[0] == ("etag", '"café"')  # kept as received
    for _ in range(2):
        clock.advance(60)
        assert await asyncio.wait_for(client.can_fetch("https://site.test/private"), GUARD) is False
    assert sent(local_server, "site.test")[1:] == [{**UNCONDITIONAL, **expected}] * 2
    assert validators.not_modified == (2 if expected else 0)


async def test_a_changed_file_gives_200_and_the_new_rules(
    local_server: LocalServer, client: RobotsClient, clock: FakeClock
) -> None:
    """Issue 7, D11: a new ETag does not match: the server sends the new file, which is parsed."""
    validators = Validators(body=BODY, etag='"v1"', cache_control="max-age=600")
    serve(local_server, "site.test", conditional(validators))
    first = await client.robots("https://site.test/")
    assert await client.can_fetch("https://site.test/drafts/1") is True
    validators.body, validators.etag = NEW_BODY, '"v2"'
    clock.advance(600)
    second = await client.robots("https://site.test/")
    assert sent(local_server, "site.test")[1]["if-none-match"] == '"v1"'
    assert validators.not_modified == 0
    assert second.status == 200
    assert second.body == NEW_BODY
    assert second.robots is not first.robots
    assert await client.can_fetch("https://site.test/drafts/1") is False
    clock.advance(600)
    await client.robots("https://site.test/")
    assert sent(local_server, "site.test")[2]["if-none-match"] == '"v2"'  # the new validator
    assert validators.not_modified == 1


# --- stray 304s: one extra unconditional GET, the full file -------------------------------------


async def test_a_304_to_the_first_unconditional_fetch_costs_one_extra_get(
    local_server: LocalServer, client: RobotsClient, fetched: list[Fetched]
) -> None:
    """Issue 7, D11: a 304 with nothing cached is not an empty file: one more plain GET."""
    serve(local_server, "site.test", in_turn(respond(304), respond(200, BODY)))
    decision = await asyncio.wait_for(client.check("https://site.test/private/x"), GUARD)
    assert sent(local_server, "site.test") == [UNCONDITIONAL, UNCONDITIONAL]
    assert decision.allowed is False
    assert decision.outcome is Outcome.CONDITIONAL
    assert decision.status == 200
    assert decision.record.body == BODY
    assert decision.record.error is None
    assert [(event.status, event.bytes) for event in fetched] == [(200, len(BODY))]


@pytest.mark.parametrize(
    "first",
    [
        pytest.param(
            respond(200, BODY, headers={"cache-control": "max-age=60"}), id="no-validators"
        ),
        pytest.param(respond(404, headers={"cache-control": "max-age=60"}), id="copy-is-a-404"),
    ],
)
async def test_a_304_with_no_copy_to_renew_costs_one_extra_get(
    local_server: LocalServer, client: RobotsClient, clock: FakeClock, first: Handler
) -> None:
    """Issue 7: a cached answer without validators is refreshed unconditionally; a 304 to that
    is answered by exactly one more unconditional GET, and the full file is used."""
    serve(local_server, "site.test", in_turn(first, respond(304), respond(200, NEW_BODY)))
    await client.robots("https://site.test/")
    clock.advance(60)
    record = await asyncio.wait_for(client.robots("https://site.test/"), GUARD)
    assert sent(local_server, "site.test") == [UNCONDITIONAL] * 3
    assert record.status == 200
    assert record.body == NEW_BODY
    assert record.robots is not None
    assert await client.can_fetch("https://site.test/drafts/x") is False


async def test_a_304_after_the_copy_was_forgotten_costs_one_extra_get(
    local_server: LocalServer, client: RobotsClient
) -> None:
    """Issue 7: with the copy gone (forgotten), a server still answering 304 gets one plain GET
    more and the full file; no validators of the forgotten copy are sent."""
    validators = Validators(body=BODY, etag='"v1"')
    serve(
        local_server,
        "site.test",
        in_turn(conditional(validators), respond(304), respond(200, BODY)),
    )
    await client.robots("https://site.test/")
    await client.cache.forget(origin_of("https://site.test/"))
    record = await client.robots("https://site.test/")
    assert sent(local_server, "site.test") == [UNCONDITIONAL] * 3
    assert record.body == BODY
    assert record.robots is not None


async def test_a_server_that_only_answers_304_costs_two_requests_and_no_error(
    local_server: LocalServer, client: RobotsClient
) -> None:
    """Issue 7, D11: no loop: the extra GET is made once; a 304 that is still no file is a 3xx
    without a usable redirect, full allow (never an exception, never a parsed empty body)."""
    serve(local_server, "site.test", respond(304))
    decision = await asyncio.wait_for(client.check("https://site.test/private/x"), GUARD)
    assert len(local_server.exchanges_for("site.test")) == 2
    assert decision.allowed is True
    assert decision.outcome is Outcome.FULL_ALLOW
    assert decision.status == 304
    assert decision.verdict is None
    await client.check("https://site.test/other")
    assert len(local_server.exchanges_for("site.test")) == 2  # cached like any 3xx given up on


# --- savings -----------------------------------------------------------------------------------


async def test_revalidation_saves_bytes_for_100_unchanged_origins(
    local_server: LocalServer, client: RobotsClient, clock: FakeClock, fetched: list[Fetched]
) -> None:
    """Issue 7 closing note, D13: after expiry, 100 unchanged origins cost 100 requests, all
    answered 304, with 0 body bytes, against the first round's full bodies."""
    validators = Validators(body=BODY * 20, etag='"same"', last_modified=LAST_MODIFIED)
    local_server.route(conditional(validators), path="/robots.txt")  # every host
    urls = [f"https://site{index}.test/private/x" for index in range(100)]
    assert not any(await asyncio.gather(*(client.can_fetch(url) for url in urls)))
    first_round = list(fetched)
    clock.advance(DAY)  # D13: the default 24 h lifetime is over for all of them
    fetched.clear()
    assert not any(await asyncio.gather(*(client.can_fetch(url) for url in urls)))
    assert len(local_server.exchanges) == 200
    assert validators.not_modified == 100
    assert len(fetched) == 100
    assert {event.status for event in first_round} == {200}
    assert sum(event.bytes for event in first_round) == 100 * len(validators.body)
    assert all(event.revalidated for event in fetched)
    assert sum(event.bytes for event in fetched) == 0
    assert {str(event.origin) for event in fetched} == {f"https://site{i}.test" for i in range(100)}
