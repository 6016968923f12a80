"""The command line through its real entry points, in subprocesses.

Categories: check with --robots (exit codes 0/1/2, URLs from stdin and files, --json shape),
explain (rule in context), lint (compiler-style lines, exit 1 on errors, --strict), --help and
--version, `python -m robotsclient`.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROBOTS = """User-agent: *
Disallow: /private/
Allow: /private/press/

User-agent: ExampleBot
Disallow: /drafts/
Crawl-delay: 5
"""


def run(
    *args: str, stdin: str | None = None, module: bool = True
) -> subprocess.CompletedProcess[str]:
    if module:
        command = [sys.executable, "-m", "robotsclient", *args]
    else:
        script = shutil.which("robotsclient", path=str(Path(sys.executable).parent))
        assert script is not None, "the robotsclient console script is not installed"
        command = [script, *args]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=60)


@pytest.fixture
def robots_file(tmp_path: Path) -> Path:
    path = tmp_path / "robots.txt"
    path.write_text(ROBOTS)
    return path


def test_check_all_allowed_exits_0(robots_file: Path) -> None:
    result = run(
        "check",
        "--robots",
        str(robots_file),
        "https://example.com/",
        "/private/press/x",
        module=False,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert all(line.startswith("allowed") for line in lines)


def test_check_any_disallowed_exits_1_and_says_why(robots_file: Path) -> None:
    """D18: each line names the deciding rule and its line number."""
    result = run(
        "check",
        "--robots",
        str(robots_file),
        "https://example.com/ok",
        "https://example.com/private/x",
    )
    assert result.returncode == 1
    denied = [line for line in result.stdout.splitlines() if line.startswith("disallowed")]
    assert len(denied) == 1
    assert "Disallow: /private/" in denied[0]
    assert "line 2" in denied[0]


def test_check_agent_picks_its_group(robots_file: Path) -> None:
    """D4: ExampleBot's group does not inherit the `*` rules."""
    result = run(
        "check",
        "--robots",
        str(robots_file),
        "--agent",
        "ExampleBot/1.0",
        "/private/x",
        "/drafts/y",
    )
    lines = result.stdout.splitlines()
    assert lines[0].startswith("allowed")
    assert lines[1].startswith("disallowed")
    assert result.returncode == 1


def test_check_token_option_for_browser_like_headers(robots_file: Path) -> None:
    """D4: a browser-like header names its product token separately."""
    header = "Mozilla/5.0 (compatible; ExampleBot/1.0)"
    result = run(
        "check",
        "--robots",
        str(robots_file),
        "--agent",
        header,
        "--token",
        "ExampleBot",
        "/drafts/y",
    )
    assert result.returncode == 1
    assert "examplebot" in result.stdout


def test_check_reads_urls_from_stdin_and_file(robots_file: Path, tmp_path: Path) -> None:
    urls = tmp_path / "urls.txt"
    urls.write_text("# a comment\n/a\n\n/private/b\n")
    result = run(
        "check",
        "--robots",
        str(robots_file),
        "--from-file",
        str(urls),
        "-",
        stdin="/c\n/private/d\n",
    )
    assert result.returncode == 1
    assert len(result.stdout.splitlines()) == 4


def test_check_json_lines_have_a_stable_shape(robots_file: Path) -> None:
    result = run("check", "--robots", str(robots_file), "--json", "/private/x", "/y")
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["allowed"] for r in records] == [False, True]
    for record in records:
        assert set(record) == {
            "url",
            "allowed",
            "outcome",
            "status",
            "agent",
            "rule",
            "reason",
            "stale",
        }
    assert records[0]["rule"] == {"kind": "disallow", "pattern": "/private/", "line": 2}
    assert records[1]["rule"] is None


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["check", "--robots", "{robots}"], id="no-urls"),
        pytest.param(["check", "--robots", "{robots}", "ftp://example.com/x"], id="bad-scheme"),
        pytest.param(["check", "--robots", "/no/such/file", "/x"], id="missing-file"),
        pytest.param(["nosuchcommand"], id="unknown-command"),
    ],
)
def test_usage_errors_exit_2(args: list[str], robots_file: Path) -> None:
    """D17: bad caller input is a clear usage error, exit status 2."""
    result = run(*[arg.format(robots=robots_file) for arg in args])
    assert result.returncode == 2
    assert "Error" in result.stderr or "Usage" in result.stderr


def test_explain_shows_the_rule_in_context(robots_file: Path) -> None:
    result = run("explain", "--robots", str(robots_file), "https://example.com/private/x")
    assert result.returncode == 0
    assert "disallowed" in result.stdout
    assert ">     2 | Disallow: /private/" in result.stdout


def test_lint_reports_like_a_compiler(tmp_path: Path) -> None:
    """D1/D2/D5 findings carry line numbers; errors make exit status 1."""
    path = tmp_path / "robots.txt"
    path.write_text("Disallow: /early\nUser-agent: *\nDissallow: /typo\n<html>\nDisallow: nopath\n")
    result = run("lint", str(path))
    assert result.returncode == 1
    out = result.stdout
    assert f"{path}:1: error:" in out  # rule before any user-agent
    assert f"{path}:3: warning:" in out  # accepted typo
    assert f"{path}:4: error:" in out  # junk line
    assert f"{path}:5: error:" in out  # pattern not starting with /


def test_lint_clean_file_exits_0_and_strict_flags_typos(tmp_path: Path) -> None:
    path = tmp_path / "robots.txt"
    path.write_text("User-agent: *\nDisallow: /x\n")
    assert run("lint", str(path)).returncode == 0
    path.write_text("Useragent: *\nDisallow: /x\n")
    assert run("lint", str(path)).returncode == 0
    strict = run("lint", "--strict", "--json", str(path))
    assert strict.returncode == 1
    assert json.loads(strict.stdout.splitlines()[0])["code"] == "typo-rejected"


def test_help_and_version() -> None:
    help_text = run("--help")
    assert help_text.returncode == 0
    assert "Examples:" in help_text.stdout
    for command in ("check", "explain", "lint", "fetch"):
        assert command in help_text.stdout
    version = run("--version")
    assert version.returncode == 0
    assert "robotsclient, version" in version.stdout


def test_no_colour_when_not_a_terminal(robots_file: Path) -> None:
    result = run("check", "--robots", str(robots_file), "/private/x")
    assert "\x1b[" not in result.stdout
