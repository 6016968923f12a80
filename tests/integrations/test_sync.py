"""SyncRobotsClient: the async client driven from plain synchronous code (no second copy).

Categories: answers and explanations, crawl-delay and sitemaps, one fetch per origin, close
twice, use after close.
"""

from __future__ import annotations

import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest

from robotsclient import InvalidURL, Outcome, SyncRobotsClient

ROBOTS = b"User-agent: *\nDisallow: /private/\nCrawl-delay: 2\nSitemap: https://example.com/s.xml\n"


class _Site(BaseHTTPRequestHandler):
    hits: ClassVar[Counter[str]] = Counter()

    def do_GET(self) -> None:
        self.hits[self.path] += 1
        body = ROBOTS if self.path == "/robots.txt" else b"page"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        return None


@pytest.fixture
def site():
    _Site.hits = Counter()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_sync_client_answers_like_the_async_one(site: str) -> None:
    with SyncRobotsClient("ExampleBot/1.0") as robots:
        assert robots.can_fetch(f"{site}/public") is True
        decision = robots.check(f"{site}/private/x")
        assert decision.allowed is False
        assert decision.outcome is Outcome.CONDITIONAL
        assert "Disallow: /private/" in decision.explain()
        assert robots.crawl_delay(f"{site}/") == 2.0
        assert robots.sitemaps(f"{site}/") == ["https://example.com/s.xml"]
        assert robots.robots(f"{site}/").status == 200
        with pytest.raises(InvalidURL):
            robots.can_fetch("ftp://example.com/x")
    assert _Site.hits["/robots.txt"] == 1


def test_close_twice_and_use_after_close(site: str) -> None:
    robots = SyncRobotsClient("ExampleBot/1.0")
    robots.close()
    robots.close()
    with pytest.raises(RuntimeError):
        robots.can_fetch(f"{site}/")
