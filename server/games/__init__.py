"""Sans-I/O rules engines and the registry that names them.

Each engine module offers a config class (``from_options`` / ``to_options``), a
``new_game(config, seed)`` constructor and a :class:`~server.games.base.Game` subclass.
:func:`engine` looks one up by the name rooms and logs use ("perudo", "kriegspiel").
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from server.games.base import ConfigError, Game, GameConfig, NewGame

#: Engine name -> module path. Modules are imported on first use.
_MODULES = {
    "perudo": "server.games.perudo",
    "kriegspiel": "server.games.kriegspiel",
}


@dataclass(frozen=True, slots=True)
class Engine:
    """One rules engine: how to build its config from options and start a game."""

    name: str
    config_type: type[GameConfig]
    game_type: type[Game]
    new_game: NewGame

    # TEMP shim until the engine branch lands
    @property
    def standin_policy(self) -> Any:
        if self.name != "perudo":
            return None
        from server import autopilot

        return autopilot.perudo

    @property
    def standin_bot(self) -> str | None:
        return "perudo-simple" if self.name == "perudo" else None

    def with_seats(self, config: Any, n: int) -> Any:
        options = config.to_options()
        options["seats"] = n
        return self.make_config(options)

    def stats(self, public: Any, outcome: Any, seats: int) -> Any:
        from server import stats
        from server.games.base import Event

        events = [Event(p, (), p) for p in public]
        return stats.compute(self.name, events, outcome, seats)

    def make_config(self, options: Mapping[str, Any]) -> Any:
        """Validate room options into this engine's config; raise ``ConfigError``."""
        return self.config_type.from_options(options)


def engine_names() -> tuple[str, ...]:
    """The names of all engines, in a stable order."""
    return tuple(_MODULES)


def engine(name: str) -> Engine:
    """The engine called ``name``; raise :class:`ConfigError` for an unknown name."""
    path = _MODULES.get(name)
    if path is None:
        raise ConfigError(f"unknown game {name!r}: choose one of {', '.join(_MODULES)}")
    module = importlib.import_module(path)
    return Engine(name, module.CONFIG_TYPE, module.GAME_TYPE, module.new_game)
