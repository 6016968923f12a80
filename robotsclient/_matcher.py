"""Longest-match rule matching in linear time, built once per merged group (DECISIONS D5-D8).

Every pattern is normalised (D7). The longest normalised pattern wins; on a tie, allow wins
(D5). An `Allow: /d/index.html` also allows `/d/` exactly (D8). Three kinds of rule:
- exact (no `*`, final `$`): one dict lookup of the whole path;
- prefix (no `*`): the prefixes in one sorted list; the longest that starts the path is found
  with a few binary searches, so 30,000 prefix rules cost about what 10 do;
- wildcard: split at `*` into literal segments matched left to right, each at its leftmost
  place. For `*`-only globs greedy leftmost matching is exact, so `/*a*a*a*a*b` costs a few
  linear scans and never backtracks (D6).
Groups of up to _SCAN_LIMIT rules are scanned in decision order instead (faster when small).
No regular expression is ever built from a pattern.

Query delimiters (D7, RFC 9309 figure 4): in a URL's query `:` `/` `?` `@` equal their escapes.
A pattern with a `?` has its query part normalised like the URL's (escapes decoded). A wildcard
pattern without one (`/*url=http%3A%2F%2F`) may still reach into the query through its `*`;
such a rule is also tried against the URL with its query delimiters escaped, the spelling the
pattern uses, so both spellings meet whichever side of the `?` they land on.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import TYPE_CHECKING, NamedTuple

from ._paths import PLAIN_PATTERN, normalize_pattern
from ._rules import Rule, RuleKind

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

__all__ = ["Match", "Matcher"]

_INDEX_PAGES = ("index.htm", "index.html", "index.htm$", "index.html$")
_SCAN_LIMIT = 24  # up to this many rules a plain ordered scan beats the index


class Match(NamedTuple):
    """A candidate rule: its priority (normalised pattern length), kind, and source rule."""

    priority: int
    allow: bool
    rule: Rule


class _Wild(NamedTuple):
    match: Match
    head: str  # the literal text before the first `*`
    middle: tuple[str, ...]  # segments between the head and the last one, empty ones dropped
    last: str
    anchored: bool


def _better(new: Match, old: Match | None) -> bool:
    if old is None or new.priority > old.priority:
        return True
    return new.priority == old.priority and new.allow and not old.allow


def _rank(match: Match) -> tuple[int, bool]:
    """Sort key putting the rule that would decide first: longest, then allow before disallow."""
    return (-match.priority, not match.allow)


class Matcher:
    """All rules of one merged group, indexed for longest-match lookups of normalised paths."""

    __slots__ = (
        "_exact",
        "_extra",
        "_heads",
        "_prefix",
        "_query_wild",
        "_scan",
        "_wild",
        "decide",
        "rule_count",
    )

    def __init__(self, rules: Iterable[Rule]) -> None:
        prefix: dict[str, Match] = {}
        exact: dict[str, Match] = {}
        seen: dict[tuple[str, bool], _Wild] = {}
        count = 0
        extra = 0
        allow_kind = RuleKind.ALLOW
        plain = PLAIN_PATTERN.match
        new_match = tuple.__new__  # skips NamedTuple's Python-level constructor: built per rule
        for rule in rules:
            written = rule[1]
            pattern = written if plain(written) else normalize_pattern(written)
            allow = rule[0] is allow_kind
            while True:  # runs twice for an index page's `/dir/$` twin (D8)
                count += 1
                match = new_match(Match, (len(pattern), allow, rule))
                if pattern[-1] == "$":
                    body = pattern[:-1]
                    table = exact
                else:
                    body = pattern.rstrip("*") if pattern[-1] == "*" else pattern
                    table = prefix
                if "*" in body:
                    key = (body, table is exact)
                    twin_wild = seen.get(key)
                    if twin_wild is None or _better(match, twin_wild.match):  # repeats: one entry
                        parts = body.split("*")
                        middle = tuple(part for part in parts[1:-1] if part)
                        seen[key] = _Wild(match, parts[0], middle, parts[-1], table is exact)
                else:
                    old = table.get(body)
                    if old is None or _better(match, old):
                        table[body] = match
                    if table is prefix and len(body) != len(pattern):
                        extra = max(extra, len(pattern) - len(body))
                twin = _index_twin(pattern) if allow and "index.htm" in pattern else None
                if twin is None or twin == pattern:
                    break
                pattern = twin
        wild = sorted(seen.values(), key=lambda entry: _rank(entry.match))
        self.rule_count = count
        self._exact = exact
        self._prefix = prefix
        self._heads = sorted(prefix)
        self._extra = extra
        self._wild = tuple(wild)
        self._scan = _flatten(prefix, exact, wild) if count <= _SCAN_LIMIT else None
        self._query_wild = tuple(entry for entry in wild if _reaches_query_escaped(entry))
        # The hot path calls `decide`: the plain matcher unless a rule needs the query pass.
        self.decide: Callable[[str], Match | None] = self.match if self._query_wild else self._match

    def match(self, path: str) -> Match | None:
        """Return the deciding rule for a normalised path, or None when no rule matches."""
        best = self._match(path)
        if self._query_wild and "?" in path:
            escaped = _escape_query_delimiters(path)
            for entry in self._query_wild:  # decision order: the first that matches is the best
                if best is not None and not _better(entry.match, best):
                    break
                if escaped.startswith(entry.head) and _wild_matches(entry, escaped):
                    return entry.match
        return best

    def _match(self, path: str) -> Match | None:
        scan = self._scan
        if scan is not None:
            for head, tail, exact, found in scan:  # small group: the first match decides
                if exact:
                    if path == head:
                        return found
                elif path.startswith(head) and (tail is None or _wild_matches(tail, path)):
                    return found
            return None
        best = self._exact.get(path) if self._exact else None
        if self._heads:
            best = self._longest_prefix(path, best)
        wild = self._wild
        if wild and (best is None or _better(wild[0].match, best)):
            for entry in wild:
                if best is not None and not _better(entry.match, best):
                    break  # sorted: no later rule can win
                if path.startswith(entry.head) and _wild_matches(entry, path):
                    return entry.match
        return best

    def allowed(self, path: str) -> bool:
        """Return True unless the deciding rule for `path` is a disallow."""
        found = self.decide(path)
        return found is None or found.allow

    def _longest_prefix(self, path: str, best: Match | None) -> Match | None:
        """Walk the prefix rules that start `path`, longest first, while one could still win."""
        heads = self._heads
        prefix = self._prefix
        extra = self._extra
        query = path
        while query:
            index = bisect_right(heads, query) - 1
            if index < 0:
                break
            head = heads[index]
            if query.startswith(head):
                found = prefix[head]
                if _better(found, best):
                    best = found
                if best is not None and len(head) + extra <= best.priority:
                    break  # a shorter head cannot reach this priority
                query = head[:-1]
            else:
                # Every head starting `query` starts the common part of `query` and `head`.
                low, high = 0, min(len(head), len(query))
                while low < high:
                    mid = (low + high + 1) // 2
                    if head.startswith(query[:mid]):
                        low = mid
                    else:
                        high = mid - 1
                query = query[:low]
        if not query and "" in prefix and _better(prefix[""], best):
            best = prefix[""]
        return best


def _wild_matches(wild: _Wild, path: str) -> bool:
    """Match the segments after the head (the caller checked the head), leftmost first."""
    pos = len(wild.head)
    for segment in wild.middle:
        at = path.find(segment, pos)
        if at < 0:
            return False
        pos = at + len(segment)
    last = wild.last
    if wild.anchored:
        return len(path) - len(last) >= pos and path.endswith(last)
    return not last or path.find(last, pos) >= 0


_Entry = tuple[str, "_Wild | None", bool, Match]


def _flatten(
    prefix: dict[str, Match], exact: dict[str, Match], wild: list[_Wild]
) -> tuple[_Entry, ...]:
    """Every rule as a (head, wildcard part, exact?, match) entry, in decision order."""
    entries: list[_Entry] = [(head, None, True, found) for head, found in exact.items()]
    entries.extend((head, None, False, found) for head, found in prefix.items())
    entries.extend((entry.head, entry, False, entry.match) for entry in wild)
    entries.sort(key=lambda entry: _rank(entry[3]))
    return tuple(entries)


_QUERY_ESCAPES = ("%3A", "%2F", "%3F", "%40")


def _reaches_query_escaped(entry: _Wild) -> bool:
    """Return True for a `?`-less wildcard rule spelling a query delimiter as an escape."""
    if "?" in entry.head or any("?" in part for part in entry.middle) or "?" in entry.last:
        return False
    tail = "".join(entry.middle) + entry.last
    return any(escape in tail for escape in _QUERY_ESCAPES)


def _escape_query_delimiters(path: str) -> str:
    """Return a normalised path with `:` `/` `?` `@` of its query escaped (figure 4)."""
    cut = path.index("?") + 1
    query = (
        path[cut:].replace(":", "%3A").replace("/", "%2F").replace("?", "%3F").replace("@", "%40")
    )
    return path[:cut] + query


def _index_twin(pattern: str) -> str | None:
    """Return `/dir/$` for an allowed `/dir/index.htm[l][$]`, which also allows `/dir/` (D8)."""
    slash = pattern.rfind("/")
    if slash >= 0 and pattern[slash + 1 :] in _INDEX_PAGES:
        return pattern[: slash + 1] + "$"
    return None
