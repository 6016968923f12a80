"""Every script in examples/ runs as it is, against the local HTTP server (or a real Redis).

Categories: quickstart, check_urls (file and stdin), crawler (robots.txt and crawl-delay
obeyed), fleet_cache (file and Redis), scrapy_settings (loads the adapter).
"""

from __future__ import annotations

import asyncio
import json
import runpy
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tests.servers import respond

if TYPE_CHECKING:
    from tests.servers import LocalServer

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
ROBOTS = "User-agent: *\nDisallow: /private/\nCrawl-delay: 0.2\n"
PAGE = '<html><a href="/a">a</a> <a href="/private/secret">s</a> <a href="/b">b</a></html>'


async def run_example(name: str, *args: str, stdin: str | None = None) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(EXAMPLES / name),
        *args,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(
        process.communicate(stdin.encode() if stdin else None), timeout=120
    )
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


def serve_site(server: LocalServer) -> str:
    server.route(respond(200, ROBOTS), path="/robots.txt")
    for path in ("/", "/a", "/b", "/private/secret"):
        server.route(respond(200, PAGE, headers={"content-type": "text/html"}), path=path)
    return server.url("")


async def test_quickstart(local_server: LocalServer) -> None:
    base = serve_site(local_server)
    code, out, err = await run_example("quickstart.py", f"{base}/a", f"{base}/private/x")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("True ")
    assert lines[1].startswith("False ")


async def test_check_urls_from_stdin(local_server: LocalServer) -> None:
    base = serve_site(local_server)
    code, out, err = await run_example("check_urls.py", "-", stdin=f"{base}/a\n{base}/private/x\n")
    assert code == 1
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["allowed"] for r in records] == [True, False]
    assert "2 checked, 1 disallowed" in err


async def test_check_urls_from_a_file(local_server: LocalServer, tmp_path: Path) -> None:
    base = serve_site(local_server)
    urls = tmp_path / "urls.txt"
    urls.write_text(f"# urls\n{base}/a\n{base}/b\n")
    code, _, err = await run_example("check_urls.py", str(urls))
    assert code == 0, err


async def test_crawler_obeys_robots_txt(local_server: LocalServer) -> None:
    """The crawler never requests a disallowed page and still crawls the rest."""
    base = serve_site(local_server)
    code, out, err = await run_example("crawler.py", f"{base}/", "--pages", "5")
    assert code == 0, err
    assert "skipped" in out
    assert "/private/secret" in out
    fetched = {path for (_, path), _ in local_server.hits.items()}
    assert {"/robots.txt", "/", "/a", "/b"} <= fetched
    assert "/private/secret" not in fetched


async def test_fleet_cache_with_a_directory(local_server: LocalServer, tmp_path: Path) -> None:
    base = serve_site(local_server)
    code, out, err = await run_example("fleet_cache.py", "--directory", str(tmp_path), f"{base}/a")
    assert code == 0, err
    assert out.startswith("True ")
    assert list(tmp_path.glob("*.robots"))


async def test_fleet_cache_with_redis(local_server: LocalServer, redis_url: str) -> None:
    base = serve_site(local_server)
    for _ in range(2):
        code, out, err = await run_example(
            "fleet_cache.py", "--redis", redis_url, f"{base}/private/x"
        )
        assert code == 0, err
        assert out.startswith("False ")
    assert local_server.hits[("127.0.0.1", "/robots.txt")] == 1  # the second run used Redis


def test_scrapy_settings_load_the_adapter() -> None:
    from robotsclient.scrapy import RobotsClientParser

    settings = runpy.run_path(str(EXAMPLES / "scrapy_settings.py"))
    assert settings["ROBOTSTXT_OBEY"] is True
    module, _, name = settings["ROBOTSTXT_PARSER"].rpartition(".")
    assert getattr(__import__(module, fromlist=[name]), name) is RobotsClientParser
