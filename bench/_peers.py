"""One adapter per library under test: how it parses a body and answers one check.

Every adapter takes the raw bytes of a robots.txt file, so a peer that needs `str` pays for the
decode inside its parse (Scrapy's convention: UTF-8, undecodable bytes dropped). Google's C++
parser (both bindings) has no parse-once API: its "parsed" form is the text and every check
re-parses the whole file, which is how those bindings are used.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

__all__ = [
    "GOOGLE",
    "REFERENCE",
    "Peer",
    "google_url",
    "load_peers",
    "path_query",
    "product_token",
]

REFERENCE = "protego"  # ratios are against this peer (issue 3)
ROBOTSCLIENT = "robotsclient"
ROBOTSCLIENT_PATH = "robotsclient (path given)"
GOOGLE = ("google (jwm-robotstxt)", "google (fast-robotstxt)")  # jwm wraps google/robotstxt as is

_DECODE_ERRORS = "ignore"  # what Scrapy does before handing a body to protego
_TOKEN = re.compile(r"[A-Za-z_-]*")  # product token: leading run of these (D4)
_SPLIT_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://[^/?#]*([^#]*)")
# Everything printable in ASCII stays; only non-ASCII, space and controls get escaped, which is
# what Google's API asks of its caller ("url must be %-encoded according to RFC3986").
_URL_SAFE = "".join(chr(c) for c in range(0x21, 0x7F))

Parse = Callable[[bytes], Any]
Check = Callable[[Any, str, str], bool]


@dataclass(frozen=True, slots=True)
class Peer:
    """A library under test: its display name, parse and check callables, and notes."""

    name: str
    parse: Parse
    check: Check
    version: str
    note: str = ""
    reparses: bool = False  # True: every check re-parses the file (no parse-once API)
    wants_path: bool = False  # True: check() is given path+query instead of the full URL
    wants_token: bool = False  # True: check() is given the agent's product token, URL escaped


def _decode(raw: bytes) -> str:
    return raw.decode("utf-8", _DECODE_ERRORS)


def path_query(url: str) -> str:
    """Return the path+query of an absolute URL (no fragment), as a crawler already holds it."""
    match = _SPLIT_URL.match(url)
    if match is None:
        return url.split("#", 1)[0]
    rest = match.group(1)
    if not rest:
        return "/"
    return rest if rest.startswith("/") else "/" + rest


def google_url(url: str) -> str:
    """Return `url` %-encoded as Google's API requires of its callers (non-ASCII escaped)."""
    return url if url.isascii() and " " not in url else quote(url, safe=_URL_SAFE)


def product_token(agent: str) -> str:
    """Return the product token Google's API expects (`Googlebot/2.1` -> `Googlebot`).

    An agent with no token (`008`) is passed as it is: Google's matcher compares the caller's
    agent with each file's extracted token, and "" would match `User-agent: 008`.
    """
    match = _TOKEN.match(agent.strip())
    return (match.group() if match else "") or agent


def _version(dist: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return "?"


def _robotsclient() -> list[Peer]:
    from robotsclient import parse

    version = _version("robotsclient")

    def check(robots: Any, url: str, agent: str) -> bool:
        return bool(robots.can_fetch(url, agent))

    return [
        Peer(ROBOTSCLIENT, parse, check, version),
        Peer(
            ROBOTSCLIENT_PATH,
            parse,
            check,
            version,
            note="check given path+query, as a crawler holding a parsed URL would",
            wants_path=True,
        ),
    ]


def _protego() -> list[Peer]:
    from protego import Protego

    def parse(raw: bytes) -> Any:
        return Protego.parse(_decode(raw))

    def check(robots: Any, url: str, agent: str) -> bool:
        return bool(robots.can_fetch(url, agent))

    return [Peer(REFERENCE, parse, check, _version("protego"))]


def _urllib() -> list[Peer]:
    import platform
    from urllib.robotparser import RobotFileParser

    def parse(raw: bytes) -> Any:
        parser = RobotFileParser()
        parser.parse(_decode(raw).splitlines())
        parser.modified()  # can_fetch answers False until a parse time is recorded
        return parser

    def check(robots: Any, url: str, agent: str) -> bool:
        return bool(robots.can_fetch(agent, url))

    return [
        Peer(
            "urllib.robotparser",
            parse,
            check,
            platform.python_version(),
            note="first-match, no wildcards",
        )
    ]


def _robotspy() -> list[Peer]:
    from robots import RobotsParser

    def parse(raw: bytes) -> Any:
        return RobotsParser.from_string(_decode(raw))

    def check(robots: Any, url: str, agent: str) -> bool:
        return bool(robots.can_fetch(agent, url))

    return [Peer("robotspy", parse, check, _version("robotspy"))]


def _jwm() -> list[Peer]:
    from jwm.robotstxt import googlebot

    matcher = googlebot.RobotsMatcher()
    allowed = matcher.OneAgentAllowedByRobots

    def check(text: Any, url: str, agent: str) -> bool:
        return bool(allowed(text, agent, url))

    return [
        Peer(
            "google (jwm-robotstxt)",
            _decode,
            check,
            _version("jwm.robotstxt"),
            note="Google C++ (pybind11); re-parses the file on every check",
            reparses=True,
            wants_token=True,
        )
    ]


def _fast() -> list[Peer]:
    import robotstxt

    matcher = robotstxt.RobotsMatcher()
    allowed = matcher.is_allowed

    def check(text: Any, url: str, agent: str) -> bool:
        return bool(allowed(text, agent, url))

    return [
        Peer(
            "google (fast-robotstxt)",
            _decode,
            check,
            _version("fast-robotstxt"),
            note="Google C++ (ctypes); re-parses the file on every check",
            reparses=True,
            wants_token=True,
        )
    ]


# (module that must import, factory), in table order: robotsclient first, the reference second.
_FACTORIES: tuple[tuple[str, str, Callable[[], list[Peer]]], ...] = (
    (ROBOTSCLIENT, "robotsclient", _robotsclient),
    (REFERENCE, "protego", _protego),
    ("urllib.robotparser", "urllib.robotparser", _urllib),
    ("robotspy", "robots", _robotspy),
    ("google (jwm-robotstxt)", "jwm.robotstxt.googlebot", _jwm),
    ("google (fast-robotstxt)", "robotstxt", _fast),
)


def load_peers(only: set[str] | None = None) -> tuple[list[Peer], dict[str, str]]:
    """Return the peers that import here, and a reason for each one that does not."""
    peers: list[Peer] = []
    missing: dict[str, str] = {}
    for label, module, factory in _FACTORIES:
        if only is not None and label not in only and module not in only:
            continue
        try:
            importlib.import_module(module)
            if module == "robotsclient":
                from robotsclient import parse  # noqa: F401  (the parser may not have landed)
        except Exception as error:  # any import failure means "not installed" here
            missing[label] = f"not installed ({type(error).__name__}: {error})"
            continue
        peers.extend(factory())
    return peers, missing
