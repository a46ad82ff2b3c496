"""A room's side of ratings: whether its game is rated, and the rating changes it shows.

The rating systems live in :mod:`server.ratings`; a room only asks them two things. When
its game starts, :func:`decision` (``server.ratings.plan.decide``) says whether the game
is rated and how (the JSON kept in ``GameRow.rated``: the system, the rule set, each
seat's version and pool), from the game, its options, the room's ``rated`` setting and
who sits: each seat's kind of player (a house seat is ``house``, whoever its player
row says) and version (a bot's ``bot_version`` from ``hello``; a house bot's from the
bots' registry, the server's own version when it has none). When the game ends, the
core puts ``server.ratings.plan.plan_for(row)`` into its :class:`~server.store.journal.Finish`,
the store rates the game in the finish's own transaction and the room hands the changes
back (:class:`~server.roomcore.messages.Rated`), which :func:`infos` turns into the
``room`` frame's ``ratings``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from server.games.base import Event
from server.ratings import plan as rating_plan
from server.ratings import rules
from server.ratings.rules import system_of
from server.roomcore.seating import Seat
from server.store.contract import GameRow, RatingChange, RatingPlan
from server.wire.frames import RatingChangeInfo

#: A house bot's rating version, by the bot's name (``kriegspiel-meta``, ``autopilot``).
HouseVersion = Callable[[str], str]


@dataclass(frozen=True, slots=True)
class Holder:
    """Who holds a seat, as the rating decision reads it (``server.ratings.plan.Seated``)."""

    id: str
    kind: str
    version: str
    owner: str | None = None


def holder(seat: Seat, house_version: HouseVersion) -> Holder | None:
    """The holder of ``seat`` for ratings (None: nobody sits there). A house seat (the
    server's bots, the autopilot) is ``house``, whatever its player row says, with the
    version the bots' registry gives (``house_version``); a player keeps its kind and the
    version its ``hello`` said."""
    player = seat.player
    if player is None:
        return None
    if seat.house:
        return Holder(player.id, "house", house_version(seat.bot or "autopilot"))
    return Holder(player.id, player.kind, player.version, player.owner)


def decision(
    game: str,
    options: dict[str, Any],
    seats: Sequence[Seat],
    mode: bool | None,
    house_version: HouseVersion,
) -> dict[str, Any] | None:
    """How the game about to start with ``seats`` (every one held) is rated, as stored in
    ``GameRow.rated``; ``None``: it is casual. ``mode`` is the room's ``rated`` setting."""
    holders = [holder(seat, house_version) for seat in seats]
    return rating_plan.decide(game, options, holders, mode)


def holders(seats: Sequence[Seat], house_version: HouseVersion) -> tuple[Holder | None, ...]:
    """Each seat's :func:`holder` (``None``: empty), in order."""
    return tuple(holder(seat, house_version) for seat in seats)


def preview(
    game: str, options: dict[str, Any], held: Sequence[Holder | None], mode: bool | None
) -> bool:
    """Whether a waiting room's game will be rated if its empty seats (``None`` in
    ``held``, from :func:`holders`) are taken by accounts (a guest sitting down makes a
    ``rated: null`` room casual)."""
    if mode is False:
        return False
    seats = [
        holder or Holder(f"(seat {index})", "account", "") for index, holder in enumerate(held)
    ]
    return rating_plan.decide(game, options, seats, mode) is not None


def rated_game(game: str) -> bool:
    """Whether games of ``game`` may be rated at all (the catalogue offers them the
    ``rated`` room option)."""
    return system_of(game) is not None


def rated_rules(game: str, options: dict[str, Any]) -> bool:
    """Whether a game of ``game`` with these options can be rated at all (its rule set
    is one that is rated), whoever sits down."""
    seats = [Holder(f"(seat {index})", "account", "") for index in range(2)]
    return rating_plan.decide(game, options, seats, True) is not None


def default_clock(game: str) -> tuple[float, float] | None:
    """The clock (base, increment in seconds) a rated game of ``game`` gets when its room
    set no time limit, or None."""
    return rules.default_clock(game)


def played_enough(game: str, log: Sequence[Event]) -> bool:
    """Whether the game went far enough (every seat moved) to be rated."""
    return rules.played_enough(game, (event.truth for event in log))


def plan(row: GameRow) -> RatingPlan | None:
    """How the store rates the ended game of ``row`` (``None``: it is casual)."""
    return None if row.rated is None else rating_plan.plan_for(row)


def infos(changes: Sequence[RatingChange]) -> list[RatingChangeInfo]:
    """The ``room`` frame's ``ratings``: each seat's rating change, in seat order."""
    return rating_plan.change_infos(changes)
