"""Perudo in the terminal client: the table, bids, dudo and calza, the replay with every cup."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from client_cli.games.base import ClientGame, GameModel, Replay, Scene
from client_cli.games.perudo.model import PerudoModel, try_bid
from client_cli.games.perudo.replay import perudo_replay
from client_cli.games.perudo.text import model_of, perudo_lines
from client_cli.games.perudo.words import WORDS
from client_cli.words import Table, Words

if TYPE_CHECKING:
    from client_cli.screens.common import RoomScreen
    from client_cli.state import RoomState

Json = dict[str, Any]

CALLS = ("dudo", "calza")


class PerudoGame(ClientGame):
    """Perudo's client module."""

    name: ClassVar[str] = "perudo"
    WORDS: ClassVar[Table] = WORDS
    OPTION_ALIASES: ClassVar[Mapping[str, str]] = {"dice": "dice_per_player"}

    def new_model(self, words: Words) -> GameModel:
        """A fresh table."""
        return PerudoModel(words)

    def picture(self, room: RoomState) -> list[str]:
        """The table: players and dice, the round's bids, the last reveal, the turn."""
        return perudo_lines(room)

    def is_action(self, word: str, room: RoomState) -> bool:
        """A bid (or an attempt at one that :meth:`refusal` will explain), dudo, calza."""
        return word[:1].isdigit() or word.lower() in CALLS

    def spell(self, text: str) -> str:
        """``5X4`` -> ``5x4``, ``Dudo`` -> ``dudo``."""
        return text.strip().lower().replace(" ", "")

    def refusal(self, action: str, room: RoomState) -> str:
        """Not a bid, calza where the table has none, or a bid too low (and the one to beat)."""
        words = model_of(room).words
        if try_bid(action) is None and action not in CALLS:
            return words("not_a_bid", action=action)
        if action == "calza":
            return words("no_calza")
        last = model_of(room).table.last_bid
        return words("not_legal", action=action) + (words("to_beat", bid=last) if last else "")

    def replay(self, room: RoomState, events: list[Json]) -> Replay:
        """Every cup of every round, recomputed from the revealed seed and checked."""
        return perudo_replay(room, events, self.words(room.lang))

    def screen(self, room_id: str) -> RoomScreen:
        """The Perudo table screen."""
        from client_cli.games.perudo.screen import PerudoScreen

        return PerudoScreen(room_id)

    def screenshot_scene(self) -> Scene:
        """A game played a little for ``docs/client-perudo.svg``."""
        from client_cli.games.perudo.shots import scene

        return scene


GAME = PerudoGame()
