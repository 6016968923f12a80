"""What a robots.txt fetch produced, and the outcome it maps to (DECISIONS D11). Pure.

A FetchResult is a value built by the fetcher (or by tests). A StatusPolicy is the declarative
table from a result's status class to one of the three outcomes of Google's specification
("Handling HTTP result codes") and to whether the failure is temporary (D14: not cached as a
rule set; the last good copy is served while refreshes are retried). `outcome_of` applies one.

Presets:
- GOOGLE (default): D11 as written. 2xx conditional; 4xx incl. 401/403 full allow; 429, 5xx
  and network errors full disallow, temporary; redirects past five, loops or without Location
  count as 404.
- RFC9309: the RFC's reading. Section 2.3.1.3: every 4xx, 429 included, is "unavailable": full
  allow. Section 2.3.1.4: 5xx and network errors are "unreachable": full disallow, temporary.
  Section 2.3.1.2: more than five redirects may be taken as unavailable: full allow.
Switches (methods returning a new policy): 401/403 as full disallow; network errors as full
allow (archiving crawlers); 5xx as full allow once an origin has failed for N days.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace

from ._exceptions import InvalidArgument

__all__ = [
    "GOOGLE",
    "RFC9309",
    "FetchResult",
    "InvalidPolicy",
    "Outcome",
    "StatusClass",
    "StatusPolicy",
    "outcome_of",
]

_DAY = 86_400.0


class Outcome(enum.Enum):
    """The three outcomes of a robots.txt fetch (Google spec, "Handling HTTP result codes")."""

    FULL_ALLOW = "full_allow"
    FULL_DISALLOW = "full_disallow"
    CONDITIONAL = "conditional"


class StatusClass(enum.Enum):
    """The classes of fetch result a StatusPolicy maps, one cell each."""

    SUCCESS = "2xx"
    REDIRECT_EXHAUSTED = "3xx"  # more than five redirects, a loop, or no usable Location
    UNAUTHORIZED = "401/403"
    TOO_MANY_REQUESTS = "429"
    CLIENT_ERROR = "4xx"  # every other 4xx
    SERVER_ERROR = "5xx"  # and any status outside 200-599
    NETWORK_ERROR = "network"  # DNS, refused, reset, TLS, timeout, truncated or malformed


@dataclass(frozen=True, slots=True)
class FetchResult:
    """The raw result of fetching one origin's robots.txt.

    `status` is the final HTTP status, None after a network error (then `error` says which).
    `headers` are the final response's headers, names lower-cased, in order.
    `body` holds at most 512,000 bytes after decompression (D12); `truncated` says it was cut.
    `chain` lists every URL requested, the robots.txt URL first.
    """

    url: str
    status: int | None
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""
    chain: tuple[str, ...] = ()
    error: str | None = None
    truncated: bool = False
    fetched_at: float = 0.0
    elapsed: float = 0.0
    redirected_too_often: bool = field(default=False)

    def header(self, name: str) -> str | None:
        """Return the first value of header `name` (case-insensitive), or None."""
        wanted = name.lower()
        for key, value in self.headers:
            if key == wanted:
                return value
        return None

    @property
    def status_class(self) -> StatusClass:
        """Return the policy cell this result falls in."""
        return status_class(self.status)


def status_class(status: int | None) -> StatusClass:
    """Return the StatusClass of a final status; None means a network error (D11)."""
    if status is None:
        return StatusClass.NETWORK_ERROR
    if 200 <= status < 300:
        return StatusClass.SUCCESS
    if 300 <= status < 400:
        return StatusClass.REDIRECT_EXHAUSTED
    if status in (401, 403):
        return StatusClass.UNAUTHORIZED
    if status == 429:
        return StatusClass.TOO_MANY_REQUESTS
    if 400 <= status < 500:
        return StatusClass.CLIENT_ERROR
    return StatusClass.SERVER_ERROR


class InvalidPolicy(InvalidArgument):
    """A StatusPolicy whose cells contradict each other or the outcomes they can have."""


@dataclass(frozen=True, slots=True)
class Cell:
    """One row of a StatusPolicy: the outcome, and whether the failure is temporary (D14)."""

    outcome: Outcome
    temporary: bool = False
    why: str = ""


@dataclass(frozen=True, slots=True)
class StatusPolicy:
    """Declarative map from status class to outcome (D11); validated when a client is built."""

    name: str
    cells: tuple[tuple[StatusClass, Cell], ...]
    server_errors_allow_after: float | None = None  # seconds of continuous 5xx, then full allow

    def cell(self, kind: StatusClass) -> Cell:
        """Return the cell for a status class."""
        for key, value in self.cells:
            if key is kind:
                return value
        raise InvalidPolicy(f"policy {self.name!r} has no cell for {kind.value}")

    def outcome(self, result: FetchResult, *, failing_for: float = 0.0) -> Outcome:
        """Return the outcome of `result`; `failing_for` is how long the origin has failed."""
        kind = status_class(result.status)
        limit = self.server_errors_allow_after
        if kind is StatusClass.SERVER_ERROR and limit is not None and failing_for >= limit:
            return Outcome.FULL_ALLOW
        return self.cell(kind).outcome

    def is_temporary(self, result: FetchResult) -> bool:
        """Return True when `result` is a failure to retry rather than an answer to cache (D14)."""
        return self.cell(status_class(result.status)).temporary

    def validate(self) -> StatusPolicy:
        """Return self, or raise InvalidPolicy when the table cannot work."""
        kinds = [kind for kind, _ in self.cells]
        missing = [kind.value for kind in StatusClass if kind not in kinds]
        if missing or len(kinds) != len(set(kinds)):
            raise InvalidPolicy(
                f"policy {self.name!r} must name every status class once; missing {missing}"
            )
        if self.cell(StatusClass.SUCCESS).outcome is not Outcome.CONDITIONAL:
            raise InvalidPolicy(
                "a 2xx robots.txt must be conditional: its rules are the answer (D11)"
            )
        if self.cell(StatusClass.SUCCESS).temporary:
            raise InvalidPolicy("a 2xx robots.txt is an answer, not a temporary failure")
        for kind, value in self.cells:
            if kind is not StatusClass.SUCCESS and value.outcome is Outcome.CONDITIONAL:
                raise InvalidPolicy(f"{kind.value} has no rules to apply: it cannot be conditional")
        limit = self.server_errors_allow_after
        if limit is not None:
            if limit <= 0:
                raise InvalidPolicy(
                    "server_errors_allow_after must be a positive number of seconds"
                )
            if self.cell(StatusClass.SERVER_ERROR).outcome is Outcome.FULL_ALLOW:
                raise InvalidPolicy(
                    "5xx is already full allow: 'allow after N days' would never apply"
                )
        return self

    def _with(self, name: str, kind: StatusClass, cell: Cell) -> StatusPolicy:
        cells = tuple((key, cell if key is kind else value) for key, value in self.cells)
        return replace(self, name=f"{self.name}+{name}", cells=cells).validate()

    def with_auth_as_disallow(self) -> StatusPolicy:
        """Return a copy treating 401/403 as full disallow (a site that locks crawlers out)."""
        return self._with(
            "auth-disallow", StatusClass.UNAUTHORIZED, Cell(Outcome.FULL_DISALLOW, False, "switch")
        )

    def with_network_errors_as_allow(self) -> StatusPolicy:
        """Return a copy treating network errors as full allow, still retried (archivers)."""
        return self._with(
            "network-allow", StatusClass.NETWORK_ERROR, Cell(Outcome.FULL_ALLOW, True, "switch")
        )

    def with_server_errors_allow_after(self, days: float) -> StatusPolicy:
        """Return a copy treating 5xx as full allow once an origin has failed for `days` days."""
        return replace(
            self,
            name=f"{self.name}+5xx-allow-after-{days:g}d",
            server_errors_allow_after=days * _DAY,
        ).validate()


GOOGLE = StatusPolicy(
    "google",
    (
        (
            StatusClass.SUCCESS,
            Cell(Outcome.CONDITIONAL, False, "Google spec: 2xx conditional allow"),
        ),
        (
            StatusClass.REDIRECT_EXHAUSTED,
            Cell(Outcome.FULL_ALLOW, False, "D11: past five redirects = 404"),
        ),
        (StatusClass.UNAUTHORIZED, Cell(Outcome.FULL_ALLOW, False, "Google spec: 401/403 are 4xx")),
        (
            StatusClass.TOO_MANY_REQUESTS,
            Cell(Outcome.FULL_DISALLOW, True, "D11: 429 is a server error"),
        ),
        (StatusClass.CLIENT_ERROR, Cell(Outcome.FULL_ALLOW, False, "Google spec: 4xx full allow")),
        (
            StatusClass.SERVER_ERROR,
            Cell(Outcome.FULL_DISALLOW, True, "Google spec: 5xx full disallow"),
        ),
        (
            StatusClass.NETWORK_ERROR,
            Cell(Outcome.FULL_DISALLOW, True, "Google spec: network = 5xx"),
        ),
    ),
).validate()

RFC9309 = StatusPolicy(
    "rfc9309",
    (
        (
            StatusClass.SUCCESS,
            Cell(Outcome.CONDITIONAL, False, "RFC 9309 2.3.1.1: successful access"),
        ),
        (
            StatusClass.REDIRECT_EXHAUSTED,
            Cell(Outcome.FULL_ALLOW, False, "RFC 9309 2.3.1.2: > 5 redirects"),
        ),
        (
            StatusClass.UNAUTHORIZED,
            Cell(Outcome.FULL_ALLOW, False, "RFC 9309 2.3.1.3: unavailable"),
        ),
        (
            StatusClass.TOO_MANY_REQUESTS,
            Cell(Outcome.FULL_ALLOW, False, "RFC 9309 2.3.1.3: 4xx unavailable"),
        ),
        (
            StatusClass.CLIENT_ERROR,
            Cell(Outcome.FULL_ALLOW, False, "RFC 9309 2.3.1.3: unavailable"),
        ),
        (
            StatusClass.SERVER_ERROR,
            Cell(Outcome.FULL_DISALLOW, True, "RFC 9309 2.3.1.4: unreachable"),
        ),
        (
            StatusClass.NETWORK_ERROR,
            Cell(Outcome.FULL_DISALLOW, True, "RFC 9309 2.3.1.4: unreachable"),
        ),
    ),
).validate()


def outcome_of(result: FetchResult, policy: StatusPolicy = GOOGLE) -> Outcome:
    """Map a fetch result to its outcome (D11): 2xx conditional, 4xx allow, 429/5xx/errors deny."""
    return policy.outcome(result)
