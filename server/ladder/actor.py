"""The ladder on a server: the pairing of :mod:`server.ladder.core` with its I/O done.

:class:`LadderActor` takes the ``ladder`` messages of bot accounts, the closing of their
connections and the end of ladder rooms, feeds them to one :class:`~server.ladder.core.Ladder`
and carries out its effects: an :class:`~server.ladder.core.Open` becomes a room opened
through :meth:`server.rooms.lobby.Lobby.open_match` (source ``"ladder"``, rated), whose
``match`` frame reaches every live connection of each seated bot; the room's end comes
back through ``Lobby.match_ended["ladder"]``. Ratings are read from the store when a bot
joins and after each of its ladder games. Every call into the core is synchronous on the
event loop, so the core sees one input at a time (the actor needs no queue of its own);
a timer wakes it when a grace period runs out.

House bots join at :meth:`LadderActor.start` for every (game, rule set) the server's
catalogue gives them, unless ``umpire serve --no-ladder-house`` turned them off.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from server.errors import ClientError
from server.games import ConfigError
from server.games import engine as find_engine
from server.ladder.core import HOUSE, Effect, Entry, Ladder, Left, Limits, Open
from server.players.identity import Player
from server.ratings.plan import seat_version
from server.ratings.rules import RATED_GAMES, rule_set, rule_sets
from server.rooms.lobby import HouseSeat, Lobby, MatchSeat
from server.store.contract import GameRow, Store
from server.wire.frames import LadderJoinedFrame

log = logging.getLogger(__name__)

#: the pairing-to-room times the ladder keeps (the latest ones)
OPEN_TIMES = 10_000

#: The ``source`` of the ladder's matches (``Lobby.open_match``, the ``match`` frame).
SOURCE = "ladder"


def ladder_options(game: str, rules: str, seats: int) -> dict[str, Any]:
    """The room options of a ladder game: exactly the rule set's, for ``seats`` players.
    Raise :class:`ClientError` (``unsupported``) for a game or rule set never rated."""
    rated = RATED_GAMES.get(game)
    if rated is None or rules not in rule_sets(game):
        names = ", ".join(rule_sets(game)) or "none: it is never rated"
        raise ClientError("unsupported", f"no ladder for {game} {rules}; its rule sets: {names}")
    options: dict[str, Any] = {rated.rule_option: rules}
    spec = find_engine(game)
    if not spec.min_seats <= seats <= spec.max_seats:
        raise ClientError(
            "bad_options", f"{game} is played by {spec.min_seats} to {spec.max_seats}, not {seats}"
        )
    if "seats" in rated.free:
        options["seats"] = seats
    elif seats != spec.min_seats:
        raise ClientError("bad_options", f"{game}'s ladder games have {spec.min_seats} players")
    if rule_set(game, options) != rules:
        raise ClientError("unsupported", f"{game} {rules} with {seats} players is not rated")
    return options


def default_rules(game: str) -> str:
    """The rule set a ``ladder`` without ``rules`` means: the game's default one."""
    rated = RATED_GAMES.get(game)
    try:
        spec = find_engine(game)
    except ConfigError:
        raise ClientError("unsupported", f"no such game: {game!r}") from None
    if rated is None:
        raise ClientError("unsupported", f"{game} is never rated: it has no ladder")
    value = getattr(spec.make_config({}), rated.rule_option)
    return str(value)


class LadderActor:
    """Runs the ladder of one server process (docs/bots.md, "The ladder")."""

    def __init__(
        self,
        lobby: Lobby,
        store: Store,
        limits: Limits | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        house_version: Callable[[str], str] = lambda kind: "",
    ) -> None:
        self.lobby = lobby
        self.store = store
        self.core = Ladder(limits)
        self.clock = clock
        self.house_version = house_version
        #: the Player of each bot member (its seat in open_match), by player id
        self._players: dict[str, Player] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        #: rooms opened, and the times from the pairing to the room of the latest
        #: OPEN_TIMES pairings (benchmarks read it; bounded: a server runs for months)
        self.opened = 0
        self.open_seconds: deque[float] = deque(maxlen=OPEN_TIMES)
        #: the most ladder games each player played at once (tests and metrics read it)
        self.peak: dict[str, int] = {}
        lobby.match_ended[SOURCE] = self._room_ended

    # -- inputs ----------------------------------------------------------------------

    async def join(
        self,
        link: Hashable,
        player: Player,
        owner: str,
        game: str,
        rules: str | None,
        max_concurrent: int,
        seats: int | None = None,
    ) -> LadderJoinedFrame:
        """A ``ladder`` message of a bot account's connection ``link``."""
        if player.kind != "bot":
            raise ClientError("unsupported", "only a bot account plays on the ladder")
        default = default_rules(game)  # (unsupported for a game never rated or unknown)
        rules = rules or default
        size = seats or find_engine(game).min_seats
        options = ladder_options(game, rules, size)
        rating = await self._rating(player.id, seat_version(player), game, rules)
        self._players[player.id] = player
        entry = Entry(
            player.id,
            owner,
            game,
            rules,
            options,
            size,
            max_concurrent,
            seat_version(player),
            None,
            rating,
        )
        self._apply(self.core.join(entry, self.clock(), link))
        member = self.core.members.get((player.id, game, rules))
        limit = member.limit if member is not None else 0
        return LadderJoinedFrame(game, rules, limit, self.core.playing(player.id))

    async def add_house(
        self, kind: str, game: str, rules: str, max_concurrent: int, player_id: str
    ) -> None:
        """A house bot of ``kind`` (player id ``player_id``) joins a ladder for good."""
        spec = find_engine(game)
        options = ladder_options(game, rules, spec.min_seats)
        version = self.house_version(kind)
        rating = await self._rating(player_id, seat_version(_House(version)), game, rules)
        entry = Entry(
            player_id,
            HOUSE,
            game,
            rules,
            options,
            spec.min_seats,
            max_concurrent,
            version,
            kind,
            rating,
        )
        self._apply(self.core.join(entry, self.clock()))

    async def restore(self) -> int:
        """Count the ladder rooms this process restored from the log (a restart) against
        their players' limits; return how many. Call after ``Lobby.restore``."""
        adopted = 0
        for room in list(self.lobby.rooms.values()):
            if room.settings.match != SOURCE or room.state not in ("waiting", "playing"):
                continue
            row = room.row
            rules = rule_set(row.game, row.options)
            if rules is None or any(seat is None for seat in row.seats):
                continue
            seats: list[tuple[str, str]] = []
            for player_id in row.seats:
                assert player_id is not None
                stored = await self.store.player(player_id)
                if stored is not None and stored.kind == "house":
                    owner = HOUSE
                else:
                    owner = (stored.owner if stored is not None else None) or player_id
                seats.append((player_id, owner))
            self.core.adopt(room.id, row.game, rules, seats, self.clock())
            adopted += 1
        return adopted

    def drop(self, link: Hashable) -> None:
        """The connection ``link`` closed (its memberships start their grace period)."""
        if any(True for _ in self.core.of(link)):
            self._apply(self.core.drop(link, self.clock()))

    def close(self) -> None:
        """Stop: cancel the timer and the rooms being opened."""
        if self._timer is not None:
            self._timer.cancel()
        for task in list(self._tasks):
            task.cancel()

    # -- effects ---------------------------------------------------------------------

    def _apply(self, effects: Iterable[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, Open):
                for seat in effect.seats:
                    now = self.core.playing(seat.player)
                    if now > self.peak.get(seat.player, 0):
                        self.peak[seat.player] = now
                task = asyncio.get_running_loop().create_task(self._open(effect))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
            elif isinstance(effect, Left):
                log.info(
                    "ladder %s %s: %s left (%s)",
                    effect.game,
                    effect.rules,
                    effect.player,
                    effect.reason,
                )
        self._arm()

    def _arm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        wake = self.core.wake()
        if wake is not None:
            loop = asyncio.get_running_loop()
            delay = max(0.0, wake - self.clock())
            self._timer = loop.call_later(delay, self._tick)

    def _tick(self) -> None:
        self._timer = None
        self._apply(self.core.tick(self.clock()))

    async def _open(self, effect: Open) -> None:
        seats: list[MatchSeat] = []
        for seat in effect.seats:
            if seat.house is not None:
                seats.append(HouseSeat(seat.house))
            else:
                seats.append(self._players[seat.player])
        began = time.perf_counter()
        try:
            room = await self.lobby.open_match(
                effect.game, dict(effect.options), seats, source=SOURCE
            )
        except asyncio.CancelledError:
            raise
        except ClientError as exc:
            log.warning("ladder: could not open a %s room: %s", effect.game, exc.message)
            self._apply(self.core.failed(effect.match, self.clock()))
            return
        except Exception:
            log.exception("ladder: opening a %s room failed", effect.game)
            self._apply(self.core.failed(effect.match, self.clock()))
            return
        self.opened += 1
        self.open_seconds.append(time.perf_counter() - began)
        self.core.opened(effect.match, room.id)

    def _room_ended(self, room_id: str, row: GameRow) -> None:
        match = self.core.rooms.get(room_id)
        if match is None:
            return
        game = self.core.games.get(match)
        keys = game.members if game is not None else ()
        self._apply(self.core.ended(room_id, self.clock()))
        if keys:
            task = asyncio.get_running_loop().create_task(self._rerate(keys))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _rerate(self, keys: Iterable[tuple[str, str, str]]) -> None:
        for player, game, rules in keys:
            member = self.core.members.get((player, game, rules))
            if member is None:
                continue
            rating = await self._rating(player, member.entry.version, game, rules)
            self.core.rate(player, game, rules, rating)

    async def _rating(self, player: str, version: str, game: str, rules: str) -> float:
        for row in await self.store.ratings(player):
            key = row.key
            if key.version == version and key.game == game and key.rules == rules:
                return row.rating.rating
        return 1500.0


class _House:
    """A house seat as :func:`server.ratings.plan.seat_version` reads it."""

    def __init__(self, version: str) -> None:
        self.id = ""
        self.kind = "house"
        self.version = version
