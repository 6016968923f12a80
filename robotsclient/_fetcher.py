"""Fetch one origin's robots.txt (DECISIONS D11, D12): the only module that speaks httpx for it.

Rules of this module:
- One plain GET per hop with the caller's User-Agent, and an Accept-Encoding we can decode.
- Redirects are followed by hand, to any host, at most `max_redirects` (5: six requests). A 6th
  redirect, a loop, or a 3xx without a usable Location ends the fetch with that 3xx status and a
  note in `error`; `outcome_of` maps it to full allow (D11). A 304 is returned as it is.
- Only a 2xx body is read. It is streamed raw and decoded here, each step bounded, so a gzip,
  deflate or br bomb costs a few hundred KiB; reading stops after `max_body_bytes` (512,000)
  decoded bytes: `truncated=True`, the body kept (conditional, D12), the connection dropped.
- A 2xx body cut short (the peer closes or resets before the end of its Content-Length or its
  last chunk, or a compressed stream ends early) is a network error: status None, body dropped,
  so the outcome is full disallow, as Google's spec says for "incomplete data" (D11).
- Network trouble never raises: it returns `status=None, error="<kind>: <detail>"` (D11). Only
  cancellation escapes, and bad arguments raise before any I/O (D17).
- Timeouts: connect and read on each request, and one deadline over all hops (D12), so a server
  dripping a byte a second cannot hold a fetch past `total_timeout`.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import math
import socket
import ssl
import sys
import time
import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import httpx

from ._clock import system_clock
from ._exceptions import InvalidArgument, InvalidUserAgent
from ._origin import origin_of
from ._outcome import FetchResult

if TYPE_CHECKING:
    from collections.abc import AsyncGenerator, Awaitable, Mapping

    from ._clock import Clock
    from ._origin import Origin

__all__ = ["ACCEPT_ENCODING", "FetchErrorKind", "FetchLimits", "fetch_robots"]

try:  # br is advertised only when a decoder that can bound its output is installed (D12)
    import brotli

    _BROTLI = hasattr(brotli.Decompressor, "can_accept_more_data")
except ImportError:  # pragma: no cover - depends on the environment
    _BROTLI = False

ACCEPT_ENCODING = "gzip, deflate, br" if _BROTLI else "gzip, deflate"
MAX_BODY_BYTES = 512_000  # Google reads the first 500 KiB of a robots.txt (D1, D12)
_STEP = 64 * 1024  # largest piece a decoder hands on at once: bounds memory per stage (D12)
_MAX_CODINGS = 4  # more stacked content codings than this is an attack, not a server (D12)
_GZIP_WBITS = 32 + zlib.MAX_WBITS  # gzip or zlib header, detected by zlib
_ZLIB_WBITS = zlib.MAX_WBITS  # "deflate" as RFC 9110 means it: zlib-wrapped
_RAW_WBITS = -zlib.MAX_WBITS  # "deflate" as many servers send it: raw
_GZIP_MAGIC = b"\x1f\x8b"
_CHAIN_DEPTH = 8  # how far along __cause__/__context__ an error's reason is looked for
_NOT_MODIFIED = 304  # the answer to a conditional request: returned as it is, never followed


class FetchErrorKind(enum.Enum):
    """The `<kind>` that starts `FetchResult.error` (D11: network kinds have status None)."""

    DNS = "dns"
    CONNECT = "connect"  # refused, unreachable
    TLS = "tls"
    CONNECT_TIMEOUT = "connect-timeout"
    READ_TIMEOUT = "read-timeout"
    WRITE_TIMEOUT = "write-timeout"
    POOL_TIMEOUT = "pool-timeout"
    TIMEOUT = "timeout"  # the whole fetch passed total_timeout (D12)
    READ = "read"  # reset or hung up while reading
    WRITE = "write"
    PROTOCOL = "protocol"  # malformed response, bad chunking, short body vs Content-Length
    DECODING = "decoding"  # a compressed body that does not decode or ends early
    ERROR = "error"  # anything else
    # With a 3xx status (full allow, D11) rather than None:
    BAD_REDIRECT = "bad-redirect"  # no usable Location
    REDIRECT_LOOP = "redirect-loop"
    TOO_MANY_REDIRECTS = "too-many-redirects"


@dataclass(frozen=True, slots=True)
class FetchLimits:
    """Timeouts in seconds and size limits for one robots.txt fetch (D12)."""

    connect_timeout: float = 10.0
    read_timeout: float = 10.0
    total_timeout: float = 30.0  # all hops, body included
    max_redirects: int = 5  # 6 requests in all (D11)
    max_body_bytes: int = MAX_BODY_BYTES  # after decompression

    def __post_init__(self) -> None:
        for name in ("connect_timeout", "read_timeout", "total_timeout"):
            value = getattr(self, name)
            if not _is_number(value) or not (value > 0 and math.isfinite(value)):
                raise InvalidArgument(f"FetchLimits.{name} must be finite and > 0, not {value!r}")
        for name, least in (("max_redirects", 0), ("max_body_bytes", 1)):
            value = getattr(self, name)
            if not _is_number(value) or not isinstance(value, int) or value < least:
                raise InvalidArgument(
                    f"FetchLimits.{name} must be an int >= {least}, not {value!r}"
                )


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


DEFAULT_LIMITS = FetchLimits()


async def fetch_robots(
    origin: Origin,
    *,
    client: httpx.AsyncClient,
    user_agent: str,
    limits: FetchLimits = DEFAULT_LIMITS,
    clock: Clock = system_clock,
    extra_headers: Mapping[str, str] | None = None,
) -> FetchResult:
    """Fetch `origin`'s robots.txt and return what happened; never raises for network trouble.

    Only our headers are sent (User-Agent, Accept-Encoding, then `extra_headers` on every hop:
    issue 7 sends If-None-Match through them): not the client's default headers, cookies or auth,
    which must not follow a redirect to another host. The client's transport (pool, proxies,
    mounts) is used; its event hooks are not. `fetched_at` is `clock()` at the start; `elapsed`
    is measured on a monotonic clock. A closed client or a bad user agent raise (D17).
    """
    headers = _request_headers(user_agent, extra_headers)
    if client.is_closed:
        raise InvalidArgument("the httpx.AsyncClient passed to fetch_robots is closed")
    url = origin.robots_url
    chain: list[str] = []
    fetched_at = clock()
    started = time.perf_counter()
    try:
        end = await _within(limits.total_timeout, _follow(client, url, headers, limits, chain))
    except asyncio.TimeoutError:
        note = f"the whole fetch took longer than {limits.total_timeout:g} s"
        end = _End(None, error=f"{FetchErrorKind.TIMEOUT.value}: {note}")
    except Exception as error:  # every network failure becomes a result (D11)
        end = _End(None, error=_describe(error, limits))
    return FetchResult(
        url=url,
        status=end.status,
        headers=end.headers,
        body=end.body,
        chain=tuple(chain),
        error=end.error,
        truncated=end.truncated,
        fetched_at=fetched_at,
        elapsed=time.perf_counter() - started,
        redirected_too_often=end.too_often,
    )


@dataclass(frozen=True, slots=True)
class _End:
    """How the last hop ended: the fields of FetchResult that depend on it."""

    status: int | None
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""
    error: str | None = None
    truncated: bool = False
    too_often: bool = False


def _request_headers(user_agent: str, extra: Mapping[str, str] | None) -> httpx.Headers:
    """Return the request headers: ours, then the caller's extra ones (which may replace ours)."""
    if not isinstance(user_agent, str) or not user_agent.strip():
        raise InvalidUserAgent("user agent must be a non-empty str", user_agent=user_agent)
    if not user_agent.isascii() or any(char in user_agent for char in "\r\n\0"):
        message = "user agent must be ASCII without CR, LF or NUL (it is sent as a header)"
        raise InvalidUserAgent(message, user_agent=user_agent)
    headers = httpx.Headers(
        {"user-agent": user_agent, "accept": "*/*", "accept-encoding": ACCEPT_ENCODING}
    )
    for name, value in (extra or {}).items():
        if not (isinstance(name, str) and isinstance(value, str) and (name + value).isascii()):
            raise InvalidArgument(f"extra header {name!r}: {value!r} must be ASCII text")
        headers[name] = value
    return headers


if sys.version_info >= (3, 11):

    async def _within(seconds: float, work: Awaitable[_End]) -> _End:
        """Await `work`, raising TimeoutError after `seconds` (D12: the whole-fetch deadline)."""
        async with asyncio.timeout(seconds):
            return await work

else:  # pragma: no cover - Python 3.10

    async def _within(seconds: float, work: Awaitable[_End]) -> _End:
        """Await `work`, raising asyncio.TimeoutError after `seconds` (D12)."""
        return await asyncio.wait_for(work, seconds)


async def _follow(
    client: httpx.AsyncClient,
    url: str,
    headers: httpx.Headers,
    limits: FetchLimits,
    chain: list[str],
) -> _End:
    """Request `url`, following redirects by hand (D11); append every URL requested to `chain`."""
    timeout = httpx.Timeout(limits.read_timeout, connect=limits.connect_timeout).as_dict()
    target = httpx.URL(url)
    redirects = 0
    while True:
        chain.append(str(target))
        request = httpx.Request("GET", target, headers=headers, extensions={"timeout": timeout})
        response = await _send(client, request)
        try:
            status = response.status_code
            found = _headers_of(response)
            if 200 <= status < 300:
                body, truncated = await _read_body(response, limits.max_body_bytes)
                return _End(status, found, body, truncated=truncated)
            if not 300 <= status < 400 or status == _NOT_MODIFIED:
                return _End(status, found)  # 1xx/4xx/5xx/304: the body is not needed
            next_url, problem = _redirect_target(target, response.headers.get("location"))
            if next_url is None:
                note = f"{status} without a usable Location: {problem}"
                return _End(status, found, error=f"{FetchErrorKind.BAD_REDIRECT.value}: {note}")
            if str(next_url) in chain:
                kind, note = FetchErrorKind.REDIRECT_LOOP, f"{next_url} was already requested"
                return _End(status, found, error=f"{kind.value}: {note}", too_often=True)
            if redirects >= limits.max_redirects:
                kind, note = FetchErrorKind.TOO_MANY_REDIRECTS, f"more than {redirects} redirects"
                return _End(status, found, error=f"{kind.value}: {note}", too_often=True)
            redirects += 1
            target = next_url
        finally:
            await response.aclose()  # drops the connection when the body was not read to the end


async def _send(client: httpx.AsyncClient, request: httpx.Request) -> httpx.Response:
    """Send one request through the client's transport and return the streamed response.

    Not `client.send`: even with follow_redirects=False it builds the next request for every
    redirect and raises on a Location it cannot parse (`mailto:`, `http://[bad`), losing the 3xx
    that D11 maps to full allow; it would also add the client's cookies and auth to a plain GET.
    `_transport_for_url` (httpx >= 0.18) keeps the client's mounts and proxies.
    """
    transport_for = getattr(client, "_transport_for_url", None)
    if transport_for is None:  # pragma: no cover - a future httpx without it
        return await client.send(request, stream=True, follow_redirects=False)
    transport: httpx.AsyncBaseTransport = transport_for(request.url)
    response = await transport.handle_async_request(request)
    response.request = request
    return response


def _headers_of(response: httpx.Response) -> tuple[tuple[str, str], ...]:
    """Return the response headers as (lower-cased name, value) pairs, in order."""
    return tuple(response.headers.multi_items())


def _redirect_target(current: httpx.URL, location: str | None) -> tuple[httpx.URL | None, str]:
    """Return the URL a Location leads to (relative ones resolved against `current`), or why not."""
    if location is None or not location.strip():
        return None, "no Location header"
    try:
        resolved = current.join(location.strip())
        origin_of(str(resolved))  # D10: an http(s) URL with a real host and port
    except (httpx.InvalidURL, ValueError) as error:  # InvalidURL is a ValueError
        return None, f"Location {location!r}: {error}"
    return resolved.copy_with(fragment=None), ""


async def _read_body(response: httpx.Response, limit: int) -> tuple[bytes, bool]:
    """Return the decoded body, at most `limit` bytes, and whether it was cut there (D12)."""
    codings = [
        coding.lower()
        for coding in response.headers.get_list("content-encoding", split_commas=True)
        if coding and coding.lower() != "identity"
    ]
    decoder = _BodyDecoder(codings, limit)
    async with contextlib.aclosing(_raw_chunks(response)) as chunks:
        async for chunk in chunks:
            if decoder.feed(chunk):
                break  # past the limit: the rest is never read, the connection dropped (D12)
        else:
            decoder.finish()
    return decoder.body(), decoder.truncated


async def _raw_chunks(response: httpx.Response) -> AsyncGenerator[bytes, None]:
    """Yield the body as it came on the wire, content codings not undone."""
    stream = response.stream
    if response.is_stream_consumed and isinstance(stream, httpx.AsyncByteStream):
        # httpx.Response(content=...) (mock transports, respx) reads itself when created; its
        # ByteStream still holds the raw bytes, and iterating it again yields them.
        async for chunk in stream:
            yield chunk
        return
    async for chunk in response.aiter_raw():
        yield chunk


class _DecodingError(Exception):
    """A content-coded body that does not decode, or that ends before its stream does."""


class _Stage(Protocol):
    """One content decoding: bytes in, at most `max_length` bytes out per call."""

    def decode(self, data: bytes, max_length: int) -> bytes:
        """Take `data` (may be b"") and return up to `max_length` bytes; b"" means: feed me."""
        ...

    def finish(self) -> None:
        """Say that no more input will come; `decode(b"", n)` then drains what is left."""
        ...

    def check_complete(self) -> None:
        """Raise _DecodingError if the stream stopped before its end."""
        ...


class _Inflate:
    """gzip (several members allowed, RFC 1952 §2.2) or deflate (zlib-wrapped or raw) via zlib."""

    def __init__(self, gzip: bool) -> None:
        self._gzip = gzip
        self._inflater = zlib.decompressobj(_GZIP_WBITS) if gzip else None
        self._input = b""
        self._fed = False  # any input at all: an empty body is complete as it is
        self._more = False  # the last call filled max_length: zlib may hold more output
        self._ended = False  # no more input will come

    def decode(self, data: bytes, max_length: int) -> bytes:
        if data:
            self._fed = True
            self._input = self._input + data if self._input else data
        inflater = self._inflater
        if inflater is None:
            if len(self._input) < 2 and not self._ended:
                return b""  # the first two bytes tell zlib-wrapped from raw deflate
            inflater = self._inflater = zlib.decompressobj(_deflate_wbits(self._input))
        if inflater.eof:
            return self._next_member(max_length)
        if not self._input and not self._more:
            return b""
        try:
            out = inflater.decompress(self._input, max_length)
        except zlib.error as error:
            raise _DecodingError(f"{'gzip' if self._gzip else 'deflate'}: {error}") from None
        self._more = len(out) == max_length
        self._input = inflater.unconsumed_tail
        if inflater.eof:
            self._input = inflater.unused_data
            self._more = False
        if out:
            return out
        return self._next_member(max_length) if inflater.eof else b""

    def _next_member(self, max_length: int) -> bytes:
        """After the end of a stream: another gzip member may follow; anything else is dropped."""
        if self._gzip and self._input[:2] == _GZIP_MAGIC:
            self._inflater = zlib.decompressobj(_GZIP_WBITS)
            return self.decode(b"", max_length)
        if self._gzip and self._input == _GZIP_MAGIC[:1] and not self._ended:
            return b""  # the second magic byte may be in the next chunk
        self._input = b""  # trailing garbage after the stream is ignored, as gzip(1) does
        return b""

    def finish(self) -> None:
        self._ended = True

    def check_complete(self) -> None:
        if self._fed and (self._inflater is None or not self._inflater.eof):
            raise _DecodingError("compressed body ends before its stream does")


def _deflate_wbits(head: bytes) -> int:
    """Tell the `deflate` flavours apart by their first two bytes (RFC 1950 §2.2 header check)."""
    if head[:2] == _GZIP_MAGIC:
        return _GZIP_WBITS
    if len(head) < 2:
        return _RAW_WBITS
    method, window, check = head[0] & 0x0F, head[0] >> 4, (head[0] << 8 | head[1]) % 31
    return _ZLIB_WBITS if method == 8 and window <= 7 and check == 0 else _RAW_WBITS


class _Brotli:
    """br, through brotli >= 1.2, whose `output_buffer_limit` bounds each step's output."""

    def __init__(self) -> None:
        self._decompressor = brotli.Decompressor()
        self._input = b""
        self._fed = False

    def decode(self, data: bytes, max_length: int) -> bytes:
        if data:
            self._fed = True
            self._input += data
        decompressor = self._decompressor
        try:
            for _ in range(2):  # a call that only takes input in may return b""; try once more
                if decompressor.is_finished():
                    self._input = b""  # trailing garbage after the stream is ignored
                    return b""
                if not decompressor.can_accept_more_data():
                    out: bytes = decompressor.process(b"", output_buffer_limit=max_length)
                elif self._input:
                    data, self._input = self._input, b""
                    out = decompressor.process(data, output_buffer_limit=max_length)
                else:
                    return b""
                if out:
                    return out
        except brotli.error as error:
            raise _DecodingError(f"br: {error}") from None
        return b""

    def finish(self) -> None:
        return None

    def check_complete(self) -> None:
        if self._fed and not self._decompressor.is_finished():
            raise _DecodingError("compressed body ends before its stream does")


def _stages_for(codings: list[str]) -> list[_Stage]:
    """Return the decoders for a Content-Encoding list, in decoding order (last coding first).

    An unknown coding leaves the body as it came (many servers send a bogus label on plain text).
    """
    if len(codings) > _MAX_CODINGS:
        raise _DecodingError(f"{len(codings)} stacked content codings")
    stages: list[_Stage] = []
    for coding in reversed(codings):
        if coding in ("gzip", "x-gzip"):
            stages.append(_Inflate(gzip=True))
        elif coding == "deflate":
            stages.append(_Inflate(gzip=False))
        elif coding == "br" and _BROTLI:
            stages.append(_Brotli())
        else:
            return []
    return stages


class _BodyDecoder:
    """Push raw chunks through the decoding stages into a body capped at `limit` bytes (D12)."""

    def __init__(self, codings: list[str], limit: int) -> None:
        self._stages = _stages_for(codings)
        self._limit = limit
        self._body = bytearray()
        self.truncated = False

    def feed(self, data: bytes) -> bool:
        """Decode `data` into the body; return True once the body passed the limit."""
        return self._push(0, data)

    def finish(self) -> None:
        """Drain every stage at the end of the raw body; raise _DecodingError if one is cut."""
        for index, stage in enumerate(self._stages):
            stage.finish()
            if self._push(index, b""):
                return
            stage.check_complete()

    def body(self) -> bytes:
        return bytes(self._body)

    def _push(self, index: int, data: bytes) -> bool:
        if index == len(self._stages):
            room = self._limit - len(self._body)
            if len(data) > room:
                self._body += data[:room]
                self.truncated = True
                return True
            self._body += data
            return False
        stage = self._stages[index]
        last = index + 1 == len(self._stages)
        while True:
            # The last stage asks for one byte past the limit: enough to know the body is cut.
            step = min(_STEP, self._limit + 1 - len(self._body)) if last else _STEP
            piece = stage.decode(data, step)
            data = b""
            if not piece:
                return False
            if self._push(index + 1, piece):
                return True


def _describe(error: BaseException, limits: FetchLimits) -> str:
    """Return "<kind>: <detail>" for an exception raised while fetching (D11)."""
    kind = _kind_of(error)
    if kind is FetchErrorKind.CONNECT_TIMEOUT:
        return f"{kind.value}: no connection within {limits.connect_timeout:g} s"
    if kind in (FetchErrorKind.READ_TIMEOUT, FetchErrorKind.WRITE_TIMEOUT):
        return f"{kind.value}: the connection stalled for {limits.read_timeout:g} s"
    return f"{kind.value}: {_detail(error)}"


def _detail(error: BaseException) -> str:
    """Return the first non-empty message along the exception's chain, on one line."""
    current: BaseException | None = error
    for _ in range(_CHAIN_DEPTH):
        if current is None:
            break
        text = " ".join(str(current).split())
        if text:
            return text if current is error else f"{type(current).__name__}: {text}"
        current = current.__cause__ or current.__context__
    return type(error).__name__


def _kind_of(error: BaseException) -> FetchErrorKind:
    """Classify an exception from httpx (or our decoders) into a FetchErrorKind."""
    if isinstance(error, _DecodingError):
        return FetchErrorKind.DECODING
    if isinstance(error, httpx.TimeoutException):
        if isinstance(error, httpx.ConnectTimeout):
            return FetchErrorKind.CONNECT_TIMEOUT
        if isinstance(error, httpx.WriteTimeout):
            return FetchErrorKind.WRITE_TIMEOUT
        if isinstance(error, httpx.PoolTimeout):
            return FetchErrorKind.POOL_TIMEOUT
        return FetchErrorKind.READ_TIMEOUT
    if _caused_by(error, ssl.SSLError, ssl.CertificateError):
        return FetchErrorKind.TLS
    if isinstance(error, httpx.ConnectError):
        if _caused_by(error, socket.gaierror):
            return FetchErrorKind.DNS
        return FetchErrorKind.CONNECT
    if isinstance(error, httpx.ReadError):
        return FetchErrorKind.READ
    if isinstance(error, httpx.WriteError):
        return FetchErrorKind.WRITE
    if isinstance(error, httpx.ProtocolError):
        return FetchErrorKind.PROTOCOL
    return FetchErrorKind.ERROR


def _caused_by(error: BaseException, *types: type[BaseException]) -> bool:
    """Return True if `error` or an exception it was raised from is one of `types`."""
    current: BaseException | None = error
    for _ in range(_CHAIN_DEPTH):
        if current is None:
            break
        if isinstance(current, types):
            return True
        current = current.__cause__ or current.__context__
    return False
