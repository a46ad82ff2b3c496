"""What one viewer knows of a Perudo game, rebuilt from its own projections.

:class:`PerudoTable` is the one model of a seat's knowledge at a Perudo table (or a
spectator's, with ``seat`` None): the bots, the expert and its advisor, and the terminal
client all keep one. It follows the events the viewer observes, in order (docs/perudo.md),
or takes a snapshot's ``view``, and keeps the round, its bids, the viewer's own dice, the
last reveal, the outcome, and every seat's dice count: a seat can always work the counts
out from the public losses and gains, even when the room hides them.
:func:`bid_probability` is the binomial chance that a bid is true given one's own dice.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from math import comb
from typing import Any

from server.games.perudo_actions import ACE, Bid, count_matching

Json = dict[str, Any]


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
class Reveal:
    """The cups shown after a challenge and what they proved."""

    kind: str  #: "dudo" or "calza"
    caller: int
    bidder: int
    bid: Bid
    revealed: list[tuple[int, list[int]]] = field(default_factory=list)
    count: int | None = None
    bid_true: bool | None = None
    complete: bool = True


@dataclass(slots=True)
class PerudoTable:
    """A viewer's knowledge of a Perudo game, updated by :meth:`observe` (one event) and
    :meth:`apply_view` (a snapshot's or turn's ``view``)."""

    seat: int | None = None  #: the viewer's seat; None for a spectator
    seats: int = 0
    dice_per_player: int = 5
    #: every seat's dice count, sent by the room or worked out from the announced losses
    #: and gains; empty when unknown (a game not followed from its start, counts hidden)
    counts: list[int] = field(default_factory=list)
    dice: list[int] = field(default_factory=list)  #: the viewer's own dice this round
    dice_left: int | None = None  #: the viewer's own count, as the room tells it
    round: int = 0
    starter: int | None = None
    palifico: int | None = None  #: the seat whose palifico round this is
    aces_wild: bool = True
    to_move: int | None = None
    bids: list[tuple[int, Bid]] = field(default_factory=list)  #: this round's, oldest first
    out: list[int] = field(default_factory=list)
    options: Json = field(default_factory=dict)
    names: list[str] = field(default_factory=list)  #: display names by seat, if known
    reveal: Reveal | None = None  #: the last challenge's reveal
    outcome: Json | None = None
    seed: str | None = None
    seed_sha256: str | None = None

    def __post_init__(self) -> None:
        if not self.counts and self.seats:
            self.counts = [self.dice_per_player] * self.seats

    @classmethod
    def from_options(cls, seat: int, options: dict[str, Any]) -> PerudoTable:
        """A table for ``seat`` of a game with these options (before its first event)."""
        return cls(
            seat=seat,
            seats=int(options["seats"]),
            dice_per_player=int(options["dice_per_player"]),
            options=dict(options),
        )

    @classmethod
    def of_seat(cls, view: Json, events: Iterable[Json]) -> PerudoTable:
        """What one seat knows, from nothing but its own projections: ``events`` is the
        seat's stream from the game's start, in order, and ``view`` the engine's snapshot
        for that seat now (its ``view(seat)``). The stream gives the dice counts a room
        hides; the snapshot is authoritative for the rest."""
        table = cls(seat=view.get("seat"))
        for event in events:
            table.observe(event)
        table.apply_view(view)
        return table

    # -- what follows from it -------------------------------------------------------------

    @property
    def total(self) -> int:
        """Dice in play."""
        return sum(self.counts)

    @property
    def unknown(self) -> int:
        """Dice in play this viewer cannot see."""
        return self.total - len(self.dice)

    @property
    def last_bid(self) -> Bid | None:
        """The bid on the table, if any."""
        return self.bids[-1][1] if self.bids else None

    @property
    def calza_allowed(self) -> bool:
        """Whether this table plays with calza."""
        return bool(self.options.get("calza"))

    def probability(self, bid: Bid) -> float:
        """The chance ``bid`` is true, from this viewer's point of view."""
        return bid_probability(bid, self.dice, self.unknown, self.aces_wild)

    def name(self, seat: int | None) -> str:
        """A seat's display name (``seat 2`` when unknown)."""
        if seat is None:
            return "nobody"
        if 0 <= seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        return f"seat {seat}"

    def dice_count(self, seat: int) -> int | None:
        """How many dice ``seat`` holds (None when this viewer cannot know)."""
        if seat == self.seat and self.dice_left is not None:
            return self.dice_left
        return self.counts[seat] if 0 <= seat < len(self.counts) else None

    # -- updates --------------------------------------------------------------------------

    def apply_view(self, view: Json) -> None:
        """Take everything from a snapshot's (or turn's) ``view``."""
        self.seats = int(view.get("seats", self.seats))
        self.options = dict(view.get("options") or self.options)
        self.dice_per_player = int(self.options.get("dice_per_player", self.dice_per_player))
        self.seed_sha256 = view.get("seed_sha256", self.seed_sha256)
        self.round = int(view.get("round") or 0)
        self.starter = view.get("starter")
        self.palifico = view.get("palifico")
        self.aces_wild = bool(view.get("aces_wild", self.palifico is None))
        self.to_move = view.get("to_move")
        self.bids = [(int(b["seat"]), Bid.parse(str(b["bid"]))) for b in view.get("bids", [])]
        self.out = [int(s) for s in view.get("out", [])]
        self.outcome = view.get("outcome")
        if "counts" in view:
            self.counts = [int(c) for c in view["counts"]]
        if "seat" in view:
            self.seat = view["seat"]
            self.dice = list(view.get("dice") or [])
            self.dice_left = view.get("dice_left")
        self.seed = view.get("seed", self.seed)

    def observe(self, event: Json) -> None:
        """Update from one projection addressed to this viewer, in order."""
        kind = event.get("type")
        if kind == "game_started":
            self.seats = int(event.get("seats", self.seats))
            self.options = dict(event.get("options") or self.options)
            self.dice_per_player = int(self.options.get("dice_per_player", 5))
            self.seed_sha256 = event.get("seed_sha256")
            self.counts = [self.dice_per_player] * self.seats
            if self.seat is not None:
                self.dice_left = self.dice_per_player
        elif kind == "round_started":
            self._round_started(event)
        elif kind == "bid":
            self.bids.append((int(event["seat"]), Bid.parse(str(event["bid"]))))
            self.to_move = event.get("next")
        elif kind == "challenge":
            self.to_move = None
            bid = Bid.parse(str(event["bid"]))
            self.reveal = Reveal(str(event["kind"]), int(event["seat"]), int(event["bidder"]), bid)
        elif kind == "reveal":
            if self.reveal is None:
                self.reveal = Reveal("dudo", -1, -1, Bid.parse(str(event["bid"])))
            self.reveal.revealed = [(int(r["seat"]), list(r["dice"])) for r in event["revealed"]]
            self.reveal.count = event.get("count")
            self.reveal.bid_true = event.get("bid_true")
            self.reveal.complete = bool(event.get("complete", True))
        elif kind == "dice_changed":
            self._dice_changed(event)
        elif kind == "forfeit":
            seat = int(event["seat"])
            if 0 <= seat < len(self.counts):
                self.counts[seat] = 0
            if seat not in self.out:
                self.out.append(seat)
        elif kind == "game_over":
            self.to_move = None
            self.outcome = {k: event.get(k) for k in ("ranks", "winners", "reason")}
            self.seed = event.get("seed", self.seed)
        elif kind == "aborted":
            self.to_move = None

    def _round_started(self, event: Json) -> None:
        self.round = int(event["round"])
        self.starter = event.get("starter")
        self.to_move = self.starter
        self.palifico = event.get("palifico")
        self.aces_wild = bool(event.get("aces_wild", self.palifico is None))
        self.bids = []
        if "counts" in event:
            self.counts = [int(c) for c in event["counts"]]
        if "dice" in event:
            self.seat = event.get("seat", self.seat)
            self.dice = list(event.get("dice") or [])
            self.dice_left = len(self.dice)
            if self.seat is not None and 0 <= self.seat < len(self.counts):
                self.counts[self.seat] = len(self.dice)
        elif self.seat is not None:
            # a round whose dice this seat is not told yet (a physical table's, before the
            # player reports them): the engine always sends a seat its dice
            self.dice = []

    def _dice_changed(self, event: Json) -> None:
        seat = int(event["seat"])
        change = int(event.get("change", 0))
        if 0 <= seat < len(self.counts):
            self.counts[seat] = max(0, self.counts[seat] + change)
        if seat == self.seat:
            if "dice_left" in event:
                self.dice_left = int(event["dice_left"])
            elif self.dice_left is not None:
                self.dice_left = max(0, self.dice_left + change)
        if event.get("out") and seat not in self.out:
            self.out.append(seat)
