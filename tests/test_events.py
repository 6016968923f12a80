"""Events through the client (issue 7; DECISIONS D11, D13, D18) on the local server.

`Events(on_fetched=..., on_decided=..., on_rules_changed=...)` callbacks, and the records of the
`robotsclient.events` logger carrying the same fields. The clock is injected; nothing sleeps.

Categories:
- fetched: origin, url, status, outcome, bytes, duration, chain, error for a 200, a redirect,
  a 404, a 503 and a reset (D11); a 304 revalidation reports status 304 and 0 bytes
- decided: url, allowed, reason from check(), and from can_fetch() when a decided hook is set,
  on every call, the cached hot path included (D18)
- rules_changed: an added and a removed rule when the file changes; none when only the ETag
  changes with the same body, none when only comments change
- robustness: a callback that raises is logged and ignored, checks go on; a coroutine
  function or non-callable is refused when built (D17), a coroutine returned is closed
- logging: the same fields as record attributes on logger "robotsclient.events"
"""

from __future__ import annotations

import asyncio
import gc
import logging
from dataclasses import fields
from typing import TYPE_CHECKING

import pytest

from robotsclient._client import RobotsClient
from robotsclient._events import Decided, Events, Fetched, RulesChanged
from robotsclient._exceptions import InvalidArgument
from robotsclient._origin import origin_of
from robotsclient._outcome import Outcome
from robotsclient._policy import CachePolicy
from tests.clock import FakeClock
from tests.servers import RESET, Validators, conditional, redirect, respond, script

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    import httpx

    from tests.servers import Handler, LocalServer

UA = "ExampleBot/1.0 (+https://example.com/bot)"
GUARD = 10.0  # seconds: a hung check fails the test instead of hanging it (a bound, not a timing)
OLD = b"""User-agent: *
Disallow: /old
Disallow: /kept

User-agent: OtherBot
Allow: /other-only
"""
NEW = b"""User-agent: *
Disallow: /kept
Disallow: /new

User-agent: OtherBot
Allow: /other-only
"""
OLD_WITH_COMMENTS = b"# reworded comments only\n" + OLD.replace(b"/kept\n", b"/kept  # same\n")
SITE = origin_of("https://site.test/")
LOGGER = "robotsclient.events"


class Seen:
    """Collects every event a client hands to its callbacks."""

    def __init__(self) -> None:
        self.fetched: list[Fetched] = []
        self.decided: list[Decided] = []
        self.changed: list[RulesChanged] = []

    def events(self) -> Events:
        return Events(
            on_fetched=self.fetched.append,
            on_decided=self.decided.append,
            on_rules_changed=self.changed.append,
        )


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def seen() -> Seen:
    return Seen()


@pytest.fixture
async def client(
    local_server: LocalServer, loopback_client: httpx.AsyncClient, clock: FakeClock, seen: Seen
) -> AsyncIterator[RobotsClient]:
    policy = CachePolicy(refresh_ahead=0.0)  # refreshes only when a test expires the copy
    async with RobotsClient(
        UA, http_client=loopback_client, clock=clock, policy=policy, events=seen.events()
    ) as made:
        yield made


def serve(server: LocalServer, host: str, handler: Handler) -> None:
    server.route(handler, host=host, path="/robots.txt")


def event_fields(event: Fetched | Decided | RulesChanged) -> dict[str, object]:
    return {field.name: getattr(event, field.name) for field in fields(event)}


# --- fetched --------------------------------------------------------------------------------


async def test_fetched_has_every_field_for_a_200(
    local_server: LocalServer, client: RobotsClient, seen: Seen
) -> None:
    """Issue 7, D11: origin, status, outcome, bytes, duration, chain and error of one fetch."""
    serve(local_server, "site.test", respond(200, OLD))
    await client.can_fetch("https://site.test/old")
    await client.can_fetch("https://site.test/new")  # cached: no second event
    (event,) = seen.fetched
    assert event.origin == SITE
    assert event.url == "https://site.test/robots.txt"
    assert event.status == 200
    assert event.outcome is Outcome.CONDITIONAL
    assert event.bytes == len(OLD)
    assert event.duration >= 0.0
    assert event.chain == ("https://site.test/robots.txt",)
    assert event.error is None
    assert event.revalidated is False


@pytest.mark.parametrize(
    ("handler", "status", "outcome", "has_error"),
    [
        pytest.param(respond(404, b"no such file"), 404, Outcome.FULL_ALLOW, False, id="404"),
        pytest.param(respond(503, b"down"), 503, Outcome.FULL_DISALLOW, False, id="503"),
        pytest.param(script(RESET), None, Outcome.FULL_DISALLOW, True, id="reset"),
        pytest.param(redirect(None), 301, Outcome.FULL_ALLOW, True, id="3xx-no-location"),
    ],
)
async def test_fetched_reports_failures_and_their_outcome(
    local_server: LocalServer,
    client: RobotsClient,
    seen: Seen,
    handler: Handler,
    status: int | None,
    outcome: Outcome,
    has_error: bool,
) -> None:
    """Issue 7, D11: a crawl can alert on 5xx or unreachable sites: the status (None for a
    network error), its outcome, the error text, and no body bytes counted."""
    serve(local_server, "site.test", handler)
    await asyncio.wait_for(client.can_fetch("https://site.test/x"), GUARD)
    (event,) = seen.fetched
    assert (event.origin, event.status, event.outcome) == (SITE, status, outcome)
    assert event.bytes == 0
    assert bool(event.error) is has_error


async def test_fetched_carries_the_redirect_chain(
    local_server: LocalServer, client: RobotsClient, seen: Seen
) -> None:
    """Issue 7, D11: the chain of URLs requested, the origin that asked, the final status."""
    serve(local_server, "old.test", redirect("https://site.test/robots.txt"))
    serve(local_server, "site.test", respond(200, OLD))
    await client.can_fetch("https://old.test/")
    (event,) = seen.fetched
    assert event.origin == origin_of("https://old.test/")
    assert event.chain == ("https://old.test/robots.txt", "https://site.test/robots.txt")
    assert (event.status, event.bytes) == (200, len(OLD))


async def test_fetched_on_a_304_revalidation_reports_304_and_zero_bytes(
    local_server: LocalServer, client: RobotsClient, clock: FakeClock, seen: Seen
) -> None:
    """Issue 7: a revalidation is a fetch whose server said 304: no body bytes were moved, and
    the outcome is the renewed copy's (conditional)."""
    validators = Validators(body=OLD, etag='"v1"', cache_control="max-age=60")
    serve(local_server, "site.test", conditional(validators))
    await client.can_fetch("https://site.test/")
    clock.advance(60)
    await client.can_fetch("https://site.test/")
    first, second = seen.fetched
    assert (first.status, first.bytes, first.revalidated) == (200, len(OLD), False)
    assert (second.status, second.bytes, second.revalidated) == (304, 0, True)
    assert second.outcome is Outcome.CONDITIONAL
    assert second.origin == SITE
    assert second.error is None
    assert seen.changed == []


# --- decided ------------------------------------------------------------------------------------


async def test_decided_from_check_and_from_can_fetch(
    local_server: LocalServer, client: RobotsClient, seen: Seen
) -> None:
    """Issue 7, D18: every check and, with a decided hook, every can_fetch (the cached path
    included) reports the URL, the verdict and the reason check() gives."""
    serve(local_server, "site.test", respond(200, OLD))
    decision = await client.check("https://site.test/old/page?q=1")
    assert seen.decided == [Decided("https://site.test/old/page?q=1", False, decision.reason)]
    assert "/old" in decision.reason
    assert await client.can_fetch("https://site.test/other-only") is True
    assert await client.can_fetch("https://site.test/kept") is False
    assert [(d.url, d.allowed) for d in seen.decided[1:]] == [
        ("https://site.test/other-only", True),
        ("https://site.test/kept", False),
    ]
    assert all(d.reason for d in seen.decided)
    assert len(seen.fetched) == 1


async def test_decided_for_an_answer_without_rules(
    local_server: LocalServer, client: RobotsClient, seen: Seen
) -> None:
    """Issue 7, D11, D18: a full disallow is decided and explained too."""
    serve(local_server, "site.test", respond(503))
    assert await client.can_fetch("https://site.test/page") is False
    (event,) = seen.decided
    assert event.allowed is False
    assert "503" in event.reason


# --- rules_changed --------------------------------------------------------------------------------


async def test_rules_changed_reports_an_added_and_a_removed_rule(
    local_server: LocalServer, client: RobotsClient, clock: FakeClock, seen: Seen
) -> None:
    """Issue 7: the file changes (new ETag, new body): one event naming the rule added and the
    rule removed, each with its group; unchanged rules are not listed."""
    validators = Validators(body=OLD, etag='"v1"', cache_control="max-age=60")
    serve(local_server, "site.test", conditional(validators))
    await client.can_fetch("https://site.test/")
    assert seen.changed == []  # the first copy is no change
    validators.body, validators.etag = NEW, '"v2"'
    clock.advance(60)
    assert await client.can_fetch("https://site.test/new") is False  # the new rule applies
    (event,) = seen.changed
    assert event.origin == SITE
    assert event.added == ("* | Disallow: /new",)
    assert event.removed == ("* | Disallow: /old",)


@pytest.mark.parametrize(
    ("body", "etag"),
    [
        pytest.param(OLD, '"v2"', id="new-etag-same-body"),
        pytest.param(OLD_WITH_COMMENTS, '"v2"', id="comments-only"),
    ],
)
async def test_no_rules_changed_when_the_rules_are_the_same(
    local_server: LocalServer,
    client: RobotsClient,
    clock: FakeClock,
    seen: Seen,
    body: bytes,
    etag: str,
) -> None:
    """Issue 7: a 200 with a new ETag but the same body, or a body whose rules are the same,
    is fetched (and reported as fetched) but is no rules change."""
    validators = Validators(body=OLD, etag='"v1"', cache_control="max-age=60")
    serve(local_server, "site.test", conditional(validators))
    await client.can_fetch("https://site.test/")
    validators.body, validators.etag = body, etag
    clock.advance(60)
    await client.can_fetch("https://site.test/")
    assert [(e.status, e.bytes) for e in seen.fetched] == [(200, len(OLD)), (200, len(body))]
    assert seen.changed == []


# --- robustness -----------------------------------------------------------------------------------


async def test_a_raising_callback_does_not_break_checks(
    local_server: LocalServer,
    loopback_client: httpx.AsyncClient,
    clock: FakeClock,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Issue 7: watching a crawl must never break it: each failing callback is logged (with its
    traceback) and ignored; the answers stay right."""
    calls: list[str] = []

    def broken(event: object) -> None:
        calls.append(type(event).__name__)
        raise RuntimeError("alerting is down")

    validators = Validators(body=OLD, etag='"v1"', cache_control="max-age=60")
    serve(local_server, "site.test", conditional(validators))
    events = Events(on_fetched=broken, on_decided=broken, on_rules_changed=broken)
    policy = CachePolicy(refresh_ahead=0.0)
    caplog.set_level(logging.ERROR, logger=LOGGER)
    async with RobotsClient(
        UA, http_client=loopback_client, clock=clock, policy=policy, events=events
    ) as client:
        assert await client.can_fetch("https://site.test/old") is False
        assert (await client.check("https://site.test/kept")).allowed is False
        validators.body, validators.etag = NEW, '"v2"'
        clock.advance(60)
        assert await client.can_fetch("https://site.test/old") is True
    assert calls == ["Fetched", "Decided", "Decided", "Fetched", "RulesChanged", "Decided"]
    errors = [r for r in caplog.records if r.name == LOGGER and r.levelno == logging.ERROR]
    assert len(errors) == len(calls)
    assert all(r.exc_info and "alerting is down" in str(r.exc_info[1]) for r in errors)


async def hook(event: object) -> None:  # pragma: no cover - refused before it could run
    raise AssertionError("never called")


@pytest.mark.parametrize("name", ["on_fetched", "on_decided", "on_rules_changed"])
@pytest.mark.parametrize(
    "callback",
    [
        pytest.param(hook, id="coroutine-function"),
        pytest.param("alerts", id="not-callable"),
    ],
)
def test_a_callback_that_could_never_run_is_refused_when_built(name: str, callback: object) -> None:
    """Issue 7, D17: callbacks are called synchronously; an async def (its coroutine would never
    be awaited: silently no event, and a RuntimeWarning) or a non-callable is a clear error."""
    with pytest.raises(InvalidArgument, match=name):
        Events(**{name: callback})  # type: ignore[arg-type]


async def test_a_callable_returning_a_coroutine_is_logged_not_left_unawaited(
    local_server: LocalServer,
    loopback_client: httpx.AsyncClient,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Issue 7: an object with an async __call__ slips past the check; its coroutine is closed
    (no "never awaited" RuntimeWarning, an error under filterwarnings=error) and logged."""

    class AsyncHook:
        async def __call__(self, event: object) -> None:  # pragma: no cover - never awaited
            raise AssertionError("never awaited")

    caplog.set_level(logging.ERROR, logger=LOGGER)
    serve(local_server, "site.test", respond(200, OLD))
    async with RobotsClient(
        UA, http_client=loopback_client, events=Events(on_fetched=AsyncHook())
    ) as client:
        assert await client.can_fetch("https://site.test/old") is False
    gc.collect()  # an unclosed coroutine would warn here
    (record,) = [r for r in caplog.records if r.name == LOGGER]
    assert "coroutine" in record.getMessage()


# --- logging --------------------------------------------------------------------------------------


async def test_logging_records_carry_the_same_fields(
    local_server: LocalServer,
    client: RobotsClient,
    clock: FakeClock,
    seen: Seen,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Issue 7: every event is also an INFO record on "robotsclient.events" whose attributes are
    the event's fields (and `event`, the event itself), for alerting from logging config."""
    caplog.set_level(logging.INFO, logger=LOGGER)
    validators = Validators(body=OLD, etag='"v1"', cache_control="max-age=60")
    serve(local_server, "site.test", conditional(validators))
    await client.check("https://site.test/old")
    validators.body, validators.etag = NEW, '"v2"'
    clock.advance(60)
    await client.check("https://site.test/old")
    records = [r for r in caplog.records if r.name == LOGGER]
    assert all(r.levelno == logging.INFO for r in records)
    by_type: dict[type, list[logging.LogRecord]] = {}
    for record in records:
        by_type.setdefault(type(record.event), []).append(record)
    assert [r.event for r in by_type[Fetched]] == seen.fetched
    assert [r.event for r in by_type[Decided]] == seen.decided
    assert [r.event for r in by_type[RulesChanged]] == seen.changed
    assert len(seen.fetched) == 2
    assert len(seen.decided) == 2
    assert len(seen.changed) == 1
    for record in records:
        for name, value in event_fields(record.event).items():
            assert getattr(record, name) == value, (name, record.getMessage())
    fetched = by_type[Fetched][0]
    assert (fetched.origin, fetched.status, fetched.bytes) == (SITE, 200, len(OLD))
    assert "site.test" in fetched.getMessage()
    changed = by_type[RulesChanged][0]
    assert changed.added == ("* | Disallow: /new",)
    assert changed.removed == ("* | Disallow: /old",)
    decided = by_type[Decided][1]
    assert (decided.url, decided.allowed) == ("https://site.test/old", True)


async def test_check_logs_decided_without_a_hook(
    local_server: LocalServer,
    loopback_client: httpx.AsyncClient,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Issue 7, D18: with no callbacks at all, check() still logs its decision at INFO."""
    caplog.set_level(logging.INFO, logger=LOGGER)
    serve(local_server, "site.test", respond(200, OLD))
    async with RobotsClient(UA, http_client=loopback_client) as client:
        decision = await client.check("https://site.test/old")
    (record,) = [r for r in caplog.records if isinstance(getattr(r, "event", None), Decided)]
    assert (record.url, record.allowed, record.reason) == (
        "https://site.test/old",
        False,
        decision.reason,
    )
