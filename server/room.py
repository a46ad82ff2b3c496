"""One room: a serialized actor that owns one game, its seats, its log and its clocks.

Everything that touches a room goes through its queue and runs in its one task
(DESIGN.md, idea 4): requests from connections (:meth:`Room.call`), timer expiries and
disconnections. So a room needs no locks and its log order is its processing order.

An accepted action goes: engine (``game.apply``) -> store (:meth:`Store.append`, durable)
-> ``ack`` to the actor -> each attached connection's own projection of every event.

Sequence numbers are per viewer (each seat, and spectators): the k-th event a viewer may
see of the game is its number k, so every viewer's stream is gap-free and an event a
viewer learns nothing of leaves no trace at all in that viewer's stream (no placeholder,
no skipped number, no clock frame): under Kriegspiel's wild16 rules even the fact that the
opponent tried an illegal move stays secret. ``resume`` replays a viewer's stream after
its own number from the in-memory log, which is rebuilt from the store after a restart.
When the game waits for a seat, that seat's connections get a ``turn`` frame with the
legal actions and the seat's view.

Time: Perudo rooms may have a per-turn limit; when it runs out, or when a player has been
disconnected past the grace period, the autopilot plays the seat until the player returns.
Rooms with a clock (Kriegspiel) charge the mover's time between its turn start and each
accepted action (refused attempts spend time too, since the clock keeps running); a flag
is a forfeit for ``"timeout"`` and a player gone past the grace period forfeits for
``"abandoned"`` (the engine decides what that means).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from bisect import bisect_left
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from server import autopilot, chat, hints, logs, stats
from server.bus import NO_BUS, Bus
from server.connection import Client, corked
from server.errors import ClientError
from server.games import Engine
from server.games.base import ConfigError, Event, Game, IllegalAction, replay, seed_commitment
from server.identity import Player
from server.protocol import encode, encode_bytes, with_ref
from server.store import ActionRow, EventRow, GameRow, Store

log = logging.getLogger(__name__)

T = TypeVar("T")

WAITING, PLAYING, FINISHED, ABORTED = "waiting", "playing", "finished", "aborted"


@dataclass(frozen=True, slots=True)
class Settings:
    """A room's own settings (the engine's options are separate)."""

    public: bool = True
    spectators: str = "live"  # live | after | none
    turn_time: float = 0.0  # seconds per turn, 0 = unlimited (autopilot games only)
    clock_base: float = 0.0  # seconds per player, 0 = no clock
    clock_increment: float = 0.0
    autostart: bool = True
    chat: bool = True  # server.chat: the room's chat is on

    def to_json(self) -> dict[str, Any]:
        """The settings as stored in the ``games`` row."""
        return {
            "public": self.public,
            "spectators": self.spectators,
            "turn_time": self.turn_time,
            "clock_base": self.clock_base,
            "clock_increment": self.clock_increment,
            "autostart": self.autostart,
            "chat": self.chat,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Settings:
        """Settings from a stored row."""
        return cls(**data)


@dataclass(frozen=True, slots=True)
class Timing:
    """Server-wide time limits a room applies."""

    grace: float = 60.0  # seconds a disconnected player keeps their seat untouched
    autopilot_delay: float = 1.0  # seconds before the autopilot moves
    finished_ttl: float = 600.0  # seconds a finished room stays for late resumes


@dataclass(slots=True)
class Seat:
    """One seat: who holds it and whether the autopilot plays it now."""

    player: Player | None = None
    house: bool = False  # a house seat: the autopilot, or a house bot client (``bot``)
    autopilot: bool = False
    away_since: float | None = None
    bot: str | None = None  # the house bot client playing this seat (server.house)

    @property
    def server_played(self) -> bool:
        """True for the house autopilot's seats, which no connection ever plays."""
        return self.house and self.bot is None


@dataclass(slots=True)
class _Job:
    fn: Callable[..., Awaitable[Any]]
    args: tuple[Any, ...]
    done: asyncio.Future[Any] | None = None


class Room:
    """A room and its game. Build it with :meth:`create` or :meth:`restore`, then ``start``."""

    #: the public feed (:mod:`server.bus`); the lobby sets it
    bus: Bus = NO_BUS

    def __init__(
        self,
        row: GameRow,
        engine: Engine,
        config: Any,
        store: Store,
        timing: Timing,
        players: dict[str, Player],
        on_close: Callable[[Room], None] | None = None,
    ) -> None:
        self.id = row.id
        self.row = row
        self.engine = engine
        self.config = config
        self.store = store
        self.timing = timing
        self.settings = Settings.from_json(row.settings)
        self.seats = [_seat_from_row(pid, players) for pid in row.seats]
        for seat in self.seats:
            seat.autopilot = seat.server_played
        self.state = row.status
        self.game: Game | None = None
        self.log: list[Event] = []
        #: for each viewer (seat index, or None for spectators), the log indices it may see
        self._visible: dict[int | None, list[int]] = {}
        self.viewers: dict[Client, int | None] = {}
        #: house bot connections and the seat each plays (they joined with a ticket)
        self._pilots: dict[Client, int] = {}
        self._tickets: dict[str, int] = {}
        #: stand-in bots playing for absent (or timed-out) players: seat -> ticket
        self._standins: dict[int, str] = {}
        self._standin_once: set[int] = set()  # seats whose stand-in makes one move
        #: starts a house bot client: (room id, seat, bot name, ticket); set by the lobby
        self.launcher: Callable[[str, int, str, str], None] | None = None
        self.on_close = on_close
        self._queue: asyncio.Queue[_Job | None] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._generation: dict[str, int] = {}
        self._clocks: list[float] | None = None
        self._turn_started = 0.0
        self._clock_seat: int | None = None
        self._closed = False
        self.chat = chat.Chat(self.id, self.settings.chat)

    # -- lifecycle ----------------------------------------------------------------------

    @property
    def host(self) -> str | None:
        """The host's player id."""
        return self.row.host

    @property
    def invite(self) -> str | None:
        """The invite code of a private room."""
        return self.row.invite

    @property
    def last_seq(self) -> int:
        """How many events the room has logged (0 before the game starts)."""
        return len(self.log)

    def viewer_seq(self, viewer: int | None) -> int:
        """The number of the newest event ``viewer`` may see (its stream's length)."""
        return len(self._visible.get(viewer, ()))

    def _log_events(self, events: list[Event]) -> int:
        """Append ``events`` to the in-memory log and every viewer's stream; return the
        log index of the first."""
        base = len(self.log)
        if not self._visible:
            self._visible = {viewer: [] for viewer in [*range(len(self.seats)), None]}
        for offset, event in enumerate(events):
            for viewer, stream in self._visible.items():
                if event.view(viewer) is not None:
                    stream.append(base + offset)
        self.log.extend(events)
        return base

    def start_task(self) -> None:
        """Start the room's task."""
        self._task = asyncio.create_task(self._run(), name=f"room-{self.id}")

    async def stop(self) -> None:
        """Stop the room's task after the jobs already queued (for shutdown)."""
        self._closed = True
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        if self._task is not None:
            await self._queue.put(None)
            await self._task
            self._task = None

    async def call(self, fn: Callable[..., Awaitable[T]], *args: Any) -> T:
        """Run ``fn(*args)`` in the room's task and return its result (or raise)."""
        if self._closed:
            raise ClientError("no_such_room", f"room {self.id} is closed")
        done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Job(fn, args, done))
        return await done

    def post(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
        """Queue ``fn(*args)`` in the room's task without waiting for it."""
        if not self._closed:
            self._queue.put_nowait(_Job(fn, args))

    async def _run(self) -> None:
        logs.bind(conn=None, room=self.id)
        while True:
            job = await self._queue.get()
            if job is None:
                return
            with corked():  # each connection gets the job's frames in one write
                await self._do(job)

    async def _do(self, job: _Job) -> None:
        """Run one job; hand its result or error to whoever waits for it."""
        try:
            result = await job.fn(*job.args)
        except ClientError as exc:
            if job.done is None:  # a timer's job: nobody to tell
                log.warning("room %s: %s refused: %s", self.id, job.fn.__name__, exc.message)
            elif not job.done.done():
                job.done.set_exception(exc)
        except Exception as exc:
            log.exception("room %s: internal error in %s", self.id, job.fn.__name__)
            await self._abort(f"internal error ({type(exc).__name__})")
            if job.done is not None and not job.done.done():
                job.done.set_exception(
                    ClientError("aborted", f"room {self.id} failed and its game was aborted")
                )
        else:
            if job.done is not None and not job.done.done():
                job.done.set_result(result)

    # -- timers -------------------------------------------------------------------------

    def _schedule(
        self, name: str, delay: float, fn: Callable[..., Awaitable[Any]], *args: Any
    ) -> None:
        """Run ``fn(*args)`` in the room's task after ``delay`` unless rescheduled first."""
        self._cancel(name)
        if self._closed:
            return
        generation = self._generation[name]
        loop = asyncio.get_running_loop()
        self._timers[name] = loop.call_later(
            max(0.0, delay), self.post, self._fire, name, generation, fn, args
        )

    def _cancel(self, name: str) -> None:
        self._generation[name] = self._generation.get(name, 0) + 1
        handle = self._timers.pop(name, None)
        if handle is not None:
            handle.cancel()

    async def _fire(
        self, name: str, generation: int, fn: Callable[..., Awaitable[Any]], args: tuple[Any, ...]
    ) -> None:
        if self._generation.get(name) != generation:
            return  # rescheduled or cancelled after this timer was queued
        self._timers.pop(name, None)
        await fn(*args)

    # -- frames -------------------------------------------------------------------------

    def seat_of(self, player: Player | None) -> int | None:
        """The seat ``player`` holds here (house bots excluded), or ``None``."""
        if player is None:
            return None
        for index, seat in enumerate(self.seats):
            if seat.player is not None and seat.player.id == player.id and not seat.house:
                return index
        return None

    def connected(self, seat: int) -> bool:
        """Whether the seat's own player (or house bot) has a connection attached."""
        return any(
            viewer == seat and not self._is_standin(client)
            for client, viewer in self.viewers.items()
        )

    def _is_standin(self, client: Client) -> bool:
        """A house bot standing in for a player's seat (not a house seat of its own)."""
        seat = self._pilots.get(client)
        return seat is not None and not self.seats[seat].house

    def _launch_standin(self, seat: int, once: bool) -> bool:
        """Start the house bot that plays ``seat`` for its absent or slow player."""
        name = autopilot.STANDINS.get(self.engine.name)
        if name is None or self.launcher is None:
            return False
        if once:
            self._standin_once.add(seat)
        else:
            self._standin_once.discard(seat)
        if seat in self._standins:
            return True  # already on its way, or playing
        ticket = secrets.token_urlsafe(16)
        self._tickets[ticket] = seat
        self._standins[seat] = ticket
        self.launcher(self.id, seat, name, ticket)
        return True

    def _dismiss_standin(self, seat: int) -> None:
        """The player is back (or the one move is made): send the stand-in away."""
        ticket = self._standins.pop(seat, None)
        self._standin_once.discard(seat)
        if ticket is None:
            return
        self._tickets.pop(ticket, None)
        for client, pilot_seat in list(self._pilots.items()):
            if pilot_seat == seat:
                del self._pilots[client]
                self.viewers.pop(client, None)
                client.rooms.discard(self)
                client.send(encode({"type": "left", "room": self.id}))

    def summary(self) -> dict[str, Any]:
        """The public description of the room (the lobby's listing and ``room`` frames)."""
        outcome = self.game.outcome if self.game is not None else None
        revealed = self.state in (FINISHED, ABORTED) and self.game is not None
        return {
            "room": self.id,
            "game": self.engine.name,
            "options": self.config.to_options(),
            "public": self.settings.public,
            "state": self.state,
            "host": self.host,
            "seats": [
                {
                    "seat": index,
                    "player": seat.player.id if seat.player else None,
                    "name": seat.player.name if seat.player else None,
                    "bot": seat.player.bot if seat.player else False,
                    "house": seat.house,
                    "connected": seat.server_played or self.connected(index),
                    "autopilot": seat.autopilot,
                }
                for index, seat in enumerate(self.seats)
            ],
            "spectators": self.settings.spectators,
            "turn_time": self.settings.turn_time or None,
            "clock": (
                {"base": self.settings.clock_base, "increment": self.settings.clock_increment}
                if self.settings.clock_base
                else None
            ),
            "seq": self.viewer_seq(None),
            "seed_sha256": self.row.seed_sha256 or None,
            "seed": self.row.seed.hex() if revealed else None,
            "outcome": outcome.to_json() if outcome is not None else None,
            "reason": self.row.reason if self.state == ABORTED else None,
            "chat": self.settings.chat,
        }

    def _room_frame(self, client: Client, summary: dict[str, Any]) -> str:
        frame = {"type": "room", **summary, "seq": self.viewer_seq(self.viewers.get(client))}
        if self.invite is not None and self.seat_of(client.player) is not None:
            frame["invite"] = self.invite
        return encode(frame)

    def _send_room(self) -> None:
        """Send every attached connection the room's current description."""
        summary = self.summary()
        for client in list(self.viewers):
            client.send(self._room_frame(client, summary))
        self.bus.lobby_changed()

    def _event_frame(self, seq: int, projection: dict[str, Any]) -> str:
        body = encode_bytes(projection).decode()
        return f'{{"type":"event","room":"{self.id}","seq":{seq},"event":{body}}}'

    def _broadcast(self, base: int, events: list[Event]) -> set[int | None]:
        """Send each attached connection its own projections of ``events`` (logged from
        log index ``base``); return the viewers that saw at least one of them."""
        self.bus.room_events(self, events)
        cache: dict[tuple[int, int], str] = {}
        seen: set[int | None] = set()
        for client, viewer in list(self.viewers.items()):
            seq = bisect_left(self._visible.get(viewer, []), base)
            frames = []
            for _offset, event in enumerate(events):
                projection = event.view(viewer)
                if projection is None:
                    continue
                seq += 1
                key = (seq, id(projection))
                frame = cache.get(key)
                if frame is None:
                    frame = cache[key] = self._event_frame(seq, projection)
                frames.append(frame)
            if frames:
                seen.add(viewer)
                client.send_many(frames)
        return seen

    def _send_clock(self, to: Client | None = None, viewers: set[int | None] | None = None) -> None:
        """Send the clocks to ``to``, or to every connection whose viewer is in
        ``viewers`` (all when ``None``): a viewer that learnt nothing of a change must not
        hear of it through the clock either."""
        if self.game is None or self.state != PLAYING:
            return
        if not self._clocks and not self.settings.turn_time:
            return
        now = time.monotonic()
        remaining = None
        if self._clocks is not None:
            remaining = list(self._clocks)
            if self._clock_seat is not None:
                remaining[self._clock_seat] -= now - self._turn_started
            remaining = [round(max(0.0, r), 3) for r in remaining]
        frame = encode(
            {
                "type": "clock",
                "room": self.id,
                "to_move": self.game.to_move,
                "remaining": remaining,
                "turn_time": self.settings.turn_time or None,
            }
        )
        if to is not None:
            to.send(frame)
            return
        for client, viewer in list(self.viewers.items()):
            if viewers is None or viewer in viewers:
                client.send(frame)

    def _time_left(self, seat: int) -> float | None:
        """Seconds left for ``seat`` now: its clock, or the turn limit, or ``None``."""
        now = time.monotonic()
        if self._clocks is not None:
            left = self._clocks[seat]
            if self._clock_seat == seat:
                left -= now - self._turn_started
            return round(max(0.0, left), 3)
        return None

    def _send_turn(self, to: Client | None = None) -> None:
        """Tell the seat to move (its connections, or only ``to``) what it may do now."""
        game = self.game
        if game is None or self.state != PLAYING or game.to_move is None:
            return
        seat = game.to_move
        targets = [to] if to is not None else [c for c, v in self.viewers.items() if v == seat]
        if not targets or (to is not None and self.viewers.get(to) != seat):
            return
        frame = encode(
            {
                "type": "turn",
                "room": self.id,
                "seat": seat,
                "seq": self.viewer_seq(seat),
                "legal": [str(action) for action in game.legal_actions(seat)],
                "view": game.view(seat),
                "time_left": self._time_left(seat),
            }
        )
        for client in targets:
            client.send(frame)

    # -- the log ------------------------------------------------------------------------

    async def _record(
        self, events: list[Event], seat: int | None = None, source: str = "game"
    ) -> int:
        """Log the newest history record (if ``seat``) and ``events``; return the log
        index of the first event."""
        first = self.last_seq + 1
        action = None
        if seat is not None:
            assert self.game is not None
            record = self.game.history[-1]
            clocks = None if self._clocks is None else [round(c, 3) for c in self._clocks]
            action = ActionRow(
                len(self.game.history), record.seat, record.action, time.time(), clocks
            )
        rows = [
            EventRow(first + i, source, event.truth, action.n if action else None)
            for i, event in enumerate(events)
        ]
        await self.store.append(self.id, rows, action)
        return self._log_events(events)

    def _engine(self, fn: Callable[..., list[Event]], *args: Any) -> list[Event]:
        """Call the engine; turn a refusal into a :class:`ClientError` for the sender."""
        try:
            return fn(*args)
        except IllegalAction as exc:
            raise ClientError(exc.code, exc.reason) from None

    # -- requests (run in the room's task) ------------------------------------------------

    def _ticket_seat(self, ticket: str, seat: int | None) -> int:
        """The seat a house bot's ticket opens; raise if it opens none (or another)."""
        index = self._tickets.get(ticket)
        if index is None or (seat is not None and seat != index):
            raise ClientError("not_your_seat", "this ticket opens no seat here")
        return index

    async def join(
        self, client: Client, seat: int | None, ticket: str | None = None
    ) -> dict[str, Any]:
        """Seat ``client``'s player (or re-attach it to the seat it holds); with a house
        bot's ticket, attach the connection to the seat the ticket opens."""
        player = client.player
        assert player is not None
        if ticket is not None:
            index = self._ticket_seat(ticket, seat)
            self._pilots[client] = index
            self._attach(client, index, since=None)
            return {"type": "joined", "room": self.id, "seat": index}
        held = self.seat_of(player)
        if held is not None:
            if seat is not None and seat != held:
                raise ClientError("already_seated", f"you already hold seat {held} here")
            self._attach(client, held, since=None)
            return {"type": "joined", "room": self.id, "seat": held}
        if self.state != WAITING:
            raise ClientError("bad_state", f"room {self.id} has started: watch it instead")
        index = self._free_seat(seat)
        self.seats[index] = Seat(player)
        await self._save()
        self._attach(client, index, since=None, seated=True)
        await self._maybe_autostart()
        return {"type": "joined", "room": self.id, "seat": index}

    def _free_seat(self, seat: int | None) -> int:
        if seat is None:
            for index, candidate in enumerate(self.seats):
                if candidate.player is None:
                    return index
            raise ClientError("room_full", f"every seat of room {self.id} is taken")
        if not 0 <= seat < len(self.seats) or self.seats[seat].player is not None:
            raise ClientError("seat_taken", f"seat {seat} is taken or does not exist")
        return seat

    async def add_bot(
        self, client: Client, seat: int | None, bot: Player, name: str = "autopilot"
    ) -> dict[str, Any]:
        """Fill an empty seat with a house bot (host only, before the start): the
        server's ``autopilot``, or a named bot started as a client (:mod:`server.house`)."""
        self._require_host(client)
        if self.state != WAITING:
            raise ClientError("bad_state", "bots can only be added before the start")
        if name == "autopilot" and self.engine.name not in autopilot.POLICIES:
            raise ClientError("unsupported", f"the autopilot does not play {self.engine.name}")
        index = self._free_seat(seat)
        if name == "autopilot":
            self.seats[index] = Seat(bot, house=True, autopilot=True)
        else:
            self.seats[index] = Seat(bot, house=True, bot=name)
        await self._save()
        self._send_room()
        self._launch(index)
        await self._maybe_autostart()
        return {"type": "bot_added", "room": self.id, "seat": index, "bot": bot.id}

    def _launch(self, index: int) -> None:
        """Start the house bot client of seat ``index`` with a fresh ticket."""
        name = self.seats[index].bot
        if name is None or self.launcher is None:
            return
        for ticket, seat in list(self._tickets.items()):
            if seat == index:
                del self._tickets[ticket]
        ticket = secrets.token_urlsafe(16)
        self._tickets[ticket] = index
        self.launcher(self.id, index, name, ticket)

    def relaunch_bots(self) -> None:
        """Start the house bot clients again (after a restart)."""
        for index, seat in enumerate(self.seats):
            if seat.bot is not None and self.state in (WAITING, PLAYING):
                self._launch(index)

    async def watch(self, client: Client) -> dict[str, Any]:
        """Attach ``client`` as a spectator (a seated player gets its own seat's view)."""
        held = self.seat_of(client.player)
        if held is not None:
            self._attach(client, held, since=None)
            return {"type": "watching", "room": self.id, "seat": held}
        self._check_spectators()
        self._attach(client, None, since=None)
        return {"type": "watching", "room": self.id, "seat": None}

    def _check_spectators(self) -> None:
        policy = self.settings.spectators
        if policy == "none":
            raise ClientError("no_spectators", f"room {self.id} does not allow spectators")
        if policy == "after" and self.state in (WAITING, PLAYING):
            raise ClientError(
                "no_spectators", f"room {self.id} shows spectators the game after it ends"
            )

    async def resume(self, client: Client, since: int, ticket: str | None = None) -> dict[str, Any]:
        """Re-attach ``client`` and send every event of its stream after ``since``."""
        if ticket is not None:
            held: int | None = self._ticket_seat(ticket, None)
            self._pilots[client] = held  # type: ignore[assignment]
        else:
            held = self.seat_of(client.player)
        if held is None:
            self._check_spectators()
        last = self.viewer_seq(held)
        if since > last:
            raise ClientError(
                "bad_seq",
                f"you have seen {last} events of room {self.id}; cannot resume after {since}",
            )
        self._attach(client, held, since=since)
        return {"type": "resumed", "room": self.id, "seat": held, "seq": last}

    def _attach(
        self, client: Client, viewer: int | None, since: int | None, seated: bool = False
    ) -> None:
        """Attach ``client`` as ``viewer``; send the room, then a snapshot or missed events.

        ``seated`` says the seat was just taken, so everyone hears of the change.
        """
        first_connection = viewer is not None and not self.connected(viewer)
        self.viewers[client] = viewer
        client.rooms.add(self)
        returned = False
        if viewer is not None and not self._is_standin(client):
            seat = self.seats[viewer]
            returned = seat.away_since is not None or (seat.autopilot and not seat.server_played)
            seat.away_since = None
            self._cancel(f"grace:{viewer}")
            seat.autopilot = seat.server_played
            if returned:
                self._dismiss_standin(viewer)
        if seated or first_connection or returned:
            self._send_room()
        else:
            client.send(self._room_frame(client, self.summary()))
        if self.game is not None:
            if since is None:
                frame = {
                    "type": "snapshot",
                    "room": self.id,
                    "seq": self.viewer_seq(viewer),
                    "seat": viewer,
                    "view": self.game.view(viewer),
                }
                client.send(encode(frame))
            else:
                stream = self._visible.get(viewer, [])
                frames = []
                for seq, index in enumerate(stream[since:], start=since + 1):
                    projection = self.log[index].view(viewer)
                    assert projection is not None
                    frames.append(self._event_frame(seq, projection))
                client.send_many(frames)
        if returned:
            self._plan()
        self._send_clock(client)
        self._send_turn(client)

    async def leave(self, client: Client) -> dict[str, Any]:
        """Detach ``client``; before the start a player also gives up its seat."""
        held = self.seat_of(client.player)
        if self.state == WAITING and held is not None:
            self.seats[held] = Seat()
            await self._save()
        await self.detach(client)
        self._send_room()
        return {"type": "left", "room": self.id}

    async def detach(self, client: Client) -> None:
        """Forget ``client`` (its connection closed or it left)."""
        viewer = self.viewers.pop(client, None)
        self._pilots.pop(client, None)
        client.rooms.discard(self)
        if viewer is None or self.connected(viewer):
            return
        self._send_room()
        if self.state == PLAYING:
            self.seats[viewer].away_since = time.monotonic()
            self._schedule(f"grace:{viewer}", self.timing.grace, self._grace_over, viewer)

    async def start(self, client: Client) -> dict[str, Any]:
        """Start the game now with the seats taken (host only)."""
        self._require_host(client)
        if self.state != WAITING:
            raise ClientError("bad_state", f"room {self.id} is {self.state}")
        await self._start()
        return {
            "type": "started",
            "room": self.id,
            "seq": self.viewer_seq(self.viewers.get(client)),
        }

    async def act(
        self, client: Client, action: str, seat: int | None, ref: int | str | None = None
    ) -> None:
        """Apply ``action`` for the sender's seat; return the ``ack`` after it is durable."""
        player = client.player
        if self.state == WAITING:
            raise ClientError("bad_state", f"the game in room {self.id} has not started")
        if self.state == ABORTED:
            raise ClientError("aborted", f"the game in room {self.id} was aborted")
        held = self._pilots.get(client)
        standin = held is not None and self._is_standin(client)
        if held is None:
            held = self.seat_of(player)
        elif standin and not (self.seats[held].autopilot or held in self._standin_once):
            raise ClientError("not_your_seat", "the player is back: this seat is theirs again")
        if seat is not None and seat != held:
            if 0 <= seat < len(self.seats) and self.seats[seat].player is not None:
                raise ClientError("not_your_seat", f"seat {seat} is not yours")
            if held is None:
                raise ClientError("not_seated", f"you hold no seat in room {self.id}")
            raise ClientError("not_your_seat", f"seat {seat} is not yours")
        if held is None:
            raise ClientError("not_seated", f"you hold no seat in room {self.id}")
        game = self.game
        assert game is not None
        if self.state == FINISHED:
            raise ClientError("game_over", "the game is over")
        seat_state = self.seats[held]
        if seat_state.autopilot and not seat_state.server_played and not standin:
            seat_state.autopilot = False  # the player is back
            self._dismiss_standin(held)
            self._send_room()
            self._plan()
        elif not standin and held in self._standin_once:
            self._dismiss_standin(held)  # the slow player made the move after all
        if self._clocks is not None and self._flagged():
            await self._flag()
            raise ClientError("game_over", "your time ran out")
        mover = game.to_move
        events = self._engine(game.apply, held, action)
        self._charge_clock(mover)
        base = await self._record(events, seat=held)
        last = self.viewer_seq(held)
        seen_by_mover = sum(1 for event in events if event.view(held) is not None)
        ack = {
            "type": "ack",
            "room": self.id,
            "seq": last,
            "first": last - seen_by_mover + 1,
            "action": game.history[-1].action,
        }
        client.send(encode(with_ref(ack, ref)))
        if standin and held in self._standin_once and not self.seats[held].autopilot:
            self._dismiss_standin(held)  # the one move of a timed-out turn is made
        seen = self._broadcast(base, events)
        await self._after_change(seen)

    async def hint(self, client: Client, options: dict[str, Any]) -> dict[str, Any]:
        """The expert's advice for the sender's seat (Perudo), from that seat's knowledge."""
        held = self._pilots.get(client)
        if held is None:
            held = self.seat_of(client.player)
        if held is None:
            raise ClientError("not_seated", f"you hold no seat in room {self.id}")
        if self.state != PLAYING or self.game is None:
            raise ClientError("bad_state", f"the game in room {self.id} is not being played")
        reply = hints.perudo_hint(self.game, held, **options)
        return {**reply, "room": self.id}

    async def say(self, client: Client, text: str) -> None:
        """Chat (server.chat): ``text`` to the speaker's channel, house bots left out."""
        listeners = {c: v for c, v in self.viewers.items() if c not in self._pilots}
        self.chat.say(client, listeners, text, time.monotonic())

    def _require_host(self, client: Client) -> None:
        if client.player is None or client.player.id != self.host:
            raise ClientError("not_host", "only the room's host may do that")

    # -- the game -------------------------------------------------------------------------

    async def _maybe_autostart(self) -> None:
        if self.settings.autostart and all(seat.player is not None for seat in self.seats):
            await self._start()

    async def _start(self) -> None:
        taken = [seat for seat in self.seats if seat.player is not None]
        if len(taken) < len(self.seats):
            options = self.config.to_options()
            options["seats"] = len(taken)
            try:
                config = self.engine.make_config(options)
            except ConfigError as exc:
                raise ClientError("bad_state", f"cannot start with {len(taken)}: {exc}") from None
            remap = {
                old: new
                for new, old in enumerate(
                    i for i, seat in enumerate(self.seats) if seat.player is not None
                )
            }
            self.config = config
            self.seats = taken
            self.viewers = {
                c: (remap.get(v) if v is not None else None) for c, v in self.viewers.items()
            }
        seed = secrets.token_bytes(32)
        game, events = self.engine.new_game(self.config, seed)
        self.game = game
        self.row.options = self.config.to_options()
        self.row.seats = [seat.player.id if seat.player else None for seat in self.seats]
        self.row.seed = seed
        self.row.seed_sha256 = seed_commitment(seed)
        self.row.status = PLAYING
        self.row.started = time.time()
        rows = [EventRow(i + 1, "game", event.truth) for i, event in enumerate(events)]
        await self.store.save_game(self.row, rows)
        base = self._log_events(events)
        self.state = PLAYING
        if self.settings.clock_base:
            self._clocks = [self.settings.clock_base] * len(self.seats)
        self._send_room()
        self._broadcast(base, events)
        for index in range(len(self.seats)):
            if not self.seats[index].server_played and not self.connected(index):
                await self.detach_seat(index)
        await self._after_change()

    async def detach_seat(self, index: int) -> None:
        """Start the grace period of a seat nobody is connected to."""
        self.seats[index].away_since = time.monotonic()
        self._schedule(f"grace:{index}", self.timing.grace, self._grace_over, index)

    async def _after_change(self, seen: set[int | None] | None = None) -> None:
        """After events: finish the game, or plan the next timers and tell the clocks (to
        the viewers in ``seen``, who saw the change; all when ``None``) and the turn."""
        game = self.game
        assert game is not None
        if game.is_over:
            await self._finish()
            return
        self._plan()
        self._send_clock(viewers=seen)
        self._send_turn()

    def _plan(self) -> None:
        """(Re)schedule the turn timer, the autopilot and the flag for the seat to move."""
        game = self.game
        if game is None or self.state != PLAYING:
            return
        self._cancel("turn")
        self._cancel("flag")
        seat = game.to_move
        if self._clocks is not None and seat != self._clock_seat:
            self._clock_seat = seat
            self._turn_started = time.monotonic()
        if seat is None:
            return
        state = self.seats[seat]
        if state.autopilot and state.server_played:
            self._schedule("turn", self.timing.autopilot_delay, self._autoplay, seat, "autopilot")
        elif state.autopilot:
            # a stand-in bot plays for the absent player; the policy only if it fails to
            if not self._launch_standin(seat, once=False):
                self._schedule("turn", self.timing.autopilot_delay, self._autoplay, seat, "absent")
            else:
                delay = self.timing.autopilot_delay + autopilot.STANDIN_FALLBACK
                self._schedule("turn", delay, self._autoplay, seat, "absent")
        elif self.settings.turn_time:
            self._schedule("turn", self.settings.turn_time, self._timeout, seat)
        if self._clocks is not None:
            left = self._clocks[seat] - (time.monotonic() - self._turn_started)
            self._schedule("flag", left, self._flag)

    def _charge_clock(self, mover: int | None) -> None:
        """Charge the running clock for the time since the turn (or last action) began."""
        if self._clocks is None or mover is None or self.game is None:
            return
        now = time.monotonic()
        self._clocks[mover] -= now - self._turn_started
        self._turn_started = now
        if self.game.to_move != mover:
            self._clocks[mover] += self.settings.clock_increment

    def _flagged(self) -> bool:
        seat = self._clock_seat
        if self._clocks is None or seat is None:
            return False
        return self._clocks[seat] - (time.monotonic() - self._turn_started) <= 0

    async def _flag(self) -> None:
        """The mover's clock ran out: forfeit for ``timeout``."""
        game = self.game
        if game is None or self.state != PLAYING or not self._flagged():
            return
        seat = self._clock_seat
        assert seat is not None and self._clocks is not None
        self._clocks[seat] = 0.0
        await self._forfeit(seat, "timeout")

    async def _forfeit(self, seat: int, reason: str) -> None:
        game = self.game
        assert game is not None
        events = self._engine(game.forfeit, seat, reason)
        base = await self._record(events, seat=seat)
        seen = self._broadcast(base, events)
        await self._after_change(seen)

    async def _timeout(self, seat: int) -> None:
        """The seat to move ran out of turn time: a stand-in bot makes this one move (the
        fallback policy moves if the bot does not act in time)."""
        game = self.game
        if game is None or self.state != PLAYING or game.to_move != seat:
            return
        if self._launch_standin(seat, once=True):
            log.info("room %s: seat %d timed out; a stand-in bot moves", self.id, seat)
            self._send_turn()  # a stand-in already attached gets the turn now
            self._schedule("turn", autopilot.STANDIN_FALLBACK, self._autoplay, seat, "timeout")
        else:
            await self._autoplay(seat, "timeout")

    async def _autoplay(self, seat: int, why: str) -> None:
        """Let the autopilot move for ``seat`` (turn timeout, absence, house bot)."""
        game = self.game
        if game is None or self.state != PLAYING or game.to_move != seat:
            return
        action = autopilot.choose(game, seat)
        if action is None:
            return
        if why == "timeout":
            log.info("room %s: seat %d timed out; the autopilot plays %s", self.id, seat, action)
        if seat in self._standin_once:
            self._dismiss_standin(seat)
        events = self._engine(game.apply, seat, action)
        self._charge_clock(seat)
        base = await self._record(events, seat=seat)
        seen = self._broadcast(base, events)
        await self._after_change(seen)

    async def _grace_over(self, seat: int) -> None:
        """A player stayed away past the grace period."""
        if self.state != PLAYING or self.connected(seat) or self.game is None:
            return
        if self.engine.name in autopilot.POLICIES:
            self.seats[seat].autopilot = True
            self._launch_standin(seat, once=False)
            self._send_room()
            self._plan()
        else:
            log.info("room %s: seat %d abandoned the game", self.id, seat)
            await self._forfeit(seat, "abandoned")

    async def _finish(self) -> None:
        game = self.game
        assert game is not None and game.outcome is not None
        self.state = FINISHED
        for name in list(self._timers):
            self._cancel(name)
        self.row.status = FINISHED
        self.row.result = game.outcome.to_json()
        self.row.reason = game.outcome.reason
        self.row.seed_revealed = True
        self.row.finished = time.time()
        await self.store.save_game(self.row)
        players = [seat.player.id if seat.player else None for seat in self.seats]
        per_seat = stats.compute(self.engine.name, self.log, game.outcome, len(self.seats))
        totals: dict[str, dict[str, float]] = {}
        for pid, values in zip(players, per_seat, strict=True):
            if pid is not None:  # a house bot may hold several seats: sum them
                mine = totals.setdefault(pid, {})
                for key, value in values.items():
                    mine[key] = mine.get(key, 0) + value
        await self.store.add_stats(self.engine.name, totals)
        self._send_room()
        self.bus.result(self)
        self._schedule("evict", self.timing.finished_ttl, self._evict)

    async def _abort(self, reason: str) -> None:
        """The game cannot go on (an engine or server fault): end it, tell everyone."""
        if self.state in (FINISHED, ABORTED):
            return
        self.state = ABORTED
        for name in list(self._timers):
            self._cancel(name)
        self.row.status = ABORTED
        self.row.reason = reason
        self.row.seed_revealed = True
        self.row.finished = time.time()
        events: list[Event] = []
        if self.game is not None:
            payload = {"type": "aborted", "reason": reason, "seed": self.row.seed.hex()}
            events.append(Event.public(len(self.seats), payload))
        first = self.last_seq + 1
        rows = [EventRow(first, "room", e.truth) for e in events]
        try:
            await self.store.save_game(self.row, rows)
        except Exception:
            log.exception("room %s: could not record the abort", self.id)
        self._broadcast(self._log_events(events), events)
        self._send_room()
        self.bus.result(self)
        self._schedule("evict", self.timing.finished_ttl, self._evict)

    async def _evict(self) -> None:
        for client in list(self.viewers):
            client.rooms.discard(self)
        self.viewers.clear()
        self._closed = True
        if self.on_close is not None:
            self.on_close(self)
        self._queue.put_nowait(None)

    async def _save(self) -> None:
        self.row.seats = [seat.player.id if seat.player else None for seat in self.seats]
        await self.store.save_game(self.row)

    # -- recovery -----------------------------------------------------------------------

    async def recover(self) -> None:
        """Rebuild the game of a room that was playing when the server stopped."""
        actions = await self.store.actions(self.id)
        stored = await self.store.events(self.id)
        game, replayed = replay(
            self.engine.new_game, self.config, self.row.seed, [(a.seat, a.action) for a in actions]
        )
        self.game = game
        pending = iter(replayed)
        for row in stored:
            if row.source == "game":
                event = next(pending, None)
                if event is None or event.truth != row.truth:
                    raise RuntimeError(f"room {self.id}: event {row.seq} does not replay")
                self._log_events([event])
            else:
                self._log_events([Event.public(len(self.seats), row.truth)])
        missing = list(pending)
        if missing:
            raise RuntimeError(f"room {self.id}: {len(missing)} replayed events are not logged")
        if self.settings.clock_base:
            last = next((a.clocks for a in reversed(actions) if a.clocks is not None), None)
            self._clocks = list(last) if last else [self.settings.clock_base] * len(self.seats)
        now = time.monotonic()
        for index, seat in enumerate(self.seats):
            if not seat.server_played:
                seat.away_since = now
                self._schedule(f"grace:{index}", self.timing.grace, self._grace_over, index)
        if game.is_over:  # the end was logged but the row not updated: finish it now
            await self._finish()
        else:
            self._plan()


def player_ids(players: Iterable[Player]) -> dict[str, Player]:
    """Index players by id."""
    return {p.id: p for p in players}


def new_row(
    room_id: str, engine: Engine, config: Any, settings: Settings, host: str | None
) -> GameRow:
    """The stored row of a new, waiting room."""
    invite = None if settings.public else secrets.token_urlsafe(12)
    return GameRow(
        id=room_id,
        game=engine.name,
        options=config.to_options(),
        settings=settings.to_json(),
        host=host,
        invite=invite,
        public=settings.public,
        seats=[None] * config.seats,
        status=WAITING,
        seed=b"",
        seed_sha256="",
        created=time.time(),
    )


__all__ = ["ABORTED", "FINISHED", "PLAYING", "WAITING", "Room", "Seat", "Settings", "Timing"]


def _seat_from_row(player_id: str | None, players: dict[str, Player]) -> Seat:
    """A stored seat: a player, the autopilot (``bot-autopilot``) or a house bot
    (``bot-<name>``, whose client is started again)."""
    if player_id is None:
        return Seat()
    player = players.get(player_id)
    if not player_id.startswith("bot-"):
        return Seat(player)
    name = player_id.removeprefix("bot-")
    if name == "autopilot":
        return Seat(player, house=True)
    return Seat(player, house=True, bot=name)
