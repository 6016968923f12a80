"""The command line against a real local HTTP server (the CLI runs in a subprocess).

Categories: check over the network (outcome per status, exit codes, many URLs concurrently,
one fetch per origin), explain (outcome, status, redirect chain, rule in context), fetch
(record fields, --json), lint URL.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import TYPE_CHECKING

from tests.servers import redirect, respond

if TYPE_CHECKING:
    from tests.servers import LocalServer

ROBOTS = (
    "User-agent: *\nDisallow: /private/\nCrawl-delay: 3\nSitemap: https://example.com/sitemap.xml\n"
)


async def cli(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "robotsclient",
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


async def test_check_over_the_network(local_server: LocalServer) -> None:
    """D11: 2xx conditional; the exit status says whether anything was disallowed."""
    local_server.route(
        respond(200, ROBOTS, headers={"content-type": "text/plain"}), path="/robots.txt"
    )
    base = local_server.url("")
    code, out, _ = await cli("check", "--json", f"{base}/public", f"{base}/private/x")
    assert code == 1
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["allowed"] for r in records] == [True, False]
    assert records[1]["outcome"] == "conditional"
    assert records[1]["status"] == 200
    assert records[1]["rule"] == {"kind": "disallow", "pattern": "/private/", "line": 2}


async def test_check_many_urls_from_stdin_fetches_once(local_server: LocalServer) -> None:
    """D15: hundreds of URLs of one origin from standard input cost one robots.txt request."""
    local_server.route(respond(200, ROBOTS), path="/robots.txt")
    base = local_server.url("")
    urls = "".join(f"{base}/page/{i}\n" for i in range(300))
    code, out, _ = await cli("check", "-", stdin=urls)
    assert code == 0
    assert len(out.splitlines()) == 300
    assert (
        sum(count for (_, path), count in local_server.hits.items() if path == "/robots.txt") == 1
    )


async def test_server_error_is_full_disallow(local_server: LocalServer) -> None:
    """D11: 5xx means full disallow; /robots.txt itself stays allowed (D5)."""
    local_server.route(respond(503, "down"), path="/robots.txt")
    base = local_server.url("")
    code, out, _ = await cli("check", "--json", f"{base}/anything")
    assert code == 1
    record = json.loads(out)
    assert record["outcome"] == "full_disallow"
    assert record["status"] == 503


async def test_not_found_is_full_allow(local_server: LocalServer) -> None:
    local_server.route(respond(404, "nope"), path="/robots.txt")
    code, out, _ = await cli("check", "--json", local_server.url("/anything"))
    assert code == 0
    assert json.loads(out)["outcome"] == "full_allow"


async def test_explain_shows_chain_and_rule(local_server: LocalServer) -> None:
    """D18: the whole decision: outcome, status, redirect chain, rule and its line."""
    local_server.route(redirect("/real-robots.txt"), path="/robots.txt")
    local_server.route(respond(200, ROBOTS), path="/real-robots.txt")
    code, out, _ = await cli("explain", local_server.url("/private/x"))
    assert code == 0
    assert "conditional" in out
    assert "real-robots.txt" in out
    assert "Disallow: /private/" in out
    assert "line 2" in out or "2 | Disallow" in out


async def test_fetch_shows_the_record(local_server: LocalServer) -> None:
    local_server.route(
        respond(200, ROBOTS, headers={"cache-control": "max-age=60"}), path="/robots.txt"
    )
    code, out, _ = await cli("fetch", "--json", local_server.url("/"))
    assert code == 0
    record = json.loads(out)
    assert record["outcome"] == "conditional"
    assert record["status"] == 200
    assert record["sitemaps"] == ["https://example.com/sitemap.xml"]
    assert record["crawl_delay"] == 3.0
    assert record["size"] == len(ROBOTS)
    assert record["headers"]["cache-control"] == "max-age=60"


async def test_lint_a_url(local_server: LocalServer) -> None:
    local_server.route(respond(200, "User-agent: *\nDisalow: /x\n<html>\n"), path="/robots.txt")
    code, out, _ = await cli("lint", local_server.url("/"))
    assert code == 1
    assert ":2: warning:" in out
    assert ":3: error:" in out
