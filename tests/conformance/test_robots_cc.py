"""Behaviours of Google's C++ parser's public tests (google/robotstxt robots_test.cc).

Each test is named after the TEST it ports. Where DECISIONS.md diverges on purpose (D4: an
agent's product token is its leading [A-Za-z_-] run; D5: /robots.txt always allowed; D7: one
percent-encoding normal form on both sides), the test follows the decision and says so.
"""

from __future__ import annotations

import pytest

from robotsclient import InvalidURL, parse
from tests.conformance.helpers import allowed

FOO = "FooBot"


def test_GoogleOnly_SystemTest() -> None:
    assert allowed("", FOO, "/")
    assert not allowed("user-agent: FooBot\ndisallow: /\n", FOO, "/")
    # An empty URL or agent is a caller error here, not "allowed" (D17).
    with pytest.raises(InvalidURL):
        parse("user-agent: FooBot\ndisallow: /\n").can_fetch("", FOO)


def test_ID_LineSyntax_Line() -> None:
    url = "http://foo.bar/x/y"
    assert not allowed("user-agent: FooBot\ndisallow: /\n", FOO, url)
    assert allowed("foo: FooBot\nbar: /\n", FOO, url)
    assert not allowed("user-agent FooBot\ndisallow /\n", FOO, url)  # missing colons accepted (D2)


def test_ID_LineSyntax_Groups() -> None:
    robotstxt = (
        "allow: /foo/bar/\n\nuser-agent: FooBot\ndisallow: /\nallow: /x/\nuser-agent: BarBot\n"
        "disallow: /\nallow: /y/\n\n\nallow: /w/\nuser-agent: BazBot\n\nuser-agent: FooBot\n"
        "allow: /z/\ndisallow: /\n"
    )
    base = "http://foo.bar"
    assert allowed(robotstxt, "FooBot", f"{base}/x/b")
    assert allowed(robotstxt, "FooBot", f"{base}/z/d")
    assert not allowed(robotstxt, "FooBot", f"{base}/y/c")
    assert allowed(robotstxt, "BarBot", f"{base}/y/c")
    assert allowed(robotstxt, "BarBot", f"{base}/w/a")
    assert not allowed(robotstxt, "BarBot", f"{base}/z/d")
    assert allowed(robotstxt, "BazBot", f"{base}/z/d")
    for agent in ("FooBot", "BarBot", "BazBot"):  # rules outside groups are ignored
        assert not allowed(robotstxt, agent, f"{base}/foo/bar/")


def test_ID_LineSyntax_Groups_OtherRules() -> None:
    """Sitemap and unknown lines do not end a group (D3)."""
    for middle in ("Sitemap: https://foo.bar/sitemap\n", "Invalid-Unknown-Line: unknown\n"):
        robotstxt = f"User-agent: BarBot\n{middle}User-agent: *\nDisallow: /\n"
        assert not allowed(robotstxt, "BarBot", "http://foo.bar/")
        assert not allowed(robotstxt, "FooBot", "http://foo.bar/")


@pytest.mark.parametrize(
    "robotstxt",
    [
        "USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n",
        "user-agent: FooBot\nallow: /x/\ndisallow: /\n",
        "uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n",
    ],
    ids=["upper", "lower", "camel"],
)
def test_ID_REPLineNamesCaseInsensitive(robotstxt: str) -> None:
    assert allowed(robotstxt, FOO, "http://foo.bar/x/y")
    assert not allowed(robotstxt, FOO, "http://foo.bar/a/b")


@pytest.mark.parametrize("value", ["FOO BAR", "foo bar", "FoO bAr"])
@pytest.mark.parametrize("agent", ["Foo", "foo"])
def test_ID_UserAgentValueCaseInsensitive(value: str, agent: str) -> None:
    robotstxt = f"User-Agent: {value}\nAllow: /x/\nDisallow: /\n"
    assert allowed(robotstxt, agent, "http://foo.bar/x/y")
    assert not allowed(robotstxt, agent, "http://foo.bar/a/b")


def test_GoogleOnly_AcceptUserAgentUpToFirstSpace() -> None:
    """`User-Agent: Foo Bar` names Foo. Google refuses "Foo Bar" as the agent to match; by D4
    its product token is Foo, so it gets Foo's group too."""
    robotstxt = "User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n"
    assert allowed(robotstxt, "Foo", "http://foo.bar/x/y")
    assert allowed(robotstxt, "Foo Bar", "http://foo.bar/x/y")  # D4 diverges on purpose


def test_ID_GlobalGroups_Secondary() -> None:
    url = "http://foo.bar/x/y"
    assert allowed("", FOO, url)
    globally = "user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n"
    assert not allowed(globally, "FooBot", url)
    assert allowed(globally, "BarBot", url)
    specific = "user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\nuser-agent: BazBot\ndisallow: /\n"
    assert allowed(specific, "QuxBot", url)


def test_ID_AllowDisallow_Value_CaseSensitive() -> None:
    url = "http://foo.bar/x/y"
    assert not allowed("user-agent: FooBot\ndisallow: /x/\n", FOO, url)
    assert allowed("user-agent: FooBot\ndisallow: /X/\n", FOO, url)


@pytest.mark.parametrize(
    ("rules", "path", "expected"),
    [
        ("disallow: /x/page.html\nallow: /x/", "/x/page.html", False),
        ("allow: /x/page.html\ndisallow: /x/", "/x/page.html", True),
        ("allow: /x/page.html\ndisallow: /x/", "/x/", False),
        ("disallow: \nallow: ", "/x/page.html", True),
        ("disallow: /\nallow: /", "/x/page.html", True),
        ("disallow: /x\nallow: /x/", "/x", False),
        ("disallow: /x\nallow: /x/", "/x/", True),
        ("disallow: /x/page.html\nallow: /x/page.html", "/x/page.html", True),
        ("allow: /page\ndisallow: /*.html", "/page.html", False),
        ("allow: /page\ndisallow: /*.html", "/page", True),
        ("allow: /x/page.\ndisallow: /*.html", "/x/page.html", True),
        ("allow: /x/page.\ndisallow: /*.html", "/x/y.html", False),
    ],
)
def test_ID_LongestMatch(rules: str, path: str, expected: bool) -> None:
    """D5: the longest pattern wins; equal length: allow."""
    assert allowed(f"user-agent: FooBot\n{rules}\n", FOO, f"http://foo.bar{path}") is expected


def test_ID_LongestMatch_specific_group_only() -> None:
    robotstxt = "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n"
    assert allowed(robotstxt, FOO, "http://foo.bar/x/page")
    assert not allowed(robotstxt, FOO, "http://foo.bar/y/page")


def test_ID_Encoding() -> None:
    """Google's first four cases hold; the three where Google compares raw strings follow D7."""
    query = "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n"
    assert allowed(query, FOO, "http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par")
    for pattern in ("/foo/bar/ツ", "/foo/bar/%E3%83%84"):
        robotstxt = f"User-agent: FooBot\nDisallow: /\nAllow: {pattern}\n"
        assert allowed(robotstxt, FOO, "http://foo.bar/foo/bar/%E3%83%84")
        assert allowed(robotstxt, FOO, "http://foo.bar/foo/bar/ツ")  # D7 (Google: disallowed)
    unreserved = "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n"
    assert allowed(unreserved, FOO, "http://foo.bar/foo/bar/%62%61%7A")
    assert allowed(unreserved, FOO, "http://foo.bar/foo/bar/baz")  # D7 (Google: disallowed)


def test_ID_SpecialCharacters() -> None:
    first = "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n"
    assert not allowed(first, FOO, "http://foo.bar/foo/bar/quz")
    assert allowed(first, FOO, "http://foo.bar/foo/quz")
    assert allowed(first, FOO, "http://foo.bar/foo//quz")
    assert allowed(first, FOO, "http://foo.bar/foo/bax/quz")
    second = "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n"
    assert not allowed(second, FOO, "http://foo.bar/foo/bar")
    assert allowed(second, FOO, "http://foo.bar/foo/bar/qux")
    assert allowed(second, FOO, "http://foo.bar/foo/bar/")
    assert allowed(second, FOO, "http://foo.bar/foo/bar/baz")
    third = "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n"
    assert allowed(third, FOO, "http://foo.bar/foo/bar")
    assert not allowed(third, FOO, "http://foo.bar/foo/quz")


def test_GoogleOnly_IndexHTMLisDirectory() -> None:
    """D8."""
    robotstxt = "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n"
    assert allowed(robotstxt, "foobot", "http://foo.com/allowed-slash/")
    assert not allowed(robotstxt, "foobot", "http://foo.com/allowed-slash/index.htm")
    assert allowed(robotstxt, "foobot", "http://foo.com/allowed-slash/index.html")
    assert not allowed(robotstxt, "foobot", "http://foo.com/anyother-url")


def test_GoogleOnly_LineTooLong() -> None:
    max_line = 2083 * 8
    longline = "/x/" + "a" * (max_line - 3 - len("disallow: ") + 1 - 3)
    robotstxt = f"user-agent: FooBot\ndisallow: {longline}/qux\n"
    assert allowed(robotstxt, FOO, "http://foo.bar/fux")
    assert not allowed(robotstxt, FOO, f"http://foo.bar{longline}/fux")
    size = max_line - 3 - len("allow: ") + 1
    line_a = "/x/" + "a" * (size - 3)
    line_b = "/x/" + "b" * (size - 3)
    robotstxt = f"user-agent: FooBot\ndisallow: /\nallow: {line_a}/qux\nallow: {line_b}/qux\n"
    assert not allowed(robotstxt, FOO, "http://foo.bar/")
    assert allowed(robotstxt, FOO, f"http://foo.bar{line_a}/qux")
    assert allowed(robotstxt, FOO, f"http://foo.bar{line_b}/fux")
    assert any(finding.code == "line-too-long" for finding in parse(robotstxt).lint())


@pytest.mark.parametrize(
    ("rule", "yes", "no"),
    [
        (
            "allow: /fish",
            [
                "/fish",
                "/fish.html",
                "/fish/salmon.html",
                "/fishheads",
                "/fishheads/yummy.html",
                "/fish.html?id=anything",
            ],
            ["/bar", "/Fish.asp", "/catfish", "/?id=fish"],
        ),
        (
            "allow: /fish*",
            [
                "/fish",
                "/fish.html",
                "/fish/salmon.html",
                "/fishheads",
                "/fishheads/yummy.html",
                "/fish.html?id=anything",
            ],
            ["/bar", "/Fish.bar", "/catfish", "/?id=fish"],
        ),
        (
            "allow: /fish/",
            ["/fish/", "/fish/salmon", "/fish/?salmon", "/fish/salmon.html", "/fish/?id=anything"],
            ["/bar", "/fish", "/fish.html", "/Fish/Salmon.html"],
        ),
        (
            "allow: /*.php",
            [
                "/filename.php",
                "/folder/filename.php",
                "/folder/filename.php?parameters",
                "//folder/any.php.file.html",
                "/filename.php/",
                "/index?f=filename.php/",
            ],
            ["/bar", "/php/", "/index?php", "/windows.PHP"],
        ),
        (
            "allow: /*.php$",
            ["/filename.php", "/folder/filename.php"],
            [
                "/bar",
                "/filename.php?parameters",
                "/filename.php/",
                "/filename.php5",
                "/php/",
                "/filename?php",
                "/aaaphpaaa",
                "//windows.PHP",
            ],
        ),
        (
            "allow: /fish*.php",
            ["/fish.php", "/fishheads/catfish.php?parameters"],
            ["/bar", "/Fish.PHP"],
        ),
    ],
    ids=["fish", "fish-star", "fish-slash", "star-php", "star-php-dollar", "fish-star-php"],
)
def test_GoogleOnly_DocumentationChecks(rule: str, yes: list[str], no: list[str]) -> None:
    robotstxt = f"user-agent: FooBot\ndisallow: /\n{rule}\n"
    for path in yes:
        assert allowed(robotstxt, FOO, f"http://foo.bar{path}"), path
    for path in no:
        assert not allowed(robotstxt, FOO, f"http://foo.bar{path}"), path


@pytest.mark.parametrize(
    "text",
    [
        "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n",
        "User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n",
        "User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r",
        "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /",
        "User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /",
    ],
    ids=["unix", "dos", "mac", "no-final-newline", "mixed"],
)
def test_ID_LinesNumbersAreCountedCorrectly(text: str) -> None:
    """D1 and D18: line numbers are right whatever the line ends."""
    robots = parse(text)
    assert robots.groups[0].agent_lines == (1,)
    assert robots.explain("/some/path", "foo").rule.line == 2
    assert robots.groups[1].agent_lines == (3,)
    assert robots.explain("/x", "bar").rule.line == 6


@pytest.mark.parametrize(
    ("prefix", "recognised"),
    [
        (b"\xef\xbb\xbf", True),
        (b"\xef\xbb", True),  # partial BOMs are skipped too
        (b"\xef", True),
        (b"\xef\x11\xbf", False),  # not a BOM: the first line is junk
    ],
    ids=["full", "partial-2", "partial-1", "broken"],
)
def test_ID_UTF8ByteOrderMarkIsSkipped(prefix: bytes, recognised: bool) -> None:
    robots = parse(prefix + b"User-Agent: foo\nDisallow: /AnyValue\n")
    assert robots.can_fetch("/AnyValue", "foo") is not recognised


def test_ID_UTF8ByteOrderMark_only_at_the_start() -> None:
    robots = parse(b"User-Agent: foo\n\xef\xbb\xbfDisallow: /AnyValue\n")
    assert robots.can_fetch("/AnyValue", "foo")
    assert any(finding.code == "unknown-key" and finding.line == 2 for finding in robots.lint())


def test_ID_NonStandardLineExample_Sitemap() -> None:
    body = "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\n"
    assert parse(body + "Sitemap: http://foo.bar/sitemap.xml\n").sitemaps == [
        "http://foo.bar/sitemap.xml"
    ]
    assert parse("Sitemap: http://foo.bar/sitemap.xml\n" + body).sitemaps == [
        "http://foo.bar/sitemap.xml"
    ]


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("http://www.example.com", "/"),
        ("http://www.example.com/", "/"),
        ("http://www.example.com/a", "/a"),
        ("http://www.example.com/a/", "/a/"),
        ("http://www.example.com/a/b?c=http://d.e/", "/a/b?c=http://d.e/"),
        ("http://www.example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"),
        ("/a", "/a"),
        ("http://example.com?a", "/?a"),
        ("http://example.com/a;b#c", "/a;b"),
    ],
)
def test_TestGetPathParamsQuery(url: str, path: str) -> None:
    """Path, params and query are matched; the fragment is not (D7). Scheme-less URLs such as
    `example.com/a` are refused (D17) rather than guessed at."""
    from robotsclient._paths import path_of

    assert path_of(url) == path
