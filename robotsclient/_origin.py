"""Origins: the key one robots.txt applies to (DECISIONS D10). Pure: no I/O.

An origin is (scheme, host, port): scheme `http` or `https`, host lower-cased with non-ASCII
names in IDNA/punycode and IPv6 literals kept in brackets, port always explicit with the default
folded (`https://a.com:443` and `https://a.com` are one origin). Userinfo is dropped.

`split_target` is on the client's hot path: one regex split per URL (the same split the parser's
`path_of` makes, so the path it returns is the one the parser would match), then a cached
lookup of the authority; IDNA work happens only for hosts that are not already plain ASCII.
"""

from __future__ import annotations

import functools
import ipaddress
import re
from dataclasses import dataclass, field

from ._exceptions import InvalidURL
from ._paths import ROBOTS_TXT

__all__ = ["DEFAULT_PORTS", "Origin", "origin_of", "split_target"]

DEFAULT_PORTS = {"http": 80, "https": 443}  # D10: the only schemes with a robots.txt here
_MAX_PORT = 65_535
_AUTHORITY_CACHE_SIZE = 16_384  # distinct (scheme, authority) pairs remembered (hot path)

# RFC 3986 appendix B, cut at the fragment: scheme, optional //authority, path+params+query.
_URL = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):(?://([^/?#]*))?([^#]*)")
# A host already in its normal form: lower-case ASCII letters, digits, `-`, `.`, and `_`
# (underscores are not valid in DNS host names but occur in real ones; refusing them helps no one).
_PLAIN_HOST = re.compile(r"[a-z0-9._\-]+\Z")
_PORT = re.compile(r"[0-9]{1,5}\Z")


@dataclass(frozen=True, slots=True)
class Origin:
    """One robots.txt scope (D10): scheme, normalised host and explicit port; build with origin_of.

    The constructor checks the invariants but does not normalise: `origin_of` does that.
    """

    scheme: str
    host: str
    port: int
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.scheme not in DEFAULT_PORTS:
            raise InvalidURL(f"origin scheme must be 'http' or 'https', not {self.scheme!r}")
        if not self.host:
            raise InvalidURL("origin host must not be empty")
        if not 0 < self.port <= _MAX_PORT:
            raise InvalidURL(f"origin port must be in 1..{_MAX_PORT}, not {self.port}")
        # Hashed once: every cached check looks its origin up in a dict (the hot path).
        object.__setattr__(self, "_hash", hash((self.scheme, self.host, self.port)))

    def __hash__(self) -> int:
        return self._hash

    @property
    def netloc(self) -> str:
        """Return `host` or `host:port`, the port shown only when it is not the default (D10)."""
        if self.port == DEFAULT_PORTS[self.scheme]:
            return self.host
        return f"{self.host}:{self.port}"

    @property
    def robots_url(self) -> str:
        """Return the URL of this origin's robots.txt (Google spec, "File location")."""
        return f"{self.scheme}://{self.netloc}{ROBOTS_TXT}"

    def __str__(self) -> str:
        return f"{self.scheme}://{self.netloc}"


def origin_of(url: str) -> Origin:
    """Return the origin of an absolute http(s) URL (D10); raise InvalidURL (D17) otherwise."""
    return split_target(url)[0]


def split_target(url: str) -> tuple[Origin, str]:
    """Return the origin of `url` and its path+params+query (no fragment, "/" when empty).

    One split per URL: the client's hot path. Raises InvalidURL like `origin_of` (D10, D17).
    """
    match = _URL.match(url) if isinstance(url, str) else None
    if match is None:
        if not isinstance(url, str):
            raise InvalidURL(f"URL must be a str, not {type(url).__name__}", url=url)
        raise InvalidURL(
            f"not an absolute URL: {url!r} (expected http://host/... or https://host/...)", url=url
        )
    scheme, authority, target = match.groups()
    try:
        origin = _origin(scheme, authority)
    except InvalidURL as error:
        raise InvalidURL(f"invalid URL {url!r}: {error}", url=url) from None
    if not target:
        return origin, "/"
    if target[0] != "/":  # "http://a.com?q" or "http:..." without "//" (refused above)
        return origin, "/" + target
    return origin, target


@functools.lru_cache(maxsize=_AUTHORITY_CACHE_SIZE)
def _origin(scheme: str, authority: str | None) -> Origin:
    """Return the Origin for a scheme and a raw authority; cached, as few authorities recur."""
    scheme = scheme.lower()
    default_port = DEFAULT_PORTS.get(scheme)
    if default_port is None:
        hint = " (missing 'http://'?)" if authority is None else ""
        raise InvalidURL(
            f"unsupported scheme {scheme!r}{hint}: only http and https URLs have a robots.txt"
        )
    if not authority:
        raise InvalidURL("no host")
    hostport = authority.rpartition("@")[2]  # userinfo dropped (D10)
    if hostport.startswith("["):
        end = hostport.find("]")
        if end < 0:
            raise InvalidURL(f"unclosed IPv6 literal {hostport!r}")
        host = _ipv6_host(hostport[1:end])
        after = hostport[end + 1 :]
        if after and after[0] != ":":
            raise InvalidURL(f"unexpected {after!r} after IPv6 literal")
        port_text = after[1:]
    else:
        host, _, port_text = hostport.partition(":")
        if ":" in port_text:
            raise InvalidURL(f"bad host {hostport!r} (IPv6 addresses go in brackets)")
        if not host:
            raise InvalidURL("no host")
        host = _name_host(host)
    return Origin(scheme, host, _port(port_text, default_port))


def _port(text: str, default: int) -> int:
    """Return the port written in the authority; empty means the scheme's default (RFC 3986)."""
    if not text:
        return default
    if _PORT.match(text) is None or not 0 < int(text) <= _MAX_PORT:
        raise InvalidURL(f"bad port {text!r} (expected 1..{_MAX_PORT})")
    return int(text)


def _ipv6_host(text: str) -> str:
    """Return an IPv6 literal in brackets, compressed and lower-cased (`[0:0::1]` -> `[::1]`)."""
    try:
        address = ipaddress.IPv6Address(text)
    except ValueError:
        raise InvalidURL(f"invalid IPv6 address {text!r}") from None
    return f"[{address.compressed}]"


def _name_host(host: str) -> str:
    """Return a host name lower-cased, non-ASCII names in IDNA/punycode (D10)."""
    if host.isascii():
        lowered = host.lower()
        if _PLAIN_HOST.match(lowered) is None:
            raise InvalidURL(f"invalid character in host {host!r}")
        return lowered
    encoded = _idna(host)
    if _PLAIN_HOST.match(encoded) is None:
        raise InvalidURL(f"invalid host {host!r}")
    return encoded


def _idna(host: str) -> str:
    """Return `host` in punycode: the `idna` package (IDNA 2008, UTS 46), else Python's codec."""
    try:
        import idna  # httpx depends on it; imported only for non-ASCII hosts
    except ImportError:  # pragma: no cover - idna ships with httpx
        pass
    else:
        try:
            return idna.encode(host, uts46=True).decode("ascii")
        except (idna.IDNAError, UnicodeError, ValueError):
            pass  # e.g. symbols IDNA 2008 refuses: fall back to IDNA 2003 below
    try:
        return host.encode("idna").decode("ascii").lower()
    except UnicodeError:
        raise InvalidURL(f"host {host!r} cannot be encoded with IDNA") from None
