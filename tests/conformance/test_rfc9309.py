"""RFC 9309 (Robots Exclusion Protocol): the examples of its sections 2 and 5.

Categories: 2.2.1 user-agent line (case-insensitive product token, `*` fallback, no group =
no rules, merging), 2.2.2 allow/disallow (longest match, allow on ties, /robots.txt implicitly
allowed, table 1 percent-encoding), 2.2.3 special characters (figure 6), 2.2.4 other records,
2.5 limits, 5.1 simple example, 5.2 longest match.
"""

from __future__ import annotations

import pytest

from robotsclient import parse
from tests.conformance.helpers import allowed

SIMPLE_EXAMPLE = """User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

EOF
"""


@pytest.mark.parametrize(
    ("agent", "path", "expected"),
    [
        ("otherbot", "/example/page.html", False),
        ("otherbot", "/publications/x", True),
        ("otherbot", "/image.gif", False),  # `*.gif$` starts with `*`: a valid pattern
        ("otherbot", "/image.gif?x", True),
        ("foobot", "/example/page.html", True),
        ("foobot", "/example/allowed.gif", True),
        ("foobot", "/other", False),
        ("barbot", "/example/page.html", False),
        ("bazbot", "/example/page.html", False),
        ("bazbot", "/example/other", True),
        ("quxbot", "/example/page.html", True),  # an empty group allows everything
        ("quxbot", "/anything.gif", True),
    ],
)
def test_5_1_simple_example(agent: str, path: str, expected: bool) -> None:
    """Section 5.1, every group; the trailing `EOF` line is junk and ignored."""
    assert allowed(SIMPLE_EXAMPLE, agent, f"https://www.example.com{path}") is expected


def test_5_2_longest_match() -> None:
    robotstxt = (
        "User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n"
    )
    assert allowed(robotstxt, "foobot", "https://www.example.com/example/page/")
    assert not allowed(robotstxt, "foobot", "https://www.example.com/example/page/disallowed.gif")


def test_2_2_1_product_token_case_insensitive_and_fallback() -> None:
    robotstxt = "user-agent: ExampleBot\ndisallow: /foo\n\nuser-agent: *\ndisallow: /bar\n"
    assert not allowed(robotstxt, "examplebot", "/foo")
    assert allowed(robotstxt, "EXAMPLEBOT/1.0", "/bar")  # its own group only
    assert not allowed(robotstxt, "OtherBot", "/bar")  # falls back to `*`
    assert allowed("user-agent: ExampleBot\ndisallow: /\n", "OtherBot", "/x")  # no group: no rules


def test_2_2_1_groups_for_one_agent_are_combined() -> None:
    robotstxt = "user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: ExampleBot\ndisallow: /baz\n"
    for path in ("/foo", "/bar", "/baz"):
        assert not allowed(robotstxt, "ExampleBot", path)
    assert allowed(robotstxt, "ExampleBot", "/qux")


def test_2_2_2_allow_wins_equivalent_rules_and_robots_txt_allowed() -> None:
    assert allowed("user-agent: *\ndisallow: /x\nallow: /x\n", "bot", "/x")
    assert allowed("user-agent: *\ndisallow: /\n", "bot", "/robots.txt")  # implicitly allowed (D5)


@pytest.mark.parametrize(
    ("pattern", "url"),
    [
        ("/foo/bar?baz=quz", "/foo/bar?baz=quz"),
        ("/foo/bar?baz=https://foo.bar", "/foo/bar?baz=https%3A%2F%2Ffoo.bar"),
        ("/foo/bar/\u30c4", "/foo/bar/%E3%83%84"),
        ("/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84"),
        ("/foo/bar/%62%61%7A", "/foo/bar/baz"),
    ],
)
def test_2_2_2_table_1_percent_encoding(pattern: str, url: str) -> None:
    """Table 1: each path matches its encoded form (D7)."""
    assert not allowed(
        f"user-agent: *\ndisallow: {pattern}\n", "bot", f"https://www.example.com{url}"
    )


@pytest.mark.parametrize(
    ("pattern", "url"),
    [
        ("/path/file-with-a-%2A.html", "/path/file-with-a-*.html"),
        ("/path/foo-%24", "/path/foo-$"),
    ],
)
def test_2_2_3_figure_6_special_characters_by_escape(pattern: str, url: str) -> None:
    """Figure 6: a literal `*` or `$` in a URL is named by %2A / %24 in a pattern (D7)."""
    robots = parse(f"user-agent: *\ndisallow: {pattern}\n")
    assert not robots.can_fetch(f"https://www.example.com{url}", "bot")
    assert robots.can_fetch("https://www.example.com/path/file-with-a-x.html", "bot")


def test_2_2_3_special_characters() -> None:
    robotstxt = (
        "user-agent: *\ndisallow: /this/path/exactly$\ndisallow: /this/*/exactly # a comment\n"
    )
    assert not allowed(robotstxt, "bot", "/this/path/exactly")
    assert allowed(robotstxt, "bot", "/this/pathexactly")
    assert not allowed(robotstxt, "bot", "/this/any/thing/exactly")


def test_2_2_4_other_records_do_not_change_rules() -> None:
    robots = parse("user-agent: *\nsitemap: https://example.com/s.xml\nfoo: bar\ndisallow: /x\n")
    assert robots.sitemaps == ["https://example.com/s.xml"]
    assert not robots.can_fetch("/x", "bot")


def test_2_5_limits_first_500_kib_parsed() -> None:
    """Section 2.5: at least 500 KiB parsed; here exactly 512,000 bytes (D1)."""
    head = "user-agent: *\ndisallow: /a\n"
    body = head + "#" * (512_000 - len(head) - 1) + "\ndisallow: /b\n"
    robots = parse(body)
    assert not robots.can_fetch("/a", "bot")
    assert robots.can_fetch("/b", "bot")
