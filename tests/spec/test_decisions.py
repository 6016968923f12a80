"""DECISIONS.md, decision by decision (D1-D9, D17, D18), plus hostile input in bounded time.

Categories:
- D1 Lines: BOM, CR / LF / CRLF / CR-only and mixed line ends, invalid UTF-8, `#` anywhere,
  the 512,000-byte cut (a line cut by it is dropped), junk lines skipped.
- D2 Keys: case and whitespace, accepted misspellings and missing colons, strict mode.
- D3 Groups: rules before any user-agent ignored, sitemap and unknown keys never end a group.
- D4 Agent matching: product tokens, merging, `*` fallback, no inheritance, no groups.
- D5 Rules: empty disallow / allow, patterns not starting with / or *, longest match in octets
  of the normalised pattern, allow wins ties, /robots.txt always allowed.
- D6 Wildcards: `*`, `$` at the end, `$` elsewhere literal.
- D7 Percent-encoding normal form: every example of D7.
- D8 index.html.
- D9 Extensions: crawl-delay, request-rate, sitemaps.
- D17 Errors: bad arguments raise, bad content never does.
- D18 Explain: agrees with can_fetch; the rule, line and group.
- Hostile input (D1, D6, issue 3): many wildcards on long paths, 10 MB, a million-char line,
  100,000 groups, 100k-line files. Results are asserted, never timings (bench/ measures time).
"""

from __future__ import annotations

import dataclasses
from concurrent.futures import ThreadPoolExecutor

import pytest

from robotsclient import (
    InvalidURL,
    InvalidUserAgent,
    RequestRate,
    RobotsError,
    RobotsTxt,
    Rule,
    RuleKind,
    Verdict,
    parse,
)

SITE = "https://example.com"
MAX_BYTES = 512_000  # D1


def check(robots: RobotsTxt | str | bytes, url: str, agent: str = "AnyBot") -> bool:
    """Return can_fetch, asserting that explain() gives the same answer (D18)."""
    if not isinstance(robots, RobotsTxt):
        robots = parse(robots)
    allowed = robots.can_fetch(url, agent)
    assert robots.explain(url, agent).allowed is allowed
    return allowed


def letters(number: int) -> str:
    """Return a distinct run of lowercase letters for `number` (product tokens hold no digits)."""
    name = ""
    number += 1
    while number:
        number, digit = divmod(number - 1, 26)
        name = chr(ord("a") + digit) + name
    return name


# --- D1 Lines -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(b"\xef\xbb\xbfUser-agent: *\nDisallow: /x\n", id="utf8-bom-bytes"),
        pytest.param("\ufeffUser-agent: *\nDisallow: /x\n", id="bom-str"),
        pytest.param(b"\xef\xbb\xbfUser-agent: *\r\nDisallow: /x\r\n", id="bom-crlf"),
        pytest.param(b"\xef\xbb\xbf\nUser-agent: *\nDisallow: /x\n", id="bom-then-blank-line"),
    ],
)
def test_d1_leading_bom_ignored(body: str | bytes) -> None:
    """D1: a leading BOM is ignored."""
    robots = parse(body)
    assert check(robots, SITE + "/x") is False
    assert [f for f in robots.lint() if f.line == 1] == []


@pytest.mark.parametrize(
    ("body", "rule_line"),
    [
        pytest.param("User-agent: *\nDisallow: /x\n", 2, id="LF"),
        pytest.param("User-agent: *\r\nDisallow: /x\r\n", 2, id="CRLF"),
        pytest.param("User-agent: *\rDisallow: /x\r", 2, id="CR"),
        pytest.param("User-agent: *\r\rDisallow: /x", 3, id="CR-CR"),
        pytest.param("User-agent: *\r\r\nDisallow: /x", 3, id="CR-CRLF"),
        pytest.param("User-agent: *\n\rDisallow: /x", 3, id="LF-CR"),
        pytest.param("User-agent: *\n\r\n\rDisallow: /x", 4, id="LF-CRLF-CR"),
        pytest.param("User-agent: *\r\n\r\n\nDisallow: /x", 4, id="CRLF-CRLF-LF"),
    ],
)
def test_d1_line_ends(body: str, rule_line: int) -> None:
    """D1: lines end at CR, LF or CRLF; a CRLF is one line end, other pairs are two."""
    verdict = parse(body).explain(SITE + "/x", "AnyBot")
    assert verdict.allowed is False
    assert verdict.rule is not None
    assert verdict.rule.line == rule_line
    assert parse(body.encode()).explain(SITE + "/x", "AnyBot") == verdict


def test_d1_cr_only_file_many_lines() -> None:
    """D1: a CR-only file (old Mac) numbers its lines like the LF file."""
    lines = ["User-agent: a", "Disallow: /a", "", "User-agent: b", "Disallow: /b", "Allow: /b/ok"]
    for sep in ("\n", "\r", "\r\n"):
        robots = parse(sep.join(lines))
        verdict = robots.explain(SITE + "/b/ok/1", "b")
        assert verdict.rule is not None
        assert (verdict.allowed, verdict.rule.line, verdict.group_lines) == (True, 6, (4,))


@pytest.mark.parametrize(
    ("body", "path", "expected"),
    [
        pytest.param(b"User-agent: *\nDisallow: /a\xff\n", "/a%FF", False, id="value-byte"),
        pytest.param(b"User-agent: *\nDisallow: /a\xff\n", "/a%ff", False, id="value-byte-lower"),
        pytest.param(b"User-agent: *\nDisallow: /a\xff\n", "/b", True, id="value-byte-other"),
        pytest.param(b"User-agent: *\nDisallow: /caf\xe9\n", "/caf%E9", False, id="latin-1"),
        pytest.param(
            b"User-agent: *\nDisallow: /private # caf\xe9 \xff\n", "/private", False, id="comment"
        ),
        pytest.param(
            b"User-agent: *\n\xff\xfe\xfd\nDisallow: /x\n", "/x", False, id="junk-line-between"
        ),
        pytest.param(b"User-agent: foo\xff\nDisallow: /x\n", "/x", False, id="agent-value"),
        pytest.param(
            b"User-agent: *\nDisallow: /\xc3\nDisallow: /y\n", "/y", False, id="truncated-seq"
        ),
    ],
)
def test_d1_invalid_utf8_line_keeps_what_it_can(body: bytes, path: str, expected: bool) -> None:
    """D1: invalid UTF-8 does not make the file invalid; a line keeps what it can. A stray
    octet in a pattern is kept as its percent-escape (D7, as Google's parser does)."""
    agent = "foo" if b"foo" in body else "AnyBot"
    assert check(body, SITE + path, agent) is expected


@pytest.mark.parametrize(
    ("body", "path", "expected"),
    [
        pytest.param("User-agent: *\nDisallow: /a#b\n", "/a", False, id="value-cut-at-hash"),
        pytest.param("User-agent: *\nDisallow: /a#b\n", "/a%23b", False, id="value-prefix"),
        pytest.param("User-agent: *\nDisallow: /a?b#c\n", "/a?b", False, id="query-then-hash"),
        pytest.param("User-agent: *#all\nDisallow: /x\n", "/x", False, id="agent-hash"),
        pytest.param("User-agent: *\nDisallow:#/x\n", "/x", True, id="empty-value"),
        pytest.param("User-agent: *\n# Disallow: /x\n", "/x", True, id="comment-line"),
        pytest.param("User-agent: *\n   # Disallow: /x\n", "/x", True, id="indented-comment"),
        pytest.param("User-agent: *\nDis#allow: /x\n", "/x", True, id="hash-in-key"),
        pytest.param("#User-agent: *\nDisallow: /x\n", "/x", True, id="agent-commented-out"),
    ],
)
def test_d1_hash_starts_comment_anywhere(body: str, path: str, expected: bool) -> None:
    """D1: `#` starts a comment anywhere on a line."""
    assert check(body, SITE + path) is expected


def test_d1_limit_file_of_exactly_512000_bytes() -> None:
    """D1: a file of exactly 512,000 bytes is parsed whole, its last line included."""
    head = b"User-agent: *\n"
    tail = b"Disallow: /last\n"
    body = head + b"#" * (MAX_BYTES - len(head) - len(tail) - 1) + b"\n" + tail
    assert len(body) == MAX_BYTES
    robots = parse(body)
    assert robots.truncated is False
    assert robots.size == MAX_BYTES
    assert check(robots, SITE + "/last") is False


def test_d1_limit_line_cut_by_limit_dropped() -> None:
    """D1: a line cut by the 512,000-byte limit is dropped whole, not kept in part."""
    head = b"User-agent: *\nDisallow: /first\n"
    cut_line = b"Disallow: /cut" + b"x" * 40 + b"\n"
    keep = MAX_BYTES - len(head) - 1 - 20 - len(b"Disallow: /cut")
    body = head + b"#" * keep + b"\n" + cut_line + b"Disallow: /after\n"
    assert body.index(b"/cut") + len(b"/cut") + 20 == MAX_BYTES
    robots = parse(body)
    assert robots.truncated is True
    assert robots.size <= MAX_BYTES
    assert check(robots, SITE + "/first") is False
    assert check(robots, SITE + "/cut" + "x" * 40) is True
    assert check(robots, SITE + "/cut" + "x" * 20) is True
    assert check(robots, SITE + "/after") is True


def test_d1_limit_one_byte_over() -> None:
    """D1: 512,001 bytes is truncated; the last, cut line is dropped."""
    head = b"User-agent: *\n"
    tail = b"Disallow: /last"
    body = head + b"#" * (MAX_BYTES + 1 - len(head) - len(tail) - 1) + b"\n" + tail
    assert len(body) == MAX_BYTES + 1
    robots = parse(body)
    assert robots.truncated is True
    assert check(robots, SITE + "/last") is True
    assert check(robots, SITE + "/las") is True


def test_d1_limit_counts_utf8_bytes_of_str_input() -> None:
    """D1: the limit is 512,000 bytes of UTF-8, also when a str is given (300,000 `é` are
    600,000 bytes)."""
    body = "User-agent: *\nDisallow: /first\n#" + "é" * 300_000 + "\nDisallow: /x\n"
    robots = parse(body)
    assert robots.truncated is True
    assert check(robots, SITE + "/first") is False
    assert check(robots, SITE + "/x") is True


def test_d1_small_file_size_and_not_truncated() -> None:
    """D1: robots.size is the number of bytes parsed; small files are not truncated."""
    body = "User-agent: *\nDisallow: /é\n".encode()
    robots = parse(body)
    assert robots.size == len(body)
    assert robots.truncated is False
    assert parse(body.decode()).size == len(body)


@pytest.mark.parametrize(
    "junk",
    [
        pytest.param("<html><body>", id="html"),
        pytest.param("<p>hello world</p>", id="html-text"),
        pytest.param("just some words", id="words"),
        pytest.param("}{][", id="punctuation"),
        pytest.param("\x00\x01\x02", id="control"),
        pytest.param("Disallow", id="key-only"),
    ],
)
def test_d1_junk_lines_skipped(junk: str) -> None:
    """D1: lines that are not `key: value` are skipped (never an error, never end a group)."""
    body = f"{junk}\nUser-agent: foo\n{junk}\nDisallow: /x\n{junk}\nAllow: /x/y\n"
    robots = parse(body)
    assert check(robots, SITE + "/x", "foo") is False
    assert check(robots, SITE + "/x/y", "foo") is True
    assert check(robots, SITE + "/x", "bar") is True


# --- D2 Keys ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("disallow: /x", id="lower"),
        pytest.param("DISALLOW: /x", id="upper"),
        pytest.param("DisAllow: /x", id="mixed"),
        pytest.param("  Disallow  :  /x  ", id="spaces"),
        pytest.param("\tDisallow\t:\t/x\t", id="tabs"),
    ],
)
@pytest.mark.parametrize("strict", [False, True])
def test_d2_keys_case_insensitive_whitespace_ignored(line: str, strict: bool) -> None:
    """D2: keys are case-insensitive, surrounding whitespace ignored, also in strict mode."""
    robots = parse(f"User-agent: *\n{line}\n", strict=strict)
    assert check(robots, SITE + "/x") is False
    assert check(robots, SITE + "/y") is True


DISALLOW_TYPOS = ["dissallow", "disalow", "diasllow", "disallaw", "dissalow"]


@pytest.mark.parametrize("typo", [*DISALLOW_TYPOS, "DISSALLOW", "Disalow"])
def test_d2_disallow_misspellings(typo: str) -> None:
    """D2: the common misspellings of disallow are accepted by default, rejected in strict."""
    body = f"User-agent: *\n{typo}: /x\n"
    assert check(parse(body), SITE + "/x") is False
    assert check(parse(body, strict=True), SITE + "/x") is True


@pytest.mark.parametrize("typo", ["useragent", "user agent", "UserAgent", "USER AGENT"])
def test_d2_user_agent_misspellings(typo: str) -> None:
    """D2: `useragent` and `user agent` are accepted by default; in strict mode the group never
    starts, so its rules are outside any group (D3)."""
    body = f"{typo}: FooBot\nDisallow: /x\n"
    assert check(parse(body), SITE + "/x", "FooBot") is False
    assert check(parse(body, strict=True), SITE + "/x", "FooBot") is True


@pytest.mark.parametrize("typo", ["site-map", "Site-Map"])
def test_d2_sitemap_misspelling(typo: str) -> None:
    """D2: `site-map` is accepted by default, rejected in strict mode."""
    body = f"{typo}: https://example.com/s.xml\n"
    assert parse(body).sitemaps == ["https://example.com/s.xml"]
    assert parse(body, strict=True).sitemaps == []


def test_d2_strict_keeps_sitemap() -> None:
    """D2: strict mode turns off misspellings and missing colons only; `sitemap` stays (RFC 9309
    2.2.4 lets crawlers interpret other records)."""
    assert parse("Sitemap: https://example.com/s.xml\n", strict=True).sitemaps == [
        "https://example.com/s.xml"
    ]


@pytest.mark.parametrize(
    ("body", "agent", "path", "expected"),
    [
        pytest.param("User-agent: *\nDisallow /x\n", "AnyBot", "/x", False, id="disallow"),
        pytest.param("User-agent FooBot\nDisallow: /x\n", "FooBot", "/x", False, id="user-agent"),
        pytest.param("User-agent: *\nDisallow: /\nAllow /x\n", "AnyBot", "/x", True, id="allow"),
        pytest.param("User-agent *\nDisallow\t/x\n", "AnyBot", "/x", False, id="tab"),
    ],
)
def test_d2_missing_colon(body: str, agent: str, path: str, expected: bool) -> None:
    """D2: a missing colon (`Disallow /x`) is accepted by default, not in strict mode."""
    assert check(parse(body), SITE + path, agent) is expected
    strict = parse(body, strict=True)
    assert check(strict, SITE + path, agent) is not expected or "Allow /x" in body


def test_d2_missing_colon_strict_allow_is_ignored() -> None:
    """D2: in strict mode `Allow /x` is not a rule, so `Disallow: /` decides."""
    robots = parse("User-agent: *\nDisallow: /\nAllow /x\n", strict=True)
    assert check(robots, SITE + "/x") is False


# --- D3 Groups ----------------------------------------------------------------------------------


def test_d3_rules_before_any_user_agent_ignored() -> None:
    """D3: rules before any user-agent line are ignored."""
    body = "Disallow: /a\nAllow: /b\nCrawl-delay: 9\n\nUser-agent: *\nDisallow: /b\n"
    robots = parse(body)
    assert check(robots, SITE + "/a") is True
    assert check(robots, SITE + "/b") is False
    assert robots.crawl_delay("AnyBot") is None


def test_d3_rules_only_no_groups() -> None:
    """D3: a file of rules and no user-agent line has no groups: everything allowed (D4)."""
    robots = parse("Disallow: /\nAllow: /x\n")
    assert check(robots, SITE + "/") is True
    assert robots.explain(SITE + "/", "AnyBot").agent is None


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("Sitemap: https://example.com/s.xml", id="sitemap"),
        pytest.param("Crawl-delay: 5", id="crawl-delay"),
        pytest.param("Request-rate: 1/5", id="request-rate"),
        pytest.param("Host: example.com", id="host"),
        pytest.param("Clean-param: ref /articles/", id="clean-param"),
        pytest.param("Noindex: /y", id="noindex"),
        pytest.param("Unicorns: /extinct", id="unknown"),
        pytest.param("<br>", id="junk"),
    ],
)
def test_d3_other_lines_do_not_end_a_group(line: str) -> None:
    """D3: sitemap and unknown keys (crawl-delay, host, clean-param, noindex, ...) do not end a
    group: the user-agent lines around them form one group."""
    body = f"User-agent: a\n{line}\nUser-agent: b\nDisallow: /x\n"
    robots = parse(body)
    assert check(robots, SITE + "/x", "a") is False
    assert check(robots, SITE + "/x", "b") is False
    assert check(robots, SITE + "/x", "c") is True


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("Sitemap: https://example.com/s.xml", id="sitemap"),
        pytest.param("Crawl-delay: 5", id="crawl-delay"),
        pytest.param("Host: example.com", id="host"),
        pytest.param("Noindex: /y", id="noindex"),
    ],
)
def test_d3_other_lines_between_rules_keep_the_group(line: str) -> None:
    """D3: a sitemap or unknown key between rules leaves the following rules in the group."""
    body = f"User-agent: a\nDisallow: /x\n{line}\nDisallow: /y\n"
    assert check(body, SITE + "/y", "a") is False
    assert check(body, SITE + "/y", "b") is True


@pytest.mark.parametrize(
    "rule",
    [
        pytest.param("Disallow: /q", id="disallow"),
        pytest.param("Allow: /q", id="allow"),
        pytest.param("Disallow:", id="empty-disallow"),
    ],
)
def test_d3_user_agent_after_rule_starts_new_group(rule: str) -> None:
    """D3: a user-agent line after a rule starts a new group (an empty disallow is a rule too,
    RFC 9309 2.2 `rule = ... (path-pattern / empty-pattern)`)."""
    body = f"User-agent: a\n{rule}\nUser-agent: b\nDisallow: /x\n"
    robots = parse(body)
    assert check(robots, SITE + "/x", "a") is True
    assert check(robots, SITE + "/x", "b") is False


def test_d3_consecutive_agents_across_blank_and_comment_lines() -> None:
    """D3: consecutive user-agent lines, with blank and comment lines between, form one group."""
    body = "User-agent: a\n\n# b too\nUser-agent: b\n\nDisallow: /x\n"
    verdict = parse(body).explain(SITE + "/x", "b")
    assert verdict.allowed is False
    assert set(verdict.group_lines) == {1, 4}
    assert {agent.lower() for agent in verdict.group_agents} == {"a", "b"}


# --- D4 Agent matching --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "agent",
    [
        pytest.param("ExampleBot", id="token"),
        pytest.param("examplebot", id="lower"),
        pytest.param("EXAMPLEBOT", id="upper"),
        pytest.param("ExampleBot/1.0", id="version"),
        pytest.param("ExampleBot/1.0 (+https://x)", id="header"),
        pytest.param("ExampleBot (+https://x)", id="space-comment"),
        pytest.param("ExampleBot;1", id="semicolon"),
    ],
)
def test_d4_caller_product_token(agent: str) -> None:
    """D4: the caller's product token is its leading [A-Za-z_-] run, case-insensitive."""
    robots = parse("User-agent: *\nAllow: /\n\nUser-agent: examplebot\nDisallow: /\n")
    assert check(robots, SITE + "/x", agent) is False
    assert (robots.explain(SITE + "/x", agent).agent or "").lower() == "examplebot"


@pytest.mark.parametrize(
    "value",
    [
        pytest.param("ExampleBot", id="plain"),
        pytest.param("examplebot", id="lower"),
        pytest.param("ExampleBot/2.0", id="version"),
        pytest.param("ExampleBot*", id="star"),
        pytest.param("ExampleBot (https://example.com/bot)", id="comment"),
    ],
)
def test_d4_user_agent_value_token(value: str) -> None:
    """D4: each user-agent value is compared by its own leading token."""
    robots = parse(f"User-agent: {value}\nDisallow: /\n")
    assert check(robots, SITE + "/x", "ExampleBot/1.0") is False
    assert check(robots, SITE + "/x", "OtherBot") is True


def test_d4_browser_like_header_has_leading_token_mozilla() -> None:
    """D4: `Mozilla/5.0 (compatible; ExampleBot/1.0)` has the token `Mozilla`; the caller must
    name `ExampleBot` to get its group."""
    body = "User-agent: ExampleBot\nDisallow: /e\n\nUser-agent: Mozilla\nDisallow: /m\n"
    header = "Mozilla/5.0 (compatible; ExampleBot/1.0)"
    robots = parse(body)
    assert check(robots, SITE + "/m", header) is False
    assert check(robots, SITE + "/e", header) is True
    assert check(robots, SITE + "/e", "ExampleBot") is False


def test_d4_token_stops_at_digits() -> None:
    """D4: the token is the leading run of [A-Za-z_-], so `Bot2000` and `Bot3000` both name `bot`."""
    robots = parse("User-agent: Bot2000\nDisallow: /\n")
    assert check(robots, SITE + "/x", "Bot3000/1.0") is False
    assert check(robots, SITE + "/x", "bot") is False
    assert check(robots, SITE + "/x", "BotX") is True


@pytest.mark.parametrize(
    ("group", "agent"),
    [
        pytest.param("Googlebot", "Googlebot-Image", id="longer-caller"),
        pytest.param("Googlebot-Image", "Googlebot", id="shorter-caller"),
        pytest.param("Google", "Googlebot", id="prefix-group"),
        pytest.param("bot", "robot", id="suffix"),
    ],
)
def test_d4_no_prefix_or_substring_matching(group: str, agent: str) -> None:
    """D4: tokens are compared whole; a group never applies to a longer or shorter token."""
    robots = parse(f"User-agent: *\nDisallow: /star\n\nUser-agent: {group}\nDisallow: /named\n")
    assert check(robots, SITE + "/named", agent) is True
    assert check(robots, SITE + "/star", agent) is False


def test_d4_named_groups_merged() -> None:
    """D4: all groups naming the token are merged into one, wherever they are."""
    body = (
        "User-agent: foo\nDisallow: /a\n\nUser-agent: bar\nDisallow: /b\n\n"
        "User-agent: FOO\nUser-agent: baz\nDisallow: /c\n"
    )
    robots = parse(body)
    assert [check(robots, SITE + p, "foo") for p in ("/a", "/b", "/c")] == [False, True, False]
    verdict = robots.explain(SITE + "/c", "foo")
    assert verdict.rule is not None
    assert verdict.rule.line == 9
    assert {1, 7} <= set(verdict.group_lines) <= {1, 7, 8}


def test_d4_star_groups_merged() -> None:
    """D4: when no group names the token, all `*` groups are merged."""
    body = (
        "User-agent: *\nDisallow: /a\nUser-agent: foo\nDisallow: /q\nUser-agent: *\nDisallow: /b\n"
    )
    robots = parse(body)
    assert [check(robots, SITE + p) for p in ("/a", "/b", "/q")] == [False, False, True]
    verdict = robots.explain(SITE + "/b", "AnyBot")
    assert verdict.agent == "*"
    assert set(verdict.group_lines) == {1, 5}


@pytest.mark.parametrize(
    "body",
    [
        pytest.param("User-agent: *\nDisallow: /a\n\nUser-agent: foo\nDisallow: /b\n", id="rules"),
        pytest.param("User-agent: *\nDisallow: /a\n\nUser-agent: foo\n", id="empty-named-group"),
        pytest.param("User-agent: foo\nAllow: /z\n\nUser-agent: *\nDisallow: /a\n", id="before"),
    ],
)
def test_d4_named_group_never_inherits_star(body: str) -> None:
    """D4: a named group never inherits `*` rules, even when it has none of its own."""
    assert check(body, SITE + "/a", "foo") is True
    assert check(body, SITE + "/a", "other") is False


def test_d4_agent_in_star_group_line_list() -> None:
    """D4: `User-agent: foo` listed with `*` in one group gets that group's rules."""
    body = "User-agent: foo\nUser-agent: *\nDisallow: /x\n"
    assert check(body, SITE + "/x", "foo") is False
    assert check(body, SITE + "/x", "bar") is False


@pytest.mark.parametrize(
    "body",
    [
        pytest.param("", id="empty"),
        pytest.param("\n\n# nothing\n", id="comments"),
        pytest.param("Sitemap: https://example.com/s.xml\n", id="sitemap-only"),
        pytest.param("User-agent: foo\nDisallow: /\n", id="other-agents-only"),
    ],
)
def test_d4_no_applicable_group_allows_all(body: str) -> None:
    """D4: no group for the token and no `*` group: everything is allowed."""
    robots = parse(body)
    assert check(robots, SITE + "/", "bar") is True
    assert check(robots, SITE + "/any/thing?x=1", "bar") is True
    verdict = robots.explain(SITE + "/", "bar")
    assert (verdict.agent, verdict.rule) == (None, None)


@pytest.mark.parametrize("token", ["Foo_Bar", "Foo-Bar", "_foo", "-foo-"])
def test_d4_underscore_and_hyphen_in_tokens(token: str) -> None:
    """D4: `_` and `-` are part of the product token."""
    robots = parse(f"User-agent: {token}\nDisallow: /\n")
    assert check(robots, SITE + "/x", token + "/1.0") is False
    assert check(robots, SITE + "/x", token.replace("_", "").replace("-", "") or "x") is True


@pytest.mark.parametrize(
    ("value", "applies"),
    [
        pytest.param("*bot", False, id="star-then-letters"),
        pytest.param("* ", True, id="star-trailing-space"),
        pytest.param("", False, id="empty"),
        pytest.param("2000", False, id="digits-only"),
    ],
)
def test_d4_user_agent_value_without_token(value: str, applies: bool) -> None:
    """D4: a user-agent value whose leading token is empty (`*bot`, ``, `2000`) names no crawler;
    `*` alone (whitespace stripped) is the star group."""
    assert check(f"User-agent: {value}\nDisallow: /\n", SITE + "/x") is not applies


def test_d3_empty_user_agent_value_still_starts_a_group() -> None:
    """D3/D4: an empty user-agent line after a rule starts a new group that names no crawler, so
    the rules after it do not join the previous group."""
    body = "User-agent: a\nDisallow: /x\nUser-agent:\nDisallow: /y\n"
    assert check(body, SITE + "/x", "a") is False
    assert check(body, SITE + "/y", "a") is True


def test_d4_many_distinct_agents_on_one_file() -> None:
    """D4: thousands of distinct agents on one parsed file each get their own group (or `*`),
    however the answers are cached."""
    groups = "".join(f"User-agent: {letters(i)}\nDisallow: /{letters(i)}$\n" for i in range(300))
    robots = parse("User-agent: *\nDisallow: /star\n" + groups)
    for _ in range(2):
        for i in range(0, 5000, 7):
            agent, token = f"{letters(i)}/1.{i}", letters(i)
            named = i < 300
            assert robots.can_fetch(f"/{token}", agent) is not named, agent
            assert robots.can_fetch("/star", agent) is named, agent


def test_d4_one_file_shared_between_threads() -> None:
    """D4/D5: a parsed file answers the same from several threads at once (STYLE: immutable
    rules, then match)."""
    groups = "".join(f"User-agent: {letters(i)}\nDisallow: /{letters(i)}/\n" for i in range(400))
    robots = parse("User-agent: *\nDisallow: /star/\n" + groups)
    queries = [(f"/{letters(i % 400)}/x", letters(i)) for i in range(3000)]
    expected = [i >= 400 for i in range(3000)]  # own group for the first 400, then `*`

    def worker(offset: int) -> list[bool]:
        order = queries[offset:] + queries[:offset]
        answers = [robots.can_fetch(path, agent) for path, agent in order]
        return answers[-offset:] + answers[:-offset] if offset else answers

    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(worker, [0, 750, 1500, 2250]))
    for answers in results:
        assert answers == expected


# --- D5 Rules -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("Disallow:", id="no-value"),
        pytest.param("Disallow:   ", id="spaces"),
        pytest.param("Disallow: # nothing", id="comment"),
    ],
)
def test_d5_empty_disallow_allows(line: str) -> None:
    """D5: an empty disallow value means nothing is disallowed."""
    robots = parse(f"User-agent: *\n{line}\n")
    assert check(robots, SITE + "/") is True
    assert check(robots, SITE + "/x") is True


def test_d5_empty_allow_ignored() -> None:
    """D5: an empty allow is ignored; it does not override `Disallow: /`."""
    robots = parse("User-agent: *\nDisallow: /\nAllow:\n")
    assert check(robots, SITE + "/x") is False
    verdict = robots.explain(SITE + "/x", "AnyBot")
    assert verdict.rule is not None
    assert verdict.rule.kind is RuleKind.DISALLOW


@pytest.mark.parametrize(
    ("rules", "path", "expected"),
    [
        pytest.param("Disallow: private", "/private", True, id="disallow-word"),
        pytest.param("Disallow: private/", "/private/x", True, id="disallow-dir"),
        pytest.param("Disallow: .gif", "/.gif", True, id="disallow-dot"),
        pytest.param("Disallow: /\nAllow: page", "/page", False, id="allow-word"),
        pytest.param("Disallow: ?q", "/?q", True, id="query"),
        pytest.param("Disallow: *private", "/a/private", False, id="star-start-matches"),
        pytest.param("Disallow: *", "/anything", False, id="star-only-matches"),
    ],
)
def test_d5_pattern_must_start_with_slash_or_star(rules: str, path: str, expected: bool) -> None:
    """D5: a pattern starting with neither `/` nor `*` matches nothing."""
    assert check(f"User-agent: *\n{rules}\n", SITE + path) is expected


@pytest.mark.parametrize(
    ("rules", "path", "expected", "kind"),
    [
        pytest.param(
            "Allow: /éé\nDisallow: /*abcdefgh",
            "/ééabcdefgh",
            True,
            RuleKind.ALLOW,
            id="non-ascii-counts-escaped-octets",
        ),
        pytest.param(
            "Allow: /ab*\nDisallow: /%61%62%63",
            "/abc",
            True,
            RuleKind.ALLOW,
            id="unreserved-escapes-count-decoded",
        ),
        pytest.param(
            "Allow: /%C3%A9\nDisallow: /é/",
            "/é/x",
            False,
            RuleKind.DISALLOW,
            id="longer-normalised-disallow",
        ),
        pytest.param("Allow: /a$\nDisallow: /a", "/a", True, RuleKind.ALLOW, id="dollar-counts"),
        pytest.param("Allow: /a\nDisallow: /*a", "/a", False, RuleKind.DISALLOW, id="star-counts"),
        pytest.param("Allow: /ab\nDisallow: /*b", "/ab", True, RuleKind.ALLOW, id="star-tie"),
    ],
)
def test_d5_longest_match_in_octets_of_normalised_pattern(
    rules: str, path: str, expected: bool, kind: RuleKind
) -> None:
    """D5: the longest matching pattern, in octets of its normalised form (D7), wins.

    `/éé` is 13 octets (`/%C3%A9%C3%A9`) and beats the 10-octet `/*abcdefgh`; `/%61%62%63` is
    `/abc`, 4 octets, a tie with `/ab*` that allow wins.
    """
    verdict = parse(f"User-agent: *\n{rules}\n").explain(SITE + path, "AnyBot")
    assert verdict.allowed is expected
    assert verdict.rule is not None
    assert verdict.rule.kind is kind


@pytest.mark.parametrize(
    "rules",
    [
        pytest.param("Allow: /a/b\nDisallow: /a/b", id="allow-first"),
        pytest.param("Disallow: /a/b\nAllow: /a/b", id="disallow-first"),
        pytest.param("Disallow: /a/b\nAllow: /a*b", id="wildcard-allow"),
        pytest.param("Disallow: /a*b\nAllow: /a/b", id="wildcard-disallow"),
        pytest.param("Disallow: /a/%62\nAllow: /a/b", id="escaped-disallow"),
    ],
)
def test_d5_allow_wins_ties(rules: str) -> None:
    """D5: on a tie in length, allow wins."""
    verdict = parse(f"User-agent: *\n{rules}\n").explain(SITE + "/a/b", "AnyBot")
    assert verdict.allowed is True
    assert verdict.rule is not None
    assert verdict.rule.kind is RuleKind.ALLOW


@pytest.mark.parametrize(
    ("body", "agent"),
    [
        pytest.param("User-agent: *\nDisallow: /\n", "AnyBot", id="star"),
        pytest.param("User-agent: foo\nDisallow: /\n", "foo", id="named"),
        pytest.param("User-agent: *\nDisallow: /robots.txt\n", "AnyBot", id="named-rule"),
        pytest.param("User-agent: *\nDisallow: /robots\n", "AnyBot", id="prefix-rule"),
        pytest.param("User-agent: *\nDisallow: /*.txt$\n", "AnyBot", id="wildcard-rule"),
    ],
)
@pytest.mark.parametrize(
    "url", ["/robots.txt", "https://example.com/robots.txt", "http://a.b:8080/robots.txt"]
)
def test_d5_robots_txt_always_allowed(body: str, agent: str, url: str) -> None:
    """D5: /robots.txt is always allowed."""
    robots = parse(body)
    assert check(robots, url, agent) is True
    assert robots.explain(url, agent).rule is None


@pytest.mark.parametrize("path", ["/robots.txt.bak", "/Robots.txt", "/a/robots.txt", "/robots"])
def test_d5_only_the_robots_txt_path_is_special(path: str) -> None:
    """D5: only /robots.txt itself is implicitly allowed."""
    assert check("User-agent: *\nDisallow: /\n", SITE + path) is False


# --- D6 Wildcards -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        pytest.param("/a*b", "/ab", True, id="star-empty-run"),
        pytest.param("/a*b", "/a/x/y/b", True, id="star-crosses-slashes"),
        pytest.param("/a*b", "/a?q=b", True, id="star-into-query"),
        pytest.param("/a*b", "/ba", False, id="star-order"),
        pytest.param("/*/*/c", "/a/b/c", True, id="two-stars"),
        pytest.param("/*/*/c", "/a/c", False, id="two-stars-too-few"),
        pytest.param("*.css", "/x/y.css", True, id="leading-star"),
        pytest.param("/*$", "/anything", True, id="star-dollar"),
        pytest.param("/$", "/", True, id="root-only"),
        pytest.param("/$", "/a", False, id="root-only-other"),
        pytest.param("/a$", "/a", True, id="dollar-exact"),
        pytest.param("/a$", "/a/", False, id="dollar-longer"),
        pytest.param("/a$", "/a?", False, id="dollar-empty-query"),
        pytest.param("/a*z$", "/a/b/z", True, id="star-then-dollar"),
        pytest.param("/a*z$", "/a/z/b", False, id="star-then-dollar-no"),
        pytest.param("/a*a*a*a*b", "/aaaab", True, id="repeated-a"),
        pytest.param("/a*a*a*a*b", "/aaab", False, id="repeated-a-too-few"),
    ],
)
def test_d6_star_and_dollar(pattern: str, path: str, matches: bool) -> None:
    """D6: `*` matches any run of characters; `$` at the end anchors the end of the path."""
    assert check(f"User-agent: *\nDisallow: {pattern}\n", SITE + path) is not matches


@pytest.mark.parametrize(
    ("path", "matches"),
    [
        pytest.param("/a$b", True, id="literal-dollar"),
        pytest.param("/a%24b", True, id="escaped-dollar"),
        pytest.param("/a$bc", True, id="prefix"),
        pytest.param("/a", False, id="not-anchored-at-a"),
        pytest.param("/ab", False, id="not-dropped"),
    ],
)
def test_d6_dollar_not_at_end_is_literal(path: str, matches: bool) -> None:
    """D6: a `$` that is not at the end of the pattern is a literal `$` (D7: equal to %24)."""
    assert check("User-agent: *\nDisallow: /a$b\n", SITE + path) is not matches


# --- D7 Percent-encoding ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        pytest.param("/a%2fb", "/a/b", False, id="slash-escape-not-slash"),
        pytest.param("/a/b", "/a%2fb", False, id="slash-not-slash-escape"),
        pytest.param("/a%2fb", "/a%2Fb", True, id="slash-escape-hex-case"),
        pytest.param("/a%2Fb", "/a%2fb", True, id="slash-escape-hex-case-2"),
        pytest.param("/%7Ea", "/~a", True, id="tilde-escape"),
        pytest.param("/~a", "/%7Ea", True, id="tilde-escape-url"),
        pytest.param("/~a", "/%7ea", True, id="tilde-escape-lower"),
        pytest.param("/%41", "/A", True, id="letter-escape"),
        pytest.param("/%2D%2E%5F", "/-._", True, id="unreserved-punct"),
        pytest.param("/é", "/%C3%A9", True, id="utf8-pattern"),
        pytest.param("/%C3%A9", "/é", True, id="utf8-url"),
        pytest.param("/%c3%a9", "/é", True, id="utf8-lower-hex"),
        pytest.param("/é", "/e", False, id="utf8-not-ascii"),
        pytest.param("/a b", "/a%20b", True, id="space-escaped"),
        pytest.param("/a%20b", "/a b", True, id="space-raw-url"),
        pytest.param('/a"b', "/a%22b", True, id="quote"),
        pytest.param("/a<b>", "/a%3Cb%3E", True, id="angle-brackets"),
        pytest.param("/a|b", "/a%7Cb", True, id="pipe"),
        pytest.param("/a:b", "/a%3Ab", False, id="path-colon-kept-apart"),
        pytest.param("/a%3Ab", "/a:b", False, id="path-colon-escape-kept-apart"),
        pytest.param("/a?b=c:d", "/a?b=c%3Ad", True, id="query-colon"),
        pytest.param("/a?b=c/d", "/a?b=c%2Fd", True, id="query-slash"),
        pytest.param("/a?b=c?d", "/a?b=c%3Fd", True, id="query-question"),
        pytest.param("/a?b=c@d", "/a?b=c%40d", True, id="query-at"),
        pytest.param("/a?b=c%3Ad", "/a?b=c:d", True, id="query-colon-escaped-pattern"),
        pytest.param(
            "/foo?baz=https://foo.bar",
            "/foo?baz=https%3A%2F%2Ffoo.bar",
            True,
            id="figure-4-query",
        ),
        pytest.param("/a?b=c&d", "/a?b=c%26d", False, id="query-ampersand-kept-apart"),
        pytest.param("/a%2Ab", "/a*b", True, id="url-star-is-2A"),
        pytest.param("/a%24", "/a$", True, id="url-dollar-is-24"),
        pytest.param("/a*b", "/a*b", True, id="pattern-star-is-wildcard"),
        pytest.param("/a%2Ab", "/axb", False, id="escaped-star-is-literal"),
        pytest.param("/a;b", "/a;b", True, id="params"),
    ],
)
def test_d7_normal_form(pattern: str, path: str, matches: bool) -> None:
    """D7: patterns and URLs are compared in one normal form (each example of D7)."""
    body = f"User-agent: *\nDisallow: {pattern}$\n"
    assert check(body, SITE + path) is not matches


def test_d7_fragment_not_matched() -> None:
    """D7: the fragment of a URL is not matched."""
    robots = parse("User-agent: *\nDisallow: /a$\nDisallow: /q?x$\n")
    assert check(robots, SITE + "/a#frag") is False
    assert check(robots, SITE + "/q?x#frag") is False
    assert check(robots, "/a#frag") is False


def test_d7_path_params_and_query_matched() -> None:
    """D7: the URL's path, params and query are matched."""
    robots = parse("User-agent: *\nDisallow: /a;p?q=1$\n")
    assert check(robots, SITE + "/a;p?q=1") is False
    assert check(robots, SITE + "/a;p?q=2") is True


def test_d7_host_and_port_not_matched() -> None:
    """D7: only the path and query are matched, never the scheme, host or port."""
    robots = parse("User-agent: *\nDisallow: /example\n")
    assert check(robots, "https://example.com/") is True
    assert check(robots, "http://example.com:8080/example") is False


@pytest.mark.parametrize(
    ("pattern", "path"),
    [
        pytest.param("/*q=:", "/x?q=%3A", id="literal-pattern-escaped-url"),
        pytest.param("/x?q=%3A", "/x?q=%3A", id="pattern-with-question-mark"),
        pytest.param("/*q=%3A", "/x?q=%3A", id="same-text"),
        pytest.param("/*q=%3A", "/x?q=:", id="escaped-pattern-literal-url"),
        pytest.param(
            "/*url=http%3A%2F%2F",
            "/r?url=http%3A%2F%2Fexample.org",
            id="redirect-parameter",
        ),
        pytest.param("/x*%40", "/x?a=%40", id="at-sign"),
    ],
)
def test_d7_query_escapes_after_a_wildcard(pattern: str, path: str) -> None:
    """D7 (figure 4): in the query, `:` `/` `?` `@` equal their escapes, also when a pattern's
    `*` runs into the query. A pattern spelled exactly like the URL must match it (Google's
    parser, which decodes nothing, matches these)."""
    assert check(f"User-agent: *\nDisallow: {pattern}\n", SITE + path) is False


def test_d7_escaped_question_mark_is_not_a_query() -> None:
    """D7: `%3F` in a path keeps its meaning; it is not the `?` that starts a query."""
    robots = parse("User-agent: *\nDisallow: /a%3Fb\n")
    assert check(robots, SITE + "/a?b") is True
    assert check(robots, SITE + "/a%3fb") is False


def test_d6_dollar_anchors_in_the_query() -> None:
    """D6/D7: the query is matched, and a final `$` anchors the end of it."""
    robots = parse("User-agent: *\nDisallow: /a?b=$\n")
    assert check(robots, SITE + "/a?b=") is False
    assert check(robots, SITE + "/a?b=c") is True


@pytest.mark.parametrize(
    ("url", "path"),
    [
        pytest.param("HTTPS://EXAMPLE.COM/x", "/x", id="upper-scheme"),
        pytest.param("Http://example.com/x", "/x", id="mixed-scheme"),
        pytest.param("https://user:pw@example.com/x", "/x", id="userinfo"),
        pytest.param("https://example.com:8443/x", "/x", id="port"),
        pytest.param("http://[::1]:8080/x", "/x", id="ipv6"),
        pytest.param("https://example.com?q=1", "/?q=1", id="query-without-path"),
        pytest.param("https://example.com#top", "/", id="fragment-without-path"),
    ],
)
def test_d7_url_forms(url: str, path: str) -> None:
    """D7/D17: an absolute http(s) URL in any valid form is reduced to its path and query."""
    robots = parse(f"User-agent: *\nDisallow: /\nAllow: {path}$\n")
    assert check(robots, url) is True
    assert check(robots, SITE + "/other") is False


# --- D8 index.html ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "path", "expected"),
    [
        pytest.param("Allow: /dir/index.html", "/dir/", True, id="html-dir"),
        pytest.param("Allow: /dir/index.htm", "/dir/", True, id="htm-dir"),
        pytest.param("Allow: /dir/index.html", "/dir/index.html", True, id="html-itself"),
        pytest.param("Allow: /dir/index.html", "/dir/x", False, id="html-other"),
        pytest.param("Allow: /dir/index.html", "/dir/?q=1", False, id="html-dir-query"),
        pytest.param("Allow: /dir/index.html", "/dir", False, id="html-no-slash"),
        pytest.param("Allow: /index.html", "/", True, id="root"),
        pytest.param("Allow: /a/b/index.html", "/a/b/", True, id="deep"),
        pytest.param("Allow: /a/b/index.html", "/a/", False, id="deep-parent"),
    ],
)
def test_d8_allow_index_html_allows_directory(rule: str, path: str, expected: bool) -> None:
    """D8: `Allow: /dir/index.htm[l]` also allows `/dir/` exactly (`/dir/$`)."""
    assert check(f"User-agent: *\nDisallow: /\n{rule}\n", SITE + path) is expected


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        pytest.param("/a/", True, id="one-level"),
        pytest.param("/a/b/", True, id="two-levels"),
        pytest.param("/a/x", False, id="not-directory"),
    ],
)
def test_d8_index_html_under_wildcard(path: str, expected: bool) -> None:
    """D8: `Allow: /*/index.html` also allows `/*/$`, as Google's parser rewrites it."""
    body = "User-agent: *\nDisallow: /\nAllow: /*/index.html\n"
    assert check(body, SITE + path) is expected


def test_d8_disallow_index_html_does_not_disallow_directory() -> None:
    """D8: only allow rules get the index.html treatment."""
    assert check("User-agent: *\nDisallow: /dir/index.html\n", SITE + "/dir/") is True


def test_d8_explain_names_the_index_rule() -> None:
    """D8 with D18: the deciding rule for `/dir/` is the index.html allow line."""
    verdict = parse("User-agent: *\nDisallow: /\nAllow: /dir/index.html\n").explain(
        SITE + "/dir/", "AnyBot"
    )
    assert verdict.allowed is True
    assert verdict.rule is not None
    assert (verdict.rule.kind, verdict.rule.line) == (RuleKind.ALLOW, 3)


# --- D9 Extensions ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param("5", 5.0, id="int"),
        pytest.param("0.5", 0.5, id="float"),
        pytest.param("10 # be gentle", 10.0, id="comment"),
        pytest.param("  2  ", 2.0, id="spaces"),
        pytest.param("0", 0.0, id="zero"),
        pytest.param("abc", None, id="word"),
        pytest.param("-1", None, id="negative"),
        pytest.param("", None, id="empty"),
        pytest.param("5s", None, id="unit"),
    ],
)
def test_d9_crawl_delay_values(value: str, expected: float | None) -> None:
    """D9: crawl-delay is seconds as a float; invalid values are ignored."""
    robots = parse(f"User-agent: *\nCrawl-delay: {value}\nDisallow: /x\n")
    assert robots.crawl_delay("AnyBot") == expected
    assert check(robots, SITE + "/x") is False


def test_d9_crawl_delay_first_value_of_merged_group() -> None:
    """D9: the merged group's first valid value is used."""
    body = (
        "User-agent: foo\nCrawl-delay: bad\nCrawl-delay: 3\nCrawl-delay: 4\n\n"
        "User-agent: foo\nCrawl-delay: 7\n"
    )
    assert parse(body).crawl_delay("foo") == 3.0
    body = "User-agent: foo\nDisallow: /\n\nUser-agent: foo\nCrawl-delay: 7\nCrawl-delay: 8\n"
    assert parse(body).crawl_delay("foo") == 7.0


def test_d9_crawl_delay_per_agent() -> None:
    """D9 with D4: a named group does not inherit the `*` crawl-delay; others get it. (A rule
    follows the crawl-delay: D3 would otherwise make `*` and `foo` one group.)"""
    body = "User-agent: *\nCrawl-delay: 10\nDisallow: /y\n\nUser-agent: foo\nDisallow: /x\n"
    robots = parse(body)
    assert robots.crawl_delay("foo") is None
    assert robots.crawl_delay("bar") == 10.0
    assert parse("").crawl_delay("bar") is None
    assert parse("User-agent: foo\nCrawl-delay: 1\n").crawl_delay("bar") is None


def test_d9_crawl_delay_key_case_insensitive() -> None:
    """D9 with D2: keys are case-insensitive."""
    assert parse("User-agent: *\nCRAWL-DELAY: 2.5\n").crawl_delay("AnyBot") == 2.5


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param("1/5", RequestRate(1, 5.0), id="simple"),
        pytest.param("3/10", RequestRate(3, 10.0), id="three"),
        pytest.param(" 1 / 5 ", RequestRate(1, 5.0), id="spaces"),
        pytest.param("1/5 # comment", RequestRate(1, 5.0), id="comment"),
        pytest.param("abc", None, id="word"),
        pytest.param("5", None, id="no-slash"),
        pytest.param("/5", None, id="no-requests"),
        pytest.param("1/", None, id="no-seconds"),
        pytest.param("x/5", None, id="bad-requests"),
        pytest.param("", None, id="empty"),
    ],
)
def test_d9_request_rate_values(value: str, expected: RequestRate | None) -> None:
    """D9: request-rate is `n/seconds`; invalid values are ignored."""
    rate = parse(f"User-agent: *\nRequest-rate: {value}\n").request_rate("AnyBot")
    if expected is None:
        assert rate is None
    else:
        assert rate is not None
        assert (rate.requests, rate.seconds) == (expected.requests, expected.seconds)


def test_d9_request_rate_per_agent_and_first_value() -> None:
    """D9: request-rate is per (merged) group, its first valid value; named groups don't inherit."""
    body = (
        "User-agent: *\nRequest-rate: 1/10\nDisallow: /y\n\n"
        "User-agent: foo\nRequest-rate: 2/5\nRequest-rate: 9/9\nDisallow: /z\n\nUser-agent: bar\n"
    )
    robots = parse(body)
    rate = robots.request_rate("foo")
    assert rate is not None
    assert (rate.requests, rate.seconds) == (2, 5.0)
    assert robots.request_rate("bar") is None
    other = robots.request_rate("other")
    assert other is not None
    assert (other.requests, other.seconds) == (1, 10.0)


def test_d9_sitemaps_in_order_deduplicated() -> None:
    """D9: sitemap URLs are collected file-wide, in order, deduplicated."""
    body = (
        "Sitemap: https://example.com/a.xml\n"
        "User-agent: foo\nSitemap: https://example.com/b.xml\nDisallow: /\n"
        "sitemap: https://example.com/a.xml\n"
        "User-agent: *\nSITEMAP:   https://example.com/c.xml   # last\n"
        "Sitemap: https://example.com/b.xml\n"
    )
    assert parse(body).sitemaps == [
        "https://example.com/a.xml",
        "https://example.com/b.xml",
        "https://example.com/c.xml",
    ]


def test_d9_extensions_never_change_verdicts() -> None:
    """D9: sitemap, crawl-delay and request-rate never change allow/deny."""
    plain = "User-agent: *\nDisallow: /x\nAllow: /x/y\n"
    extended = (
        "Sitemap: https://example.com/s.xml\nUser-agent: *\nCrawl-delay: 5\n"
        "Disallow: /x\nRequest-rate: 1/5\nSitemap: /relative.xml\nAllow: /x/y\n"
    )
    for path in ("/", "/x", "/x/y", "/x/z", "/sitemap.xml", "/s.xml"):
        assert check(plain, SITE + path) is check(extended, SITE + path)


# --- D17 Errors ---------------------------------------------------------------------------------

ROBOTS = "User-agent: *\nDisallow: /x\n"


@pytest.mark.parametrize(
    "url",
    [
        pytest.param(None, id="none"),
        pytest.param(123, id="int"),
        pytest.param(b"/x", id="bytes"),
        pytest.param("ftp://example.com/x", id="ftp"),
        pytest.param("mailto:someone@example.com", id="mailto"),
        pytest.param("javascript:alert(1)", id="javascript"),
        pytest.param("x", id="relative"),
        pytest.param("example.com/x", id="schemeless"),
        pytest.param("", id="empty"),
    ],
)
def test_d17_bad_url_raises_invalid_url(url: object) -> None:
    """D17: a URL that is neither an http(s) URL nor a path raises InvalidURL."""
    robots = parse(ROBOTS)
    with pytest.raises(InvalidURL):
        robots.can_fetch(url, "AnyBot")  # type: ignore[arg-type]
    with pytest.raises(InvalidURL):
        robots.explain(url, "AnyBot")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "agent",
    [
        pytest.param(None, id="none"),
        pytest.param(123, id="int"),
        pytest.param(b"AnyBot", id="bytes"),
        pytest.param(["AnyBot"], id="list"),
        pytest.param("", id="empty"),
        pytest.param("   ", id="blank"),
    ],
)
def test_d17_bad_user_agent_raises(agent: object) -> None:
    """D17: a non-string agent, or one with no product token, raises InvalidUserAgent."""
    robots = parse(ROBOTS)
    with pytest.raises(InvalidUserAgent):
        robots.can_fetch(SITE + "/x", agent)  # type: ignore[arg-type]
    with pytest.raises(InvalidUserAgent):
        robots.explain(SITE + "/x", agent)  # type: ignore[arg-type]
    with pytest.raises(InvalidUserAgent):
        robots.crawl_delay(agent)  # type: ignore[arg-type]
    with pytest.raises(InvalidUserAgent):
        robots.request_rate(agent)  # type: ignore[arg-type]


def test_d17_errors_share_one_root() -> None:
    """D17: the library's errors derive from RobotsError (and ValueError for bad arguments)."""
    robots = parse(ROBOTS)
    with pytest.raises(RobotsError):
        robots.can_fetch("ftp://x/y", "AnyBot")
    with pytest.raises(ValueError, match=r"."):
        robots.can_fetch(SITE + "/", 5)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(b"\x00" * 1000, id="nul"),
        pytest.param(bytes(range(256)) * 10, id="all-octets"),
        pytest.param(b"\xff\xfe\x00U\x00s\x00e\x00r", id="utf16"),
        pytest.param(b"\xef\xbb\xbf", id="bom-only"),
        pytest.param(b"\r\n" * 1000, id="blank-lines"),
        pytest.param(b":::\n:\n: :\n", id="colons"),
        pytest.param(b"User-agent:\nDisallow:\nAllow:\n", id="empty-values"),
        pytest.param(
            b"User-agent: *\nDisallow: %\nDisallow: %%\nDisallow: /%G1%", id="bad-escapes"
        ),
        pytest.param(b"User-agent: *\nDisallow: /$$$\nAllow: /***\nDisallow: $\n", id="specials"),
        pytest.param(b"User-agent: *\nCrawl-delay: 1e999\nRequest-rate: 1/0\n", id="bad-numbers"),
        pytest.param(b"User-agent: *\nCrawl-delay: nan\nCrawl-delay: inf\n", id="nan-inf"),
        pytest.param("User-agent: *\nDisallow: /a\udcff\n", id="lone-surrogate-str"),
        pytest.param("User-agent: \u0000\u200b*\nDisallow: /\u2028x\n", id="odd-unicode"),
        pytest.param(
            b"<!DOCTYPE html><html><head><meta charset=utf-8></head><body>500</body></html>",
            id="html",
        ),
    ],
)
def test_d17_bad_content_never_raises(body: str | bytes) -> None:
    """D17: bad robots.txt content never raises; every query answers."""
    robots = parse(body)
    for url in ("/", "/a", "/x?y=%zz", SITE + "/é/$/*", "/robots.txt"):
        for agent in ("AnyBot", "*", "Mozilla/5.0"):
            assert robots.explain(url, agent).allowed is robots.can_fetch(url, agent)
    robots.crawl_delay("AnyBot")
    robots.request_rate("AnyBot")
    assert isinstance(robots.sitemaps, list)
    assert isinstance(robots.lint(), list)
    assert isinstance(parse(body, strict=True).lint(), list)


def test_d17_str_and_bytes_parse_alike() -> None:
    """D17/D1: a body given as str or as its UTF-8 bytes gives the same answers."""
    body = "User-agent: *\nDisallow: /é\nAllow: /é/ok\nSitemap: https://example.com/ü.xml\n"
    text, data = parse(body), parse(body.encode())
    for path in ("/é", "/%C3%A9/ok", "/x"):
        assert text.explain(SITE + path, "AnyBot") == data.explain(SITE + path, "AnyBot")
    assert text.sitemaps == data.sitemaps
    assert text.lint() == data.lint()


# --- D18 Explain --------------------------------------------------------------------------------

EXPLAINED = """\
Sitemap: https://example.com/s.xml
User-agent: foo
User-agent: bar
Disallow: /private
Allow: /private/public

User-agent: *
Disallow: /
"""


def test_d18_explain_deciding_rule_line_and_group() -> None:
    """D18: explain gives the deciding rule with its line, and the matched group's agents."""
    robots = parse(EXPLAINED)
    verdict = robots.explain(SITE + "/private/x", "Bar/2.0")
    assert isinstance(verdict, Verdict)
    assert verdict.allowed is False
    assert (verdict.agent or "").lower() == "bar"
    assert verdict.rule == Rule(RuleKind.DISALLOW, "/private", 4)
    assert set(verdict.group_lines) == {2, 3}
    assert {agent.lower() for agent in verdict.group_agents} == {"foo", "bar"}
    assert verdict.reason
    assert "\n" not in verdict.reason

    allowed = robots.explain(SITE + "/private/public/1", "foo")
    assert allowed.allowed is True
    assert allowed.rule == Rule(RuleKind.ALLOW, "/private/public", 5)


def test_d18_explain_no_rule_matched() -> None:
    """D18: when no rule matches, the verdict is allowed with rule None ("no rule matched")."""
    verdict = parse(EXPLAINED).explain(SITE + "/open", "foo")
    assert verdict.allowed is True
    assert verdict.rule is None
    assert verdict.reason


def test_d18_explain_star_group() -> None:
    """D18: the `*` groups are reported with agent "*"."""
    verdict = parse(EXPLAINED).explain(SITE + "/open", "OtherBot")
    assert verdict.allowed is False
    assert verdict.agent == "*"
    assert verdict.group_lines == (7,)
    assert verdict.group_agents == ("*",)
    assert verdict.rule == Rule(RuleKind.DISALLOW, "/", 8)


def test_d18_explain_no_group() -> None:
    """D18: when no group applies, agent is None and nothing is matched."""
    verdict = parse("User-agent: foo\nDisallow: /\n").explain(SITE + "/x", "bar")
    assert verdict.allowed is True
    assert verdict.agent is None
    assert verdict.rule is None
    assert verdict.group_lines == ()
    assert verdict.group_agents == ()


def test_d18_verdict_and_rule_are_immutable() -> None:
    """D18: verdicts and rules are frozen values."""
    verdict = parse(EXPLAINED).explain(SITE + "/private", "foo")
    with pytest.raises((dataclasses.FrozenInstanceError, AttributeError)):
        verdict.allowed = True  # type: ignore[misc]
    assert verdict.rule is not None
    with pytest.raises((dataclasses.FrozenInstanceError, AttributeError)):
        verdict.rule.line = 1  # type: ignore[misc]


def test_d18_explain_pattern_as_written() -> None:
    """D18: the deciding rule keeps the pattern as written in the file."""
    verdict = parse("User-agent: *\nDisallow: /caf%c3%a9*\n").explain(SITE + "/café/x", "AnyBot")
    assert verdict.allowed is False
    assert verdict.rule == Rule(RuleKind.DISALLOW, "/caf%c3%a9*", 2)


# --- Hostile input ------------------------------------------------------------------------------

WILDCARDS = "/*a*a*a*a*a*a*a*a*b"


@pytest.mark.parametrize(
    ("path", "matches"),
    [
        pytest.param("/" + "a" * 5000, False, id="no-b"),
        pytest.param("/" + "a" * 5000 + "b", True, id="b-at-end"),
        pytest.param("/" + "a" * 2500 + "b" + "a" * 2500, True, id="b-in-middle"),
        pytest.param("/" + "ab" * 2500, True, id="alternating"),
        pytest.param("/" + "a" * 7 + "b" + "c" * 5000, False, id="too-few-a"),
    ],
)
def test_hostile_many_wildcards_long_path(path: str, matches: bool) -> None:
    """D6: `/*a*a*a*a*a*a*a*a*b` against a 5,000-character path gives the right answer."""
    robots = parse(f"User-agent: *\nDisallow: {WILDCARDS}\n")
    assert check(robots, SITE + path) is not matches
    anchored = parse(f"User-agent: *\nDisallow: {WILDCARDS}$\n")
    assert check(anchored, SITE + path) is not (matches and path.endswith("b"))


def test_hostile_many_wildcard_rules() -> None:
    """D6: hundreds of wildcard rules against a long path still give the longest match."""
    rules = "".join(f"Disallow: /*{letters(i)}*z\n" for i in range(500))
    robots = parse("User-agent: *\n" + rules + "Allow: /" + "q" * 200 + "\n")
    assert check(robots, SITE + "/" + "y" * 4000) is True
    assert check(robots, SITE + "/" + "y" * 4000 + "z") is False
    assert check(robots, SITE + "/" + "q" * 200 + "y" * 4000 + "z") is True


def test_hostile_ten_megabytes() -> None:
    """D1: a 10 MB file is parsed up to 512,000 bytes; later rules do not apply."""
    line = b"Disallow: /p%07d\n"
    count = 10_000_000 // len(line % 0)
    body = b"User-agent: *\n" + b"".join(line % i for i in range(count))
    assert len(body) >= 10_000_000
    robots = parse(body)
    assert robots.truncated is True
    assert robots.size <= MAX_BYTES
    assert check(robots, SITE + "/p0000000") is False
    assert check(robots, SITE + "/p0020000") is False
    assert check(robots, SITE + "/p0500000") is True
    assert check(robots, SITE + f"/p{count - 1:07d}") is True


def test_hostile_million_character_line() -> None:
    """D1: a million-character line crosses the 512,000-byte limit, so it is dropped whole."""
    body = "User-agent: *\nDisallow: /short\nDisallow: /" + "a" * 1_000_000 + "\nDisallow: /b\n"
    robots = parse(body)
    assert robots.truncated is True
    assert check(robots, SITE + "/short") is False
    assert check(robots, SITE + "/" + "a" * 20_000) is True
    assert check(robots, SITE + "/b") is True


def test_hostile_million_character_url() -> None:
    """D6/D7: a million-character URL is matched correctly against wildcard patterns."""
    robots = parse(f"User-agent: *\nDisallow: {WILDCARDS}$\nAllow: /*é\n")
    path = "/" + "a" * 1_000_000
    assert check(robots, SITE + path) is True
    assert check(robots, SITE + path + "b") is False
    assert check(robots, SITE + path + "é") is True


def test_hostile_hundred_thousand_groups() -> None:
    """D1/D3: 100,000 groups: those within 512,000 bytes apply, later ones do not."""
    star = "User-agent: *\nDisallow: /star\n"
    groups = "".join(f"User-agent: {letters(i)}\nDisallow: /{letters(i)}\n" for i in range(100_000))
    body = star + groups
    robots = parse(body)
    assert robots.truncated is True
    assert check(robots, SITE + "/a", "a") is False
    assert check(robots, SITE + "/b", "a") is True
    assert check(robots, SITE + "/star", "a") is True
    assert check(robots, SITE + "/abc", "abc") is False
    last = letters(99_999)
    assert check(robots, SITE + "/" + last, last) is True
    assert check(robots, SITE + "/star", last) is False


def test_hostile_hundred_thousand_star_groups() -> None:
    """D4: tens of thousands of `*` groups are merged; every rule within the limit applies."""
    body = "".join(f"User-agent: *\nDisallow: /{letters(i)}/\n" for i in range(100_000))
    robots = parse(body)
    assert check(robots, SITE + "/a/") is False
    assert check(robots, SITE + f"/{letters(5_000)}/x") is False
    assert check(robots, SITE + f"/{letters(99_999)}/") is True
    verdict = robots.explain(SITE + f"/{letters(5_000)}/x", "AnyBot")
    assert verdict.rule is not None
    assert verdict.rule.line == 2 * 5_000 + 2


@pytest.mark.parametrize("newline", ["\n", "\r", "\r\n"])
def test_hostile_hundred_thousand_lines(newline: str) -> None:
    """D1/D18: 100,000 comment lines before the rules: line numbers stay exact."""
    body = "#" + newline
    body = body * 100_000 + newline.join(["User-agent: *", "Disallow: /x", ""])
    robots = parse(body)
    verdict = robots.explain(SITE + "/x", "AnyBot")
    assert verdict.allowed is False
    assert verdict.rule is not None
    assert verdict.rule.line == 100_002
    assert verdict.group_lines == (100_001,)


def test_hostile_hundred_thousand_junk_lines() -> None:
    """D1: 100,000 junk lines are skipped, each reported, and the rules still apply."""
    body = "User-agent: *\n" + "x\n" * 100_000 + "Disallow: /x\n"
    robots = parse(body)
    assert check(robots, SITE + "/x") is False
    findings = robots.lint()
    assert len({f.line for f in findings}) == 100_000
    assert min(f.line for f in findings) == 2


def test_hostile_many_rules_one_group() -> None:
    """D5: tens of thousands of rules in one group: the longest match still wins."""
    rules = "".join(f"Disallow: /{letters(i)}\n" for i in range(30_000))
    robots = parse("User-agent: *\n" + rules + "Allow: /abc/d\n")
    assert check(robots, SITE + "/abc/x") is False
    assert check(robots, SITE + "/abc/d") is True
    assert check(robots, SITE + "/0") is True
