"""What a robots.txt fetch produced, and the outcome it maps to (DECISIONS D11).

Pure: a FetchResult is a value built by the fetcher (or by tests); `outcome_of` turns it into
one of the three outcomes of Google's specification ("Handling HTTP result codes").
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

__all__ = ["FetchResult", "Outcome", "outcome_of"]


class Outcome(enum.Enum):
    """The three outcomes of a robots.txt fetch (Google spec, "Handling HTTP result codes")."""

    FULL_ALLOW = "full_allow"
    FULL_DISALLOW = "full_disallow"
    CONDITIONAL = "conditional"


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


def outcome_of(result: FetchResult) -> Outcome:
    """Map a fetch result to its outcome (D11): 2xx conditional, 4xx allow, 429/5xx/errors deny."""
    status = result.status
    if status is None:
        return Outcome.FULL_DISALLOW  # network error: treated as a server error (D11)
    if 200 <= status < 300:
        return Outcome.CONDITIONAL
    if 300 <= status < 400:
        return Outcome.FULL_ALLOW  # an unfollowed redirect counts as 404 (D11)
    if status == 429:
        return Outcome.FULL_DISALLOW  # Google's crawler treats 429 as a server error (D11)
    if 400 <= status < 500:
        return Outcome.FULL_ALLOW
    return Outcome.FULL_DISALLOW  # 5xx and anything malformed
