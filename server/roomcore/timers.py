"""Named timers of a room core: what to wake it for, and when.

The core asks for a wake-up with :meth:`Timers.set` and gets a :class:`Schedule` effect to
hand to its actor; the actor later feeds a :class:`~server.roomcore.messages.Tick` back with
the timer's name and generation. A tick whose generation is stale (the timer was set again
or cancelled after the actor queued it) is ignored by :meth:`Timers.due`.
"""

from __future__ import annotations

from server.roomcore.messages import Cancel, Schedule


class Timers:
    """The room's pending timers: name -> (due time, generation)."""

    def __init__(self) -> None:
        self._pending: dict[str, tuple[float, int]] = {}
        self._generation = 0

    def set(self, name: str, at: float) -> Schedule:
        """(Re)arm timer ``name`` for time ``at``."""
        self._generation += 1
        self._pending[name] = (at, self._generation)
        return Schedule(name, at, self._generation)

    def cancel(self, name: str) -> Cancel | None:
        """Disarm timer ``name``; ``None`` when it was not armed."""
        if self._pending.pop(name, None) is None:
            return None
        return Cancel(name)

    def cancel_all(self) -> list[Cancel]:
        """Disarm every timer."""
        names = list(self._pending)
        self._pending.clear()
        return [Cancel(name) for name in names]

    def due(self, name: str, generation: int) -> bool:
        """Accept a tick: True (and the timer is disarmed) if it is the armed generation."""
        pending = self._pending.get(name)
        if pending is None or pending[1] != generation:
            return False
        del self._pending[name]
        return True

    def armed(self, name: str) -> float | None:
        """When timer ``name`` is due, or ``None``."""
        pending = self._pending.get(name)
        return None if pending is None else pending[0]

    def pending(self) -> dict[str, float]:
        """Every armed timer's due time, by name."""
        return {name: at for name, (at, _) in self._pending.items()}

    def __contains__(self, name: object) -> bool:
        return name in self._pending
