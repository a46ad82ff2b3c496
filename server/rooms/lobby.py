"""The lobby: the registry of rooms, invite codes, public listings and recovery.

Rooms are created here (options validated by the engine), found by id (public rooms, or
rooms the player sits in or hosts), by invite code (private rooms) or by a house seat's
ticket, and listed when public. The log is the room (DESIGN.md, idea 3): memory is only a
cache, so a room that is not in memory (a game that ended and was evicted, or any game
after a restart) is rebuilt from the store when someone asks for it. At start-up
:meth:`Lobby.restore` rebuilds every unfinished room.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from server.errors import ClientError
from server.feed.bus import NO_BUS, Bus
from server.games import engine as find_engine
from server.games.base import ConfigError
from server.ids import opaque, time_ordered
from server.players.identity import Identities, Player
from server.roomcore import messages as m
from server.roomcore.core import RoomCore, new_row
from server.roomcore.rating import HouseVersion, rated_rules
from server.rooms.room import (
    ABORTED,
    FINISHED,
    PLAYING,
    WAITING,
    Advisor,
    Launcher,
    Room,
    Settings,
    Timing,
)
from server.store import journal
from server.store.contract import GameRow, Store
from server.store.selfplay_log import is_selfplay
from server.store.signing import Signer
from server.wire.frames import HeldSeat, MatchFrame, OutFrame, RoomInfo, RoomState

log = logging.getLogger(__name__)

#: What made a match (the ``match`` frame's ``source``).
MATCH_SOURCES = ("seek", "rematch", "tournament", "ladder")


@dataclass(frozen=True, slots=True)
class HouseSeat:
    """A match's seat for one of the server's house bots, by kind (a name of the house
    catalogue, or ``autopilot``: the engine's own stand-in policy)."""

    kind: str


#: A seat of :meth:`Lobby.open_match`: a named player (account, bot account, guest) or a
#: house bot by kind.
MatchSeat = Player | HouseSeat

#: Told a match's room id and its final row when its game ended (finished, rating
#: changes stored, or aborted): registered per source in :attr:`Lobby.match_ended`.
EndHook = Callable[[str, GameRow], None]


class Lobby:
    """All the rooms of this server process (the ones in memory, and the log behind them)."""

    def __init__(
        self,
        store: Store,
        identities: Identities,
        timing: Timing,
        *,
        max_rooms: int = 10_000,
        max_rooms_per_player: int = 20,
        max_rooms_per_address: int = 50,
        max_waiting_rooms: int = 2_000,
        bus: Bus = NO_BUS,
    ) -> None:
        self.store = store
        self.identities = identities
        self.timing = timing
        self.max_rooms = max_rooms
        self.max_rooms_per_player = max_rooms_per_player
        self.max_rooms_per_address = max_rooms_per_address
        self.max_waiting_rooms = max_waiting_rooms
        #: the rooms made from each address key (``create``), pruned as they end
        self._by_address: dict[str, set[str]] = {}
        self._address_of: dict[str, str] = {}
        #: rooms rebuilt from the log (a restart, a node's takeover) that count against
        #: no address yet: each counts against the address its host next comes from
        #: (``returns``)
        self._unattributed: set[str] = set()
        #: the rooms in memory each player hosts or sits in, and the players each room is
        #: filed under (``_file``): what ``live_rooms_of`` reads, not every room
        self._by_player: dict[str, set[str]] = {}
        self._players_in: dict[str, set[str]] = {}
        #: the waiting rooms in memory (``_note_state``), for ``max_waiting_rooms``
        self._waiting: set[str] = set()
        self.rooms: dict[str, Room] = {}
        self._invites: dict[str, str] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        #: the public feed (server.feed.bus): rooms publish to it, the lobby its listing
        self.bus = bus
        bus.set_lobby(lambda: self.listing(None))
        #: starts a house bot client for a room's seat (see server.rooms.house); set by the app
        self.launcher: Launcher | None = None
        #: gives ``hint`` advice (the house runners', with the advisor server.root names);
        #: set by the app
        self.advisor: Advisor | None = None
        #: a house bot's rating version by its name (server.rooms.house); set by the app
        self.house_version: HouseVersion | None = None
        #: signs each game's final hash (server.store.signing); set by the app once it
        #: has read the key file
        self.signer: Signer | None = None
        #: several nodes on one database (server.cluster.nodes): ``claim(room, new)`` says
        #: whether this node owns the room (taking its lease) before it is created or
        #: rebuilt here; ``remote_listing(game)`` lists the other nodes' public rooms
        self.claim: Callable[[str, bool], Awaitable[bool]] | None = None
        #: told a room's id when one of its writes was fenced: this node lost the room
        #: before its heartbeat noticed (server.cluster.nodes forgets the lease at once)
        self.lost: Callable[[str], None] | None = None
        self.remote_listing: Callable[[str | None], list[RoomInfo]] | None = None
        #: pushes a frame to every live connection of a player on this node (the app's);
        #: how a ``match`` frame reaches the seated players
        self.notify: Callable[[str, OutFrame], None] | None = None
        #: whether a house bot kind plays a game (the app's house catalogue)
        self.house_plays: Callable[[str, str], bool] | None = None
        #: whoever opens matches of a source hears here when each ends, also for rooms
        #: rebuilt from the log after a restart: ``match_ended[source](room_id, row)``
        self.match_ended: dict[str, EndHook] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        #: the wall clock new room ids are ordered by (server.ids.time_ordered; tests
        #: replace it)
        self.wall: Callable[[], float] = time.time

    # -- rooms ----------------------------------------------------------------------------

    def live_rooms_of(self, player_id: str) -> int:
        """How many of this node's waiting or playing rooms ``player_id`` hosts or sits
        in (whatever made them: a host, a seek, a rematch, a tournament, the ladder)."""
        live = 0
        for room_id in self._by_player.get(player_id, ()):
            room = self.rooms.get(room_id)
            if room is not None and room.state in (WAITING, PLAYING):
                live += 1
        return live

    def waiting_rooms(self) -> int:
        """How many rooms in memory wait for players."""
        return len(self._waiting)

    def _note_state(self, room: Room) -> None:
        if room.state == WAITING and self.rooms.get(room.id) is room:
            self._waiting.add(room.id)
        else:
            self._waiting.discard(room.id)

    def _file(self, room: Room) -> None:
        """File ``room`` under its host and its seated players (as they are now)."""
        now = {pid for pid in room.row.seats if pid is not None}
        if room.host is not None:
            now.add(room.host)
        self._unfile(room.id, self._players_in.get(room.id, set()) - now)
        for pid in now:
            self._by_player.setdefault(pid, set()).add(room.id)
        self._players_in[room.id] = now

    def _unfile(self, room_id: str, players: set[str]) -> None:
        for pid in players:
            held = self._by_player.get(pid)
            if held is not None:
                held.discard(room_id)
                if not held:
                    del self._by_player[pid]

    def check_room_limit(self, player: Player) -> None:
        """Refuse (``too_many_rooms``) a new room for a player who already hosts or sits
        in ``max_rooms_per_player`` live rooms (house bots have no limit)."""
        if player.kind == "house":
            return
        live = self.live_rooms_of(player.id)
        if live >= self.max_rooms_per_player:
            raise ClientError(
                "too_many_rooms",
                f"you already host or sit in {live} open rooms (at most "
                f"{self.max_rooms_per_player}); finish some first",
            )

    async def create(
        self,
        host: Player,
        game: str,
        options: dict[str, Any],
        settings: Settings,
        address: str | None = None,
    ) -> Room:
        """A new waiting room hosted by ``host``, asked from ``address`` (the key the
        per-address limit counts by; ``None``: not counted)."""
        if len(self.rooms) >= self.max_rooms:
            raise ClientError("too_many_rooms", "the server has as many rooms as it can hold")
        self.check_room_limit(host)
        if len(self._waiting) >= self.max_waiting_rooms:
            raise ClientError(
                "too_many_rooms",
                f"the server has {self.max_waiting_rooms} rooms waiting for players: join one",
            )
        made = self._by_address.get(address) if address is not None else None
        if made is not None:
            for room_id in [r for r in made if not self._live(r)]:
                made.discard(room_id)
            if len(made) >= self.max_rooms_per_address:
                raise ClientError(
                    "too_many_rooms",
                    f"your address already made {len(made)} open rooms (at most "
                    f"{self.max_rooms_per_address}); finish some first",
                )
        try:
            eng = find_engine(game)
            config = eng.make_config(options)
        except ConfigError as exc:
            raise ClientError("bad_options", str(exc)) from None
        if settings.turn_time and eng.standin_policy is None:
            raise ClientError(
                "bad_options", f"turn_time needs a stand-in policy; {eng.name} uses a clock"
            )
        if settings.rated and not rated_rules(eng.name, config.to_options()):
            raise ClientError(
                "bad_options",
                f"rated: these {eng.name} options are never rated (docs/ratings.md)",
            )
        room_id = await self.new_room_id()
        invite = None if settings.public else opaque(12)
        room = Room.new(
            room_id,
            eng,
            config,
            settings,
            host.id,
            invite,
            self.store,
            self.timing,
            self._forget,
            self.house_version,
            self.signer,
        )
        await journal.commit(self.store, journal.saved(room.row))
        self._add(room)
        if address is not None:
            self._by_address.setdefault(address, set()).add(room_id)
            self._address_of[room_id] = address
        room.post(m.Relaunch())  # (its first input: an empty room's deadline is armed)
        return room

    def returns(self, player_id: str, address: str) -> None:
        """``player_id`` said who it is from ``address`` (its key): the live rooms it
        hosts that were rebuilt after a restart count against that address from now on
        (the store keeps no address: docs/server.md, "Limits")."""
        if not self._unattributed:
            return
        for room_id in self._by_player.get(player_id, ()):
            if room_id not in self._unattributed:
                continue
            room = self.rooms.get(room_id)
            if room is None or room.host != player_id:
                continue
            self._unattributed.discard(room_id)
            if self._live(room_id):
                self._by_address.setdefault(address, set()).add(room_id)
                self._address_of[room_id] = address

    def _live(self, room_id: str) -> bool:
        room = self.rooms.get(room_id)
        return room is not None and not room.closed and room.state in (WAITING, PLAYING)

    async def open_match(
        self,
        game: str,
        options: dict[str, Any],
        seats: Sequence[MatchSeat],
        *,
        source: str,
        ref: str | None = None,
        settings: Settings | None = None,
        no_show: float | None = None,
        round: int | None = None,
        room_id: str | None = None,
        refs: Mapping[str, str] | None = None,
    ) -> Room:
        """Open a room whose seats are already given (a *match*), in seat order: named
        players or house bots by kind. Each seated player's live connections get a
        ``match`` frame; the seat is also in ``welcome.seats`` when the player
        reconnects, and the player attaches with ``resume {room}`` (or ``join``). The
        game starts when every seat's player (or bot) is attached, or ``no_show`` seconds
        after the room opened (the server's ``Timing.no_show`` by default), when a seat
        whose player never came forfeits for ``no_show`` (and the match is aborted if
        nobody came). ``source`` says what made it; :attr:`match_ended` hears of its end.
        ``room_id`` is the room's id if the caller chose it (unused, e.g. the id its seeks
        were claimed for), ``refs`` each player's own ``ref`` in the ``match`` frame (its
        seek's id) instead of ``ref``.

        Raise :class:`ClientError` for options that make no game of this many seats, a
        player seated twice, a guest in a rated match, or a house bot that does not play
        the game."""
        if source not in MATCH_SOURCES:
            raise ValueError(f"a match's source is one of {MATCH_SOURCES}, not {source!r}")
        if len(self.rooms) >= self.max_rooms:
            raise ClientError("too_many_rooms", "the server has as many rooms as it can hold")
        settings = settings or Settings()
        grace = self.timing.no_show if no_show is None else no_show
        settings = dataclasses.replace(
            settings, match=source, match_ref=ref, no_show=grace, autostart=True
        )
        try:
            eng = find_engine(game)
            config = eng.make_config(options)
            if config.seats != len(seats):
                config = eng.with_seats(config, len(seats))
        except ConfigError as exc:
            raise ClientError("bad_options", str(exc)) from None
        if settings.turn_time and eng.standin_policy is None:
            raise ClientError(
                "bad_options", f"turn_time needs a stand-in policy; {eng.name} uses a clock"
            )
        if settings.rated and not rated_rules(eng.name, config.to_options()):
            raise ClientError(
                "bad_options",
                f"rated: these {eng.name} options are never rated (docs/ratings.md)",
            )
        players: dict[str, Player] = {}
        ids: list[str] = []
        for seat in seats:
            if isinstance(seat, HouseSeat):
                if seat.kind == "autopilot":
                    if eng.standin_policy is None:
                        raise ClientError("unsupported", f"the autopilot does not play {game}")
                elif self.house_plays is None or not self.house_plays(eng.name, seat.kind):
                    raise ClientError("unsupported", f"no house bot {seat.kind!r} for {game}")
                player = await self.identities.house_bot(seat.kind)
            else:
                player = seat
                if player.id in players:
                    raise ClientError("already_seated", f"{player.name} is seated twice")
                if source in ("seek", "rematch"):
                    # (tournaments and the ladder have caps of their own)
                    self.check_room_limit(player)
                if settings.rated and player.kind == "guest":
                    raise ClientError(
                        "account_required", "a rated match's seats are for accounts and bots"
                    )
            players[player.id] = player
            ids.append(player.id)
        if room_id is None:
            room_id = await self.new_room_id()
        elif room_id in self.rooms or await self.store.game(room_id) is not None:
            raise ClientError("bad_state", f"room {room_id} exists already")
        elif self.claim is not None and not await self.claim(room_id, True):
            raise ClientError("bad_state", f"room {room_id} is another node's")
        invite = None if settings.public else opaque(12)
        row = new_row(room_id, eng, config, settings, None, time.time(), invite)
        row.seats = list(ids)
        row.house = {
            str(index): secrets.token_urlsafe(16)
            for index, seat in enumerate(seats)
            if isinstance(seat, HouseSeat) and seat.kind != "autopilot"
        }
        core = RoomCore(
            row,
            eng,
            config,
            self.timing,
            players,
            house_version=self.house_version,
            signer=self.signer,
        )
        room = Room(core, self.store, self._forget)
        await journal.commit(self.store, journal.saved(room.row))
        self._add(room)
        room.post(m.Relaunch())  # (its house bots, and the no-show deadline)
        infos = [players[pid].info() for pid in ids]
        rated = room.summary().rated
        for index, seat in enumerate(seats):
            if isinstance(seat, HouseSeat) or self.notify is None:
                continue
            frame = MatchFrame(
                room=room_id,
                seat=index,
                game=eng.name,
                source=source,
                ref=ref if refs is None else refs.get(seat.id, ref),
                options=config.to_options(),
                players=infos,
                rated=rated,
                no_show=grace,
                round=round,
            )
            self.notify(seat.id, frame)
        log.info("room %s: a %s match opened for %s", room_id, source, ", ".join(ids))
        return room

    async def new_room_id(self) -> str:
        """A room id no room has (and, with several nodes, this node's to create), after
        every earlier room's in the store's order (:func:`server.ids.time_ordered`)."""
        room_id = time_ordered(6, self.wall())
        while (
            room_id in self.rooms
            or await self.store.game(room_id) is not None
            or (self.claim is not None and not await self.claim(room_id, True))
        ):
            room_id = time_ordered(6, self.wall())
        return room_id

    def _rematch(self, room: Room) -> None:
        """Every player of ``room`` accepted a rematch: open it (in the background; the
        room hears of its id, or of the failure)."""
        task = asyncio.create_task(self._open_rematch(room), name=f"rematch-{room.id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _open_rematch(self, room: Room) -> None:
        """The rematch: the same players and options, the seats turned by one (in a
        two-seat game the players swap: Kriegspiel's colours), the same settings."""
        new: str | None = None
        try:
            seats: list[MatchSeat] = []
            for index, seat in enumerate(room.seats):
                player = seat.player
                if player is None:
                    raise ClientError("bad_state", f"seat {index} is empty")
                if seat.house:
                    seats.append(HouseSeat(player.id.removeprefix("bot-")))
                else:
                    seats.append(player)
            seats = seats[1:] + seats[:1]
            settings = room.settings
            opened = await self.open_match(
                room.engine.name,
                room.config.to_options(),
                seats,
                source="rematch",
                ref=room.id,
                settings=settings,
            )
            new = opened.id
        except ClientError as exc:
            log.info("room %s: no rematch (%s)", room.id, exc.message)
        except Exception:
            log.exception("room %s: the rematch failed", room.id)
        room.post(m.Rematched(new))

    def _ended(self, room: Room) -> None:
        """A room's game ended: tell whoever opened it, if it is a match."""
        source = room.settings.match
        hook = None if source is None else self.match_ended.get(source)
        if hook is None:
            return
        try:
            hook(room.id, room.row)
        except Exception:
            log.exception("room %s: the %s match's end hook failed", room.id, source)

    def _add(self, room: Room) -> None:
        room.launcher = self.launcher
        room.advisor = self.advisor
        room.on_moved = self._moved
        room.on_end = self._ended
        room.on_rematch = self._rematch
        room.on_seats = self._file
        room.on_state = self._note_state
        self.rooms[room.id] = room
        self._file(room)
        self._note_state(room)
        if room.invite is not None:
            self._invites[room.invite] = room.id
        room.bus = self.bus
        room.start_task()
        self.bus.lobby_changed()

    def _moved(self, room_id: str) -> None:
        if self.lost is not None:
            self.lost(room_id)

    def _forget(self, room: Room) -> None:
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
            self._unfile(room.id, self._players_in.pop(room.id, set()))
            self._waiting.discard(room.id)
        self._unattributed.discard(room.id)
        address = self._address_of.pop(room.id, None)
        if address is not None and address in self._by_address:
            made = self._by_address[address]
            made.discard(room.id)
            if not made:
                del self._by_address[address]
        if room.invite is not None and self._invites.get(room.invite) == room.id:
            del self._invites[room.invite]
        self.bus.lobby_changed()

    async def find(
        self,
        player: Player | None,
        room_id: str | None,
        invite: str | None,
        ticket: str | None = None,
        conn: object = None,
    ) -> Room:
        """The room a request names: by invite code; by id if public, seated in, hosted,
        followed by the connection ``conn``, or opened by a house seat's ``ticket`` (the
        room checks the ticket itself)."""
        room: Room | None = None
        if invite is not None:
            found = self._invites.get(invite)
            if found is None:
                found = await self.store.game_by_invite(invite)
            if found is not None and (room_id is None or found == room_id):
                room = await self.get(found)
        elif room_id is not None:
            candidate = await self.get(room_id)
            if candidate is not None and (ticket is not None or _reaches(candidate, player, conn)):
                room = candidate
        if room is None:
            raise ClientError("no_such_room", "no such room (a private room needs its invite)")
        return room

    def ready(self, player: Player | None, room_id: str, conn: object) -> Room | None:
        """The quick answer of ``find(player, room_id, None, conn=conn)`` when it needs
        no waiting: the room, in memory and not loading, that the request may reach;
        ``None`` when :meth:`find` must decide (and maybe refuse)."""
        room = self.rooms.get(room_id)
        if room is None or room.closed or room_id in self._loading:
            return None
        return room if _reaches(room, player, conn) else None

    async def get(self, room_id: str) -> Room | None:
        """The room ``room_id`` from memory, or rebuilt from the log; ``None`` if unknown."""
        loading = self._loading.get(room_id)
        if loading is not None:  # (in memory already, but still replaying its log)
            return await asyncio.shield(loading)
        room = self.rooms.get(room_id)
        if room is not None and not room.closed:
            return room
        future: asyncio.Future[Room | None] = asyncio.get_running_loop().create_future()
        self._loading[room_id] = future
        try:
            if self.claim is not None and not await self.claim(room_id, False):
                row = None  # another node owns it (server.cluster.nodes relays to it)
            else:
                row = await self.store.game(room_id)
            room = None if row is None else await self._load(row)
            future.set_result(room)
            return room
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: the waiters (if any) get it too
            raise
        finally:
            del self._loading[room_id]

    async def _load(self, row: GameRow) -> Room | None:
        """Rebuild one room from its row and log and put it in memory; ``None`` if broken
        or not a room (a self-play game a killed driver left unfinished)."""
        if is_selfplay(row.id):
            return None
        players: dict[str, Player] = {}
        for pid in row.seats:
            if pid is not None:
                player = await self.identities.get(pid)
                if player is not None:
                    players[pid] = player
        try:
            eng = find_engine(row.game)
            config = eng.stored_config(row.options)
        except ConfigError as exc:
            log.error("room %s: cannot rebuild (%s)", row.id, exc)
            return None
        chat_lines = await self.store.chat(row.id)
        # (a rated game that ended shows its rating changes, as when it ended)
        changes = await self.store.rating_changes(row.id) if row.rated is not None else []
        core = RoomCore(
            row,
            eng,
            config,
            self.timing,
            players,
            chat_lines=chat_lines,
            rating_changes=changes,
            house_version=self.house_version,
            signer=self.signer,
        )
        room = Room(core, self.store, self._forget)
        self._add(room)
        if room.host is not None:  # (made elsewhere or before a restart: see ``returns``)
            self._unattributed.add(room.id)
        if row.status != WAITING and row.seed:
            await room.recover()
        return room

    def listing(self, game: str | None) -> list[RoomInfo]:
        """The public rooms (waiting ones first), optionally of one game: this node's,
        and with several nodes the others' too."""
        rooms = self.local_listing(game)
        if self.remote_listing is not None:
            rooms = self._sorted(rooms + self.remote_listing(game))
        return rooms

    def local_listing(self, game: str | None) -> list[RoomInfo]:
        """The public rooms in this node's memory (waiting ones first)."""
        rooms = [
            r.summary()
            for r in self.rooms.values()
            if r.settings.public and (game is None or r.engine.name == game)
        ]
        return self._sorted(rooms)

    @staticmethod
    def _sorted(rooms: list[RoomInfo]) -> list[RoomInfo]:
        order = {WAITING: 0, PLAYING: 1, FINISHED: 2, ABORTED: 3}
        rooms.sort(key=lambda s: (order.get(s.state, 9), s.room))
        return rooms

    def seats_of(self, player: Player) -> list[HeldSeat]:
        """The unfinished rooms where ``player`` holds a seat (for ``welcome``)."""
        out = []
        for room in self.rooms.values():
            seat = room.seat_of(player)
            if seat is not None and room.state in (WAITING, PLAYING):
                state = cast(RoomState, room.state)
                held = HeldSeat(room.id, room.engine.name, seat, state, room.viewer_seq(seat))
                out.append(held)
        return out

    # -- start-up and shutdown ------------------------------------------------------------

    async def restore(self) -> int:
        """Rebuild every waiting or playing room from the store; return how many."""
        restored = 0
        async for row in self.store.iter_games([WAITING, PLAYING]):
            if row.id in self.rooms:
                continue
            if self.claim is not None and not await self.claim(row.id, False):
                continue  # a living node runs it
            if await self._load(row) is not None:
                restored += 1
        if restored:
            log.info("restored %d rooms from the store", restored)
        return restored

    async def relaunch_bots(self) -> None:
        """Start the house bot clients of every room in memory (once the server listens)."""
        for room in list(self.rooms.values()):
            room.launcher = self.launcher
            room.relaunch_bots()

    async def evict(self, room_id: str) -> None:
        """Stop a room and drop it from memory (another node took it over)."""
        room = self.rooms.get(room_id)
        if room is None:
            return
        await room.stop()
        self._forget(room)

    async def close(self) -> None:
        """Stop every room's task (the log is already durable)."""
        for room in list(self.rooms.values()):
            await room.stop()
        self.rooms.clear()
        self._invites.clear()
        self._by_player.clear()
        self._players_in.clear()
        self._unattributed.clear()
        self._waiting.clear()


__all__ = ["MATCH_SOURCES", "EndHook", "HouseSeat", "Lobby", "MatchSeat"]


def _reaches(room: Room, player: Player | None, conn: object) -> bool:
    """Whether a request by id (no invite, no ticket) may reach ``room``: it is public,
    or ``conn`` follows it, or ``player`` is seated in it or hosts it."""
    return (
        room.settings.public
        or (conn is not None and conn in room.viewers)
        or room.seat_of(player) is not None
        or (player is not None and room.host == player.id)
    )
