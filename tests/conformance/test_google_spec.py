"""Google's robots.txt specification (../shared/spec/google-robots-txt-guide-and-spec.txt).

Categories: "Example path matches" table, "Order of precedence for group-member lines" sample
situations, "Order of precedence for user agents" examples 1 and 2, "Grouping of lines and
rules", "Useful robots.txt rules", "File format" (comments, BOM, line ends, size limit),
"URL matching based on path values" (case sensitivity).
"""

from __future__ import annotations

import pytest

from robotsclient import parse
from tests.conformance.helpers import allowed

# --- "Example path matches" ----------------------------------------------------------------

PATH_TABLE = [
    ("/", ["/", "/anything", "/a/b/c"], []),
    ("/*", ["/", "/anything", "/a/b/c"], []),
    (
        "/fish",
        [
            "/fish",
            "/fish.html",
            "/fish/salmon.html",
            "/fishheads",
            "/fishheads/yummy.html",
            "/fish.php?id=anything",
        ],
        ["/Fish.asp", "/catfish", "/?id=fish"],
    ),
    (
        "/fish*",
        [
            "/fish",
            "/fish.html",
            "/fish/salmon.html",
            "/fishheads",
            "/fishheads/yummy.html",
            "/fish.php?id=anything",
        ],
        ["/Fish.asp", "/catfish", "/?id=fish"],
    ),
    (
        "/fish/",
        ["/fish/", "/fish/?id=anything", "/fish/salmon.htm"],
        ["/fish", "/fish.html", "/Fish/Salmon.asp"],
    ),
    (
        "/*.php",
        [
            "/filename.php",
            "/folder/filename.php",
            "/folder/filename.php?parameters",
            "/folder/any.php.file.html",
            "/filename.php/",
        ],
        ["/", "/windows.PHP"],
    ),
    (
        "/*.php$",
        ["/filename.php", "/folder/filename.php"],
        ["/filename.php?parameters", "/filename.php/", "/filename.php5", "/windows.PHP"],
    ),
    ("/fish*.php", ["/fish.php", "/fishheads/catfish.php?parameters"], ["/Fish.PHP"]),
]


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        pytest.param(pattern, path, True, id=f"{pattern} matches {path}")
        for pattern, yes, _ in PATH_TABLE
        for path in yes
    ]
    + [
        pytest.param(pattern, path, False, id=f"{pattern} does not match {path}")
        for pattern, _, no in PATH_TABLE
        for path in no
    ],
)
def test_example_path_matches(pattern: str, path: str, matches: bool) -> None:
    """Spec "Example path matches": every row, both columns."""
    robots = f"User-agent: *\nDisallow: {pattern}\n"
    assert allowed(robots, "anybot", f"http://example.com{path}") is not matches


# --- "Order of precedence for group-member lines": sample situations ------------------------


@pytest.mark.parametrize(
    ("url", "rules", "expected"),
    [
        pytest.param("/page", "allow: /p\ndisallow: /", True, id="allow-/p-beats-disallow-/"),
        pytest.param(
            "/folder/page", "allow: /folder\ndisallow: /folder", True, id="tie-least-restrictive"
        ),
        pytest.param(
            "/page.htm", "allow: /page\ndisallow: /*.htm", False, id="undefined-longer-wins"
        ),
        pytest.param("/", "allow: /$\ndisallow: /", True, id="allow-root-exactly"),
        pytest.param("/page.htm", "allow: /$\ndisallow: /", False, id="root-exact-not-page"),
    ],
)
def test_sample_situations(url: str, rules: str, expected: bool) -> None:
    """Spec sample situations; the "undefined" one follows D5 (longest pattern wins)."""
    assert allowed(f"user-agent: *\n{rules}\n", "anybot", f"http://example.com{url}") is expected


# --- "Order of precedence for user agents" ---------------------------------------------------

EXAMPLE_1 = """user-agent: googlebot-news
disallow: /group1

user-agent: *
disallow: /group2

user-agent: googlebot
disallow: /group3
"""


@pytest.mark.parametrize(
    ("agent", "group"),
    [
        pytest.param("Googlebot-News", "/group1", id="news-follows-group-1"),
        pytest.param("Googlebot", "/group3", id="web-follows-group-3"),
        pytest.param("Otherbot", "/group2", id="other-follows-group-2"),
        # Googlebot-Image has no group of its own; by D4 (exact token) it follows `*`. Google's
        # crawler also knows it as Googlebot, which a caller expresses with agent "Googlebot".
        pytest.param("Googlebot-Image", "/group2", id="image-follows-star-by-D4"),
    ],
)
def test_example_1_group_selection(agent: str, group: str) -> None:
    """Spec example 1 (and D4): only the most specific group is followed."""
    robots = parse(EXAMPLE_1)
    for candidate in ("/group1", "/group2", "/group3"):
        assert robots.can_fetch(candidate, agent) is (candidate != group), candidate


def test_example_2_groups_for_one_agent_are_merged() -> None:
    """Spec example 2: both googlebot-news groups combine; the `*` group is not inherited."""
    robots = parse(
        "user-agent: googlebot-news\ndisallow: /fish\n\nuser-agent: *\ndisallow: /carrots\n\n"
        "user-agent: googlebot-news\ndisallow: /shrimp\n"
    )
    assert not robots.can_fetch("/fish", "googlebot-news")
    assert not robots.can_fetch("/shrimp", "googlebot-news")
    assert robots.can_fetch("/carrots", "googlebot-news")
    assert not robots.can_fetch("/carrots", "otherbot")
    assert robots.can_fetch("/fish", "otherbot")


def test_grouping_of_lines_and_rules() -> None:
    """Spec "Grouping of lines and rules": four groups a, b, (e, f), and an empty h."""
    robots = parse(
        "user-agent: a\ndisallow: /c\n\nuser-agent: b\ndisallow: /d\n\n"
        "user-agent: e\nuser-agent: f\ndisallow: /g\n\nuser-agent: h\n"
    )
    assert len(robots.groups) == 4
    assert robots.groups[2].agents == ("e", "f")
    assert not robots.can_fetch("/c", "a") and robots.can_fetch("/d", "a")
    assert not robots.can_fetch("/d", "b")
    assert not robots.can_fetch("/g", "e") and not robots.can_fetch("/g", "f")
    assert robots.can_fetch("/c", "h") and robots.can_fetch("/g", "h")  # empty group: allow all


def test_user_agent_is_case_insensitive() -> None:
    """Spec: the user-agent value is matched case-insensitively (D4)."""
    robots = parse("User-agent: GoogleBot\nDisallow: /\n")
    assert not robots.can_fetch("/x", "googlebot")
    assert not robots.can_fetch("/x", "GOOGLEBOT/2.1")


# --- "Useful robots.txt rules" ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("robotstxt", "agent", "path", "expected"),
    [
        pytest.param("User-agent: *\nDisallow: /\n", "anybot", "/x", False, id="disallow-all"),
        pytest.param(
            "User-agent: *\nDisallow: /calendar/\nDisallow: /junk/\n",
            "a",
            "/junk/x",
            False,
            id="directory",
        ),
        pytest.param(
            "User-agent: *\nDisallow: /calendar/\nDisallow: /junk/\n",
            "a",
            "/calendarx",
            True,
            id="directory-only",
        ),
        pytest.param(
            "User-agent: Googlebot-news\nAllow: /\n\nUser-agent: *\nDisallow: /\n",
            "Googlebot-news",
            "/x",
            True,
            id="single-crawler-in",
        ),
        pytest.param(
            "User-agent: Googlebot-news\nAllow: /\n\nUser-agent: *\nDisallow: /\n",
            "otherbot",
            "/x",
            False,
            id="single-crawler-others-out",
        ),
        pytest.param(
            "User-agent: Unnecessarybot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
            "Unnecessarybot",
            "/x",
            False,
            id="all-but-one-out",
        ),
        pytest.param(
            "User-agent: Unnecessarybot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
            "otherbot",
            "/x",
            True,
            id="all-but-one-others",
        ),
        pytest.param(
            "User-agent: *\nDisallow: /private_file.html\n",
            "a",
            "/private_file.html",
            False,
            id="single-page",
        ),
        pytest.param(
            "User-agent: Googlebot-Image\nDisallow: /images/dogs.jpg\n",
            "Googlebot-Image",
            "/images/dogs.jpg",
            False,
            id="one-image",
        ),
        pytest.param(
            "User-agent: Googlebot\nDisallow: /*.gif$\n",
            "Googlebot",
            "/a/b.gif",
            False,
            id="file-type",
        ),
        pytest.param(
            "User-agent: Googlebot\nDisallow: /*.gif$\n",
            "Googlebot",
            "/a/b.gif?x",
            True,
            id="file-type-query",
        ),
        pytest.param(
            "User-agent: *\nDisallow: /\nUser-agent: Mediapartners-Google\nAllow: /\n",
            "Mediapartners-Google",
            "/x",
            True,
            id="adsense",
        ),
        pytest.param(
            "User-agent: Googlebot\nDisallow: /*.xls$\n",
            "Googlebot",
            "/sheet.xls",
            False,
            id="ends-with",
        ),
    ],
)
def test_useful_rules(robotstxt: str, agent: str, path: str, expected: bool) -> None:
    """Spec "Useful robots.txt rules": each sample."""
    assert allowed(robotstxt, agent, f"https://example.com{path}") is expected


# --- "File format" ----------------------------------------------------------------------------


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
def test_lines_end_at_cr_lf_or_crlf(newline: str) -> None:
    """Spec "File format": lines separated by CR, CR/LF, or LF (D1)."""
    robots = parse(newline.join(["User-agent: *", "Disallow: /a", "Allow: /a/b", ""]))
    assert not robots.can_fetch("/a/x", "bot")
    assert robots.can_fetch("/a/b", "bot")
    assert robots.explain("/a/x", "bot").rule.line == 2


def test_comments_anywhere_and_bom() -> None:
    """Spec "File format": `#` comments anywhere; a leading BOM is ignored (D1)."""
    robots = parse(b"\xef\xbb\xbfUser-agent: * # all\n# Disallow: /a\nDisallow: /b # why\n")
    assert robots.can_fetch("/a", "bot")
    assert not robots.can_fetch("/b", "bot")
    assert robots.explain("/b", "bot").rule.pattern == "/b"


def test_rules_are_case_sensitive() -> None:
    """Spec: `Disallow: /file.asp` applies to /file.asp, not /FILE.asp."""
    robots = parse("User-agent: *\nDisallow: /file.asp\n")
    assert not robots.can_fetch("/file.asp", "bot")
    assert robots.can_fetch("/FILE.asp", "bot")


def test_only_valid_lines_count_in_an_html_page() -> None:
    """Spec: in an HTML page only valid lines are taken into account; the rest is discarded."""
    page = "<html><body>\n<p>User-agent: *</p>\nUser-agent: *\nDisallow: /x\n</body></html>\n"
    robots = parse(page)
    assert not robots.can_fetch("/x", "bot")
    assert robots.can_fetch("/y", "bot")


def test_content_after_500_kib_is_ignored() -> None:
    """Spec: a size limit of 500 KiB; content after it is ignored (D1)."""
    filler = "# " + "x" * 1000 + "\n"
    body = "User-agent: *\nDisallow: /early\n" + filler * 600 + "Disallow: /late\n"
    robots = parse(body)
    assert robots.truncated
    assert not robots.can_fetch("/early", "bot")
    assert robots.can_fetch("/late", "bot")
    assert any(finding.code == "size-cut" for finding in robots.lint())


def test_sitemaps_are_file_wide() -> None:
    """Spec "Google-supported non-group-member lines": sitemap belongs to no group."""
    robots = parse(
        "Sitemap: https://example.com/a.xml\nUser-agent: a\nSitemap: http://other.example/b.xml\n"
        "Disallow: /x\nSitemap: https://example.com/a.xml\n"
    )
    assert robots.sitemaps == ["https://example.com/a.xml", "http://other.example/b.xml"]
    assert not robots.can_fetch("/x", "a")
