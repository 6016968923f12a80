"""robotsclient: may this user agent fetch this URL? A robots.txt parser and async client.

Behaviour follows Google's robots.txt specification and RFC 9309, with the contested points
settled in the project's DECISIONS (D1-D18). Everything public is imported from here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._cache import RobotsRecord
from ._client import Decision, RobotsClient
from ._events import Decided, Events, Fetched, RulesChanged
from ._exceptions import (
    Disallowed,
    InvalidArgument,
    InvalidURL,
    InvalidUserAgent,
    RobotsError,
    StorageError,
)
from ._fetcher import FetchErrorKind, FetchLimits, fetch_robots
from ._lint import Finding, Severity
from ._origin import Origin, origin_of
from ._outcome import (
    GOOGLE,
    RFC9309,
    FetchResult,
    InvalidPolicy,
    Outcome,
    StatusClass,
    StatusPolicy,
    outcome_of,
)
from ._policy import Basis, CachePolicy
from ._robots import RobotsTxt, Verdict, parse, product_token
from ._rules import Group, RequestRate, Rule, RuleKind
from ._storages import Entry, MemoryStorage, Storage, TieredStorage
from ._sync import SyncRobotsClient
from ._transport import RobotsTransport

if TYPE_CHECKING:
    from ._storages import FileStorage, RedisStorage

__version__ = "0.1.0"

__all__ = [
    "GOOGLE",
    "RFC9309",
    "Basis",
    "CachePolicy",
    "Decided",
    "Decision",
    "Disallowed",
    "Entry",
    "Events",
    "FetchErrorKind",
    "FetchLimits",
    "FetchResult",
    "Fetched",
    "FileStorage",
    "Finding",
    "Group",
    "InvalidArgument",
    "InvalidPolicy",
    "InvalidURL",
    "InvalidUserAgent",
    "MemoryStorage",
    "Origin",
    "Outcome",
    "RedisStorage",
    "RequestRate",
    "RobotsClient",
    "RobotsError",
    "RobotsRecord",
    "RobotsTransport",
    "RobotsTxt",
    "Rule",
    "RuleKind",
    "RulesChanged",
    "Severity",
    "StatusClass",
    "StatusPolicy",
    "Storage",
    "StorageError",
    "SyncRobotsClient",
    "TieredStorage",
    "Verdict",
    "__version__",
    "fetch_robots",
    "origin_of",
    "outcome_of",
    "parse",
    "product_token",
]


def __getattr__(name: str) -> Any:
    """Import the file and Redis backends on first use (redis is an optional extra)."""
    if name in ("FileStorage", "RedisStorage"):
        from . import _storages

        return getattr(_storages, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
