"""Cache freshness and failure rules (DECISIONS D13, D14) as pure functions of (entry, now).

Rules of this module (no I/O, no clock: `now` is always an argument):
- A result that is not a temporary failure (2xx, 4xx, a redirect given up on: the StatusPolicy
  decides) is a *good copy*. It is fresh for Cache-Control `max-age`, else `Expires - Date`,
  else 24 h; explicit lifetimes are capped at 7 days, and `max-age=0`, `no-cache` and
  `no-store` mean "refetch on the next check" (D13). An `Age` header is subtracted.
- A temporary failure (5xx, 429, network: D11) is not a rule set. While an origin fails, the
  last good copy is served, marked stale, if it was fetched less than 30 days ago; without one
  the failure's own outcome (full disallow) is the answer. Retries back off 1 min, 2, 4, ...
  up to 1 h; `Retry-After` on 429/503 replaces the backoff. After 30 days of continuous
  failure the origin is taken as having no robots.txt (full allow), or the cached copy is kept
  when `keep_copy_after_give_up` is set (D14, RFC 9309 section 2.3.1.4).
- A check waits for a fetch only when there is nothing to answer with (no entry, or the good
  copy's lifetime is over). Retries while failing, and refresh-ahead, run behind the answer.
"""

from __future__ import annotations

import enum
import math
import re
from dataclasses import dataclass
from datetime import timezone
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING

from ._exceptions import InvalidArgument
from ._outcome import GOOGLE, Outcome, StatusPolicy
from ._storages._base import Entry

if TYPE_CHECKING:
    from ._outcome import FetchResult

__all__ = [
    "Assessment",
    "Basis",
    "CachePolicy",
    "Freshness",
    "Lifetime",
    "assess",
    "freshness_lifetime",
    "parse_http_date",
    "record",
    "retention",
    "retry_after",
    "retry_delay",
]

MINUTE = 60.0
HOUR = 3_600.0
DAY = 86_400.0
DEFAULT_LIFETIME = DAY  # D13: no max-age and no Expires
MAX_LIFETIME = 7 * DAY  # D13: a larger max-age is capped here (settable)
STALE_LIMIT = 30 * DAY  # D14: a good copy older than this is not served during failures
GIVE_UP_AFTER = 30 * DAY  # D14 / RFC 9309 2.3.1.4: continuous failure, then no robots.txt
BACKOFF_INITIAL = MINUTE  # D14: first retry after a failure
BACKOFF_MAX = HOUR  # D14: the doubling stops here
MIN_RETRY_AFTER = 1.0  # a `Retry-After: 0` on every answer must not turn checks into a loop
MAX_RETRY_AFTER = DAY  # a hostile `Retry-After` cannot park an origin for a year
RETRY_AFTER_STATUSES = frozenset({429, 503})  # D14: the statuses whose Retry-After counts
_MAX_EXPONENT = 32  # 2**32 minutes is past any cap: no float overflow on long failures
# One Cache-Control directive: a token, optionally `=` a quoted string or a token (RFC 9111 5.2).
_DIRECTIVE = re.compile(r'\s*([^\s=,]+)\s*(?:=\s*("(?:[^"\\]|\\.)*"|[^,]*))?\s*(?:,|$)')
_DELTA_SECONDS = re.compile(r"[0-9]+\Z")


@dataclass(frozen=True, slots=True)
class CachePolicy:
    """The numbers of D13 and D14, in seconds; every one settable, each checked when built."""

    default_lifetime: float = DEFAULT_LIFETIME
    max_lifetime: float = MAX_LIFETIME
    stale_limit: float = STALE_LIMIT
    give_up_after: float = GIVE_UP_AFTER
    keep_copy_after_give_up: bool = False
    backoff_initial: float = BACKOFF_INITIAL
    backoff_max: float = BACKOFF_MAX
    max_retry_after: float = MAX_RETRY_AFTER
    refresh_ahead: float = 0.1  # the last part of a lifetime refreshed in the background (issue 7)

    def __post_init__(self) -> None:
        for name in ("default_lifetime", "max_lifetime", "stale_limit", "give_up_after"):
            _check_number(name, getattr(self, name), minimum=0.0)
        for name in ("backoff_initial", "backoff_max", "max_retry_after"):
            _check_number(name, getattr(self, name), minimum=MIN_RETRY_AFTER)
        if self.default_lifetime > self.max_lifetime:
            raise InvalidArgument("CachePolicy.default_lifetime must not exceed max_lifetime")
        if self.backoff_initial > self.backoff_max:
            raise InvalidArgument("CachePolicy.backoff_initial must not exceed backoff_max")
        _check_number("refresh_ahead", self.refresh_ahead, minimum=0.0)
        if self.refresh_ahead >= 1.0:
            raise InvalidArgument("CachePolicy.refresh_ahead is a fraction of a lifetime: < 1")


def _check_number(name: str, value: object, *, minimum: float) -> None:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or math.isnan(value)
        or value < minimum
    ):
        raise InvalidArgument(f"CachePolicy.{name} must be a number >= {minimum:g}, not {value!r}")


class Freshness(enum.Enum):
    """What the cache does for a check, given an origin's entry and the time (D13, D14)."""

    MISSING = "missing"  # nothing cached: fetch, and the check waits
    FRESH = "fresh"  # a good copy within its lifetime: answer, no fetch
    REFRESH_AHEAD = "refresh-ahead"  # fresh, in the last part of its lifetime: refresh behind
    EXPIRED = "expired"  # the good copy's lifetime is over (or was 0): fetch, the check waits
    BACKOFF = "backoff"  # failing, next retry not due: answer from the fallback, no fetch
    RETRY = "retry"  # failing, retry due: answer from the fallback, retry behind the answer

    @property
    def fetch(self) -> bool:
        """Return True when a fetch is due."""
        return self not in (Freshness.FRESH, Freshness.BACKOFF)

    @property
    def wait(self) -> bool:
        """Return True when the check has nothing to answer with until the fetch ends."""
        return self in (Freshness.MISSING, Freshness.EXPIRED)


class Basis(enum.Enum):
    """Where an answer comes from, for Decision.explain and events (D14, D18)."""

    FETCHED = "fetched"  # the good copy, within its lifetime (or just fetched)
    STALE_COPY = "stale-copy"  # the last good copy, served while refreshes fail (D14)
    FAILURE = "failure"  # no usable good copy: the failure's own outcome (D11, D14)
    GAVE_UP = "gave-up"  # 30 days of failure: taken as no robots.txt, full allow (D14)
    KEPT_COPY = "kept-copy"  # 30 days of failure, the cached copy kept (an option, D14)


@dataclass(frozen=True, slots=True)
class Lifetime:
    """How long a good copy is fresh, counted from its `fetched_at` (D13)."""

    seconds: float
    no_store: bool = False


@dataclass(frozen=True, slots=True)
class Assessment:
    """The policy's reading of one entry at one time: what to do, and the answer meanwhile.

    `served` is the result the answer comes from (None when nothing is cached), `outcome` its
    outcome under the status policy (or full allow after giving up), and `until` the time up
    to which the same answer holds without asking the policy again (the in-memory hot path).
    """

    freshness: Freshness
    basis: Basis | None = None
    served: FetchResult | None = None
    outcome: Outcome | None = None
    until: float = -math.inf

    @property
    def stale(self) -> bool:
        """Return True when the answer is a copy kept in place of a failed refresh (D14)."""
        return self.basis in (Basis.STALE_COPY, Basis.KEPT_COPY)


# --- freshness (D13) ----------------------------------------------------------------------------


def cache_directives(result: FetchResult) -> dict[str, str | None]:
    """Return the Cache-Control directives of all Cache-Control lines, names lower-cased.

    The first occurrence of a directive wins (RFC 9111 4.2.1); quoted values are unquoted.
    """
    directives: dict[str, str | None] = {}
    for name, value in result.headers:
        if name != "cache-control":
            continue
        for match in _DIRECTIVE.finditer(value):
            key = match.group(1).lower()
            argument = match.group(2)
            if argument is not None:
                argument = argument.strip()
                if argument.startswith('"') and argument.endswith('"') and len(argument) >= 2:
                    argument = argument[1:-1]
            directives.setdefault(key, argument)
    return directives


def freshness_lifetime(result: FetchResult, policy: CachePolicy) -> Lifetime:
    """Return how long `result` is fresh (D13): max-age, else Expires - Date, else 24 h.

    `no-store`, `no-cache` (unqualified: RFC 9111 5.2.2.4) and `max-age=0` give 0. An explicit
    lifetime minus the `Age` header is capped at `policy.max_lifetime`. An unparsable `max-age`
    is ignored; an unparsable `Expires` ("0", "-1") means already expired (RFC 9111 5.3).
    """
    directives = cache_directives(result)
    no_store = "no-store" in directives
    if no_store or ("no-cache" in directives and not directives["no-cache"]):
        return Lifetime(0.0, no_store)
    explicit = _max_age(directives)
    if explicit is None:
        explicit = _expires_lifetime(result)
    if explicit is None:
        return Lifetime(policy.default_lifetime)
    explicit -= _age(result)
    return Lifetime(min(max(explicit, 0.0), policy.max_lifetime))


def _max_age(directives: dict[str, str | None]) -> float | None:
    value = directives.get("max-age")
    if value is None or not _DELTA_SECONDS.match(value):
        return None
    return float(value)


def _expires_lifetime(result: FetchResult) -> float | None:
    value = result.header("expires")
    if value is None:
        return None
    expires = parse_http_date(value)
    if expires is None:
        return 0.0  # RFC 9111 5.3: an invalid Expires, "0" above all, is in the past
    date = parse_http_date(result.header("date") or "")
    return expires - (date if date is not None else result.fetched_at)


def _age(result: FetchResult) -> float:
    """Return the `Age` header in seconds (0 when absent or invalid): time spent in caches."""
    value = (result.header("age") or "").strip()
    return float(value) if _DELTA_SECONDS.match(value) else 0.0


def parse_http_date(text: str) -> float | None:
    """Return an HTTP-date (IMF-fixdate, RFC 850 or asctime, RFC 9110 5.6.7) as POSIX seconds."""
    try:
        moment = parsedate_to_datetime(text.strip())
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if moment.tzinfo is None:  # asctime and "-0000" carry no zone: HTTP dates are UTC
        moment = moment.replace(tzinfo=timezone.utc)
    try:
        return moment.timestamp()
    except (OverflowError, OSError, ValueError):  # pragma: no cover - platform date limits
        return None


# --- failures (D14) ----------------------------------------------------------------------------


def retry_after(result: FetchResult) -> float | None:
    """Return the `Retry-After` delay in seconds (delta or HTTP-date against Date), or None."""
    value = (result.header("retry-after") or "").strip()
    if not value:
        return None
    if _DELTA_SECONDS.match(value):
        return float(value)
    moment = parse_http_date(value)
    if moment is None:
        return None
    date = parse_http_date(result.header("date") or "")
    return moment - (date if date is not None else result.fetched_at)


def retry_delay(result: FetchResult, failures: int, policy: CachePolicy) -> float:
    """Return the wait before retrying after the `failures`-th failure in a row (D14).

    1 min doubling to 1 h by default; on 429/503 a valid `Retry-After` replaces it, kept
    within [MIN_RETRY_AFTER, policy.max_retry_after].
    """
    if result.status in RETRY_AFTER_STATUSES:
        asked = retry_after(result)
        if asked is not None:
            return min(max(asked, MIN_RETRY_AFTER), policy.max_retry_after)
    exponent = min(max(failures, 1) - 1, _MAX_EXPONENT)
    return min(policy.backoff_initial * 2.0**exponent, policy.backoff_max)


# --- state ---------------------------------------------------------------------------------------


def record(
    entry: Entry | None,
    result: FetchResult,
    now: float,
    policy: CachePolicy,
    statuses: StatusPolicy = GOOGLE,
) -> Entry:
    """Return the entry after `result` was fetched at `now` (D13, D14).

    A good result replaces the copy and clears the failure count; a temporary failure keeps the
    last good copy, counts the failure and sets the next retry.
    """
    if not statuses.is_temporary(result):
        lifetime = freshness_lifetime(result, policy)
        return Entry(
            result=result,
            good=result,
            expires_at=result.fetched_at + lifetime.seconds,
            lifetime=lifetime.seconds,
            no_store=lifetime.no_store,
        )
    failing = entry is not None and entry.failing
    failures = entry.failures + 1 if entry is not None and failing else 1
    since = entry.failing_since if entry is not None and failing else None
    return Entry(
        result=result,
        good=entry.good if entry is not None else None,
        expires_at=entry.expires_at if entry is not None else -math.inf,
        lifetime=entry.lifetime if entry is not None else 0.0,
        no_store=entry.no_store if entry is not None else False,
        failures=failures,
        failing_since=since if since is not None else result.fetched_at,
        retry_at=now + retry_delay(result, failures, policy),
    )


def assess(
    entry: Entry | None,
    now: float,
    policy: CachePolicy,
    statuses: StatusPolicy = GOOGLE,
) -> Assessment:
    """Return what to do for a check of an origin with this entry at `now` (D13, D14)."""
    if entry is None:
        return Assessment(Freshness.MISSING)
    good = entry.good
    if not entry.failing:
        if good is None:  # not a state `record` makes; a foreign entry: start over
            return Assessment(Freshness.MISSING)
        outcome = statuses.outcome(good)
        if now >= entry.expires_at:
            return Assessment(Freshness.EXPIRED, Basis.FETCHED, good, outcome, entry.expires_at)
        ahead_at = entry.expires_at - entry.lifetime * policy.refresh_ahead
        if policy.refresh_ahead and now >= ahead_at:
            return Assessment(
                Freshness.REFRESH_AHEAD, Basis.FETCHED, good, outcome, entry.expires_at
            )
        return Assessment(Freshness.FRESH, Basis.FETCHED, good, outcome, ahead_at)
    basis, served, outcome, until = _fallback(entry, now, policy, statuses)
    retry_at = entry.retry_at if entry.retry_at is not None else now
    if now < retry_at:
        return Assessment(Freshness.BACKOFF, basis, served, outcome, min(until, retry_at))
    return Assessment(Freshness.RETRY, basis, served, outcome, until)


def _fallback(
    entry: Entry, now: float, policy: CachePolicy, statuses: StatusPolicy
) -> tuple[Basis, FetchResult, Outcome, float]:
    """Return the answer while an origin fails, and until when it holds (D14)."""
    assert entry.failing_since is not None
    failing_for = now - entry.failing_since
    give_up_at = entry.failing_since + policy.give_up_after
    good = entry.good
    if failing_for >= policy.give_up_after:
        if policy.keep_copy_after_give_up and good is not None:
            return Basis.KEPT_COPY, good, statuses.outcome(good), math.inf
        return Basis.GAVE_UP, entry.result, Outcome.FULL_ALLOW, math.inf
    if good is not None and now < entry.expires_at:  # a refresh-ahead failed: still fresh
        return Basis.FETCHED, good, statuses.outcome(good), min(entry.expires_at, give_up_at)
    if good is not None and now - good.fetched_at < policy.stale_limit:
        until = min(good.fetched_at + policy.stale_limit, give_up_at)
        return Basis.STALE_COPY, good, statuses.outcome(good), until
    outcome = statuses.outcome(entry.result, failing_for=failing_for)
    until = give_up_at
    switch = statuses.server_errors_allow_after  # issue 7: 5xx as allow after N days
    if switch is not None and failing_for < switch:
        until = min(until, entry.failing_since + switch)
    return Basis.FAILURE, entry.result, outcome, until


def retention(entry: Entry, now: float, policy: CachePolicy) -> float:
    """Return how many seconds `entry` stays of use, the TTL hint a backend gets (D14).

    A failing entry is kept as long as the failure could run on (it is rewritten at every
    retry): forgetting it would restart the 30 days. A good one lasts through its stale window.
    """
    if entry.failing:
        return max(policy.give_up_after, policy.stale_limit)
    good = entry.good
    stale_end = good.fetched_at + policy.stale_limit if good is not None else -math.inf
    return max(entry.expires_at - now, stale_end - now, 0.0)
