"""Normal form of paths and patterns (D7) and URL splitting; found by agreement runs.

Categories: escapes next to wildcards, lone '%', unreserved decoding, query equivalences,
literal '*'/'$' in URLs.
"""

from __future__ import annotations

import pytest

from robotsclient import parse
from robotsclient._paths import normalize_path, normalize_pattern


@pytest.mark.parametrize(
    ("pattern", "normal"),
    [
        pytest.param("/*%E3%81%82", "/*%E3%81%82", id="escape-right-after-star"),
        pytest.param("/*%e3%81%82$", "/*%E3%81%82$", id="lowercase-escape-after-star-anchored"),
        pytest.param("/x*%2a%", "/x*%2A%25", id="escaped-star-and-lone-percent"),
        pytest.param("/a$b$", "/a%24b$", id="dollar-literal-unless-last"),
        pytest.param("/%7Ea", "/~a", id="unreserved-decoded"),
        pytest.param("/a%2fb", "/a%2Fb", id="reserved-kept-uppercased"),
        pytest.param("/é", "/%C3%A9", id="utf8-encoded"),
        pytest.param("/q?u=%3A%2F%3F%40", "/q?u=:/?@", id="query-delims-decoded"),
        pytest.param("/p%3A?q", "/p%3A?q", id="path-delims-kept"),
    ],
)
def test_pattern_normal_form(pattern: str, normal: str) -> None:
    """D7: one normal form for patterns; `*` always and a final `$` stay syntax (D6)."""
    assert normalize_pattern(pattern) == normal


@pytest.mark.parametrize(
    ("path", "normal"),
    [
        pytest.param("/a*b$", "/a%2Ab%24", id="literal-star-dollar"),
        pytest.param("/%", "/%25", id="lone-percent"),
        pytest.param("/a%zz", "/a%25zz", id="not-an-escape"),
        pytest.param("/a b", "/a%20b", id="space"),
        pytest.param("/plain/path?x=1", "/plain/path?x=1", id="plain-unchanged"),
    ],
)
def test_path_normal_form(path: str, normal: str) -> None:
    assert normalize_path(path) == normal


def test_wildcard_followed_by_escaped_utf8_matches() -> None:
    """D6/D7 regression: `/*%E3...` (a real indeed.com rule) must match the escaped URL."""
    robots = parse("User-agent: *\nAllow: /\nDisallow: /*%E3%81%82%E3%81%8D\n")
    assert not robots.can_fetch("https://example.com/x1%E3%81%82%E3%81%8D", "bot")
    assert not robots.can_fetch("https://example.com/x1あき", "bot")
    assert robots.can_fetch("https://example.com/x1", "bot")


def test_a_path_with_double_slashes_is_a_path() -> None:
    """A path given directly is matched as written, even `//a/b` (not an authority)."""
    robots = parse("User-agent: *\nDisallow: //private\n")
    assert not robots.can_fetch("//private/x", "bot")
    assert not robots.can_fetch("https://example.com//private/x", "bot")
    assert robots.can_fetch("/private/x", "bot")


def test_lone_surrogates_in_str_input_never_raise() -> None:
    """D1/D17: a str body or URL holding a lone surrogate (not UTF-8 at all) keeps its bytes."""
    robots = parse("User-agent: *\nDisallow: /\ud800x\nDisallow: /b\n")
    assert not robots.can_fetch("/\ud800x", "bot")
    assert not robots.can_fetch("/b", "bot")
    assert robots.can_fetch("/a", "bot")
    assert any(finding.code == "invalid-utf8" for finding in robots.lint())
    assert parse("User-agent: *\nDisallow: /x\n").can_fetch("/\ud800", "bot")


@pytest.mark.parametrize("body", [None, 123, ["User-agent: *"]])
def test_a_body_that_is_not_bytes_or_str_is_a_bad_argument(body: object) -> None:
    """D17: a wrong argument type is the caller's error, with the library's own exception."""
    from robotsclient import InvalidArgument

    with pytest.raises(InvalidArgument):
        parse(body)  # type: ignore[arg-type]
