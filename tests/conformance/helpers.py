"""Shared helper: one verdict for (robots.txt, agent, url)."""

from __future__ import annotations

from robotsclient import parse


def allowed(robotstxt: str | bytes, agent: str, url: str) -> bool:
    """Return the verdict and check that explain() agrees with can_fetch() (D18)."""
    robots = parse(robotstxt)
    verdict = robots.can_fetch(url, agent)
    assert robots.explain(url, agent).allowed is verdict
    return verdict
