"""Events a crawl can watch: a fetch ended, a check was decided, an origin's rules changed.

Each event is a frozen value handed to a callback (`Events(on_fetched=..., ...)`) and logged on
the `robotsclient.events` logger with the same fields in `extra`, so a crawl can alert on a
site that starts returning 5xx or changes its rules. A callback that raises is logged and
ignored: watching a crawl must never break it. Pure: no I/O.
"""

from __future__ import annotations

import inspect
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ._exceptions import InvalidArgument
from ._rules import STAR, agent_token

if TYPE_CHECKING:
    from collections.abc import Callable

    from ._origin import Origin
    from ._outcome import Outcome
    from ._robots import RobotsTxt

__all__ = ["Decided", "Events", "Fetched", "RulesChanged", "rule_changes"]

logger = logging.getLogger("robotsclient.events")


@dataclass(frozen=True, slots=True)
class Fetched:
    """A robots.txt fetch ended (D11): its status (None: network error), outcome and cost."""

    origin: Origin
    url: str
    status: int | None
    outcome: Outcome
    bytes: int
    duration: float
    chain: tuple[str, ...]
    error: str | None
    revalidated: bool  # a 304 renewed the cached copy: no body was downloaded (issue 7)


@dataclass(frozen=True, slots=True)
class Decided:
    """A check was answered: the URL, the verdict and one line saying why (D18)."""

    url: str
    allowed: bool
    reason: str


@dataclass(frozen=True, slots=True)
class RulesChanged:
    """An origin's robots.txt changed: rules added and removed, each as `agents | Kind: pattern`."""

    origin: Origin
    added: tuple[str, ...]
    removed: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Events:
    """Callbacks for the events above; any may be None. They are called synchronously, so a
    coroutine function (which would never be awaited) is refused when built (D17)."""

    on_fetched: Callable[[Fetched], Any] | None = None
    on_decided: Callable[[Decided], Any] | None = None
    on_rules_changed: Callable[[RulesChanged], Any] | None = None

    def __post_init__(self) -> None:
        for name in ("on_fetched", "on_decided", "on_rules_changed"):
            callback = getattr(self, name)
            if callback is None:
                continue
            if not callable(callback):
                raise InvalidArgument(f"Events.{name} must be callable, not {callback!r}")
            if inspect.iscoroutinefunction(callback):
                raise InvalidArgument(
                    f"Events.{name} is called synchronously and cannot be a coroutine function: "
                    "pass a plain function (it may start a task of its own)"
                )


def emit(
    callback: Callable[[Any], Any] | None, event: Fetched | Decided | RulesChanged, message: str
) -> None:
    """Log `event` and hand it to `callback`; a failing callback is logged, never raised."""
    if logger.isEnabledFor(logging.INFO):
        fields = {name: getattr(event, name) for name in event.__slots__}
        logger.info(
            message,
            *(fields[name] for name in _ARGS[type(event)]),
            extra={"event": event, **fields},
        )
    if callback is None:
        return
    try:
        returned = callback(event)
    except Exception:
        logger.exception("robotsclient: an event callback raised; ignored")
        return
    if inspect.iscoroutine(returned):  # an async __call__: never awaited here, so never run
        returned.close()
        logger.error("robotsclient: an event callback returned a coroutine; pass a plain function")


_ARGS: dict[type[Any], tuple[str, ...]] = {
    Fetched: ("origin", "status", "outcome", "bytes", "duration"),
    Decided: ("url", "allowed", "reason"),
    RulesChanged: ("origin", "added", "removed"),
}


def rule_changes(old: RobotsTxt, new: RobotsTxt) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Return the rules `new` adds and removes compared with `old`, group by group."""
    before = _rule_set(old)
    after = _rule_set(new)
    return tuple(r for r in after if r not in before), tuple(r for r in before if r not in after)


def _rule_set(robots: RobotsTxt) -> dict[str, None]:
    rules: dict[str, None] = {}
    for group in robots.groups:
        tokens = sorted(
            {agent_token(agent) or agent for agent in group.agents}, key=lambda t: (t != STAR, t)
        )
        who = ", ".join(tokens)
        for rule in group.rules:
            rules[f"{who} | {rule}"] = None
    return rules
