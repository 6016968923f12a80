"""Plain-text tables for the benchmark's output, one per measure, with ratios against protego."""

from __future__ import annotations

import statistics
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from _adversarial import CASES
from _peers import REFERENCE, ROBOTSCLIENT

if TYPE_CHECKING:
    from collections.abc import Sequence

    from _adversarial import CaseResult
    from _agreement import Agreement
    from _corpus import Corpus
    from _hotpath import HotPathResult
    from _measure import CheckStats, MemoryStats, ParseStats

__all__ = [
    "adversarial_table",
    "agreement_table",
    "case_cell",
    "checks_table",
    "entry_ratio",
    "fmt_bytes",
    "fmt_rate",
    "fmt_ratio",
    "fmt_seconds",
    "hot_path_table",
    "mark",
    "memory_table",
    "parse_table",
    "table",
]

_KIB = 1024


def table(
    title: str, headers: Sequence[str], rows: Sequence[Sequence[str]], notes: Sequence[str] = ()
) -> str:
    """Return a titled table: first column left-aligned, the others right-aligned."""
    widths = [len(h) for h in headers]
    for row in rows:
        for index, cell in enumerate(row):
            widths[index] = max(widths[index], len(cell))

    def line(cells: Sequence[str]) -> str:
        parts = [
            cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i])
            for i, cell in enumerate(cells)
        ]
        return "  ".join(parts).rstrip()

    rule = "-" * len(line(["-" * w for w in widths]))
    out = [f"== {title}", line(headers), rule, *(line(row) for row in rows)]
    out.extend(f"   {note}" for note in notes)
    return "\n".join(out)


def fmt_seconds(seconds: float | None) -> str:
    """Return a duration in s, ms or µs, three significant figures."""
    if seconds is None:
        return "-"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.1f} µs"


def fmt_rate(value: float | None, unit: str = "") -> str:
    """Return a rate with thousands separators (or two decimals when small)."""
    if value is None:
        return "-"
    if value >= 100:
        return f"{value:,.0f}{unit}"
    return f"{value:.2f}{unit}"


def fmt_ratio(value: float | None) -> str:
    """Return a ratio as `3.41x`, `-` when unknown."""
    if value is None:
        return "-"
    if value >= 100:
        return f"{value:,.0f}x"
    return f"{value:.2f}x"


def fmt_bytes(count: float | None) -> str:
    """Return a byte count in KiB or MiB."""
    if count is None:
        return "-"
    if count >= _KIB * _KIB:
        return f"{count / (_KIB * _KIB):.1f} MiB"
    return f"{count / _KIB:.0f} KiB"


# ---------------------------------------------------------------- tables per measure

_MB = 1_000_000
_MAX_BODY = 512_000  # D1: robotsclient parses this much of a file


def mark(ok: bool | None) -> str:
    """Return PASS, FAIL or - for a target."""
    return "-" if ok is None else ("PASS" if ok else "FAIL")


def parse_table(stats: dict[str, ParseStats], corpus: Corpus) -> tuple[str, dict[str, Any]]:
    """The parse-throughput table and its JSON."""
    small = [name for name, raw in corpus.files.items() if len(raw) <= _MAX_BODY]
    small_bytes = sum(len(corpus.files[name]) for name in small)
    total = corpus.total_bytes
    ref = stats.get(REFERENCE)
    rows = []
    data: dict[str, Any] = {}
    for name, entry in stats.items():
        rate = total / entry.best / _MB
        warm = total / entry.best_warm / _MB
        best_per_file = entry.best_per_file
        small_time = sum(best_per_file[f] for f in small)
        small_rate = small_bytes / small_time / _MB if small_time else None
        median = total / statistics.median(entry.rounds) / _MB
        ratio = entry_ratio(ref.best if ref else None, entry.best)
        warm_ratio = entry_ratio(ref.best_warm if ref else None, entry.best_warm)
        rows.append(
            [
                name,
                fmt_rate(rate, " MB/s"),
                fmt_rate(median, " MB/s"),
                fmt_rate(small_rate, " MB/s"),
                fmt_ratio(ratio),
                fmt_rate(warm, " MB/s"),
                fmt_ratio(warm_ratio),
                str(entry.errors),
            ]
        )
        data[name] = {
            "mb_per_s": rate,
            "mb_per_s_median": median,
            "mb_per_s_files_within_500k": small_rate,
            "mb_per_s_with_first_checks": warm,
            "round_seconds": entry.rounds,
            "vs_protego": ratio,
            "with_first_checks_vs_protego": warm_ratio,
            "errors": entry.errors,
        }
    big = len(corpus.files) - len(small)
    rounds = len(next(iter(stats.values())).rounds) if stats else 0
    notes = [
        f"{len(corpus.files)} files, {total / _MB:.2f} MB, {rounds} rounds interleaved file by "
        "file; best: each file's fastest round; peers that need str decode inside their parse.",
        f"files ≤500K: the {big} file(s) over 500 KiB left out (robotsclient stops there, D1).",
        "+1st checks: parse plus one check per workload agent, which builds whatever is built "
        "lazily (robotsclient's per-agent matchers, protego's agent memo).",
        "Google's parsers have no parse-once API: their parse is decode + one full check.",
    ]
    headers = [
        "library",
        "best",
        "median",
        "files ≤500K",
        "vs protego",
        "+1st checks",
        "vs protego",
        "errors",
    ]
    return table("Parse throughput (every corpus file)", headers, rows, notes), data


def entry_ratio(reference: float | None, mine: float | None) -> float | None:
    """Return reference / mine (how many times faster or smaller), None when unknown."""
    if reference is None or not mine:
        return None
    return reference / mine


def checks_table(
    stats: dict[str, CheckStats], corpus: Corpus, quick: bool
) -> tuple[str, dict[str, Any]]:
    """The checks-per-second table and its JSON."""
    ref = stats.get(REFERENCE)
    rows = []
    data: dict[str, Any] = {}
    for name, entry in stats.items():
        rate = entry.best_rate
        ratio = rate / ref.best_rate if ref and ref.best_rate else None
        median = statistics.median(entry.rates) if entry.rates else None
        sample = "all" if entry.stride == 1 else f"1/{entry.stride}"
        rows.append(
            [
                name,
                fmt_rate(rate, "/s"),
                fmt_rate(median, "/s"),
                fmt_seconds(1 / rate if rate else None),
                sample,
                fmt_ratio(ratio),
                str(entry.errors),
            ]
        )
        slowest = sorted(entry.seconds_per_check().items(), key=lambda item: -item[1])[:5]
        data[name] = {
            "checks_per_s": rate,
            "checks_per_s_median": median,
            "sample_stride": entry.stride,
            "checks_per_round": entry.counts,
            "rounds_checks_per_s": entry.rates,
            "vs_protego": ratio,
            "errors": entry.errors,
            "slowest_files_seconds_per_check": slowest,
        }
    notes = [
        f"{corpus.total_checks:,} checks over {len(corpus.jobs)} files, interleaved file by file; "
        "best: each file at its fastest round. Each file is parsed untimed before its checks,",
        "every round, so work a library defers to its first check is timed (once a round).",
        "sample 1/n: a slow peer is timed on a uniform 1-in-n sample rotating each round "
        "(Google's parsers re-parse the whole file on every check).",
    ]
    if quick:
        notes.append(
            "--quick keeps 1 URL in 10, so first-check costs weigh 10x more than in a full run."
        )
    headers = ["library", "best", "median", "per check", "sample", "vs protego", "errors"]
    return table("Checks per second (workload)", headers, rows, notes), data


def memory_table(stats: dict[str, MemoryStats]) -> tuple[str, dict[str, Any]]:
    """The memory table and its JSON."""
    ref = stats.get(REFERENCE)
    rows = []
    data: dict[str, Any] = {}
    for name, entry in stats.items():
        parsed_ratio = entry_ratio(ref.parsed if ref else None, entry.parsed)
        warm_ratio = entry_ratio(ref.warm if ref else None, entry.warm)
        rows.append(
            [
                name,
                fmt_bytes(entry.parsed),
                fmt_ratio(parsed_ratio),
                fmt_bytes(entry.warm),
                fmt_ratio(warm_ratio),
                fmt_bytes(entry.peak),
            ]
        )
        data[name] = asdict(entry) | {
            "parsed_vs_protego": parsed_ratio,
            "warm_vs_protego": warm_ratio,
        }
    notes = [
        "tracemalloc, one library at a time, after gc: bytes still held by all parsed files.",
        "warm: after one check per file and agent (robotsclient builds each agent's matcher on "
        "first use). vs protego: x smaller.",
        "Google's parsers hold only the decoded text (they re-parse per check).",
    ]
    headers = ["library", "parsed", "vs protego", "warm", "vs protego", "peak"]
    return table("Memory of all parsed files", headers, rows, notes), data


def case_cell(result: CaseResult | None) -> str:
    """One adversarial cell: total time, or timeout / error."""
    if result is None:
        return "-"
    if result.status != "ok":
        return result.status
    return fmt_seconds(result.total)


def adversarial_table(
    results: list[CaseResult], names: Sequence[str], limit: float
) -> tuple[str, list[dict[str, Any]], list[bool]]:
    """The adversarial table, its JSON, and robotsclient's pass/fail per case."""
    by = {(r.case, r.peer): r for r in results}
    rows = []
    verdicts: list[bool] = []
    for case in CASES:
        ours = by.get((case.name, ROBOTSCLIENT))
        ref = by.get((case.name, REFERENCE))
        ratio: float | None = None
        ok: bool | None = None
        if ours is not None and ours.total is not None:
            within = ours.total < limit
            if ref is not None and ref.total is not None:
                ratio = entry_ratio(ref.total, ours.total)
                ok = within and ours.total < ref.total
            else:  # protego timed out or failed: being within the limit is enough
                ok = within
        elif ours is not None:
            ok = False
        rss = f"{ours.rss_mb:.0f} MB" if ours is not None and ours.rss_mb else "-"
        cells = [case_cell(by.get((case.name, name))) for name in names]
        rows.append([case.name, *cells, fmt_ratio(ratio), rss, mark(ok)])
        if ok is not None:
            verdicts.append(ok)
    notes = [f"{case.name}: {case.what}" for case in CASES]
    notes.append(
        "Each: parse + a few checks, best of up to 3 runs, one subprocess per library and case "
        f"(timeout = the cap). Target: robotsclient faster than protego and < {limit:g} s. "
        "rss: robotsclient's peak RSS."
    )
    headers = ["case", *names, "vs protego", "rss", "target"]
    data = [asdict(r) | {"total": r.total} for r in results]
    return table("Adversarial files (parse + checks)", headers, rows, notes), data, verdicts


def agreement_table(rows_in: Sequence[Agreement]) -> str:
    """The agreement table."""
    rows = [
        [
            a.peer,
            f"{a.compared:,}",
            "-" if a.rate is None else f"{a.rate * 100:.3f}%",
            f"{a.compared - a.agree:,}",
            f"{a.allow_only_peer:,}",
            f"{a.allow_only_ours:,}",
            f"{a.errors:,}",
        ]
        for a in rows_in
    ]
    headers = [
        "library",
        "compared",
        "agree",
        "differ",
        "only it allows",
        "only we allow",
        "errors",
    ]
    notes = [
        "Over the checks both answered; sampled peers are topped up untimed for this table.",
        "robotsclient (path given) should agree 100% with robotsclient: a gap is a bug.",
    ]
    return table("Agreement with robotsclient", headers, rows, notes)


def hot_path_table(hot: HotPathResult) -> str:
    """The async client's hot-path table."""
    title = "Async client hot path (issue 4)"
    if hot.status != "ok":
        return table(title, ["status", "detail"], [[hot.status, hot.detail]])
    rows = [
        ["await client.can_fetch(url)", fmt_seconds(hot.client_per_check), fmt_ratio(hot.ratio)],
        ["robots.can_fetch(url, agent)", fmt_seconds(hot.parser_per_check), "1.00x"],
    ]
    notes = [
        f"{hot.checks:,} checks a round on a cached fresh origin, best round; {hot.detail}; "
        f"same answers: {hot.agree}"
    ]
    return table(title, ["call", "per check", "vs bare parser"], rows, notes)
