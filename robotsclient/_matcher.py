"""Longest-match rule matching in linear time, built once per merged group (DECISIONS D5-D8).

A pattern is normalised (D7) and sorted into one of three kinds:
- prefix (no `*`, no final `$`): found by slicing the path at each distinct pattern length and
  looking the slice up in a dict, longest first;
- exact (no `*`, final `$`): one dict lookup of the whole path;
- wildcard: split at `*` into literal segments matched left to right with `str.find`, the
  leftmost place for each segment (greedy leftmost is exact for `*`-only globs), so a pattern
  such as `/*a*a*a*a*b` costs a few linear scans, never backtracking (D6).
The longest normalised pattern wins; on a tie, allow wins (D5). An `Allow: /d/index.html` also
allows `/d/` exactly (D8).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ._paths import normalize_pattern
from ._rules import Rule, RuleKind

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["Match", "Matcher"]

_INDEX_PAGES = ("index.htm", "index.html", "index.htm$", "index.html$")


class Match(NamedTuple):
    """A candidate rule: its priority (normalised pattern length), kind, and source rule."""

    priority: int
    allow: bool
    rule: Rule


class _Wild(NamedTuple):
    priority: int
    allow: bool
    rule: Rule
    first: str
    middle: tuple[str, ...]
    last: str
    anchored: bool


def _better(new: Match, old: Match | None) -> bool:
    return (
        old is None
        or new.priority > old.priority
        or (new.priority == old.priority and new.allow and not old.allow)
    )


class Matcher:
    """All rules of one merged group, indexed for longest-match lookups of normalised paths."""

    __slots__ = ("_exact", "_extra", "_lengths", "_prefix", "_wild", "rule_count")

    def __init__(self, rules: Iterable[Rule]) -> None:
        prefix: dict[int, dict[str, Match]] = {}
        exact: dict[str, Match] = {}
        wild: list[_Wild] = []
        extra = 0
        count = 0
        for rule, pattern in _expand(rules):
            count += 1
            allow = rule.kind is RuleKind.ALLOW
            match = Match(len(pattern), allow, rule)
            anchored = pattern.endswith("$")
            body = pattern[:-1] if anchored else pattern.rstrip("*")
            if "*" not in body:
                table = exact if anchored else prefix.setdefault(len(body), {})
                if _better(match, table.get(body)):
                    table[body] = match
                if not anchored:
                    extra = max(extra, match.priority - len(body))
                continue
            parts = body.split("*")
            wild.append(
                _Wild(
                    match.priority,
                    allow,
                    rule,
                    parts[0],
                    tuple(p for p in parts[1:-1] if p),
                    parts[-1],
                    anchored,
                )
            )
        wild.sort(key=lambda w: (-w.priority, not w.allow))
        self._prefix = prefix
        self._lengths = tuple(sorted(prefix, reverse=True))
        self._extra = extra
        self._exact = exact
        self._wild = tuple(wild)
        self.rule_count = count

    def match(self, path: str) -> Match | None:
        """Return the deciding rule for a normalised path, or None when no rule matches."""
        best: Match | None = None
        top = -1
        size = len(path)
        prefix = self._prefix
        extra = self._extra
        for length in self._lengths:
            if length > size:
                continue
            if length + extra < top:
                break
            found = prefix[length].get(path[:length])
            if found is not None and (
                found.priority > top
                or (found.priority == top and found.allow and best is not None and not best.allow)
            ):
                best, top = found, found.priority
        if self._exact:
            found = self._exact.get(path)
            if found is not None and _better(found, best):
                best, top = found, found.priority
        for wild in self._wild:
            if wild.priority < top or (
                wild.priority == top and best is not None and (best.allow or not wild.allow)
            ):
                break
            if _wild_matches(wild, path):
                return Match(wild.priority, wild.allow, wild.rule)
        return best

    def allowed(self, path: str) -> bool:
        """Return True unless the deciding rule for `path` is a disallow."""
        found = self.match(path)
        return found is None or found.allow


def _wild_matches(wild: _Wild, path: str) -> bool:
    first = wild.first
    if not path.startswith(first):
        return False
    pos = len(first)
    for segment in wild.middle:
        at = path.find(segment, pos)
        if at < 0:
            return False
        pos = at + len(segment)
    last = wild.last
    if wild.anchored:
        return len(path) - len(last) >= pos and path.endswith(last)
    return not last or path.find(last, pos) >= 0


def _expand(rules: Iterable[Rule]) -> Iterable[tuple[Rule, str]]:
    """Yield each rule with its normalised pattern, plus the `/dir/$` twin of index pages (D8)."""
    for rule in rules:
        pattern = normalize_pattern(rule.pattern)
        yield rule, pattern
        if rule.kind is RuleKind.ALLOW:
            slash = pattern.rfind("/")
            if slash >= 0 and pattern[slash + 1 :] in _INDEX_PAGES:
                yield rule, pattern[: slash + 1] + "$"
