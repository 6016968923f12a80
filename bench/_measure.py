"""The in-process measures: parse throughput, checks per second, memory of parsed files.

Timed loops run with the garbage collector off (as timeit does) and are the same loop for every
library, so per-call overheads of the harness cancel out. A library that raises is recorded, not
fatal. Slow peers get a uniform 1-in-n sample of the workload, rotating each round, sized so a
round stays within a time budget; robotsclient and protego always run every check.
"""

from __future__ import annotations

import gc
import math
import time
import tracemalloc
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from _agreement import ANSWER_ERROR, ANSWER_NONE
from _peers import REFERENCE, ROBOTSCLIENT, google_url, path_query, product_token

if TYPE_CHECKING:
    from collections.abc import Sequence

    from _corpus import Corpus
    from _peers import Peer

__all__ = [
    "CheckStats",
    "MemoryStats",
    "ParseStats",
    "fill_answers",
    "measure_checks",
    "measure_memory",
    "measure_parse",
]

_PROBE_STRIDE = 97  # a prime: the probe sample cuts across files' URL lists evenly
_FIRST_URL = "https://example.com/"
_FIRST_AGENT = "Googlebot"

Pairs = list[list[tuple[str, str]]]


# ---------------------------------------------------------------- parse throughput


@dataclass(slots=True)
class ParseStats:
    """Per-file parse times of every round (and of parse + one check per workload agent)."""

    peer: str
    per_file: dict[str, list[float]] = field(default_factory=dict)
    warm_per_file: dict[str, list[float]] = field(default_factory=dict)
    errors: int = 0

    @property
    def best_per_file(self) -> dict[str, float]:
        return {name: min(times) for name, times in self.per_file.items()}

    @property
    def best(self) -> float:
        """Sum over files of each file's fastest round: best-of at file granularity."""
        return sum(min(times) for times in self.per_file.values())

    @property
    def best_warm(self) -> float:
        return sum(min(times) for times in self.warm_per_file.values())

    @property
    def rounds(self) -> list[float]:
        """Each round's total."""
        columns = zip(*self.per_file.values(), strict=True)
        return [sum(column) for column in columns]


def _first_checks(peer: Peer, corpus: Corpus) -> dict[str, list[tuple[str, str]]]:
    """One check per agent of each file, in the form the peer takes (forces lazy builds)."""
    out: dict[str, list[tuple[str, str]]] = {}
    for job in corpus.jobs:
        url = job.urls[0] if job.urls else _FIRST_URL
        out[job.file] = [_convert(peer, url, agent) for agent in job.agents]
    return out


def _convert(peer: Peer, url: str, agent: str) -> tuple[str, str]:
    if peer.wants_token:
        return google_url(url), product_token(agent)
    return (path_query(url) if peer.wants_path else url), agent


def _parse_one(peer: Peer, raw: bytes, firsts: list[tuple[str, str]]) -> tuple[float, float, int]:
    """Time one parse (Google's: decode + one check), then the first check per agent."""
    clock = time.perf_counter
    check = peer.check
    errors = 0
    started = clock()
    try:
        robots = peer.parse(raw)
        if peer.reparses:  # Google's parse happens inside its check
            check(robots, _FIRST_URL, _FIRST_AGENT)
    except Exception:  # a peer raising on a real file is data, not a crash
        took = clock() - started
        return took, took, 1
    parsed = clock()
    for url, agent in firsts:
        try:
            check(robots, url, agent)
        except Exception:  # noqa: PERF203
            errors += 1
    return parsed - started, clock() - started, errors


def measure_parse(peers: Sequence[Peer], corpus: Corpus, rounds: int) -> dict[str, ParseStats]:
    """Parse every file with every peer, interleaved file by file, `rounds` times over.

    Interleaving per file (not per library) keeps a shared machine's changing load out of the
    ratios; the garbage collector runs between rounds only.
    """
    stats = {peer.name: ParseStats(peer.name) for peer in peers}
    firsts = {peer.name: _first_checks(peer, corpus) for peer in peers}
    gc.collect()
    gc.disable()
    try:
        for _ in range(rounds):
            for name, raw in corpus.files.items():
                for peer in peers:
                    entry = stats[peer.name]
                    parse_time, warm_time, errors = _parse_one(
                        peer, raw, firsts[peer.name].get(name, [])
                    )
                    entry.per_file.setdefault(name, []).append(parse_time)
                    entry.warm_per_file.setdefault(name, []).append(warm_time)
                    entry.errors += errors
            gc.collect()
    finally:
        gc.enable()
    for entry in stats.values():
        entry.errors //= max(rounds, 1)
    return stats


# ---------------------------------------------------------------- checks per second


@dataclass(slots=True)
class CheckStats:
    """Per-file check timings of every round over the (possibly sampled) workload, and answers."""

    peer: str
    stride: int  # 1: every check; n: one in n, rotating through the workload each round
    checks: dict[str, int] = field(default_factory=dict)  # workload checks per file
    per_file: dict[str, list[tuple[float, int]]] = field(default_factory=dict)  # (s, count)
    answers: bytearray = field(default_factory=bytearray)  # one code per workload check
    errors: int = 0

    def seconds_per_check(self) -> dict[str, float]:
        """Each file's fastest round, as seconds per check."""
        out: dict[str, float] = {}
        for name, runs in self.per_file.items():
            costs = [seconds / count for seconds, count in runs if count]
            if costs:
                out[name] = min(costs)
        return out

    @property
    def best_rate(self) -> float:
        """Checks per second if every file ran at its fastest round's speed."""
        costs = self.seconds_per_check()
        total = sum(self.checks[name] for name in costs)
        seconds = sum(cost * self.checks[name] for name, cost in costs.items())
        return total / seconds if seconds else 0.0

    @property
    def rates(self) -> list[float]:
        """Each round's checks per second (over the checks it sampled)."""
        out = []
        for column in zip(*self.per_file.values(), strict=True):
            seconds = sum(seconds for seconds, _ in column)
            count = sum(count for _, count in column)
            if seconds:
                out.append(count / seconds)
        return out

    @property
    def counts(self) -> list[int]:
        return [sum(c for _, c in column) for column in zip(*self.per_file.values(), strict=True)]

    @property
    def answered(self) -> int:
        return sum(1 for code in self.answers if code != ANSWER_NONE)


def pairs_for(peer: Peer, corpus: Corpus) -> Pairs:
    """Each job's (url, agent) checks in workload order (agent-major), as this peer takes them."""
    out: Pairs = []
    for job in corpus.jobs:
        if peer.wants_token:
            agents = [product_token(agent) for agent in job.agents]
            urls = [google_url(url) for url in job.urls]
        elif peer.wants_path:
            agents, urls = list(job.agents), [path_query(url) for url in job.urls]
        else:
            agents, urls = list(job.agents), list(job.urls)
        out.append([(url, agent) for agent in agents for url in urls])
    return out


def _check_file(
    peer: Peer, raw: bytes, job_pairs: list[tuple[str, str]], stride: int, skip: int
) -> tuple[float, list[bool | None]]:
    """Parse one file (not timed), then time its sampled checks. -> (seconds, answers)."""
    check = peer.check
    robots = peer.parse(raw)
    todo = job_pairs if stride == 1 else job_pairs[skip::stride]
    answers: list[bool | None] = []
    append = answers.append
    started = time.perf_counter()
    for url, agent in todo:
        try:
            append(check(robots, url, agent))
        except Exception:  # noqa: PERF203  (an exception is an answer of its own)
            append(None)
    return time.perf_counter() - started, answers


def _record(stats: CheckStats, first: int, stride: int, answers: list[bool | None]) -> None:
    out = stats.answers
    for position, answer in enumerate(answers):
        out[first + position * stride] = ANSWER_ERROR if answer is None else int(answer)
        stats.errors += answer is None


def _pass(
    peers: Sequence[Peer],
    corpus: Corpus,
    pairs: dict[str, Pairs],
    stats: dict[str, CheckStats],
    offset: int,
    timed: bool,
    deadline: float = math.inf,
) -> None:
    """One pass over the workload, file by file, every peer on each file in turn."""
    index = 0
    for job_index, job in enumerate(corpus.jobs):
        raw = corpus.files[job.file]
        size = len(job.agents) * len(job.urls)
        for peer in peers:
            entry = stats[peer.name]
            skip = (offset - index) % entry.stride
            seconds, answers = _check_file(
                peer, raw, pairs[peer.name][job_index], entry.stride, skip
            )
            _record(entry, index + skip, entry.stride, answers)
            if timed:
                entry.per_file.setdefault(job.file, []).append((seconds, len(answers)))
        index += size
        if time.perf_counter() > deadline:
            return


def _stride(
    peer: Peer, corpus: Corpus, pairs: Pairs, parse_stats: ParseStats | None, budget: float
) -> int:
    """One check in n, so that a round of this peer takes about `budget` seconds."""
    if peer.name in (ROBOTSCLIENT, REFERENCE) or peer.wants_path:
        return 1
    if peer.reparses and parse_stats is not None:  # a check costs about one parse of its file
        best = parse_stats.best_per_file
        estimate = sum(
            len(job.agents) * len(job.urls) * best.get(job.file, 0.0) for job in corpus.jobs
        )
    else:  # time a thin sample and scale it up
        probe = CheckStats(peer.name, _PROBE_STRIDE, answers=bytearray(corpus.total_checks))
        _pass([peer], corpus, {peer.name: pairs}, {peer.name: probe}, 0, timed=True)
        estimate = sum(seconds for runs in probe.per_file.values() for seconds, _ in runs)
        estimate *= _PROBE_STRIDE
    return max(1, math.ceil(estimate / budget))


def measure_checks(
    peers: Sequence[Peer],
    corpus: Corpus,
    rounds: int,
    budget: float,
    parse_stats: dict[str, ParseStats],
) -> tuple[dict[str, CheckStats], dict[str, Pairs]]:
    """Time the workload's checks, interleaved file by file; slow peers are sampled."""
    total = corpus.total_checks
    checks = {job.file: len(job.agents) * len(job.urls) for job in corpus.jobs}
    stats: dict[str, CheckStats] = {}
    pairs: dict[str, Pairs] = {}
    for peer in peers:
        pairs[peer.name] = pairs_for(peer, corpus)
        parse_name = ROBOTSCLIENT if peer.wants_path else peer.name
        stride = _stride(peer, corpus, pairs[peer.name], parse_stats.get(parse_name), budget)
        stats[peer.name] = CheckStats(
            peer.name, stride, checks, answers=bytearray([ANSWER_NONE]) * total
        )
    gc.collect()
    gc.disable()
    try:
        for round_number in range(rounds):
            _pass(peers, corpus, pairs, stats, round_number, timed=True)
            gc.collect()
    finally:
        gc.enable()
    return stats, pairs


def fill_answers(
    peer: Peer, corpus: Corpus, pairs: Pairs, stats: CheckStats, first: int, budget: float
) -> None:
    """Answer more of the workload (untimed, for agreement) until `budget` seconds are spent."""
    deadline = time.perf_counter() + budget
    for offset in range(first, stats.stride):
        if time.perf_counter() > deadline:
            return
        _pass([peer], corpus, {peer.name: pairs}, {peer.name: stats}, offset, False, deadline)


# ---------------------------------------------------------------- memory


@dataclass(frozen=True, slots=True)
class MemoryStats:
    """Bytes held by every parsed file, after parsing and after one check per file and agent."""

    peer: str
    parsed: int
    warm: int
    peak: int


def _hold_all(peer: Peer, corpus: Corpus) -> list[Any]:
    held: list[Any] = []
    for job in corpus.jobs:
        try:
            held.append(peer.parse(corpus.files[job.file]))
        except Exception:  # noqa: PERF203
            held.append(None)
    return held


def measure_memory(peers: Sequence[Peer], corpus: Corpus) -> dict[str, MemoryStats]:
    """Measure each peer alone: traced bytes still held once every file is parsed (gc'd)."""
    out: dict[str, MemoryStats] = {}
    for peer in peers:
        firsts = _first_checks(peer, corpus)
        gc.collect()
        tracemalloc.start()
        try:
            held = _hold_all(peer, corpus)
            gc.collect()
            parsed = tracemalloc.get_traced_memory()[0]
            for job, robots in zip(corpus.jobs, held, strict=True):
                if robots is None or peer.reparses:
                    continue  # Google's parsers keep nothing between checks but the text
                for url, agent in firsts[job.file]:
                    try:
                        peer.check(robots, url, agent)
                    except Exception:  # noqa: PERF203
                        continue
            gc.collect()
            warm, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        del held
        out[peer.name] = MemoryStats(peer.name, parsed, warm, peak)
    return out
