"""The games the terminal client can show, registered in this one place.

The rest of the client asks :func:`game` for the module of a room's game (by the name the
server gives it) and never names a game itself; which games a server offers, with their
options and bots, comes from the server's catalogue (:mod:`client_cli.catalogue`). A game
with no module here is still shown, by the base :class:`ClientGame`.
"""

from __future__ import annotations

from typing import Any

from client_cli.games import goofspiel, kriegspiel, perudo
from client_cli.games.base import ClientGame, GameModel, Replay, Step

__all__ = ["ClientGame", "GameModel", "Replay", "Step", "flavour", "game", "names"]

Json = dict[str, Any]

_GAMES: dict[str, ClientGame] = {
    module.GAME.name: module.GAME for module in (perudo, kriegspiel, goofspiel)
}

#: The module of a game the client does not know.
OTHER = ClientGame()


def game(name: str) -> ClientGame:
    """The client module of the game called ``name`` (the base one for an unknown name)."""
    return _GAMES.get(name, OTHER)


def names() -> tuple[str, ...]:
    """The names of the games this client has a module for."""
    return tuple(_GAMES)


def flavour(room: Json) -> str:
    """What tells a listed room from another of its game (its preset, its rules...)."""
    return game(str(room.get("game") or "")).flavour(room.get("options") or {})
