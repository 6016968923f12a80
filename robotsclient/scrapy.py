"""Scrapy robots.txt parser backend built on robotsclient's parser.

Enable it in a project's settings::

    ROBOTSTXT_OBEY = True
    ROBOTSTXT_PARSER = "robotsclient.scrapy.RobotsClientParser"
    ROBOTSTXT_USER_AGENT = "ExampleBot"  # the product token to match (DECISIONS D4)

Scrapy passes ROBOTSTXT_USER_AGENT, when set, as the agent to match; otherwise the request's
User-Agent header, whose product token is its leading [A-Za-z_-] run (`Mozilla` for a
browser-like header), so set ROBOTSTXT_USER_AGENT when the header is browser-like.
Scrapy itself is not imported here: the class follows Scrapy's parser interface by shape.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._exceptions import InvalidArgument
from ._robots import RobotsTxt, parse, product_token

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = ["RobotsClientParser"]


def _text(value: str | bytes) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else value


def _agent(user_agent: str | bytes) -> str:
    """Return the agent to match; one with no product token follows the `*` groups (D4)."""
    text = _text(user_agent)
    try:
        product_token(text)
    except InvalidArgument:
        return "*"
    return text


class RobotsClientParser:
    """Scrapy `ROBOTSTXT_PARSER` backend: `from_crawler(crawler, body)`, `allowed(url, agent)`."""

    def __init__(self, robotstxt_body: bytes, spider: Any = None) -> None:
        self.spider = spider
        self.robots: RobotsTxt = parse(robotstxt_body)

    @classmethod
    def from_crawler(cls, crawler: Any, robotstxt_body: bytes) -> Self:
        """Parse the body Scrapy fetched (bytes, any encoding: never raises on content, D1)."""
        spider = getattr(crawler, "spider", None) if crawler else None
        return cls(robotstxt_body, spider)

    def allowed(self, url: str | bytes, user_agent: str | bytes) -> bool:
        """Return True if `user_agent` may fetch `url`; a URL that is not http(s) is allowed."""
        try:
            return self.robots.can_fetch(_text(url), _agent(user_agent))
        except InvalidArgument:
            return True  # robots.txt governs http(s) only; Scrapy asks for data:, file: and so on

    def crawl_delay(self, user_agent: str | bytes) -> float | None:
        """Return the Crawl-delay for `user_agent` in seconds, or None (D9)."""
        return self.robots.crawl_delay(_agent(user_agent))
