"""The parser over the 477 real robots.txt files of the shared benchmark corpus (D1, D17, D18).

Categories: never raises; explain agrees with can_fetch on each file's workload URLs; lint,
crawl-delay, request-rate and sitemaps answer. Skipped only when the corpus is absent.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from robotsclient import parse

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "bench-corpus"
pytestmark = pytest.mark.skipif(not (CORPUS / "robots").is_dir(), reason=f"no corpus at {CORPUS}")


def test_every_corpus_file_parses_and_answers() -> None:
    workload = json.loads(gzip.decompress((CORPUS / "workload.json.gz").read_bytes()))
    jobs = {job["file"]: job for job in workload["files"]}
    files = sorted((CORPUS / "robots").glob("*.txt"))
    assert len(files) >= 400
    for path in files:
        robots = parse(path.read_bytes())
        job = jobs.get(path.name, {"agents": ["bot"], "urls": ["https://example.com/"]})
        for agent in job["agents"]:
            robots.crawl_delay(agent)
            robots.request_rate(agent)
            for url in job["urls"][::20]:
                assert robots.explain(url, agent).allowed is robots.can_fetch(url, agent), (
                    path.name,
                    url,
                )
        robots.lint()
        assert all(isinstance(sitemap, str) for sitemap in robots.sitemaps)
