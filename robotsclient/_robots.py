"""A parsed robots.txt file: verdicts, explanations, extensions and lint (pure, no I/O).

Agent selection follows DECISIONS D4: the caller's product token (leading [A-Za-z_-] run of its
user agent, case-insensitive) picks every group naming it, merged; with none, every `*` group,
merged; with no groups at all, everything is allowed. A named group never inherits `*` rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ._exceptions import InvalidUserAgent
from ._matcher import Matcher
from ._parser import scan
from ._paths import PLAIN_PATH, is_robots_txt, normalize_path, path_of
from ._rules import STAR, Group, RequestRate, Rule, RulesBuilder, agent_token

if TYPE_CHECKING:
    from ._lint import Finding

__all__ = ["RobotsTxt", "Verdict", "parse", "product_token"]

_TOKEN = re.compile(r"[A-Za-z_-]*")
_TOKEN_CACHE: dict[str, str] = {}
_TOKEN_CACHE_SIZE = 4096
_MATCHER_CACHE_SIZE = 256  # distinct tokens remembered per file before the cache is reset
_plain = PLAIN_PATH.match


def product_token(user_agent: str) -> str:
    """Return the lower-cased product token of a user agent (D4): `ExampleBot/1.0` -> `examplebot`.

    `*` names the global groups. An agent with no token (`008`) gets "", which no group names, so
    the `*` groups apply to it. Raises InvalidUserAgent for a non-string or a blank string.
    """
    try:
        token = _TOKEN_CACHE.get(user_agent)
    except TypeError:
        token = None
    if token is not None:
        return token
    if not isinstance(user_agent, str):
        raise InvalidUserAgent(
            f"user agent must be a str, not {type(user_agent).__name__}", user_agent=user_agent
        )
    stripped = user_agent.strip()
    if not stripped:
        raise InvalidUserAgent("user agent must not be empty", user_agent=user_agent)
    if stripped == STAR:
        token = STAR
    else:
        match = _TOKEN.match(stripped)
        token = match.group().lower() if match else ""
    if len(_TOKEN_CACHE) >= _TOKEN_CACHE_SIZE:
        _TOKEN_CACHE.clear()
    _TOKEN_CACHE[user_agent] = token
    return token


@dataclass(frozen=True, slots=True)
class Verdict:
    """Why a path is allowed or not (D18).

    `agent` is the token whose groups applied (STAR for the `*` groups, None when no group
    applied); `group_agents` and `group_lines` are the merged groups' user-agent values and lines;
    `rule` is the deciding rule, None when no rule matched.
    """

    allowed: bool
    agent: str | None
    group_agents: tuple[str, ...]
    group_lines: tuple[int, ...]
    rule: Rule | None
    reason: str


class _Selection:
    """The merged groups for one token, and their matcher (built on first use)."""

    __slots__ = ("agent", "groups", "matcher")

    def __init__(self, agent: str | None, groups: tuple[Group, ...]) -> None:
        self.agent = agent
        self.groups = groups
        self.matcher = Matcher(rule for group in groups for rule in group.rules)


class RobotsTxt:
    """A parsed robots.txt file, built by `parse()`; immutable and safe to share between threads."""

    __slots__ = (
        "_by_token",
        "_empty",
        "_findings",
        "_selections",
        "_star",
        "groups",
        "sitemaps",
        "size",
        "strict",
        "truncated",
    )

    def __init__(
        self,
        groups: tuple[Group, ...],
        sitemaps: tuple[str, ...],
        findings: tuple[Finding, ...],
        *,
        size: int,
        truncated: bool,
        strict: bool,
    ) -> None:
        self.groups = groups
        self.sitemaps = list(sitemaps)
        self.size = size
        self.truncated = truncated
        self.strict = strict
        self._findings = findings
        by_token: dict[str, list[int]] = {}
        for index, group in enumerate(groups):
            for token in dict.fromkeys(group.tokens):
                if token:
                    by_token.setdefault(token, []).append(index)
        self._star = tuple(by_token.pop(STAR, ()))
        self._by_token = {token: tuple(indexes) for token, indexes in by_token.items()}
        self._selections: dict[str, _Selection] = {}
        self._empty = not groups

    def __repr__(self) -> str:
        return (
            f"<RobotsTxt groups={len(self.groups)} sitemaps={len(self.sitemaps)} size={self.size}>"
        )

    def _select(self, token: str) -> _Selection:
        selection = self._selections.get(token)
        if selection is None:
            indexes = self._by_token.get(token)
            if indexes is not None:
                selection = _Selection(token, tuple(self.groups[i] for i in indexes))
            else:
                selection = self._selections.get(STAR)
                if selection is None:
                    agent = STAR if self._star else None
                    selection = _Selection(agent, tuple(self.groups[i] for i in self._star))
                    self._selections[STAR] = selection
            if len(self._selections) >= _MATCHER_CACHE_SIZE:
                self._selections.clear()
            self._selections[token] = selection
        return selection

    def _allowed_path(self, path: str, token: str) -> bool:
        """Return the verdict for a raw path+query and a product token (the hot path)."""
        if self._empty:
            return True
        if not _plain(path):
            path = normalize_path(path)
        if is_robots_txt(path):
            return True
        selection = self._selections.get(token) or self._select(token)
        found = selection.matcher.decide(path)
        return found is None or found.allow

    def can_fetch(self, url: str, user_agent: str) -> bool:
        """Return True if `user_agent` may fetch `url` (an http(s) URL or a path like `/a?b=1`)."""
        path = path_of(url)  # bad arguments raise even when the file has no rules (D17)
        return self._allowed_path(path, product_token(user_agent))

    def explain(self, url: str, user_agent: str) -> Verdict:
        """Return the verdict for `url` with the group and the deciding rule and line (D18)."""
        token = product_token(user_agent)
        path = normalize_path(path_of(url))
        selection = self._select(token)
        agents = tuple(agent for group in selection.groups for agent in group.agents)
        lines = tuple(line for group in selection.groups for line in group.agent_lines)
        if is_robots_txt(path):
            return Verdict(
                True, selection.agent, agents, lines, None, "/robots.txt is always allowed (D5)"
            )
        if selection.agent is None:
            reason = "no group applies to this agent and there is no '*' group: allowed (D4)"
            return Verdict(True, None, agents, lines, None, reason)
        who = "the '*' group" if selection.agent == STAR else f"the group for {selection.agent!r}"
        where = ", ".join(str(line) for line in lines)
        found = selection.matcher.decide(path)
        if found is None:
            return Verdict(
                True,
                selection.agent,
                agents,
                lines,
                None,
                f"no rule of {who} (line {where}) matches: allowed",
            )
        verb = "allowed" if found.allow else "disallowed"
        reason = f"{verb} by '{found.rule}' (line {found.rule.line}) of {who} (line {where})"
        return Verdict(found.allow, selection.agent, agents, lines, found.rule, reason)

    def crawl_delay(self, user_agent: str) -> float | None:
        """Return `user_agent`'s crawl-delay in seconds, or None (D9: the merged group's first)."""
        for group in self._select(product_token(user_agent)).groups:
            if group.crawl_delay is not None:
                return group.crawl_delay
        return None

    def request_rate(self, user_agent: str) -> RequestRate | None:
        """Return the request-rate for `user_agent` as (requests, seconds), or None (D9)."""
        for group in self._select(product_token(user_agent)).groups:
            if group.request_rate is not None:
                return group.request_rate
        return None

    def agents(self) -> list[str]:
        """Return every product token named by a group, in file order (`*` included)."""
        tokens = (agent_token(agent) for group in self.groups for agent in group.agents)
        return list(dict.fromkeys(token for token in tokens if token))

    def lint(self) -> list[Finding]:
        """Return the problems found while parsing, ordered by line (D1, D2, D5, D9)."""
        return sorted(self._findings, key=lambda finding: finding.line)


def parse(body: bytes | bytearray | memoryview | str, *, strict: bool = False) -> RobotsTxt:
    """Parse a robots.txt body (bytes or str); never raises on content (D1, D17).

    `strict=True` accepts RFC 9309 keys only: no misspellings, no missing colons (D2).
    """
    builder = RulesBuilder()
    info = scan(body, builder, strict=strict)
    return RobotsTxt(
        builder.groups(),
        builder.sitemaps(),
        tuple(builder.findings),
        size=info.size,
        truncated=info.truncated,
        strict=strict,
    )
