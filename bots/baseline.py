"""The baseline bots: the yardsticks every stronger bot is measured against.

- ``perudo-random``: uniform over the legal actions.
- ``perudo-simple``: Neller's simple player: the boldest bid still true with probability
  at least 1/2 given its own dice and the dice in play (the legal bid with the lowest such
  probability), otherwise dudo.
- ``kriegspiel-random``: a uniformly random attempt among the moves possible on its own
  board, never repeating a refused one (the game's legal list already leaves those out);
  it never resigns or offers draws.
"""

from __future__ import annotations

import random
from typing import ClassVar

from bots.perudo.table import PerudoTable
from bots.sdk.bot import Bot, Decision, GameInfo
from server.games.perudo_actions import Bid


class RandomBot(Bot):
    """Shared by the random bots: a per-game random stream, seedable for reproducibility."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)


class PerudoRandom(RandomBot):
    """Uniform over every legal action (bids, dudo, calza)."""

    name: ClassVar[str] = "perudo-random"
    games: ClassVar[tuple[str, ...]] = ("perudo",)

    async def decide(self, decision: Decision) -> str:
        return self.rng.choice(decision.legal)

    def decision_distribution(self, decision: Decision) -> dict[str, float]:
        """The uniform mix :meth:`decide` samples from (read by the exploitability
        benchmark, ``benchmarks/perudo_exploitability.py``)."""
        return {text: 1 / len(decision.legal) for text in decision.legal}


class PerudoSimple(Bot):
    """The boldest bid that is more likely true than not; dudo when there is none."""

    name: ClassVar[str] = "perudo-simple"
    games: ClassVar[tuple[str, ...]] = ("perudo",)

    async def start(self, info: GameInfo) -> None:
        await super().start(info)
        self.table = PerudoTable.from_options(info.seat, info.options)

    async def observe(self, event: dict[str, object]) -> None:
        self.table.observe(event)

    async def decide(self, decision: Decision) -> str:
        best: tuple[float, int, str] | None = None
        for text in decision.legal:
            if text in ("dudo", "calza"):
                continue
            bid = Bid.parse(text)
            p = self.table.probability(bid)
            if p >= 0.5:
                key = (p, -bid.quantity, text)
                if best is None or key < best:
                    best = key
        if best is not None:
            return best[2]
        if "dudo" in decision.legal:
            return "dudo"
        # Opening with nothing at even odds (cannot happen with dice in hand): safest bid.
        return max(decision.legal, key=lambda t: self.table.probability(Bid.parse(t)))


class KriegspielRandom(RandomBot):
    """A random attempt among those possible on its own board; never resigns."""

    name: ClassVar[str] = "kriegspiel-random"
    games: ClassVar[tuple[str, ...]] = ("kriegspiel",)
    _PASSIVE = frozenset({"resign", "offer_draw", "accept_draw", "decline_draw", "any"})

    async def decide(self, decision: Decision) -> str:
        attempts = [a for a in decision.legal if a not in self._PASSIVE]
        if "any" in decision.legal and self.rng.random() < 0.2:
            return "any"
        if attempts:
            return self.rng.choice(attempts)
        if "decline_draw" in decision.legal:
            return "decline_draw"
        return self.rng.choice(decision.legal)
