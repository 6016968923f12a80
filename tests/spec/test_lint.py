"""The linter: every problem it must report, on the right line, and silence on clean files.

Finding codes and wording are the parser's own; these tests pin only what the contract and
DECISIONS promise: a Finding(line, severity, code, message) on the offending line.

Categories:
- Clean files: no findings (D1, D9).
- Typos and missing colons, default and strict (D2).
- Junk lines (D1), unknown keys (D3), rules outside groups (D3), patterns not starting with
  / or * (D5), bad crawl-delay / request-rate values (D9), the 500 KiB cut (D1).
- Line numbers with CR, LF and CRLF (D1), Google's reporting_robots_test.cc
  LinesNumbersAreCountedCorrectly and LinesTooLongReportedCorrectly.
- Findings are frozen values; lint never raises.
"""

from __future__ import annotations

import dataclasses

import pytest

from robotsclient import Finding, RobotsTxt, Severity, parse

MAX_BYTES = 512_000  # D1


def lines_of(robots: RobotsTxt) -> set[int]:
    """Return the line numbers that have at least one finding."""
    return {finding.line for finding in robots.lint()}


def at(robots: RobotsTxt, line: int) -> list[Finding]:
    """Return the findings reported on `line`."""
    return [finding for finding in robots.lint() if finding.line == line]


# --- Clean files --------------------------------------------------------------------------------

CLEAN_FILES = {
    "empty": "",
    "comment-only": "# nothing to see\n",
    "simple": "User-agent: *\nDisallow: /private\nAllow: /private/ok\n",
    "groups": (
        "# comment\nUser-agent: a\nUser-agent: b\n\nDisallow: /x # why\n\n"
        "User-agent: *\nAllow: /\nDisallow: /*.gif$\n"
    ),
    "sitemaps": "Sitemap: https://example.com/s.xml\nUser-agent: *\nDisallow:\n",
    "crlf": "User-agent: *\r\nDisallow: /x\r\n",
    "cr": "User-agent: *\rDisallow: /x\r",
    "bom": "\ufeffUser-agent: *\nDisallow: /x\n",
    "no-final-newline": "User-agent: *\nDisallow: /x",
    "wildcards": "User-agent: *\nDisallow: *.php\nDisallow: /a*b$\n",
    "non-ascii": "User-agent: *\nDisallow: /café\nDisallow: /%C3%A9\n",
}


@pytest.mark.parametrize("name", list(CLEAN_FILES))
def test_clean_file_has_no_findings(name: str) -> None:
    """D1: a clean file (comments, blank lines, sitemaps, any line ends) lints clean."""
    assert parse(CLEAN_FILES[name]).lint() == []
    assert parse(CLEAN_FILES[name], strict=True).lint() == []


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("Crawl-delay: 5", id="crawl-delay"),
        pytest.param("Crawl-delay: 0.5", id="crawl-delay-float"),
        pytest.param("Request-rate: 1/5", id="request-rate"),
    ],
)
def test_valid_extension_values_are_not_problems(line: str) -> None:
    """D9: valid crawl-delay and request-rate lines are parsed, not warned about."""
    robots = parse(f"User-agent: *\n{line}\nDisallow: /x\n")
    serious = [f for f in at(robots, 2) if f.severity is not Severity.INFO]
    assert serious == []


# --- D2 typos and missing colons ----------------------------------------------------------------

TYPO_LINES = [
    pytest.param("dissallow: /x", id="dissallow"),
    pytest.param("disalow: /x", id="disalow"),
    pytest.param("diasllow: /x", id="diasllow"),
    pytest.param("disallaw: /x", id="disallaw"),
    pytest.param("dissalow: /x", id="dissalow"),
    pytest.param("useragent: b", id="useragent"),
    pytest.param("user agent: b", id="user-agent-space"),
    pytest.param("site-map: https://example.com/s.xml", id="site-map"),
    pytest.param("Disallow /x", id="missing-colon"),
    pytest.param("User-agent b", id="missing-colon-agent"),
]


@pytest.mark.parametrize("line", TYPO_LINES)
@pytest.mark.parametrize("strict", [False, True])
def test_typos_reported_on_their_line(line: str, strict: bool) -> None:
    """D2: each accepted misspelling or missing colon is reported on its line; in strict mode
    the rejected line is reported too."""
    robots = parse(f"User-agent: a\nDisallow: /y\n{line}\nAllow: /z\n", strict=strict)
    assert at(robots, 3) != []
    assert lines_of(robots) == {3}


def test_typos_reported_each() -> None:
    """D2: every misspelling in a file is reported, each on its own line."""
    body = (
        "useragent: a\n"  # 1
        "dissallow: /a\n"  # 2
        "disalow: /b\n"  # 3
        "Allow: /ok\n"  # 4
        "diasllow: /c\n"  # 5
        "disallaw: /d\n"  # 6
        "dissalow: /e\n"  # 7
        "user agent: b\n"  # 8
        "Disallow /f\n"  # 9
        "site-map: https://example.com/s.xml\n"  # 10
    )
    assert lines_of(parse(body)) == {1, 2, 3, 5, 6, 7, 8, 9, 10}


# --- Junk, unknown keys, rules outside groups, bad patterns, bad values -------------------------


@pytest.mark.parametrize(
    "junk",
    [
        pytest.param("<html>", id="html"),
        pytest.param("just three words", id="words"),
        pytest.param("Error", id="single-word"),
        pytest.param("\x00\x01", id="control"),
    ],
)
def test_junk_line_reported(junk: str) -> None:
    """D1: lines that are not `key: value` are skipped and reported on their line."""
    robots = parse(f"User-agent: *\n{junk}\nDisallow: /x\n")
    assert lines_of(robots) == {2}


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("Unicorns: /extinct", id="made-up"),
        pytest.param("Host: example.com", id="host"),
        pytest.param("Clean-param: ref /articles/", id="clean-param"),
        pytest.param("Noindex: /y", id="noindex"),
        pytest.param("Noarchive: /some", id="noarchive"),
    ],
)
def test_unknown_key_reported(line: str) -> None:
    """D3 / issue 3: unknown keys are ignored and reported on their line."""
    robots = parse(f"User-agent: *\n{line}\nDisallow: /x\n")
    assert lines_of(robots) == {2}


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("Disallow: /a", id="disallow"),
        pytest.param("Allow: /a", id="allow"),
    ],
)
def test_rule_outside_group_reported(line: str) -> None:
    """D3: a rule before any user-agent line is ignored and reported on its line."""
    robots = parse(f"# header\n{line}\nUser-agent: *\nDisallow: /x\n")
    assert lines_of(robots) == {2}


def test_extension_outside_group_reported() -> None:
    """D3/D9: a crawl-delay before any user-agent line applies to no group; it is reported."""
    robots = parse("Crawl-delay: 5\nUser-agent: *\nDisallow: /x\n")
    assert 1 in lines_of(robots)
    assert robots.crawl_delay("AnyBot") is None


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("Disallow: private", id="disallow-word"),
        pytest.param("Allow: page.html", id="allow-word"),
        pytest.param("Disallow: http://example.com/x", id="full-url"),
    ],
)
def test_pattern_not_path_reported(line: str) -> None:
    """D5: a pattern that starts with neither / nor * matches nothing and is reported."""
    robots = parse(f"User-agent: *\n{line}\n")
    assert lines_of(robots) == {2}


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("Crawl-delay: abc", id="crawl-delay-word"),
        pytest.param("Crawl-delay: -1", id="crawl-delay-negative"),
        pytest.param("Crawl-delay:", id="crawl-delay-empty"),
        pytest.param("Request-rate: fast", id="request-rate-word"),
        pytest.param("Request-rate: 1/", id="request-rate-no-seconds"),
    ],
)
def test_bad_extension_value_reported(line: str) -> None:
    """D9: invalid crawl-delay and request-rate values are ignored and reported."""
    robots = parse(f"User-agent: *\n{line}\nDisallow: /x\n")
    assert lines_of(robots) == {2}


def test_size_cut_reported() -> None:
    """D1: the 512,000-byte cut is reported."""
    body = b"User-agent: *\nDisallow: /x\n" + b"#" * MAX_BYTES + b"\nDisallow: /y\n"
    robots = parse(body)
    assert robots.truncated is True
    assert robots.lint() != []
    whole = b"User-agent: *\nDisallow: /x\n#\n"
    assert parse(whole).lint() == []


# --- Line numbers -------------------------------------------------------------------------------


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_finding_line_numbers_follow_line_ends(newline: str) -> None:
    """D1: CR, LF and CRLF each end one line, so findings land on the same line numbers."""
    lines = ["User-agent: *", "", "junk here", "Disallow: /x", "disalow: /y", "Unknown: z"]
    robots = parse(newline.join(lines) + newline)
    assert lines_of(robots) == {3, 5, 6}


GOOGLE_REPORT_FILE = (
    "User-Agent: foo\n"  # 1
    "Allow: /some/path\n"  # 2
    "User-Agent bar # no\n"  # 3  missing colon
    "absolutely random line\n"  # 4  junk
    "#so comment, much wow\n"  # 5
    "\n"  # 6
    "unicorns: /extinct\n"  # 7  unknown key
    "noarchive: /some\n"  # 8  unknown key
    "Disallow: /\n"  # 9
    "Error #and comment\n"  # 10 junk
    "useragent: baz\n"  # 11 typo
    "disallaw: /some\n"  # 12 typo
    "site-map: https://e/s.xml #comment\n"  # 13 typo
    "sitemap: https://e/t.xml\n"  # 14
    "Noarchive: /someCapital\n"  # 15 unknown key
)


def test_LinesNumbersAreCountedCorrectly() -> None:
    """reporting_robots_test.cc LinesNumbersAreCountedCorrectly: findings on exactly the lines
    with a typo, a missing colon, junk or an unknown key; the clean lines have none."""
    robots = parse(GOOGLE_REPORT_FILE)
    assert lines_of(robots) == {3, 4, 7, 8, 10, 11, 12, 13, 15}
    assert robots.can_fetch("/x", "bar") is False
    assert robots.can_fetch("/some/x", "baz") is False
    assert robots.can_fetch("/other", "baz") is True
    assert robots.sitemaps == ["https://e/s.xml", "https://e/t.xml"]


def test_LinesTooLongReportedCorrectly() -> None:
    """reporting_robots_test.cc LinesTooLongReportedCorrectly: a line over Google's line limit
    (2083 * 8 bytes) is reported on its line and still counts as a rule, cut."""
    longline = "/x/" + "a" * (2084 * 8)
    robots = parse(f"user-agent: foo\ndisallow: {longline}\nallow: /\n")
    assert lines_of(robots) == {2}
    assert robots.can_fetch("/x/aaa", "foo") is True
    assert robots.can_fetch(longline, "foo") is False


# --- Values -------------------------------------------------------------------------------------


def test_finding_is_a_frozen_value() -> None:
    """Findings are frozen values with a line, a Severity, a code and a message."""
    findings = parse("User-agent: *\njunk\n").lint()
    assert len(findings) == 1
    finding = findings[0]
    assert isinstance(finding, Finding)
    assert finding.line == 2
    assert isinstance(finding.severity, Severity)
    assert finding.code
    assert finding.message
    with pytest.raises((dataclasses.FrozenInstanceError, AttributeError)):
        finding.line = 3  # type: ignore[misc]


def test_lint_is_repeatable() -> None:
    """lint() is a pure query: calling it again gives the same findings."""
    robots = parse(GOOGLE_REPORT_FILE)
    assert robots.lint() == robots.lint()


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(b"\xff\xfe\x00\x01" * 100, id="binary"),
        pytest.param(b"<html>\n<body>Oops</body>\n</html>\n", id="html"),
        pytest.param(b"User-agent: *\nDisallow: /\xc3\x28\n", id="invalid-utf8"),
    ],
)
def test_lint_never_raises(body: bytes) -> None:
    """D17: linting bad content never raises; findings carry non-negative line numbers."""
    findings = parse(body).lint()
    assert all(finding.line >= 0 for finding in findings)
