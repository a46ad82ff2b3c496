"""The engine contract: everything that differs between games, in one value per engine.

Each engine module exports ``ENGINE``, an :class:`Engine`, and :func:`server.games.engine`
returns it by name. Code outside ``server/games`` asks the engine (seat range, statistics,
verification, records, stand-in) and never branches on a game's name; adding a game is
writing one engine module and registering it (:func:`server.games.register`).

The helpers here are what most engines share: :func:`result_stats` (the ``games``,
``wins``, ``draws``, ``losses`` every engine's statistics start from),
:func:`check_seat_count` (the seat-range message), and the defaults :func:`no_checks` and
:func:`no_record`.

What clients are told of a game (``server.wire.catalogue``) is described here too, in every
language of :data:`LANGS`: the game's title (:attr:`Engine.title`), and on its config
type ``OPTIONS`` (an :class:`Option` per option: help, choices, bounds) and, where it
has presets, ``PRESETS`` with ``PRESET_HELP`` (a :class:`Text` per preset).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from server.games.base import (
    ConfigError,
    Event,
    Game,
    GameConfig,
    Json,
    NewGame,
    Outcome,
    Record,
    replay,
)

#: ``stats(public_events, outcome, seats)``: each seat's statistics for a finished game,
#: from what anyone may see of its events once it is over (:meth:`Engine.public_record`:
#: the ``after_game`` projections, ``None`` ones skipped) only.
StatsFn = Callable[[Sequence[dict[str, Json]], Outcome, int], list[dict[str, float]]]

#: ``after_game(event)``: what anyone may see of ``event`` once the game is over (by
#: default what a spectator saw during the game), or ``None``.
AfterGameFn = Callable[[Event], "dict[str, Json] | None"]

#: ``verify(config, seed, records, truths)``: the engine's own fairness checks of a logged
#: game whose seed is revealed (problems as sentences; empty when all is well).
VerifyFn = Callable[[Any, bytes, Sequence[Record], Sequence[dict[str, Json]]], list[str]]

#: ``record_text(game, players, started)``: the game as a text record (PGN for Kriegspiel),
#: or None; ``started`` is when it started (the games row's, seconds since the epoch) or
#: None. The caller passes it in: engines do no I/O and read no clock.
RecordFn = Callable[[Game, Sequence[str | None], float | None], str | None]

#: ``standin_policy(game, seat)``: a move for an absent seat, judged only from what the seat
#: may know, or ``None`` when it cannot act.
StandinPolicy = Callable[[Game, int], str | None]

#: ``with_seats(config, n)``: the same config for ``n`` seats; ``ConfigError`` if impossible.
WithSeatsFn = Callable[[Any, int], Any]


#: The languages of every text a client is shown: English and Italian.
LANGS = ("en", "it")


@dataclass(frozen=True, slots=True)
class Text:
    """One text in every language of :data:`LANGS` (plain text, no markup)."""

    en: str
    it: str

    def get(self, lang: str) -> str:
        """The text in ``lang`` (one of :data:`LANGS`); ``KeyError`` for another."""
        if lang not in LANGS:
            raise KeyError(f"no language {lang!r}: one of {', '.join(LANGS)}")
        text: str = getattr(self, lang)
        return text


@dataclass(frozen=True, slots=True)
class Option:
    """What a client needs to offer one option of a game: its help, and its choices or
    bounds where the game has them (the type and default come from the config type)."""

    help: Text
    choices: tuple[str, ...] | None = None
    min: float | None = None
    max: float | None = None


def result_stats(outcome: Outcome, seats: int) -> list[dict[str, float]]:
    """Every game's statistics: ``games`` and one of ``wins``, ``draws``, ``losses`` per seat."""
    out: list[dict[str, float]] = [{} for _ in range(seats)]
    for seat, rank in enumerate(outcome.ranks[:seats]):
        out[seat]["games"] = 1
        if rank == 1 and outcome.is_draw:
            out[seat]["draws"] = 1
        elif rank == 1:
            out[seat]["wins"] = 1
        else:
            out[seat]["losses"] = 1
    return out


def add(stats: dict[str, float], key: str, amount: float = 1) -> None:
    """Add ``amount`` to ``stats[key]`` (missing keys count as 0)."""
    stats[key] = stats.get(key, 0) + amount


def check_seat_count(name: str, n: int, low: int, high: int) -> None:
    """Raise :class:`ConfigError` unless ``low <= n <= high`` (a whole number)."""
    if not isinstance(n, int) or isinstance(n, bool):
        raise ConfigError(f"the number of players must be a whole number, not {n!r}")
    if low == high and n != low:
        raise ConfigError(f"{name} needs exactly {low} players, not {n}")
    if not low <= n <= high:
        raise ConfigError(f"{name} needs {low} to {high} players, not {n}")


def outcome_only(
    public_events: Sequence[dict[str, Json]], outcome: Outcome, seats: int
) -> list[dict[str, float]]:
    """The default ``stats``: only :func:`result_stats`."""
    return result_stats(outcome, seats)


def spectator_view(event: Event) -> dict[str, Json] | None:
    """The default ``after_game``: a finished game shows what its spectators saw."""
    return event.spectator


def no_checks(
    config: Any, seed: bytes, records: Sequence[Record], truths: Sequence[dict[str, Json]]
) -> list[str]:
    """The default ``verify``: no checks beyond the generic replay (which export does)."""
    return []


def no_record(
    game: Game, players: Sequence[str | None], started: float | None = None
) -> str | None:
    """The default ``record_text``: the engine has no text record format."""
    return None


@dataclass(frozen=True, slots=True)
class Engine:
    """One rules engine and everything the server needs to know about its game.

    - ``name``, ``config_type``, ``game_type``, ``new_game``: the engine itself;
    - ``min_seats``, ``max_seats`` and ``with_seats(config, n)``: the seat range, and the
      config for ``n`` seats (``ConfigError`` with a clear message when out of range);
    - ``stats(public_events, outcome, seats)``: statistics from what became public only
      (start from :func:`result_stats`); ``after_game(event)`` says what anyone may see of
      an event once the game is over (default: the spectator's projection; Kriegspiel
      reveals every attempt), and :meth:`public_record` applies it to a whole log;
    - ``verify(config, seed, records, truths)``: engine-specific fairness checks (Perudo
      recomputes every die); the generic replay check is the exporter's;
    - ``record_text(game, players, started)`` and ``record_format``: a text record of a game
      (``"pgn"`` for Kriegspiel), or ``None``;
    - ``standin_policy(game, seat)``: the fallback move for an absent seat, or ``None``
      when an absent player forfeits ("abandoned") instead;
    - ``standin_bot``: the house bot that stands in for an absent player, or ``None``;
    - ``title``: the game's name as clients show it (default: ``name`` capitalised).
    """

    name: str
    config_type: type[GameConfig]
    game_type: type[Game]
    new_game: NewGame
    min_seats: int
    max_seats: int
    with_seats: WithSeatsFn
    stats: StatsFn = outcome_only
    verify: VerifyFn = no_checks
    record_text: RecordFn = no_record
    record_format: str | None = None
    standin_policy: StandinPolicy | None = None
    standin_bot: str | None = None
    after_game: AfterGameFn = spectator_view
    title: Text | None = None

    def title_in(self, lang: str) -> str:
        """The game's title in ``lang`` (one of :data:`LANGS`)."""
        return self.title.get(lang) if self.title is not None else self.name.capitalize()

    def public_record(self, log: Sequence[Event]) -> list[dict[str, Json]]:
        """Every event of a finished game as anyone may see it (what ``stats`` reads)."""
        return [p for p in (self.after_game(event) for event in log) if p is not None]

    def make_config(self, options: Mapping[str, Any]) -> Any:
        """Validate room options into this engine's config; raise ``ConfigError``."""
        return self.config_type.from_options(options)

    def stored_config(self, options: Mapping[str, Any]) -> Any:
        """The config of a logged game from its stored options (``to_options`` of its
        day). A config type may define ``from_stored`` for options that a later version
        added: missing from a stored config, they take the value the game was played
        under, where a player's missing option takes today's default."""
        from_stored = getattr(self.config_type, "from_stored", None)
        if from_stored is not None:
            return from_stored(options)
        return self.config_type.from_options(options)

    def replay(
        self, config: Any, seed: bytes, records: Sequence[Record | Sequence[Any]]
    ) -> tuple[Game, list[Event]]:
        """Rebuild a game from its config, seed and history (:func:`~server.games.base.replay`)."""
        return replay(self.new_game, config, seed, records)
