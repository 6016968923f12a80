"""Benchmark robotsclient against the robots.txt parsers that install here (run by hand).

    .venv/bin/python bench/run.py --corpus ../shared/bench-corpus [--quick] [--profile]

In one process, in interleaved rounds (robotsclient, protego, ... then again), it measures:
parse throughput over every corpus file, checks per second over the workload, memory of all
parsed files (tracemalloc), adversarial files (each library in a capped subprocess), the async
client's hot path against the bare parser, and agreement with robotsclient. It prints a table
per measure with ratios against protego and the targets of issues 3 and 4 marked PASS/FAIL, and
writes bench/results/latest.json and bench/results/disagreements.txt. Never a timed test.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import platform
import pstats
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _adversarial import CASES, CaseResult, run_case
from _agreement import agreement, find_disagreements, write_disagreements
from _corpus import Corpus, load_corpus
from _hotpath import HotPathResult, measure_hot_path
from _measure import CheckStats, fill_answers, measure_checks, measure_memory, measure_parse
from _peers import GOOGLE, ROBOTSCLIENT, Peer, load_peers
from _report import (
    adversarial_table,
    agreement_table,
    case_cell,
    checks_table,
    fmt_ratio,
    hot_path_table,
    mark,
    memory_table,
    parse_table,
    table,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

_ROOT = Path(__file__).resolve().parent.parent
_RESULTS = _ROOT / "bench" / "results"
_DEFAULT_CORPUS = _ROOT.parent / "shared" / "bench-corpus"

# Issue 3's targets, as ratios against protego within one run; issue 4's hot path.
TARGET_PARSE = 3.0
TARGET_CHECKS = 5.0
TARGET_ADVERSARIAL_SECONDS = 0.5
TARGET_HOT_PATH = 2.0


@dataclass(frozen=True, slots=True)
class Settings:
    """What to run and how hard (full run defaults; --quick shrinks them)."""

    quick: bool
    rounds: int
    url_stride: int  # keep every n-th workload URL (1: all)
    budget: float  # seconds a sampled peer's round should take
    agreement_budget: float  # untimed seconds per sampled peer to answer more checks
    timeout: float  # cap per adversarial (case, library) subprocess
    hot_repeats: int
    skip: frozenset[str]
    profile: bool


def _settings(args: argparse.Namespace) -> Settings:
    quick = bool(args.quick)
    return Settings(
        quick=quick,
        rounds=args.rounds or (2 if quick else 3),
        url_stride=args.url_stride or (10 if quick else 1),
        budget=args.budget or (0.5 if quick else 2.0),
        agreement_budget=args.agreement_budget
        if args.agreement_budget >= 0
        else (3 if quick else 10),
        timeout=args.timeout or (5.0 if quick else 10.0),
        hot_repeats=10 if quick else 50,
        skip=frozenset(part.strip() for part in args.skip.split(",") if part.strip()),
        profile=bool(args.profile),
    )


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add = parser.add_argument
    add("--corpus", type=Path, default=_DEFAULT_CORPUS, help="folder of robots.txt files")
    add("--quick", action="store_true", help="smoke run: 2 rounds, 1 URL in 10, short caps")
    add("--rounds", type=int, default=0, help="interleaved rounds (default 3, quick 2)")
    add("--url-stride", type=int, default=0, help="keep every n-th workload URL")
    add("--budget", type=float, default=0.0, help="seconds per round for a sampled peer")
    add("--agreement-budget", type=float, default=-1.0, help="untimed seconds per sampled peer")
    add("--timeout", type=float, default=0.0, help="cap per adversarial subprocess (s)")
    add(
        "--peers", default="", help="comma-separated subset of libraries (robotsclient,protego,...)"
    )
    add("--skip", default="", help="comma-separated: memory,adversarial,hotpath,agreement")
    add("--profile", action="store_true", help="also print cProfile of robotsclient")
    add("--json", type=Path, default=_RESULTS / "latest.json", help="results file")
    return parser.parse_args(argv)


def run_adversarial(peers: Sequence[Peer], timeout: float) -> list[CaseResult]:
    """Build each case file once, then run every library on it in a capped subprocess."""
    results: list[CaseResult] = []
    with tempfile.TemporaryDirectory(prefix="robotsclient-bench-") as folder:
        for case in CASES:
            path = Path(folder) / f"{case.name}.txt"
            path.write_bytes(case.build())
            for peer in peers:
                result = run_case(path, case, peer.name, timeout)
                results.append(result)
                print(f"   {case.name:<12} {peer.name:<24} {case_cell(result)}", flush=True)
            path.unlink()
    return results


def _hot_path(corpus: Corpus, settings: Settings) -> HotPathResult:
    """Time the client's cached check on the median-sized real file and its workload URLs."""
    jobs = sorted((j for j in corpus.jobs if j.urls), key=lambda j: len(corpus.files[j.file]))
    if not jobs:
        return HotPathResult("skipped", detail="no workload")
    job = jobs[len(jobs) // 2]
    body = corpus.files[job.file]
    return measure_hot_path(body, list(job.urls), settings.hot_repeats, settings.rounds)


def _google_helpers() -> tuple[Any, Any]:
    """Return (robotsclient's explain, Google's check with its matching line) for the report."""
    from robotsclient import parse

    cache: dict[int, Any] = {}

    def explain(raw: bytes, url: str, agent: str) -> tuple[str, str]:
        robots = cache.get(id(raw))
        if robots is None:
            robots = cache[id(raw)] = parse(raw)
        verdict = robots.explain(url, agent)
        return ("" if verdict.rule is None else str(verdict.rule)), verdict.reason

    try:
        from jwm.robotstxt import googlebot

        matcher = googlebot.RobotsMatcher()

        def google(text: str, agent: str, url: str) -> tuple[bool, int]:
            allowed = matcher.OneAgentAllowedByRobots(text, agent, url)
            return bool(allowed), int(matcher.matching_line())

    except ImportError:
        import robotstxt

        fast = robotstxt.RobotsMatcher()

        def google(text: str, agent: str, url: str) -> tuple[bool, int]:
            allowed = fast.is_allowed(text, agent, url)
            return bool(allowed), int(fast.matching_line)

    return explain, google


def _agreement(
    corpus: Corpus,
    peers: Sequence[Peer],
    stats: dict[str, CheckStats],
    pairs: dict[str, Any],
    settings: Settings,
) -> dict[str, Any]:
    """Top up sampled peers' answers (untimed), print agreement and Google's disagreements."""
    for peer in peers:
        entry = stats[peer.name]
        if entry.stride > 1 and settings.agreement_budget > 0:
            print(f"   answering more checks with {peer.name} for agreement ...", flush=True)
            first = settings.rounds
            fill_answers(peer, corpus, pairs[peer.name], entry, first, settings.agreement_budget)
    ours = stats[ROBOTSCLIENT].answers
    rows = [
        agreement(name, ours, entry.answers)
        for name, entry in stats.items()
        if name != ROBOTSCLIENT
    ]
    print(agreement_table(rows), "\n", flush=True)
    data: dict[str, Any] = {"rates": [asdict(a) | {"rate": a.rate} for a in rows]}
    google = [name for name in stats if name in GOOGLE]
    if not google:
        return data
    # Google's own code (jwm wraps google/robotstxt as is) gives the examples when present.
    name = google[0]
    explain, check = _google_helpers()
    found = find_disagreements(corpus, ours, stats[name].answers, explain, check)
    compared = next(a.compared for a in rows if a.peer == name)
    path = _RESULTS / "disagreements.txt"
    counts = write_disagreements(path, name, found, compared)
    lines = [
        [kind, f"{count:,}", f"{count / compared * 100:.2f}%"]
        for kind, count in counts.most_common()
    ]
    where = path.relative_to(_ROOT)
    title = f"Disagreements with {name} by class ({len(found):,}; examples in {where})"
    print(table(title, ["class", "checks", "of compared"], lines), "\n", flush=True)
    data["google_peer"] = name
    data["google_classes"] = dict(counts)
    if len(google) == 2:
        both = agreement(
            f"{google[0]} vs {google[1]}", stats[google[0]].answers, stats[google[1]].answers
        )
        data["google_vs_google"] = asdict(both) | {"rate": both.rate}
        rate = "-" if both.rate is None else f"{both.rate * 100:.3f}%"
        print(f"   {both.peer}: {rate} of {both.compared:,} agree\n", flush=True)
    return data


def profile_robotsclient(corpus: Corpus) -> str:
    """Return cProfile's top functions for robotsclient parsing the corpus, then checking it."""
    from robotsclient import parse

    out = io.StringIO()
    profiler = cProfile.Profile()
    profiler.enable()
    for raw in corpus.files.values():
        parse(raw)
    profiler.disable()
    out.write("== cProfile: robotsclient parsing every corpus file (by own time)\n")
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(12)
    parsed = {name: parse(raw) for name, raw in corpus.files.items()}
    profiler = cProfile.Profile()
    profiler.enable()
    for job in corpus.jobs:
        can_fetch = parsed[job.file].can_fetch
        for agent in job.agents:
            for url in job.urls:
                can_fetch(url, agent)
    profiler.disable()
    out.write("== cProfile: robotsclient, every workload check (by own time)\n")
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(12)
    return out.getvalue()


def main(argv: Sequence[str] | None = None) -> int:
    args = _arguments(argv)
    settings = _settings(args)
    started = time.perf_counter()
    corpus = load_corpus(args.corpus).subset(settings.url_stride)
    only = {name.strip() for name in args.peers.split(",") if name.strip()} or None
    peers, missing = load_peers(only)
    single = [peer for peer in peers if not peer.wants_path]  # one row per library
    names = {peer.name for peer in peers}
    print(
        f"robotsclient benchmark: Python {platform.python_version()} on {platform.machine()}; "
        f"{corpus.root}: {len(corpus.files)} files, {corpus.total_bytes / 1e6:.2f} MB, "
        f"{corpus.total_checks:,} checks{' (generated workload)' if corpus.generated else ''}; "
        f"{settings.rounds} rounds{' (quick)' if settings.quick else ''}"
    )
    for peer in peers:
        print(f"   {peer.name:<26} {peer.version:<10} {peer.note}")
    for name, why in missing.items():
        print(f"   {name:<26} {why}")
    print(flush=True)
    results: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "corpus": str(corpus.root),
        "files": len(corpus.files),
        "bytes": corpus.total_bytes,
        "checks": corpus.total_checks,
        "settings": asdict(settings) | {"skip": sorted(settings.skip)},
        "peers": {peer.name: {"version": peer.version, "note": peer.note} for peer in peers},
        "missing": missing,
    }
    targets: list[tuple[str, str, bool | None]] = []

    def target(what: str, value: float | None, ok: bool | None, suffix: str = "") -> None:
        targets.append((what, fmt_ratio(value) + suffix, ok))

    sections: dict[str, float] = {}
    mark_time = [time.perf_counter()]

    def done(section: str) -> None:
        now = time.perf_counter()
        sections[section] = now - mark_time[0]
        mark_time[0] = now

    parse_stats = measure_parse(single, corpus, settings.rounds)
    text, results["parse"] = parse_table(parse_stats, corpus)
    print(text, "\n", flush=True)
    done("parse")
    ratio = results["parse"].get(ROBOTSCLIENT, {}).get("vs_protego")
    target(
        f"parse >= {TARGET_PARSE:g}x protego",
        ratio,
        None if ratio is None else ratio >= TARGET_PARSE,
    )
    ratio = results["parse"].get(ROBOTSCLIENT, {}).get("with_first_checks_vs_protego")
    target(
        "  same, parse + 1st check per agent",
        ratio,
        None if ratio is None else ratio >= TARGET_PARSE,
    )

    check_stats, pairs = measure_checks(
        peers, corpus, settings.rounds, settings.budget, parse_stats
    )
    text, results["checks"] = checks_table(check_stats, corpus, settings.quick)
    print(text, "\n", flush=True)
    done("checks")
    for name in (ROBOTSCLIENT, f"{ROBOTSCLIENT} (path given)"):
        ratio = results["checks"].get(name, {}).get("vs_protego")
        label = "checks" if name == ROBOTSCLIENT else "  same, path given"
        target(
            f"{label} >= {TARGET_CHECKS:g}x protego",
            ratio,
            None if ratio is None else ratio >= TARGET_CHECKS,
        )

    if "memory" not in settings.skip:
        memory = measure_memory(single, corpus)
        text, results["memory"] = memory_table(memory)
        print(text, "\n", flush=True)
        done("memory")
        ours, ref = memory.get(ROBOTSCLIENT), memory.get("protego")
        if ours and ref:
            for what, mine, theirs in (
                ("parsed", ours.parsed, ref.parsed),
                ("warm", ours.warm, ref.warm),
            ):
                target(
                    f"memory ({what}) <= protego",
                    theirs / mine if mine else None,
                    mine <= theirs,
                    " smaller",
                )

    if "adversarial" not in settings.skip:
        print(
            f"== Adversarial files: each library in a subprocess, cap {settings.timeout:g} s",
            flush=True,
        )
        adversarial = run_adversarial(single, settings.timeout)
        text, results["adversarial"], verdicts = adversarial_table(
            adversarial, [peer.name for peer in single], TARGET_ADVERSARIAL_SECONDS
        )
        print(text, "\n", flush=True)
        done("adversarial")
        if verdicts:
            passed = sum(verdicts)
            targets.append(
                (
                    f"adversarial: faster than protego, < {TARGET_ADVERSARIAL_SECONDS:g} s",
                    f"{passed}/{len(verdicts)} cases",
                    passed == len(verdicts),
                )
            )

    if "hotpath" not in settings.skip and ROBOTSCLIENT in names:
        hot = _hot_path(corpus, settings)
        results["hot_path"] = asdict(hot) | {"ratio": hot.ratio}
        print(hot_path_table(hot), "\n", flush=True)
        done("hot path")
        if hot.ratio is not None:
            target(
                f"hot path <= {TARGET_HOT_PATH:g}x bare parser (issue 4)",
                hot.ratio,
                hot.ratio <= TARGET_HOT_PATH,
            )
        else:
            targets.append(
                (f"hot path <= {TARGET_HOT_PATH:g}x bare parser (issue 4)", hot.status, None)
            )

    if "agreement" not in settings.skip and ROBOTSCLIENT in check_stats:
        results["agreement"] = _agreement(corpus, peers, check_stats, pairs, settings)
        done("agreement")

    if settings.profile and ROBOTSCLIENT in names:
        print(profile_robotsclient(corpus), flush=True)

    rows = [[what, value, mark(ok)] for what, value, ok in targets]
    print(
        table("Targets (issue 3; issue 4's hot path)", ["target", "robotsclient", "result"], rows),
        "\n",
    )
    results["targets"] = [{"target": w.strip(), "value": v, "pass": ok} for w, v, ok in targets]
    results["seconds"] = time.perf_counter() - started
    results["section_seconds"] = sections
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=1, default=str), encoding="utf-8")
    spent = ", ".join(f"{name} {seconds:.0f} s" for name, seconds in sections.items())
    print(f"wrote {args.json} in {results['seconds']:.0f} s ({spent})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
