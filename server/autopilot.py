"""The autopilot: the engine's stand-in policy, played for a seat whose player is away.

A room calls :func:`choose` when a turn times out, when a player has been disconnected past
the grace period, or for a house autopilot seat. Which policy plays, and which house bot
stands in first (a real client: server.house), is the engine's to say
(``standin_policy`` and ``standin_bot`` of :class:`server.games.spec.Engine`); an engine
without a policy (Kriegspiel) has an absent player lose by abandonment instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TypeVar

from server.games import engine, engine_names
from server.games.base import Game
from server.games.spec import Engine, StandinPolicy

Policy = StandinPolicy

#: Seconds a stand-in bot has to act before the fallback policy moves instead.
STANDIN_FALLBACK = 3.0


def choose(game: Game, seat: int) -> str | None:
    """The action the autopilot takes for ``seat`` now, or ``None`` if it cannot act."""
    policy = engine(game.name).standin_policy
    if policy is None or game.is_over or game.to_move != seat:
        return None
    return policy(game, seat)


_V = TypeVar("_V")


class _ByEngine(Mapping[str, _V]):
    """A read-only view of one engine field, by engine name (engines without it left out).

    Compatibility only: new code asks ``server.games.engine(name)`` directly.
    """

    def __init__(self, field: Callable[[Engine], _V | None]) -> None:
        self._field = field

    def _items(self) -> dict[str, _V]:
        found: dict[str, _V] = {}
        for name in engine_names():
            value = self._field(engine(name))
            if value is not None:
                found[name] = value
        return found

    def __getitem__(self, name: str) -> _V:
        return self._items()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items())

    def __len__(self) -> int:
        return len(self._items())


#: Deprecated (room.py and lobby.py still read them): engine name -> its stand-in policy,
#: and engine name -> its stand-in house bot. Use ``engine(name).standin_policy`` and
#: ``engine(name).standin_bot``.
POLICIES: Mapping[str, Policy] = _ByEngine(lambda spec: spec.standin_policy)
STANDINS: Mapping[str, str] = _ByEngine(lambda spec: spec.standin_bot)
