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
    """Round times of parsing every corpus file (and of parse + one check per agent)."""

    peer: str
    rounds: list[float] = field(default_factory=list)
    warm_rounds: list[float] = field(default_factory=list)
    per_file: dict[str, float] = field(default_factory=dict)  # from the best round
    errors: int = 0

    @property
    def best(self) -> float:
        return min(self.rounds)

    @property
    def best_warm(self) -> float:
        return min(self.warm_rounds)


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


def _parse_round(
    peer: Peer, corpus: Corpus, firsts: dict[str, list[tuple[str, str]]]
) -> tuple[float, float, dict[str, float], int]:
    parse, check = peer.parse, peer.check
    reparses = peer.reparses
    clock = time.perf_counter
    per_file: dict[str, float] = {}
    warm = 0.0
    errors = 0
    gc.collect()
    gc.disable()
    try:
        for name, raw in corpus.files.items():
            started = clock()
            try:
                robots = parse(raw)
                if reparses:  # Google's parse happens inside its check
                    check(robots, _FIRST_URL, _FIRST_AGENT)
            except Exception:
                errors += 1
                per_file[name] = clock() - started
                continue
            parsed = clock()
            per_file[name] = parsed - started
            for url, agent in firsts.get(name, ()):
                try:
                    check(robots, url, agent)
                except Exception:  # noqa: PERF203
                    errors += 1
            warm += clock() - started
    finally:
        gc.enable()
    return sum(per_file.values()), warm, per_file, errors


def measure_parse(peers: Sequence[Peer], corpus: Corpus, rounds: int) -> dict[str, ParseStats]:
    """Parse every file with every peer, rounds interleaved; keep each peer's best round."""
    stats = {peer.name: ParseStats(peer.name) for peer in peers}
    firsts = {peer.name: _first_checks(peer, corpus) for peer in peers}
    for _ in range(rounds):
        for peer in peers:
            total, warm, per_file, errors = _parse_round(peer, corpus, firsts[peer.name])
            entry = stats[peer.name]
            if not entry.rounds or total < entry.best:
                entry.per_file = per_file
            entry.rounds.append(total)
            entry.warm_rounds.append(warm)
            entry.errors = max(entry.errors, errors)
    return stats


# ---------------------------------------------------------------- checks per second


@dataclass(slots=True)
class CheckStats:
    """Round times over the (possibly sampled) workload, and the answers seen."""

    peer: str
    stride: int  # 1: every check; n: one in n, rotating through the workload each round
    rounds: list[float] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)
    per_file: dict[str, float] = field(default_factory=dict)  # best seconds per check
    answers: bytearray = field(default_factory=bytearray)  # one code per workload check
    errors: int = 0

    @property
    def rates(self) -> list[float]:
        return [n / t for n, t in zip(self.counts, self.rounds, strict=True) if t > 0]

    @property
    def best_rate(self) -> float:
        return max(self.rates, default=0.0)

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


def _run_checks(
    peer: Peer, corpus: Corpus, pairs: Pairs, stride: int, offset: int, stats: CheckStats
) -> tuple[float, int]:
    """Parse every file (not timed), time the sampled checks; record answers. -> (s, count)."""
    check = peer.check
    clock = time.perf_counter
    parsed = [peer.parse(corpus.files[job.file]) for job in corpus.jobs]
    spent = 0.0
    index = count = 0
    answers_out = stats.answers
    gc.collect()
    gc.disable()
    try:
        for job, robots, job_pairs in zip(corpus.jobs, parsed, pairs, strict=True):
            skip = (offset - index) % stride
            todo = job_pairs if stride == 1 else job_pairs[skip::stride]
            answers: list[bool | None] = []
            append = answers.append
            started = clock()
            for url, agent in todo:
                try:
                    append(check(robots, url, agent))
                except Exception:  # noqa: PERF203  (an exception is an answer of its own)
                    append(None)
            took = clock() - started
            spent += took
            count += len(todo)
            if todo:
                per_check = took / len(todo)
                stats.per_file[job.file] = min(per_check, stats.per_file.get(job.file, per_check))
            for position, answer in enumerate(answers):
                code = ANSWER_ERROR if answer is None else int(answer)
                answers_out[index + skip + position * stride] = code
                stats.errors += answer is None
            index += len(job_pairs)
    finally:
        gc.enable()
    return spent, count


def _stride(
    peer: Peer, corpus: Corpus, pairs: Pairs, parse_stats: ParseStats | None, budget: float
) -> int:
    """One check in n, so that a round of this peer takes about `budget` seconds."""
    if peer.name in (ROBOTSCLIENT, REFERENCE) or peer.wants_path:
        return 1
    if peer.reparses and parse_stats is not None:  # a check costs about one parse of its file
        estimate = sum(
            len(job.agents) * len(job.urls) * parse_stats.per_file.get(job.file, 0.0)
            for job in corpus.jobs
        )
    else:  # time a thin sample and scale it up
        probe = CheckStats(peer.name, _PROBE_STRIDE, answers=bytearray(corpus.total_checks))
        spent, _ = _run_checks(peer, corpus, pairs, _PROBE_STRIDE, 0, probe)
        estimate = spent * _PROBE_STRIDE
    return max(1, math.ceil(estimate / budget))


def measure_checks(
    peers: Sequence[Peer],
    corpus: Corpus,
    rounds: int,
    budget: float,
    parse_stats: dict[str, ParseStats],
) -> tuple[dict[str, CheckStats], dict[str, Pairs]]:
    """Time the workload's checks per peer, rounds interleaved; slow peers are sampled."""
    total = corpus.total_checks
    stats: dict[str, CheckStats] = {}
    pairs: dict[str, Pairs] = {}
    for peer in peers:
        pairs[peer.name] = pairs_for(peer, corpus)
        parse_name = ROBOTSCLIENT if peer.wants_path else peer.name
        stride = _stride(peer, corpus, pairs[peer.name], parse_stats.get(parse_name), budget)
        stats[peer.name] = CheckStats(peer.name, stride, answers=bytearray([ANSWER_NONE]) * total)
    for round_number in range(rounds):
        for peer in peers:
            entry = stats[peer.name]
            spent, count = _run_checks(
                peer, corpus, pairs[peer.name], entry.stride, round_number, entry
            )
            entry.rounds.append(spent)
            entry.counts.append(count)
            gc.collect()
    return stats, pairs


def fill_answers(
    peer: Peer, corpus: Corpus, pairs: Pairs, stats: CheckStats, first: int, budget: float
) -> None:
    """Answer more of the workload (untimed, for agreement) until `budget` seconds are spent."""
    started = time.perf_counter()
    for offset in range(first, stats.stride):
        if time.perf_counter() - started > budget:
            return
        _run_checks(peer, corpus, pairs, stats.stride, offset, stats)


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
