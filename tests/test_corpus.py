"""The parser over real files: every robots.txt of the shared bench corpus parses and answers.

Categories:
- Never raises (D1, D17): parse (default and strict), can_fetch, explain, lint, crawl_delay,
  request_rate and sitemaps on each file, with the corpus workload's URLs and agents.
- Consistency (D18): explain agrees with can_fetch and with its own deciding rule; /robots.txt
  is always allowed (D5); size and truncation follow the 512,000-byte limit (D1).

The corpus lives outside the repository (../shared/bench-corpus, or $ROBOTS_CORPUS); without
it these tests are skipped with a reason.
"""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest

from robotsclient import RuleKind, parse

CORPUS = Path(
    os.environ.get("ROBOTS_CORPUS", Path(__file__).resolve().parents[2] / "shared/bench-corpus")
)
MAX_BYTES = 512_000  # D1
URLS_PER_FILE = 12
DEFAULT_AGENTS = ["Googlebot", "ZyxUnknownCrawler/3.1", "Mozilla/5.0 (compatible; bingbot/2.0)"]
DEFAULT_URLS = ["/", "/index.html", "/search?q=x", "/%E4%B8%AD/$/*", "https://example.com/a#b"]


def load_workload() -> dict[str, tuple[list[str], list[str]]]:
    """Return {file name: (agents, urls)} from the corpus workload, or {} without one."""
    path = CORPUS / "workload.json.gz"
    if not path.is_file():
        return {}
    with gzip.open(path, "rt", encoding="utf-8") as stream:
        data = json.load(stream)
    return {
        entry["file"]: (list(entry["agents"]), list(entry["urls"][:URLS_PER_FILE]))
        for entry in data["files"]
    }


FILES = sorted((CORPUS / "robots").glob("*.txt"))
WORKLOAD = load_workload() if FILES else {}
PARAMS = [pytest.param(path, id=path.name) for path in FILES] or [
    pytest.param(None, marks=pytest.mark.skip(reason=f"no corpus at {CORPUS}/robots"))
]


@pytest.mark.parametrize("path", PARAMS)
def test_corpus_file_parses_and_answers(path: Path) -> None:
    """D1/D17/D18: a real file parses without raising and every query answers consistently."""
    body = path.read_bytes()
    robots = parse(body)
    assert robots.truncated is (len(body) > MAX_BYTES)
    assert robots.size <= min(len(body), MAX_BYTES)
    agents, urls = WORKLOAD.get(path.name, (DEFAULT_AGENTS, []))
    for agent in agents:
        for url in [*urls, *DEFAULT_URLS]:
            verdict = robots.explain(url, agent)
            assert verdict.allowed is robots.can_fetch(url, agent), (url, agent)
            if verdict.rule is not None:
                assert verdict.allowed is (verdict.rule.kind is RuleKind.ALLOW)
        assert robots.can_fetch("/robots.txt", agent) is True
        delay = robots.crawl_delay(agent)
        assert delay is None or delay >= 0
        robots.request_rate(agent)
    assert all(isinstance(sitemap, str) for sitemap in robots.sitemaps)
    assert len(robots.sitemaps) == len(set(robots.sitemaps))
    assert all(finding.line >= 0 for finding in robots.lint())
    assert isinstance(parse(body, strict=True).lint(), list)
