"""The corpus and the check workload: real files from a folder, URLs from workload.json.gz.

Any folder of robots.txt files works: `robots/` inside it is used when present. Without a
`workload.json.gz`, each file gets URLs built from its own rules plus a few fixed awkward paths,
and three agents: one the file names, Googlebot, and an unknown crawler.
"""

from __future__ import annotations

import gzip
import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["Corpus", "Job", "load_corpus"]

WORKLOAD_NAME = "workload.json.gz"
_NOT_ROBOTS = frozenset({"MANIFEST.tsv", "LINKS.json.gz", "README.md", WORKLOAD_NAME})
_GENERATED_URLS_PER_FILE = 200  # as many as the shared workload holds per file
_GENERATED_HOST = "https://example.com"
_FIXED_PATHS = (
    "/",
    "/index.html",
    "/robots.txt",
    "/search?q=robots&page=2",
    "/a/b/c/d.html",
    "/%7Euser/caf%C3%A9",
    "/caf\u00e9/\u4e2d\u6587",
    "//double//slash",
    "/path$with*chars",
)
_KNOWN_AGENT = "Googlebot"
_UNKNOWN_AGENT = "ZyxUnknownCrawler/3.1"
_RULE_LINE = re.compile(
    rb"^[ \t]*(?:dis)?allow[ \t]*:[ \t]*([^#\s]+)", re.IGNORECASE | re.MULTILINE
)
_AGENT_LINE = re.compile(
    rb"^[ \t]*user-agent[ \t]*:[ \t]*([^#\s*][^#\r\n]*)", re.IGNORECASE | re.MULTILINE
)


@dataclass(frozen=True, slots=True)
class Job:
    """The checks of one file: every URL for every agent."""

    file: str
    agents: tuple[str, ...]
    urls: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Corpus:
    """Raw file bodies by name, and the check workload over them."""

    root: Path
    files: dict[str, bytes]
    jobs: tuple[Job, ...]
    generated: bool  # True when the workload was built here, not read from workload.json.gz

    @property
    def total_bytes(self) -> int:
        return sum(len(body) for body in self.files.values())

    @property
    def total_checks(self) -> int:
        return sum(len(job.agents) * len(job.urls) for job in self.jobs)

    def subset(self, url_stride: int) -> Corpus:
        """Return the same corpus with every `url_stride`-th URL of each file (for --quick)."""
        if url_stride <= 1:
            return self
        jobs = tuple(Job(job.file, job.agents, job.urls[::url_stride]) for job in self.jobs)
        return Corpus(self.root, self.files, jobs, self.generated)


def _robots_dir(folder: Path) -> Path:
    inner = folder / "robots"
    return inner if inner.is_dir() else folder


def _read_files(directory: Path) -> dict[str, bytes]:
    paths = sorted(p for p in directory.iterdir() if p.is_file() and p.name not in _NOT_ROBOTS)
    txt = [p for p in paths if p.suffix == ".txt"]
    return {p.name: p.read_bytes() for p in (txt or paths)}


def _generated_job(name: str, body: bytes) -> Job:
    """Build URLs from the file's own patterns (wildcards filled, anchors dropped) and agents."""
    urls: dict[str, None] = {}
    for path in _FIXED_PATHS:
        urls.setdefault(_GENERATED_HOST + path)
    for match in _RULE_LINE.finditer(body):
        pattern = match.group(1).decode("utf-8", "replace")
        if not pattern.startswith(("/", "*")):
            continue
        path = pattern.rstrip("$").replace("*", "x")
        path = path if path.startswith("/") else "/" + path
        urls.setdefault(_GENERATED_HOST + path)
        urls.setdefault(_GENERATED_HOST + path + "more/page.html")
        if len(urls) >= _GENERATED_URLS_PER_FILE:
            break
    agents = [_KNOWN_AGENT, _UNKNOWN_AGENT]
    named = _AGENT_LINE.search(body)
    if named is not None:
        value = named.group(1).decode("utf-8", "replace").strip()
        if value and value.lower() != _KNOWN_AGENT.lower():
            agents.insert(0, value)
    return Job(name, tuple(agents), tuple(urls)[:_GENERATED_URLS_PER_FILE])


def load_corpus(folder: Path) -> Corpus:
    """Read every robots.txt body under `folder` and its workload (or generate one)."""
    files = _read_files(_robots_dir(folder))
    workload = folder / WORKLOAD_NAME
    if workload.is_file():
        with gzip.open(workload, "rt", encoding="utf-8") as stream:
            data = json.load(stream)
        jobs = tuple(
            Job(entry["file"], tuple(entry["agents"]), tuple(entry["urls"]))
            for entry in data["files"]
            if entry["file"] in files
        )
        return Corpus(folder, files, jobs, generated=False)
    jobs = tuple(_generated_job(name, body) for name, body in files.items())
    return Corpus(folder, files, jobs, generated=True)
