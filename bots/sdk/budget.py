"""Search budgets that do not depend on the machine: counted work instead of seconds.

The search (:class:`~bots.kriegspiel.meta.search.Searcher` and
:class:`~bots.kriegspiel.meta.mate.MateSearch`) reads a *clock* to know when to stop.
:class:`NodeClock` is a clock that does not tick with time but with work: every attempt's
branches built by the searcher and every position the forced-mate search examines adds
one *node*. A budget of ``N`` on this clock stops the search after about ``N`` nodes,
the same on a busy machine as on an idle one, so that a seeded game always plays the
same moves. :func:`parse_budget` reads the budget texts of ``umpire tournament
--budget`` and of bot specs (``kriegspiel-meta:nodes=3000``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Budget", "NodeClock", "parse_budget", "tick"]


class NodeClock:
    """A clock that reads the number of search nodes spent so far (see the module)."""

    def __init__(self) -> None:
        self.nodes = 0

    def __call__(self) -> float:
        return float(self.nodes)

    def tick(self, nodes: int = 1) -> None:
        """Count ``nodes`` more units of work."""
        self.nodes += nodes


def tick(clock: Callable[[], float]) -> Callable[[int], None] | None:
    """The clock's ``tick`` if it counts nodes (a :class:`NodeClock`), else ``None``."""
    return clock.tick if isinstance(clock, NodeClock) else None


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a bot may spend per decision: ``amount`` of ``unit``, which is ``nodes``
    (counted work, machine independent), ``cpu`` (the thread's CPU seconds: independent
    of the machine's load, not of its speed) or ``wall`` (seconds)."""

    unit: str
    amount: float

    def clock(self) -> Callable[[], float]:
        """A fresh clock that measures this budget."""
        if self.unit == "nodes":
            return NodeClock()
        if self.unit == "cpu":
            return time.thread_time
        return time.perf_counter

    def __str__(self) -> str:
        amount = int(self.amount) if self.unit == "nodes" else self.amount
        return f"{self.unit}={amount}"


def parse_budget(text: str) -> Budget:
    """Read ``nodes=N``, ``cpu=SECONDS`` or ``wall=SECONDS``; raise ``ValueError`` with
    what is wrong otherwise."""
    unit, sep, value = text.partition("=")
    unit = unit.strip().lower()
    if not sep or unit not in ("nodes", "cpu", "wall"):
        raise ValueError(f"budget {text!r}: use nodes=N, cpu=SECONDS or wall=SECONDS")
    try:
        amount = float(value)
    except ValueError:
        raise ValueError(f"budget {text!r}: {value!r} is not a number") from None
    if not amount > 0:
        raise ValueError(f"budget {text!r}: it must be positive")
    if unit == "nodes" and amount != int(amount):
        raise ValueError(f"budget {text!r}: nodes are counted in whole numbers")
    return Budget(unit, amount)
