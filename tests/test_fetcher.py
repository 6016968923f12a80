"""Fetching robots.txt (DECISIONS D11, D12; Google spec "Handling HTTP result codes").

Categories:
- request: a plain GET with the caller's user agent, our Accept-Encoding, extra headers (respx)
- status table: every class mapped to its outcome, status and headers recorded (respx)
- redirects: by hand, at most 5, any host, Location forms, loops, unusable Location (respx)
- content codings: gzip, x-gzip, deflate (zlib and raw), br, identity, unknown, stacked,
  split at every byte, corrupt or cut streams (respx)
- limits: the 512,000-byte cap after decompression; bombs cost a few MiB; 10 MiB and endless
  bodies stop the download early (local server, byte level)
- network errors: refused, resets, hang-ups, short bodies, bad chunking, malformed heads, TLS,
  drips and stalls bounded by the deadlines, classification of every httpx failure
- records, arguments and cancellation: fetched_at from the clock, chain, bad input, cancel
- many origins: Host-routed origins through LoopbackTransport, each its own body
"""

from __future__ import annotations

import asyncio
import gzip
import itertools
import math
import socket
import ssl
import tracemalloc
import zlib
from typing import TYPE_CHECKING, Any

import httpx
import pytest
import respx

from robotsclient._exceptions import InvalidArgument, InvalidUserAgent
from robotsclient._fetcher import ACCEPT_ENCODING, FetchLimits, fetch_robots
from robotsclient._origin import Origin, origin_of
from robotsclient._outcome import FetchResult, Outcome, outcome_of
from tests.servers import (
    HANGUP,
    RESET,
    Connection,
    LocalServer,
    Request,
    Validators,
    WaitFor,
    big_body,
    conditional,
    delayed,
    drip,
    dynamic,
    endless_chunked,
    gzip_bomb,
    redirect,
    respond,
    script,
)

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable

    from tests.servers import Handler

UA = "ExampleBot/1.0 (+https://example.com/bot)"
SITE = origin_of("http://site.test/")
ROBOTS = SITE.robots_url
TEXT = b"User-agent: *\nDisallow: /private/\n"
LIMIT = 512_000  # D12
MIB = 1024 * 1024
GUARD = 10.0  # seconds: a hung fetch fails the test instead of hanging it (a bound, not a timing)
FAST_DEADLINE = FetchLimits(total_timeout=0.5)  # read/connect stay at 10 s: only the total bites
H200 = b"HTTP/1.1 200 OK\r\n"

try:
    import brotli

    BROTLI_BOUNDED = hasattr(brotli.Decompressor, "can_accept_more_data")
except ImportError:  # pragma: no cover - depends on the environment
    BROTLI_BOUNDED = False
needs_brotli = pytest.mark.skipif(not BROTLI_BOUNDED, reason="brotli >= 1.2 is not installed")


@pytest.fixture
def router() -> respx.MockRouter:
    return respx.MockRouter(assert_all_called=False)


@pytest.fixture
async def mock_client(router: respx.MockRouter) -> AsyncIterator[httpx.AsyncClient]:
    """An AsyncClient whose transport is the respx router: no network at all."""
    async with httpx.AsyncClient(transport=httpx.MockTransport(router.async_handler)) as client:
        yield client


async def fetch(client: httpx.AsyncClient, origin: Origin = SITE, **options: object) -> FetchResult:
    return await asyncio.wait_for(
        fetch_robots(origin, client=client, user_agent=UA, **options),  # type: ignore[arg-type]
        GUARD,
    )


def kind(result: FetchResult) -> str:
    assert result.error is not None
    return result.error.partition(":")[0]


class Pieces(httpx.AsyncByteStream):
    """A response body delivered in pieces of `size` bytes, as a network would."""

    def __init__(self, data: bytes, size: int) -> None:
        self._data = data
        self._size = size

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for start in range(0, len(self._data), self._size):
            yield self._data[start : start + self._size]


def as_bytes(text: str | bytes) -> bytes:
    return text if isinstance(text, bytes) else text.encode()


def deflate(data: bytes, wbits: int = zlib.MAX_WBITS) -> bytes:
    compressor = zlib.compressobj(6, zlib.DEFLATED, wbits)
    return compressor.compress(data) + compressor.flush()


def assert_network_error(result: FetchResult, expected_kind: str) -> None:
    """D11: a network error has no status, no body, and means full disallow."""
    assert result.status is None
    assert result.body == b""
    assert kind(result) == expected_kind, result.error
    assert outcome_of(result) is Outcome.FULL_DISALLOW


# --- request (D11: a plain, unconditional GET with the caller's user agent) ----------------------


async def test_d11_plain_get_with_callers_user_agent(
    router: respx.MockRouter, mock_client: httpx.AsyncClient
) -> None:
    """D11: GET /robots.txt with the caller's User-Agent and nothing conditional."""
    route = router.get(ROBOTS).mock(return_value=httpx.Response(200, content=TEXT))
    result = await fetch(mock_client)
    assert result.status == 200
    request = route.calls.last.request
    assert request.method == "GET"
    assert str(request.url) == "http://site.test/robots.txt"
    assert request.headers.get_list("user-agent") == [UA]
    assert request.headers["accept-encoding"] == ACCEPT_ENCODING
    for name in ("if-none-match", "if-modified-since", "authorization"):
        assert name not in request.headers


async def test_d11_client_defaults_cookies_and_auth_not_sent(router: respx.MockRouter) -> None:
    """D11: a plain GET: the client's default headers, cookies and auth stay home (they must
    not follow a redirect to another host), and our Accept-Encoding is one we can decode."""
    router.get(ROBOTS).mock(return_value=httpx.Response(301, headers={"location": "//x.test/"}))
    route = router.get("http://x.test/").mock(return_value=httpx.Response(200, content=TEXT))
    defaults = {"User-Agent": "python-httpx", "Accept-Encoding": "zstd", "Authorization": "t"}
    transport = httpx.MockTransport(router.async_handler)
    async with httpx.AsyncClient(
        transport=transport, headers=defaults, cookies={"session": "s"}, auth=("user", "pw")
    ) as client:
        result = await fetch(client)
    assert result.status == 200
    for call in router.calls:
        headers = call.request.headers
        assert headers.get_list("user-agent") == [UA]
        assert headers.get_list("accept-encoding") == [ACCEPT_ENCODING]
        assert "authorization" not in headers
        assert "cookie" not in headers
    assert route.calls.last.request.headers["host"] == "x.test"


async def test_client_mounts_are_used(router: respx.MockRouter) -> None:
    """D11/D12: the caller's client decides how to reach a host (mounts, proxies, pool)."""
    route = router.get(ROBOTS).mock(return_value=httpx.Response(200, content=TEXT))
    mounts = {"http://site.test": httpx.MockTransport(router.async_handler)}
    async with httpx.AsyncClient(mounts=mounts) as client:
        result = await fetch(client)
    assert (result.status, route.call_count) == (200, 1)


async def test_d17_closed_client_raises(router: respx.MockRouter) -> None:
    """D17: a closed client is caller error, not a network failure that would deny everything."""
    client = httpx.AsyncClient(transport=httpx.MockTransport(router.async_handler))
    await client.aclose()
    with pytest.raises(InvalidArgument, match="closed"):
        await fetch(client)


def test_d12_accept_encoding_offers_only_what_we_decode_with_a_bound() -> None:
    """D12: gzip and deflate always; br only when brotli can bound its output (>= 1.2)."""
    offered = [coding.strip() for coding in ACCEPT_ENCODING.split(",")]
    assert offered[:2] == ["gzip", "deflate"]
    assert ("br" in offered) is BROTLI_BOUNDED
    assert "zstd" not in offered


async def test_extra_headers_are_sent_on_every_hop(
    router: respx.MockRouter, mock_client: httpx.AsyncClient
) -> None:
    """D11 + issue 7 revalidation hook: extra headers (If-None-Match) go with each request."""
    router.get(ROBOTS).mock(return_value=httpx.Response(301, headers={"location": "/r2"}))
    final = router.get("http://site.test/r2").mock(return_value=httpx.Response(304))
    result = await fetch(mock_client, extra_headers={"If-None-Match": '"v1"'})
    assert [call.request.headers.get("if-none-match") for call in router.calls] == ['"v1"'] * 2
    assert final.called
    assert result.status == 304
    assert result.error is None


# --- status table (D11, Google spec "Handling HTTP result codes") --------------------------------


@pytest.mark.parametrize(
    ("status", "outcome"),
    [
        pytest.param(200, Outcome.CONDITIONAL, id="200"),
        pytest.param(203, Outcome.CONDITIONAL, id="203"),
        pytest.param(204, Outcome.CONDITIONAL, id="204-empty"),
        pytest.param(206, Outcome.CONDITIONAL, id="206"),
        pytest.param(300, Outcome.FULL_ALLOW, id="300-no-location"),
        pytest.param(301, Outcome.FULL_ALLOW, id="301-no-location"),
        pytest.param(302, Outcome.FULL_ALLOW, id="302-no-location"),
        pytest.param(303, Outcome.FULL_ALLOW, id="303-no-location"),
        pytest.param(307, Outcome.FULL_ALLOW, id="307-no-location"),
        pytest.param(308, Outcome.FULL_ALLOW, id="308-no-location"),
        pytest.param(400, Outcome.FULL_ALLOW, id="400"),
        pytest.param(401, Outcome.FULL_ALLOW, id="401"),
        pytest.param(403, Outcome.FULL_ALLOW, id="403"),
        pytest.param(404, Outcome.FULL_ALLOW, id="404"),
        pytest.param(410, Outcome.FULL_ALLOW, id="410"),
        pytest.param(429, Outcome.FULL_DISALLOW, id="429"),
        pytest.param(500, Outcome.FULL_DISALLOW, id="500"),
        pytest.param(502, Outcome.FULL_DISALLOW, id="502"),
        pytest.param(503, Outcome.FULL_DISALLOW, id="503"),
        pytest.param(599, Outcome.FULL_DISALLOW, id="599"),
    ],
)
async def test_d11_status_table(
    router: respx.MockRouter, mock_client: httpx.AsyncClient, status: int, outcome: Outcome
) -> None:
    """D11 / Google spec "Handling HTTP result codes": 2xx conditional; 3xx without Location and
    4xx (401/403 too) allow; 429 and 5xx deny."""
    body = b"" if status == 204 else TEXT
    route = router.get(ROBOTS).mock(return_value=httpx.Response(status, content=body))
    result = await fetch(mock_client)
    assert route.call_count == 1
    assert result.status == status
    assert outcome_of(result) is outcome
    assert result.body == (body if 200 <= status < 300 else b"")  # only a 2xx body is read
    assert result.chain == (ROBOTS,)
    assert result.url == ROBOTS


async def test_d11_headers_recorded_lower_cased_in_order(
    router: respx.MockRouter, mock_client: httpx.AsyncClient
) -> None:
    """D11/D13/D14: the final headers are kept (names lower-cased, repeats in order)."""
    headers = [
        ("Cache-Control", "max-age=60"),
        ("ETag", '"abc"'),
        ("X-Repeat", "1"),
        ("x-repeat", "2"),
        ("Last-Modified", "Sat, 01 Jan 2022 00:00:00 GMT"),
    ]
    router.get(ROBOTS).mock(return_value=httpx.Response(200, content=TEXT, headers=headers))
    result = await fetch(mock_client)
    got = [pair for pair in result.headers if pair[0] not in ("content-length",)]
    assert got == [(name.lower(), value) for name, value in headers]
    assert result.header("CACHE-CONTROL") == "max-age=60"


async def test_d14_retry_after_kept_on_503(
    router: respx.MockRouter, mock_client: httpx.AsyncClient
) -> None:
    """D14: a 503's Retry-After must reach the cache, so error statuses keep their headers."""
    response = httpx.Response(503, headers={"Retry-After": "120"}, content=b"busy")
    router.get(ROBOTS).mock(return_value=response)
    result = await fetch(mock_client)
    assert (result.status, result.header("retry-after")) == (503, "120")


# --- redirects (D11: by hand, at most 5, any host) -----------------------------------------------


@pytest.mark.parametrize(
    ("location", "target"),
    [
        pytest.param("http://site.test/other.txt", "http://site.test/other.txt", id="absolute"),
        pytest.param("https://else.test/robots.txt", "https://else.test/robots.txt", id="host"),
        pytest.param("//cdn.test/r.txt", "http://cdn.test/r.txt", id="scheme-relative"),
        pytest.param("/new/robots.txt", "http://site.test/new/robots.txt", id="absolute-path"),
        pytest.param("moved.txt", "http://site.test/moved.txt", id="relative-path"),
        pytest.param("./x/../robots2.txt", "http://site.test/robots2.txt", id="dot-segments"),
        pytest.param("?v=2", "http://site.test/robots.txt?v=2", id="query-only"),
        pytest.param("/r.txt#top", "http://site.test/r.txt", id="fragment-dropped"),
        pytest.param("/caf%C3%A9.txt", "http://site.test/caf%C3%A9.txt", id="escaped"),
        pytest.param("/café.txt".encode(), "http://site.test/caf%C3%A9.txt", id="raw-utf8"),
    ],
)
async def test_d11_location_forms_resolved(
    router: respx.MockRouter, mock_client: httpx.AsyncClient, location: str | bytes, target: str
) -> None:
    """D11: relative Location resolved against the current URL (RFC 3986 §5.2), any host."""
    router.get(target).mock(return_value=httpx.Response(200, content=TEXT))  # first: it has a query
    response = httpx.Response(301, headers=[(b"location", as_bytes(location))])
    router.get(ROBOTS).mock(return_value=response)
    result = await fetch(mock_client)
    assert result.chain == (ROBOTS, target)
    assert (result.status, result.body, result.error) == (200, TEXT, None)
    assert result.url == ROBOTS  # the rules found apply to the original origin (D11)


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
async def test_d11_every_redirect_status_followed_with_get(
    router: respx.MockRouter, mock_client: httpx.AsyncClient, status: int
) -> None:
    """D11: each redirect status is followed, and every hop is a plain GET (303 included)."""
    router.get(ROBOTS).mock(return_value=httpx.Response(status, headers={"location": "/b"}))
    router.get("http://site.test/b").mock(return_value=httpx.Response(200, content=TEXT))
    result = await fetch(mock_client)
    assert result.status == 200
    assert [call.request.method for call in router.calls] == ["GET", "GET"]


def hops(router: respx.MockRouter, count: int) -> list[str]:
    """Route /robots.txt -> /r1 -> ... -> /r<count> as redirects, /r<count+1> as 200."""
    urls = [ROBOTS] + [f"http://site.test/r{index}" for index in range(1, count + 2)]
    for here, there in itertools.pairwise(urls):
        router.get(here).mock(return_value=httpx.Response(302, headers={"location": there}))
    router.get(urls[-1]).mock(return_value=httpx.Response(200, content=TEXT))
    return urls


async def test_d11_five_redirects_followed(
    router: respx.MockRouter, mock_client: httpx.AsyncClient
) -> None:
    """D11 / Google spec "Handling HTTP result codes", 3xx: five hops followed, six requests."""
    urls = hops(router, 4)  # robots.txt + r1..r4 redirect: 5 redirects, r5 answers 200
    result = await fetch(mock_client)
    assert len(urls) == 6
    assert result.chain == tuple(urls)
    assert (result.status, result.body, result.redirected_too_often) == (200, TEXT, False)


async def test_d11_sixth_redirect_is_not_followed(
    router: respx.MockRouter, mock_client: httpx.AsyncClient
) -> None:
    """D11: a 6th redirect ends the fetch with that 3xx: full allow, like a 404."""
    urls = hops(router, 5)  # robots.txt + r1..r5 all redirect
    result = await fetch(mock_client)
    assert result.chain == tuple(urls[:6])
    assert not router.routes[-1].called  # the 7th URL is never requested
    assert result.status == 302
    assert result.redirected_too_often
    assert kind(result) == "too-many-redirects"
    assert outcome_of(result) is Outcome.FULL_ALLOW


async def test_d11_redirect_limit_applies_even_if_client_follows_redirects(
    router: respx.MockRouter,
) -> None:
    """D11: redirects are followed by hand, whatever the caller's client is set to do."""
    hops(router, 7)
    transport = httpx.MockTransport(router.async_handler)
    async with httpx.AsyncClient(transport=transport, follow_redirects=True) as client:
        result = await fetch(client)
    assert len(router.calls) == 6
    assert result.redirected_too_often


async def test_d11_max_redirects_is_settable(
    router: respx.MockRouter, mock_client: httpx.AsyncClient
) -> None:
    """D12: max_redirects=0 follows nothing: the first 3xx is the final answer."""
    hops(router, 1)
    result = await fetch(mock_client, limits=FetchLimits(max_redirects=0))
    assert (result.status, len(result.chain), result.redirected_too_often) == (302, 1, True)


@pytest.mark.parametrize(
    ("chain", "requests"),
    [
        pytest.param(["/robots.txt"], 1, id="self"),
        pytest.param(["/a", "/robots.txt"], 2, id="two-step"),
        pytest.param(["/a", "/b", "/a"], 3, id="inner-loop"),
    ],
)
async def test_d11_redirect_loop_stops_at_once(
    router: respx.MockRouter, mock_client: httpx.AsyncClient, chain: list[str], requests: int
) -> None:
    """D11: a loop counts as 404 (full allow), detected before re-requesting a URL."""
    here = ROBOTS
    for there in chain:
        response = httpx.Response(301, headers={"location": there})
        router.get(here).mock(return_value=response)
        here = "http://site.test" + there
    result = await fetch(mock_client)
    assert len(router.calls) == requests
    assert result.redirected_too_often
    assert kind(result) == "redirect-loop"
    assert outcome_of(result) is Outcome.FULL_ALLOW


@pytest.mark.parametrize(
    "headers",
    [
        pytest.param({}, id="absent"),
        pytest.param({"location": ""}, id="empty"),
        pytest.param({"location": "   "}, id="blank"),
        pytest.param({"location": "ftp://site.test/robots.txt"}, id="ftp"),
        pytest.param({"location": "mailto:webmaster@site.test"}, id="mailto"),
        pytest.param({"location": "javascript:void(0)"}, id="javascript"),
        pytest.param({"location": "http://[bad/"}, id="malformed"),
        pytest.param({"location": "https://user@/robots.txt"}, id="no-host"),
        pytest.param({"location": "http://exa mple.test/"}, id="bad-host"),
        pytest.param({"location": "http://site.test:99999/"}, id="bad-port"),
    ],
)
async def test_d11_redirect_without_usable_location(
    router: respx.MockRouter, mock_client: httpx.AsyncClient, headers: Any
) -> None:
    """D11: a 3xx without a usable Location counts as 404 (full allow); the note says why."""
    router.get(ROBOTS).mock(return_value=httpx.Response(301, headers=headers))
    result = await fetch(mock_client)
    assert len(router.calls) == 1
    assert result.status == 301
    assert kind(result) == "bad-redirect"
    assert not result.redirected_too_often
    assert outcome_of(result) is Outcome.FULL_ALLOW


async def test_d11_304_is_never_followed(
    router: respx.MockRouter, mock_client: httpx.AsyncClient
) -> None:
    """A 304 answers a conditional request (issue 7): returned as it is, even with a Location."""
    response = httpx.Response(304, headers={"location": "/elsewhere", "etag": '"v1"'})
    router.get(ROBOTS).mock(return_value=response)
    result = await fetch(mock_client)
    assert (result.status, result.error, len(router.calls)) == (304, None, 1)
    assert result.header("etag") == '"v1"'


async def test_d11_network_error_on_a_later_hop_keeps_the_chain(
    router: respx.MockRouter, mock_client: httpx.AsyncClient
) -> None:
    """D11: an outcome records the URL chain, also when a later hop fails."""
    router.get(ROBOTS).mock(return_value=httpx.Response(301, headers={"location": "/b"}))
    router.get("http://site.test/b").mock(side_effect=httpx.ConnectError("refused"))
    result = await fetch(mock_client)
    assert result.chain == (ROBOTS, "http://site.test/b")
    assert_network_error(result, "connect")


# --- content codings (D12: decoded here, each step bounded) --------------------------------------

BIG_TEXT = b"".join(b"Disallow: /p%d/\n" % index for index in range(3000))


def encoded(coding: str, data: bytes) -> bytes:
    if coding in ("gzip", "x-gzip", "GZIP"):
        return gzip.compress(data)
    if coding == "deflate":
        return deflate(data)
    if coding == "deflate-raw":
        return deflate(data, -zlib.MAX_WBITS)
    if coding == "br":
        return bytes(brotli.compress(data))
    return data


CODINGS = [
    pytest.param("gzip", id="gzip"),
    pytest.param("x-gzip", id="x-gzip"),
    pytest.param("GZIP", id="upper-case"),
    pytest.param("deflate", id="deflate-zlib"),
    pytest.param("deflate-raw", id="deflate-raw"),
    pytest.param("br", id="br", marks=needs_brotli),
    pytest.param("identity", id="identity"),
]


@pytest.mark.parametrize("coding", CODINGS)
@pytest.mark.parametrize("size", [1, 2, 7, 4096, 10**9], ids=lambda size: f"pieces-{size}")
async def test_d12_content_codings_decoded_in_any_pieces(
    router: respx.MockRouter, mock_client: httpx.AsyncClient, coding: str, size: int
) -> None:
    """D12: each coding decodes the same, however the network splits the bytes."""
    label = "deflate" if coding == "deflate-raw" else coding
    data = encoded(coding, BIG_TEXT)
    stream = Pieces(data, size)
    response = httpx.Response(200, headers={"content-encoding": label}, stream=stream)
    router.get(ROBOTS).mock(return_value=response)
    result = await fetch(mock_client)
    assert (result.status, result.error, result.truncated) == (200, None, False)
    assert result.body == BIG_TEXT


async def test_d12_in_memory_responses_are_decoded_once(
    router: respx.MockRouter, mock_client: httpx.AsyncClient
) -> None:
    """httpx.Response(content=...) reads itself on creation; its raw bytes are decoded once."""
    response = httpx.Response(
        200, headers={"content-encoding": "gzip"}, content=gzip.compress(TEXT)
    )
    router.get(ROBOTS).mock(return_value=response)
    result = await fetch(mock_client)
    assert (result.status, result.body) == (200, TEXT)


@pytest.mark.parametrize(
    ("label", "data"),
    [
        pytest.param("zstd", b"\x28\xb5\x2f\xfdrobots", id="unknown"),
        pytest.param("utf-8", TEXT, id="bogus-label"),
        pytest.param("gzip, zstd", TEXT, id="unknown-in-stack"),
    ],
)
async def test_d12_unknown_coding_kept_as_sent(
    router: respx.MockRouter, mock_client: httpx.AsyncClient, label: str, data: bytes
) -> None:
    """D12: a coding we cannot undo leaves the body as it came (bogus labels are common)."""
    response = httpx.Response(200, headers={"content-encoding": label}, stream=Pieces(data, 3))
    router.get(ROBOTS).mock(return_value=response)
    result = await fetch(mock_client)
    assert (result.status, result.body) == (200, data)


@pytest.mark.parametrize(
    ("headers", "data"),
    [
        pytest.param(
            [("content-encoding", "deflate, gzip")], gzip.compress(deflate(TEXT)), id="one"
        ),
        pytest.param(
            [("content-encoding", "gzip"), ("content-encoding", "deflate")],
            deflate(gzip.compress(TEXT)),
            id="two-headers",
        ),
        pytest.param([("content-encoding", "identity, gzip")], gzip.compress(TEXT), id="identity"),
    ],
)
async def test_d12_stacked_codings_undone_in_reverse(
    router: respx.MockRouter, mock_client: httpx.AsyncClient, headers: Any, data: bytes
) -> None:
    """RFC 9110 §8.4: codings are listed in the order applied, so they are undone last first."""
    response = httpx.Response(200, headers=headers, stream=Pieces(data, 5))
    router.get(ROBOTS).mock(return_value=response)
    result = await fetch(mock_client)
    assert (result.status, result.body) == (200, TEXT)


@pytest.mark.parametrize(
    ("data", "body"),
    [
        pytest.param(gzip.compress(b"User-agent: *\n") + gzip.compress(b"Disallow: /x\n"),
                     b"User-agent: *\nDisallow: /x\n", id="two-members"),
        pytest.param(gzip.compress(TEXT) + b"\x00\x00garbage", TEXT, id="trailing-garbage"),
        pytest.param(b"", b"", id="empty-body"),
    ],
)  # fmt: skip
async def test_d12_gzip_members_and_trailers(
    router: respx.MockRouter, mock_client: httpx.AsyncClient, data: bytes, body: bytes
) -> None:
    """RFC 1952 §2.2: a gzip body may hold several members; bytes after the end are ignored."""
    response = httpx.Response(200, headers={"content-encoding": "gzip"}, stream=Pieces(data, 1))
    router.get(ROBOTS).mock(return_value=response)
    result = await fetch(mock_client)
    assert (result.status, result.body) == (200, body)


@pytest.mark.parametrize(
    ("label", "data"),
    [
        pytest.param("gzip", b"\x1f\x8b\x08\x00garbage-not-deflate", id="gzip-corrupt"),
        pytest.param("gzip", gzip.compress(BIG_TEXT)[:-8], id="gzip-no-trailer"),
        pytest.param("gzip", gzip.compress(BIG_TEXT)[:200], id="gzip-cut"),
        pytest.param("deflate", deflate(BIG_TEXT)[:200], id="deflate-cut"),
        pytest.param("deflate", b"\xff\xff\xff\xff\xff", id="deflate-corrupt"),
        pytest.param("br", b"\xff\xff\xff\xff robots", id="br-corrupt", marks=needs_brotli),
        pytest.param("gzip, gzip, gzip, gzip, gzip", TEXT, id="five-codings"),
    ],
)
async def test_d11_undecodable_body_is_a_network_error(
    router: respx.MockRouter, mock_client: httpx.AsyncClient, label: str, data: bytes
) -> None:
    """D11: a malformed response (a coding that fails or ends early) means full disallow."""
    response = httpx.Response(200, headers={"content-encoding": label}, stream=Pieces(data, 64))
    router.get(ROBOTS).mock(return_value=response)
    result = await fetch(mock_client)
    assert_network_error(result, "decoding")


# --- limits (D12: 512,000 bytes after decompression; bombs cost a few MiB) -----------------------


@pytest.mark.parametrize("coding", [pytest.param("identity", id="plain"), *CODINGS[:1], CODINGS[3]])
@pytest.mark.parametrize(
    ("size", "truncated"),
    [(LIMIT - 1, False), (LIMIT, False), (LIMIT + 1, True), (3 * LIMIT, True)],
    ids=["limit-1", "limit", "limit+1", "3x"],
)
async def test_d12_body_cut_at_512000_decoded_bytes(
    router: respx.MockRouter,
    mock_client: httpx.AsyncClient,
    coding: str,
    size: int,
    truncated: bool,
) -> None:
    """D12: reading stops at 512,000 bytes after decompression; a cut body is conditional."""
    data = (b"Disallow: /x\n" * (size // 13 + 1))[:size]
    headers = {} if coding == "identity" else {"content-encoding": coding}
    response = httpx.Response(200, headers=headers, stream=Pieces(encoded(coding, data), 8192))
    router.get(ROBOTS).mock(return_value=response)
    result = await fetch(mock_client)
    assert result.truncated is truncated
    assert result.body == data[:LIMIT]
    assert (result.status, result.error) == (200, None)
    assert outcome_of(result) is Outcome.CONDITIONAL


async def test_d12_max_body_bytes_is_settable(
    router: respx.MockRouter, mock_client: httpx.AsyncClient
) -> None:
    """D12: the cap is a limit of FetchLimits; a smaller one cuts sooner."""
    router.get(ROBOTS).mock(return_value=httpx.Response(200, stream=Pieces(TEXT, 4)))
    result = await fetch(mock_client, limits=FetchLimits(max_body_bytes=10))
    assert (result.body, result.truncated) == (TEXT[:10], True)


BOMBS = [
    pytest.param("gzip", id="gzip"),
    pytest.param("deflate", id="deflate-zlib"),
    pytest.param("raw-deflate", id="deflate-raw"),
    pytest.param("br", id="br", marks=needs_brotli),
]


@pytest.mark.parametrize("coding", BOMBS)
async def test_d12_decompression_bomb_costs_a_few_mib(
    local_server: LocalServer, loopback_client: httpx.AsyncClient, coding: str
) -> None:
    """D12: a 256 MiB bomb (about 260 KB on the wire) stops at 512,000 bytes, peak < 4 MiB."""
    local_server.route(gzip_bomb(coding), host="bomb.test")  # built before tracing starts
    tracemalloc.start()
    try:
        result = await fetch(loopback_client, origin_of("http://bomb.test/"))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (result.status, result.error, result.truncated) == (200, None, True)
    assert result.body == bytes(LIMIT)
    assert peak < 4 * MIB


async def test_d12_ten_mib_body_stops_the_download(
    local_server: LocalServer, loopback_client: httpx.AsyncClient
) -> None:
    """D12 / issue 4: a 10 MiB body is cut at the limit and the rest is never downloaded."""
    local_server.route(big_body(10 * MIB), host="big.test")
    result = await fetch(loopback_client, origin_of("http://big.test/"))
    assert (result.status, result.truncated, len(result.body)) == (200, True, LIMIT)
    [exchange] = local_server.exchanges_for("big.test")
    await exchange.wait_done()
    assert exchange.peer_closed  # the server saw us hang up while it still had bytes to send
    assert exchange.bytes_sent < 3 * MIB


async def test_d12_endless_chunked_body_stops(
    local_server: LocalServer, loopback_client: httpx.AsyncClient
) -> None:
    """D12 / issue 4: an endless chunked body is cut at the limit; the connection is dropped."""
    local_server.route(endless_chunked(), host="endless.test")
    result = await fetch(loopback_client, origin_of("http://endless.test/"))
    assert (result.status, result.truncated, len(result.body)) == (200, True, LIMIT)
    assert result.body.startswith(b"Disallow: /endless\n")
    [exchange] = local_server.exchanges_for("endless.test")
    await exchange.wait_done()
    assert exchange.peer_closed


# --- network errors (D11: full disallow, status None; Google spec "incomplete data") -------------

BYTE_LEVEL = [
    pytest.param(script(RESET), "read", id="reset-before-reply"),
    pytest.param(script(HANGUP), "protocol", id="hangup-before-reply"),
    pytest.param(script(H200 + b"Content-Le", RESET), "read", id="reset-mid-headers"),
    pytest.param(script(H200 + b"Content-Le", HANGUP), "protocol", id="hangup-mid-headers"),
    pytest.param(
        script(H200 + b"Content-Length: 1000\r\n\r\n" + TEXT, RESET), "read", id="reset-mid-body"
    ),
    pytest.param(
        script(H200 + b"Content-Length: 1000\r\n\r\n" + TEXT), "protocol", id="short-body"
    ),
    pytest.param(
        script(H200 + b"Transfer-Encoding: chunked\r\n\r\n5\r\nUser-\r\n"),
        "protocol",
        id="chunked-without-last-chunk",
    ),
    pytest.param(
        script(H200 + b"Transfer-Encoding: chunked\r\n\r\nzz\r\nUser-\r\n0\r\n\r\n"),
        "protocol",
        id="bad-chunk-size",
    ),
    pytest.param(script(b"SSH-2.0-OpenSSH_9.6\r\n\r\n"), "protocol", id="not-http"),
    pytest.param(script(H200 + b"Content-Length: abc\r\n\r\nxyz"), "protocol", id="bad-length"),
    pytest.param(
        script(H200 + b"Content-Length: 3\r\nContent-Length: 4\r\n\r\nxyzw"),
        "protocol",
        id="conflicting-lengths",
    ),
    pytest.param(
        script(H200 + b"Content-Length: 2000\r\n\r\n", WaitFor(asyncio.Event())),
        "read-timeout",
        id="stalled-body",
    ),
]


@pytest.mark.parametrize(("handler", "expected"), BYTE_LEVEL)
async def test_d11_byte_level_failures_are_network_errors(
    local_server: LocalServer, loopback_client: httpx.AsyncClient, handler: Handler, expected: str
) -> None:
    """D11 / Google spec "Unsuccessful requests or incomplete data": resets, hang-ups, short
    bodies, bad chunking and malformed heads are server errors: full disallow."""
    local_server.route(handler, host="broken.test")
    limits = FetchLimits(read_timeout=0.2)
    result = await fetch(loopback_client, origin_of("http://broken.test/"), limits=limits)
    assert_network_error(result, expected)
    assert result.chain == ("http://broken.test/robots.txt",)


@pytest.mark.parametrize(
    ("status", "outcome"),
    [(404, Outcome.FULL_ALLOW), (503, Outcome.FULL_DISALLOW)],
)
async def test_d11_error_status_body_is_not_read(
    local_server: LocalServer, loopback_client: httpx.AsyncClient, status: int, outcome: Outcome
) -> None:
    """D11: a 4xx/5xx is decided by its status; a reset in its unread body changes nothing."""
    head = f"HTTP/1.1 {status} X\r\nContent-Length: 5000\r\n\r\n".encode()
    local_server.route(script(head + b"partial", RESET), host="err.test")
    result = await fetch(loopback_client, origin_of("http://err.test/"))
    assert (result.status, result.error) == (status, None)
    assert outcome_of(result) is outcome


async def test_d11_body_longer_than_content_length_is_cut_there(
    local_server: LocalServer, loopback_client: httpx.AsyncClient
) -> None:
    """D11: a Content-Length shorter than the body frames the response; the rest is not read."""
    local_server.route(script(H200 + b"Content-Length: 13\r\n\r\n" + TEXT), host="cl.test")
    result = await fetch(loopback_client, origin_of("http://cl.test/"))
    assert (result.status, result.body) == (200, TEXT[:13])


async def test_d11_http10_body_ends_with_the_connection(
    local_server: LocalServer, loopback_client: httpx.AsyncClient
) -> None:
    """HTTP/1.0 without Content-Length: the close ends the body, which is then complete."""
    local_server.route(script(b"HTTP/1.0 200 OK\r\n\r\n" + TEXT), host="old.test")
    result = await fetch(loopback_client, origin_of("http://old.test/"))
    assert (result.status, result.body, result.error) == (200, TEXT, None)


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_d11_connection_refused() -> None:
    """D11: nothing listening on the port: a network error (full disallow)."""
    async with httpx.AsyncClient() as client:
        result = await fetch(client, origin_of(f"http://127.0.0.1:{closed_port()}/"))
    assert_network_error(result, "connect")


async def test_d11_tls_failure(local_server: LocalServer) -> None:
    """D11: a TLS handshake that fails (here: https to a plain-HTTP server) is a network error."""
    async with httpx.AsyncClient() as client:
        result = await fetch(client, origin_of(f"https://127.0.0.1:{local_server.port}/"))
    assert_network_error(result, "tls")


async def test_d12_drip_cannot_outlast_the_total_deadline(
    local_server: LocalServer, loopback_client: httpx.AsyncClient
) -> None:
    """D12: a byte every 50 ms never trips the 10 s read timeout; the 0.5 s total deadline does."""
    head = H200 + b"Content-Length: 100000\r\n\r\n"
    local_server.route(drip(head, 0.05), host="drip.test")
    result = await fetch(loopback_client, origin_of("http://drip.test/"), limits=FAST_DEADLINE)
    assert_network_error(result, "timeout")


async def test_d12_dripped_headers_bounded_too(
    local_server: LocalServer, loopback_client: httpx.AsyncClient
) -> None:
    """D12: a head that never ends is bounded by the same total deadline."""
    local_server.route(drip(H200 + b"X-Slow: ", 0.05, b"a"), host="drip.test")
    result = await fetch(loopback_client, origin_of("http://drip.test/"), limits=FAST_DEADLINE)
    assert_network_error(result, "timeout")


async def test_d12_silent_server_bounded(
    local_server: LocalServer, loopback_client: httpx.AsyncClient
) -> None:
    """D12: a server that accepts and never answers cannot hold a fetch past the deadline."""
    local_server.route(script(WaitFor(asyncio.Event())), host="mute.test")
    result = await fetch(loopback_client, origin_of("http://mute.test/"), limits=FAST_DEADLINE)
    assert_network_error(result, "timeout")


async def test_d12_deadline_spans_all_hops(
    local_server: LocalServer, loopback_client: httpx.AsyncClient
) -> None:
    """D12: the whole fetch, all redirects included, shares one deadline."""
    for index in range(5):
        target = f"/r{index + 1}"
        path = "/robots.txt" if index == 0 else f"/r{index}"
        local_server.route(delayed(0.2, redirect(target)), host="slow.test", path=path)
    result = await fetch(loopback_client, origin_of("http://slow.test/"), limits=FAST_DEADLINE)
    assert_network_error(result, "timeout")
    assert len(result.chain) < 6  # each hop is well within the read timeout; together, not


def raising(error: Exception) -> Callable[[httpx.Request], httpx.Response]:
    def side_effect(request: httpx.Request) -> httpx.Response:
        raise error

    return side_effect


def chained(error: Exception, cause: BaseException) -> Exception:
    error.__cause__ = cause
    return error


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        pytest.param(
            chained(httpx.ConnectError("Name or service not known"), socket.gaierror(-2, "x")),
            "dns",
            id="dns",
        ),
        pytest.param(httpx.ConnectError("[Errno 111] Connection refused"), "connect", id="refused"),
        pytest.param(
            chained(httpx.ConnectError("handshake"), ssl.SSLError(1, "bad cert")), "tls", id="tls"
        ),
        pytest.param(httpx.ConnectTimeout(""), "connect-timeout", id="connect-timeout"),
        pytest.param(httpx.ReadTimeout(""), "read-timeout", id="read-timeout"),
        pytest.param(httpx.WriteTimeout(""), "write-timeout", id="write-timeout"),
        pytest.param(httpx.PoolTimeout("pool"), "pool-timeout", id="pool-timeout"),
        pytest.param(httpx.ReadError("reset"), "read", id="read"),
        pytest.param(httpx.WriteError("broken pipe"), "write", id="write"),
        pytest.param(httpx.RemoteProtocolError("bad"), "protocol", id="remote-protocol"),
        pytest.param(httpx.LocalProtocolError("bad"), "protocol", id="local-protocol"),
        pytest.param(httpx.UnsupportedProtocol("gopher"), "error", id="unsupported"),
        pytest.param(RuntimeError("transport bug"), "error", id="anything-else"),
        pytest.param(OSError(101, "Network is unreachable"), "error", id="raw-oserror"),
    ],
)
async def test_d11_every_failure_classified_never_raised(error: Exception, expected: str) -> None:
    """D11: whatever the transport raises becomes status None + "<kind>: <detail>"."""
    async with httpx.AsyncClient(transport=httpx.MockTransport(raising(error))) as client:
        result = await fetch(client)  # not respx: it replaces the exception's __cause__
    assert_network_error(result, expected)
    detail = result.error.partition(": ")[2]  # type: ignore[union-attr]
    assert detail
    assert "\n" not in detail


# --- records, arguments and cancellation ---------------------------------------------------------


async def test_d11_fetched_at_from_the_clock_and_elapsed(
    router: respx.MockRouter, mock_client: httpx.AsyncClient
) -> None:
    """D11: an outcome records when it was fetched (the injected clock) and how long it took."""
    router.get(ROBOTS).mock(return_value=httpx.Response(200, content=TEXT))
    calls: list[float] = []

    def clock() -> float:
        calls.append(1_700_000_000.0)
        return calls[-1]

    result = await fetch(mock_client, clock=clock)
    assert result.fetched_at == 1_700_000_000.0
    assert len(calls) == 1
    assert result.elapsed >= 0
    assert math.isfinite(result.elapsed)


async def test_d11_network_error_records_time_and_chain(
    router: respx.MockRouter, mock_client: httpx.AsyncClient
) -> None:
    """D11: a failed fetch still says when it happened and what was requested."""
    router.get(ROBOTS).mock(side_effect=raising(httpx.ReadError("reset")))
    result = await fetch(mock_client, clock=lambda: 42.0)
    assert (result.fetched_at, result.chain, result.url) == (42.0, (ROBOTS,), ROBOTS)


@pytest.mark.parametrize("agent", ["", "   ", "Bot\r\nX-Injected: 1", "Bot\n", "Bøt/1", 7, None])
async def test_d17_bad_user_agent_raises_before_any_request(
    router: respx.MockRouter, mock_client: httpx.AsyncClient, agent: object
) -> None:
    """D17: a bad user agent is caller error: raised at once, nothing sent."""
    route = router.get(ROBOTS).mock(return_value=httpx.Response(200))
    with pytest.raises(InvalidUserAgent):
        await fetch_robots(SITE, client=mock_client, user_agent=agent)  # type: ignore[arg-type]
    assert not route.called


@pytest.mark.parametrize(
    "extra", [{"If-None-Match": '"é"'}, {"X-Ok": "1", "X-Bad": None}], ids=["non-ascii", "none"]
)
async def test_d17_bad_extra_headers_raise_before_any_request(
    router: respx.MockRouter, mock_client: httpx.AsyncClient, extra: dict[str, Any]
) -> None:
    """D17: extra headers must be ASCII text; anything else is caller error, nothing sent."""
    route = router.get(ROBOTS).mock(return_value=httpx.Response(200))
    with pytest.raises(InvalidArgument, match="extra header"):
        await fetch(mock_client, extra_headers=extra)
    assert not route.called


def test_d12_limits_defaults() -> None:
    """D12: 10 s connect and read, 30 s in all, 5 redirects, 512,000 bytes."""
    limits = FetchLimits()
    assert (limits.connect_timeout, limits.read_timeout, limits.total_timeout) == (10, 10, 30)
    assert (limits.max_redirects, limits.max_body_bytes) == (5, LIMIT)


@pytest.mark.parametrize(
    "options",
    [
        {"connect_timeout": 0},
        {"read_timeout": -1},
        {"total_timeout": float("nan")},
        {"total_timeout": "30"},
        {"max_redirects": -1},
        {"max_redirects": 2.5},
        {"max_body_bytes": 0},
        {"total_timeout": float("inf")},
        {"max_redirects": True},
    ],
    ids=str,
)
def test_d17_bad_limits_raise(options: dict[str, Any]) -> None:
    """D17: nonsensical limits are refused when built, not discovered mid-crawl."""
    with pytest.raises(InvalidArgument):
        FetchLimits(**options)


async def test_cancellation_propagates(
    local_server: LocalServer, loopback_client: httpx.AsyncClient
) -> None:
    """D11: only cancellation escapes fetch_robots; a cancelled check must not become an outcome."""
    arrived = asyncio.Event()

    async def hold(request: Request, connection: Connection) -> None:
        arrived.set()
        await asyncio.Event().wait()

    local_server.route(hold, host="hold.test")
    task = asyncio.create_task(fetch(loopback_client, origin_of("http://hold.test/")))
    await asyncio.wait_for(arrived.wait(), GUARD)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


# --- many origins through one loopback server ----------------------------------------------------


async def test_origins_routed_by_host_header(
    local_server: LocalServer, loopback_client: httpx.AsyncClient
) -> None:
    """D10/D15 groundwork: 200 origins on one server, told apart by Host, each fetched once."""
    local_server.route(
        dynamic(lambda request: respond(200, f"Disallow: /{request.host}\n")), path="/robots.txt"
    )
    origins = [origin_of(f"http://site{index}.test/") for index in range(200)]
    results = await asyncio.gather(*(fetch(loopback_client, origin) for origin in origins))
    for origin, result in zip(origins, results, strict=True):
        assert (result.status, result.body) == (200, f"Disallow: /{origin.host}\n".encode())
        assert local_server.hits[(origin.host, "/robots.txt")] == 1


async def test_issue7_revalidation_hook_gets_304_from_the_server(
    local_server: LocalServer, loopback_client: httpx.AsyncClient
) -> None:
    """D11/D13 groundwork: a conditional GET via extra_headers gets the server's 304 as it is."""
    validators = Validators(body=TEXT, etag='"v1"', cache_control="max-age=60")
    local_server.route(conditional(validators), host="cond.test")
    origin = origin_of("http://cond.test/")
    first = await fetch(loopback_client, origin)
    assert (first.status, first.body, first.header("etag")) == (200, TEXT, '"v1"')
    again = await fetch(loopback_client, origin, extra_headers={"If-None-Match": '"v1"'})
    assert (again.status, again.body, again.error) == (304, b"", None)
    assert again.header("cache-control") == "max-age=60"
    assert validators.not_modified == 1


async def test_https_origins_reach_the_loopback_server(
    local_server: LocalServer, loopback_client: httpx.AsyncClient
) -> None:
    """D10 groundwork for client tests: https origins are served over plain HTTP locally."""
    local_server.route(respond(200, TEXT), host="secure.test")
    result = await fetch(loopback_client, origin_of("https://secure.test/"))
    assert (result.status, result.body, result.chain) == (
        200,
        TEXT,
        ("https://secure.test/robots.txt",),
    )
