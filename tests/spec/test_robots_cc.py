"""The behaviours of Google's C++ parser tests (google/robotstxt `robots_test.cc`), ported.

Each test is named after its source TEST and checks the same behaviour through this library's
API (can_fetch / explain / lint / sitemaps). Where DECISIONS.md deliberately differs, the test
follows DECISIONS.md and its docstring says so (D4 product tokens, D7 percent-encoding, D17
bad arguments).

Categories:
- System and line syntax: GoogleOnly_SystemTest, ID_LineSyntax_Line, ID_LineSyntax_Groups,
  ID_LineSyntax_Groups_OtherRules, ID_REPLineNamesCaseInsensitive.
- User agents: ID_VerifyValidUserAgentsToObey, ID_UserAgentValueCaseInsensitive,
  GoogleOnly_AcceptUserAgentUpToFirstSpace, ID_GlobalGroups_Secondary.
- Matching: ID_AllowDisallow_Value_CaseSensitive, ID_LongestMatch, ID_Encoding,
  ID_SpecialCharacters, GoogleOnly_IndexHTMLisDirectory, GoogleOnly_LineTooLong,
  GoogleOnly_DocumentationChecks.
- Lines: ID_LinesNumbersAreCountedCorrectly, ID_UTF8ByteOrderMarkIsSkipped,
  ID_NonStandardLineExample_Sitemap.
- Helpers: TestGetPathParamsQuery (URL to path), TestMaybeEscapePattern (pattern escaping).
"""

from __future__ import annotations

import pytest

from robotsclient import InvalidURL, InvalidUserAgent, RuleKind, parse

FOO = "http://foo.bar"


def allowed(body: str | bytes, agent: str, url: str) -> bool:
    """Google's IsUserAgentAllowed: can_fetch, asserting explain() agrees (D18)."""
    robots = parse(body)
    result = robots.can_fetch(url, agent)
    assert robots.explain(url, agent).allowed is result
    return result


# --- System and line syntax ---------------------------------------------------------------------


def test_GoogleOnly_SystemTest() -> None:
    """GoogleOnly_SystemTest: an empty robots.txt allows everything.

    Google also calls with an empty agent (allowed) and an empty URL (disallowed); D17 makes
    both bad arguments here, so they raise InvalidUserAgent / InvalidURL instead.
    """
    body = "user-agent: FooBot\ndisallow: /\n"
    assert allowed("", "FooBot", FOO + "/") is True
    assert allowed(b"", "FooBot", FOO + "/x/y") is True
    with pytest.raises(InvalidUserAgent):
        parse(body).can_fetch(FOO + "/", "")
    with pytest.raises(InvalidURL):
        parse(body).can_fetch("", "FooBot")


def test_ID_LineSyntax_Line() -> None:
    """ID_LineSyntax_Line: `key: value` lines; unknown keys ignored; a missing colon is accepted
    (Google-specific, D2)."""
    correct = "user-agent: FooBot\ndisallow: /\n"
    incorrect = "foo: FooBot\nbar: /\n"
    incorrect_accepted = "user-agent FooBot\ndisallow /\n"
    url = FOO + "/x/y"
    assert allowed(correct, "FooBot", url) is False
    assert allowed(incorrect, "FooBot", url) is True
    assert allowed(incorrect_accepted, "FooBot", url) is False


GROUPS = """\
allow: /foo/bar/

user-agent: FooBot
disallow: /
allow: /x/
user-agent: BarBot
disallow: /
allow: /y/


allow: /w/
user-agent: BazBot

user-agent: FooBot
allow: /z/
disallow: /
"""


@pytest.mark.parametrize(
    ("agent", "path", "expected"),
    [
        pytest.param("FooBot", "/x/b", True, id="foo-x"),
        pytest.param("FooBot", "/z/d", True, id="foo-z-merged"),
        pytest.param("FooBot", "/y/c", False, id="foo-y"),
        pytest.param("BarBot", "/y/c", True, id="bar-y"),
        pytest.param("BarBot", "/w/a", True, id="bar-w-after-blank-lines"),
        pytest.param("BarBot", "/z/d", False, id="bar-z"),
        pytest.param("BazBot", "/z/d", True, id="baz-shares-foo-group"),
        pytest.param("FooBot", "/foo/bar/", False, id="foo-rule-outside-group"),
        pytest.param("BarBot", "/foo/bar/", False, id="bar-rule-outside-group"),
        pytest.param("BazBot", "/foo/bar/", False, id="baz-rule-outside-group"),
    ],
)
def test_ID_LineSyntax_Groups(agent: str, path: str, expected: bool) -> None:
    """ID_LineSyntax_Groups: groups, merging, rules outside groups ignored (D3, D4)."""
    assert allowed(GROUPS, agent, FOO + path) is expected


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(
            "User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n",
            id="sitemap",
        ),
        pytest.param(
            "User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n",
            id="unknown-line",
        ),
    ],
)
@pytest.mark.parametrize("agent", ["FooBot", "BarBot"])
def test_ID_LineSyntax_Groups_OtherRules(body: str, agent: str) -> None:
    """ID_LineSyntax_Groups_OtherRules: sitemap and unknown lines do not close a group (D3)."""
    assert allowed(body, agent, FOO + "/") is False


@pytest.mark.parametrize(
    "body",
    [
        pytest.param("USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n", id="upper"),
        pytest.param("user-agent: FooBot\nallow: /x/\ndisallow: /\n", id="lower"),
        pytest.param("uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n", id="camel"),
    ],
)
def test_ID_REPLineNamesCaseInsensitive(body: str) -> None:
    """ID_REPLineNamesCaseInsensitive: keys are case-insensitive (D2)."""
    assert allowed(body, "FooBot", FOO + "/x/y") is True
    assert allowed(body, "FooBot", FOO + "/a/b") is False


# --- User agents --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("group", "agent"),
    [
        pytest.param("Foobot", "Foobot", id="letters"),
        pytest.param("Foobot-Bar", "Foobot-Bar", id="hyphen"),
        pytest.param("Foo_Bar", "Foo_Bar", id="underscore"),
        pytest.param("Foobot", "Foobot*", id="trailing-star"),
        pytest.param("Foobot", "Foobot/2.1", id="version"),
        pytest.param("Foobot", "Foobot Bar", id="space"),
    ],
)
def test_ID_VerifyValidUserAgentsToObey(group: str, agent: str) -> None:
    """ID_VerifyValidUserAgentsToObey: product tokens are [a-zA-Z_-].

    Google calls `Foobot*`, `Foobot/2.1` and `Foobot Bar` invalid as a whole; D4 takes their
    leading token, `Foobot`, so they obey the Foobot group.
    """
    body = f"User-agent: {group}\nDisallow: /\n"
    assert allowed(body, agent, FOO + "/x") is False
    assert allowed(body, "Otherbot", FOO + "/x") is True


def test_ID_VerifyValidUserAgentsToObey_no_token() -> None:
    """ID_VerifyValidUserAgentsToObey: an empty agent is a bad argument (D17); a string with no
    [a-zA-Z_-] token (`ツ`, `008`) names no group, so the `*` groups apply to it (D4)."""
    robots = parse("User-agent: *\nDisallow: /\nUser-agent: 008\nAllow: /\n")
    with pytest.raises(InvalidUserAgent):
        robots.can_fetch(FOO + "/x", "")
    assert robots.can_fetch(FOO + "/x", "ツ") is False
    assert robots.can_fetch(FOO + "/x", "008") is False


@pytest.mark.parametrize(
    "body",
    [
        pytest.param("User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n", id="upper"),
        pytest.param("User-Agent: foo bar\nAllow: /x/\nDisallow: /\n", id="lower"),
        pytest.param("User-Agent: FoO bAr\nAllow: /x/\nDisallow: /\n", id="camel"),
    ],
)
@pytest.mark.parametrize("agent", ["Foo", "foo"])
def test_ID_UserAgentValueCaseInsensitive(body: str, agent: str) -> None:
    """ID_UserAgentValueCaseInsensitive: user-agent values match case-insensitively (D4)."""
    assert allowed(body, agent, FOO + "/x/y") is True
    assert allowed(body, agent, FOO + "/a/b") is False


def test_GoogleOnly_AcceptUserAgentUpToFirstSpace() -> None:
    """GoogleOnly_AcceptUserAgentUpToFirstSpace: `User-Agent: Foo Bar` names `Foo`.

    Google's matcher compares a caller's `Foo Bar` whole and gives it the `*` group; D4 takes the
    caller's leading token, `Foo`, so `Foo Bar` obeys the Foo group too.
    """
    body = "User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n"
    url = FOO + "/x/y"
    assert allowed(body, "Foo", url) is True
    assert allowed(body, "Foo Bar", url) is True
    assert allowed(body, "Bar", url) is False


def test_ID_GlobalGroups_Secondary() -> None:
    """ID_GlobalGroups_Secondary: no matching group means the `*` group; none at all: allowed."""
    empty = ""
    global_ = "user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n"
    only_specific = (
        "user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\n"
        "user-agent: BazBot\ndisallow: /\n"
    )
    url = FOO + "/x/y"
    assert allowed(empty, "FooBot", url) is True
    assert allowed(global_, "FooBot", url) is False
    assert allowed(global_, "BarBot", url) is True
    assert allowed(only_specific, "QuxBot", url) is True


# --- Matching -----------------------------------------------------------------------------------


def test_ID_AllowDisallow_Value_CaseSensitive() -> None:
    """ID_AllowDisallow_Value_CaseSensitive: path matching is case-sensitive."""
    url = FOO + "/x/y"
    assert allowed("user-agent: FooBot\ndisallow: /x/\n", "FooBot", url) is False
    assert allowed("user-agent: FooBot\ndisallow: /X/\n", "FooBot", url) is True


@pytest.mark.parametrize(
    ("rules", "path", "expected"),
    [
        pytest.param("disallow: /x/page.html\nallow: /x/", "/x/page.html", False, id="dis-longer"),
        pytest.param("allow: /x/page.html\ndisallow: /x/", "/x/page.html", True, id="allow-longer"),
        pytest.param("allow: /x/page.html\ndisallow: /x/", "/x/", False, id="allow-longer-dir"),
        pytest.param("disallow: \nallow: ", "/x/page.html", True, id="both-empty"),
        pytest.param("disallow: /\nallow: /", "/x/page.html", True, id="equal-root"),
        pytest.param("disallow: /x\nallow: /x/", "/x", False, id="x-without-slash"),
        pytest.param("disallow: /x\nallow: /x/", "/x/", True, id="x-with-slash"),
        pytest.param(
            "disallow: /x/page.html\nallow: /x/page.html", "/x/page.html", True, id="equal-page"
        ),
        pytest.param("allow: /page\ndisallow: /*.html", "/page.html", False, id="star-longer"),
        pytest.param("allow: /page\ndisallow: /*.html", "/page", True, id="star-no-match"),
        pytest.param(
            "allow: /x/page.\ndisallow: /*.html", "/x/page.html", True, id="literal-longer"
        ),
        pytest.param("allow: /x/page.\ndisallow: /*.html", "/x/y.html", False, id="star-only"),
    ],
)
def test_ID_LongestMatch(rules: str, path: str, expected: bool) -> None:
    """ID_LongestMatch: the longest pattern (octets) wins; on equal length allow wins (D5)."""
    body = f"user-agent: FooBot\n{rules}\n"
    assert allowed(body, "FooBot", FOO + path) is expected


def test_ID_LongestMatch_specific_group_only() -> None:
    """ID_LongestMatch: the FooBot group allows /x/page implicitly; `*` rules do not apply (D4)."""
    body = "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n"
    assert allowed(body, "FooBot", FOO + "/x/page") is True
    assert allowed(body, "FooBot", FOO + "/y/page") is False


def test_ID_Encoding_query_stays_unencoded() -> None:
    """ID_Encoding: `/foo/bar?baz=http://foo.bar` matches itself (query kept as is, D7)."""
    body = "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n"
    url = FOO + "/foo/bar?qux=taz&baz=http://foo.bar?tar&par"
    assert allowed(body, "FooBot", url) is True


@pytest.mark.parametrize(
    ("pattern", "path", "expected"),
    [
        pytest.param("/foo/bar/ツ", "/foo/bar/%E3%83%84", True, id="utf8-rule-escaped-url"),
        pytest.param("/foo/bar/ツ", "/foo/bar/ツ", True, id="D7-utf8-rule-raw-url"),
        pytest.param("/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84", True, id="escaped-both"),
        pytest.param("/foo/bar/%E3%83%84", "/foo/bar/ツ", True, id="D7-escaped-rule-raw-url"),
        pytest.param("/foo/bar/%62%61%7A", "/foo/bar/%62%61%7A", True, id="unreserved-both"),
        pytest.param("/foo/bar/%62%61%7A", "/foo/bar/baz", True, id="D7-unreserved-decoded"),
    ],
)
def test_ID_Encoding(pattern: str, path: str, expected: bool) -> None:
    """ID_Encoding: non-ASCII and escapes in rules and URLs.

    Three rows (ids starting D7-) diverge from Google on purpose: Google leaves encoding the URL
    to the caller and keeps unreserved escapes, so it disallows them; D7 (RFC 9309 figure 4)
    compares both sides in one normal form, so they are allowed.
    """
    body = f"User-agent: FooBot\nDisallow: /\nAllow: {pattern}\n"
    assert allowed(body, "FooBot", FOO + path) is expected


@pytest.mark.parametrize(
    ("body", "path", "expected"),
    [
        pytest.param("Disallow: /foo/bar/quz\nAllow: /foo/*/qux", "/foo/bar/quz", False, id="s1"),
        pytest.param("Disallow: /foo/bar/quz\nAllow: /foo/*/qux", "/foo/quz", True, id="s2"),
        pytest.param("Disallow: /foo/bar/quz\nAllow: /foo/*/qux", "/foo//quz", True, id="s3"),
        pytest.param("Disallow: /foo/bar/quz\nAllow: /foo/*/qux", "/foo/bax/quz", True, id="s4"),
        pytest.param("Disallow: /foo/bar$\nAllow: /foo/bar/qux", "/foo/bar", False, id="d1"),
        pytest.param("Disallow: /foo/bar$\nAllow: /foo/bar/qux", "/foo/bar/qux", True, id="d2"),
        pytest.param("Disallow: /foo/bar$\nAllow: /foo/bar/qux", "/foo/bar/", True, id="d3"),
        pytest.param("Disallow: /foo/bar$\nAllow: /foo/bar/qux", "/foo/bar/baz", True, id="d4"),
        pytest.param(
            "# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /", "/foo/bar", True, id="hash1"
        ),
        pytest.param(
            "# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /", "/foo/quz", False, id="hash2"
        ),
    ],
)
def test_ID_SpecialCharacters(body: str, path: str, expected: bool) -> None:
    """ID_SpecialCharacters: `*` any run, `$` end of path, `#` comment (D1, D6)."""
    assert allowed(f"User-agent: FooBot\n{body}\n", "FooBot", FOO + path) is expected


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        pytest.param("/allowed-slash/", True, id="directory"),
        pytest.param("/allowed-slash/index.htm", False, id="not-exact"),
        pytest.param("/allowed-slash/index.html", True, id="exact"),
        pytest.param("/anyother-url", False, id="other"),
    ],
)
def test_GoogleOnly_IndexHTMLisDirectory(path: str, expected: bool) -> None:
    """GoogleOnly_IndexHTMLisDirectory: allowing /dir/index.html allows /dir/ too (D8)."""
    body = "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n"
    assert allowed(body, "foobot", "http://foo.com" + path) is expected


MAX_LINE = 2083 * 8  # Google's per-line limit; the rest of a longer line is ignored


def test_GoogleOnly_LineTooLong_disallow_cut() -> None:
    """GoogleOnly_LineTooLong: a disallow pattern cut at the line limit still applies, cut."""
    longline = "/x/" + "a" * (MAX_LINE - 3 - len("disallow: ") + 1 - 3)
    body = "user-agent: FooBot\ndisallow: " + longline + "/qux\n"
    assert allowed(body, "FooBot", FOO + "/fux") is True
    assert allowed(body, "FooBot", FOO + longline + "/fux") is False


def test_GoogleOnly_LineTooLong_allow_cut() -> None:
    """GoogleOnly_LineTooLong: cut allow patterns still apply, cut; full ones match exactly."""
    size = MAX_LINE - 3 - len("allow: ") + 1 - 3
    longline_a = "/x/" + "a" * size
    longline_b = "/x/" + "b" * size
    body = f"user-agent: FooBot\ndisallow: /\nallow: {longline_a}/qux\nallow: {longline_b}/qux\n"
    assert allowed(body, "FooBot", FOO + "/") is False
    assert allowed(body, "FooBot", FOO + longline_a + "/qux") is True
    assert allowed(body, "FooBot", FOO + longline_b + "/fux") is True


DOCUMENTATION_CHECKS = [
    # (allowed pattern, path, expected) with "disallow: /" in the same group
    *[
        (pattern, path, expected)
        for pattern in ("/fish", "/fish*")
        for path, expected in (
            ("/bar", False),
            ("/fish", True),
            ("/fish.html", True),
            ("/fish/salmon.html", True),
            ("/fishheads", True),
            ("/fishheads/yummy.html", True),
            ("/fish.html?id=anything", True),
            ("/Fish.asp", False),
            ("/catfish", False),
            ("/?id=fish", False),
        )
    ],
    ("/fish*", "/Fish.bar", False),
    ("/fish/", "/bar", False),
    ("/fish/", "/fish/", True),
    ("/fish/", "/fish/salmon", True),
    ("/fish/", "/fish/?salmon", True),
    ("/fish/", "/fish/salmon.html", True),
    ("/fish/", "/fish/?id=anything", True),
    ("/fish/", "/fish", False),
    ("/fish/", "/fish.html", False),
    ("/fish/", "/Fish/Salmon.html", False),
    ("/*.php", "/bar", False),
    ("/*.php", "/filename.php", True),
    ("/*.php", "/folder/filename.php", True),
    ("/*.php", "/folder/filename.php?parameters", True),
    ("/*.php", "//folder/any.php.file.html", True),
    ("/*.php", "/filename.php/", True),
    ("/*.php", "/index?f=filename.php/", True),
    ("/*.php", "/php/", False),
    ("/*.php", "/index?php", False),
    ("/*.php", "/windows.PHP", False),
    ("/*.php$", "/bar", False),
    ("/*.php$", "/filename.php", True),
    ("/*.php$", "/folder/filename.php", True),
    ("/*.php$", "/filename.php?parameters", False),
    ("/*.php$", "/filename.php/", False),
    ("/*.php$", "/filename.php5", False),
    ("/*.php$", "/php/", False),
    ("/*.php$", "/filename?php", False),
    ("/*.php$", "/aaaphpaaa", False),
    ("/*.php$", "//windows.PHP", False),
    ("/fish*.php", "/bar", False),
    ("/fish*.php", "/fish.php", True),
    ("/fish*.php", "/fishheads/catfish.php?parameters", True),
    ("/fish*.php", "/Fish.PHP", False),
]


@pytest.mark.parametrize(
    ("pattern", "path", "expected"),
    [
        pytest.param(pattern, path, expected, id=f"allow:{pattern}-{path}")
        for pattern, path, expected in DOCUMENTATION_CHECKS
    ],
)
def test_GoogleOnly_DocumentationChecks(pattern: str, path: str, expected: bool) -> None:
    """GoogleOnly_DocumentationChecks: "URL matching based on path values" with disallow: /."""
    body = f"user-agent: FooBot\ndisallow: /\nallow: {pattern}\n"
    assert allowed(body, "FooBot", FOO + path) is expected


@pytest.mark.parametrize(
    ("rules", "path", "expected"),
    [
        pytest.param("allow: /p\ndisallow: /", "/page", True, id="allow-p"),
        pytest.param("allow: /folder\ndisallow: /folder", "/folder/page", True, id="folder-tie"),
        pytest.param("allow: /page\ndisallow: /*.htm", "/page.htm", False, id="star-htm-longer"),
        pytest.param("allow: /$\ndisallow: /", "/", True, id="root-dollar"),
        pytest.param("allow: /$\ndisallow: /", "/page.html", False, id="page-dollar"),
    ],
)
def test_GoogleOnly_DocumentationChecks_precedence(rules: str, path: str, expected: bool) -> None:
    """GoogleOnly_DocumentationChecks: "Order of precedence for group-member records" (D5)."""
    body = f"user-agent: FooBot\n{rules}\n"
    assert allowed(body, "FooBot", "http://example.com" + path) is expected


# --- Lines --------------------------------------------------------------------------------------

LINE_ENDING_FILES = {
    "unix": "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n",
    "dos": "User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n",
    "mac": "User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r",
    "no-final-newline": "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /",
    "mixed": "User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /",
}


@pytest.mark.parametrize("name", list(LINE_ENDING_FILES))
def test_ID_LinesNumbersAreCountedCorrectly(name: str) -> None:
    """ID_LinesNumbersAreCountedCorrectly: CR, LF and CRLF each end one line (D1, D18)."""
    robots = parse(LINE_ENDING_FILES[name])
    allow = robots.explain(FOO + "/some/path", "foo")
    assert allow.rule is not None
    assert (allow.rule.kind, allow.rule.line) == (RuleKind.ALLOW, 2)
    assert allow.group_lines == (1,)
    disallow = robots.explain(FOO + "/x", "bar")
    assert disallow.allowed is False
    assert disallow.rule is not None
    assert (disallow.rule.kind, disallow.rule.line) == (RuleKind.DISALLOW, 6)
    assert disallow.group_lines == (3,)
    assert robots.lint() == []


@pytest.mark.parametrize(
    "bom",
    [
        pytest.param(b"\xef\xbb\xbf", id="full"),
        pytest.param(b"\xef\xbb", id="partial-2"),
        pytest.param(b"\xef", id="partial-1"),
    ],
)
def test_ID_UTF8ByteOrderMarkIsSkipped(bom: bytes) -> None:
    """ID_UTF8ByteOrderMarkIsSkipped: a leading BOM, even a partial one, is skipped (D1).

    Ported with Disallow instead of Allow so the group is visible in the verdict. D1 only says
    "a leading BOM is ignored"; partial BOMs follow Google's parser.
    """
    robots = parse(bom + b"User-Agent: foo\nDisallow: /AnyValue\n")
    assert robots.can_fetch(FOO + "/AnyValue", "foo") is False
    assert robots.lint() == []


def test_ID_UTF8ByteOrderMarkIsSkipped_broken_bom() -> None:
    """ID_UTF8ByteOrderMarkIsSkipped: a broken BOM makes line 1 junk; line 2 is then a rule
    outside any group (D1, D3), and both lines are reported."""
    robots = parse(b"\xef\x11\xbfUser-Agent: foo\nDisallow: /AnyValue\n")
    assert robots.can_fetch(FOO + "/AnyValue", "foo") is True
    lines = {finding.line for finding in robots.lint()}
    assert {1, 2} <= lines


def test_ID_UTF8ByteOrderMarkIsSkipped_bom_in_the_middle() -> None:
    """ID_UTF8ByteOrderMarkIsSkipped: a BOM is only skipped at the start of the file; elsewhere
    it spoils its line's key (D1)."""
    robots = parse(b"User-Agent: foo\n\xef\xbb\xbfDisallow: /AnyValue\n")
    assert robots.can_fetch(FOO + "/AnyValue", "foo") is True
    assert 2 in {finding.line for finding in robots.lint()}


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(
            "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\n"
            "Sitemap: http://foo.bar/sitemap.xml\n",
            id="at-end",
        ),
        pytest.param(
            "Sitemap: http://foo.bar/sitemap.xml\n"
            "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\n",
            id="at-start",
        ),
    ],
)
def test_ID_NonStandardLineExample_Sitemap(body: str) -> None:
    """ID_NonStandardLineExample_Sitemap: a sitemap line may appear anywhere (D9)."""
    assert parse(body).sitemaps == ["http://foo.bar/sitemap.xml"]


# --- Helpers: URL to path, pattern escaping -----------------------------------------------------


@pytest.mark.parametrize(
    ("url", "path"),
    [
        pytest.param("http://www.example.com", "/", id="no-path"),
        pytest.param("http://www.example.com/", "/", id="root"),
        pytest.param("http://www.example.com/a", "/a", id="a"),
        pytest.param("http://www.example.com/a/", "/a/", id="a-slash"),
        pytest.param("http://www.example.com/a/b?c=http://d.e/", "/a/b?c=http://d.e/", id="query"),
        pytest.param("http://www.example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f", id="fragment"),
        pytest.param("https://www.example.com/a;b#c", "/a;b", id="params"),
        pytest.param("/a", "/a", id="path"),
        pytest.param("/a?b#c", "/a?b", id="path-fragment"),
        pytest.param("//a/b/c", "//a/b/c", id="double-slash-is-a-path"),
    ],
)
def test_TestGetPathParamsQuery(url: str, path: str) -> None:
    """TestGetPathParamsQuery: the path, params and query are matched; the fragment is not (D7).

    The contract takes an absolute http(s) URL or a path; `//a/b/c` is therefore a path, where
    Google reads `a` as a host.
    """
    robots = parse(f"User-agent: *\nDisallow: /\nAllow: {path}$\n")
    assert robots.can_fetch(url, "AnyBot") is True
    assert robots.explain(url, "AnyBot").allowed is True


@pytest.mark.parametrize(
    "url",
    [
        pytest.param("", id="empty"),
        pytest.param("example.com", id="host"),
        pytest.param("example.com/a", id="host-path"),
        pytest.param("example.com?a", id="host-query"),
        pytest.param("a/b", id="relative"),
        pytest.param("ftp://example.com/a", id="ftp"),
    ],
)
def test_TestGetPathParamsQuery_not_a_url(url: str) -> None:
    """TestGetPathParamsQuery: Google guesses a path for schemeless input; D17 makes anything that
    is neither an http(s) URL nor a path a bad argument (InvalidURL)."""
    robots = parse("User-agent: *\nDisallow: /\n")
    with pytest.raises(InvalidURL):
        robots.can_fetch(url, "AnyBot")
    with pytest.raises(InvalidURL):
        robots.explain(url, "AnyBot")


@pytest.mark.parametrize(
    ("pattern", "paths"),
    [
        pytest.param("/a/b/c", ["/a/b/c"], id="plain"),
        pytest.param("/á", ["/%C3%A1", "/%c3%a1", "/á"], id="non-ascii"),
        pytest.param("/%aa", ["/%AA", "/%aa"], id="lower-hex"),
    ],
)
def test_TestMaybeEscapePattern(pattern: str, paths: list[str]) -> None:
    """TestMaybeEscapePattern: non-ASCII is %-escaped as UTF-8, hex is uppercased (D7)."""
    robots = parse(f"User-agent: *\nDisallow: {pattern}$\n")
    for path in paths:
        assert robots.can_fetch(FOO + path, "AnyBot") is False, path
    assert robots.can_fetch(FOO + "/other", "AnyBot") is True


def test_TestMaybeEscapePattern_url_as_pattern() -> None:
    """TestMaybeEscapePattern: `http://www.example.com` is left alone; as a rule it starts with
    neither / nor *, so it matches nothing (D5)."""
    robots = parse("User-agent: *\nDisallow: http://www.example.com\n")
    assert robots.can_fetch("http://www.example.com/", "AnyBot") is True
    assert robots.can_fetch("/http://www.example.com", "AnyBot") is True
