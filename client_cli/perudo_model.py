"""What a Perudo player knows at the table, rebuilt from snapshots and events (no I/O).

:class:`PerudoTable` is fed the ``view`` of a ``snapshot`` or ``turn`` frame and the
``event`` payloads in order; every event also yields a sentence for the log.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Json = dict[str, Any]


def parse_bid(text: str) -> tuple[int, int] | None:
    """``"5x4"`` -> ``(5, 4)``; anything else -> None."""
    quantity, sep, face = text.strip().lower().partition("x")
    if not sep or not quantity.isdigit() or not face.isdigit():
        return None
    return int(quantity), int(face)


def face_name(face: int, quantity: int = 2) -> str:
    """How a face is read aloud: ``4s``, ``aces`` (``ace``/``4`` for one die)."""
    if face == 1:
        return "ace" if quantity == 1 else "aces"
    return str(face) if quantity == 1 else f"{face}s"


def bid_words(bid: str) -> str:
    """``"5x4"`` -> ``"5x4 (5 4s)"``; ``"1x1"`` -> ``"1x1 (1 ace)"``."""
    parsed = parse_bid(bid)
    if parsed is None:
        return bid
    return f"{bid} ({parsed[0]} {face_name(parsed[1], parsed[0])})"


@dataclass
class Reveal:
    """The cups shown after a challenge and what they proved."""

    kind: str
    caller: int
    bidder: int
    bid: str
    revealed: list[tuple[int, list[int]]] = field(default_factory=list)
    count: int | None = None
    bid_true: bool | None = None
    complete: bool = True


@dataclass
class PerudoTable:
    """A Perudo table as one viewer (a seat, or a spectator when ``seat`` is None) knows it."""

    seats: int = 0
    options: Json = field(default_factory=dict)
    seat: int | None = None
    names: list[str] = field(default_factory=list)
    round: int = 0
    starter: int | None = None
    palifico: int | None = None
    aces_wild: bool = True
    to_move: int | None = None
    bids: list[tuple[int, str]] = field(default_factory=list)
    out: list[int] = field(default_factory=list)
    dice: list[int] = field(default_factory=list)
    dice_left: int | None = None
    counts: list[int] | None = None
    #: every seat's dice count as anyone can work it out from the announced losses and gains
    #: (None when the game was not followed from its start and the room sends no counts)
    inferred: list[int] | None = None
    reveal: Reveal | None = None
    outcome: Json | None = None
    seed: str | None = None
    seed_sha256: str | None = None

    def name(self, seat: int | None) -> str:
        """A seat's display name (``seat 2`` when unknown)."""
        if seat is None:
            return "nobody"
        if 0 <= seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        return f"seat {seat}"

    @property
    def last_bid(self) -> str | None:
        """The bid standing now, if any."""
        return self.bids[-1][1] if self.bids else None

    @property
    def calza_allowed(self) -> bool:
        """Whether this table plays with calza."""
        return bool(self.options.get("calza"))

    def apply_view(self, view: Json) -> None:
        """Take everything from a snapshot's (or turn's) ``view``."""
        self.seats = int(view.get("seats", self.seats))
        self.options = dict(view.get("options") or self.options)
        self.seed_sha256 = view.get("seed_sha256", self.seed_sha256)
        self.round = int(view.get("round") or 0)
        self.starter = view.get("starter")
        self.palifico = view.get("palifico")
        self.aces_wild = bool(view.get("aces_wild", True))
        self.to_move = view.get("to_move")
        self.bids = [(int(b["seat"]), str(b["bid"])) for b in view.get("bids", [])]
        self.out = [int(s) for s in view.get("out", [])]
        self.outcome = view.get("outcome")
        self.counts = list(view["counts"]) if "counts" in view else self.counts
        if self.counts is not None:
            self.inferred = list(self.counts)
        if "seat" in view:
            self.seat = view["seat"]
            self.dice = list(view.get("dice") or [])
            self.dice_left = view.get("dice_left")
        self.seed = view.get("seed", self.seed)

    def dice_count(self, seat: int) -> int | None:
        """How many dice ``seat`` holds, as sent by the room or inferred (None if unknown)."""
        if seat == self.seat and self.dice_left is not None:
            return int(self.dice_left)
        for counts in (self.counts, self.inferred):
            if counts is not None and 0 <= seat < len(counts):
                return int(counts[seat])
        return None

    def apply_event(self, event: Json) -> str:
        """Apply one event; return a sentence describing it."""
        handler: Callable[[Json], str] | None = getattr(self, "_on_" + str(event.get("type")), None)
        if handler is None:
            return f"({event.get('type')})"
        return handler(event)

    def _on_game_started(self, event: Json) -> str:
        self.seats = int(event.get("seats", self.seats))
        self.options = dict(event.get("options") or {})
        self.seed_sha256 = event.get("seed_sha256")
        per = int(self.options.get("dice_per_player", 5))
        self.inferred = [per] * self.seats
        if self.options.get("show_dice_counts"):
            self.counts = [per] * self.seats
        if self.seat is not None:
            self.dice_left = per
        return f"The game starts: {self.seats} players, {per} {'die' if per == 1 else 'dice'} each."

    def _on_round_started(self, event: Json) -> str:
        self.round = int(event["round"])
        self.starter = event.get("starter")
        self.to_move = self.starter
        self.palifico = event.get("palifico")
        self.aces_wild = bool(event.get("aces_wild", True))
        self.bids = []
        if "counts" in event:
            self.counts = list(event["counts"])
            self.inferred = list(self.counts)
        if "dice" in event:
            self.seat = event.get("seat", self.seat)
            self.dice = list(event["dice"])
            self.dice_left = len(self.dice)
        text = f"Round {self.round}: {self.name(self.starter)} starts."
        if self.palifico is not None:
            text += (
                f" PALIFICO for {self.name(self.palifico)}: aces are not wild, the face is locked."
            )
        return text

    def _on_bid(self, event: Json) -> str:
        self.bids.append((int(event["seat"]), str(event["bid"])))
        self.to_move = event.get("next")
        return f"{self.name(event['seat'])} bids {bid_words(str(event['bid']))}."

    def _on_challenge(self, event: Json) -> str:
        self.to_move = None
        self.reveal = Reveal(
            kind=str(event["kind"]),
            caller=int(event["seat"]),
            bidder=int(event["bidder"]),
            bid=str(event["bid"]),
        )
        return (
            f"{self.name(event['seat'])} calls {str(event['kind']).upper()} on "
            f"{self.name(event['bidder'])}'s {event['bid']}."
        )

    def _on_reveal(self, event: Json) -> str:
        if self.reveal is None:
            self.reveal = Reveal(kind="dudo", caller=-1, bidder=-1, bid=str(event["bid"]))
        self.reveal.revealed = [(int(r["seat"]), list(r["dice"])) for r in event["revealed"]]
        self.reveal.count = event.get("count")
        self.reveal.bid_true = event.get("bid_true")
        self.reveal.complete = bool(event.get("complete", True))
        cups = "; ".join(f"{self.name(s)} {d}" for s, d in self.reveal.revealed)
        verdict = "true" if event.get("bid_true") else "false"
        more = "" if self.reveal.complete else " (the other cups stay hidden)"
        count = event.get("count")
        return f"Reveal: {cups}. Count {count}: the bid {event['bid']} is {verdict}{more}."

    def _on_dice_changed(self, event: Json) -> str:
        seat = int(event["seat"])
        change = int(event.get("change", 0))
        if self.counts is not None and 0 <= seat < len(self.counts):
            self.counts[seat] = max(0, self.counts[seat] + change)
        if self.inferred is not None and 0 <= seat < len(self.inferred):
            self.inferred[seat] = max(0, self.inferred[seat] + change)
        if "dice_left" in event and seat == self.seat:
            self.dice_left = event["dice_left"]
        elif seat == self.seat and self.dice_left is not None:
            self.dice_left = max(0, self.dice_left + change)
        if event.get("out") and seat not in self.out:
            self.out.append(seat)
        verb = {-1: "loses a die", 1: "gains a die", 0: "keeps all dice"}.get(change, "changes")
        reason = str(event.get("reason", "")).replace("_", " ")
        text = f"{self.name(seat)} {verb} ({reason})."
        if event.get("out"):
            text += f" {self.name(seat)} is out."
        return text

    def _on_forfeit(self, event: Json) -> str:
        seat = int(event["seat"])
        if seat not in self.out:
            self.out.append(seat)
        return f"{self.name(seat)} forfeits ({event.get('reason')}); the round is void."

    def _on_game_over(self, event: Json) -> str:
        self.to_move = None
        self.outcome = {k: event.get(k) for k in ("ranks", "winners", "reason")}
        self.seed = event.get("seed", self.seed)
        winners = ", ".join(self.name(s) for s in event.get("winners", []))
        return f"Game over: {winners} wins ({event.get('reason', '').replace('_', ' ')})."

    def _on_aborted(self, event: Json) -> str:
        self.to_move = None
        return f"The game was aborted: {event.get('reason')}."
