"""A real HTTP/1.1 server on asyncio streams, on 127.0.0.1 only, that misbehaves on demand.

Tests register routes on a `LocalServer`: `server.route(handler, host=..., path=...)`, where a
handler is an async callable `(Request, Connection) -> None` that writes whatever bytes it likes.
The factories below build the usual ones (`respond`, `redirect`, `script`, `drip`, `big_body`,
`endless_chunked`, `gzip_bomb`, `gated`, `conditional`, `dynamic`). Unrouted requests get 404.

Every hostname reaches this one server through `LoopbackTransport`, which sends each request to
127.0.0.1:<port> while keeping its URL and Host header, so 2,000 origins need no DNS and nothing
ever leaves the machine. `server.client()` returns an httpx.AsyncClient wired that way.

The server records every exchange (request, bytes sent, whether the peer went away first) and
counts requests per (host, path), for single-flight and early-stop assertions.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import socket
import struct
import zlib
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

__all__ = [
    "HANGUP",
    "RESET",
    "Connection",
    "Exchange",
    "Handler",
    "LocalServer",
    "LoopbackTransport",
    "Pause",
    "Request",
    "Validators",
    "WaitFor",
    "big_body",
    "bomb",
    "conditional",
    "delayed",
    "drip",
    "dynamic",
    "endless_chunked",
    "gated",
    "gzip_bomb",
    "redirect",
    "respond",
    "script",
]

LOOPBACK = "127.0.0.1"
_MAX_HEAD = 64 * 1024  # request head larger than this gets 431
_BACKLOG = 4096  # thousands of origins may connect at once; the default 100 drops some
_WRITE_PIECE = 16 * 1024  # big bodies are written in pieces of this size, each drained
_SMALL_SNDBUF = 32 * 1024  # kernel send buffer for big bodies, so "bytes sent" tracks reading
BOMB_DECODED_SIZE = 256 * 1024 * 1024  # what the bombs expand to: far beyond "a few MiB"
_ZEROS = bytes(1024 * 1024)
_REASONS = {
    200: "OK", 204: "No Content", 206: "Partial Content", 300: "Multiple Choices",
    301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
    307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request",
    401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 410: "Gone",
    429: "Too Many Requests", 431: "Request Header Fields Too Large",
    500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable",
}  # fmt: skip

HeaderItems = Mapping[str, str] | Iterable[tuple[str, str]]


@dataclass(frozen=True)
class Request:
    """One parsed request head: Host without its port, lower-cased; header names lower-cased."""

    method: str
    target: str
    host: str
    headers: tuple[tuple[str, str], ...]

    @property
    def path(self) -> str:
        """Return the target without its query."""
        return self.target.partition("?")[0]

    def header(self, name: str) -> str | None:
        """Return the first value of header `name`, or None."""
        wanted = name.lower()
        return next((value for key, value in self.headers if key == wanted), None)


@dataclass
class Exchange:
    """What happened to one request: bytes the server got out, and whether the peer left first."""

    request: Request
    bytes_sent: int = 0
    peer_closed: bool = False  # the server saw the peer go away while it still had bytes to send
    done: asyncio.Event = field(default_factory=asyncio.Event)  # set when the handler returned

    async def wait_done(self, bound: float = 10.0) -> None:
        """Wait for the handler to return (`bound` only guards against a hung test)."""
        await asyncio.wait_for(self.done.wait(), bound)


class Connection:
    """The server side of one TCP connection, as a handler sees it."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.keep_alive = True  # handlers that break the framing set this to False
        self.exchange: Exchange | None = None

    @property
    def peer_closed(self) -> bool:
        return self.exchange is not None and self.exchange.peer_closed

    async def send(self, data: bytes) -> bool:
        """Write and drain `data`; return False (and remember it) once the peer has gone."""
        exchange = self.exchange
        assert exchange is not None
        if exchange.peer_closed or self.writer.is_closing():
            exchange.peer_closed = True
            return False
        try:
            self.writer.write(data)
            await self.writer.drain()
        except (ConnectionError, OSError):
            exchange.peer_closed = True
            return False
        exchange.bytes_sent += len(data)
        return True

    def shrink_send_buffer(self, size: int = _SMALL_SNDBUF) -> None:
        """Keep the kernel and asyncio buffers small, so bytes sent follow what the peer reads."""
        sock = self.writer.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)
        self.writer.transport.set_write_buffer_limits(high=size)

    def reset(self) -> None:
        """Abort the connection with a TCP RST (SO_LINGER 0), like a crashed server."""
        sock = self.writer.get_extra_info("socket")
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.keep_alive = False
        self.writer.transport.abort()

    async def hang_up(self) -> None:
        """Close the connection with a FIN, whatever the framing promised."""
        self.keep_alive = False
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.drain()
        self.writer.close()


Handler = Callable[[Request, Connection], Awaitable[None]]


class LocalServer:
    """An HTTP/1.1 server on 127.0.0.1:<free port>, routed by (Host, path); use `async with`."""

    def __init__(self) -> None:
        self._routes: dict[tuple[str | None, str | None], Handler] = {}
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.exchanges: list[Exchange] = []
        self.hits: Counter[tuple[str, str]] = Counter()  # requests per (host, path)
        self.errors: list[BaseException] = []  # handler crashes, re-raised on exit
        self.port = 0

    async def __aenter__(self) -> LocalServer:
        self._server = await asyncio.start_server(
            self._serve, LOOPBACK, 0, limit=_MAX_HEAD, backlog=_BACKLOG
        )
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._server.wait_closed()
        if self.errors and exc[0] is None:
            raise self.errors[0]

    def route(self, handler: Handler, *, host: str | None = None, path: str | None = None) -> None:
        """Serve `handler` for this Host (port ignored) and path; None matches any."""
        self._routes[(host.lower() if host else None, path)] = handler

    def url(self, path: str = "/robots.txt", host: str = LOOPBACK) -> str:
        """Return an http URL to this server; through LoopbackTransport any `host` works."""
        return f"http://{host}:{self.port}{path}" if host == LOOPBACK else f"http://{host}{path}"

    def client(self, **kwargs: Any) -> httpx.AsyncClient:
        """Return an AsyncClient that sends every host to this server (LoopbackTransport)."""
        transport = LoopbackTransport(self.port, **kwargs.pop("transport_options", {}))
        return httpx.AsyncClient(transport=transport, **kwargs)

    def exchanges_for(self, host: str, path: str = "/robots.txt") -> list[Exchange]:
        """Return the exchanges for one (Host, path), oldest first."""
        return [e for e in self.exchanges if e.request.host == host and e.request.path == path]

    def _handler_for(self, request: Request) -> Handler:
        routes = self._routes
        for key in ((request.host, request.path), (request.host, None), (None, request.path)):
            if key in routes:
                return routes[key]
        return routes.get((None, None), respond(404, b"not routed\n"))

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        connection = Connection(reader, writer)
        try:
            while connection.keep_alive:
                request = await _read_head(reader)
                if request is None:
                    break
                if isinstance(request, int):  # not HTTP (a TLS hello, garbage): answer and close
                    writer.write(_head(request, {"content-length": "0", "connection": "close"}))
                    break
                exchange = Exchange(request)
                self.exchanges.append(exchange)
                self.hits[(request.host, request.path)] += 1
                connection.exchange = exchange
                if (request.header("connection") or "").lower() == "close":
                    connection.keep_alive = False
                try:
                    await self._handler_for(request)(request, connection)
                except (ConnectionError, OSError):
                    exchange.peer_closed = True
                    break
                except Exception as error:  # a broken handler fails the test on exit
                    self.errors.append(error)
                    break
                finally:
                    exchange.done.set()
        except asyncio.CancelledError:
            pass
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError, OSError, asyncio.CancelledError):
                await writer.wait_closed()
            self._tasks.discard(task)


async def _read_head(reader: asyncio.StreamReader) -> Request | int | None:
    """Read one request head; None at a clean EOF, a status code when it is not HTTP."""
    try:
        first = await reader.readexactly(1)
        if not first.isalpha():  # a TLS hello (0x16) or other binary: not HTTP/1.1
            return 400
        raw = first + await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError:
        return None
    except asyncio.LimitOverrunError:
        return 431
    except (ConnectionError, OSError):
        return None
    lines = raw.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
        return 400
    headers = []
    for line in lines[1:]:
        if line:
            name, _, value = line.partition(":")
            headers.append((name.strip().lower(), value.strip()))
    host = next((value for name, value in headers if name == "host"), "")
    host = host[: host.find("]") + 1] if host.startswith("[") else host.partition(":")[0]
    length_text = next((value for name, value in headers if name == "content-length"), "0")
    if not length_text.isdigit():
        return 400
    length = int(length_text)
    if length:
        await reader.readexactly(length)
    return Request(parts[0], parts[1], host.lower(), tuple(headers))


def _head(status: int, headers: HeaderItems = (), reason: str | None = None) -> bytes:
    """Return a response head: status line, headers, blank line."""
    items = headers.items() if isinstance(headers, Mapping) else headers
    lines = [f"HTTP/1.1 {status} {reason if reason is not None else _REASONS.get(status, 'Other')}"]
    lines += [f"{name}: {value}" for name, value in items]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def _has(headers: HeaderItems, name: str) -> bool:
    items = headers.items() if isinstance(headers, Mapping) else headers
    return any(key.lower() == name for key, _ in items)


# --- handler factories ------------------------------------------------------------------------


def respond(
    status: int = 200,
    body: bytes | str = b"",
    *,
    headers: HeaderItems = (),
    reason: str | None = None,
) -> Handler:
    """A well-formed response with a Content-Length (unless `headers` frame it otherwise)."""
    data = body.encode() if isinstance(body, str) else body
    items = list(headers.items() if isinstance(headers, Mapping) else headers)
    if not _has(items, "content-length") and not _has(items, "transfer-encoding"):
        items.append(("content-length", str(len(data))))

    async def handler(request: Request, connection: Connection) -> None:
        await connection.send(_head(status, items, reason) + data)

    return handler


def redirect(location: str | None, status: int = 301) -> Handler:
    """A redirect to `location` (None: no Location header at all)."""
    headers = [] if location is None else [("location", location)]
    return respond(status, b"", headers=headers)


@dataclass(frozen=True)
class Pause:
    """A script step: wait this long (server-side pacing, never a test's timing assertion)."""

    seconds: float


@dataclass(frozen=True)
class WaitFor:
    """A script step: wait until the test sets this event."""

    event: asyncio.Event


RESET = "reset"  # script step: abort with a TCP RST
HANGUP = "hangup"  # script step: close with a FIN

Step = bytes | Pause | WaitFor | str


def script(*steps: Step) -> Handler:
    """Write bytes, pause, wait, reset or hang up, in order; then hang up (no keep-alive)."""

    async def handler(request: Request, connection: Connection) -> None:
        connection.keep_alive = False
        for step in steps:
            if isinstance(step, bytes):
                if not await connection.send(step):
                    return
            elif isinstance(step, Pause):
                await asyncio.sleep(step.seconds)
            elif isinstance(step, WaitFor):
                await step.event.wait()
            elif step == RESET:
                connection.reset()
                return
            elif step == HANGUP:
                await connection.hang_up()
                return
            else:
                raise ValueError(f"unknown script step {step!r}")
        await connection.hang_up()

    return handler


def drip(head: bytes, interval: float, byte: bytes = b"#") -> Handler:
    """Send `head`, then one byte every `interval` seconds until the peer leaves."""

    async def handler(request: Request, connection: Connection) -> None:
        connection.keep_alive = False
        if not await connection.send(head):
            return
        while True:
            await asyncio.sleep(interval)
            if not await connection.send(byte):
                return

    return handler


def big_body(size: int, *, headers: HeaderItems = (), fill: bytes = b"Allow: /x\n") -> Handler:
    """A 200 with a Content-Length of `size`, written in drained 16 KiB pieces over small buffers.

    `Exchange.bytes_sent` then tells how much the client really took before it hung up.
    """
    piece = (fill * (_WRITE_PIECE // len(fill) + 1))[:_WRITE_PIECE]
    items = [*list(headers.items() if isinstance(headers, Mapping) else headers)]
    items.append(("content-length", str(size)))

    async def handler(request: Request, connection: Connection) -> None:
        connection.shrink_send_buffer()
        if not await connection.send(_head(200, items)):
            return
        left = size
        while left > 0:
            if not await connection.send(piece[: min(left, len(piece))]):
                return
            left -= len(piece)

    return handler


def endless_chunked(chunk: bytes = b"Disallow: /endless\n" * 100) -> Handler:
    """A 200 with Transfer-Encoding: chunked whose chunks never end."""
    framed = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"

    async def handler(request: Request, connection: Connection) -> None:
        connection.shrink_send_buffer()
        head = _head(200, [("transfer-encoding", "chunked")])
        if not await connection.send(head):
            return
        while await connection.send(framed):
            pass

    return handler


@functools.cache
def bomb(coding: str) -> bytes:
    """Return BOMB_DECODED_SIZE zero bytes in `coding` (gzip, deflate, raw-deflate, br), cached.

    One 1 MiB deflate segment ending in a full flush is repeated (valid deflate, as a full flush
    leaves the stream byte-aligned with no back-references across it), then wrapped as gzip
    (RFC 1952) or zlib (RFC 1950): a 256 MiB bomb in about 260 KB, built in a blink.
    """
    copies = BOMB_DECODED_SIZE // len(_ZEROS)
    if coding == "br":
        import brotli

        compressor = brotli.Compressor(quality=0)
        parts = [compressor.process(_ZEROS) for _ in range(copies)]
        return bytes(b"".join(parts) + compressor.finish())
    compressor = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    segment = compressor.compress(_ZEROS) + compressor.flush(zlib.Z_FULL_FLUSH)
    raw = segment * copies + compressor.flush(zlib.Z_FINISH)
    if coding == "raw-deflate":
        return raw
    if coding == "deflate":
        adler = 1
        for _ in range(copies):
            adler = zlib.adler32(_ZEROS, adler)
        return b"\x78\xda" + raw + struct.pack(">I", adler)
    if coding == "gzip":
        crc = 0
        for _ in range(copies):
            crc = zlib.crc32(_ZEROS, crc)
        header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"
        return header + raw + struct.pack("<II", crc, BOMB_DECODED_SIZE & 0xFFFFFFFF)
    raise ValueError(f"no bomb for coding {coding!r}")


def gzip_bomb(coding: str = "gzip") -> Handler:
    """A 200 whose small body decodes to BOMB_DECODED_SIZE bytes (see `bomb`)."""
    label = "deflate" if coding == "raw-deflate" else coding
    return respond(200, bomb(coding), headers=[("content-encoding", label)])


def gated(event: asyncio.Event, then: Handler) -> Handler:
    """Hold the answer until the test sets `event`, then run `then` (single-flight tests)."""

    async def handler(request: Request, connection: Connection) -> None:
        await event.wait()
        await then(request, connection)

    return handler


def delayed(seconds: float, then: Handler) -> Handler:
    """Answer with `then` after `seconds` (server-side pacing for deadline tests)."""

    async def handler(request: Request, connection: Connection) -> None:
        await asyncio.sleep(seconds)
        await then(request, connection)

    return handler


def dynamic(choose: Callable[[Request], Handler]) -> Handler:
    """Pick the handler per request, e.g. a body naming the Host for 2,000 origins."""

    async def handler(request: Request, connection: Connection) -> None:
        await choose(request)(request, connection)

    return handler


@dataclass
class Validators:
    """What `conditional` serves: the body and its caching headers; change them between fetches."""

    body: bytes = b"User-agent: *\nDisallow: /private\n"
    etag: str | None = None
    last_modified: str | None = None
    cache_control: str | None = None
    extra: list[tuple[str, str]] = field(default_factory=list)
    not_modified: int = 0  # 304s sent so far


def conditional(validators: Validators) -> Handler:
    """A 200 with ETag/Last-Modified/Cache-Control from `validators`; 304 when they match.

    For revalidation tests (issue 7): the test may edit `validators` between requests.
    """

    async def handler(request: Request, connection: Connection) -> None:
        headers = list(validators.extra)
        for name, value in (
            ("etag", validators.etag),
            ("last-modified", validators.last_modified),
            ("cache-control", validators.cache_control),
        ):
            if value is not None:
                headers.append((name, value))
        tags = [tag.strip() for tag in (request.header("if-none-match") or "").split(",")]
        since = request.header("if-modified-since")
        if (validators.etag is not None and (validators.etag in tags or "*" in tags)) or (
            since is not None and since == validators.last_modified and not tags[0]
        ):
            validators.not_modified += 1
            await respond(304, b"", headers=headers)(request, connection)
            return
        await respond(200, validators.body, headers=headers)(request, connection)

    return handler


# --- the client side ----------------------------------------------------------------------------


class LoopbackTransport(httpx.AsyncBaseTransport):
    """Send every request to 127.0.0.1:`port`, keeping its URL and Host header: no DNS, ever.

    https URLs are served over plain HTTP too (tests have no TLS), unless `https_as_http=False`,
    which makes them fail to connect. Other keyword arguments go to httpx.AsyncHTTPTransport.
    By default no connection is kept alive: distinct origins would not share one, and httpcore's
    pool gets slow when hundreds of idle connections all point at the same address.
    """

    def __init__(self, port: int, *, https_as_http: bool = True, **options: Any) -> None:
        self._port = port
        self._https_as_http = https_as_http
        options.setdefault(
            "limits", httpx.Limits(max_connections=None, max_keepalive_connections=0)
        )
        self._inner = httpx.AsyncHTTPTransport(**options)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.scheme == "https" and not self._https_as_http:
            raise httpx.ConnectError("LoopbackTransport: no TLS here", request=request)
        local = httpx.Request(
            request.method,
            request.url.copy_with(scheme="http", host=LOOPBACK, port=self._port),
            headers=request.headers,  # Host: the original host, set when the request was built
            stream=request.stream,
            extensions=request.extensions,
        )
        return await self._inner.handle_async_request(local)

    async def aclose(self) -> None:
        await self._inner.aclose()
