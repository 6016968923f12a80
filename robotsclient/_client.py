"""RobotsClient: the async facade a crawler awaits for every URL (issue 4; D4, D5, D10-D18).

    async with RobotsClient("ExampleBot/1.0 (+https://example.com/bot)") as robots:
        if await robots.can_fetch(url):
            ...

The data path: `split_target(url)` (one split, D10) -> the cache's in-memory answer for the
origin -> the parser's `_allowed_path(path, token)`. A check of a fresh cached origin does no
I/O, no parsing and no await beyond its own coroutine; anything else goes to `RobotsCache`
(single-flight, bounded fetches, D13-D15), which fetches through `fetch_robots` (D11, D12).
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING

import httpx

from ._cache import (
    DEFAULT_MAX_CONCURRENT_FETCHES,
    DEFAULT_MEMORY_SIZE,
    RobotsCache,
    RobotsRecord,
    path_rule,
)
from ._clock import system_clock
from ._events import Decided, Events, emit, logger as _events_log
from ._exceptions import InvalidArgument, InvalidUserAgent
from ._fetcher import DEFAULT_LIMITS, fetch_robots
from ._origin import origin_of, split_target
from ._outcome import GOOGLE, Outcome, StatusPolicy
from ._policy import Basis, CachePolicy
from ._robots import product_token

if TYPE_CHECKING:
    from collections.abc import Mapping
    from types import TracebackType

    from typing_extensions import Self

    from ._clock import Clock
    from ._fetcher import FetchLimits
    from ._origin import Origin
    from ._outcome import FetchResult
    from ._robots import Verdict
    from ._rules import RequestRate
    from ._storages._base import Storage

__all__ = ["Decision", "RobotsClient", "RobotsRecord"]

_KEEPALIVE = 8  # idle connections kept: robots.txt fetches rarely reuse one (one per origin)
_SPANS = ((86_400, "d"), (3_600, "h"), (60, "min"), (1, "s"))


@dataclass(frozen=True, slots=True)
class Decision:
    """The answer for one URL and why (D18): allowed, the fetch outcome, and the copy used.

    `status` is the final HTTP status of the robots.txt used (None after a network error),
    `stale` says a last good copy stands in for a failed refresh (D14), `age` is seconds since
    that copy was fetched, `verdict` the parser's verdict when the outcome is conditional.
    """

    allowed: bool
    outcome: Outcome
    status: int | None
    url: str
    origin: Origin
    stale: bool
    fetched_at: float
    age: float
    chain: tuple[str, ...]
    verdict: Verdict | None
    record: RobotsRecord

    @property
    def reason(self) -> str:
        """Return one line saying why, for logs and the CLI."""
        if self.verdict is not None:
            reason = self.verdict.reason
        elif self.allowed and self.outcome is Outcome.FULL_DISALLOW:
            reason = "/robots.txt itself is always allowed (D5)"
        else:
            reason = _outcome_reason(self.record)
        return f"{reason} [stale copy]" if self.stale else reason

    def explain(self) -> str:
        """Return a multi-line account: outcome, status, redirects, times, copy, group and rule."""
        record = self.record
        lines = [
            f"URL:         {self.url}",
            f"decision:    {'allowed' if self.allowed else 'disallowed'}",
            f"reason:      {self.reason}",
            f"robots.txt:  {record.robots_url}",
            f"outcome:     {self.outcome.value} - {_outcome_reason(record)}",
            f"status:      {self.status if self.status is not None else '- (no HTTP answer)'}",
        ]
        if record.error:
            lines.append(f"error:       {record.error}")
        if len(self.chain) > 1:
            lines.append(f"redirects:   {' -> '.join(self.chain)}")
        else:
            lines.append("redirects:   none")
        lines.append(f"fetched at:  {_when(self.fetched_at)} (age {_span(self.age)})")
        lines.append(f"copy:        {_copy_state(self)}")
        verdict = self.verdict
        if verdict is not None:
            if verdict.group_agents:
                where = ", ".join(str(line) for line in verdict.group_lines)
                agents = ", ".join(verdict.group_agents)
                lines.append(f"group:       user-agent {agents} (line {where})")
            else:
                lines.append("group:       none applies to this agent (D4)")
            rule = verdict.rule
            lines.append(
                f"rule:        {rule} (line {rule.line})"
                if rule
                else "rule:        no rule matched"
            )
        return "\n".join(lines)


def _outcome_reason(record: RobotsRecord) -> str:
    """Return why the fetch led to its outcome (D11, D14)."""
    result = record.result
    what = (
        f"answered {result.status}"
        if result.status is not None
        else f"unreachable ({result.error or 'network error'})"
    )
    if record.basis is Basis.GAVE_UP:
        return f"robots.txt {what} for 30 days or more, so taken as absent: full allow (D14)"
    if record.outcome is Outcome.CONDITIONAL:
        return f"robots.txt {what}, so its rules apply (D11)"
    if record.outcome is Outcome.FULL_ALLOW:
        return f"robots.txt {what}, so full allow (D11)"
    return f"robots.txt {what}, so full disallow (D11)"


def _copy_state(decision: Decision) -> str:
    record = decision.record
    failure = record.failure
    if failure is not None:
        failed = f"{failure.status}" if failure.status is not None else (failure.error or "error")
        retry = f"; next retry at {_when(record.retry_at)}" if record.retry_at is not None else ""
        what = "stale copy" if decision.stale else "no usable copy"
        since = _when(record.failing_since or failure.fetched_at)
        return (
            f"{what}: {record.failures} failed fetch(es) in a row since {since}, "
            f"the latest: {failed}{retry} (D14)"
        )
    if record.expires_at is not None:
        return f"fresh until {_when(record.expires_at)} (D13)"
    return "fresh"  # pragma: no cover - every good answer has an expiry


def _when(moment: float) -> str:
    """Return a POSIX time as ISO 8601 UTC, to the second."""
    try:
        text = datetime.fromtimestamp(moment, timezone.utc).isoformat(timespec="seconds")
    except (OverflowError, OSError, ValueError):
        return f"{moment:.0f}"
    return text.replace("+00:00", "Z")


def _span(seconds: float) -> str:
    """Return a duration in its two largest units: `3 h 12 min`, `42 s`."""
    if not math.isfinite(seconds):
        return "forever"
    left = max(0, round(seconds))
    parts: list[str] = []
    for size, unit in _SPANS:
        if left >= size or (unit == "s" and not parts):
            parts.append(f"{left // size} {unit}")
            left %= size
        if len(parts) == 2:
            break
    return " ".join(parts)


class RobotsClient:
    """Answers "may this agent fetch this URL?", one robots.txt fetch per origin (issue 4).

    `user_agent` is the header sent; `agent_token` the product token to match when that header
    is browser-like (D4: `Mozilla/5.0 (compatible; ExampleBot/1.0)` -> pass "ExampleBot").
    `http_client` is reused and not closed by us; otherwise one is made (no redirects followed
    by httpx: the fetcher follows them, D11) and closed with this client. `cache` is a Storage
    (memory by default), `clock` the time source of every cache rule, `limits` the fetch limits
    (D12), `policy` the cache numbers (D13, D14), `status_policy` the status table (D11).
    """

    def __init__(
        self,
        user_agent: str,
        *,
        agent_token: str | None = None,
        http_client: httpx.AsyncClient | None = None,
        cache: Storage | None = None,
        clock: Clock | None = None,
        limits: FetchLimits | None = None,
        policy: CachePolicy | None = None,
        status_policy: StatusPolicy = GOOGLE,
        max_concurrent_fetches: int = DEFAULT_MAX_CONCURRENT_FETCHES,
        memory_size: int = DEFAULT_MEMORY_SIZE,
        events: Events | None = None,
    ) -> None:
        if not isinstance(user_agent, str) or not user_agent.strip():
            raise InvalidUserAgent("user_agent must be a non-empty str", user_agent=user_agent)
        if any(char in user_agent for char in "\r\n\0"):
            raise InvalidUserAgent(
                "user_agent must not contain CR, LF or NUL", user_agent=user_agent
            )
        if agent_token is not None and (
            not isinstance(agent_token, str) or not agent_token.strip()
        ):
            raise InvalidUserAgent("agent_token must be a non-empty str", user_agent=agent_token)
        if policy is not None and not isinstance(policy, CachePolicy):
            raise InvalidArgument(f"policy must be a CachePolicy, not {type(policy).__name__}")
        if not isinstance(status_policy, StatusPolicy):
            raise InvalidArgument(
                "status_policy must be a StatusPolicy (GOOGLE, RFC9309 or a switch of one), "
                f"not {type(status_policy).__name__}"
            )
        self.user_agent = user_agent
        self._agent = agent_token if agent_token is not None else user_agent
        self._token = product_token(self._agent)  # D4: what group names are compared with
        self._clock: Clock = clock if clock is not None else system_clock
        self._limits = limits if limits is not None else DEFAULT_LIMITS
        self._cache = RobotsCache(
            self._fetch,
            storage=cache,
            policy=policy,
            statuses=status_policy,
            clock=self._clock,
            max_concurrent_fetches=max_concurrent_fetches,
            memory_size=memory_size,
            events=events,
        )
        self._on_decided = events.on_decided if events is not None else None
        self._owns_storage = cache is None
        self._owns_http = http_client is None
        if http_client is None:
            http_client = httpx.AsyncClient(
                follow_redirects=False,
                limits=httpx.Limits(
                    max_connections=max_concurrent_fetches,
                    max_keepalive_connections=min(_KEEPALIVE, max_concurrent_fetches),
                ),
            )
        self._http = http_client
        self._hot = self._cache.hot
        self._closed = False

    @property
    def token(self) -> str:
        """Return the product token matched against `user-agent` lines (D4)."""
        return self._token

    @property
    def cache(self) -> RobotsCache:
        """Return the per-origin cache behind this client."""
        return self._cache

    async def _fetch(self, origin: Origin, headers: Mapping[str, str]) -> FetchResult:
        return await fetch_robots(
            origin,
            client=self._http,
            user_agent=self.user_agent,
            limits=self._limits,
            clock=self._clock,
            extra_headers=headers or None,
        )

    async def can_fetch(self, url: str) -> bool:
        """Return True if robots.txt lets this agent fetch `url` (an absolute http(s) URL)."""
        if self._on_decided is not None:  # the event needs the reason: take the full path
            return (await self.check(url)).allowed
        origin, path = split_target(url)
        hot = self._hot.get(origin)
        if hot is not None and self._clock() < hot.until:
            self._hot.move_to_end(origin)  # LRU recency: a busy origin is never evicted
            return hot.allowed(path, self._token)
        record = await self._cache.get(origin)
        return path_rule(record)(path, self._token)

    async def check(self, url: str) -> Decision:
        """Return the decision for `url` with the outcome, the copy used and the rule (D18)."""
        origin, path = split_target(url)
        record = await self._record(origin)
        verdict: Verdict | None = None
        if record.robots is not None:
            verdict = record.robots.explain(url, self._agent)
            allowed = verdict.allowed
        else:
            allowed = path_rule(record)(path, self._token)
        age = self._clock() - record.fetched_at
        decision = Decision(
            allowed=allowed,
            outcome=record.outcome,
            status=record.status,
            url=url,
            origin=origin,
            stale=record.stale,
            fetched_at=record.fetched_at,
            age=max(age, 0.0),
            chain=record.chain,
            verdict=verdict,
            record=record,
        )
        if self._on_decided is not None or _events_log.isEnabledFor(logging.INFO):
            emit(self._on_decided, Decided(url, allowed, decision.reason), "%s: allowed=%s (%s)")
        return decision

    async def robots(self, url: str) -> RobotsRecord:
        """Return what is known of the robots.txt of `url`'s origin (fetched if needed)."""
        return await self._record(origin_of(url))

    async def crawl_delay(self, url: str) -> float | None:
        """Return the crawl-delay in seconds for this agent at `url`'s origin, or None (D9)."""
        robots = (await self._record(origin_of(url))).robots
        return robots.crawl_delay(self._agent) if robots is not None else None

    async def request_rate(self, url: str) -> RequestRate | None:
        """Return the request-rate for this agent at `url`'s origin, or None (D9)."""
        robots = (await self._record(origin_of(url))).robots
        return robots.request_rate(self._agent) if robots is not None else None

    async def sitemaps(self, url: str) -> list[str]:
        """Return the sitemap URLs listed by `url`'s origin's robots.txt, in order (D9)."""
        robots = (await self._record(origin_of(url))).robots
        return list(robots.sitemaps) if robots is not None else []

    async def _record(self, origin: Origin) -> RobotsRecord:
        hot = self._hot.get(origin)
        if hot is not None and self._clock() < hot.until:
            self._hot.move_to_end(origin)
            return hot.record
        if self._closed:
            raise RuntimeError("RobotsClient is closed")
        return await self._cache.get(origin)

    async def aclose(self) -> None:
        """Stop work in flight; close the HTTP client and storage if this client made them."""
        if self._closed:
            return
        self._closed = True
        await self._cache.aclose()
        if self._owns_http:
            await self._http.aclose()
        if self._owns_storage:
            await self._cache.storage.aclose()

    async def __aenter__(self) -> Self:
        if self._closed:
            raise RuntimeError("RobotsClient is closed")
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
