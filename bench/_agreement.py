"""How often each peer agrees with robotsclient over the workload, and why Google's parser differs.

Answers are kept per library as one byte per workload check (0 disallow, 1 allow, ANSWER_*).
Each disagreement with Google's C++ parser is classed by counterfactual: Google is asked again
with one of robotsclient's decisions applied to its input (the 500 KiB cut, D7's normal form);
if its answer then agrees, that decision is the cause. What is left is classed by what the file,
URL or deciding rules look like; the "other" class is where parser bugs hide.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from _peers import google_url, path_query, product_token

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from _corpus import Corpus

    GoogleCheck = Callable[[str, str, str], tuple[bool, int]]  # (text, agent, url) -> (ok, line)
    Explain = Callable[[bytes, str, str], tuple[str, str]]  # (raw, url, agent) -> (rule, reason)

__all__ = [
    "ANSWER_ERROR",
    "ANSWER_NONE",
    "Agreement",
    "Disagreement",
    "Locator",
    "agreement",
    "find_disagreements",
    "write_disagreements",
]

ANSWER_ERROR = 2  # the library raised
ANSWER_NONE = 3  # not checked (sampled out)
_MAX_BODY = 512_000  # D1: only this much of a file is parsed
_EXAMPLES_PER_CLASS = 8
_SHOWN = 160  # characters of a long URL or line shown in the report
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})")
_RULE = re.compile(
    r"^([ \t]*(?:dis)?allow[ \t]*:?[ \t]*)([^#\r\n]*[^#\s])", re.IGNORECASE | re.MULTILINE
)
_ORIGIN = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://[^/?#]*")

# The classes, in the order they are tried.
ROBOTS_TXT = "D5: /robots.txt is always allowed (Google's library leaves that to the crawler)"
CUT = "D1: the 500 KiB cut (Google's library reads the whole file)"
UNRESERVED = "D7: escapes of unreserved characters (%65 = e) equal the character"
NORMAL_FORM = "D7: normal form (hex case, non-ASCII, query :/?@, pattern escapes)"
ENCODING = "D1: BOM or invalid UTF-8 in the file"
AGENT = "D4: agent is not a plain product token"
LITERAL = "D7 fig. 6: literal $ or * in the URL"
INDEX = "D8: index.html rule"
SLASHES = "double slash in the path"
WILDCARD = "D6: wildcard or $ rule decides"
QUERY = "query string"
OTHER = "other (look here for bugs)"


@dataclass(frozen=True, slots=True)
class Agreement:
    """How one peer's answers compare with robotsclient's over the checks both answered."""

    peer: str
    compared: int
    agree: int
    errors: int
    allow_only_peer: int  # the peer allows, robotsclient disallows
    allow_only_ours: int

    @property
    def rate(self) -> float | None:
        return self.agree / self.compared if self.compared else None


def agreement(peer: str, ours: bytearray, theirs: bytearray) -> Agreement:
    """Compare two answer arrays (same workload order)."""
    compared = agree = errors = only_peer = only_ours = 0
    for a, b in zip(ours, theirs, strict=True):
        if b == ANSWER_NONE or a == ANSWER_NONE:
            continue
        if b == ANSWER_ERROR or a == ANSWER_ERROR:
            errors += 1
            continue
        compared += 1
        if a == b:
            agree += 1
        elif b:
            only_peer += 1
        else:
            only_ours += 1
    return Agreement(peer, compared, agree, errors, only_peer, only_ours)


class Locator:
    """Maps a workload check index back to its file, agent and URL (agent-major, URL-minor)."""

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self.starts: list[int] = []
        total = 0
        for job in corpus.jobs:
            self.starts.append(total)
            total += len(job.agents) * len(job.urls)

    def __call__(self, index: int) -> tuple[str, str, str]:
        job_at = bisect.bisect_right(self.starts, index) - 1
        job = self.corpus.jobs[job_at]
        agent_at, url_at = divmod(index - self.starts[job_at], len(job.urls))
        return job.file, job.agents[agent_at], job.urls[url_at]


@dataclass(frozen=True, slots=True)
class Disagreement:
    """One check where Google's parser and robotsclient differ, with each side's reason."""

    kind: str
    file: str
    agent: str
    url: str
    ours: bool
    google: bool
    our_reason: str
    google_line: int
    google_text: str


def _line_text(raw: bytes, number: int) -> str:
    if number <= 0:
        return ""
    text = raw.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    return lines[number - 1].strip()[:_SHOWN] if number <= len(lines) else ""


def _cut(raw: bytes) -> bytes:
    head = raw[:_MAX_BODY]
    if len(raw) > _MAX_BODY and raw[_MAX_BODY : _MAX_BODY + 1] not in (b"\n", b"\r"):
        head = head[: max(head.rfind(b"\n"), head.rfind(b"\r")) + 1]
    return head


def _decode_unreserved(url: str) -> str:
    def replace(match: re.Match[str]) -> str:
        char = chr(int(match.group(1), 16))
        return char if char in _UNRESERVED else match.group()

    return _ESCAPE.sub(replace, url)


def _normal_form(text: str, url: str) -> tuple[str, str] | None:
    """Return (text, url) rewritten in robotsclient's D7 normal form, None if unavailable."""
    try:
        from robotsclient._paths import normalize_path, normalize_pattern
    except ImportError:
        return None
    origin = _ORIGIN.match(url)
    path = normalize_path(path_query(url))
    new_url = (origin.group() if origin else "") + path
    new_text = _RULE.sub(lambda m: m.group(1) + normalize_pattern(m.group(2)), text)
    return new_text, new_url


def _not_utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def classify(raw: bytes, agent: str, url: str, ours: bool, rules: str, google: GoogleCheck) -> str:
    """Return why Google's answer differs from `ours` (see the module docstring)."""
    text = raw.decode("utf-8", "ignore")
    token, escaped = product_token(agent), google_url(url)
    path = path_query(url)
    if ours and (path == "/robots.txt" or path.startswith("/robots.txt?")):
        return ROBOTS_TXT
    if (
        len(raw) > _MAX_BODY
        and google(_cut(raw).decode("utf-8", "ignore"), token, escaped)[0] == ours
    ):
        return CUT
    decoded = _decode_unreserved(escaped)
    if decoded != escaped and google(text, token, decoded)[0] == ours:
        return UNRESERVED
    normal = _normal_form(text, escaped)
    if normal is not None and google(normal[0], token, normal[1])[0] == ours:
        return NORMAL_FORM
    checks = (
        (raw.startswith(b"\xef\xbb\xbf") or _not_utf8(raw), ENCODING),
        (product_token(agent) != agent.split("/")[0].strip(), AGENT),
        ("$" in path or "*" in path, LITERAL),
        ("index.htm" in rules, INDEX),
        ("//" in path, SLASHES),
        ("*" in rules or "$" in rules, WILDCARD),
        ("?" in path, QUERY),
    )
    return next((kind for hit, kind in checks if hit), OTHER)


def find_disagreements(
    corpus: Corpus, ours: bytearray, theirs: bytearray, explain: Explain, google: GoogleCheck
) -> list[Disagreement]:
    """Return every check both answered differently, classed, with each side's reason."""
    locate = Locator(corpus)
    found: list[Disagreement] = []
    for index, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        if a == b or a > 1 or b > 1:
            continue
        file, agent, url = locate(index)
        raw = corpus.files[file]
        our_rule, our_reason = explain(raw, url, agent)
        _, line = google(raw.decode("utf-8", "ignore"), product_token(agent), google_url(url))
        text = _line_text(raw, line)
        kind = classify(raw, agent, url, bool(a), our_rule + "\n" + text, google)
        found.append(Disagreement(kind, file, agent, url, bool(a), bool(b), our_reason, line, text))
    return found


def write_disagreements(
    path: Path, peer: str, found: list[Disagreement], compared: int
) -> Counter[str]:
    """Write the classes with counts and a few examples each; return the class counts."""
    counts = Counter(d.kind for d in found)
    out = [
        f"Disagreements between robotsclient and {peer} over {compared:,} workload checks: "
        f"{len(found):,}",
        "Google's API is given the agent's product token and the URL with non-ASCII %-encoded.",
        "Classes are tried in order; the first two or three are counterfactual (Google asked",
        "again with robotsclient's decision applied agrees), the rest are guesses by shape.",
        "",
    ]
    for kind, count in counts.most_common():
        out.append(f"## {kind}: {count:,}")
        shown = [d for d in found if d.kind == kind][:_EXAMPLES_PER_CLASS]
        for d in shown:
            url = d.url if len(d.url) <= _SHOWN else d.url[:_SHOWN] + "..."
            out.append(f"- {d.file}  agent={d.agent!r}  url={url}")
            out.append(f"    robotsclient: {'allow' if d.ours else 'DISALLOW'}: {d.our_reason}")
            google = (
                f"line {d.google_line}: {d.google_text}" if d.google_line else "no rule matched"
            )
            out.append(f"    google:       {'allow' if d.google else 'DISALLOW'}: {google}")
        out.append("")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(out), encoding="utf-8")
    return counts
