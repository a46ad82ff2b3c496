"""One room as a serialized actor: a thin asyncio shell around its sans-I/O core.

Everything that touches a room goes through its queue and runs in its one task
(DESIGN.md, idea 4): requests from connections, timer ticks and disconnections. The task
hands each input to :class:`~server.roomcore.core.RoomCore` with the time and carries out
the effects it returns, in order: a journal entry is committed to the store before any
later effect (so nothing is acknowledged or shown before it is durable); frames go to
each connection in one socket write per job (gathered per connection while the job
runs, handed over when it ends); timers
become ``loop.call_at`` handles that feed ticks back into the queue.

If the store cannot write (a full disk, an I/O error: any :class:`StoreError` but
:class:`LeaseLost`), the room *pauses*: the entry that failed and every effect after it
wait, nothing of them is acknowledged or shown, the core stops its clocks and timers and
tells every viewer (``StoreFailed``); the room retries the write with backoff
(:data:`RETRY_FIRST` doubling to :data:`RETRY_MOST` seconds) and, once it is stored,
carries out the rest and goes on (``StoreRecovered``). If the core itself fails, the room
logs it and aborts its game; the server goes on.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from server.errors import ClientError, LeaseLost, StoreError
from server.feed.bus import NO_BUS, Bus
from server.games import Engine
from server.games.base import Event, Game
from server.ops import logs
from server.players.identity import Player
from server.roomcore import messages as m
from server.roomcore.core import RoomCore, new_row
from server.roomcore.rating import HouseVersion
from server.roomcore.seating import Seat
from server.roomcore.settings import ABORTED, FINISHED, PLAYING, WAITING, Settings, Timing
from server.rooms.connection import Client
from server.store import journal
from server.store.contract import ActionRow, EventRow, GameRow, RatingChange, Store
from server.store.signing import Signer
from server.wire import frames

log = logging.getLogger(__name__)

#: the close code of a connection whose room moved to another node ("service restart")
MOVED = 1012
#: seconds before the first retry of a write that failed, and the most between two
RETRY_FIRST = 0.1
RETRY_MOST = 2.0

#: Starts a house bot client: (room id, seat, bot name, ticket).
Launcher = Callable[[str, int, str, str], None]
#: Advice for a seat: ``await advisor(view, events, options)`` gives the ``hint`` frame's
#: fields, or raises :class:`ClientError` (``unsupported``: no advice; ``busy``: not now).
#: ``view`` is the engine's ``view(seat)`` and ``events`` the seat's own stream of
#: projections: an advisor is given exactly what the seat may know, never the game
#: itself. The server's works in a house runner process (:meth:`HouseBots.advise
#: <server.rooms.house.HouseBots.advise>`), never in the room's task.
Advisor = Callable[
    [dict[str, Any], list[dict[str, Any]], dict[str, Any]], Awaitable[dict[str, Any]]
]


@dataclass(slots=True)
class _Job:
    message: m.Input | None = None
    call: Callable[[], Any] | None = None
    log: tuple[list[ActionRow], list[EventRow]] | None = None
    #: abort the game for this reason (``Room.abort``)
    abort: str | None = None
    #: write the entry that failed again (the room is paused)
    retry: bool = False
    done: asyncio.Future[Any] | None = None


@dataclass(slots=True)
class _Pending:
    """What waits while the room is paused: the effects from the persist that failed
    (``effects[0]``) on, and the rating changes and flag ``_perform`` had gathered."""

    effects: list[m.Effect]
    changes: list[RatingChange]
    rated: bool
    retries: int = 0


#: the name of the handle of the next retry of a write that failed
_RETRY = "store-retry"


class _Mailbox:
    """The room's queue of jobs: a deque and the one waiting task's future (the room's
    task is the only reader, so none of ``asyncio.Queue``'s bookkeeping is needed)."""

    __slots__ = ("_jobs", "_waiter")

    def __init__(self) -> None:
        self._jobs: deque[_Job | None] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, job: _Job | None) -> None:
        """Queue ``job`` (``None`` stops the task) and wake the task if it waits."""
        self._jobs.append(job)
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    async def get(self) -> _Job | None:
        """The next job, waiting for one if there is none."""
        jobs = self._jobs
        while not jobs:
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            await waiter
        return jobs.popleft()


class Room:
    """A room and its game. Build it with :meth:`new` or :meth:`load`, then ``start_task``."""

    #: the public feed (:mod:`server.feed.bus`); the lobby sets it
    bus: Bus = NO_BUS

    def __init__(
        self, core: RoomCore, store: Store, on_close: Callable[[Room], None] | None = None
    ) -> None:
        self.core = core
        self.store = store
        self.on_close = on_close
        #: starts a house bot client; set by the lobby
        self.launcher: Launcher | None = None
        #: gives the ``hint`` advice (the composition root wires the expert); set by the lobby
        self.advisor: Advisor | None = None
        #: told the room's id when a write was fenced (another node owns the room now);
        #: set by the lobby
        self.on_moved: Callable[[str], None] | None = None
        #: told when the game ended (finished with its rating changes stored, or
        #: aborted); set by the lobby, which tells whoever opened a match
        self.on_end: Callable[[Room], None] | None = None
        #: told when every player accepted a rematch: opens its room and answers with
        #: :class:`~server.roomcore.messages.Rematched`; set by the lobby
        self.on_rematch: Callable[[Room], None] | None = None
        #: told when the seats' players changed (a seat taken or given up); set by the
        #: lobby, which keeps an index of each player's rooms
        self.on_seats: Callable[[Room], None] | None = None
        #: told when the room's state changed (the lobby counts the waiting rooms)
        self.on_state: Callable[[Room], None] | None = None
        core.on_seats = self._seats_changed
        core.on_state = self._state_changed
        self._queue = _Mailbox()
        self._task: asyncio.Task[None] | None = None
        self._handles: dict[str, asyncio.TimerHandle] = {}
        self._closed = False
        #: the frames of the job running, per connection: written when it ends
        self._frames: dict[Client, list[bytes]] = {}
        #: while paused: the effects waiting for the write that failed, and the abort
        #: jobs that wait for the end of the pause
        self._pending: _Pending | None = None
        self._deferred: list[_Job] = []

    @classmethod
    def new(
        cls,
        room_id: str,
        engine: Engine,
        config: Any,
        settings: Settings,
        host: str | None,
        invite: str | None,
        store: Store,
        timing: Timing,
        on_close: Callable[[Room], None] | None = None,
        house_version: HouseVersion | None = None,
        signer: Signer | None = None,
    ) -> Room:
        """A new waiting room (its row is saved by the caller); ``house_version`` gives a
        house bot's rating version by its name (the server's own version by default)."""
        row = new_row(room_id, engine, config, settings, host, time.time(), invite)
        core = RoomCore(row, engine, config, timing, {}, house_version=house_version, signer=signer)
        return cls(core, store, on_close)

    # -- what the rest of the server reads ------------------------------------------------

    @property
    def id(self) -> str:
        """The room's id (its game's id in the log)."""
        return self.core.id

    @property
    def row(self) -> GameRow:
        """The room's stored row, as the room sees it now."""
        return self.core.row

    @property
    def engine(self) -> Engine:
        """The game's engine."""
        return self.core.engine

    @property
    def settings(self) -> Settings:
        """The room's own settings."""
        return self.core.settings

    @property
    def state(self) -> str:
        """``waiting``, ``playing``, ``finished`` or ``aborted``."""
        return self.core.state

    @property
    def host(self) -> str | None:
        """The host's player id."""
        return self.core.host

    @property
    def invite(self) -> str | None:
        """The invite code of a private room."""
        return self.core.invite

    @property
    def game(self) -> Game | None:
        """The game, once started."""
        return self.core.game

    @property
    def seats(self) -> list[Seat]:
        """The seats."""
        return self.core.seats

    @property
    def viewers(self) -> dict[m.Conn, int | None]:
        """The attached connections and what each sees (a seat, or ``None``)."""
        return self.core.viewers

    @property
    def config(self) -> Any:
        """The engine's config of the game (its seat count follows a short-handed start)."""
        return self.core.config

    @property
    def log(self) -> list[Event]:
        """Every event of the game so far, with its truth and projections (read only)."""
        return self.core.streams.log

    @property
    def last_seq(self) -> int:
        """How many events the room has logged (0 before the game starts)."""
        return len(self.core.streams.log)

    @property
    def paused(self) -> bool:
        """Whether the room is paused because the store cannot write its game."""
        return self.core.paused

    def connected(self, seat: int) -> bool:
        """Whether the seat's own player (or house bot) has a connection attached."""
        return self.core.connected(seat)

    @property
    def ratings(self) -> list[frames.RatingChangeInfo] | None:
        """A rated game's rating changes once its end is stored (also in
        :meth:`summary`, the ``room`` frame's ``ratings``); ``None`` before, or casual."""
        return self.core.ratings

    def clocks_left(self) -> list[float] | None:
        """Each seat's remaining clock time now, or ``None`` without a clock."""
        clocks = self.core.clocks
        return None if clocks is None else clocks.snapshot(asyncio.get_running_loop().time())

    def stand_ins(self) -> dict[int, m.Conn | None]:
        """The seats a stand-in bot plays for an absent or slow player, and its connection
        (``None`` while it is on its way)."""
        seating = self.core.seating
        out: dict[int, m.Conn | None] = dict.fromkeys(seating.standins)
        for conn, seat in seating.pilots.items():
            if seating.is_standin(conn):
                out[seat] = conn
        return out

    @property
    def closed(self) -> bool:
        """True once the room stopped taking requests."""
        return self._closed

    def summary(self) -> frames.RoomInfo:
        """The public description of the room."""
        return self.core.summary()

    def seat_of(self, player: Player | None) -> int | None:
        """The seat ``player`` holds here, or ``None``."""
        return self.core.seat_of(player)

    def viewer_seq(self, viewer: int | None) -> int:
        """The number of the newest event ``viewer`` may see."""
        return self.core.viewer_seq(viewer)

    # -- the task -------------------------------------------------------------------------

    def start_task(self) -> None:
        """Start the room's task."""
        self._task = asyncio.create_task(self._run(), name=f"room-{self.id}")

    async def stop(self) -> None:
        """Stop the room's task after the jobs already queued (for shutdown)."""
        self._closed = True
        for handle in self._handles.values():
            handle.cancel()
        self._handles.clear()
        if self._task is not None:
            self._queue.put_nowait(None)
            await self._task
            self._task = None

    async def wait_closed(self) -> None:
        """Wait until the room's task has ended (it closed, or was stopped)."""
        if self._task is not None:
            await asyncio.shield(self._task)

    async def request(self, make: Callable[[object], m.Request]) -> Any:
        """Hand the request ``make(token)`` to the room and return its reply (or raise its
        error); the token is how the room's effects name this request."""
        if self._closed:
            raise ClientError("no_such_room", f"room {self.id} is closed")
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Job(message=make(done), done=done))
        try:
            return await done
        finally:
            del done  # (a refusal's traceback holds this frame: no cycle through the future)

    def post(self, message: m.Input) -> None:
        """Queue ``message`` without waiting for it."""
        if not self._closed:
            self._queue.put_nowait(_Job(message=message))

    async def call(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn()`` in the room's task (between two inputs) and return its result."""
        if self._closed:
            raise ClientError("no_such_room", f"room {self.id} is closed")
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Job(call=fn, done=done))
        try:
            return await done
        finally:
            del done  # (as in ``request``)

    async def recover(self) -> None:
        """Rebuild the game from the log (after a restart, or to show an ended game);
        a log that does not replay aborts the game (logged)."""
        log_rows = (await self.store.actions(self.id), await self.store.events(self.id))
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Job(log=log_rows, done=done))
        await done

    async def _run(self) -> None:
        logs.bind(conn=None, room=self.id)
        while True:
            job = await self._queue.get()
            if job is None:
                closed = ClientError("no_such_room", f"room {self.id} is closed")
                for effect in self.core.drop_held(closed):
                    self._effect(effect)
                self._drop_pending()
                return
            try:
                await self._do(job)
            finally:
                if self._frames:  # each connection gets the job's frames in one write
                    pending, self._frames = self._frames, {}
                    for client, texts in pending.items():
                        client.send_many(texts)

    async def _do(self, job: _Job) -> None:
        done = job.done
        try:
            if job.retry:
                await self._retry()
                return
            if job.abort is not None and self.core.paused:
                self._deferred.append(job)  # (an abort is a write: after the pause)
                return
            if job.abort is not None:
                await self._fail(job.abort)
                if done is not None and not done.done():
                    done.set_result(None)
                return
            if job.call is not None:
                result = job.call()
                if done is not None and not done.done():
                    done.set_result(result)
                return
            loop = asyncio.get_running_loop()
            if job.log is not None:
                try:
                    effects = self.core.recover(*job.log, loop.time(), time.time())
                except Exception:
                    log.exception("room %s: its log does not replay", self.id)
                    await self._fail("its log does not replay")
                else:
                    await self._perform(effects)
                if done is not None and not done.done():
                    done.set_result(None)
                return
            assert job.message is not None
            message = job.message
            # (a request held back behind a house seat's paced move is answered later,
            # when the move is shown: its future stays pending until then)
            await self._perform(self.core.handle(message, loop.time(), time.time()))
            return
        except ClientError as exc:
            if done is not None and not done.done():
                done.set_exception(exc.with_traceback(None))  # (no cycle through this frame)
        except LeaseLost as exc:
            log.warning("room %s: %s; the room stops on this node", self.id, exc)
            self._moved()
            if done is not None and not done.done():
                done.set_exception(ClientError("no_such_room", f"room {self.id} moved"))
        except Exception:
            log.exception("room %s: internal error", self.id)
            await self._fail("internal_error")  # a code: the log above names the exception
            if done is not None and not done.done():
                done.set_exception(
                    ClientError("aborted", f"room {self.id} failed and its game was aborted")
                )

    async def abort(self, reason: str) -> None:
        """End the game as aborted (``reason`` says why), in the room's task: its opener
        no longer wants it (a tournament game decided before its room opened)."""
        if self._closed:
            return
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Job(abort=reason, done=done))
        await done

    async def _fail(self, reason: str) -> None:
        if self.core.paused:  # (an abort is a write: it could not be stored either, and
            # what waits for the store must be written first)
            log.error("room %s: %s while paused: the game is not aborted", self.id, reason)
            return
        loop = asyncio.get_running_loop()
        try:
            await self._perform(self.core.abort(reason, loop.time(), time.time()))
        except Exception:
            log.exception("room %s: could not record the abort", self.id)

    async def _perform(
        self,
        effects: list[m.Effect],
        changes: list[RatingChange] | None = None,
        rated: bool = False,
    ) -> bool:
        """Carry out the core's effects in order (a persist is durable before the next);
        return False if a write failed and the room paused (the rest waits for it).

        A rated game's end comes back from the store with its rating changes: they are
        handed to the core (:class:`~server.roomcore.messages.Rated`) once the effects
        of the end are carried out, and the core shows them."""
        if changes is None:
            changes = []
        for index, effect in enumerate(effects):
            if isinstance(effect, m.Send):  # (most effects: about six per action)
                conn = effect.conn
                assert isinstance(conn, Client)
                held = self._frames.get(conn)
                if held is None:
                    self._frames[conn] = list(effect.frames)
                else:
                    held.extend(effect.frames)
            elif isinstance(effect, m.Persist):
                entry = effect.entry
                try:
                    changes += await journal.commit(self.store, entry)
                except LeaseLost:
                    raise
                except StoreError as exc:
                    await self._pause(_Pending(effects[index:], changes, rated), exc)
                    return False
                rated = rated or (isinstance(entry, journal.Finish) and entry.plan is not None)
            else:
                self._effect(effect)
        if rated:
            loop = asyncio.get_running_loop()
            message = m.Rated(tuple(changes))
            return await self._perform(self.core.handle(message, loop.time(), time.time()))
        return True

    # -- a pause: the store cannot write --------------------------------------------------

    async def _pause(self, pending: _Pending, exc: StoreError) -> None:
        """A write failed: keep what waits for it, pause the core (once) and retry later."""
        self._pending = pending
        if not self.core.paused:
            log.warning("room %s: cannot store its game (%s): paused until it can", self.id, exc)
            first = pending.effects[0]
            assert isinstance(first, m.Persist)
            loop = asyncio.get_running_loop()
            failed = m.StoreFailed(first.entry, str(exc))
            await self._perform(self.core.handle(failed, loop.time(), time.time()))
        self._retry_later()

    def _retry_later(self) -> None:
        pending = self._pending
        if pending is None or self._closed:
            return
        delay = min(RETRY_MOST, RETRY_FIRST * 2**pending.retries)
        pending.retries += 1
        loop = asyncio.get_running_loop()
        self._handles[_RETRY] = loop.call_later(delay, self._queue.put_nowait, _Job(retry=True))

    async def _retry(self) -> None:
        """Write the entry that failed again; once it is stored, carry out what waited
        for it and let the core go on."""
        pending = self._pending
        self._handles.pop(_RETRY, None)
        if pending is None:
            return
        first = pending.effects[0]
        assert isinstance(first, m.Persist)
        try:
            pending.changes += await journal.commit(self.store, first.entry)
        except LeaseLost:
            raise
        except StoreError as exc:
            if not await self._stored_after_all(first.entry):
                log.debug("room %s: still cannot store its game: %s", self.id, exc)
                self._retry_later()
                return
        entry = first.entry
        rated = pending.rated or (isinstance(entry, journal.Finish) and entry.plan is not None)
        self._pending = None
        if not await self._perform(pending.effects[1:], pending.changes, rated):
            return  # a later write failed: still paused
        log.warning("room %s: its game is stored again: the room goes on", self.id)
        loop = asyncio.get_running_loop()
        if not await self._perform(self.core.handle(m.StoreRecovered(), loop.time(), time.time())):
            return
        deferred, self._deferred = self._deferred, []
        for job in deferred:
            self._queue.put_nowait(job)

    async def _stored_after_all(self, entry: journal.Entry) -> bool:
        """Whether the entry whose write failed is stored after all (its first write
        reached the disk although it reported an error): then it is never written again.
        A rated game's end found so is shown with its stored rating changes."""
        try:
            if not await journal.stored(self.store, entry):
                return False
        except StoreError:
            return False
        log.warning("room %s: a write reported failed was stored after all", self.id)
        pending = self._pending
        if pending is not None and isinstance(entry, journal.Finish) and entry.plan is not None:
            pending.changes += await self.store.rating_changes(self.id)
        return True

    def _drop_pending(self) -> None:
        """The room stops while paused (a shutdown): what waited was never stored, so it
        is never shown; its requests are answered ``paused``, nothing is recorded."""
        pending, self._pending = self._pending, None
        deferred, self._deferred = self._deferred, []
        error = ClientError(
            "paused", f"the server stopped before it could save this in room {self.id}"
        )
        for effect in pending.effects if pending is not None else ():
            if isinstance(effect, m.Reply | m.Refuse):
                done = effect.token
                if isinstance(done, asyncio.Future) and not done.done():
                    done.set_exception(error)
        for job in deferred:
            if job.done is not None and not job.done.done():
                job.done.set_result(None)

    def _effect(self, effect: m.Effect) -> None:
        """Carry out one effect that needs no waiting (all but a persist)."""
        if isinstance(effect, m.Reply):
            done = effect.token
            if isinstance(done, asyncio.Future) and not done.done():
                done.set_result(effect.frame)
        elif isinstance(effect, m.PublishEvents):
            if self.bus is not NO_BUS:  # (the no-op bus: no list to copy)
                self.bus.room_events(self, list(effect.events), effect.first)
        elif isinstance(effect, m.Refuse):
            done = effect.token
            if isinstance(done, asyncio.Future) and not done.done():
                done.set_exception(effect.error)
            elif done is None:
                log.info("room %s: refused: %s", self.id, effect.error.message)
        elif isinstance(effect, m.Schedule):
            self._arm(effect)
        elif isinstance(effect, m.Cancel):
            handle = self._handles.pop(effect.name, None)
            if handle is not None:
                handle.cancel()
        elif isinstance(effect, m.Launch):
            if self.launcher is not None:
                self.launcher(self.id, effect.seat, effect.bot, effect.ticket)
        elif isinstance(effect, m.Attached):
            assert isinstance(effect.conn, Client)
            effect.conn.rooms.add(self)
        elif isinstance(effect, m.Released):
            assert isinstance(effect.conn, Client)
            effect.conn.rooms.discard(self)
        elif isinstance(effect, m.PublishLobby):
            self.bus.lobby_changed()
        elif isinstance(effect, m.PublishResult):
            self.bus.result(self)
            if self.on_end is not None:
                self.on_end(self)
        elif isinstance(effect, m.PublishRatings):
            self.bus.rated(self, effect.changes)
        elif isinstance(effect, m.Note):
            log.info("room %s: %s", self.id, effect.text)
        elif isinstance(effect, m.OpenRematch):
            if self.on_rematch is None:
                self.post(m.Rematched(None))
            else:
                self.on_rematch(self)
        elif isinstance(effect, m.Close):
            self._close()
        else:  # (a Persist is the caller's: it must be awaited)
            raise TypeError(f"not an effect to carry out here: {effect!r}")

    def _arm(self, effect: m.Schedule) -> None:
        old = self._handles.pop(effect.name, None)
        if old is not None:
            old.cancel()
        if self._closed:
            return
        loop = asyncio.get_running_loop()
        tick = m.Tick(effect.name, effect.generation)
        self._handles[effect.name] = loop.call_at(effect.at, self.post, tick)

    def _moved(self) -> None:
        """Another node owns the room now (server.cluster.nodes): close every connection
        attached here with 1012, so that its client reconnects and resumes there."""
        if self.on_moved is not None:
            self.on_moved(self.id)
        for conn in list(self.core.viewers):
            if isinstance(conn, Client):
                conn.close(MOVED, "the room moved to another node: reconnect and resume")
        if not self._closed:
            self._close()

    def _state_changed(self) -> None:
        if self.on_state is not None:
            self.on_state(self)

    def _seats_changed(self) -> None:
        if self.on_seats is not None:
            self.on_seats(self)

    def _close(self) -> None:
        self._closed = True
        for handle in self._handles.values():
            handle.cancel()
        self._handles.clear()
        if self.on_close is not None:
            self.on_close(self)
        self._queue.put_nowait(None)

    # -- requests -------------------------------------------------------------------------

    async def join(
        self, client: Client, seat: int | None, ticket: str | None = None
    ) -> frames.JoinedFrame:
        """Take a seat (or re-attach to the one held, or the seat a house ticket opens)."""
        reply: frames.JoinedFrame = await self.request(
            lambda t: m.Join(client, seat=seat, ticket=ticket, token=t)
        )
        return reply

    async def watch(self, client: Client) -> frames.WatchingFrame:
        """Attach as a spectator (a seated player gets its own seat's view)."""
        reply: frames.WatchingFrame = await self.request(lambda t: m.Watch(client, token=t))
        return reply

    async def resume(
        self, client: Client, since: int, ticket: str | None = None
    ) -> frames.ResumedFrame:
        """Re-attach and receive every event of the viewer's stream after ``since``."""
        reply: frames.ResumedFrame = await self.request(
            lambda t: m.Resume(client, since=since, ticket=ticket, token=t)
        )
        return reply

    async def leave(self, client: Client) -> frames.LeftFrame:
        """Detach; before the start a player also gives up its seat."""
        reply: frames.LeftFrame = await self.request(lambda t: m.Leave(client, token=t))
        return reply

    def detach(self, client: Client) -> None:
        """The connection closed (queued; nothing to wait for)."""
        self.post(m.Detach(client))

    async def start(self, client: Client) -> frames.StartedFrame:
        """Start the game now with the seats taken (host only)."""
        reply: frames.StartedFrame = await self.request(lambda t: m.Start(client, token=t))
        return reply

    async def add_bot(
        self, client: Client, seat: int | None, bot: Player, name: str = "autopilot"
    ) -> frames.BotAddedFrame:
        """Fill an empty seat with a house bot (host only, before the start)."""
        reply: frames.BotAddedFrame = await self.request(
            lambda t: m.AddBot(client, bot=bot, name=name, seat=seat, token=t)
        )
        return reply

    async def act(
        self, client: Client, action: str, seat: int | None, ref: int | str | None = None
    ) -> None:
        """Apply ``action`` for the sender's seat; the ``ack`` is sent once it is durable."""
        await self.request(lambda t: m.Act(client, action=action, seat=seat, ref=ref, token=t))

    async def hint(self, client: Client, options: dict[str, Any]) -> dict[str, Any]:
        """The expert's advice for the sender's seat, from that seat's knowledge.

        The room's task only reads what the seat may know (:meth:`RoomCore.knowledge`);
        the caller (the asker's connection) then waits for the advisor, which works
        elsewhere, while the room goes on with its other jobs."""

        def read() -> tuple[dict[str, Any], list[dict[str, Any]], int]:
            seat = self.core.hint_seat(client)
            view, events = self.core.knowledge(seat)
            return view, events, self.core.viewer_seq(seat)

        view, events, seq = await self.call(read)
        if self.advisor is None:
            raise ClientError("unsupported", "this server gives no hints")
        advice = await self.advisor(view, events, options)
        return {**advice, "room": self.id, "seq": seq}

    async def say(self, client: Client, text: str) -> frames.ChatFrame:
        """A chat line to the sender's channel (stored with the game); the reply is the
        sender's own ``chat`` frame."""
        reply: frames.ChatFrame = await self.request(lambda t: m.Say(client, text=text, token=t))
        return reply

    async def rematch(self, client: Client) -> frames.RematchFrame:
        """Offer a rematch of the finished game, or accept the one offered."""
        reply: frames.RematchFrame = await self.request(lambda t: m.Rematch(client, token=t))
        return reply

    async def decline_rematch(self, client: Client) -> frames.RematchFrame:
        """Decline the rematch offered."""
        reply: frames.RematchFrame = await self.request(lambda t: m.DeclineRematch(client, token=t))
        return reply

    def relaunch_bots(self) -> None:
        """Start the house bot clients again (the server listens again after a restart)."""
        self.post(m.Relaunch())


__all__ = ["ABORTED", "FINISHED", "PLAYING", "WAITING", "Room", "Seat", "Settings", "Timing"]
