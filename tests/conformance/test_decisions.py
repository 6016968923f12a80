"""DECISIONS D1-D9, D17, D18 for the parser, and lint findings with line numbers.

Categories: D1 lines (invalid UTF-8, junk, size cut), D2 keys (typos, strict mode, missing
colon), D3 groups, D4 agents, D5 rules, D6 wildcards, D7 normal form, D8 index.html, D9
extensions, D17 errors, D18 explain, lint.
"""

from __future__ import annotations

import pytest

from robotsclient import InvalidURL, InvalidUserAgent, RequestRate, RuleKind, Severity, parse


def codes(robots_text: str | bytes, *, strict: bool = False) -> list[tuple[int, str]]:
    return [(f.line, f.code) for f in parse(robots_text, strict=strict).lint()]


def test_d1_invalid_utf8_keeps_the_line() -> None:
    robots = parse(b"User-agent: *\nDisallow: /caf\xe9\nDisallow: /ok\n")
    assert not robots.can_fetch("/caf%E9", "bot")  # the byte is kept, as its escape
    assert not robots.can_fetch("/ok", "bot")
    assert (2, "invalid-utf8") in codes(b"User-agent: *\nDisallow: /caf\xe9\n")


def test_d1_junk_lines_skipped_and_reported() -> None:
    text = "<!DOCTYPE html>\nUser-agent: *\n\x00\x01binary\nDisallow: /x\n"
    robots = parse(text)
    assert not robots.can_fetch("/x", "bot")
    assert (1, "junk-line") in codes(text)
    assert (3, "junk-line") in codes(text)


def test_d1_line_cut_by_the_limit_is_dropped() -> None:
    head = "User-agent: *\n"
    filler = "#" * (512_000 - len(head) - len("Disallow: /cut") // 2 - 1) + "\n"
    text = head + filler + "Disallow: /cut\n"
    robots = parse(text)
    assert robots.truncated
    assert robots.can_fetch("/c", "bot")  # "Disallow: /c" (the half line) is not a rule


@pytest.mark.parametrize("spelling", ["dissallow", "disalow", "diasllow", "disallaw", "dissalow"])
def test_d2_disallow_typos_accepted_unless_strict(spelling: str) -> None:
    text = f"User-agent: *\n{spelling}: /x\n"
    assert not parse(text).can_fetch("/x", "bot")
    assert (2, "typo-key") in codes(text)
    assert parse(text, strict=True).can_fetch("/x", "bot")
    assert (2, "typo-rejected") in codes(text, strict=True)


@pytest.mark.parametrize("spelling", ["useragent", "user agent"])
def test_d2_user_agent_typos(spelling: str) -> None:
    text = f"{spelling}: FooBot\nDisallow: /x\n"
    assert not parse(text).can_fetch("/x", "FooBot")
    assert parse(text, strict=True).can_fetch("/x", "FooBot")


def test_d2_site_map_and_missing_colon() -> None:
    assert parse("site-map: https://a.example/s.xml\n").sitemaps == ["https://a.example/s.xml"]
    assert parse("site-map: https://a.example/s.xml\n", strict=True).sitemaps == []
    text = "User-agent: *\nDisallow /x\n"
    assert not parse(text).can_fetch("/x", "bot")
    assert parse(text, strict=True).can_fetch("/x", "bot")
    assert (2, "missing-colon") in codes(text)


def test_d2_keys_case_insensitive_and_whitespace() -> None:
    robots = parse("  USER-AGENT  :   *  \n\tdIsAlLoW\t:\t/x\t\n")
    assert not robots.can_fetch("/x", "bot")


def test_d3_groups() -> None:
    text = (
        "Disallow: /before\n"  # ignored: no group yet
        "User-agent: a\nCrawl-delay: 3\nUser-agent: b\nDisallow: /ab\n"  # crawl-delay does not end a group
        "Sitemap: https://x.example/s.xml\nUser-agent: c\n"  # after a rule: a new group
        "Sitemap: https://x.example/t.xml\nUser-agent: d\nDisallow: /cd\n"  # sitemap: c, d stay one
    )
    robots = parse(text)
    assert robots.can_fetch("/before", "a")
    assert not robots.can_fetch("/ab", "a") and not robots.can_fetch("/ab", "b")
    assert robots.crawl_delay("b") == 3.0
    assert robots.can_fetch("/cd", "a")
    assert not robots.can_fetch("/cd", "c") and not robots.can_fetch("/cd", "d")
    assert (1, "rule-outside-group") in codes(text)


def test_d4_product_token_and_merging() -> None:
    robots = parse(
        "User-agent: examplebot\nDisallow: /a\nUser-agent: *\nDisallow: /b\nUser-agent: ExampleBot/2.0\nDisallow: /c\n"
    )
    header = "ExampleBot/1.0 (+https://example.com/bot)"
    assert not robots.can_fetch("/a", header) and not robots.can_fetch("/c", header)
    assert robots.can_fetch("/b", header)  # a named group never inherits `*`
    assert robots.explain("/a", header).agent == "examplebot"
    assert not robots.can_fetch("/b", "Mozilla/5.0 (compatible; ExampleBot/1.0)")  # token: mozilla
    assert robots.can_fetch("/b", "ExampleBot")  # name the token separately
    assert parse("User-agent: a\nDisallow: /\n").can_fetch("/x", "b")  # no group applies: allow
    assert parse("").can_fetch("/x", "b")


def test_d4_agent_without_token_follows_star() -> None:
    robots = parse("User-agent: 008\nDisallow: /\nUser-agent: *\nDisallow: /star\n")
    assert robots.can_fetch("/x", "008")
    assert not robots.can_fetch("/star", "008")


def test_d5_rules() -> None:
    robots = parse("User-agent: *\nDisallow:\nAllow:\nDisallow: private\nDisallow: /a\nAllow: /a\n")
    assert robots.can_fetch("/private", "bot")  # not starting with / or *: matches nothing
    assert robots.can_fetch("/a", "bot")  # tie: allow
    assert robots.can_fetch("/robots.txt", "bot")
    assert parse("User-agent: *\nDisallow: /\n").can_fetch("/robots.txt?x=1", "bot")
    found = dict(codes("User-agent: *\nDisallow: private\nAllow:\n"))
    assert found == {2: "pattern-not-path", 3: "empty-allow"}


def test_d5_longest_in_octets_of_the_normal_form() -> None:
    """`/é` is 7 octets normalised (`/%C3%A9`), so it beats the 5-octet `/abcd`."""
    robots = parse("User-agent: *\nAllow: /é\nDisallow: /%C3%A9x\nDisallow: /\n")
    assert robots.can_fetch("/é", "bot")
    assert not robots.can_fetch("/éx", "bot")


def test_d6_wildcards_and_literal_dollar() -> None:
    robots = parse("User-agent: *\nDisallow: /a$b\nDisallow: /*.pdf$\nDisallow: /x*y*z\n")
    assert not robots.can_fetch("/a$b/c", "bot")  # `$` inside a pattern is a literal
    assert robots.can_fetch("/ab", "bot")
    assert not robots.can_fetch("/f.pdf", "bot") and robots.can_fetch("/f.pdf?x", "bot")
    assert not robots.can_fetch("/x1y2z3", "bot") and robots.can_fetch("/x1z2y", "bot")


def test_d6_pathological_pattern_answers() -> None:
    robots = parse("User-agent: *\nDisallow: /*a*a*a*a*a*a*a*a*b\n")
    assert robots.can_fetch("/" + "a" * 5000, "bot")
    assert not robots.can_fetch("/" + "a" * 5000 + "b", "bot")


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("/a%2fb", "/a/b", False),
        ("/a%2fb", "/a%2Fb", True),
        ("/%7Ea", "/~a", True),
        ("/~a", "/%7ea", True),
        ("/é", "/%C3%A9", True),
        ("/%c3%a9", "/é", True),
        ("/q?u=https://f.b", "/q?u=https%3A%2F%2Ff.b", True),
        ("/q?u=%40", "/q?u=@", True),
        ("/p%3Ax", "/p:x", False),  # only in the query do :/?@ equal their escapes
        ("/a%2A", "/a*", True),
        ("/a%24", "/a$", True),
        ("/x", "/x#frag", True),
    ],
)
def test_d7_normal_form(pattern: str, path: str, matches: bool) -> None:
    robots = parse(f"User-agent: *\nDisallow: {pattern}\n")
    assert robots.can_fetch(path, "bot") is not matches


@pytest.mark.parametrize("page", ["index.html", "index.htm"])
def test_d8_index_page_allows_its_directory(page: str) -> None:
    robots = parse(f"User-agent: *\nDisallow: /d/\nAllow: /d/{page}\n")
    assert robots.can_fetch("/d/", "bot")
    assert not robots.can_fetch("/d/other", "bot")
    assert robots.explain("/d/", "bot").rule.pattern == f"/d/{page}"


def test_d9_extensions() -> None:
    text = (
        "User-agent: a\nCrawl-delay: 2.5\nCrawl-delay: 9\nRequest-rate: 3/10s\nDisallow: /q\n"
        "User-agent: b\nCrawl-delay: soon\nRequest-rate: 1/1m\nDisallow: /r\n"
        "User-agent: a\nCrawl-delay: 7\nDisallow: /x\n"
        "Sitemap: https://x.example/1.xml\nSitemap: https://x.example/2.xml\nSitemap: https://x.example/1.xml\n"
    )
    robots = parse(text)
    assert robots.crawl_delay("a") == 2.5  # the merged group's first value
    assert robots.request_rate("a") == RequestRate(3, 10.0)
    assert robots.crawl_delay("b") is None
    assert robots.request_rate("b") == RequestRate(1, 60.0)
    assert robots.crawl_delay("other") is None
    assert robots.sitemaps == ["https://x.example/1.xml", "https://x.example/2.xml"]
    found = codes(text)
    assert (3, "duplicate-value") in found
    assert (7, "bad-value") in found


@pytest.mark.parametrize("agent", [None, 42, b"bot", "", "   "])
def test_d17_bad_agent_raises(agent: object) -> None:
    with pytest.raises(InvalidUserAgent):
        parse("User-agent: *\n").can_fetch("/x", agent)  # type: ignore[arg-type]


@pytest.mark.parametrize("url", ["ftp://example.com/x", "mailto:a@b.c", "example.com/x", "", 7])
def test_d17_bad_url_raises(url: object) -> None:
    with pytest.raises(InvalidURL) as info:
        parse("User-agent: *\n").can_fetch(url, "bot")  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    "body",
    [
        b"\x00\xff" * 1000,
        b"<html><body>404</body></html>",
        "\u2028\u2029\x85User-agent: *",
        b"\r\r\r\n\n",
    ],
)
def test_d17_bad_content_never_raises(body: bytes | str) -> None:
    robots = parse(body)
    assert robots.can_fetch("/x", "bot") in (True, False)
    robots.lint()


def test_d18_explain() -> None:
    robots = parse("# header\nUser-agent: a\nUser-agent: b\nDisallow: /x\nAllow: /x/y\n")
    verdict = robots.explain("https://e.example/x/z", "a")
    assert verdict.allowed is False
    assert verdict.agent == "a"
    assert verdict.group_agents == ("a", "b")
    assert verdict.group_lines == (2, 3)
    assert verdict.rule is not None
    assert (verdict.rule.kind, verdict.rule.pattern, verdict.rule.line) == (
        RuleKind.DISALLOW,
        "/x",
        4,
    )
    assert "line 4" in verdict.reason
    none = robots.explain("/elsewhere", "a")
    assert none.allowed and none.rule is None and "no rule" in none.reason
    nobody = robots.explain("/x", "c")
    assert nobody.allowed and nobody.agent is None


def test_lint_is_ordered_and_severities() -> None:
    findings = parse("Disallow: /a\nUser-agent: *\nfoo: bar\nDissallow: /b\n").lint()
    assert [f.line for f in findings] == sorted(f.line for f in findings)
    by_code = {f.code: f for f in findings}
    assert by_code["rule-outside-group"].severity is Severity.ERROR
    assert by_code["typo-key"].severity is Severity.WARNING
    assert by_code["unknown-key"].severity is Severity.INFO
    assert str(by_code["typo-key"]).startswith("line 4: warning:")
