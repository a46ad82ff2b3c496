"""Which games are rated, by which system, and under which rule set.

A rating belongs to a game and a *rule set*: ratings earned under different rules are
kept apart. A game is rated only when its options are exactly a named rule set's:

- Kriegspiel (Glicko-2): the ``rules`` option (``wild16``, the default, ``cincinnati``,
  ``rand``, ``english``), every other option at its default. A game from a ``fen`` (a
  composed position) or with the draw rules changed is never rated.
- Perudo (OpenSkill Plackett-Luce): the preset's name (``piatnik``, ``classic``) when the
  options are the preset's; only the number of players (``seats``, ``max_players``) is
  free. A game whose options change the preset's rules is never rated.
- Any other game: never rated.

This table is the one place outside ``server/games`` that names games: the engines know
nothing of ratings, and a game is rated by adding a line here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from server.games import engine, engine_names
from server.games.base import ConfigError

#: The rating systems (``GameRow.rated["system"]``).
GLICKO2 = "glicko2"
OPENSKILL = "openskill"
SYSTEMS = (GLICKO2, OPENSKILL)


@dataclass(frozen=True, slots=True)
class RatedGame:
    """How one game is rated: its ``system``, the option that names its rule set, and the
    options a rated game may set freely (the rest must be that rule set's)."""

    system: str
    rule_option: str
    free: tuple[str, ...] = ()
    #: (event type, count): the game is rated only when its log holds at least ``count``
    #: events of this type by its end (every seat has made a move)
    played: tuple[str, int] = ("", 0)
    #: the clock (base, increment) a rated game gets when its room has no time limit
    clock: tuple[float, float] | None = None


#: The rated games, by engine name.
RATED_GAMES: dict[str, RatedGame] = {
    # 2 plies (as lichess); 15 minutes + 10 seconds a move when the room set no clock
    "kriegspiel": RatedGame(GLICKO2, "rules", played=("move", 2), clock=(900.0, 10.0)),
    # the first round ended; 5 minutes + 15 seconds a bid or call when the room set no
    # time limit (a bid rarely takes longer than the increment, a staller is out in 5)
    "perudo": RatedGame(
        OPENSKILL,
        "preset",
        free=("seats", "max_players"),
        played=("reveal", 1),
        clock=(300.0, 15.0),
    ),
}


def default_clock(game: str) -> tuple[float, float] | None:
    """The clock (base, increment in seconds) of a rated ``game`` whose room set no time
    limit (a game without one could be stalled for ever by the losing side), or None."""
    rated = RATED_GAMES.get(game)
    return None if rated is None else rated.clock


def played_enough(game: str, log: Iterable[Mapping[str, Any]]) -> bool:
    """Whether a game whose log (each event's truth) is ``log`` went far enough to be
    rated: every seat has made a move. Kriegspiel: at least 2 plies (a game resigned or
    abandoned earlier is casual, as lichess aborts it); Perudo: its first round ended (a
    ``reveal``). Decided from the log alone, so a replay decides the same."""
    rated = RATED_GAMES.get(game)
    if rated is None:
        return False
    kind, count = rated.played
    return sum(1 for event in log if event.get("type") == kind) >= count


def system_of(game: str) -> str | None:
    """The rating system of ``game``, or None when it is never rated."""
    rated = RATED_GAMES.get(game)
    return rated.system if rated is not None else None


def rule_set(game: str, options: Mapping[str, Any]) -> str | None:
    """The rule set a game with these options is rated under, or None: not rated (a game
    without a rating system, unknown or bad options, or options that are not exactly a
    rule set's)."""
    rated = RATED_GAMES.get(game)
    if rated is None or game not in engine_names():
        return None
    spec = engine(game)
    try:
        config = spec.make_config(options)
        name = getattr(config, rated.rule_option)
        canonical = {rated.rule_option: name}
        canonical.update({option: getattr(config, option) for option in rated.free})
        if spec.make_config(canonical) != config:
            return None
    except (ConfigError, AttributeError, TypeError):
        return None
    return name if isinstance(name, str) else None


def rule_sets(game: str) -> tuple[str, ...]:
    """Every rule set ``game`` may be rated under (its rule option's choices)."""
    rated = RATED_GAMES.get(game)
    if rated is None or game not in engine_names():
        return ()
    option = engine(game).config_type.OPTIONS.get(rated.rule_option)  # type: ignore[attr-defined]
    return tuple(option.choices) if option is not None and option.choices else ()


def default_rule_set(game: str) -> str | None:
    """The rule set of ``game`` with its default options (the leaderboard's default)."""
    return rule_set(game, {})
