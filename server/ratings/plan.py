"""Whether a game is rated (decided when it starts) and how its end is rated.

When a game starts, :func:`decide` fixes ``GameRow.rated``::

    {"system": "glicko2" | "openskill", "rules": "<rule set>",
     "versions": ["<seat 0's version>", ...], "pools": ["human" | "bot", ...]}

or None (a casual game). Everything a rating needs beyond the log's own rows is in it, so
``umpire ratings rebuild`` recomputes every rating from the log alone.

When the game's end is stored, :func:`plan_for` turns the finished row (its ``rated`` and
its result's ``ranks``) into the :class:`~server.store.contract.RatingPlan` that
``Store.finish_game`` applies in the same transaction. :func:`change_infos` makes the
``room`` frame's ``ratings`` from the stored changes.

A game is rated when (with the room's ``rated`` setting not ``false``) its options are a
rule set's (:mod:`server.ratings.rules`), every seat is held by an account, a bot account
or a house bot, and no rating key (player and version) holds two seats: a player never
plays itself for rating, so two house bots of one kind at one table make the game casual,
and neither does an account play its own bot accounts for rating.

A game that ends before every seat has moved (:func:`server.ratings.rules.played_enough`:
Kriegspiel under 2 plies, Perudo before its first round ends) is stored as casual: the
room clears ``GameRow.rated`` before the end is stored, so a rebuild never sees it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, Protocol

from server import __version__
from server.ratings.glicko2 import Glicko, Glicko2
from server.ratings.plackett_luce import Placings, Skill
from server.ratings.rules import GLICKO2, OPENSKILL, rule_set, system_of
from server.store.contract import GameRow, Rating, RatingChange, RatingKey, RatingPlan
from server.wire.frames import RatingChangeInfo

#: The rating pool of each kind of player that may be rated (guests are never rated).
POOL_OF_KIND = {"account": "human", "bot": "bot", "house": "bot"}

#: A rating is provisional while its deviation is above this bound (docs/ratings.md).
PROVISIONAL_DEVIATION = {GLICKO2: 110.0, OPENSKILL: 300.0}

GLICKO = Glicko2()
PLACINGS = Placings()
#: a player's rating before its first rated game, by system (a first change's ``before``)
INITIAL = {
    GLICKO2: Rating(GLICKO.rating, GLICKO.deviation, GLICKO.volatility, 0),
    OPENSKILL: Rating(PLACINGS.mu, PLACINGS.sigma, None, 0),
}


class Seated(Protocol):
    """What :func:`decide` reads of a seat's holder (``server.players.identity.Player``)."""

    @property
    def id(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def version(self) -> str: ...


def seat_version(player: Seated) -> str:
    """The version a seat is rated under: a bot account's ``bot_version``, a house bot's
    registry version (umpire's own when it has none), nothing for a human."""
    if player.kind == "account":
        return ""
    if player.kind == "house":
        return player.version or __version__
    return player.version


def distinct_owners(seats: Sequence[Any]) -> bool:
    """Whether no two of these seats belong to one owner: an account and its own bot
    accounts, or two bot accounts of one owner, never meet in rated play (seeks, rematches,
    tournaments, the ladder and rooms all ask this). A seat's *party* is its id and its
    ``owner`` (if any); two parties that share a name share an owner."""
    seen: set[str] = set()
    for player in seats:
        if player is None:
            continue
        party = {player.id}
        owner = getattr(player, "owner", None)
        if owner:
            party.add(owner)
        if party & seen:
            return False
        seen |= party
    return True


def decide(
    game: str,
    options: Mapping[str, Any],
    seats: Sequence[Seated | None],
    rated_setting: bool | None = None,
) -> dict[str, Any] | None:
    """``GameRow.rated`` for a game starting with these seats, or None (casual).

    ``rated_setting`` is the room's ``rated`` option: False is always casual; None and
    True rate the game when it can be rated (with True, the room refuses guests a seat
    before this is asked)."""
    if rated_setting is False or len(seats) < 2:
        return None
    system = system_of(game)
    rules = rule_set(game, options)
    if system is None or rules is None:
        return None
    versions: list[str] = []
    pools: list[str] = []
    keys: set[tuple[str, str]] = set()
    for player in seats:
        if player is None or player.kind not in POOL_OF_KIND:
            return None
        version = seat_version(player)
        if (player.id, version) in keys:
            return None
        keys.add((player.id, version))
        versions.append(version)
        pools.append(POOL_OF_KIND[player.kind])
    if not distinct_owners(seats):
        return None  # an account against its own bots, or two bots of one owner (farming)
    return {"system": system, "rules": rules, "versions": versions, "pools": pools}


def plan_for(row: GameRow) -> RatingPlan | None:
    """How to rate a finished game's end, or None: a casual game, an aborted one, or a
    row whose ``rated`` or result does not fit its seats (never rated, logged by the
    caller's store as a casual end)."""
    rated = row.rated
    if not rated or row.status != "finished" or not row.result:
        return None
    ranks = row.result.get("ranks")
    versions = rated.get("versions")
    pools = rated.get("pools")
    seats = row.seats
    n = len(seats)
    if (
        not isinstance(ranks, list)
        or not isinstance(versions, list)
        or not isinstance(pools, list)
        or not n == len(ranks) == len(versions) == len(pools)
        or n < 2
        or any(seat is None for seat in seats)
    ):
        return None
    system = str(rated.get("system"))
    if system not in INITIAL:
        return None
    rate = _rater(system, tuple(int(rank) for rank in ranks))
    keys = tuple(
        (RatingKey(str(seat), str(version), row.game, str(rated["rules"])), str(pool))
        for seat, version, pool in zip(seats, versions, pools, strict=True)
    )
    return RatingPlan(keys, rate, INITIAL[system])


def _rater(
    system: str, ranks: tuple[int, ...]
) -> Callable[[Sequence[Rating | None]], Sequence[Rating]]:
    if system == GLICKO2:
        return partial(rate_glicko2, ranks)
    return partial(rate_openskill, ranks)


def rate_glicko2(ranks: Sequence[int], before: Sequence[Rating | None]) -> list[Rating]:
    """Glicko-2 with the game as one rating period: each seat against every other seat's
    rating before the game, scoring 1 against a worse rank, 0.5 an equal one, 0 a better."""
    current = [
        Glicko(
            r.rating, r.deviation, r.volatility if r.volatility is not None else GLICKO.volatility
        )
        if r is not None
        else GLICKO.new()
        for r in before
    ]
    after: list[Rating] = []
    for seat, mine in enumerate(current):
        results = [
            (other, _score(ranks[seat], ranks[j])) for j, other in enumerate(current) if j != seat
        ]
        new = GLICKO.update(mine, results)
        after.append(Rating(new.rating, new.deviation, new.volatility, _games(before[seat]) + 1))
    return after


def rate_openskill(ranks: Sequence[int], before: Sequence[Rating | None]) -> list[Rating]:
    """OpenSkill Plackett-Luce from the placings (``rating`` is mu, ``deviation`` sigma)."""
    skills = [Skill(r.rating, r.deviation) if r is not None else PLACINGS.new() for r in before]
    new = PLACINGS.rate(skills, ranks)
    return [Rating(s.mu, s.sigma, None, _games(b) + 1) for s, b in zip(new, before, strict=True)]


def _score(mine: int, theirs: int) -> float:
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def _games(rating: Rating | None) -> int:
    return rating.games if rating is not None else 0


def provisional(game: str, deviation: float) -> bool:
    """Whether a rating of ``game`` with this deviation is still provisional."""
    system = system_of(game)
    bound = PROVISIONAL_DEVIATION.get(system or "", 0.0)
    return deviation > bound


def change_infos(changes: Sequence[RatingChange]) -> list[RatingChangeInfo]:
    """The ``room`` frame's ``ratings``: each seat's change, by seat."""
    return [
        RatingChangeInfo(
            seat=change.seat,
            player=change.key.player,
            version=change.key.version,
            before=change.before.rating,
            after=change.after.rating,
            deviation_before=change.before.deviation,
            deviation_after=change.after.deviation,
            games=change.after.games,
            provisional=provisional(change.key.game, change.after.deviation),
        )
        for change in sorted(changes, key=lambda c: c.seat)
    ]
