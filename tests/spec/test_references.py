"""Reference checks (hypothesis) and hostile input in bounded time (D1, D5, D6, D17, D18).

Categories: never raising on arbitrary bytes or robots-ish text; longest-match precedence
against a brute-force reference; explain() agreeing with can_fetch(); hostile files (10 MB,
a million-character line, 100,000 groups, 100,000 lines, pathological wildcards) answered.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from robotsclient import parse

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TOKENS = st.sampled_from(
    ["User-agent:", "user-agent: *", "Disallow:", "Allow:", "Sitemap:", "Crawl-delay:", "#", " ", "\t",
     "\n", "\r", "\r\n", "/", "*", "$", "%", "%2F", "%41", "a", "é", "?", "=", "\x00", "\ufeff", ":"]
)  # fmt: skip
AGENTS = st.sampled_from(["bot", "Bot/1.0", "*", "other", "008", "a-b_c"])
PATHS = st.text(alphabet="/ab*$?%2F=é", max_size=12).map(lambda s: "/" + s)


@SETTINGS
@given(st.binary(max_size=2000), PATHS, AGENTS)
def test_never_raises_on_arbitrary_bytes(body: bytes, path: str, agent: str) -> None:
    robots = parse(body)
    verdict = robots.explain(path, agent)
    assert verdict.allowed is robots.can_fetch(path, agent)
    robots.lint()
    robots.crawl_delay(agent)
    robots.request_rate(agent)


@SETTINGS
@given(st.lists(TOKENS, max_size=80).map("".join), PATHS, AGENTS)
def test_never_raises_on_robots_like_text(text: str, path: str, agent: str) -> None:
    robots = parse(text)
    assert robots.explain(path, agent).allowed is robots.can_fetch(path, agent)


LITERAL = st.text(alphabet="abc/", min_size=0, max_size=6).map(lambda s: "/" + s)


def reference(rules: list[tuple[bool, str]], path: str) -> bool:
    """Brute force: every matching literal prefix, the longest wins, allow on ties (D5)."""
    best: tuple[int, bool] | None = None
    for allow, pattern in rules:
        if path.startswith(pattern):
            key = (len(pattern), allow)
            if best is None or key > best:
                best = key
    return best is None or best[1]


@SETTINGS
@given(st.lists(st.tuples(st.booleans(), LITERAL), max_size=30), LITERAL)
def test_longest_match_precedence(rules: list[tuple[bool, str]], path: str) -> None:
    text = "User-agent: *\n" + "".join(f"{'Allow' if a else 'Disallow'}: {p}\n" for a, p in rules)
    robots = parse(text)
    if path in ("/robots.txt",):
        return
    assert robots.can_fetch(path, "bot") is reference(rules, path)


GLOB = st.text(alphabet="ab*", min_size=0, max_size=6).map(lambda s: "/" + s)


def glob_reference(pattern: str, path: str) -> bool:
    """Dynamic programming over the pattern: `*` any run, `$` at the end anchors (D6)."""
    anchored = pattern.endswith("$")
    body = pattern[:-1] if anchored else pattern
    reach = {0}
    for char in body:
        if char == "*":
            reach = set(range(min(reach), len(path) + 1)) if reach else set()
        else:
            reach = {i + 1 for i in reach if i < len(path) and path[i] == char}
    return (len(path) in reach) if anchored else bool(reach)


@SETTINGS
@given(GLOB, st.booleans(), st.text(alphabet="ab", max_size=10).map(lambda s: "/" + s))
def test_wildcards_match_like_a_reference_glob(pattern: str, anchored: bool, path: str) -> None:
    pattern = pattern + ("$" if anchored else "")
    robots = parse(f"User-agent: *\nDisallow: {pattern}\n")
    assert robots.can_fetch(path, "bot") is not glob_reference(pattern, path)


def test_hostile_ten_megabytes() -> None:
    body = b"User-agent: *\n" + b"Disallow: /x\n" * 800_000
    robots = parse(body)
    assert robots.truncated and robots.size <= 512_000
    assert not robots.can_fetch("/x", "bot")


def test_hostile_million_character_line() -> None:
    robots = parse("User-agent: *\nDisallow: /" + "a" * 1_000_000 + "\nDisallow: /b\n")
    assert robots.can_fetch("/b", "bot")  # beyond the 512,000-byte cut (D1)
    robots = parse("User-agent: *\nDisallow: /" + "a" * 100_000 + "\nDisallow: /b\n")
    assert not robots.can_fetch("/b", "bot")
    assert not robots.can_fetch("/" + "a" * 20_000, "bot")  # the cut line still matches


def _name(number: int) -> str:
    letters = ""
    while True:
        number, digit = divmod(number, 26)
        letters += chr(ord("a") + digit)
        if not number:
            return "bot" + letters


def test_hostile_many_groups_and_lines() -> None:
    """100,000 groups (about 3 MB): the first 512,000 bytes count (D1), each group its own."""
    groups = "User-agent: *\nDisallow: /star\n" + "".join(
        f"User-agent: {_name(i)}\nDisallow: /{i}\n" for i in range(100_000)
    )
    robots = parse(groups)
    assert robots.truncated
    assert not robots.can_fetch("/5", _name(5))
    assert robots.can_fetch("/6", _name(5))
    assert not robots.can_fetch("/star", "other")
    assert robots.can_fetch("/5", _name(99_999))  # beyond the cut: no group, the `*` one applies
    assert not robots.can_fetch("/star", _name(99_999))
    lines = parse("User-agent: *\n" + "Allow: /a\n" * 100_000)
    assert lines.can_fetch("/b", "bot")


def test_hostile_pathological_wildcards() -> None:
    rules = "".join(f"Disallow: /*a*a*a*a*a*a*a*a*b{i}\n" for i in range(1000))
    robots = parse("User-agent: *\n" + rules)
    assert robots.can_fetch("/" + "a" * 5000, "bot")
    assert not robots.can_fetch("/" + "a" * 5000 + "b7", "bot")
