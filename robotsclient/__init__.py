"""robotsclient: may this user agent fetch this URL? A robots.txt parser and async client.

Behaviour follows Google's robots.txt specification and RFC 9309, with the contested points
settled in the project's DECISIONS (D1-D18).
"""

from __future__ import annotations

from ._exceptions import (
    Disallowed,
    InvalidArgument,
    InvalidURL,
    InvalidUserAgent,
    RobotsError,
    StorageError,
)
from ._lint import Finding, Severity
from ._outcome import FetchResult, Outcome, outcome_of
from ._robots import RobotsTxt, Verdict, parse, product_token
from ._rules import Group, RequestRate, Rule, RuleKind

__version__ = "0.1.0"

__all__ = [
    "Disallowed",
    "FetchResult",
    "Finding",
    "Group",
    "InvalidArgument",
    "InvalidURL",
    "InvalidUserAgent",
    "Outcome",
    "RequestRate",
    "RobotsError",
    "RobotsTxt",
    "Rule",
    "RuleKind",
    "Severity",
    "StorageError",
    "Verdict",
    "__version__",
    "outcome_of",
    "parse",
    "product_token",
]
