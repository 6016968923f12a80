"""Line scanner: robots.txt bytes in, one handler call per meaningful line out (no I/O).

Rules of this module (DECISIONS D1, D2):
- UTF-8, a leading BOM ignored, lines end at CR, LF or CRLF; invalid bytes are kept as
  surrogate escapes so a line keeps what it can.
- Only the first 512,000 bytes are read; a line cut by that limit is dropped.
- `#` starts a comment anywhere; keys are case-insensitive; surrounding spaces and tabs ignored.
- Known misspellings and a missing colon are accepted unless `strict` (RFC 9309 keys only).
- Lines that are not `key: value` are skipped and reported, never an error.
Consumers (the rules builder, the linter) implement ParseHandler; every call carries the line.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Protocol

from ._exceptions import InvalidArgument
from ._lint import Finding, Problem

__all__ = [
    "MAX_BODY_BYTES",
    "MAX_LINE_BYTES",
    "Key",
    "ParseHandler",
    "ScanInfo",
    "encode_utf8",
    "scan",
]

MAX_BODY_BYTES = 512_000  # Google parses the first 500 KiB only (spec "File format", D1)
MAX_LINE_BYTES = 2083 * 8 - 1  # Google's parser keeps this much of one line (robots.cc kMaxLineLen)
_BOMS = (b"\xef\xbb\xbf", b"\xef\xbb", b"\xef")
_LINE_CHECK_CHARS = MAX_LINE_BYTES // 4  # below this many characters a line cannot be too long
_WHITESPACE = " \t\v\f"
_SPLIT_WS = re.compile(r"[ \t]+")


class Key(enum.Enum):
    """The keys robots.txt lines are sorted into."""

    USER_AGENT = "user-agent"
    ALLOW = "allow"
    DISALLOW = "disallow"
    SITEMAP = "sitemap"
    CRAWL_DELAY = "crawl-delay"
    REQUEST_RATE = "request-rate"


_KEYS: dict[str, Key] = {key.value: key for key in Key}
# The spellings most files use, found without stripping or lower-casing (a parse-speed shortcut).
_EXACT_KEYS: dict[str, Key] = {
    spelling: key
    for key in (Key.USER_AGENT, Key.ALLOW, Key.DISALLOW, Key.SITEMAP)
    for spelling in {key.value, key.value.capitalize(), key.value.title(), key.value.upper()}
}

# Misspellings Google's parser and crawler accept (D2); refused with strict=True.
_TYPOS: dict[str, Key] = {
    "useragent": Key.USER_AGENT,
    "user agent": Key.USER_AGENT,
    "dissallow": Key.DISALLOW,
    "disalow": Key.DISALLOW,
    "diasllow": Key.DISALLOW,
    "disallaw": Key.DISALLOW,
    "dissalow": Key.DISALLOW,
    "site-map": Key.SITEMAP,
    "crawldelay": Key.CRAWL_DELAY,
    "crawl delay": Key.CRAWL_DELAY,
    "requestrate": Key.REQUEST_RATE,
    "request rate": Key.REQUEST_RATE,
}


class ParseHandler(Protocol):
    """Receives one call per meaningful line; `line` is 1-based."""

    def user_agent(self, line: int, value: str) -> None: ...

    def rule(self, line: int, allow: bool, value: str) -> None: ...

    def sitemap(self, line: int, value: str) -> None: ...

    def extension(self, line: int, key: Key, value: str) -> None: ...

    def unknown(self, line: int, key: str, value: str) -> None: ...

    def finding(self, finding: Finding) -> None: ...


@dataclass(frozen=True, slots=True)
class ScanInfo:
    """What the scan saw of the file as a whole."""

    size: int  # bytes read (at most MAX_BODY_BYTES)
    truncated: bool  # the 512,000-byte cut applied
    lines: int


def _cut(data: bytes) -> tuple[bytes, bool]:
    """Keep the first MAX_BODY_BYTES bytes, dropping a line the limit cuts in two (D1)."""
    if len(data) <= MAX_BODY_BYTES:
        return data, False
    head = data[:MAX_BODY_BYTES]
    if data[MAX_BODY_BYTES] in b"\r\n":
        return head, True
    end = max(head.rfind(b"\n"), head.rfind(b"\r"))
    return head[: end + 1], True


def _to_bytes(body: bytes | bytearray | memoryview | str) -> bytes:
    if isinstance(body, str):
        return encode_utf8(body)
    if not isinstance(body, (bytes, bytearray, memoryview)):
        raise InvalidArgument(f"a robots.txt body is bytes or str, not {type(body).__name__}")
    return bytes(body)


def encode_utf8(text: str) -> bytes:
    """Encode `text` as UTF-8, keeping escaped bytes and lone surrogates instead of raising."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a lone surrogate outside U+DC80..U+DCFF: keep its bytes
        return text.encode("utf-8", "surrogatepass")


def scan(
    body: bytes | bytearray | memoryview | str, handler: ParseHandler, *, strict: bool = False
) -> ScanInfo:
    """Split `body` into lines and call `handler` for each (D1, D2); never raises on content."""
    data, truncated = _cut(_to_bytes(body))
    size = len(data)
    for bom in _BOMS:  # a whole BOM, or the start of one, as Google's parser skips (D1)
        if data.startswith(bom):
            data = data[len(bom) :]
            break
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("utf-8", "surrogateescape")
        _report_invalid_utf8(text, handler)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    count = text.count("\n") + 1
    if truncated:
        handler.finding(Finding.of(Problem.SIZE_CUT, count))
    keys = _KEYS
    fast_keys = _EXACT_KEYS
    ua_key, allow_key, disallow_key = Key.USER_AGENT, Key.ALLOW, Key.DISALLOW
    rule = handler.rule
    space = _WHITESPACE
    number = 0
    for line in text.split("\n"):
        number += 1
        if not line:
            continue
        if len(line) > _LINE_CHECK_CHARS:
            line = _clip_long_line(line, number, handler)
        hash_at = line.find("#")
        if hash_at >= 0:
            line = line[:hash_at]
        name, colon, value = line.partition(":")
        if not colon:
            if line.strip(space):
                _scan_line(line, number, handler, strict)  # no colon: typo or junk
            continue
        value = value.strip(space)
        key = fast_keys.get(name)
        if key is None:
            name = name.strip(space).lower()
            key = keys.get(name)
        if key is disallow_key:
            rule(number, False, value)
        elif key is allow_key:
            rule(number, True, value)
        elif key is ua_key:
            handler.user_agent(number, value)
        elif key is not None:
            _emit(handler, number, key, value)
        elif not name or " " in name or "\t" in name:
            _scan_line(line, number, handler, strict)  # "user agent: x", or junk
        else:
            _dispatch(handler, number, name, value, strict)
    return ScanInfo(size=size, truncated=truncated, lines=count)


def _scan_line(line: str, number: int, handler: ParseHandler, strict: bool) -> None:
    """Handle a comment-free line the fast loop did not take: odd keys, missing colon, junk."""
    line = line.strip(_WHITESPACE)
    if not line:
        return
    colon = line.find(":")
    if colon > 0:
        name = line[:colon].strip(_WHITESPACE).lower()
        value = line[colon + 1 :].strip(_WHITESPACE)
    else:
        parts: list[str] = _SPLIT_WS.split(line) if colon < 0 else []
        known = len(parts) == 2 and (parts[0].lower() in _KEYS or parts[0].lower() in _TYPOS)
        if not known:  # only a known key may lose its colon: "<!DOCTYPE html>" is junk
            handler.finding(Finding.of(Problem.JUNK_LINE, number))
            return
        if strict:
            handler.finding(Finding.of(Problem.MISSING_COLON_REJECTED, number))
            return
        handler.finding(Finding.of(Problem.MISSING_COLON, number))
        name, value = parts[0].lower(), parts[1]
    if not name or (_SPLIT_WS.search(name) and name not in _TYPOS):
        handler.finding(Finding.of(Problem.JUNK_LINE, number))
        return
    _dispatch(handler, number, name, value, strict)


def _dispatch(handler: ParseHandler, number: int, name: str, value: str, strict: bool) -> None:
    """Send a `name: value` line (name lower-cased) to the handler, resolving misspellings (D2)."""
    key = _KEYS.get(name)
    if key is None:
        key = _TYPOS.get(name)
        if key is None:
            handler.unknown(number, name, value)
            return
        if strict:
            handler.finding(Finding.of(Problem.TYPO_REJECTED, number))
            return
        handler.finding(Finding.of(Problem.TYPO_KEY, number, key.value))
    _emit(handler, number, key, value)


def _emit(handler: ParseHandler, number: int, key: Key, value: str) -> None:
    """Call the handler method for `key`."""
    if key is Key.DISALLOW:
        handler.rule(number, False, value)
    elif key is Key.ALLOW:
        handler.rule(number, True, value)
    elif key is Key.USER_AGENT:
        handler.user_agent(number, value)
    elif key is Key.SITEMAP:
        handler.sitemap(number, value)
    else:
        handler.extension(number, key, value)


def _clip_long_line(line: str, number: int, handler: ParseHandler) -> str:
    """Cut a line to MAX_LINE_BYTES bytes, as Google's parser does."""
    encoded = encode_utf8(line)
    if len(encoded) <= MAX_LINE_BYTES:
        return line
    handler.finding(Finding.of(Problem.LINE_TOO_LONG, number, MAX_LINE_BYTES))
    return encoded[:MAX_LINE_BYTES].decode("utf-8", "surrogateescape")


def _report_invalid_utf8(text: str, handler: ParseHandler) -> None:
    """Report each line holding bytes that are not UTF-8 (they were kept as escapes)."""
    normalised = text.replace("\r\n", "\n").replace("\r", "\n")
    for number, line in enumerate(normalised.split("\n"), 1):
        if any("\udc80" <= ch <= "\udcff" for ch in line):
            handler.finding(Finding.of(Problem.INVALID_UTF8, number))
