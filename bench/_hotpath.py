"""The async client's hot path: `await client.can_fetch(url)` on a cached, fresh origin.

Issue 4 asks that it cost within 2x of the bare parser's `can_fetch` on the same URL. The cache
is primed through an `httpx.MockTransport`-backed client passed as `http_client`: no network.
"""

from __future__ import annotations

import asyncio
import gc
import time
from dataclasses import dataclass
from typing import Any

__all__ = ["HotPathResult", "measure_hot_path"]

_AGENT = "Googlebot/2.1 (+http://www.google.com/bot.html)"
_MAX_AGE = "max-age=86400"  # fresh for the whole run


@dataclass(frozen=True, slots=True)
class HotPathResult:
    """Seconds per check for the client and the bare parser, or why it was skipped."""

    status: str  # ok / skipped / error
    client_per_check: float | None = None
    parser_per_check: float | None = None
    checks: int = 0
    detail: str = ""
    agree: bool | None = None

    @property
    def ratio(self) -> float | None:
        if self.client_per_check is None or not self.parser_per_check:
            return None
        return self.client_per_check / self.parser_per_check


async def _client_loop(client: Any, urls: list[str], repeats: int) -> tuple[float, list[bool]]:
    can_fetch = client.can_fetch
    answers = [bool(await can_fetch(url)) for url in urls]  # the warm-up pass fills the cache
    gc.collect()
    gc.disable()
    try:
        started = time.perf_counter()
        for _ in range(repeats):
            for url in urls:
                await can_fetch(url)
        return time.perf_counter() - started, answers
    finally:
        gc.enable()


def _parser_loop(robots: Any, urls: list[str], repeats: int) -> tuple[float, list[bool]]:
    can_fetch = robots.can_fetch
    answers = [bool(can_fetch(url, _AGENT)) for url in urls]
    gc.collect()
    gc.disable()
    try:
        started = time.perf_counter()
        for _ in range(repeats):
            for url in urls:
                can_fetch(url, _AGENT)
        return time.perf_counter() - started, answers
    finally:
        gc.enable()


async def _measure(body: bytes, urls: list[str], repeats: int, rounds: int) -> HotPathResult:
    import httpx

    from robotsclient import RobotsClient, parse  # type: ignore[attr-defined,unused-ignore]

    requests: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(str(request.url))
        return httpx.Response(200, content=body, headers={"cache-control": _MAX_AGE})

    robots = parse(body)
    best_client = best_parser = float("inf")
    client_answers: list[bool] = []
    parser_answers: list[bool] = []
    async with (
        httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http,
        RobotsClient(user_agent=_AGENT, http_client=http) as client,
    ):
        for _ in range(rounds):  # interleaved rounds, best of each
            spent, client_answers = await _client_loop(client, urls, repeats)
            best_client = min(best_client, spent)
            spent, parser_answers = _parser_loop(robots, urls, repeats)
            best_parser = min(best_parser, spent)
    count = len(urls) * repeats
    return HotPathResult(
        "ok",
        best_client / count,
        best_parser / count,
        count,
        detail=f"{len(requests)} robots.txt request(s) for {count * rounds} checks",
        agree=client_answers == parser_answers,
    )


def measure_hot_path(body: bytes, urls: list[str], repeats: int, rounds: int) -> HotPathResult:
    """Time the client's cached check against the bare parser; skipped if the client is absent."""
    try:
        import httpx  # noqa: F401

        from robotsclient import RobotsClient  # type: ignore[attr-defined,unused-ignore]  # noqa: F401
    except ImportError as error:
        return HotPathResult("skipped", detail=f"RobotsClient not importable yet ({error})")
    try:
        return asyncio.run(_measure(body, urls, repeats, rounds))
    except Exception as error:  # the client is young: report, do not crash the benchmark
        return HotPathResult("error", detail=f"{type(error).__name__}: {error}")
