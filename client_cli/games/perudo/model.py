"""The Perudo table told in sentences (no I/O).

What a viewer knows is the shared :class:`~bots.perudo.table.PerudoTable` (the bots'
model too); :class:`PerudoModel` keeps one, updates it with each event and tells the event
in the player's language.
"""

from __future__ import annotations

from typing import Any

from bots.perudo.table import PerudoTable
from client_cli.games.base import GameModel
from client_cli.games.perudo.words import WORDS
from client_cli.words import Words
from server.games.base import IllegalAction
from server.games.perudo_actions import ACE, Bid

Json = dict[str, Any]

__all__ = ["PerudoModel", "PerudoTable", "try_bid"]


def try_bid(text: str) -> Bid | None:
    """``"5x4"`` -> ``Bid(5, 4)`` (read by :meth:`Bid.parse`); anything else -> None."""
    try:
        return Bid.parse(text)
    except IllegalAction:
        return None


class PerudoModel(GameModel):
    """A viewer's Perudo table and the sentences that tell its events."""

    def __init__(self, words: Words | None = None, table: PerudoTable | None = None) -> None:
        self.words = words if words is not None else Words(WORDS)
        self.table = table if table is not None else PerudoTable()
        self._bidder: int | None = None  # the last challenged bid's bidder

    def sit(self, seat: int | None) -> None:
        """This viewer's seat."""
        self.table.seat = seat

    def name_seats(self, names: list[str]) -> None:
        """The players' names by seat."""
        self.table.names = names

    def apply_view(self, view: Json) -> None:
        """Take everything from a snapshot's (or turn's) ``view``."""
        self.table.apply_view(view)

    def bid_words(self, bid: str) -> str:
        """``"5x4"`` -> ``"5x4 (5 4s)"``; ``"1x1"`` -> ``"1x1 (1 ace)"``."""
        parsed = try_bid(bid)
        if parsed is None:
            return bid
        key = "bid_aces" if parsed.face == ACE else "bid_words"
        return self.words(key, bid=bid, count=parsed.quantity, face=parsed.face)

    def reason(self, event: Json) -> str:
        """An event's reason code in the player's words (``last_player_standing`` ->
        "last player standing"; a code without words is said as its words). A lost
        Dudo is the bidder's when the bid was false: said so."""
        code = str(event.get("reason", ""))
        if code == "lost_dudo" and event.get("seat") == self._bidder:
            code = "bid_false"
        key = f"reason_{code}"
        return self.words(key) if self.words.has(key) else code.replace("_", " ")

    def apply_event(self, event: Json) -> str:
        """Apply one event to the table; return a sentence describing it."""
        table, words = self.table, self.words
        table.observe(event)
        kind = str(event.get("type"))
        name = table.name
        if kind == "game_started":
            return words("game_started", seats=table.seats, count=table.dice_per_player)
        if kind == "round_started":
            text = words("round_started", round=table.round, name=name(table.starter))
            if table.palifico is not None:
                text += " " + words("palifico_for", name=name(table.palifico))
            return text
        if kind == "bid":
            return words("bids", name=name(event["seat"]), bid=self.bid_words(str(event["bid"])))
        if kind == "challenge":
            caller, bidder = event.get("seat"), event.get("bidder")
            self._bidder = int(bidder) if bidder is not None and caller != bidder else None
            return words(
                "calls",
                name=name(event["seat"]),
                kind=str(event["kind"]).upper(),
                bidder=name(event["bidder"]),
                bid=event["bid"],
            )
        if kind == "reveal":
            return self._reveal(event)
        if kind == "dice_changed":
            return self._dice_changed(event)
        if kind == "forfeit":
            return words("forfeits", name=name(int(event["seat"])), reason=self.reason(event))
        if kind == "game_over":
            winners = ", ".join(name(s) for s in event.get("winners", []))
            return words("game_over", names=winners, reason=self.reason(event))
        if kind == "aborted":
            return words("aborted", reason=self.reason(event))
        return f"({kind})"

    def cups(self) -> str:
        """The last reveal's cups: ``ana 1 3 3; bob 2 5``."""
        reveal = self.table.reveal
        revealed = reveal.revealed if reveal is not None else []
        return "; ".join(f"{self.table.name(s)} {d}" for s, d in revealed)

    def _reveal(self, event: Json) -> str:
        reveal = self.table.reveal
        assert reveal is not None
        words = self.words
        return words(
            "reveal",
            cups=self.cups(),
            count=event.get("count"),
            bid=event["bid"],
            verdict=words("true" if event.get("bid_true") else "false"),
            more="" if reveal.complete else words("others_hidden"),
        )

    def _dice_changed(self, event: Json) -> str:
        seat = int(event["seat"])
        change = int(event.get("change", 0))
        verb = {-1: "loses", 1: "gains", 0: "keeps"}.get(change, "changes")
        name = self.table.name(seat)
        text = self.words(verb, name=name, reason=self.reason(event))
        if event.get("out"):
            text += " " + self.words("is_out", name=name)
        return text
