"""Kriegspiel in the terminal client: your own board, markers, the umpire's log, the replay."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar

import chess

from client_cli.games.base import ClientGame, GameModel, Replay, Scene
from client_cli.games.kriegspiel.model import KriegBoard
from client_cli.games.kriegspiel.replay import kriegspiel_replay
from client_cli.games.kriegspiel.text import kriegspiel_lines, model_of
from client_cli.games.kriegspiel.words import WORDS
from client_cli.words import Table, Words

if TYPE_CHECKING:
    from client_cli.screens.common import RoomScreen
    from client_cli.state import RoomState

Json = dict[str, Any]

#: What may be typed for the engine's words (``draw`` -> ``offer_draw``).
ACTION_WORDS = {
    "any": "any",
    "any?": "any",
    "resign": "resign",
    "draw": "offer_draw",
    "offer": "offer_draw",
    "offer_draw": "offer_draw",
    "accept": "accept_draw",
    "accept_draw": "accept_draw",
    "decline": "decline_draw",
    "decline_draw": "decline_draw",
}

UCI = re.compile(r"^[a-h][1-8][a-h][1-8][qrbn]?$")


class KriegspielGame(ClientGame):
    """Kriegspiel's client module."""

    name: ClassVar[str] = "kriegspiel"
    WORDS: ClassVar[Table] = WORDS
    ANYTIME: ClassVar[frozenset[str]] = frozenset(
        {"resign", "offer_draw", "accept_draw", "decline_draw"}
    )
    LOCAL: ClassVar[frozenset[str]] = frozenset({"mark", "unmark", "markers"})

    def new_model(self, words: Words) -> GameModel:
        """A fresh board."""
        return KriegBoard(words=words)

    def picture(self, room: RoomState) -> list[str]:
        """Your board with markers, the clocks, pawn tries, the turn and the umpire's log."""
        return kriegspiel_lines(room)

    def turn_lines(self, room: RoomState) -> list[str]:
        """One line: how many attempts the turn offers, and the last pawn tries."""
        board = model_of(room)
        count = len([a for a in room.legal if UCI.match(a)])
        tries = f"; {board.pawn_tries}" if board.pawn_tries else ""
        color = board.color_name(board.color)
        return [board.words("attempts", color=color, count=count, tries=tries)]

    def flavour(self, options: Json) -> str:
        """The rule set."""
        return str(options.get("rules") or "")

    def is_action(self, word: str, room: RoomState) -> bool:
        """A move in UCI, or one of the words for any?, draws and resigning."""
        word = word.lower()
        return bool(UCI.match(word)) or word in ACTION_WORDS

    def spell(self, text: str) -> str:
        """``E2E4`` -> ``e2e4``, ``draw`` -> ``offer_draw``."""
        text = text.strip().lower().replace(" ", "")
        return ACTION_WORDS.get(text, text)

    def refusal(self, action: str, room: RoomState) -> str:
        """Refused already this turn, a promotion without its piece, or impossible."""
        board = model_of(room)
        words = board.words
        if action in board.refused:
            return words("already_refused", action=action)
        legal = room.legal
        promotions = [m for m in legal if m.startswith(action) and len(m) == len(action) + 1]
        if promotions:
            return words("promotes", action=action, example=promotions[0])
        return words("not_possible", action=action)

    def run_local(self, name: str, args: list[str], room: RoomState) -> list[str]:
        """``mark SQUARE PIECE``, ``unmark SQUARE``, ``markers``: notes kept on screen only."""
        board = model_of(room)
        if name == "mark" and len(args) == 2:
            board.mark(args[0], args[1])
        elif name == "unmark" and args:
            board.mark(args[0], None)
        elif name != "markers":
            raise ValueError(board.words("mark_usage"))
        marks = ", ".join(f"{chess.square_name(s)}={p}" for s, p in sorted(board.markers.items()))
        return [board.words("markers", marks=marks or board.words("no_marks"))]

    def replay(self, room: RoomState, events: list[Json]) -> Replay:
        """Both sides' pieces after the real moves, step by step."""
        return kriegspiel_replay(room, events)

    def screen(self, room_id: str) -> RoomScreen:
        """The board screen."""
        from client_cli.games.kriegspiel.screen import KriegspielScreen

        return KriegspielScreen(room_id)

    def screenshot_scene(self) -> Scene:
        """A game played a little for ``docs/client-kriegspiel.svg``."""
        from client_cli.games.kriegspiel.shots import scene

        return scene


GAME = KriegspielGame()
