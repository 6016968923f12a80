"""Paths in one normal form, so patterns and URLs compare octet for octet (DECISIONS D7).

The normal form (RFC 9309 sections 2.2.2 and 2.2.3):
- non-ASCII octets and ASCII octets outside the URI character set are percent-encoded (UTF-8);
- escapes of unreserved characters (A-Z a-z 0-9 - . _ ~) are decoded, every other escape is
  kept with uppercase hex, so `/a%2fb` stays apart from `/a/b` while `/%7Ea` equals `/~a`;
- in the query, `:` `/` `?` `@` equal their escapes (figure 4), so those escapes are decoded;
- in a URL, a literal `*` or `$` becomes `%2A` / `%24`, which is how a pattern names them
  (figure 6); in a pattern `*` is always a wildcard and `$` anchors the end when it is last.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ._exceptions import InvalidURL
from ._parser import encode_utf8

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "PLAIN_PATH",
    "PLAIN_PATTERN",
    "ROBOTS_TXT",
    "is_robots_txt",
    "normalize_path",
    "normalize_pattern",
    "path_of",
]

_UNRESERVED = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
# Kept literally on both sides: unreserved, sub-delims but * and $, and the gen-delims a path
# or query may hold. Everything else ASCII is escaped.
_LITERAL = _UNRESERVED | frozenset(b"!&'()+,;=:@/?[]")
_QUERY_DECODED = frozenset(b":/?@")  # equal to their escapes in the query (figure 4)
PLAIN_PATH = re.compile(r"[A-Za-z0-9\-._~!&'()+,;=:@/?\[\]]*\Z")
_ABSOLUTE = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*:)//[^/?#]*([^#]*)")
_SCHEMES = frozenset({"http:", "https:", "HTTP:", "HTTPS:"})
PLAIN_PATTERN = re.compile(r"[A-Za-z0-9\-._~!&'()+,;=:@/?\[\]*]*\$?\Z")


# An escape, a lone '%', or a run of octets that need escaping ('%' never starts such a run).
_SPECIAL = re.compile(rb"%[0-9A-Fa-f]{2}|%|[^A-Za-z0-9\-._~!&'()+,;=:@/?\[\]%]+")
_ESCAPE = [f"%{octet:02X}" for octet in range(256)]


def _normalize(text: str, pattern: bool) -> str:
    """Rewrite `text` in the normal form; only the octets that need it reach Python code."""
    data = encode_utf8(text)
    query_at = data.find(b"?")
    if query_at < 0:
        return _SPECIAL.sub(_replacer(False, pattern, len(data)), data).decode("ascii")
    head = _SPECIAL.sub(_replacer(False, pattern, -1), data[:query_at])
    tail = _SPECIAL.sub(_replacer(True, pattern, len(data) - query_at), data[query_at:])
    return (head + tail).decode("ascii")


def _replacer(in_query: bool, pattern: bool, end: int) -> Callable[[re.Match[bytes]], bytes]:
    """Return the substitution for one run of special octets; `end` is where `$` may anchor."""

    def replace(match: re.Match[bytes]) -> bytes:
        run = match.group()
        if run[0] == 0x25 and len(run) == 3:  # '%XX': decode unreserved, keep the rest uppercase
            value = int(run[1:], 16)
            if value in _UNRESERVED or (in_query and value in _QUERY_DECODED):
                return bytes((value,))
            return run.upper()
        escaped = []
        last = len(run) - 1
        for index, octet in enumerate(run):
            if pattern and (
                octet == 0x2A or (octet == 0x24 and index == last and match.end() == end)
            ):
                escaped.append(chr(octet))  # `*` always, `$` at the very end: pattern syntax (D6)
            else:
                escaped.append(_ESCAPE[octet])
        return "".join(escaped).encode("ascii")

    return replace


ROBOTS_TXT = "/robots.txt"


def is_robots_txt(path: str) -> bool:
    """Return True for the robots.txt file itself (a normalised path), always allowed (D5)."""
    return path[:11] == ROBOTS_TXT and (len(path) == 11 or path[11] == "?")


def normalize_path(path: str) -> str:
    """Return a URL's path+query in the normal form (D7); a fast no-op for plain ASCII."""
    if PLAIN_PATH.match(path):
        return path
    return _normalize(path, False)


def normalize_pattern(pattern: str) -> str:
    """Return an allow/disallow pattern in the normal form (D7), wildcards kept."""
    if PLAIN_PATTERN.match(pattern):
        return pattern
    return _normalize(pattern, True)


def path_of(url: str) -> str:
    """Return the path, params and query of `url` (an http(s) URL or a path); no fragment.

    Raises InvalidURL for anything that is neither an absolute http(s) URL nor a path (D17).
    """
    if not isinstance(url, str):
        raise InvalidURL(f"URL must be a str, not {type(url).__name__}", url=url)
    if url[:1] == "/":  # a path, even "//a/b" (double slashes are real paths, not authorities)
        hash_at = url.find("#")
        return url if hash_at < 0 else url[:hash_at]
    match = _ABSOLUTE.match(url)
    if match is None or (match.group(1) not in _SCHEMES and match.group(1).lower() not in _SCHEMES):
        raise InvalidURL(
            f"expected an absolute http(s) URL or a path starting with '/', got {url!r}", url=url
        )
    rest = match.group(2)
    if not rest:
        return "/"
    return rest if rest[0] == "/" else "/" + rest
