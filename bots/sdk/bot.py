"""The bot SDK: one Bot API, two transports.

A bot is a subclass of :class:`Bot`. Its callbacks come in this order for each game:

1. :meth:`Bot.start` once, with your seat, the game, its options and your first view;
2. :meth:`Bot.observe` for each projection addressed to your seat, in sequence order
   (events you may see nothing of are not passed on), including your own actions;
3. :meth:`Bot.decide` whenever the game waits for your seat: return one action text from
   ``decision.legal``. In Kriegspiel it is called again after an illegal attempt, once
   the "illegal" answer has been observed;
4. :meth:`Bot.rejected` if the server refused what you returned (then ``decide`` again);
5. :meth:`Bot.end` once, with the result.

A bot never receives anything a human in its seat would not: the local transport
(:mod:`bots.sdk.local`) feeds it the same projections the server sends (``Event.view(seat)``),
and the websocket transport (:mod:`bots.sdk.remote`) is an ordinary protocol client.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

Json = Any


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What a bot learns when its game starts."""

    game: str  #: "perudo" or "kriegspiel"
    seat: int  #: your seat, 0-based
    seats: int  #: how many seats the game has
    options: dict[str, Json]  #: the game's options (``config.to_options()``)
    #: your first snapshot, as ``Game.view(seat)`` gives it; empty over the websocket when
    #: you were seated before the start (every event then reaches ``observe`` from the first)
    view: dict[str, Json]
    room: str | None = None  #: the room id when playing on a server
    players: list[str] = field(default_factory=list)  #: display names by seat, if known
    #: the other seats' public profiles (the server's ``profile`` frames), by seat, when
    #: the transport could fetch them (the websocket transport does at the start)
    profiles: dict[int, dict[str, Json]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Decision:
    """A request for one action: your current view, what you may do, your time."""

    seat: int
    view: dict[str, Json]  #: your snapshot now (``Game.view(seat)``)
    legal: list[str]  #: every action text the game accepts from you now
    time_left: float | None = None  #: seconds on your clock or turn timer, if any


@dataclass(frozen=True, slots=True)
class GameResult:
    """How the game ended, from your seat's point of view."""

    seat: int
    ranks: list[int]  #: placing by seat (1 is best; ties share a rank)
    reason: str  #: "last_player_standing", "checkmate", "agreed_draw", ...
    final: dict[str, Json] = field(default_factory=dict)  #: the game_over projection

    @property
    def rank(self) -> int:
        """Your placing."""
        return self.ranks[self.seat]

    @property
    def won(self) -> bool:
        """True if you alone placed first."""
        return self.rank == 1 and self.ranks.count(1) == 1


class Bot(ABC):
    """Base class of every bot. Override :meth:`decide`; the other callbacks are optional.

    One instance plays one game at a time; transports create a fresh instance per game
    through the class (so a bot may keep per-game state in ``self``). ``name`` is the
    bot's registered name, used for display and in tournaments.
    """

    #: The registered name ("perudo-random"); subclasses set it.
    name: ClassVar[str] = "bot"
    #: The games this bot can play.
    games: ClassVar[tuple[str, ...]] = ()
    #: The levels it may be asked for by name (``name:level``, passed as ``level``).
    levels: ClassVar[tuple[str, ...]] = ()
    #: The bot's version: its ratings are kept per version (a house bot's through the
    #: registry, ``bots.registry.HouseCatalog.version``); "" (the default): the server's.
    version: ClassVar[str] = ""

    async def start(self, info: GameInfo) -> None:
        """The game starts. Keep what you need of ``info`` (your seat, the options)."""
        self.info = info

    async def observe(self, event: dict[str, Json]) -> None:
        """One projection addressed to your seat, in order. Default: ignore it."""
        return None

    @abstractmethod
    async def decide(self, decision: Decision) -> str:
        """Return one action text from ``decision.legal``."""

    async def rejected(self, action: str, code: str, reason: str) -> None:
        """The game refused ``action`` (``code`` as in the protocol). Default: ignore."""
        return None

    async def end(self, result: GameResult) -> None:
        """The game is over. Default: ignore."""
        return None


class BotError(Exception):
    """A bot could not be loaded or misbehaved beyond what the transport tolerates."""
