"""Cache policy (DECISIONS D13, D14; RFC 9111 sections cited per test). Pure: times injected.

Categories:
- lifetime (D13): 24 h default, max-age below and above 24 h, the 7-day cap (and setting it),
  max-age=0 / no-cache / no-store (flagged for persistent backends), Expires against Date,
  invalid Expires, Age, malformed and repeated directives, 4xx lifetimes
- freshness states (D13): fresh before expiry, expired at it, refresh-ahead window (issue 7)
- failures (D14): not cached as a rule set, stale copy under 30 days and not at 30, full
  disallow without a copy, backoff doubling to the cap, Retry-After (seconds, HTTP-date, only
  on 429/503, clamped), the 30-day switch to full allow, the keep-copy option, recovery
- status policy interplay (D11, issue 7 presets), retention hints, HTTP dates, CachePolicy checks
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pytest

from robotsclient._exceptions import InvalidArgument
from robotsclient._outcome import GOOGLE, RFC9309, FetchResult, Outcome
from robotsclient._policy import (
    DAY,
    HOUR,
    MAX_RETRY_AFTER,
    MIN_RETRY_AFTER,
    MINUTE,
    Basis,
    CachePolicy,
    Freshness,
    assess,
    freshness_lifetime,
    parse_http_date,
    record,
    retention,
    retry_after,
    retry_delay,
)

if TYPE_CHECKING:
    from robotsclient._storages._base import Entry

T0 = 1_700_000_000.0  # 2023-11-14T22:13:20Z
T0_HTTP = "Tue, 14 Nov 2023 22:13:20 GMT"
URL = "https://example.com/robots.txt"
POLICY = CachePolicy(refresh_ahead=0.0)  # exact lifetimes; refresh-ahead has its own tests
BODY = b"User-agent: *\nDisallow: /private\n"


def fetched(
    status: int | None = 200, *headers: tuple[str, str], at: float = T0, body: bytes = BODY
) -> FetchResult:
    error = None if status is not None else "connect: refused"
    return FetchResult(
        URL, status, headers=headers, body=body if status == 200 else b"", error=error,
        fetched_at=at,
    )  # fmt: skip


def cc(value: str) -> tuple[str, str]:
    return ("cache-control", value)


def lifetime(*headers: tuple[str, str], status: int = 200, policy: CachePolicy = POLICY) -> float:
    return freshness_lifetime(fetched(status, *headers), policy).seconds


# --- lifetime (D13) ------------------------------------------------------------------------------


def test_d13_default_lifetime_is_24_hours() -> None:
    """D13: no max-age and no Expires: fresh for 24 h."""
    assert lifetime() == DAY
    assert lifetime(("content-type", "text/plain")) == DAY


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        pytest.param("max-age=60", 60.0, id="below-24h-honoured"),
        pytest.param("max-age=3600", HOUR, id="one-hour"),
        pytest.param("max-age=259200", 3 * DAY, id="above-24h-honoured"),
        pytest.param("max-age=604800", 7 * DAY, id="exactly-the-cap"),
        pytest.param("max-age=31536000", 7 * DAY, id="a-year-capped-at-7-days"),
        pytest.param("max-age=99999999999999999999999", 7 * DAY, id="huge-capped"),
        pytest.param("public, max-age=120", 120.0, id="among-other-directives"),
        pytest.param('max-age="300"', 300.0, id="quoted-value-accepted"),
        pytest.param("MAX-AGE=90", 90.0, id="directive-names-case-insensitive"),
        pytest.param("max-age = 45", 45.0, id="spaces-around-equals"),
    ],
)
def test_d13_max_age_honoured_up_to_the_cap(value: str, seconds: float) -> None:
    """D13: max-age is the lifetime; above 24 h it is honoured up to the 7-day cap."""
    assert lifetime(cc(value)) == seconds


def test_d13_cap_is_settable() -> None:
    """D13: the 7-day cap is a setting."""
    policy = CachePolicy(max_lifetime=30 * DAY)
    assert lifetime(cc("max-age=1728000"), policy=policy) == 20 * DAY
    assert lifetime(cc("max-age=1728000"), policy=CachePolicy(max_lifetime=2 * DAY)) == 2 * DAY


@pytest.mark.parametrize(
    "value",
    [
        pytest.param("max-age=0", id="max-age-0"),
        pytest.param("no-cache", id="no-cache"),
        pytest.param("no-cache, max-age=3600", id="no-cache-beats-max-age"),
        pytest.param("max-age=3600, no-store", id="no-store-beats-max-age"),
        pytest.param("no-store", id="no-store"),
    ],
)
def test_d13_refetch_on_next_check_directives(value: str) -> None:
    """D13: max-age=0, no-cache and no-store mean refetch on the next check (no minimum TTL)."""
    assert lifetime(cc(value)) == 0.0


def test_d13_no_store_is_flagged_and_no_cache_is_not() -> None:
    """D13: no-store results are flagged so persistent backends do not write them."""
    assert freshness_lifetime(fetched(200, cc("no-store")), POLICY).no_store is True
    assert freshness_lifetime(fetched(200, cc("no-cache")), POLICY).no_store is False
    assert freshness_lifetime(fetched(200, cc("max-age=0")), POLICY).no_store is False


def test_d13_qualified_no_cache_names_fields_only() -> None:
    """RFC 9111 5.2.2.4: `no-cache="set-cookie"` restricts those fields, not the reuse."""
    assert lifetime(cc('no-cache="set-cookie, x-foo", max-age=600')) == 600.0


def test_d13_first_max_age_wins_across_lines() -> None:
    """RFC 9111 4.2.1: with repeated directives the first occurrence is used."""
    assert lifetime(cc("public"), cc("max-age=100"), cc("max-age=5000")) == 100.0


@pytest.mark.parametrize(
    "value",
    [
        pytest.param("max-age=abc", id="letters"),
        pytest.param("max-age=-5", id="negative"),
        pytest.param("max-age=1.5", id="fraction"),
        pytest.param("max-age", id="no-value"),
    ],
)
def test_d13_malformed_max_age_is_ignored(value: str) -> None:
    """D13: an unparsable max-age is ignored, so Expires or the 24 h default apply."""
    assert lifetime(cc(value)) == DAY
    expires = ("expires", "Tue, 14 Nov 2023 23:13:20 GMT")
    assert lifetime(cc(value), ("date", T0_HTTP), expires) == HOUR


def test_d13_expires_minus_date() -> None:
    """D13: without max-age, Expires - Date is the lifetime (RFC 9111 4.2.1)."""
    headers = (("date", T0_HTTP), ("expires", "Wed, 15 Nov 2023 04:13:20 GMT"))
    assert lifetime(*headers) == 6 * HOUR


def test_d13_expires_without_date_counts_from_the_fetch() -> None:
    """RFC 9111 4.2.1: with no Date, the time the response was received stands in."""
    assert lifetime(("expires", "Tue, 14 Nov 2023 22:43:20 GMT")) == 30 * MINUTE


def test_d13_expires_is_capped_and_past_expires_is_expired() -> None:
    """D13: the cap applies to Expires too; an Expires before Date gives 0."""
    date = ("date", T0_HTTP)
    assert lifetime(date, ("expires", "Fri, 14 Nov 2025 22:13:20 GMT")) == 7 * DAY
    assert lifetime(date, ("expires", "Thu, 01 Jan 1970 00:00:00 GMT")) == 0.0


@pytest.mark.parametrize("value", ["0", "-1", "soon", ""])
def test_d13_invalid_expires_means_already_expired(value: str) -> None:
    """RFC 9111 5.3: an invalid Expires, "0" above all, is a time in the past."""
    assert lifetime(("expires", value)) == 0.0


def test_d13_max_age_beats_expires() -> None:
    """RFC 9111 5.3: max-age takes precedence over Expires."""
    headers = (cc("max-age=60"), ("date", T0_HTTP), ("expires", "Wed, 15 Nov 2023 22:13:20 GMT"))
    assert lifetime(*headers) == 60.0


def test_d13_age_is_subtracted_from_explicit_lifetimes() -> None:
    """RFC 9111 4.2.3: time already spent in caches counts against max-age."""
    assert lifetime(cc("max-age=3600"), ("age", "600")) == 3000.0
    assert lifetime(cc("max-age=60"), ("age", "600")) == 0.0
    assert lifetime(cc("max-age=3600"), ("age", "junk")) == 3600.0
    assert lifetime(("age", "600")) == DAY  # the default is not an origin's promise


@pytest.mark.parametrize("status", [404, 401, 403, 410, 451])
def test_d13_4xx_results_follow_the_same_lifetimes(status: int) -> None:
    """D13: a 4xx result is fresh for max-age when given, else 24 h."""
    assert lifetime(status=status) == DAY
    assert lifetime(cc("max-age=120"), status=status) == 120.0


# --- freshness states (D13) -----------------------------------------------------------------


def test_d13_fresh_until_expiry_then_expired() -> None:
    """D13: fresh strictly before `fetched_at + lifetime`, expired (fetch, wait) from then on."""
    entry = record(None, fetched(200, cc("max-age=600")), T0, POLICY)
    fresh = assess(entry, T0 + 599, POLICY)
    assert fresh.freshness is Freshness.FRESH
    assert (fresh.basis, fresh.outcome, fresh.until) == (
        Basis.FETCHED,
        Outcome.CONDITIONAL,
        T0 + 600,
    )
    assert not fresh.freshness.fetch
    expired = assess(entry, T0 + 600, POLICY)
    assert expired.freshness is Freshness.EXPIRED
    assert expired.freshness.fetch
    assert expired.freshness.wait


def test_d13_zero_lifetime_is_expired_at_once() -> None:
    """D13: max-age=0: the very next check (even at the same instant) fetches again."""
    entry = record(None, fetched(200, cc("max-age=0")), T0, POLICY)
    assert assess(entry, T0, POLICY).freshness is Freshness.EXPIRED


def test_nothing_cached_is_missing() -> None:
    """D15: an origin never fetched: the check waits for the fetch."""
    state = assess(None, T0, POLICY)
    assert state.freshness is Freshness.MISSING
    assert state.freshness.fetch
    assert state.freshness.wait
    assert state.served is None
    assert state.outcome is None


def test_refresh_ahead_window() -> None:
    """Issue 7: in the last part of a lifetime the copy is served and refreshed behind."""
    policy = CachePolicy(refresh_ahead=0.1)
    entry = record(None, fetched(200, cc("max-age=1000")), T0, policy)
    assert assess(entry, T0 + 899, policy).freshness is Freshness.FRESH
    assert assess(entry, T0 + 899, policy).until == T0 + 900
    ahead = assess(entry, T0 + 900, policy)
    assert ahead.freshness is Freshness.REFRESH_AHEAD
    assert ahead.freshness.fetch
    assert not ahead.freshness.wait
    assert ahead.until == T0 + 1000
    assert ahead.served is entry.good
    assert assess(entry, T0 + 1000, policy).freshness is Freshness.EXPIRED


# --- failures (D14) -------------------------------------------------------------------------


def good_entry(at: float = T0, *headers: tuple[str, str]) -> Entry:
    return record(None, fetched(200, *headers, at=at), at, POLICY)


@pytest.mark.parametrize("status", [500, 502, 503, 599, 429, None])
def test_d14_failure_is_not_cached_as_a_rule_set(status: int | None) -> None:
    """D14: a 5xx/429/network failure keeps the last good copy; it never replaces it."""
    good = good_entry()
    failed = record(good, fetched(status, at=T0 + DAY), T0 + DAY, POLICY)
    assert failed.good is good.good
    assert failed.result.status == status
    assert failed.failing
    assert failed.failures == 1
    assert failed.failing_since == T0 + DAY
    assert failed.expires_at == good.expires_at


def test_d14_stale_copy_served_under_30_days() -> None:
    """D14: a last good copy fetched less than 30 days ago is served, marked stale."""
    good = good_entry()
    failed = record(good, fetched(503, at=T0 + DAY), T0 + DAY, POLICY)
    state = assess(failed, T0 + DAY + 1, POLICY)
    assert state.freshness is Freshness.BACKOFF
    assert state.basis is Basis.STALE_COPY
    assert state.stale
    assert state.served is good.good
    assert state.outcome is Outcome.CONDITIONAL
    later = record(failed, fetched(503, at=T0 + 29 * DAY), T0 + 29 * DAY, POLICY)
    assert assess(later, T0 + 30 * DAY - 1, POLICY).basis is Basis.STALE_COPY


def test_d14_copy_30_days_old_is_not_served() -> None:
    """D14: at 30 days of age the copy is no longer used: full disallow (failure outcome)."""
    good = good_entry()
    failed = record(good, fetched(503, at=T0 + 29 * DAY), T0 + 29 * DAY, POLICY)
    state = assess(failed, T0 + 30 * DAY, POLICY)
    assert state.basis is Basis.FAILURE
    assert not state.stale
    assert state.outcome is Outcome.FULL_DISALLOW
    assert state.served is failed.result
    # The stale answer's own deadline ended exactly there, so the hot path rechecks then.
    assert assess(failed, T0 + 29 * DAY + 1, POLICY).until == T0 + 29 * DAY + MINUTE


def test_d14_no_good_copy_means_full_disallow() -> None:
    """D14: with no good copy the answer is full disallow, retried the same way."""
    failed = record(None, fetched(None), T0, POLICY)
    state = assess(failed, T0, POLICY)
    assert state.freshness is Freshness.BACKOFF
    assert (state.basis, state.outcome) == (Basis.FAILURE, Outcome.FULL_DISALLOW)
    assert failed.good is None
    assert failed.retry_at == T0 + MINUTE


def test_d14_backoff_doubles_from_one_minute_to_one_hour() -> None:
    """D14: retries back off 1 min, 2, 4, ... and stop doubling at 1 h."""
    entry = None
    delays = []
    now = T0
    for _ in range(10):
        entry = record(entry, fetched(500, at=now), now, POLICY)
        assert entry.retry_at is not None
        delays.append(entry.retry_at - now)
        now = entry.retry_at
    assert delays == [60, 120, 240, 480, 960, 1920, 3600, 3600, 3600, 3600]
    assert entry is not None
    assert entry.failures == 10
    assert entry.failing_since == T0


def test_d14_backoff_numbers_are_settable_and_never_overflow() -> None:
    """D14: "1 min doubling to 1 h by default"; a long failure must not overflow."""
    policy = CachePolicy(backoff_initial=10, backoff_max=25)
    assert [retry_delay(fetched(500), n, policy) for n in (1, 2, 3, 4)] == [10, 20, 25, 25]
    assert retry_delay(fetched(500), 10_000, POLICY) == HOUR


def test_d14_retry_state_when_due() -> None:
    """D14: once the retry is due the fallback is still answered and a fetch runs behind it."""
    failed = record(good_entry(), fetched(503, at=T0 + DAY), T0 + DAY, POLICY)
    assert assess(failed, T0 + DAY + MINUTE - 1, POLICY).freshness is Freshness.BACKOFF
    due = assess(failed, T0 + DAY + MINUTE, POLICY)
    assert due.freshness is Freshness.RETRY
    assert due.freshness.fetch
    assert not due.freshness.wait
    assert due.basis is Basis.STALE_COPY


def test_d14_backoff_answer_holds_until_the_retry() -> None:
    """D14: the in-memory answer during backoff holds exactly until the next retry is due."""
    failed = record(good_entry(), fetched(503, at=T0 + DAY), T0 + DAY + 5, POLICY)
    assert assess(failed, T0 + DAY + 10, POLICY).until == T0 + DAY + 5 + MINUTE


@pytest.mark.parametrize("status", [429, 503])
def test_d14_retry_after_seconds_overrides_backoff(status: int) -> None:
    """D14: Retry-After (delta-seconds) on 429/503 replaces the exponential backoff."""
    failed = record(None, fetched(status, ("retry-after", "900")), T0, POLICY)
    assert failed.retry_at == T0 + 900
    again = record(failed, fetched(status, ("retry-after", "30"), at=T0 + 900), T0 + 900, POLICY)
    assert again.retry_at == T0 + 930
    assert again.failures == 2


def test_d14_retry_after_http_date_counts_from_date() -> None:
    """RFC 9110 10.2.3: an HTTP-date Retry-After, against the response's Date when present."""
    headers = (("date", T0_HTTP), ("retry-after", "Tue, 14 Nov 2023 22:33:20 GMT"))
    assert retry_after(fetched(503, *headers, at=T0 + 7)) == 20 * MINUTE
    failed = record(None, fetched(503, *headers, at=T0 + 7), T0 + 7, POLICY)
    assert failed.retry_at == T0 + 7 + 20 * MINUTE
    no_date = fetched(429, ("retry-after", "Tue, 14 Nov 2023 22:23:20 GMT"))
    assert retry_after(no_date) == 10 * MINUTE


def test_d14_retry_after_ignored_on_other_statuses() -> None:
    """D14: Retry-After counts on 429 and 503 only; a 500 backs off as usual."""
    assert retry_delay(fetched(500, ("retry-after", "900")), 1, POLICY) == MINUTE
    assert retry_delay(fetched(None), 1, POLICY) == MINUTE


@pytest.mark.parametrize(
    ("value", "delay"),
    [
        pytest.param("0", MIN_RETRY_AFTER, id="zero-floored"),
        pytest.param("99999999", MAX_RETRY_AFTER, id="huge-capped"),
        pytest.param("Thu, 01 Jan 1970 00:00:00 GMT", MIN_RETRY_AFTER, id="date-in-the-past"),
        pytest.param("soon", MINUTE, id="invalid-falls-back-to-backoff"),
        pytest.param("-5", MINUTE, id="negative-falls-back"),
    ],
)
def test_d14_retry_after_is_clamped(value: str, delay: float) -> None:
    """D14: a Retry-After of 0 cannot make every check a fetch; one of a year cannot park us."""
    assert retry_delay(fetched(503, ("retry-after", value)), 1, POLICY) == delay


def test_d14_after_30_days_of_failure_full_allow() -> None:
    """D14 / RFC 9309 2.3.1.4: 30 days of continuous failure: treated as no robots.txt."""
    failed = record(None, fetched(503), T0, POLICY)
    before = assess(failed, T0 + 30 * DAY - 1, POLICY)
    assert before.freshness is Freshness.RETRY  # a retry is due, answered behind
    assert before.outcome is Outcome.FULL_DISALLOW
    assert before.until == T0 + 30 * DAY
    retried = record(failed, fetched(503, at=T0 + 30 * DAY - 1), T0 + 30 * DAY - 1, POLICY)
    assert assess(retried, T0 + 30 * DAY - 2, POLICY).until == T0 + 30 * DAY
    state = assess(retried, T0 + 30 * DAY, POLICY)
    assert (state.basis, state.outcome, state.stale) == (Basis.GAVE_UP, Outcome.FULL_ALLOW, False)
    assert state.freshness is Freshness.BACKOFF  # still retried, hourly at most


def test_d14_30_days_are_counted_from_the_first_failure() -> None:
    """D14: "continuous" failure: counted from the first failure, reset by a success."""
    failed = record(good_entry(), fetched(503, at=T0 + DAY), T0 + DAY, POLICY)
    now = T0 + DAY
    while now < T0 + 31 * DAY:
        now += HOUR
        failed = record(failed, fetched(503, at=now), now, POLICY)
    assert failed.failing_since == T0 + DAY
    assert assess(failed, T0 + 31 * DAY, POLICY).basis is Basis.GAVE_UP
    recovered = record(failed, fetched(200, at=now), now, POLICY)
    assert not recovered.failing
    assert recovered.failures == 0
    assert recovered.retry_at is None
    assert assess(recovered, now + 1, POLICY).basis is Basis.FETCHED


def test_d14_keep_copy_after_30_days_option() -> None:
    """D14: the option keeps serving the cached copy after 30 days of failure (off by default)."""
    policy = CachePolicy(keep_copy_after_give_up=True)
    failed = record(good_entry(), fetched(503, at=T0 + DAY), T0 + DAY, policy)
    state = assess(failed, T0 + 31 * DAY, policy)
    assert (state.basis, state.outcome, state.stale) == (Basis.KEPT_COPY, Outcome.CONDITIONAL, True)
    assert state.served is failed.good
    assert assess(failed, T0 + 31 * DAY, POLICY).basis is Basis.GAVE_UP  # off by default
    no_copy = record(None, fetched(503), T0, policy)
    assert assess(no_copy, T0 + 30 * DAY, policy).basis is Basis.GAVE_UP


def test_d14_failed_refresh_before_expiry_is_not_stale() -> None:
    """D14 with refresh-ahead: a failure while the copy is still fresh serves it as fresh."""
    policy = CachePolicy(refresh_ahead=0.5)
    good = record(None, fetched(200, cc("max-age=1000")), T0, policy)
    failed = record(good, fetched(503, at=T0 + 600), T0 + 600, policy)
    state = assess(failed, T0 + 601, policy)
    assert state.basis is Basis.FETCHED
    assert not state.stale
    assert state.until == T0 + 660  # the retry, which comes before expiry
    assert assess(failed, T0 + 1000, policy).basis is Basis.STALE_COPY


def test_d14_success_after_failure_resets_everything() -> None:
    """D14: a good result ends the failure run."""
    failed = record(None, fetched(None), T0, POLICY)
    good = record(failed, fetched(404, at=T0 + 60), T0 + 60, POLICY)
    assert good.good is good.result
    assert not good.failing
    assert (good.failures, good.failing_since, good.retry_at) == (0, None, None)
    assert assess(good, T0 + 61, POLICY).outcome is Outcome.FULL_ALLOW


# --- status policy interplay (D11, issue 7) --------------------------------------------------


def test_d11_4xx_is_a_good_copy_not_a_failure() -> None:
    """D14: "last good copy (2xx or 4xx outcome)": a 404 replaces the copy and is cached."""
    entry = record(good_entry(), fetched(404, at=T0 + DAY), T0 + DAY, POLICY)
    assert entry.good is entry.result
    assert not entry.failing
    assert assess(entry, T0 + DAY + 1, POLICY).outcome is Outcome.FULL_ALLOW


def test_rfc9309_preset_caches_429_as_full_allow() -> None:
    """RFC 9309 2.3.1.3 preset: 429 is "unavailable", a good answer (full allow), not retried."""
    entry = record(None, fetched(429), T0, POLICY, RFC9309)
    assert not entry.failing
    assert assess(entry, T0 + 1, POLICY, RFC9309).outcome is Outcome.FULL_ALLOW
    assert record(None, fetched(429), T0, POLICY, GOOGLE).failing


def test_server_errors_allow_after_switch() -> None:
    """Issue 7 switch: 5xx as full allow after N days; the answer flips exactly then."""
    statuses = GOOGLE.with_server_errors_allow_after(2)
    failed = record(None, fetched(500), T0, POLICY, statuses)
    failed = record(failed, fetched(500, at=T0 + DAY), T0 + DAY, POLICY, statuses)
    early = assess(failed, T0 + DAY + 1, POLICY, statuses)
    assert early.outcome is Outcome.FULL_DISALLOW
    retried = record(
        failed, fetched(500, at=2 * DAY + T0 - 10), T0 + 2 * DAY - 10, POLICY, statuses
    )
    assert assess(retried, T0 + 2 * DAY - 5, POLICY, statuses).until == T0 + 2 * DAY
    assert assess(retried, T0 + 2 * DAY, POLICY, statuses).outcome is Outcome.FULL_ALLOW


# --- retention, dates, settings --------------------------------------------------------------


def test_retention_covers_the_stale_window_and_failures() -> None:
    """D14: a backend keeps an entry through its 30-day stale window; a failing one longer."""
    good = good_entry()
    assert retention(good, T0, POLICY) == 30 * DAY
    assert retention(good, T0 + 10 * DAY, POLICY) == 20 * DAY
    assert retention(good, T0 + 40 * DAY, POLICY) == 0.0
    failed = record(None, fetched(503), T0, POLICY)
    assert retention(failed, T0 + 100 * DAY, POLICY) == 30 * DAY


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Tue, 14 Nov 2023 22:13:20 GMT", id="imf-fixdate"),
        pytest.param("Tuesday, 14-Nov-23 22:13:20 GMT", id="rfc850"),
        pytest.param("Tue Nov 14 22:13:20 2023", id="asctime-is-utc"),
    ],
)
def test_http_dates_in_all_three_formats(text: str) -> None:
    """RFC 9110 5.6.7: recipients accept all three HTTP-date formats, always UTC."""
    assert parse_http_date(text) == T0


@pytest.mark.parametrize("text", ["", "0", "-1", "yesterday", "Tue, 99 Nov 2023 22:13:20 GMT"])
def test_invalid_http_dates(text: str) -> None:
    """RFC 9110 5.6.7: anything else is not a date."""
    assert parse_http_date(text) is None


@pytest.mark.parametrize(
    "options",
    [
        pytest.param({"default_lifetime": -1}, id="negative-lifetime"),
        pytest.param({"default_lifetime": 8 * DAY}, id="default-above-cap"),
        pytest.param({"max_lifetime": math.nan}, id="nan"),
        pytest.param({"backoff_initial": 0}, id="zero-backoff"),
        pytest.param({"backoff_initial": 7200}, id="initial-above-max"),
        pytest.param({"stale_limit": "30d"}, id="not-a-number"),
        pytest.param({"give_up_after": True}, id="bool-is-not-a-number"),
        pytest.param({"refresh_ahead": 1.0}, id="refresh-ahead-whole-lifetime"),
        pytest.param({"refresh_ahead": -0.1}, id="refresh-ahead-negative"),
    ],
)
def test_cache_policy_rejects_bad_numbers(options: dict[str, object]) -> None:
    """D17: a bad setting is a clear InvalidArgument when the policy is built."""
    with pytest.raises(InvalidArgument):
        CachePolicy(**options)  # type: ignore[arg-type]
