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

from ._exceptions import InvalidURL

__all__ = ["normalize_path", "normalize_pattern", "path_of"]

_HEX = frozenset(b"0123456789abcdefABCDEF")
_UNRESERVED = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
# Kept literally on both sides: unreserved, sub-delims but * and $, and the gen-delims a path
# or query may hold. Everything else ASCII is escaped.
_LITERAL = _UNRESERVED | frozenset(b"!&'()+,;=:@/?[]")
_QUERY_DECODED = frozenset(b":/?@")  # equal to their escapes in the query (figure 4)
_PLAIN_URL = re.compile(r"[A-Za-z0-9\-._~!&'()+,;=:@/?\[\]]*\Z")
_AUTHORITY_END = re.compile(r"[/?#]")
_PLAIN_PATTERN = re.compile(r"[A-Za-z0-9\-._~!&'()+,;=:@/?\[\]*]*\$?\Z")


def _normalize(text: str, pattern: bool) -> str:
    data = text.encode("utf-8", "surrogateescape")
    out: list[str] = []
    append = out.append
    in_query = False
    i = 0
    n = len(data)
    while i < n:
        c = data[i]
        if c == 0x25:  # '%'
            if i + 2 < n and data[i + 1] in _HEX and data[i + 2] in _HEX:
                v = int(data[i + 1 : i + 3], 16)
                if v in _UNRESERVED or (in_query and v in _QUERY_DECODED):
                    append(chr(v))
                else:
                    append("%" + data[i + 1 : i + 3].decode("ascii").upper())
                i += 3
                continue
            append("%25")  # a lone '%' is not an escape: encode it so both sides agree
        elif c in _LITERAL:
            if c == 0x3F:  # '?'
                in_query = True
            append(chr(c))
        elif pattern and c == 0x2A:  # '*' is always a wildcard in a pattern
            append("*")
        elif pattern and c == 0x24 and i == n - 1:  # '$' anchors only at the very end (D6)
            append("$")
        else:
            append(f"%{c:02X}")
        i += 1
    return "".join(out)


def normalize_path(path: str) -> str:
    """Return a URL's path+query in the normal form (D7); a fast no-op for plain ASCII."""
    if _PLAIN_URL.match(path):
        return path
    return _normalize(path, False)


def normalize_pattern(pattern: str) -> str:
    """Return an allow/disallow pattern in the normal form (D7), wildcards kept."""
    if _PLAIN_PATTERN.match(pattern):
        return pattern
    return _normalize(pattern, True)


def path_of(url: str) -> str:
    """Return the path, params and query of `url` (an http(s) URL or a path); no fragment.

    Raises InvalidURL for anything that is neither an absolute http(s) URL nor a path (D17).
    """
    if not isinstance(url, str):
        raise InvalidURL(f"URL must be a str, not {type(url).__name__}", url=url)
    if url[:1] == "/" and url[:2] != "//":
        rest = url
    elif not url:
        return "/"
    else:
        if url[:2] == "//":
            after = 2
        else:
            sep = url.find("://")
            scheme = url[:sep].lower() if sep > 0 else ""
            if scheme not in ("http", "https"):
                raise InvalidURL(
                    f"expected an absolute http(s) URL or a path starting with '/', got {url!r}",
                    url=url,
                )
            after = sep + 3
        match = _AUTHORITY_END.search(url, after)
        if match is None:
            return "/"
        rest = url[match.start() :]
        if rest[0] != "/":
            rest = "/" + rest
    hash_at = rest.find("#")
    if hash_at >= 0:
        rest = rest[:hash_at]
        if not rest or rest[0] != "/":
            rest = "/" + rest
    return rest
