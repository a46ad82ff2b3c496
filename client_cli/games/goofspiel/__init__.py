"""Goofspiel in the terminal client: the prize, the scores, your hand, a card box.

A minimal module for the game the server's tests register (``tests/games/goofspiel.py``):
it proves that a game is shown by one module here and named nowhere else in the client.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from client_cli.games.base import ClientGame, GameModel
from client_cli.games.goofspiel.words import WORDS
from client_cli.render import outcome_line
from client_cli.words import Table, Words

if TYPE_CHECKING:
    from client_cli.screens.common import RoomScreen
    from client_cli.state import RoomState

Json = dict[str, Any]


class GoofspielModel(GameModel):
    """A viewer's Goofspiel: the round's prize, who has bid, the scores, its own hand."""

    def __init__(self, words: Words | None = None) -> None:
        self.words = words if words is not None else Words(WORDS)
        self.seat: int | None = None
        self.names: list[str] = []
        self.cards = 0
        self.round = 0
        self.prize: int | None = None
        self.hand: list[int] = []
        self.has_bid: list[bool] = []
        self.scores: list[int] = []
        self.to_move: int | None = None

    def sit(self, seat: int | None) -> None:
        """This viewer's seat."""
        self.seat = seat

    def name_seats(self, names: list[str]) -> None:
        """The players' names by seat."""
        self.names = names

    def name(self, seat: int) -> str:
        """A seat's display name (``seat 2`` when unknown)."""
        known = 0 <= seat < len(self.names) and self.names[seat]
        return self.names[seat] if known else f"seat {seat}"

    def apply_view(self, view: Json) -> None:
        """Take everything from a snapshot's (or turn's) ``view``."""
        self.cards = int((view.get("options") or {}).get("cards", self.cards))
        self.round = int(view.get("round") or 0)
        self.prize = view.get("prize")
        self.to_move = view.get("to_move")
        self.has_bid = [bool(b) for b in view.get("bid", [])]
        self.scores = [int(s) for s in view.get("scores", [])]
        if "hand" in view:
            self.hand = [int(c) for c in view["hand"]]

    def apply_event(self, event: Json) -> str:
        """Apply one event; return a sentence describing it."""
        kind, words = event.get("type"), self.words
        if kind == "game_started":
            seats = int(event.get("seats", 0))
            self.cards = int((event.get("options") or {}).get("cards", 0))
            self.scores, self.has_bid = [0] * seats, [False] * seats
            self.hand = list(range(1, self.cards + 1)) if self.seat is not None else []
            return words("starts", seats=seats, cards=self.cards)
        if kind == "prize":
            self.round, self.prize, self.to_move = int(event["round"]), event["card"], 0
            self.has_bid = [False] * len(self.scores)
            return words("prize", round=self.round, card=self.prize)
        if kind == "bid":
            return self._bid(event)
        if kind == "reveal":
            self.scores = [int(s) for s in event["scores"]]
            self.to_move = None
            bids = ", ".join(f"{self.name(s)} {b}" for s, b in enumerate(event["bids"]))
            winner = event.get("winner")
            if winner is None:
                return words("tie", bids=bids, prize=event["prize"])
            name, score = self.name(winner), self.scores[winner]
            return words("reveal", bids=bids, name=name, prize=event["prize"], score=score)
        if kind == "forfeit":
            return words("forfeits", name=self.name(int(event["seat"])), reason=event.get("reason"))
        if kind == "game_over":
            self.to_move, self.prize = None, None
            self.scores = [int(s) for s in event.get("scores", self.scores)]
            names = ", ".join(self.name(s) for s in event.get("winners", []))
            reason = str(event.get("reason", "")).replace("_", " ")
            return words("game_over", names=names, reason=reason)
        return f"({kind})"

    def _bid(self, event: Json) -> str:
        seat = int(event["seat"])
        if 0 <= seat < len(self.has_bid):
            self.has_bid[seat] = True
        self.to_move = next((s for s, done in enumerate(self.has_bid) if not done), None)
        if "card" in event:
            card = int(event["card"])
            if card in self.hand:
                self.hand.remove(card)
            return self.words("you_bid", card=card)
        return self.words("bids", name=self.name(seat))


def model_of(room: RoomState) -> GoofspielModel:
    """The room's Goofspiel model (a room of this game always has one)."""
    model = room.model
    assert isinstance(model, GoofspielModel), type(model).__name__
    return model


class GoofspielGame(ClientGame):
    """Goofspiel's client module."""

    name: ClassVar[str] = "goofspiel"
    WORDS: ClassVar[Table] = WORDS

    def new_model(self, words: Words) -> GameModel:
        """A fresh model."""
        return GoofspielModel(words)

    def picture(self, room: RoomState) -> list[str]:
        """The round and its prize, each player's score, your hand, the turn or the result."""
        model = model_of(room)
        words = model.words
        lines = [
            words("header", room=room.room, round=model.round, cards=model.cards),
            words("prize_line", card="-" if model.prize is None else model.prize),
            words("scores"),
        ]
        for seat, score in enumerate(model.scores):
            marker = ">" if seat == model.to_move else " "
            you = words("you") if seat == model.seat else ""
            done = words("has_bid") if seat < len(model.has_bid) and model.has_bid[seat] else ""
            lines.append(f" {marker} {seat} {model.name(seat)}{you}: {score}{done}")
        if model.seat is not None:
            lines.append(words("your_hand", cards=" ".join(map(str, model.hand)) or "-"))
        if room.over:
            lines.append(outcome_line(room))
            lines += room.rating_lines
        elif room.offline:
            lines.append(room.OFFLINE)
        elif room.paused:
            lines.append(room.paused_text)
        elif room.turn is not None:
            lines.append(words("your_turn", example=room.legal[-1] if room.legal else "1"))
        elif model.to_move is not None:
            lines.append(words("waiting_for", name=model.name(model.to_move)))
        return lines

    def is_action(self, word: str, room: RoomState) -> bool:
        """A card number."""
        return word.isdigit()

    def refusal(self, action: str, room: RoomState) -> str:
        """Not a card, or not one of your hand."""
        words = model_of(room).words
        if not action.isdigit():
            return words("not_a_card", action=action)
        return words("not_in_hand", action=action)

    def screen(self, room_id: str) -> RoomScreen:
        """The Goofspiel table screen."""
        from client_cli.games.goofspiel.screen import GoofspielScreen

        return GoofspielScreen(room_id)


GAME = GoofspielGame()
