"""The interface every rules engine implements, and the few helpers they share.

Engines are sans-I/O state machines (DESIGN.md, idea 1): they import no asyncio, json,
sqlite3, time or global ``random``. A game is an immutable *config* plus a mutable *state*
(a :class:`Game`), created by the engine module's ``new_game(config, seed)``. Applying an
action returns :class:`Event` objects; each event carries its *truth* (for the log) and a
*projection* for every seat and for a spectator (DESIGN.md, idea 2). The server never
decides what is secret: it only delivers projections.

Replaying ``(config, seed, records)`` with :func:`replay` always gives the same state and the
same events, because the only randomness is drawn from the seed by :func:`draw`.

Exceptions::

    GameError                 root of everything an engine raises on purpose
    ├── ConfigError           options that do not make a valid game (also a ValueError)
    └── IllegalAction         an action refused; the game state is unchanged
                              (``code`` says which kind: see :data:`ILLEGAL_CODES`)
"""

from __future__ import annotations

import hashlib
import hmac
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple, Protocol, Self, TypeAlias

#: JSON-compatible data: what projections, truths and views are made of. Engines build
#: plain dicts, lists, str, int, bool and None only, so any transport can serialise them.
Json: TypeAlias = Any

#: A viewer is a seat index (0-based) or ``None`` for a spectator.
Viewer: TypeAlias = int | None

#: The codes an :class:`IllegalAction` may carry. The server maps them to error frames.
ILLEGAL_CODES = frozenset(
    {
        "malformed",  # the text is not an action of this game at all
        "not_your_turn",  # a well-formed action from a seat that may not act now
        "game_over",  # the game has ended
        "illegal",  # against the rules in this position
        "repeated",  # an attempt already refused this turn (Kriegspiel)
    }
)

#: The prefix of a system record: an outcome the server imposes (time forfeit,
#: abandonment), which players can never send themselves.
FORFEIT_PREFIX = "forfeit:"


class GameError(Exception):
    """Root of the exceptions engines raise on purpose."""


class ConfigError(GameError, ValueError):
    """Options that do not describe a valid game; the message names the option and why."""


class IllegalAction(GameError):
    """An action was refused. The game state is exactly as it was before the call.

    ``reason`` is a sentence a player can read ("5x3 does not raise 5x4: ...");
    ``code`` is one of :data:`ILLEGAL_CODES`, for programs.
    """

    def __init__(self, reason: str, code: str = "illegal") -> None:
        if code not in ILLEGAL_CODES:
            raise ValueError(f"unknown illegal-action code {code!r}")
        super().__init__(reason)
        self.reason = reason
        self.code = code


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened in a game, with what each viewer may know of it.

    ``truth`` is the complete record, for the log only. ``seats[i]`` is the projection
    seat ``i`` receives and ``spectator`` the one a spectator of a game in progress
    receives; ``None`` means that viewer learns nothing at all of this event: it leaves no
    trace in that viewer's stream, no placeholder and no skipped number (sequence numbers
    are per viewer, :mod:`server.roomcore.streams`). Every
    projection, like the truth, is a JSON-compatible dict whose ``"type"`` names the event.
    Never mutate the dicts: the same dict object may be shared by several viewers.
    """

    truth: dict[str, Json]
    seats: tuple[dict[str, Json] | None, ...]
    spectator: dict[str, Json] | None

    @property
    def type(self) -> str:
        """The event's kind, e.g. ``"bid"`` or ``"round_started"``."""
        return str(self.truth["type"])

    def view(self, viewer: Viewer) -> dict[str, Json] | None:
        """The projection for ``viewer`` (a seat index, or ``None`` for a spectator)."""
        if viewer is None:
            return self.spectator
        return self.seats[viewer]

    @classmethod
    def public(cls, num_seats: int, payload: dict[str, Json]) -> Event:
        """An event everyone sees in full: the truth is the projection for all."""
        return cls(payload, (payload,) * num_seats, payload)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: a placing for every seat (1 is best; ties share a rank).

    A draw between two players is ``ranks=(1, 1)``. ``reason`` is a short machine word
    ("last_player_standing", "checkmate", "agreed_draw", "forfeit", ...).
    """

    ranks: tuple[int, ...]
    reason: str

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats placed first (several in a draw)."""
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 1)

    @property
    def is_draw(self) -> bool:
        """True when more than one seat shares first place."""
        return len(self.winners) > 1

    def to_json(self) -> dict[str, Json]:
        """The outcome as a JSON-compatible dict."""
        return {"ranks": list(self.ranks), "winners": list(self.winners), "reason": self.reason}


class Record(NamedTuple):
    """One entry of a game's history: the seat and the action's text.

    Player actions are spelled as the engine's ``parse_action`` reads them ("5x4",
    "dudo", "e2e4"); a forfeit the server imposed is spelled ``"forfeit:<reason>"``.
    """

    seat: int
    action: str


class GameConfig(Protocol):
    """What every engine's config offers: a seat count and a round trip to options."""

    @property
    def seats(self) -> int:
        """How many seats the game has."""
        ...

    @classmethod
    def from_options(cls, options: Mapping[str, Json]) -> Self:
        """Build and validate a config from room options; raise :class:`ConfigError`."""
        ...

    def to_options(self) -> dict[str, Json]:
        """The options that rebuild this exact config with :meth:`from_options`."""
        ...


class Game(ABC):
    """The state of one game in progress: the common interface of all engines.

    Create one with the engine module's ``new_game(config, seed)``, which also returns the
    opening events. Then call :meth:`apply` for each action a seat sends; it returns the
    events that followed, or raises :class:`IllegalAction` leaving the state unchanged.
    Clocks live outside engines: when a clock or an absence ends a player's game, the
    server calls :meth:`forfeit`.
    """

    #: The engine's name as used in room options and logs ("perudo", "kriegspiel").
    name: ClassVar[str]

    def __init__(self, seed: bytes) -> None:
        self.seed = seed
        self.history: list[Record] = []

    # -- the engine's own rules -------------------------------------------------------

    @property
    @abstractmethod
    def config(self) -> GameConfig:
        """The immutable config this game was created with."""

    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat whose decision the game waits for, or ``None`` once it is over."""

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else ``None``."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Any]:
        """The actions ``seat`` may send now, judged only by what that seat may know.

        Empty when the seat may not act. For Kriegspiel this lists attempts that are
        possible on the seat's own board, not the moves that are legal on the real one.
        """

    def legal_texts(self, seat: int) -> list[str]:
        """The texts of :meth:`legal_actions` (what a ``turn`` frame lists); engines with
        many actions per turn may cache them."""
        return [str(action) for action in self.legal_actions(seat)]

    @abstractmethod
    def view(self, viewer: Viewer) -> dict[str, Json]:
        """A snapshot of everything ``viewer`` may know now (for a joining client)."""

    @classmethod
    @abstractmethod
    def parse_action(cls, text: str) -> Any:
        """Parse a player's action from its text; raise ``IllegalAction(code="malformed")``."""

    @abstractmethod
    def _apply(self, seat: int, action: Any) -> list[Event]:
        """Apply a parsed action for ``seat`` (already checked to be in range)."""

    @abstractmethod
    def _forfeit(self, seat: int, reason: str) -> list[Event]:
        """Remove ``seat`` from the game for ``reason`` (the game is not over)."""

    # -- the shared frame ------------------------------------------------------------

    @property
    def num_seats(self) -> int:
        """How many seats the game has."""
        return self.config.seats

    @property
    def is_over(self) -> bool:
        """True once the game has an outcome."""
        return self.outcome is not None

    def apply(self, seat: int, action: Any) -> list[Event]:
        """Apply ``action`` (an action object or its text) for ``seat``; return the events.

        Raises :class:`IllegalAction` and changes nothing when the action is refused.
        """
        self._check_seat(seat)
        if self.is_over:
            raise IllegalAction("the game is over", "game_over")
        if isinstance(action, str):
            if action.startswith(FORFEIT_PREFIX):
                raise IllegalAction(
                    "a forfeit is imposed by the server, not sent by a player", "malformed"
                )
            action = self.parse_action(action)
        events = self._apply(seat, action)
        self.history.append(Record(seat, str(action)))
        return events

    def in_play(self, seat: int) -> bool:
        """Whether ``seat`` still takes part: it may move again and can be forfeited. In a
        game every seat plays to the end, this is the game not being over; a game that
        puts seats out (Perudo) says which are."""
        self._check_seat(seat)
        return not self.is_over

    def forfeit(self, seat: int, reason: str) -> list[Event]:
        """Take ``seat`` out of the game for ``reason`` (``"timeout"``, ``"abandoned"``...).

        Called by the server when a clock runs out or a player is gone for good; the
        engine decides what that means for the game (a loss, or the end of the game).
        """
        self._check_seat(seat)
        if self.is_over:
            raise IllegalAction("the game is over", "game_over")
        if not reason or not reason.replace("_", "").isalnum():
            raise ValueError(f"a forfeit reason is one word, not {reason!r}")
        events = self._forfeit(seat, reason)
        self.history.append(Record(seat, FORFEIT_PREFIX + reason))
        return events

    def apply_record(self, record: Record) -> list[Event]:
        """Apply one history record, player action or forfeit (used by :func:`replay`)."""
        if record.action.startswith(FORFEIT_PREFIX):
            return self.forfeit(record.seat, record.action[len(FORFEIT_PREFIX) :])
        return self.apply(record.seat, record.action)

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.num_seats:
            raise IllegalAction(f"there is no seat {seat!r} in this game", "malformed")


#: An engine module's constructor: ``new_game(config, seed) -> (game, opening events)``.
NewGame: TypeAlias = Callable[[Any, bytes], tuple[Game, list[Event]]]


def replay(
    new_game: NewGame, config: Any, seed: bytes, records: Iterable[Record | Sequence[Any]]
) -> tuple[Game, list[Event]]:
    """Rebuild a game from its config, seed and history; return it and all its events.

    Replaying a game's own ``history`` gives an identical state and identical events. A
    record the engine refuses raises :class:`IllegalAction`: the log does not match.
    """
    game, events = new_game(config, seed)
    for record in records:
        events.extend(game.apply_record(Record(int(record[0]), str(record[1]))))
    return game, events


# -- fair randomness ---------------------------------------------------------------------

_DRAW_SPACE = 1 << 64


def draw(seed: bytes, label: str, n: int) -> int:
    """A uniform integer in ``range(n)`` determined only by ``seed`` and ``label``.

    It is HMAC-SHA256(seed, label + "#" + counter) read as a 64-bit integer, with
    rejection sampling so that every value is exactly equally likely; anyone who knows the
    seed can recompute it. Each label must name one random choice (for example
    ``"perudo/round/3/seat/1/die/4"``).
    """
    if n <= 0:
        raise ValueError("draw needs n >= 1")
    limit = _DRAW_SPACE - (_DRAW_SPACE % n)
    counter = 0
    while True:
        digest = hmac.digest(seed, f"{label}#{counter}".encode(), "sha256")
        value = int.from_bytes(digest[:8], "big")
        if value < limit:
            return value % n
        counter += 1


def seed_commitment(seed: bytes) -> str:
    """The public commitment to a seed: its SHA-256 as hex, published at game start."""
    return hashlib.sha256(seed).hexdigest()
