"""The lobby: the registry of rooms, invite codes, public listings and recovery.

Rooms are created here (options validated by the engine), found by id (public rooms, or
rooms the player sits in) or by invite code (private rooms), and listed when public. At
start-up :meth:`Lobby.restore` rebuilds every unfinished room from the store.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
from collections.abc import Callable
from typing import Any

from server import autopilot
from server.bus import NO_BUS, Bus
from server.errors import ClientError
from server.games import engine as find_engine
from server.games.base import ConfigError
from server.identity import Identities, Player
from server.room import ABORTED, FINISHED, PLAYING, WAITING, Room, Settings, Timing, new_row
from server.store import Store

log = logging.getLogger(__name__)


class Lobby:
    """All the rooms of this server process."""

    def __init__(
        self,
        store: Store,
        identities: Identities,
        timing: Timing,
        *,
        max_rooms: int = 10_000,
        max_rooms_per_player: int = 20,
        bus: Bus = NO_BUS,
    ) -> None:
        self.store = store
        self.identities = identities
        self.timing = timing
        self.max_rooms = max_rooms
        self.max_rooms_per_player = max_rooms_per_player
        self.rooms: dict[str, Room] = {}
        self._invites: dict[str, str] = {}
        #: the public feed (server.bus): rooms publish to it, the lobby its listing
        self.bus = bus
        bus.set_lobby(lambda: self.listing(None))
        #: starts a house bot client for a room's seat (see server.house); set by the app
        self.launcher: Callable[[str, int, str, str], None] | None = None

    # -- rooms ----------------------------------------------------------------------------

    async def create(
        self, host: Player, game: str, options: dict[str, Any], settings: Settings
    ) -> Room:
        """A new waiting room hosted by ``host``."""
        if len(self.rooms) >= self.max_rooms:
            raise ClientError("too_many_rooms", "the server has as many rooms as it can hold")
        hosted = sum(
            1 for r in self.rooms.values() if r.host == host.id and r.state in (WAITING, PLAYING)
        )
        if hosted >= self.max_rooms_per_player:
            raise ClientError(
                "too_many_rooms", f"you already host {hosted} open rooms; finish some first"
            )
        try:
            eng = find_engine(game)
            config = eng.make_config(options)
        except ConfigError as exc:
            raise ClientError("bad_options", str(exc)) from None
        if settings.turn_time and eng.name not in autopilot.POLICIES:
            raise ClientError("bad_options", f"turn_time is for Perudo; {eng.name} uses a clock")
        room_id = secrets.token_urlsafe(6)
        while room_id in self.rooms:
            room_id = secrets.token_urlsafe(6)
        row = new_row(room_id, eng, config, settings, host.id)
        await self.store.save_game(row)
        room = Room(row, eng, config, self.store, self.timing, {}, on_close=self._forget)
        self._add(room)
        return room

    def _add(self, room: Room) -> None:
        room.launcher = self.launcher
        self.rooms[room.id] = room
        if room.invite is not None:
            self._invites[room.invite] = room.id
        room.bus = self.bus
        room.start_task()
        self.bus.lobby_changed()

    def _forget(self, room: Room) -> None:
        self.rooms.pop(room.id, None)
        if room.invite is not None:
            self._invites.pop(room.invite, None)
        self.bus.lobby_changed()

    def find(self, player: Player | None, room_id: str | None, invite: str | None) -> Room:
        """The room a request names: by invite code, or by id if public or seated in it."""
        room: Room | None = None
        if invite is not None:
            room = self.rooms.get(self._invites.get(invite, ""))
            if room is not None and room_id is not None and room.id != room_id:
                room = None
        elif room_id is not None:
            candidate = self.rooms.get(room_id)
            if candidate is not None and (
                candidate.settings.public
                or candidate.seat_of(player) is not None
                or (player is not None and candidate.host == player.id)
            ):
                room = candidate
        if room is None:
            raise ClientError("no_such_room", "no such room (a private room needs its invite)")
        return room

    def listing(self, game: str | None) -> list[dict[str, Any]]:
        """The public rooms (waiting ones first), optionally of one game."""
        rooms = [
            r.summary()
            for r in self.rooms.values()
            if r.settings.public and (game is None or r.engine.name == game)
        ]
        order = {WAITING: 0, PLAYING: 1, FINISHED: 2, ABORTED: 3}
        rooms.sort(key=lambda s: (order.get(s["state"], 9), s["room"]))
        return rooms

    def seats_of(self, player: Player) -> list[dict[str, Any]]:
        """The unfinished rooms where ``player`` holds a seat (for ``welcome``)."""
        out = []
        for room in self.rooms.values():
            seat = room.seat_of(player)
            if seat is not None and room.state in (WAITING, PLAYING):
                out.append(
                    {
                        "room": room.id,
                        "game": room.engine.name,
                        "seat": seat,
                        "state": room.state,
                        "seq": room.viewer_seq(seat),
                    }
                )
        return out

    # -- start-up and shutdown ------------------------------------------------------------

    async def restore(self) -> int:
        """Rebuild every waiting or playing room from the store; return how many."""
        restored = 0
        for row in await self.store.games([WAITING, PLAYING]):
            players: dict[str, Player] = {}
            for pid in row.seats:
                if pid is None:
                    continue
                player = await self.identities.get(pid)
                if player is not None:
                    players[pid] = player
            try:
                eng = find_engine(row.game)
                config = eng.make_config(row.options)
            except ConfigError as exc:
                log.error("room %s: cannot restore (%s)", row.id, exc)
                continue
            room = Room(row, eng, config, self.store, self.timing, players, self._forget)
            self._add(room)
            if row.status == PLAYING:
                # On failure the room logs the fault and aborts its game.
                with contextlib.suppress(ClientError):
                    await room.call(room.recover)
            restored += 1
        if restored:
            log.info("restored %d rooms from the store", restored)
        return restored

    async def relaunch_bots(self) -> None:
        """Start the house bot clients of every restored room (once the server listens)."""
        for room in list(self.rooms.values()):
            room.launcher = self.launcher

            async def relaunch(room: Room = room) -> None:
                room.relaunch_bots()

            room.post(relaunch)

    async def close(self) -> None:
        """Stop every room's task (the log is already durable)."""
        for room in list(self.rooms.values()):
            await room.stop()
        self.rooms.clear()
        self._invites.clear()
