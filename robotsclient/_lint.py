"""Lint findings: what the parser noticed about a robots.txt file, each with its line number.

Findings never change a verdict; they explain why a line was skipped, accepted with a typo, or
ignored (DECISIONS D1, D2, D5, D9).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["Finding", "Problem", "Severity"]


class Severity(enum.Enum):
    """How much a finding matters: ERROR lines lose rules, WARNING lines are guessed at."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class Problem(enum.Enum):
    """Every kind of finding, with its severity and a message template."""

    JUNK_LINE = ("junk-line", Severity.ERROR, "not a 'key: value' line; skipped (D1)")
    SIZE_CUT = (
        "size-cut",
        Severity.ERROR,
        "file is larger than 512,000 bytes; the rest is ignored (D1)",
    )
    RULE_OUTSIDE_GROUP = (
        "rule-outside-group",
        Severity.ERROR,
        "rule before any user-agent line; ignored (D3)",
    )
    PATTERN_NOT_PATH = (
        "pattern-not-path",
        Severity.ERROR,
        "pattern starts with neither '/' nor '*'; it matches nothing (D5)",
    )
    TYPO_KEY = ("typo-key", Severity.WARNING, "misspelled key accepted as {0} (D2)")
    TYPO_REJECTED = ("typo-rejected", Severity.ERROR, "misspelled key rejected in strict mode (D2)")
    MISSING_COLON = ("missing-colon", Severity.WARNING, "no colon after the key; accepted (D2)")
    MISSING_COLON_REJECTED = (
        "missing-colon-rejected",
        Severity.ERROR,
        "no colon after the key; rejected in strict mode (D2)",
    )
    UNKNOWN_KEY = ("unknown-key", Severity.INFO, "unknown key {0!r}; ignored (D3)")
    INVALID_UTF8 = (
        "invalid-utf8",
        Severity.WARNING,
        "invalid UTF-8 bytes; kept as percent-escapes (D1)",
    )
    LINE_TOO_LONG = ("line-too-long", Severity.WARNING, "line longer than {0} bytes; cut there")
    BAD_VALUE = ("bad-value", Severity.WARNING, "invalid {0} value {1!r}; ignored (D9)")
    DUPLICATE_VALUE = (
        "duplicate-value",
        Severity.INFO,
        "second {0} in one group; the first one is used (D9)",
    )
    OUTSIDE_GROUP = (
        "outside-group",
        Severity.WARNING,
        "{0} before any user-agent line; ignored (D3)",
    )
    EMPTY_AGENT = (
        "empty-agent",
        Severity.WARNING,
        "user-agent {0!r} has no product token; it matches no crawler (D4)",
    )
    EMPTY_ALLOW = ("empty-allow", Severity.INFO, "empty allow; ignored (D5)")
    SITEMAP_NOT_URL = (
        "sitemap-not-url",
        Severity.WARNING,
        "sitemap {0!r} is not an absolute http(s) URL",
    )

    def __init__(self, code: str, severity: Severity, template: str) -> None:
        self.code = code
        self.severity = severity
        self.template = template


@dataclass(frozen=True, slots=True)
class Finding:
    """One lint finding: the line (1-based; 0 for the whole file), severity, code and message."""

    line: int
    severity: Severity
    code: str
    message: str

    @classmethod
    def of(cls, problem: Problem, line: int, *args: object) -> Finding:
        """Build a finding of kind `problem` at `line`, filling its template with `args`."""
        return cls(line, problem.severity, problem.code, problem.template.format(*args))

    def __str__(self) -> str:
        return f"line {self.line}: {self.severity.value}: {self.message} [{self.code}]"
