"""The per-origin cache: single-flight, bounded fetches, policy-driven answers (D13-D16).

Rules of this module:
- One flight per origin (D15): the first check of an origin that needs the backend starts a
  task; every concurrent check awaits that task's answer through `asyncio.shield`, so a
  cancelled waiter never cancels the shared work nor poisons the others.
- At most `max_concurrent_fetches` fetches run at once (D12); the rest queue.
- `_policy` decides everything about time; this module only drives it. The `Storage` holds
  entries (raw body + fetch record); parsed files live in `hot`, an in-process LRU of answers
  with the time they hold until, so a check of a fresh origin does no I/O and no parsing.
- A check waits for a fetch only when there is nothing to answer with; retries of a failing
  origin and refresh-ahead run after the answer is given (`_policy.Freshness.wait`).
- The fetch is injected: `fetch(origin, headers) -> FetchResult`; httpx is never imported here.
  `headers` carry the validators of a conditional refresh (issue 7): when the good copy has an
  ETag or Last-Modified, a refresh sends If-None-Match / If-Modified-Since, and a 304 renews
  the copy with the 304's caching headers, with no download and no re-parse. A 304 to a request
  that had no validators (or with no copy to renew) is answered by one unconditional GET.
- Redirect-target reuse (issue 7): when an origin's robots.txt redirects to another origin's
  `/robots.txt` (that exact path, no query), the answer is cached for the target origin too.
- Events (issue 7): `fetched` after every fetch, `rules_changed` when a new good copy's rules
  differ from the old one's.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypeGuard

from ._clock import system_clock
from ._events import Events, Fetched, RulesChanged, emit, rule_changes
from ._exceptions import InvalidArgument, InvalidURL, StorageError
from ._origin import split_target
from ._outcome import GOOGLE, Outcome
from ._paths import PLAIN_PATH, ROBOTS_TXT, is_robots_txt, normalize_path
from ._policy import Basis, CachePolicy, assess, record, retention
from ._robots import parse
from ._storages._memory import MemoryStorage

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Mapping

    from ._clock import Clock
    from ._origin import Origin
    from ._outcome import FetchResult, StatusPolicy
    from ._policy import Assessment
    from ._robots import RobotsTxt
    from ._storages._base import Entry, Storage

    Fetch = Callable[[Origin, Mapping[str, str]], Awaitable[FetchResult]]
    PathRule = Callable[[str, str], bool]

__all__ = ["DEFAULT_MAX_CONCURRENT_FETCHES", "DEFAULT_MEMORY_SIZE", "RobotsCache", "RobotsRecord"]

DEFAULT_MAX_CONCURRENT_FETCHES = 64  # D12: thousands of origins queue instead of starving a pool
DEFAULT_MEMORY_SIZE = 10_000  # parsed answers kept in memory (origins), least recently used out
_NO_HEADERS: Mapping[str, str] = {}
_NOT_MODIFIED = 304  # the answer to a conditional refresh: the copy is renewed (issue 7)
_NO_EVENTS = Events()
# Headers a 304 carries that replace the stored ones (RFC 9111 section 4.3.4).
_RENEWED_HEADERS = frozenset({"cache-control", "expires", "date", "etag", "last-modified", "age"})
# Dropped from the stored copy even when the 304 lacks them: the renewed copy's age is the 304's
# (RFC 9111 4.2.3); an old Age would cut every renewed lifetime short again.
_NOT_KEPT_ON_RENEWAL = frozenset({"age"})
_log = logging.getLogger("robotsclient")


@dataclass(frozen=True, slots=True)
class RobotsRecord:
    """What is known of one origin's robots.txt now: the answer checks use (D11, D14, D18).

    `result` is the fetch the answer comes from: the good copy, or the failure when there is
    no usable copy. `robots` is the parsed file when the outcome is conditional. `stale` says a
    copy is served in place of a failed refresh. While the origin fails, `failure` is the latest
    failed attempt, `failures` how many failed in a row since `failing_since`, and `retry_at`
    when the next one is due (D14).
    """

    origin: Origin
    outcome: Outcome
    basis: Basis
    result: FetchResult
    robots: RobotsTxt | None
    stale: bool
    expires_at: float | None = None
    failure: FetchResult | None = None
    failures: int = 0
    failing_since: float | None = None
    retry_at: float | None = None

    @property
    def robots_url(self) -> str:
        """Return the URL of the origin's robots.txt (before any redirect)."""
        return self.origin.robots_url

    @property
    def status(self) -> int | None:
        """Return the final HTTP status of `result`, None after a network error (D11)."""
        return self.result.status

    @property
    def headers(self) -> tuple[tuple[str, str], ...]:
        return self.result.headers

    @property
    def body(self) -> bytes:
        return self.result.body

    @property
    def chain(self) -> tuple[str, ...]:
        return self.result.chain

    @property
    def error(self) -> str | None:
        return self.result.error

    @property
    def truncated(self) -> bool:
        return self.result.truncated

    @property
    def fetched_at(self) -> float:
        return self.result.fetched_at


def _allow_all(path: str, token: str) -> bool:
    return True


def _robots_txt_only(path: str, token: str) -> bool:
    """Full disallow: nothing but /robots.txt itself, which is always allowed (D5)."""
    if not PLAIN_PATH.match(path):
        path = normalize_path(path)
    return is_robots_txt(path)


def path_rule(record: RobotsRecord) -> PathRule:
    """Return `(path_and_query, token) -> bool` for this answer: the fastest check there is."""
    if record.robots is not None:
        return record.robots._allowed_path
    if record.outcome is Outcome.FULL_DISALLOW:
        return _robots_txt_only
    return _allow_all


class _Hot:
    """A parsed answer in memory: valid while the clock is before `until`."""

    __slots__ = ("allowed", "record", "until")

    def __init__(self, record: RobotsRecord, until: float) -> None:
        self.record = record
        self.until = until
        self.allowed = path_rule(record)


class _Flight:
    """One origin's work in progress: `answer` resolves as soon as there is one to give,
    `task` when the work (fetch included) is over."""

    __slots__ = ("answer", "task")

    def __init__(self, answer: asyncio.Future[RobotsRecord]) -> None:
        self.answer = answer
        self.task: asyncio.Task[RobotsRecord] | None = None


class RobotsCache:
    """Answers "what does this origin's robots.txt say now?" with one fetch per origin (D15).

    `hot` maps origins to in-memory answers; the client reads it directly on its hot path.
    """

    def __init__(
        self,
        fetch: Fetch,
        *,
        storage: Storage | None = None,
        policy: CachePolicy | None = None,
        statuses: StatusPolicy = GOOGLE,
        clock: Clock = system_clock,
        max_concurrent_fetches: int = DEFAULT_MAX_CONCURRENT_FETCHES,
        memory_size: int = DEFAULT_MEMORY_SIZE,
        events: Events | None = None,
    ) -> None:
        for name, value in (
            ("max_concurrent_fetches", max_concurrent_fetches),
            ("memory_size", memory_size),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidArgument(f"{name} must be an int >= 1, not {value!r}")
        self._fetch = fetch
        self.storage: Storage = storage if storage is not None else MemoryStorage()
        self.policy = policy if policy is not None else CachePolicy()
        self.statuses = statuses.validate()
        self._clock = clock
        self._semaphore = asyncio.Semaphore(max_concurrent_fetches)
        self.max_concurrent_fetches = max_concurrent_fetches
        self.memory_size = memory_size
        self.events = events if events is not None else _NO_EVENTS
        self.hot: OrderedDict[Origin, _Hot] = OrderedDict()
        self._flights: dict[Origin, _Flight] = {}
        self._closed = False

    @property
    def in_flight(self) -> int:
        """Return how many origins have work under way (fetches queued or running)."""
        return len(self._flights)

    async def get(self, origin: Origin) -> RobotsRecord:
        """Return the current answer for `origin`, fetching only when the policy says so."""
        hot = self.hot.get(origin)
        if hot is not None and self._clock() < hot.until:
            self.hot.move_to_end(origin)
            return hot.record
        if self._closed:
            raise RuntimeError("the robots.txt cache is closed")
        flight = self._flights.get(origin)
        if flight is None:
            flight = self._start(origin)
        elif flight.answer.done() and flight.task is not None:
            # The early answer no longer holds (its time passed): the work in flight decides.
            return await asyncio.shield(flight.task)
        return await asyncio.shield(flight.answer)

    async def join(self) -> None:
        """Wait until no work is in flight (background refreshes included)."""
        while self._flights:
            tasks = [flight.task for flight in self._flights.values() if flight.task is not None]
            if tasks:
                await asyncio.wait(tasks)
            else:  # pragma: no cover - a flight gets its task at once
                await asyncio.sleep(0)

    async def forget(self, origin: Origin) -> None:
        """Drop `origin` from memory and storage: the next check fetches it again."""
        self.hot.pop(origin, None)
        try:
            await self.storage.delete(origin)
        except StorageError as error:
            _log.warning("robots.txt cache: could not delete %s: %s", origin, error)

    async def aclose(self) -> None:
        """Cancel the work in flight and forget the in-memory answers (the storage stays open)."""
        self._closed = True
        tasks = [flight.task for flight in self._flights.values() if flight.task is not None]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks)
        self._flights.clear()
        self.hot.clear()

    # --- the work of one flight ---------------------------------------------------------------

    def _start(self, origin: Origin) -> _Flight:
        loop = asyncio.get_running_loop()
        flight = _Flight(loop.create_future())
        flight.answer.add_done_callback(_retrieve)
        self._flights[origin] = flight
        task = loop.create_task(self._run(origin, flight), name=f"robots.txt {origin}")
        flight.task = task
        task.add_done_callback(_retrieve)
        task.add_done_callback(lambda _: self._land(origin, flight))
        return flight

    def _land(self, origin: Origin, flight: _Flight) -> None:
        if self._flights.get(origin) is flight:
            del self._flights[origin]

    async def _run(self, origin: Origin, flight: _Flight) -> RobotsRecord:
        try:
            answer = await self._resolve(origin, flight)
        except BaseException as error:
            if not isinstance(error, asyncio.CancelledError):
                # An answer given early (a retry behind it) must not outlive a broken fetch.
                self.hot.pop(origin, None)
            if not flight.answer.done():
                if isinstance(error, asyncio.CancelledError):
                    flight.answer.cancel()
                else:
                    flight.answer.set_exception(error)
            raise
        if not flight.answer.done():
            flight.answer.set_result(answer)
        return answer

    async def _resolve(self, origin: Origin, flight: _Flight) -> RobotsRecord:
        entry = await self._load(origin)
        assessment = assess(entry, self._clock(), self.policy, self.statuses)
        if not assessment.freshness.wait:
            answer = self._publish(origin, entry, assessment)
            flight.answer.set_result(answer)  # the checks go on; a retry may run behind
            if not assessment.freshness.fetch:
                return answer
        # D12: bounded concurrent fetches; D15 across processes (the lock is a no-op in memory).
        async with self._semaphore, self.storage.lock(origin):
            if self.storage.shared:  # another process may have fetched while we waited
                entry = await self._load(origin)
                assessment = assess(entry, self._clock(), self.policy, self.statuses)
                if not assessment.freshness.fetch:
                    return self._publish(origin, entry, assessment)
                if not assessment.freshness.wait and not flight.answer.done():
                    flight.answer.set_result(self._publish(origin, entry, assessment))
            old_good = entry.good if entry is not None else None
            result, revalidated = await self._refetch(origin, entry)
            now = self._clock()
            entry = record(entry, result, now, self.policy, self.statuses)
            await self._store(origin, entry, now)
        self._fetched(origin, result, revalidated)
        answer = self._publish(origin, entry, assess(entry, now, self.policy, self.statuses))
        if old_good is not None and entry.good is result and not revalidated:
            self._compare(origin, old_good, answer)
        await self._reuse_for_target(origin, result, now)
        return answer

    async def _refetch(self, origin: Origin, entry: Entry | None) -> tuple[FetchResult, bool]:
        """Fetch, conditionally when the good copy has validators; True when a 304 renewed it."""
        good = entry.good if entry is not None else None
        validators = _validators(good)
        result = await self._fetch(origin, validators)
        if result.status != _NOT_MODIFIED:
            return result, False
        if validators and good is not None:
            return _renewed(good, result), True
        # A 304 to a request without validators, or with nothing to renew: fetch the full file.
        return await self._fetch(origin, _NO_HEADERS), False

    def _fetched(self, origin: Origin, result: FetchResult, revalidated: bool) -> None:
        event = Fetched(
            origin=origin,
            url=result.url,
            status=_NOT_MODIFIED if revalidated else result.status,  # what the server said
            outcome=self.statuses.outcome(result),  # a renewed copy keeps its outcome
            bytes=0 if revalidated else len(result.body),
            duration=result.elapsed,
            chain=result.chain,
            error=result.error,
            revalidated=revalidated,
        )
        emit(self.events.on_fetched, event, "robots.txt of %s: status %s, %s, %d bytes in %.3f s")

    def _compare(self, origin: Origin, old_good: FetchResult, answer: RobotsRecord) -> None:
        """Emit `rules_changed` when the new good copy's rules differ from the old one's."""
        if answer.robots is None or old_good.body == answer.result.body:
            return
        if not 200 <= (old_good.status or 0) < 300:
            return
        added, removed = rule_changes(parse(old_good.body), answer.robots)
        if added or removed:
            event = RulesChanged(origin, added, removed)
            emit(self.events.on_rules_changed, event, "robots.txt of %s changed: +%s -%s")

    async def _reuse_for_target(self, origin: Origin, result: FetchResult, now: float) -> None:
        """Cache a redirect's answer for the target origin too, when it is that origin's file."""
        target = _redirect_target(origin, result)
        if target is None or self.statuses.is_temporary(result) or target in self._flights:
            return
        known = self.hot.get(target)
        if known is not None and now < known.until:
            return  # the target has a fresher answer of its own
        final = result.chain[-1]
        direct = replace(result, url=final, chain=(final,))
        entry = record(None, direct, now, self.policy, self.statuses)
        await self._store(target, entry, now)
        self._publish(target, entry, assess(entry, now, self.policy, self.statuses))

    async def _load(self, origin: Origin) -> Entry | None:
        try:
            return await self.storage.get(origin)
        except StorageError as error:  # a cache outage must not stop the crawl (issue 5)
            _log.warning("robots.txt cache: could not read %s: %s", origin, error)
            return None

    async def _store(self, origin: Origin, entry: Entry, now: float) -> None:
        storage = self.storage
        try:
            if entry.no_store and storage.persistent:  # D13: not written, and no older copy kept
                await storage.delete(origin)
            else:
                await storage.set(origin, entry, ttl=retention(entry, now, self.policy))
        except StorageError as error:
            _log.warning("robots.txt cache: could not write %s: %s", origin, error)

    def _publish(self, origin: Origin, entry: Entry | None, assessment: Assessment) -> RobotsRecord:
        """Build the answer of an assessment, keep it in memory, and return it."""
        served, basis, outcome = assessment.served, assessment.basis, assessment.outcome
        assert entry is not None
        assert served is not None
        assert basis is not None
        assert outcome is not None
        robots = None
        if outcome is Outcome.CONDITIONAL:
            robots = self._parsed(origin, served)
        failing = entry.failing
        answer = RobotsRecord(
            origin=origin,
            outcome=outcome,
            basis=basis,
            result=served,
            robots=robots,
            stale=assessment.stale,
            expires_at=entry.expires_at if served is entry.good else None,
            failure=entry.result if failing else None,
            failures=entry.failures,
            failing_since=entry.failing_since,
            retry_at=entry.retry_at if failing else None,
        )
        hot = self.hot
        hot[origin] = _Hot(answer, assessment.until)
        hot.move_to_end(origin)
        while len(hot) > self.memory_size:
            hot.popitem(last=False)
        return answer

    def _parsed(self, origin: Origin, served: FetchResult) -> RobotsTxt:
        """Return `served` parsed, reusing the file in memory when the body is unchanged (D16)."""
        known = self.hot.get(origin)
        if known is not None:
            robots = known.record.robots
            body = known.record.result.body
            if robots is not None and (body is served.body or body == served.body):
                return robots
        return parse(served.body)


def _validators(good: FetchResult | None) -> Mapping[str, str]:
    """Return If-None-Match / If-Modified-Since for a 2xx good copy that has validators."""
    if good is None or good.status is None or not 200 <= good.status < 300:
        return _NO_HEADERS
    headers: dict[str, str] = {}
    etag = good.header("etag")
    if _sendable(etag):
        headers["If-None-Match"] = etag
    modified = good.header("last-modified")
    if _sendable(modified):
        headers["If-Modified-Since"] = modified
    return headers


def _sendable(value: str | None) -> TypeGuard[str]:
    """Return True for a validator that can go back in a request header: printable ASCII.

    A server's bytes beyond ASCII (`ETag: "café"`) are kept as received, but a request header
    must be ASCII: such a validator is left out, never a reason for a check to raise (D17).
    """
    return bool(value and value.isascii() and value.isprintable())


def _renewed(good: FetchResult, answer: FetchResult) -> FetchResult:
    """Return the good copy renewed by a 304: its body, the 304's caching headers and time."""
    fresh = tuple((name, value) for name, value in answer.headers if name in _RENEWED_HEADERS)
    replaced = {name for name, _ in fresh} | _NOT_KEPT_ON_RENEWAL
    kept = tuple((name, value) for name, value in good.headers if name not in replaced)
    return replace(
        good,
        headers=kept + fresh,  # every line of a repeated header: Cache-Control may take several
        fetched_at=answer.fetched_at,
        elapsed=answer.elapsed,
        chain=answer.chain,
        error=None,
    )


def _redirect_target(origin: Origin, result: FetchResult) -> Origin | None:
    """Return the other origin whose exact `/robots.txt` a redirect chain ended at, if any."""
    if len(result.chain) < 2 or result.status is None or 300 <= result.status < 400:
        return None
    try:
        target, path = split_target(result.chain[-1])
    except InvalidURL:
        return None
    return target if path == ROBOTS_TXT and target != origin else None


def _retrieve(future: asyncio.Future[RobotsRecord]) -> None:
    """Mark a flight's exception as seen: every waiter may have gone (cancelled) before it."""
    if not future.cancelled():
        future.exception()
