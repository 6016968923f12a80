"""The rules a robots.txt file holds, and the handler that builds them from scanner events.

Groups follow DECISIONS D3: one or more consecutive user-agent lines, then rules; a user-agent
line after a rule starts a new group; rules before any user-agent line are ignored; sitemap and
unknown lines never end a group. Values are immutable once built.
"""

from __future__ import annotations

import enum
import math
import re
from dataclasses import dataclass
from typing import NamedTuple

from ._lint import Finding, Problem
from ._parser import Key

__all__ = ["STAR", "Group", "RequestRate", "Rule", "RuleKind", "RulesBuilder", "agent_token"]

STAR = "*"  # the token of `User-agent: *` groups
_TOKEN = re.compile(r"[A-Za-z_-]*")  # a product token is the leading run of these (D4)
_REQUEST_RATE = re.compile(r"(\d+)\s*/\s*(\d+(?:\.\d+)?)\s*([smhd]?)(?:\s+.*)?\Z", re.IGNORECASE)
_UNIT_SECONDS = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}


class RuleKind(enum.Enum):
    """Whether a rule allows or disallows the paths it matches."""

    ALLOW = "allow"
    DISALLOW = "disallow"


class Rule(NamedTuple):
    """One allow/disallow line: its kind, the pattern as written, and its line number.

    A NamedTuple rather than a dataclass: a large file holds tens of thousands of these, and a
    tuple is built several times faster and is as small.
    """

    kind: RuleKind
    pattern: str
    line: int

    def __str__(self) -> str:
        return f"{self.kind.value.capitalize()}: {self.pattern}"


class RequestRate(NamedTuple):
    """A `Request-rate: n/seconds` value: at most `requests` every `seconds` (D9)."""

    requests: int
    seconds: float


@dataclass(frozen=True, slots=True)
class Group:
    """One group: its user-agent values and lines, rules in file order, and extensions (D3, D9)."""

    agents: tuple[str, ...]
    agent_lines: tuple[int, ...]
    rules: tuple[Rule, ...]
    crawl_delay: float | None = None
    request_rate: RequestRate | None = None

    @property
    def tokens(self) -> tuple[str, ...]:
        """The product tokens this group names, lower-cased; STAR for `*` (D4)."""
        return tuple(agent_token(agent) for agent in self.agents)


def agent_token(value: str) -> str:
    """Return the token a `user-agent` value names: STAR, or its leading [A-Za-z_-] run, lowered.

    Like Google's parser, `*` followed by whitespace and more text is still the global agent.
    """
    if value[:1] == "*" and (len(value) == 1 or value[1] in " \t"):
        return STAR
    match = _TOKEN.match(value)
    return match.group().lower() if match else ""


class _GroupDraft:
    __slots__ = ("agent_lines", "agents", "crawl_delay", "request_rate", "rules")

    def __init__(self) -> None:
        self.agents: list[str] = []
        self.agent_lines: list[int] = []
        self.rules: list[Rule] = []
        self.crawl_delay: float | None = None
        self.request_rate: RequestRate | None = None

    def freeze(self) -> Group:
        return Group(
            tuple(self.agents),
            tuple(self.agent_lines),
            tuple(self.rules),
            self.crawl_delay,
            self.request_rate,
        )


_ALLOW, _DISALLOW = RuleKind.ALLOW, RuleKind.DISALLOW
_new_rule = tuple.__new__


class RulesBuilder:
    """ParseHandler that builds groups, sitemaps and the semantic lint findings."""

    def __init__(self) -> None:
        self._drafts: list[_GroupDraft] = []
        self._current: _GroupDraft | None = None
        self._seen_rule = (
            False  # a rule since the last user-agent line: the next one starts a group
        )
        self._sitemaps: dict[str, None] = {}
        self.findings: list[Finding] = []

    def user_agent(self, line: int, value: str) -> None:
        if self._current is None or self._seen_rule:
            self._current = _GroupDraft()
            self._drafts.append(self._current)
            self._seen_rule = False
        self._current.agents.append(value)
        self._current.agent_lines.append(line)
        if not agent_token(value):
            self.findings.append(Finding.of(Problem.EMPTY_AGENT, line, value))

    def rule(self, line: int, allow: bool, value: str) -> None:
        current = self._current
        if current is None:
            self.findings.append(Finding.of(Problem.RULE_OUTSIDE_GROUP, line))
            return
        self._seen_rule = True
        if value and (value[0] == "/" or value[0] == "*"):
            # tuple.__new__ skips NamedTuple's Python-level constructor: this is the hot line.
            current.rules.append(_new_rule(Rule, (_ALLOW if allow else _DISALLOW, value, line)))
            return
        if not value:
            if allow:
                self.findings.append(Finding.of(Problem.EMPTY_ALLOW, line))
            return  # an empty disallow disallows nothing (D5)
        self.findings.append(Finding.of(Problem.PATTERN_NOT_PATH, line))  # matches nothing (D5)

    def sitemap(self, line: int, value: str) -> None:
        if not value:
            return
        if not value.lower().startswith(("http://", "https://")):
            self.findings.append(Finding.of(Problem.SITEMAP_NOT_URL, line, value))
        self._sitemaps.setdefault(value)

    def extension(self, line: int, key: Key, value: str) -> None:
        current = self._current
        if current is None:
            self.findings.append(Finding.of(Problem.OUTSIDE_GROUP, line, key.value))
            return
        if key is Key.CRAWL_DELAY:
            delay = _parse_delay(value)
            if delay is None:
                self.findings.append(Finding.of(Problem.BAD_VALUE, line, key.value, value))
            elif current.crawl_delay is not None:
                self.findings.append(Finding.of(Problem.DUPLICATE_VALUE, line, key.value))
            else:
                current.crawl_delay = delay
        else:
            rate = _parse_rate(value)
            if rate is None:
                self.findings.append(Finding.of(Problem.BAD_VALUE, line, key.value, value))
            elif current.request_rate is not None:
                self.findings.append(Finding.of(Problem.DUPLICATE_VALUE, line, key.value))
            else:
                current.request_rate = rate

    def unknown(self, line: int, key: str, value: str) -> None:
        self.findings.append(Finding.of(Problem.UNKNOWN_KEY, line, key))

    def finding(self, finding: Finding) -> None:
        self.findings.append(finding)

    def groups(self) -> tuple[Group, ...]:
        """Return the groups built so far, frozen."""
        return tuple(draft.freeze() for draft in self._drafts)

    def sitemaps(self) -> tuple[str, ...]:
        """Return sitemap URLs in file order, without duplicates (D9)."""
        return tuple(self._sitemaps)


def _parse_delay(value: str) -> float | None:
    try:
        delay = float(value)
    except ValueError:
        return None
    return delay if math.isfinite(delay) and delay >= 0 else None


def _parse_rate(value: str) -> RequestRate | None:
    match = _REQUEST_RATE.match(value)
    if match is None:
        return None
    requests = int(match.group(1))
    seconds = float(match.group(2)) * _UNIT_SECONDS[match.group(3).lower()]
    if requests <= 0 or seconds <= 0:
        return None
    return RequestRate(requests, seconds)
