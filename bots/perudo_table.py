"""What a Perudo seat knows, rebuilt from its own projections: a helper for bots.

:class:`PerudoTable` follows the events a seat observes (docs/perudo.md) and keeps the
round, its bids, the seat's own dice, and every seat's dice count, which a seat can always
work out from the public losses even when the room hides counts. :func:`bid_probability`
is the binomial chance that a bid is true given one's own dice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from math import comb
from typing import Any

from server.games.perudo_actions import ACE, Bid, count_matching


@lru_cache(maxsize=65536)
def prob_at_least(k: int, n: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return sum(comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))


def bid_probability(bid: Bid, own: list[int], unknown: int, aces_wild: bool) -> float:
    """The chance ``bid`` is true given our dice ``own`` and ``unknown`` dice we cannot see.

    Each unknown die matches with probability 1/6, or 1/3 when aces are wild and the bid
    is not on aces.
    """
    p = 1 / 3 if aces_wild and bid.face != ACE else 1 / 6
    return prob_at_least(bid.quantity - count_matching(own, bid, aces_wild), unknown, p)


@dataclass(slots=True)
class PerudoTable:
    """A seat's knowledge of a Perudo game, updated by :meth:`observe`."""

    seat: int
    seats: int
    dice_per_player: int
    counts: list[int] = field(default_factory=list)
    dice: list[int] = field(default_factory=list)
    round: int = 0
    palifico: int | None = None
    bids: list[tuple[int, Bid]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.counts:
            self.counts = [self.dice_per_player] * self.seats

    @classmethod
    def from_options(cls, seat: int, options: dict[str, Any]) -> PerudoTable:
        """A table for ``seat`` of a game with these options."""
        return cls(seat, int(options["seats"]), int(options["dice_per_player"]))

    @property
    def aces_wild(self) -> bool:
        """Aces are wild except in a palifico round."""
        return self.palifico is None

    @property
    def total(self) -> int:
        """Dice in play."""
        return sum(self.counts)

    @property
    def unknown(self) -> int:
        """Dice in play this seat cannot see."""
        return self.total - len(self.dice)

    @property
    def last_bid(self) -> Bid | None:
        """The bid on the table, if any."""
        return self.bids[-1][1] if self.bids else None

    def probability(self, bid: Bid) -> float:
        """The chance ``bid`` is true, from this seat's point of view."""
        return bid_probability(bid, self.dice, self.unknown, self.aces_wild)

    def observe(self, event: dict[str, Any]) -> None:
        """Update from one projection addressed to this seat."""
        kind = event.get("type")
        if kind == "round_started":
            self.round = event["round"]
            self.palifico = event["palifico"]
            self.dice = list(event.get("dice", []))
            self.bids = []
            if "counts" in event:
                self.counts = list(event["counts"])
            self.counts[self.seat] = len(self.dice)
        elif kind == "bid":
            self.bids.append((event["seat"], Bid.parse(event["bid"])))
        elif kind == "dice_changed":
            self.counts[event["seat"]] += event["change"]
        elif kind == "forfeit":
            self.counts[event["seat"]] = 0
