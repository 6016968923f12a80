"""Adversarial robots.txt files, each parsed and checked by each library in its own subprocess.

A peer may hang on these (backtracking regexes, quadratic scans), so every (case, library) pair
runs in a child process with a time cap and is reported as "timeout" when it hits it; the parent
never waits longer than the cap. Files are generated here, deterministically (seeded).

Run as a script, this module is the child: `_adversarial.py CASE_FILE PEER_LABEL CHECKS_JSON`
prints one JSON object with the best parse and check times, the answers and the peak RSS.
"""

from __future__ import annotations

import json
import random
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["CASES", "Case", "CaseResult", "run_case"]

_SEED = 20240101
_MAX_REPEATS = 3  # best of up to this many runs ...
_REPEAT_BUDGET = 1.0  # ... while the runs so far took less than this many seconds
_PREFIX_RULES = 30_000
_WILDCARD_RULES = 1_000
_WILD = "/" + "*a" * 8 + "*b"  # the pattern of issue 3, `/*a*a*a*a*a*a*a*a*b`
_LONG_PATH = 5_000
_GROUPS = 100_000
_LONG_LINE = 1_000_000
_CR_RULES = 20_000
_JUNK_BYTES = 1_000_000
_TEN_MB = 10 * 1_000_000


def _letters(number: int) -> str:
    """Spell `number` in lowercase letters, so every agent keeps a distinct product token (D4)."""
    out = []
    while True:
        number, digit = divmod(number, 26)
        out.append(chr(ord("a") + digit))
        if number == 0:
            return "".join(reversed(out))


def _prefix_list() -> bytes:
    lines = ["User-agent: *"]
    lines.extend(f"Disallow: /{i:x}" for i in range(_PREFIX_RULES))  # hex: fits in 500 KiB
    lines.append(f"Allow: /{12345:x}/public")
    return ("\n".join(lines) + "\n").encode()


def _wildcards() -> bytes:
    lines = ["User-agent: *"]
    lines.extend(f"Disallow: {_WILD}{i if i % 2 else ''}" for i in range(_WILDCARD_RULES))
    lines.append("Allow: /*a*a*a*a*c$")
    return ("\n".join(lines) + "\n").encode()


def _groups() -> bytes:
    parts = [f"User-agent: bot{_letters(i)}\nDisallow: /private{i}/\n" for i in range(_GROUPS)]
    return "".join(parts).encode()


def _long_line() -> bytes:
    return (
        "User-agent: *\nDisallow: /private\nAllow: /" + "x" * _LONG_LINE + "\nDisallow: /tmp\n"
    ).encode()


def _cr_only() -> bytes:
    lines = ["User-agent: *"]
    lines.extend(f"Disallow: /cr{i}/" for i in range(_CR_RULES))
    lines.append("Allow: /cr5/ok")
    lines.append("User-agent: Googlebot")
    lines.append("Disallow: /google-only/")
    return ("\r".join(lines) + "\r").encode()


def _junk() -> bytes:
    return random.Random(_SEED).randbytes(_JUNK_BYTES)


def _ten_mb() -> bytes:
    lines = ["User-agent: *"]
    size = len(lines[0]) + 1
    number = 0
    while size < _TEN_MB:
        line = f"Disallow: /cat{number}/*?sort=" if number % 2 else f"Allow: /cat{number}/public$"
        lines.append(line)
        size += len(line) + 1
        number += 1
    return ("\n".join(lines) + "\n").encode()


@dataclass(frozen=True, slots=True)
class Case:
    """One adversarial file: how to build it, and the checks to time on it."""

    name: str
    what: str
    build: Callable[[], bytes]
    urls: tuple[str, ...]
    agents: tuple[str, ...] = ("Googlebot",)


_HOST = "https://example.com"
CASES: tuple[Case, ...] = (
    Case(
        "prefix-30k",
        "30,000 Disallow prefixes in one group",
        _prefix_list,
        (f"/{29999:x}/x", f"/{12345:x}/public/x", "/zzz", "/", "/1" + "9" * _LONG_PATH),
    ),
    Case(
        "wildcards",
        f"{_WILDCARD_RULES:,} x `{_WILD}` (+ variants), {_LONG_PATH:,}-char paths",
        _wildcards,
        (
            "/" + "a" * _LONG_PATH,
            "/" + "a" * (_LONG_PATH - 1) + "b",
            "/" + "ab" * (_LONG_PATH // 2),
        ),
    ),
    Case(
        "groups-100k",
        f"{_GROUPS:,} user-agent groups (3.9 MB)",
        _groups,
        ("/private7/x", "/private99999/", "/"),
        ("botah", "botfntd", "UnknownBot"),
    ),
    Case(
        "long-line",
        f"a {_LONG_LINE:,}-char line",
        _long_line,
        ("/private/x", "/tmp/x", "/" + "x" * _LONG_PATH, "/"),
    ),
    Case(
        "cr-only",
        f"{_CR_RULES:,} rules, CR-only line ends",
        _cr_only,
        ("/cr19999/x", "/cr5/ok", "/nothing", "/google-only/a"),
        ("Googlebot", "OtherBot"),
    ),
    Case(
        "binary-junk",
        f"{_JUNK_BYTES // 1_000_000} MB of seeded random bytes",
        _junk,
        ("/", "/a", "/x/y?z=1"),
    ),
    Case(
        "ten-mb",
        f"a {_TEN_MB // 1_000_000} MB file of rules",
        _ten_mb,
        ("/cat1/x?sort=a", "/cat2/public", "/cat3/y", "/"),
    ),
)


@dataclass(frozen=True, slots=True)
class CaseResult:
    """What one library did on one case; `status` is ok, timeout or error."""

    case: str
    peer: str
    status: str
    parse: float | None = None
    checks: float | None = None
    answers: tuple[bool | None, ...] = ()
    rss_mb: float | None = None
    detail: str = ""

    @property
    def total(self) -> float | None:
        if self.parse is None or self.checks is None:
            return None
        return self.parse + self.checks


def run_case(case_file: Path, case: Case, peer: str, timeout: float) -> CaseResult:
    """Run `peer` on `case` in a child process, giving up after `timeout` seconds."""
    checks = json.dumps([[_HOST + url, agent] for agent in case.agents for url in case.urls])
    command = [sys.executable, str(Path(__file__).resolve()), str(case_file), peer, checks]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return CaseResult(case.name, peer, "timeout", detail=f"> {timeout:g} s")
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return CaseResult(case.name, peer, "error", detail=tail[:200])
    data = json.loads(done.stdout)
    return CaseResult(
        case.name,
        peer,
        "ok",
        parse=data["parse"],
        checks=data["checks"],
        answers=tuple(data["answers"]),
        rss_mb=data["rss_mb"],
    )


def _peak_rss_mb() -> float:
    """This process's peak RSS since exec (VmHWM; ru_maxrss can carry the forking parent's)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _child(case_file: str, label: str, checks_json: str) -> None:
    """Time parse and checks of one file for one library; print the result as JSON."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _peers import google_url, load_peers, path_query, product_token

    peers, missing = load_peers({label})
    peer = next((p for p in peers if p.name == label), None)
    if peer is None:
        raise SystemExit(f"{label}: {missing.get(label, 'unknown peer')}")
    raw = Path(case_file).read_bytes()
    pairs = []
    for url, agent in json.loads(checks_json):
        if peer.wants_token:
            pairs.append((google_url(url), product_token(agent)))
        else:
            pairs.append((path_query(url) if peer.wants_path else url, agent))
    best_parse = best_checks = float("inf")
    answers: list[bool | None] = []
    spent = 0.0
    for _ in range(_MAX_REPEATS):
        started = time.perf_counter()
        robots = peer.parse(raw)
        parsed = time.perf_counter()
        answers = []
        for url, agent in pairs:
            try:
                answers.append(peer.check(robots, url, agent))
            except Exception:  # noqa: PERF203  (a peer raising on a check is an answer of its own)
                answers.append(None)
        ended = time.perf_counter()
        best_parse = min(best_parse, parsed - started)
        best_checks = min(best_checks, ended - parsed)
        del robots
        spent += ended - started
        if spent > _REPEAT_BUDGET:
            break
    print(
        json.dumps(
            {
                "parse": best_parse,
                "checks": best_checks,
                "answers": answers,
                "rss_mb": _peak_rss_mb(),
            }
        )
    )


if __name__ == "__main__":
    _child(sys.argv[1], sys.argv[2], sys.argv[3])
