"""The per-origin cache (DECISIONS D12-D16) driven by a scripted fetch and an injected clock.

No sockets and no sleeps: the fetch is an async callable that answers from a script (and can be
held on an asyncio.Event), time is a FakeClock the tests move by hand.

Categories:
- single-flight (D15): 500 concurrent checks, one fetch; cancelled waiters (some, all) neither
  cancel the shared fetch nor poison the others; a failing fetch reaches every waiter once
- bounded fetches (D12): never more than the limit at once; 2,000 cold origins all resolved,
  each fetched once
- freshness through the cache (D13): 24 h default, max-age, the 7-day cap, max-age=0 /
  no-cache / no-store refetched on every check, no-store kept out of persistent backends
- failures through the cache (D14): stale copy served and flagged, no copy -> full disallow,
  backoff doubling to the cap with retries behind the answer, Retry-After, 30 days -> allow
- memory (D16): a fresh origin costs no storage read and no parse, unchanged bodies are not
  re-parsed, the parsed-answer LRU is bounded, storage errors are survived
- shared storage (D15, issue 5 seam): two caches on one shared storage fetch once
- refresh-ahead (issue 7 seam), closing, bad arguments
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from typing import TYPE_CHECKING, ClassVar

import pytest

from robotsclient._cache import RobotsCache
from robotsclient._exceptions import InvalidArgument, StorageError
from robotsclient._origin import Origin, origin_of
from robotsclient._outcome import FetchResult, InvalidPolicy, Outcome, StatusClass, StatusPolicy
from robotsclient._policy import DAY, HOUR, MINUTE, Basis, CachePolicy
from robotsclient._storages import MemoryStorage
from tests.clock import T0, FakeClock

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Mapping

    from robotsclient._storages import Entry

SITE = origin_of("https://site.test/")
BODY = b"User-agent: *\nDisallow: /private\n"
OTHER_BODY = b"User-agent: *\nDisallow: /\n"
AGENT = "examplebot"
GUARD = 5.0  # seconds: a check that should answer at once fails instead of hanging (not a timing)


class ScriptedFetch:
    """A fetch callable answering each origin with its current reply, counting calls.

    `gate`, when set, holds every fetch until it is opened; `running`/`peak` count fetches
    in progress, for the concurrency bound.
    """

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.replies: dict[Origin, tuple[int | None, tuple[tuple[str, str], ...], bytes]] = {}
        self.default: tuple[int | None, tuple[tuple[str, str], ...], bytes] = (200, (), BODY)
        self.calls: Counter[Origin] = Counter()
        self.gate: asyncio.Event | None = None
        self.running = 0
        self.peak = 0
        self.started = asyncio.Event()
        self.headers_seen: list[Mapping[str, str]] = []

    def reply(
        self, origin: Origin, status: int | None, *headers: tuple[str, str], body: bytes = BODY
    ) -> None:
        self.replies[origin] = (status, headers, body if status == 200 else b"")

    async def __call__(self, origin: Origin, headers: Mapping[str, str]) -> FetchResult:
        self.calls[origin] += 1
        self.headers_seen.append(headers)
        fetched_at = self.clock()
        self.running += 1
        self.peak = max(self.peak, self.running)
        self.started.set()
        try:
            if self.gate is not None:
                await self.gate.wait()
            status, reply_headers, body = self.replies.get(origin, self.default)
            return FetchResult(
                origin.robots_url,
                status,
                headers=reply_headers,
                body=body,
                chain=(origin.robots_url,),
                error=None if status is not None else "connect: refused",
                fetched_at=fetched_at,
            )
        finally:
            self.running -= 1

    @property
    def total(self) -> int:
        return sum(self.calls.values())


class CountingStorage(MemoryStorage):
    """The memory backend, counting reads and writes; `broken` makes every call fail."""

    def __init__(self, *, broken: bool = False) -> None:
        super().__init__()
        self.reads = 0
        self.writes = 0
        self.deletes = 0
        self.broken = broken

    async def get(self, origin: Origin) -> Entry | None:
        self.reads += 1
        if self.broken:
            raise StorageError("disk on fire")
        return await super().get(origin)

    async def set(self, origin: Origin, entry: Entry, *, ttl: float) -> None:
        self.writes += 1
        if self.broken:
            raise StorageError("disk on fire")
        await super().set(origin, entry, ttl=ttl)

    async def delete(self, origin: Origin) -> None:
        self.deletes += 1
        await super().delete(origin)


class PersistentStorage(CountingStorage):
    """Counts like CountingStorage, and says it outlives the process (as file and Redis do)."""

    persistent: ClassVar[bool] = True


class SharedStorage(MemoryStorage):
    """One store seen by several caches (as Redis is by several processes), with a real lock."""

    shared: ClassVar[bool] = True

    def __init__(self) -> None:
        super().__init__()
        self.locks: dict[Origin, asyncio.Lock] = {}

    def lock(self, origin: Origin) -> asyncio.Lock:
        return self.locks.setdefault(origin, asyncio.Lock())


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def fetch(clock: FakeClock) -> ScriptedFetch:
    return ScriptedFetch(clock)


@pytest.fixture
async def cache(fetch: ScriptedFetch, clock: FakeClock) -> AsyncIterator[RobotsCache]:
    # No refresh-ahead here: these tests count fetches at exact lifetimes (it has its own test).
    made = RobotsCache(fetch, clock=clock, policy=NO_REFRESH_AHEAD)
    yield made
    await made.aclose()


NO_REFRESH_AHEAD = CachePolicy(refresh_ahead=0.0)


async def allowed(cache: RobotsCache, path: str, origin: Origin = SITE) -> bool:
    record = await cache.get(origin)
    if record.robots is not None:
        return record.robots._allowed_path(path, AGENT)
    if record.outcome is Outcome.FULL_DISALLOW:
        return path == "/robots.txt"
    return True


async def until_started(fetch: ScriptedFetch) -> None:
    await asyncio.wait_for(fetch.started.wait(), GUARD)
    fetch.started.clear()


# --- single-flight (D15) ----------------------------------------------------------------------


async def test_d15_500_concurrent_checks_make_one_fetch(
    cache: RobotsCache, fetch: ScriptedFetch
) -> None:
    """D15: 500 concurrent checks of one cold origin share one in-flight fetch."""
    fetch.gate = asyncio.Event()
    tasks = [asyncio.create_task(cache.get(SITE)) for _ in range(500)]
    await until_started(fetch)
    for _ in range(5):
        await asyncio.sleep(0)
    assert fetch.calls[SITE] == 1
    fetch.gate.set()
    records = await asyncio.gather(*tasks)
    assert fetch.calls[SITE] == 1
    assert all(record is records[0] for record in records)
    assert records[0].outcome is Outcome.CONDITIONAL


async def test_d15_cancelled_waiters_do_not_cancel_or_poison_the_fetch(
    cache: RobotsCache, fetch: ScriptedFetch
) -> None:
    """D15: cancelling some waiters leaves the shared fetch and the other waiters untouched."""
    fetch.gate = asyncio.Event()
    tasks = [asyncio.create_task(cache.get(SITE)) for _ in range(10)]
    await until_started(fetch)
    for task in tasks[:4]:
        task.cancel()
    await asyncio.sleep(0)
    fetch.gate.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    assert all(isinstance(r, asyncio.CancelledError) for r in results[:4])
    assert all(getattr(r, "outcome", None) is Outcome.CONDITIONAL for r in results[4:])
    assert fetch.calls[SITE] == 1
    await cache.get(SITE)
    assert fetch.calls[SITE] == 1


async def test_d15_all_waiters_cancelled_fetch_still_lands(
    cache: RobotsCache, fetch: ScriptedFetch
) -> None:
    """D15: even with every waiter gone the fetch completes and is cached for the next check."""
    fetch.gate = asyncio.Event()
    tasks = [asyncio.create_task(cache.get(SITE)) for _ in range(3)]
    await until_started(fetch)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    fetch.gate.set()
    await cache.join()
    record = await cache.get(SITE)
    assert record.outcome is Outcome.CONDITIONAL
    assert fetch.calls[SITE] == 1


async def test_d15_a_crashing_fetch_reaches_every_waiter_then_is_retried(
    clock: FakeClock,
) -> None:
    """D15: an exception from the fetch reaches all its waiters once; the next check retries."""
    calls = 0
    gate = asyncio.Event()

    async def broken(origin: Origin, headers: Mapping[str, str]) -> FetchResult:
        nonlocal calls
        calls += 1
        await gate.wait()
        if calls == 1:
            raise RuntimeError("fetcher bug")
        return FetchResult(origin.robots_url, 404, fetched_at=clock())

    cache = RobotsCache(broken, clock=clock)
    tasks = [asyncio.create_task(cache.get(SITE)) for _ in range(20)]
    await asyncio.sleep(0)
    gate.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    assert all(isinstance(r, RuntimeError) for r in results)
    assert calls == 1
    assert (await cache.get(SITE)).outcome is Outcome.FULL_ALLOW
    assert calls == 2
    await cache.aclose()


async def test_d14_a_crashing_retry_behind_the_answer_is_retried(clock: FakeClock) -> None:
    """D14: a retry that raises must not leave the early answer standing for days: retried."""
    calls = 0

    async def flaky(origin: Origin, headers: Mapping[str, str]) -> FetchResult:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise RuntimeError("fetcher bug")
        return FetchResult(origin.robots_url, 503, fetched_at=clock())

    cache = RobotsCache(flaky, clock=clock)
    await cache.get(SITE)
    clock.advance(MINUTE)
    assert (await cache.get(SITE)).outcome is Outcome.FULL_DISALLOW  # retry 1 runs behind
    await cache.join()
    assert calls == 2
    await cache.get(SITE)
    await cache.join()
    assert calls == 3
    await cache.aclose()


# --- bounded fetches (D12) --------------------------------------------------------------------


async def test_d12_concurrent_fetches_are_bounded(clock: FakeClock, fetch: ScriptedFetch) -> None:
    """D12: with a bound of 8, 300 cold origins never have more than 8 fetches at once."""
    cache = RobotsCache(fetch, clock=clock, max_concurrent_fetches=8)
    fetch.gate = asyncio.Event()
    origins = [origin_of(f"https://o{i}.test/") for i in range(300)]
    tasks = [asyncio.create_task(cache.get(origin)) for origin in origins]
    await until_started(fetch)
    for _ in range(20):
        await asyncio.sleep(0)
    assert fetch.running == 8
    assert cache.in_flight == 300
    fetch.gate.set()
    await asyncio.gather(*tasks)
    assert fetch.peak == 8
    assert set(fetch.calls.values()) == {1}
    await cache.aclose()


async def test_d12_2000_cold_origins_each_fetched_once(
    cache: RobotsCache, fetch: ScriptedFetch
) -> None:
    """D12/D15: 2,000 origins at once, three checks each, all answered right, one fetch each."""
    origins = [origin_of(f"https://o{i}.test/") for i in range(2000)]
    for i, origin in enumerate(origins):
        if i % 2:
            fetch.reply(origin, 200, body=OTHER_BODY)
    checks = [allowed(cache, "/page", origin) for origin in origins for _ in range(3)]
    answers = await asyncio.gather(*checks)
    assert answers == [i % 2 == 0 for i in range(2000) for _ in range(3)]
    assert len(fetch.calls) == 2000
    assert set(fetch.calls.values()) == {1}
    assert fetch.peak <= 64


# --- freshness through the cache (D13) --------------------------------------------------------


async def test_d13_default_24_hours(
    cache: RobotsCache, fetch: ScriptedFetch, clock: FakeClock
) -> None:
    """D13: without caching headers a copy is fresh for 24 h, then refetched."""
    await cache.get(SITE)
    clock.advance(DAY - 1)
    await cache.get(SITE)
    assert fetch.calls[SITE] == 1
    clock.advance(1)
    await cache.get(SITE)
    assert fetch.calls[SITE] == 2


async def test_d13_max_age_and_cap(
    cache: RobotsCache, fetch: ScriptedFetch, clock: FakeClock
) -> None:
    """D13: max-age sets the lifetime; a year is capped at 7 days."""
    fetch.reply(SITE, 200, ("cache-control", "max-age=600"))
    await cache.get(SITE)
    clock.advance(599)
    await cache.get(SITE)
    assert fetch.calls[SITE] == 1
    fetch.reply(SITE, 200, ("cache-control", "max-age=31536000"))
    clock.advance(1)
    await cache.get(SITE)
    assert fetch.calls[SITE] == 2
    clock.advance(7 * DAY - 1)
    await cache.get(SITE)
    assert fetch.calls[SITE] == 2
    clock.advance(1)
    await cache.get(SITE)
    assert fetch.calls[SITE] == 3


@pytest.mark.parametrize("value", ["max-age=0", "no-cache", "no-store"])
async def test_d13_zero_lifetime_refetched_on_every_check(
    cache: RobotsCache, fetch: ScriptedFetch, value: str
) -> None:
    """D13: max-age=0 / no-cache / no-store: every later check fetches (no minimum TTL)."""
    fetch.reply(SITE, 200, ("cache-control", value))
    for expected in range(1, 4):
        record = await cache.get(SITE)
        assert record.outcome is Outcome.CONDITIONAL
        assert fetch.calls[SITE] == expected


async def test_d13_no_store_is_not_written_to_persistent_backends(
    fetch: ScriptedFetch, clock: FakeClock
) -> None:
    """D13: a no-store result is not written to a persistent backend (and an old copy goes)."""
    storage = PersistentStorage()
    cache = RobotsCache(fetch, storage=storage, clock=clock)
    await cache.get(SITE)
    assert await storage.get(SITE) is not None
    fetch.reply(SITE, 200, ("cache-control", "no-store"), body=OTHER_BODY)
    clock.advance(DAY)
    record = await cache.get(SITE)
    assert record.robots is not None
    assert not record.robots._allowed_path("/page", AGENT)  # the no-store answer is used...
    assert await storage.get(SITE) is None  # ...but not stored, and the old copy is gone
    await cache.aclose()


async def test_d13_no_store_is_kept_by_the_memory_backend(
    cache: RobotsCache, fetch: ScriptedFetch, clock: FakeClock
) -> None:
    """D13: memory is not persistent, so a no-store copy is kept there as the D14 fallback."""
    fetch.reply(SITE, 200, ("cache-control", "no-store"))
    await cache.get(SITE)
    fetch.reply(SITE, 503)
    record = await cache.get(SITE)
    assert record.stale
    assert record.robots is not None


# --- failures through the cache (D14) ---------------------------------------------------------


async def test_d14_stale_copy_served_while_failing(
    cache: RobotsCache, fetch: ScriptedFetch, clock: FakeClock
) -> None:
    """D14: a 5xx after a good copy: the copy is served, marked stale, the failure recorded."""
    first = await cache.get(SITE)
    fetch.reply(SITE, 503)
    clock.advance(DAY)
    record = await cache.get(SITE)
    assert record.stale
    assert record.basis is Basis.STALE_COPY
    assert record.outcome is Outcome.CONDITIONAL
    assert record.result is first.result
    assert record.robots is first.robots  # not parsed again
    assert record.failure is not None
    assert record.failure.status == 503
    assert record.retry_at == clock.now + MINUTE
    assert not await allowed(cache, "/private")
    assert await allowed(cache, "/public")


async def test_d14_no_copy_means_full_disallow(cache: RobotsCache, fetch: ScriptedFetch) -> None:
    """D14: a failure with no good copy: full disallow, /robots.txt still allowed (D5)."""
    fetch.reply(SITE, None)
    record = await cache.get(SITE)
    assert record.outcome is Outcome.FULL_DISALLOW
    assert record.basis is Basis.FAILURE
    assert not record.stale
    assert not await allowed(cache, "/anything")


async def test_d14_backoff_doubles_and_retries_run_behind_the_answer(
    cache: RobotsCache, fetch: ScriptedFetch, clock: FakeClock
) -> None:
    """D14: retries at 1, 2, 4, ... min up to 1 h; a due retry never makes the check wait."""
    fetch.reply(SITE, 500)
    await cache.get(SITE)
    assert fetch.calls[SITE] == 1
    fetch.gate = asyncio.Event()
    gaps = []
    for attempt in range(2, 10):
        record = await cache.get(SITE)
        assert record.retry_at is not None
        gap = record.retry_at - clock.now
        clock.advance(gap - 1)
        await cache.get(SITE)
        assert fetch.calls[SITE] == attempt - 1  # not yet due
        clock.advance(1)
        # Due: answered at once while the retry is held by the gate.
        answered = await asyncio.wait_for(cache.get(SITE), GUARD)
        assert answered.outcome is Outcome.FULL_DISALLOW
        await until_started(fetch)
        assert fetch.calls[SITE] == attempt
        fetch.gate.set()
        await cache.join()
        fetch.gate.clear()
        gaps.append(gap)
    assert gaps == [60, 120, 240, 480, 960, 1920, 3600, 3600]


async def test_d14_retry_after_is_honoured(
    cache: RobotsCache, fetch: ScriptedFetch, clock: FakeClock
) -> None:
    """D14: Retry-After on 429 replaces the backoff."""
    fetch.reply(SITE, 429, ("retry-after", "900"))
    record = await cache.get(SITE)
    assert record.outcome is Outcome.FULL_DISALLOW
    clock.advance(899)
    await cache.get(SITE)
    assert fetch.calls[SITE] == 1
    clock.advance(1)
    await cache.get(SITE)
    await cache.join()
    assert fetch.calls[SITE] == 2


async def test_d14_recovery_replaces_the_failure(
    cache: RobotsCache, fetch: ScriptedFetch, clock: FakeClock
) -> None:
    """D14: the first good answer after failures is served as soon as the retry lands."""
    fetch.reply(SITE, 503)
    await cache.get(SITE)
    fetch.reply(SITE, 200, body=OTHER_BODY)
    clock.advance(MINUTE)
    assert (await cache.get(SITE)).outcome is Outcome.FULL_DISALLOW  # retry runs behind
    await cache.join()
    record = await cache.get(SITE)
    assert record.outcome is Outcome.CONDITIONAL
    assert not record.stale
    assert record.failure is None


async def test_d14_thirty_days_of_failure_then_full_allow(
    cache: RobotsCache, fetch: ScriptedFetch, clock: FakeClock
) -> None:
    """D14: after 30 days of continuous failure the origin counts as having no robots.txt."""
    await cache.get(SITE)
    fetch.reply(SITE, 503)
    clock.advance(DAY)
    assert (await cache.get(SITE)).stale
    while clock.now < T0 + 31 * DAY:
        clock.advance(HOUR)
        await cache.get(SITE)
        await cache.join()
    record = await cache.get(SITE)
    assert record.basis is Basis.GAVE_UP
    assert record.outcome is Outcome.FULL_ALLOW
    assert await allowed(cache, "/private")
    assert fetch.calls[SITE] > 700  # retried hourly all along


async def test_d14_keep_copy_option(fetch: ScriptedFetch, clock: FakeClock) -> None:
    """D14: with the option on, the cached copy is kept after 30 days of failure."""
    cache = RobotsCache(fetch, clock=clock, policy=CachePolicy(keep_copy_after_give_up=True))
    await cache.get(SITE)
    fetch.reply(SITE, 503)
    clock.advance(DAY)
    await cache.get(SITE)
    clock.advance(31 * DAY)
    record = await cache.get(SITE)
    assert record.basis is Basis.KEPT_COPY
    assert record.stale
    assert not await allowed(cache, "/private")
    await cache.aclose()


# --- memory (D16) -----------------------------------------------------------------------------


async def test_d16_fresh_origin_costs_no_storage_read_and_no_parse(
    fetch: ScriptedFetch, clock: FakeClock
) -> None:
    """D16: once parsed, checks of a fresh origin touch neither the backend nor the parser."""
    storage = CountingStorage()
    cache = RobotsCache(fetch, storage=storage, clock=clock)
    first = await cache.get(SITE)
    reads = storage.reads
    for _ in range(100):
        assert await cache.get(SITE) is first
    assert storage.reads == reads
    await cache.aclose()


async def test_d16_unchanged_body_is_not_parsed_again(
    cache: RobotsCache, fetch: ScriptedFetch, clock: FakeClock
) -> None:
    """D16: a refetch returning the same bytes keeps the parsed file; new bytes are parsed."""
    first = await cache.get(SITE)
    clock.advance(DAY)
    second = await cache.get(SITE)
    assert fetch.calls[SITE] == 2
    assert second.robots is first.robots
    fetch.reply(SITE, 200, body=OTHER_BODY)
    clock.advance(DAY)
    third = await cache.get(SITE)
    assert third.robots is not first.robots


async def test_d16_parsed_memory_is_an_lru_bounded_by_count(
    fetch: ScriptedFetch, clock: FakeClock
) -> None:
    """D16: at most `memory_size` parsed answers; an evicted one comes back from the backend."""
    storage = CountingStorage()
    cache = RobotsCache(fetch, storage=storage, clock=clock, memory_size=2)
    a, b, c = (origin_of(f"https://{name}.test/") for name in "abc")
    await cache.get(a)
    await cache.get(b)
    await cache.get(a)  # a is the most recent now
    await cache.get(c)  # evicts b
    assert list(cache.hot) == [a, c]
    reads = storage.reads
    await cache.get(b)
    assert storage.reads == reads + 1  # read back from the backend...
    assert fetch.total == 3  # ...not fetched again
    assert len(cache.hot) == 2
    await cache.aclose()


async def test_storage_errors_do_not_stop_checks(
    fetch: ScriptedFetch, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 5: a backend that fails is logged and bypassed: checks keep working."""
    cache = RobotsCache(fetch, storage=CountingStorage(broken=True), clock=clock)
    with caplog.at_level(logging.WARNING, logger="robotsclient"):
        assert not await allowed(cache, "/private")
        assert await allowed(cache, "/public")
    assert fetch.calls[SITE] == 1
    assert "disk on fire" in caplog.text
    await cache.aclose()


# --- shared storage (D15 across processes: the issue 5 seam) -----------------------------------


async def test_d15_two_caches_on_a_shared_storage_fetch_once(clock: FakeClock) -> None:
    """D15: caches sharing a backend (two crawler processes) re-read under its lock: one fetch."""
    storage = SharedStorage()
    fetch = ScriptedFetch(clock)
    fetch.gate = asyncio.Event()
    first = RobotsCache(fetch, storage=storage, clock=clock)
    second = RobotsCache(fetch, storage=storage, clock=clock)
    tasks = [asyncio.create_task(c.get(SITE)) for _ in range(50) for c in (first, second)]
    await until_started(fetch)
    for _ in range(5):
        await asyncio.sleep(0)
    fetch.gate.set()
    records = await asyncio.gather(*tasks)
    assert fetch.calls[SITE] == 1
    assert {r.outcome for r in records} == {Outcome.CONDITIONAL}
    await first.aclose()
    await second.aclose()


# --- refresh-ahead, closing, arguments ---------------------------------------------------------


async def test_refresh_ahead_refreshes_once_behind_the_answer(
    fetch: ScriptedFetch, clock: FakeClock
) -> None:
    """Issue 7 seam: in the last 10% of a lifetime checks answer at once; one refresh runs."""
    cache = RobotsCache(fetch, clock=clock, policy=CachePolicy(refresh_ahead=0.1))
    fetch.reply(SITE, 200, ("cache-control", "max-age=1000"))
    first = await cache.get(SITE)
    clock.advance(950)
    fetch.gate = asyncio.Event()
    fetch.reply(SITE, 200, ("cache-control", "max-age=1000"), body=OTHER_BODY)
    for _ in range(20):
        assert (await asyncio.wait_for(cache.get(SITE), GUARD)).robots is first.robots
    await until_started(fetch)
    assert fetch.calls[SITE] == 2
    fetch.gate.set()
    await cache.join()
    assert (await cache.get(SITE)).robots is not first.robots
    assert fetch.calls[SITE] == 2
    await cache.aclose()


async def test_close_cancels_work_in_flight(fetch: ScriptedFetch, clock: FakeClock) -> None:
    """Closing cancels queued and running fetches cleanly; a closed cache refuses new work."""
    cache = RobotsCache(fetch, clock=clock)
    fetch.gate = asyncio.Event()
    task = asyncio.create_task(cache.get(SITE))
    await until_started(fetch)
    await cache.aclose()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert cache.in_flight == 0
    with pytest.raises(RuntimeError, match="closed"):
        await cache.get(SITE)


async def test_no_extra_headers_are_sent_yet(cache: RobotsCache, fetch: ScriptedFetch) -> None:
    """D11: the fetch is a plain, unconditional GET (issue 7 adds validators here)."""
    await cache.get(SITE)
    assert fetch.headers_seen == [{}]


@pytest.mark.parametrize(
    "options",
    [
        pytest.param({"max_concurrent_fetches": 0}, id="no-fetch-slots"),
        pytest.param({"max_concurrent_fetches": 2.5}, id="fractional-slots"),
        pytest.param({"memory_size": 0}, id="no-memory"),
    ],
)
def test_d17_bad_arguments(fetch: ScriptedFetch, options: dict[str, object]) -> None:
    """D17: a bad bound is refused when the cache is built."""
    with pytest.raises(InvalidArgument):
        RobotsCache(fetch, **options)  # type: ignore[arg-type]


def test_d17_invalid_status_policy_refused(fetch: ScriptedFetch) -> None:
    """Issue 7: an invalid status table is rejected when the cache is built."""
    from robotsclient._outcome import GOOGLE, Cell

    cells = tuple(
        (kind, Cell(Outcome.FULL_ALLOW) if kind is StatusClass.SUCCESS else cell)
        for kind, cell in GOOGLE.cells
    )
    with pytest.raises(InvalidPolicy):
        RobotsCache(fetch, statuses=StatusPolicy("broken", cells))
