"""RFC 9309 (Robots Exclusion Protocol), section by section and figure by figure.

Categories:
- 2.1 Protocol definition: rules, groups, the last group may be empty.
- 2.2 Formal syntax: whitespace, empty lines, comments, CR / LF / CRLF.
- 2.2.1 The user-agent line: figure 1 (product token in the HTTP header, D4), figure 2
  (merging), figure 3 (`*` fallback), no group and no `*` means no rules apply.
- 2.2.2 The allow and disallow lines: case sensitivity, first octet, most octets, allow on
  equivalence, no match means allowed, /robots.txt implicitly allowed, figure 4
  (percent-encoding, D7), rules outside groups ignored.
- 2.2.3 Special characters: figure 5 (`#`, `$`, `*`), figure 6 (`%2A`, `%24`, D7).
- 2.2.4 Other records: sitemaps never end a group, misspellings may be accepted (D2).
- 2.5 Limits: at least 500 KiB is parsed (D1).
- 5.1 Simple example and 5.2 Longest match.
"""

from __future__ import annotations

import pytest

from robotsclient import RuleKind, parse

SITE = "https://www.example.com"


def check(body: str | bytes, url: str, agent: str) -> bool:
    """Return can_fetch, asserting that explain() gives the same answer (D18)."""
    robots = parse(body)
    allowed = robots.can_fetch(url, agent)
    assert robots.explain(url, agent).allowed is allowed
    return allowed


# --- 2.1 Protocol definition --------------------------------------------------------------------


def test_2_1_group_terminated_by_user_agent_line() -> None:
    """RFC 9309 2.1: a group is terminated by a user-agent line or end of file."""
    body = "user-agent: a\ndisallow: /x\nuser-agent: b\ndisallow: /y\n"
    assert check(body, SITE + "/x", "a") is False
    assert check(body, SITE + "/y", "a") is True
    assert check(body, SITE + "/y", "b") is False
    assert check(body, SITE + "/x", "b") is True


def test_2_1_last_group_without_rules_allows_everything() -> None:
    """RFC 9309 2.1: the last group may have no rules, which implicitly allows everything."""
    body = "user-agent: *\ndisallow: /\n\nuser-agent: lastbot\n"
    assert check(body, SITE + "/x", "LastBot") is True
    assert check(body, SITE + "/x", "OtherBot") is False


# --- 2.2 Formal syntax --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        pytest.param("user-agent:foobot\ndisallow:/x\n", id="no-ws"),
        pytest.param("  user-agent : foobot \n\tdisallow\t:\t/x\t\n", id="ws-everywhere"),
        pytest.param("user-agent: foobot\n\n\ndisallow: /x\n", id="emptylines-in-group"),
        pytest.param("user-agent: foobot # the bot\ndisallow: /x # comment\n", id="eol-comment"),
        pytest.param("# head\nuser-agent: foobot\n# mid\ndisallow: /x\n# tail", id="comment-lines"),
        pytest.param("user-agent: foobot\r\ndisallow: /x\r\n", id="CRLF"),
        pytest.param("user-agent: foobot\rdisallow: /x\r", id="CR"),
        pytest.param("user-agent: foobot\ndisallow: /x", id="no-final-NL"),
    ],
)
def test_2_2_formal_syntax(body: str) -> None:
    """RFC 9309 2.2: `*WS` around tokens, emptyline, comment, NL = CR / LF / CRLF."""
    assert check(body, SITE + "/x", "FooBot") is False
    assert check(body, SITE + "/y", "FooBot") is True


# --- 2.2.1 The user-agent line ------------------------------------------------------------------

FIGURE_1 = "user-agent: ExampleBot\ndisallow: /private\n"


@pytest.mark.parametrize(
    ("agent", "expected"),
    [
        pytest.param("ExampleBot", False, id="product-token"),
        pytest.param("examplebot", False, id="product-token-lower"),
        pytest.param("EXAMPLEBOT", False, id="product-token-upper"),
        pytest.param("ExampleBot/0.1 (+https://www.example.com/bot.html)", False, id="header"),
        pytest.param("OtherBot", True, id="other-token"),
    ],
)
def test_2_2_1_figure_1_product_token(agent: str, expected: bool) -> None:
    """RFC 9309 2.2.1 figure 1: the product token picks the group, case-insensitively (D4)."""
    assert check(FIGURE_1, SITE + "/private", agent) is expected


def test_2_2_1_figure_1_browser_like_header_needs_the_token() -> None:
    """RFC 9309 2.2.1 figure 1 header `Mozilla/5.0 (compatible; ExampleBot/0.1; ...)`: D4 takes
    the leading token, `Mozilla`, so the caller must name `ExampleBot` itself."""
    header = "Mozilla/5.0 (compatible; ExampleBot/0.1; https://www.example.com/bot.html)"
    assert check(FIGURE_1, SITE + "/private", header) is True
    assert check(FIGURE_1, SITE + "/private", "ExampleBot") is False


FIGURE_2 = """\
user-agent: ExampleBot
disallow: /foo
disallow: /bar

user-agent: ExampleBot
disallow: /baz
"""


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        pytest.param("/foo", False, id="foo"),
        pytest.param("/bar", False, id="bar"),
        pytest.param("/baz", False, id="baz"),
        pytest.param("/qux", True, id="qux"),
    ],
)
def test_2_2_1_figure_2_groups_merged(path: str, expected: bool) -> None:
    """RFC 9309 2.2.1 figure 2: two groups for one product token are merged into one."""
    assert check(FIGURE_2, SITE + path, "ExampleBot") is expected


def test_2_2_1_figure_2_explain_names_both_groups() -> None:
    """RFC 9309 2.2.1 figure 2 with D18: explain reports the rule from the second group."""
    verdict = parse(FIGURE_2).explain(SITE + "/baz", "ExampleBot")
    assert verdict.allowed is False
    assert verdict.rule is not None
    assert verdict.rule.line == 6
    assert {1, 5} <= set(verdict.group_lines)


FIGURE_3 = """\
user-agent: *
disallow: /foo
disallow: /bar

user-agent: BazBot
disallow: /baz
"""


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        pytest.param("/foo", False, id="foo"),
        pytest.param("/bar", False, id="bar"),
        pytest.param("/baz", True, id="baz-of-other-group"),
    ],
)
def test_2_2_1_figure_3_star_group_applies(path: str, expected: bool) -> None:
    """RFC 9309 2.2.1 figure 3: with no group for ExampleBot, the `*` group applies."""
    assert check(FIGURE_3, SITE + path, "ExampleBot") is expected
    verdict = parse(FIGURE_3).explain(SITE + path, "ExampleBot")
    assert verdict.agent == "*"


@pytest.mark.parametrize(
    "body",
    [
        pytest.param("", id="empty-file"),
        pytest.param("# only a comment\n", id="no-groups"),
        pytest.param("user-agent: BazBot\ndisallow: /\n", id="no-matching-group-no-star"),
    ],
)
def test_2_2_1_no_rules_apply(body: str) -> None:
    """RFC 9309 2.2.1: no matching group and no `*` group, or no groups at all: no rules apply."""
    assert check(body, SITE + "/anything", "ExampleBot") is True
    verdict = parse(body).explain(SITE + "/anything", "ExampleBot")
    assert verdict.agent is None
    assert verdict.rule is None


# --- 2.2.2 The allow and disallow lines ---------------------------------------------------------


def test_2_2_2_matching_case_sensitive() -> None:
    """RFC 9309 2.2.2: the matching SHOULD be case sensitive."""
    body = "user-agent: *\ndisallow: /Foo\n"
    assert check(body, SITE + "/Foo", "AnyBot") is False
    assert check(body, SITE + "/foo", "AnyBot") is True
    assert check(body, SITE + "/FOO", "AnyBot") is True


def test_2_2_2_matching_starts_with_first_octet() -> None:
    """RFC 9309 2.2.2: the matching MUST start with the first octet of the path."""
    body = "user-agent: *\ndisallow: /b\n"
    assert check(body, SITE + "/b/c", "AnyBot") is False
    assert check(body, SITE + "/a/b/c", "AnyBot") is True


@pytest.mark.parametrize(
    ("rules", "path", "expected", "line"),
    [
        pytest.param(["allow: /a", "disallow: /a/b"], "/a/b/c", False, 3, id="disallow-longer"),
        pytest.param(["disallow: /a", "allow: /a/b"], "/a/b/c", True, 3, id="allow-longer"),
        pytest.param(["allow: /a/b", "disallow: /a"], "/a/b/c", True, 2, id="order-irrelevant"),
        pytest.param(["disallow: /a/b", "allow: /a/b"], "/a/b", True, 3, id="equal-allow-wins"),
        pytest.param(["allow: /a/b", "disallow: /a/b"], "/a/b", True, 2, id="equal-allow-first"),
    ],
)
def test_2_2_2_most_octets_wins_allow_on_equivalence(
    rules: list[str], path: str, expected: bool, line: int
) -> None:
    """RFC 9309 2.2.2: the most specific match (most octets) is used; if an allow and a disallow
    rule are equivalent, allow is used (D5)."""
    robots = parse("user-agent: *\n" + "\n".join(rules) + "\n")
    verdict = robots.explain(SITE + path, "AnyBot")
    assert verdict.allowed is expected
    assert robots.can_fetch(SITE + path, "AnyBot") is expected
    assert verdict.rule is not None
    assert verdict.rule.line == line


def test_2_2_2_duplicate_rules() -> None:
    """RFC 9309 2.2.2: duplicate rules in a group may be deduplicated; the verdict is the same."""
    body = "user-agent: *\ndisallow: /a\ndisallow: /a\nallow: /a/b\nallow: /a/b\n"
    assert check(body, SITE + "/a/x", "AnyBot") is False
    assert check(body, SITE + "/a/b", "AnyBot") is True


@pytest.mark.parametrize(
    "body",
    [
        pytest.param("user-agent: *\ndisallow: /x\n", id="no-rule-matches"),
        pytest.param("user-agent: *\n", id="no-rules-in-group"),
    ],
)
def test_2_2_2_no_match_allows(body: str) -> None:
    """RFC 9309 2.2.2: no matching rule, or no rules in the group: the URI is allowed."""
    assert check(body, SITE + "/page", "AnyBot") is True
    assert parse(body).explain(SITE + "/page", "AnyBot").rule is None


@pytest.mark.parametrize(
    "body",
    [
        pytest.param("user-agent: *\ndisallow: /\n", id="disallow-root"),
        pytest.param("user-agent: *\ndisallow: /robots.txt\n", id="disallow-itself"),
        pytest.param("user-agent: *\ndisallow: /*\n", id="disallow-star"),
        pytest.param("user-agent: *\ndisallow: /robots.txt$\n", id="disallow-anchored"),
    ],
)
def test_2_2_2_robots_txt_implicitly_allowed(body: str) -> None:
    """RFC 9309 2.2.2: the /robots.txt URI is implicitly allowed (D5)."""
    assert check(body, SITE + "/robots.txt", "AnyBot") is True
    assert check(body, "/robots.txt", "AnyBot") is True


FIGURE_4 = [
    # (pattern as written, URL path to check): the two must match (RFC 9309 figure 4 rows)
    ("/foo/bar?baz=quz", "/foo/bar?baz=quz"),
    ("/foo/bar?baz=https://foo.bar", "/foo/bar?baz=https%3A%2F%2Ffoo.bar"),
    ("/foo/bar?baz=https%3A%2F%2Ffoo.bar", "/foo/bar?baz=https://foo.bar"),
    ("/foo/bar/ツ", "/foo/bar/%E3%83%84"),
    ("/foo/bar/ツ", "/foo/bar/ツ"),
    ("/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84"),
    ("/foo/bar/%E3%83%84", "/foo/bar/ツ"),
    ("/foo/bar/%62%61%7A", "/foo/bar/baz"),
    ("/foo/bar/%62%61%7A", "/foo/bar/%62%61%7A"),
    ("/foo/bar/baz", "/foo/bar/%62%61%7A"),
]


@pytest.mark.parametrize(
    ("pattern", "path"),
    [pytest.param(pattern, path, id=f"{pattern}~{path}") for pattern, path in FIGURE_4],
)
def test_2_2_2_figure_4_percent_encoding(pattern: str, path: str) -> None:
    """RFC 9309 2.2.2 figure 4: patterns and URIs are compared after percent-encoding non-ASCII
    octets and decoding unreserved escapes (D7); each row matches exactly (anchored with `$`)."""
    body = f"user-agent: *\ndisallow: /\nallow: {pattern}$\n"
    assert check(body, SITE + path, "AnyBot") is True
    assert check(body, SITE + "/foo/bar/other", "AnyBot") is False


def test_2_2_2_rules_outside_groups_ignored() -> None:
    """RFC 9309 2.2.2: rules that precede the first user-agent line are ignored (D3)."""
    body = "disallow: /a\nallow: /b\nuser-agent: *\ndisallow: /b\n"
    assert check(body, SITE + "/a", "AnyBot") is True
    assert check(body, SITE + "/b", "AnyBot") is False


# --- 2.2.3 Special characters -------------------------------------------------------------------


def test_2_2_3_figure_5_comment() -> None:
    """RFC 9309 2.2.3 figure 5: `#` designates a comment, inline or on its own line."""
    body = "user-agent: *\ndisallow: /\nallow: / # comment in line\n# comment on its own line\n"
    assert check(body, SITE + "/anything", "AnyBot") is True


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        pytest.param("/this/path/exactly", True, id="exact"),
        pytest.param("/this/path/exactly/more", False, id="longer"),
        pytest.param("/this/path/exactly?q", False, id="with-query"),
        pytest.param("/this/path/exact", False, id="shorter"),
    ],
)
def test_2_2_3_figure_5_dollar(path: str, expected: bool) -> None:
    """RFC 9309 2.2.3 figure 5: `$` designates the end of the match pattern."""
    body = "user-agent: *\ndisallow: /\nallow: /this/path/exactly$\n"
    assert check(body, SITE + path, "AnyBot") is expected


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        pytest.param("/this/a/exactly", True, id="one-segment"),
        pytest.param("/this/a/b/c/exactly", True, id="several-segments"),
        pytest.param("/this//exactly", True, id="empty-segment"),
        pytest.param("/this/exactly", False, id="missing-slash"),
        pytest.param("/that/a/exactly", False, id="other-prefix"),
    ],
)
def test_2_2_3_figure_5_star(path: str, expected: bool) -> None:
    """RFC 9309 2.2.3 figure 5: `*` designates 0 or more instances of any character."""
    body = "user-agent: *\ndisallow: /\nallow: /this/*/exactly\n"
    assert check(body, SITE + path, "AnyBot") is expected


@pytest.mark.parametrize(
    ("pattern", "url", "other"),
    [
        pytest.param(
            "/path/file-with-a-%2A.html",
            "https://www.example.com/path/file-with-a-*.html",
            "https://www.example.com/path/file-with-a-x.html",
            id="star",
        ),
        pytest.param(
            "/path/foo-%24",
            "https://www.example.com/path/foo-$",
            "https://www.example.com/path/foo-",
            id="dollar",
        ),
    ],
)
def test_2_2_3_figure_6_percent_encoded_special_characters(
    pattern: str, url: str, other: str
) -> None:
    """RFC 9309 2.2.3 figure 6: a pattern names a literal `*` or `$` as %2A / %24 (D7)."""
    body = f"user-agent: *\ndisallow: {pattern}\n"
    assert check(body, url, "AnyBot") is False
    assert check(body, other, "AnyBot") is True


# --- 2.2.4 Other records ------------------------------------------------------------------------


def test_2_2_4_sitemap_does_not_terminate_group() -> None:
    """RFC 9309 2.2.4: a Sitemaps record MUST NOT terminate a group (D3)."""
    body = "user-agent: a\nsitemap: https://example.com/s.xml\nuser-agent: b\ndisallow: /x\n"
    assert check(body, SITE + "/x", "a") is False
    assert check(body, SITE + "/x", "b") is False
    assert parse(body).sitemaps == ["https://example.com/s.xml"]


def test_2_2_4_sitemap_between_rules_keeps_group() -> None:
    """RFC 9309 2.2.4: other records must not interfere with the parsing of the group (D3)."""
    body = "user-agent: a\ndisallow: /x\nsitemap: https://example.com/s.xml\ndisallow: /y\n"
    assert check(body, SITE + "/y", "a") is False
    assert check(body, SITE + "/y", "b") is True


def test_2_2_4_common_misspellings_may_be_accepted() -> None:
    """RFC 9309 2.2.4: crawlers may accept common misspellings (D2: accepted by default)."""
    body = "user-agent: a\ndisalow: /x\n"
    assert check(body, SITE + "/x", "a") is False


# --- 2.5 Limits ---------------------------------------------------------------------------------


def test_2_5_at_least_500_kib_parsed() -> None:
    """RFC 9309 2.5: the parsing limit MUST be at least 500 kibibytes (D1: 512,000 bytes)."""
    head = "user-agent: *\n"
    tail = "disallow: /last\n"
    filler = "#" * (500 * 1024 - len(head) - len(tail) - 1) + "\n"
    body = (head + filler + tail).encode()
    assert len(body) == 500 * 1024
    robots = parse(body)
    assert robots.truncated is False
    assert robots.size == 500 * 1024
    assert robots.can_fetch(SITE + "/last", "AnyBot") is False


# --- 5 Examples ---------------------------------------------------------------------------------

SIMPLE_EXAMPLE = """\
User-Agent: *
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

"""


@pytest.mark.parametrize(
    ("agent", "path", "expected"),
    [
        pytest.param("AnyBot", "/publications/a.html", True, id="star-publications"),
        pytest.param("AnyBot", "/publications/a.gif", True, id="star-publications-gif"),
        pytest.param("AnyBot", "/example/a.html", False, id="star-example"),
        pytest.param("AnyBot", "/images/a.gif", False, id="star-gif"),
        pytest.param("AnyBot", "/a.gif?x=1", True, id="star-gif-with-query"),
        pytest.param("AnyBot", "/other.html", True, id="star-other"),
        pytest.param("foobot", "/example/page.html", True, id="foobot-page"),
        pytest.param("foobot", "/example/allowed.gif", True, id="foobot-gif"),
        pytest.param("foobot", "/example/other.html", False, id="foobot-example-other"),
        pytest.param("foobot", "/publications/a.html", False, id="foobot-no-star-rules"),
        pytest.param("foobot", "/", False, id="foobot-root"),
        pytest.param("barbot", "/example/page.html", False, id="barbot-page"),
        pytest.param("bazbot", "/example/page.html", False, id="bazbot-page"),
        pytest.param("bazbot", "/example/page.htm", True, id="bazbot-shorter"),
        pytest.param("barbot", "/example/a.html", True, id="barbot-example-other"),
        pytest.param("barbot", "/a.gif", True, id="barbot-gif-no-star-rules"),
        pytest.param("quxbot", "/example/page.html", True, id="quxbot-empty-group"),
        pytest.param("quxbot", "/a.gif", True, id="quxbot-gif"),
    ],
)
def test_5_1_simple_example(agent: str, path: str, expected: bool) -> None:
    """RFC 9309 5.1: the four groups (`*`, foobot, barbot+bazbot, empty quxbot); the figure's
    closing "EOF" marks the end of the file and is not part of it."""
    assert check(SIMPLE_EXAMPLE, SITE + path, agent) is expected


LONGEST_MATCH = """\
User-Agent: foobot
Allow: /example/page/
Disallow: /example/page/disallowed.gif
"""


def test_5_2_longest_match() -> None:
    """RFC 9309 5.2: the longer rule, /example/page/disallowed.gif, decides for that URI.

    The RFC's prose names the URI `.../disallow.gif`, which the disallow rule cannot match; the
    rule's own file name is tested, and `disallow.gif` falls to `Allow: /example/page/`.
    """
    robots = parse(LONGEST_MATCH)
    verdict = robots.explain("https://example.com/example/page/disallowed.gif", "foobot")
    assert verdict.allowed is False
    assert verdict.rule is not None
    assert verdict.rule.kind is RuleKind.DISALLOW
    assert verdict.rule.line == 3
    assert robots.can_fetch("https://example.com/example/page/disallow.gif", "foobot") is True
    assert robots.can_fetch("https://example.com/example/page/other", "foobot") is True
