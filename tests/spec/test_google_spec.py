"""Google's robots.txt guide and specification, example by example.

Source: ../shared/spec/google-robots-txt-guide-and-spec.txt (cited below as "Google spec",
with the section title). Where the sources disagree, DECISIONS.md settles it (D#).

Categories:
- Guide examples: the simple two-group file, "Another example file", user-agent examples 1-3.
- Useful robots.txt rules: every row of the table.
- Syntax: case-sensitive rules, comments.
- File format: UTF-8, BOM, CR / LF / CRLF, whole-line whitespace, case-insensitive fields,
  only valid lines count, typos (D2), the 500 KiB limit (D1).
- Formal syntax: whitespace around the colon, empty patterns.
- Grouping of lines and rules: the four-groups example.
- Order of precedence for user agents: examples 1 and 2, product tokens (D4).
- Group-member rules: directives without a path, paths not starting with "/" (D5).
- URL matching based on path values: every row of "Example path matches", UTF-8 paths (D7).
- Non-group-member lines: sitemap (D9).
- Order of precedence for group-member lines: every "Sample situations" verdict (D5).

The "Examples of valid robots.txt URLs" table belongs to the origin module, not here.
"""

from __future__ import annotations

import pytest

from robotsclient import RuleKind, parse

SITE = "http://example.com"
MAX_BYTES = 512_000  # D1: the 500 KiB parse limit


def check(body: str | bytes, url: str, agent: str, **options: bool) -> bool:
    """Return can_fetch, asserting that explain() gives the same answer (D18)."""
    robots = parse(body, **options)
    allowed = robots.can_fetch(url, agent)
    assert robots.explain(url, agent).allowed is allowed
    return allowed


# --- Guide examples ---------------------------------------------------------------------------

SIMPLE_FILE = """\
# Group 1
User-agent: Googlebot
Disallow: /nogooglebot/

# Group 2
User-agent: *
Allow: /

Sitemap: http://www.example.com/sitemap.xml
"""


@pytest.mark.parametrize(
    ("agent", "path", "expected"),
    [
        pytest.param("Googlebot", "/nogooglebot/", False, id="googlebot-folder"),
        pytest.param("Googlebot", "/nogooglebot/sub/page.html", False, id="googlebot-subdir"),
        pytest.param("Googlebot", "/other/page.html", True, id="googlebot-elsewhere"),
        pytest.param("Googlebot", "/nogooglebot", True, id="googlebot-no-trailing-slash"),
        pytest.param("OtherBot", "/nogooglebot/", True, id="other-agent-everything"),
        pytest.param("OtherBot", "/", True, id="other-agent-root"),
    ],
)
def test_create_simple_file(agent: str, path: str, expected: bool) -> None:
    """Google spec, "Create a robots.txt file": the two-group file and its explanation."""
    assert check(SIMPLE_FILE, SITE + path, agent) is expected


def test_create_simple_file_sitemap() -> None:
    """Google spec, "Create a robots.txt file", explanation 3: the sitemap location (D9)."""
    assert parse(SIMPLE_FILE).sitemaps == ["http://www.example.com/sitemap.xml"]


ANOTHER_FILE = """\
# Block googlebot from example.com/directory1/... and example.com/directory2/...
# but allow access to directory2/subdirectory1/...
# All other directories on the site are allowed by default.
User-agent: googlebot
Disallow: /directory1/
Disallow: /directory2/
Allow: /directory2/subdirectory1/

# Block the entire site from anothercrawler.
User-agent: anothercrawler
Disallow: /
"""


@pytest.mark.parametrize(
    ("agent", "path", "expected"),
    [
        pytest.param("Googlebot", "/directory1/a.html", False, id="googlebot-dir1"),
        pytest.param("Googlebot", "/directory2/a.html", False, id="googlebot-dir2"),
        pytest.param("Googlebot", "/directory2/subdirectory1/a", True, id="googlebot-dir2-sub1"),
        pytest.param("Googlebot", "/directory3/a.html", True, id="googlebot-default-allow"),
        pytest.param("anothercrawler", "/", False, id="anothercrawler-root"),
        pytest.param("anothercrawler", "/directory3/a", False, id="anothercrawler-anything"),
        pytest.param("ThirdBot", "/directory1/a.html", True, id="unnamed-agent-allowed"),
    ],
)
def test_another_example_file(agent: str, path: str, expected: bool) -> None:
    """Google spec, "Another example file": two groups with inline comments."""
    assert check(ANOTHER_FILE, SITE + path, agent) is expected


@pytest.mark.parametrize(
    ("body", "agent", "expected"),
    [
        pytest.param(
            "User-agent: Googlebot\nDisallow: /\n", "Googlebot", False, id="ex1-googlebot"
        ),
        pytest.param("User-agent: Googlebot\nDisallow: /\n", "Bingbot", True, id="ex1-other"),
        pytest.param(
            "User-agent: Googlebot\nUser-agent: AdsBot-Google\nDisallow: /\n",
            "Googlebot",
            False,
            id="ex2-googlebot",
        ),
        pytest.param(
            "User-agent: Googlebot\nUser-agent: AdsBot-Google\nDisallow: /\n",
            "AdsBot-Google",
            False,
            id="ex2-adsbot",
        ),
        pytest.param(
            "User-agent: Googlebot\nUser-agent: AdsBot-Google\nDisallow: /\n",
            "Bingbot",
            True,
            id="ex2-other",
        ),
        pytest.param("User-agent: *\nDisallow: /\n", "Bingbot", False, id="ex3-any-crawler"),
    ],
)
def test_user_agent_examples(body: str, agent: str, expected: bool) -> None:
    """Google spec, "Syntax", User-agent examples 1-3.

    Example 3 says `*` does not match Google's AdsBot crawlers; that is a rule of Google's own
    crawlers, not of the file format, so D4 gives AdsBot no special case and it is not tested.
    """
    assert check(body, SITE + "/page.html", agent) is expected


# --- Useful robots.txt rules --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "agent", "path", "expected"),
    [
        pytest.param("User-agent: *\nDisallow: /\n", "AnyBot", "/", False, id="entire-site-root"),
        pytest.param(
            "User-agent: *\nDisallow: /\n", "AnyBot", "/a/b.html", False, id="entire-site-page"
        ),
        pytest.param(
            "User-agent: *\nDisallow: /calendar/\nDisallow: /junk/\n",
            "AnyBot",
            "/calendar/2020/01",
            False,
            id="directory-calendar",
        ),
        pytest.param(
            "User-agent: *\nDisallow: /calendar/\nDisallow: /junk/\n",
            "AnyBot",
            "/junk/x",
            False,
            id="directory-junk",
        ),
        pytest.param(
            "User-agent: *\nDisallow: /calendar/\nDisallow: /junk/\n",
            "AnyBot",
            "/calendar",
            True,
            id="directory-name-without-slash",
        ),
        pytest.param(
            "User-agent: Googlebot-news\nAllow: /\n\nUser-agent: *\nDisallow: /\n",
            "Googlebot-News",
            "/news/a",
            True,
            id="single-crawler-allowed",
        ),
        pytest.param(
            "User-agent: Googlebot-news\nAllow: /\n\nUser-agent: *\nDisallow: /\n",
            "Googlebot",
            "/news/a",
            False,
            id="single-crawler-others-blocked",
        ),
        pytest.param(
            "User-agent: Unnecessarybot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
            "Unnecessarybot",
            "/a",
            False,
            id="all-but-one-blocked-one",
        ),
        pytest.param(
            "User-agent: Unnecessarybot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
            "Googlebot",
            "/a",
            True,
            id="all-but-one-others",
        ),
        pytest.param(
            "User-agent: *\nDisallow: /private_file.html\n",
            "AnyBot",
            "/private_file.html",
            False,
            id="single-page",
        ),
        pytest.param(
            "User-agent: *\nDisallow: /private_file.html\n",
            "AnyBot",
            "/public_file.html",
            True,
            id="single-page-other-page",
        ),
        pytest.param(
            "User-agent: Googlebot-Image\nDisallow: /images/dogs.jpg\n",
            "Googlebot-Image",
            "/images/dogs.jpg",
            False,
            id="image-blocked",
        ),
        pytest.param(
            "User-agent: Googlebot-Image\nDisallow: /images/dogs.jpg\n",
            "Googlebot-Image",
            "/images/cats.jpg",
            True,
            id="image-other-image",
        ),
        pytest.param(
            "User-agent: Googlebot-Image\nDisallow: /images/dogs.jpg\n",
            "Googlebot",
            "/images/dogs.jpg",
            True,
            id="image-other-crawler",
        ),
        pytest.param(
            "User-agent: Googlebot-Image\nDisallow: /\n",
            "Googlebot-Image",
            "/images/any.png",
            False,
            id="all-images",
        ),
        pytest.param(
            "User-agent: Googlebot\nDisallow: /*.gif$\n",
            "Googlebot",
            "/a/b/c.gif",
            False,
            id="file-type-gif",
        ),
        pytest.param(
            "User-agent: Googlebot\nDisallow: /*.gif$\n",
            "Googlebot",
            "/a/b/c.gif?x=1",
            True,
            id="file-type-gif-with-query",
        ),
        pytest.param(
            "User-agent: Googlebot\nDisallow: /*.gif$\n",
            "Googlebot",
            "/a/b/c.gifs",
            True,
            id="file-type-gif-longer-suffix",
        ),
        pytest.param(
            "User-agent: *\nDisallow: /\nUser-agent: Mediapartners-Google\nAllow: /\n",
            "Mediapartners-Google",
            "/page",
            True,
            id="adsense-mediapartners",
        ),
        pytest.param(
            "User-agent: *\nDisallow: /\nUser-agent: Mediapartners-Google\nAllow: /\n",
            "Googlebot",
            "/page",
            False,
            id="adsense-others",
        ),
        pytest.param(
            "User-agent: Googlebot\nDisallow: /*.xls$\n",
            "Googlebot",
            "/reports/q1.xls",
            False,
            id="ends-with-xls",
        ),
        pytest.param(
            "User-agent: Googlebot\nDisallow: /*.xls$\n",
            "Googlebot",
            "/reports/q1.xlsx",
            True,
            id="ends-with-xls-not-xlsx",
        ),
    ],
)
def test_useful_rules(body: str, agent: str, path: str, expected: bool) -> None:
    """Google spec, "Useful robots.txt rules": every sample in the table."""
    assert check(body, SITE + path, agent) is expected


# --- Syntax -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        pytest.param("/file.asp", False, id="same-case"),
        pytest.param("/FILE.asp", True, id="other-case"),
    ],
)
def test_syntax_rules_are_case_sensitive(path: str, expected: bool) -> None:
    """Google spec, "Syntax": `Disallow: /file.asp` applies to /file.asp, not /FILE.asp."""
    assert check("User-agent: *\nDisallow: /file.asp\n", SITE + path, "AnyBot") is expected


def test_syntax_comments_after_hash() -> None:
    """Google spec, "Format and location rules": comments are any content after a # mark."""
    body = "User-agent: * # all crawlers\nDisallow: /a # not /b\n# Disallow: /b\n"
    assert check(body, SITE + "/a", "AnyBot") is False
    assert check(body, SITE + "/b", "AnyBot") is True


# --- File format --------------------------------------------------------------------------------

FORMAT_RULES = ["User-agent: FooBot", "Disallow: /private", "Allow: /private/ok"]


@pytest.mark.parametrize(
    "newline",
    [
        pytest.param("\n", id="LF"),
        pytest.param("\r\n", id="CRLF"),
        pytest.param("\r", id="CR"),
    ],
)
def test_file_format_line_separators(newline: str) -> None:
    """Google spec, "File format": lines are separated by CR, CR/LF, or LF (D1)."""
    body = newline.join(FORMAT_RULES) + newline
    robots = parse(body)
    assert robots.can_fetch(SITE + "/private/x", "FooBot") is False
    assert robots.can_fetch(SITE + "/private/ok/x", "FooBot") is True
    verdict = robots.explain(SITE + "/private/x", "FooBot")
    assert verdict.rule is not None
    assert verdict.rule.line == 2


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(b"\xef\xbb\xbfUser-agent: FooBot\nDisallow: /private\n", id="bytes"),
        pytest.param("\ufeffUser-agent: FooBot\nDisallow: /private\n", id="str"),
    ],
)
def test_file_format_bom_ignored(body: str | bytes) -> None:
    """Google spec, "File format": an optional Unicode BOM at the beginning is ignored (D1)."""
    assert check(body, SITE + "/private", "FooBot") is False
    assert check(body, SITE + "/public", "FooBot") is True


def test_file_format_whitespace_at_line_ends_ignored() -> None:
    """Google spec, "File format": whitespace at the beginning and end of a line is ignored."""
    body = "   User-agent: FooBot   \n\t Disallow: /private \t\n"
    assert check(body, SITE + "/private", "FooBot") is False
    assert check(body, SITE + "/privat", "FooBot") is True


@pytest.mark.parametrize(
    "body",
    [
        pytest.param("USER-AGENT: FooBot\nDISALLOW: /x\n", id="upper"),
        pytest.param("user-agent: FooBot\ndisallow: /x\n", id="lower"),
        pytest.param("User-Agent: FooBot\nDisAllow: /x\n", id="mixed"),
    ],
)
def test_file_format_field_case_insensitive(body: str) -> None:
    """Google spec, "File format": the <field> element is case-insensitive."""
    assert check(body, SITE + "/x", "FooBot") is False


def test_file_format_value_case_sensitive_for_paths() -> None:
    """Google spec, "File format": the <value> may be case-sensitive (paths are)."""
    body = "User-agent: FooBot\nDisallow: /Private\n"
    assert check(body, SITE + "/Private", "FooBot") is False
    assert check(body, SITE + "/private", "FooBot") is True


def test_file_format_only_valid_lines_html_page() -> None:
    """Google spec, "File format": for an HTML page only valid text lines count (D1)."""
    body = (
        "<!DOCTYPE html>\n<html>\n<head><title>Robots</title></head>\n<body>\n"
        "User-agent: FooBot\n<p>\nDisallow: /private\n</p>\n</body>\n</html>\n"
    )
    assert check(body, SITE + "/private", "FooBot") is False
    assert check(body, SITE + "/index.html", "FooBot") is True


def test_file_format_html_error_page_allows_all() -> None:
    """Google spec, "File format": an HTML page without valid lines has no rules (D1)."""
    body = "<html><body><h1>Not Found</h1><p>The page was not found.</p></body></html>\n"
    assert check(body, SITE + "/anything", "FooBot") is True


@pytest.mark.parametrize(
    ("strict", "expected"),
    [
        pytest.param(False, False, id="default-accepts-typo"),
        pytest.param(True, True, id="strict-rejects-typo"),
    ],
)
def test_file_format_typos_in_fields(strict: bool, expected: bool) -> None:
    """Google spec, "File format": typos such as "useragent" are not supported.

    D2 follows Google's parser and crawler instead: accepted by default; strict=True follows
    the spec's sentence.
    """
    body = "useragent: FooBot\nDisallow: /\n"
    assert check(body, SITE + "/x", "FooBot", strict=strict) is expected


def test_file_format_content_after_500_kib_ignored() -> None:
    """Google spec, "File format": content after the 500 KiB size limit is ignored (D1)."""
    head = "User-agent: FooBot\nDisallow: /before\n"
    filler = "#" * (MAX_BYTES - len(head) - 1) + "\n"
    body = head + filler + "Disallow: /after\n"
    assert len((head + filler).encode()) == MAX_BYTES
    robots = parse(body)
    assert robots.truncated is True
    assert robots.can_fetch(SITE + "/before", "FooBot") is False
    assert robots.can_fetch(SITE + "/after", "FooBot") is True


# --- Formal syntax ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        pytest.param("User-agent:FooBot\nDisallow:/x\n", id="no-spaces"),
        pytest.param("User-agent : FooBot\nDisallow\t:\t/x\n", id="ws-around-colon"),
        pytest.param("User-agent:   FooBot\nDisallow:    /x\n", id="many-spaces"),
    ],
)
def test_formal_syntax_whitespace_optional(body: str) -> None:
    """Google spec, "Formal syntax": `*WS ":" *WS` around the separator."""
    assert check(body, SITE + "/x", "FooBot") is False


def test_formal_syntax_empty_pattern() -> None:
    """Google spec, "Formal syntax": a rule may have an empty-pattern, which disallows nothing."""
    body = "User-agent: FooBot\nDisallow:\n"
    assert check(body, SITE + "/x", "FooBot") is True


def test_formal_syntax_empty_lines_between_agents_and_rules() -> None:
    """Google spec, "Formal syntax": emptyline may separate user-agent lines and rules (D3)."""
    body = "User-agent: FooBot\n\nUser-agent: BarBot\n\n# note\n\nDisallow: /x\n"
    assert check(body, SITE + "/x", "FooBot") is False
    assert check(body, SITE + "/x", "BarBot") is False


# --- Grouping of lines and rules ----------------------------------------------------------------

FOUR_GROUPS = """\
user-agent: a
disallow: /c

user-agent: b
disallow: /d

user-agent: e
user-agent: f
disallow: /g

user-agent: h
"""


@pytest.mark.parametrize(
    ("agent", "path", "expected"),
    [
        pytest.param("a", "/c", False, id="a-own-rule"),
        pytest.param("a", "/d", True, id="a-not-b-rule"),
        pytest.param("b", "/d", False, id="b-own-rule"),
        pytest.param("b", "/c", True, id="b-not-a-rule"),
        pytest.param("e", "/g", False, id="e-shared-rule"),
        pytest.param("f", "/g", False, id="f-shared-rule"),
        pytest.param("e", "/c", True, id="e-not-a-rule"),
        pytest.param("h", "/c", True, id="h-empty-group-c"),
        pytest.param("h", "/g", True, id="h-empty-group-g"),
    ],
)
def test_grouping_four_groups(agent: str, path: str, expected: bool) -> None:
    """Google spec, "Grouping of lines and rules": four groups a, b, e+f, and empty h."""
    assert check(FOUR_GROUPS, SITE + path, agent) is expected


@pytest.mark.parametrize(
    ("agent", "lines", "agents"),
    [
        pytest.param("a", {1}, {"a"}, id="a"),
        pytest.param("b", {4}, {"b"}, id="b"),
        pytest.param("f", {7, 8}, {"e", "f"}, id="e-and-f"),
        pytest.param("h", {11}, {"h"}, id="h"),
    ],
)
def test_grouping_four_groups_explained(agent: str, lines: set[int], agents: set[str]) -> None:
    """Google spec, "Grouping of lines and rules": explain names each group (D18)."""
    verdict = parse(FOUR_GROUPS).explain(SITE + "/z", agent)
    assert verdict.allowed is True
    assert verdict.agent is not None
    assert verdict.agent.lower() == agent
    assert set(verdict.group_lines) == lines
    assert {name.lower() for name in verdict.group_agents} == agents


# --- Order of precedence for user agents --------------------------------------------------------

EXAMPLE_1 = """\
user-agent: googlebot-news
disallow: /group1

user-agent: *
disallow: /group2

user-agent: googlebot
disallow: /group3
"""


def followed_group(body: str, agent: str) -> int:
    """Return the number of the group `agent` follows: the only /groupN it may not fetch."""
    robots = parse(body)
    blocked = [n for n in (1, 2, 3) if not robots.can_fetch(f"{SITE}/group{n}", agent)]
    assert len(blocked) == 1, blocked
    return blocked[0]


@pytest.mark.parametrize(
    ("agent", "group"),
    [
        pytest.param("Googlebot-News", 1, id="googlebot-news"),
        pytest.param("Googlebot", 3, id="googlebot-web"),
        pytest.param("Googlebot", 3, id="googlebot-images-as-googlebot"),
        pytest.param("googlebot-news", 1, id="googlebot-news-crawling-images"),
        pytest.param("Otherbot", 2, id="otherbot-web"),
        pytest.param("Otherbot-News", 2, id="otherbot-news"),
    ],
)
def test_user_agent_precedence_example_1(agent: str, group: int) -> None:
    """Google spec, "Order of precedence for user agents", Example 1: the group each follows.

    Googlebot Images follows group 3 because that crawler obeys the `googlebot` token when no
    `googlebot-image` group exists; a caller models it by naming the token `Googlebot` (D4).
    """
    assert followed_group(EXAMPLE_1, agent) == group


def test_user_agent_precedence_example_1_no_prefix_fallback() -> None:
    """D4 vs Google spec Example 1: a `Googlebot-Image` token is matched exactly, never by
    prefix, so with no `googlebot-image` group it gets the `*` group (group 2)."""
    assert followed_group(EXAMPLE_1, "Googlebot-Image") == 2


EXAMPLE_2 = """\
user-agent: googlebot-news
disallow: /fish

user-agent: *
disallow: /carrots

user-agent: googlebot-news
disallow: /shrimp
"""

EXAMPLE_2_MERGED = """\
user-agent: googlebot-news
disallow: /fish
disallow: /shrimp

user-agent: *
disallow: /carrots
"""


@pytest.mark.parametrize(
    ("agent", "path", "expected"),
    [
        pytest.param("Googlebot-News", "/fish", False, id="news-fish"),
        pytest.param("Googlebot-News", "/shrimp", False, id="news-shrimp"),
        pytest.param("Googlebot-News", "/carrots", True, id="news-carrots"),
        pytest.param("Otherbot", "/carrots", False, id="other-carrots"),
        pytest.param("Otherbot", "/fish", True, id="other-fish"),
        pytest.param("Otherbot", "/shrimp", True, id="other-shrimp"),
    ],
)
def test_user_agent_precedence_example_2_merge(agent: str, path: str, expected: bool) -> None:
    """Google spec, "Order of precedence for user agents", Example 2: groups for one agent merge
    and behave exactly like the merged file."""
    assert check(EXAMPLE_2, SITE + path, agent) is expected
    assert check(EXAMPLE_2_MERGED, SITE + path, agent) is expected


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("user-agent: googlebot", id="plain"),
        pytest.param("user-agent: googlebot/1.2", id="version"),
        pytest.param("user-agent: googlebot*", id="star-suffix"),
        pytest.param("user-agent: Googlebot", id="capitalised"),
    ],
)
def test_user_agent_non_matching_text_ignored(line: str) -> None:
    """Google spec, "Order of precedence for user agents": `googlebot/1.2` and `googlebot*`
    are equivalent to `googlebot` (D4: the value's leading token, case-insensitive).

    The spec also says "the user agent is case-sensitive"; RFC 9309 section 2.2.1, Google's
    parser and D4 all match case-insensitively, so that is what is tested.
    """
    body = f"{line}\ndisallow: /x\n"
    assert check(body, SITE + "/x", "Googlebot") is False
    assert check(body, SITE + "/x", "googlebot") is False
    assert check(body, SITE + "/x", "Otherbot") is True


def test_user_agent_group_order_irrelevant() -> None:
    """Google spec, "Order of precedence for user agents": the order of groups is irrelevant."""
    first = "user-agent: *\ndisallow: /a\n\nuser-agent: foobot\ndisallow: /b\n"
    second = "user-agent: foobot\ndisallow: /b\n\nuser-agent: *\ndisallow: /a\n"
    for body in (first, second):
        assert check(body, SITE + "/a", "FooBot") is True
        assert check(body, SITE + "/b", "FooBot") is False
        assert check(body, SITE + "/a", "BarBot") is False
        assert check(body, SITE + "/b", "BarBot") is True


# --- Group-member rules -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "path", "expected"),
    [
        pytest.param("user-agent: *\ndisallow:\n", "/x", True, id="disallow-without-path"),
        pytest.param(
            "user-agent: *\ndisallow: /\nallow:\n", "/x", False, id="allow-without-path-ignored"
        ),
        pytest.param("user-agent: *\ndisallow: fish\n", "/fish", True, id="path-without-slash"),
        pytest.param("user-agent: *\ndisallow: fish\n", "/x/fish", True, id="path-without-slash-2"),
    ],
)
def test_group_member_rules(body: str, path: str, expected: bool) -> None:
    """Google spec, "Group-member rules": directives without a path are ignored; the path must
    start with "/" (D5: a pattern starting with neither / nor * matches nothing)."""
    assert check(body, SITE + path, "AnyBot") is expected


# --- URL matching based on path values ----------------------------------------------------------

PATH_MATCHES = [
    # (pattern, path, matches)
    ("/", "/", True),
    ("/", "/any/lower/level.html", True),
    ("/*", "/", True),
    ("/*", "/any/lower/level.html", True),
    *[
        (pattern, path, True)
        for pattern in ("/fish", "/fish*")
        for path in (
            "/fish",
            "/fish.html",
            "/fish/salmon.html",
            "/fishheads",
            "/fishheads/yummy.html",
            "/fish.php?id=anything",
        )
    ],
    *[
        (pattern, path, False)
        for pattern in ("/fish", "/fish*")
        for path in ("/Fish.asp", "/catfish", "/?id=fish")
    ],
    ("/fish/", "/fish/", True),
    ("/fish/", "/fish/?id=anything", True),
    ("/fish/", "/fish/salmon.htm", True),
    ("/fish/", "/fish", False),
    ("/fish/", "/fish.html", False),
    ("/fish/", "/Fish/Salmon.asp", False),
    ("/*.php", "/filename.php", True),
    ("/*.php", "/folder/filename.php", True),
    ("/*.php", "/folder/filename.php?parameters", True),
    ("/*.php", "/folder/any.php.file.html", True),
    ("/*.php", "/filename.php/", True),
    ("/*.php", "/", False),
    ("/*.php", "/windows.PHP", False),
    ("/*.php$", "/filename.php", True),
    ("/*.php$", "/folder/filename.php", True),
    ("/*.php$", "/filename.php?parameters", False),
    ("/*.php$", "/filename.php/", False),
    ("/*.php$", "/filename.php5", False),
    ("/*.php$", "/windows.PHP", False),
    ("/fish*.php", "/fish.php", True),
    ("/fish*.php", "/fishheads/catfish.php?parameters", True),
    ("/fish*.php", "/Fish.PHP", False),
]


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        pytest.param(
            pattern, path, matches, id=f"{pattern}-{'matches' if matches else 'not'}-{path}"
        )
        for pattern, path, matches in PATH_MATCHES
    ],
)
def test_example_path_matches(pattern: str, path: str, matches: bool) -> None:
    """Google spec, "URL matching based on path values": every row of "Example path matches"."""
    robots = parse(f"User-agent: *\nDisallow: {pattern}\n")
    assert robots.can_fetch(SITE + path, "AnyBot") is not matches
    verdict = robots.explain(SITE + path, "AnyBot")
    assert verdict.allowed is not matches
    if matches:
        assert verdict.rule is not None
        assert verdict.rule.kind is RuleKind.DISALLOW
        assert verdict.rule.pattern == pattern
        assert verdict.rule.line == 2
    else:
        assert verdict.rule is None


@pytest.mark.parametrize(
    ("pattern", "path"),
    [
        pytest.param("/ü", "/%C3%BC", id="utf8-pattern-escaped-url"),
        pytest.param("/%C3%BC", "/ü", id="escaped-pattern-utf8-url"),
        pytest.param("/ü", "/ü", id="utf8-both"),
        pytest.param("/%C3%BC", "/%C3%BC", id="escaped-both"),
    ],
)
def test_path_values_non_ascii(pattern: str, path: str) -> None:
    """Google spec, "URL matching based on path values": non-ASCII may be written as UTF-8 or
    percent-escaped UTF-8 (D7: both sides compared in one normal form)."""
    body = f"User-agent: *\nDisallow: {pattern}\n"
    assert check(body, SITE + path, "AnyBot") is False
    assert check(body, SITE + "/u", "AnyBot") is True


# --- Non-group-member lines ---------------------------------------------------------------------


def test_sitemap_multiple_entries() -> None:
    """Google spec, "Syntax" (Sitemap) and "Google-supported non-group-member lines" (D9)."""
    body = (
        "Sitemap: https://example.com/sitemap.xml\n"
        "User-agent: *\nDisallow: /x\n"
        "Sitemap: http://www.example.com/sitemap.xml\n"
    )
    robots = parse(body)
    assert robots.sitemaps == [
        "https://example.com/sitemap.xml",
        "http://www.example.com/sitemap.xml",
    ]
    assert robots.can_fetch(SITE + "/x", "AnyBot") is False


def test_sitemap_not_tied_to_agents() -> None:
    """Google spec, "Google-supported non-group-member lines": sitemaps are not tied to any user
    agent and may live on another host (D9)."""
    body = "User-agent: FooBot\nSitemap: https://cdn.example.org/s.xml\nDisallow: /\n"
    robots = parse(body)
    assert robots.sitemaps == ["https://cdn.example.org/s.xml"]
    assert robots.can_fetch(SITE + "/x", "FooBot") is False


# --- Order of precedence for group-member lines -------------------------------------------------


@pytest.mark.parametrize(
    ("path", "rules", "expected", "deciding"),
    [
        pytest.param("/page", ["allow: /p", "disallow: /"], True, 2, id="page-allow-p"),
        pytest.param(
            "/folder/page", ["allow: /folder", "disallow: /folder"], True, 2, id="folder-tie"
        ),
        pytest.param(
            "/page.htm", ["allow: /page", "disallow: /*.htm"], False, 3, id="page-htm-undefined"
        ),
        pytest.param("/", ["allow: /$", "disallow: /"], True, 2, id="root-dollar"),
        pytest.param("/page.htm", ["allow: /$", "disallow: /"], False, 3, id="page-htm-dollar"),
    ],
)
def test_sample_situations(path: str, rules: list[str], expected: bool, deciding: int) -> None:
    """Google spec, "Order of precedence for group-member lines": every "Sample situations" row.

    For /page.htm with `allow: /page` and `disallow: /*.htm` the spec says "undefined"; D5 (the
    longest pattern in octets wins) and Google's parser (GoogleOnly_DocumentationChecks) give
    disallow, since `/*.htm` is 6 octets and `/page` is 5.
    """
    body = "user-agent: *\n" + "\n".join(rules) + "\n"
    robots = parse(body)
    assert robots.can_fetch(SITE + path, "AnyBot") is expected
    verdict = robots.explain(SITE + path, "AnyBot")
    assert verdict.allowed is expected
    assert verdict.rule is not None
    assert verdict.rule.line == deciding


def test_conflicting_wildcard_rules_least_restrictive() -> None:
    """Google spec, "Order of precedence for group-member lines": with conflicting rules of equal
    length, including wildcards, the least restrictive (allow) is used (D5)."""
    body = "user-agent: *\ndisallow: /abc\nallow: /a*c\n"
    verdict = parse(body).explain(SITE + "/abc", "AnyBot")
    assert verdict.allowed is True
    assert verdict.rule is not None
    assert verdict.rule.kind is RuleKind.ALLOW
