"""Injected time for tests: every time rule is tested by moving this clock, never by sleeping."""

from __future__ import annotations

T0 = 1_700_000_000.0  # 2023-11-14T22:13:20Z


class FakeClock:
    """Time that moves only when a test says so."""

    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
