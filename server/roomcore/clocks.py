"""Chess clocks for a room's seats, as a pure function of the times they are told.

Time is an input: every method takes ``now`` (seconds on any monotonic scale). Nothing
here reads a clock, so a restart can resume the clocks from the log with the downtime
charged to nobody.
"""

from __future__ import annotations

from collections.abc import Sequence


class Clocks:
    """Each seat's remaining time; at most one clock runs at a time."""

    def __init__(
        self, base: float, increment: float, seats: int, remaining: Sequence[float] | None = None
    ) -> None:
        self.increment = increment
        self.remaining = list(remaining) if remaining is not None else [base] * seats
        self.running: int | None = None
        self.since = 0.0

    def run(self, seat: int | None, now: float) -> None:
        """Let ``seat``'s clock run from ``now`` (``None`` stops all) unless it already runs."""
        if seat != self.running:
            self.running = seat
            self.since = now

    def restart(self, now: float) -> None:
        """Count the running clock from ``now`` again (after a restart: downtime is free)."""
        self.since = now

    def left(self, seat: int, now: float) -> float:
        """Seconds ``seat`` has left at ``now`` (never negative)."""
        left = self.remaining[seat]
        if seat == self.running:
            left -= now - self.since
        return max(0.0, left)

    def charge(self, mover: int, now: float, *, turn_passed: bool) -> None:
        """Charge ``mover`` the time since its clock last started; add the increment when
        its turn passed to another seat."""
        if mover == self.running:
            self.remaining[mover] -= now - self.since
            self.since = now
        if turn_passed:
            self.remaining[mover] += self.increment

    def flag_at(self) -> float | None:
        """When the running clock reaches zero, or ``None`` if none runs."""
        if self.running is None:
            return None
        return self.since + self.remaining[self.running]

    def flagged(self, now: float) -> bool:
        """True when the running clock has reached zero at ``now``."""
        due = self.flag_at()
        return due is not None and now >= due

    def snapshot(self, now: float) -> list[float]:
        """Every seat's remaining seconds at ``now``, to the millisecond."""
        return [round(self.left(seat, now), 3) for seat in range(len(self.remaining))]

    def logged(self) -> list[float]:
        """The remaining times as logged with an action (the running clock just charged)."""
        return [round(r, 3) for r in self.remaining]
