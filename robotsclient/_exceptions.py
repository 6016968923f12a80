"""The library's exceptions: one tree, rooted at RobotsError (DECISIONS D17).

    RobotsError
    ├── InvalidArgument (also ValueError)   bad caller input
    │   ├── InvalidURL                      not http(s), relative where absolute is needed, no host
    │   └── InvalidUserAgent                not a string, or blank (no-token agents follow `*`, D4)
    ├── Disallowed                          an integration refused a request; carries .decision
    └── StorageError                        a cache backend failed in a way the caller must hear of

Bad robots.txt *content* never raises: it gets an outcome and lint findings.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "Disallowed",
    "InvalidArgument",
    "InvalidURL",
    "InvalidUserAgent",
    "RobotsError",
    "StorageError",
]


class RobotsError(Exception):
    """Base class of every exception robotsclient raises on purpose."""


class InvalidArgument(RobotsError, ValueError):
    """A caller passed an argument the library cannot work with."""


class InvalidURL(InvalidArgument):
    """A URL is not http(s), has no host, or is relative where an absolute URL is required."""

    def __init__(self, message: str, *, url: object = None) -> None:
        super().__init__(message)
        self.url = url


class InvalidUserAgent(InvalidArgument):
    """A user agent is not a string or has no product token to match (D4)."""

    def __init__(self, message: str, *, user_agent: object = None) -> None:
        super().__init__(message)
        self.user_agent = user_agent


class Disallowed(RobotsError):
    """A request was refused because robots.txt disallows it; `.decision` says why."""

    def __init__(self, message: str, *, url: str, decision: Any) -> None:
        super().__init__(message)
        self.url = url
        self.decision = decision


class StorageError(RobotsError):
    """A cache backend could not read or write an entry."""
