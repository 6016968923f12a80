"""Scrapy adapter: Scrapy's parser interface, and a real crawl obeying robots.txt through it.

Categories: interface (from_crawler, allowed, crawl_delay; bytes in, bad input), a real
`scrapy runspider` subprocess against a local HTTP server (D4: ROBOTSTXT_USER_AGENT picks the
group).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest

from robotsclient.scrapy import RobotsClientParser

scrapy = pytest.importorskip(
    "scrapy", reason="Scrapy is an optional extra: pip install -e '.[scrapy]'"
)

ROBOTS = b"""User-agent: *
Disallow: /private/
Crawl-delay: 0

User-agent: ExampleBot
Disallow: /drafts/
"""


class _Crawler:
    spider = None


def test_from_crawler_and_allowed_follow_the_groups() -> None:
    """D4: the agent's product token picks its group; a named group does not inherit `*`."""
    parser = RobotsClientParser.from_crawler(_Crawler(), ROBOTS)
    assert parser.allowed("https://example.com/private/x", "OtherBot/2.0") is False
    assert parser.allowed("https://example.com/private/x", "ExampleBot") is True
    assert parser.allowed(b"https://example.com/drafts/1", b"ExampleBot/1.0") is False
    assert parser.crawl_delay("OtherBot") == 0.0
    assert parser.crawl_delay("ExampleBot") is None


def test_odd_input_never_raises() -> None:
    """D1/D17: binary junk parses; non-http URLs and token-less agents get an answer."""
    parser = RobotsClientParser.from_crawler(None, b"\xff\xfe<html>\x00 junk\nDisallow: /")
    assert parser.allowed("data:text/plain,hello", "ExampleBot") is True
    assert parser.allowed("https://example.com/", "(compatible)") is True
    assert parser.allowed("https://example.com/", "") is True


class _Site(BaseHTTPRequestHandler):
    seen: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.seen.append(self.path)
        if self.path == "/robots.txt":
            body = ROBOTS
        else:
            links = "".join(
                f'<a href="{p}">{p}</a>' for p in ("/public/a", "/private/b", "/drafts/c")
            )
            body = f"<html><body>{links}</body></html>".encode()
        self.send_response(200)
        self.send_header(
            "Content-Type", "text/plain" if self.path == "/robots.txt" else "text/html"
        )
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        return None


@pytest.fixture
def site():
    _Site.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.mark.slow
def test_real_scrapy_crawl_obeys_robots_txt(site: str, tmp_path) -> None:
    """A real Scrapy crawl with ROBOTSTXT_PARSER set to the adapter skips disallowed pages."""
    spider = tmp_path / "spider.py"
    spider.write_text(
        textwrap.dedent(
            f"""
            import scrapy

            class Links(scrapy.Spider):
                name = "links"
                start_urls = ["{site}/"]

                def parse(self, response):
                    for href in response.css("a::attr(href)").getall():
                        yield response.follow(href, self.parse_page)

                def parse_page(self, response):
                    yield {{"url": response.url}}
            """
        )
    )
    settings = {
        "ROBOTSTXT_OBEY": "True",
        "ROBOTSTXT_PARSER": "robotsclient.scrapy.RobotsClientParser",
        "ROBOTSTXT_USER_AGENT": "OtherBot",
        "LOG_LEVEL": "ERROR",
        "TELNETCONSOLE_ENABLED": "False",
        "REQUEST_FINGERPRINTER_IMPLEMENTATION": "2.7",
    }
    command = [sys.executable, "-m", "scrapy", "runspider", str(spider)]
    for key, value in settings.items():
        command += ["-s", f"{key}={value}"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "/robots.txt" in _Site.seen
    assert "/public/a" in _Site.seen
    assert "/drafts/c" in _Site.seen  # OtherBot follows `*`, which does not list /drafts/
    assert "/private/b" not in _Site.seen
