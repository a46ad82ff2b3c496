"""The room core: one room's logic as a synchronous state machine (DESIGN.md, idea 4).

``RoomCore.handle(input, now)`` takes one input (a request from a connection, a timer
tick, a relaunch) and the time, and returns the effects its actor must carry out, in
order: persist a journal entry (durable before anything after it), send frames, answer
the request, arm or cancel timers, launch house bots, feed the public bus. It never
reads a clock, touches a socket or awaits anything, so tests drive it with a fake clock
and no event loop (as h11 is a whole HTTP connection without I/O). Its journal entries
come from :mod:`server.store.journal`, its frames are :mod:`server.wire.frames` types:
sent encoded (bytes), a reply as the struct (the connection adds the request's ``ref``).

An accepted action goes: engine (``game.apply``) -> :class:`~server.store.journal.Step`
(persisted) -> ``ack`` to the sender -> each attached connection's own projection of
every event (:mod:`server.roomcore.streams`) -> clocks and the next ``turn``.

Time. Rooms with a clock charge the mover between its turn start and each accepted
action (refused attempts spend time too: the clock keeps running); a flag is a forfeit
for ``"timeout"``. A seat nobody is connected to gets a grace period; past it, an engine
with a stand-in policy has the seat played for the absent player (a stand-in house bot,
with the policy as fallback), other engines forfeit the seat for ``"abandoned"``. The
clocks and timers count only time the room is running: after a restart every clock
resumes from its logged value and every grace period starts afresh.

Pacing. A house seat (a house bot or a stand-in) moves at its pace: the room holds the
bot's accepted move until ``pace`` seconds after its turn began, charges its clock exactly
that, and meanwhile buffers every other input. So nothing another viewer can observe (the
frames, their timing, the clock values) depends on how many attempts the bot needed.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, cast

import msgspec

from server import __version__
from server.errors import ClientError
from server.games import Engine
from server.games.base import ConfigError, Event, Game, IllegalAction, replay
from server.players.identity import Player
from server.roomcore import chat, rating
from server.roomcore import messages as m
from server.roomcore.clocks import Clocks
from server.roomcore.seating import Seat, Seating, seat_from_id
from server.roomcore.settings import ABORTED, FINISHED, PLAYING, WAITING, Settings, Timing
from server.roomcore.streams import Streams, Viewer
from server.roomcore.timers import Timers
from server.store import chain, journal
from server.store.contract import ActionRow, ChatRow, EventRow, GameRow, RatingChange
from server.wire import frames
from server.wire.limits import TokenBucket

if TYPE_CHECKING:
    from server.store.signing import Signer

#: Seconds a stand-in bot has to act before the engine's fallback policy moves instead.
STANDIN_FALLBACK = 3.0
#: What the ``paused`` frame says (clients show their own words, in their language).
PAUSED_TEXT = "the server cannot save: paused (the game goes on when it can save again)"
RESUMED_TEXT = "the server can save again: the game goes on"

_Job = Callable[..., None]


class RoomCore:
    """One room and its game, without I/O. Build it from its stored row; feed it inputs."""

    def __init__(
        self,
        row: GameRow,
        engine: Engine,
        config: Any,
        timing: Timing,
        players: dict[str, Player],
        *,
        chat_lines: Iterable[ChatRow] = (),
        rating_changes: Iterable[RatingChange] = (),
        house_version: rating.HouseVersion | None = None,
        token: Callable[[], str] = lambda: secrets.token_urlsafe(16),
        new_seed: Callable[[], bytes] = lambda: secrets.token_bytes(32),
        signer: Signer | None = None,
    ) -> None:
        self.id = row.id
        self.row = row
        self.engine = engine
        self.config = config
        self.timing = timing
        self.settings = Settings.from_json(row.settings)
        self.seating = Seating([seat_from_id(pid, players) for pid in row.seats], row.house)
        #: told whenever ``row.seats`` changes (the lobby's index of each player's rooms)
        self.on_seats: Callable[[], None] | None = None
        #: told whenever ``state`` changes (the lobby counts the waiting rooms)
        self.on_state: Callable[[], None] | None = None
        self._state = row.status
        self.game: Game | None = None
        self.streams = Streams(row.id, len(row.seats))
        self.viewers: dict[m.Conn, Viewer] = {}
        self.timers = Timers()
        self.clocks: Clocks | None = None
        self._token = token
        self._new_seed = new_seed
        self._jobs: dict[str, tuple[_Job, tuple[Any, ...]]] = {}
        self._turn_seat: int | None = None
        self._turn_since = 0.0
        #: no turn limit runs out before this (after a restart: the grace period, so a
        #: player has the time to come back before the stand-in or the forfeit)
        self._turn_floor = 0.0
        #: while a house seat's move is held back: the viewers to show it to on release
        self._hold: tuple[int, list[Event], set[Viewer]] | None = None
        self._held_inputs: list[m.Input] = []
        #: the room's chat, as stored (server.roomcore.chat), and each speaker's rate
        self.chat = list(chat_lines)
        #: the head of the game's hash chain (server.store.chain), as logged so far (the
        #: room's order is the chain's); None: an unchained game, logged before the chain
        self._head = chain.resume(row, self.chat)
        #: signs the game's final hash (server.store.signing); None: unsigned
        self.signer = signer
        self._chat_rate: dict[str, TokenBucket] = {}
        #: a house bot's rating version, by its name (the bots' registry, via the lobby;
        #: the server's own version by default)
        self.house_version = house_version or (lambda name: __version__)
        #: a rated game's rating changes, once its end is stored (the ``room`` frame's
        #: ``ratings``); None until then
        self.ratings: list[frames.RatingChangeInfo] | None = None
        if row.rated is not None and rating_changes:
            self.ratings = rating.infos(list(rating_changes))
        #: the rated game's end is being stored: its changes are awaited (``Rated``)
        self._rating_pending = False
        #: the last preview of a waiting room's rating: for these holders, rated or not
        self._preview: tuple[tuple[rating.Holder | None, ...], bool] | None = None
        #: a waiting match's seats whose player (or bot) has come at least once
        self._came: set[int] = set()
        #: after the end: the seats that asked for a rematch, the seat that declined it,
        #: its room once open; whether it is being opened (not stored: a restart forgets)
        self._rematch: set[int] = set()
        self._declined: int | None = None
        self._next_room: str | None = None
        self._opening = False
        #: while the store cannot write (the actor says so with ``StoreFailed``): when
        #: the pause began, the timers it stopped (name -> due time), the inputs kept for
        #: after it, and the room as its stored log has it (what the lobby lists)
        self.paused_since: float | None = None
        self._paused_timers: dict[str, float] = {}
        self._paused_inputs: list[m.Input] = []
        self._paused_view: frames.RoomInfo | None = None
        self._out: list[m.Effect] = []
        self._now = 0.0
        self._wall = 0.0

    # -- the one entry point ------------------------------------------------------------

    def handle(self, message: m.Input, now: float, wall: float | None = None) -> list[m.Effect]:
        """Process one input at time ``now`` (monotonic seconds; ``wall`` is the Unix time
        for stored rows, ``now`` by default); return the effects to carry out in order."""
        self._out = []
        self._now = now
        self._wall = now if wall is None else wall
        if self.paused_since is not None or isinstance(message, m.StoreFailed | m.StoreRecovered):
            self._while_paused(message)
        elif self._hold is not None and not (
            isinstance(message, m.Tick) and message.name == "hold"
        ):
            self._held_inputs.append(message)  # processed when the held move is shown
            return []
        else:
            self._dispatch(message)
        while self.paused_since is None and self._hold is None and self._held_inputs:
            self._dispatch(self._held_inputs.pop(0))
        if self.state == WAITING or "empty" in self._jobs:
            self._watch_empty()
        out, self._out = self._out, []
        return out

    def _watch_empty(self) -> None:
        """A waiting room (not a match) with no human seated and connected, nor its host
        connected, is aborted as ``empty`` after ``timing.empty_room`` seconds: a host
        that left, or throwaway guests that made rooms, do not hold the server's rooms
        (any input re-checks)."""
        if self.state != WAITING or self.settings.reserved or self.timing.empty_room <= 0:
            self._cancel("empty")
            return
        host = self.host
        here = any(
            seat.player is not None and not seat.house and self.connected(index)
            for index, seat in enumerate(self.seats)
        ) or any(conn.player is not None and conn.player.id == host for conn in self.viewers)
        if here:
            if "empty" in self._jobs:
                self._cancel("empty")
        elif "empty" not in self._jobs:
            self._at("empty", self._now + self.timing.empty_room, self._expire)

    def _expire(self) -> None:
        """The ``empty`` deadline: abort the waiting room if still nobody is here."""
        self._out.append(m.Note("nobody came to the waiting room: it is closed"))
        self._abort("empty")
        self._cancel("evict")
        self._evict()  # (at once: nothing to look back at, and it no longer counts)

    def _dispatch(self, message: m.Input) -> None:
        if isinstance(message, m.Tick):
            if self.timers.due(message.name, message.generation):
                job = self._jobs.pop(message.name, None)
                if job is not None:
                    job[0](*job[1])
            return
        if isinstance(message, m.Relaunch):
            self._relaunch()
            return
        if isinstance(message, m.TurnAgain):
            if message.conn in self.viewers:
                self._send_turn(to=message.conn)
            return
        if isinstance(message, m.Rated):
            self._rated(message.changes)
            return
        if isinstance(message, m.Rematched):
            self._rematched(message.room)
            return
        if isinstance(message, m.StoreFailed | m.StoreRecovered):
            self._while_paused(message)
            return
        handler = _HANDLERS[type(message)]
        try:
            reply = handler(self, message)
        except ClientError as exc:
            # (without its traceback: it would hold this frame, the message and through
            # its token the future the error is handed to, a cycle only a collection frees)
            self._out.append(m.Refuse(message.token, exc.with_traceback(None)))
        else:
            self._out.append(m.Reply(message.token, reply))

    def abort(self, reason: str, now: float, wall: float | None = None) -> list[m.Effect]:
        """End the game because the room failed (``reason`` says how); return the effects."""
        self._out = []
        self._now = now
        self._wall = now if wall is None else wall
        self._hold = None
        failed = ClientError("aborted", f"room {self.id} failed and its game was aborted")
        self._out.extend(self.drop_held(failed))
        self._abort(reason)
        out, self._out = self._out, []
        return out

    def drop_held(self, error: ClientError) -> list[m.Effect]:
        """Refuse with ``error`` every request held back behind a house seat's paced move
        or kept for after a pause (the room fails or stops first); return the effects."""
        refused: list[m.Effect] = [
            m.Refuse(held.token, error)
            for held in [*self._held_inputs, *self._paused_inputs]
            if isinstance(held, m.Request) and held.token is not None
        ]
        self._held_inputs.clear()
        self._paused_inputs.clear()
        return refused

    # -- a pause: the store cannot write ------------------------------------------------

    @property
    def paused(self) -> bool:
        """Whether the room is paused because the store cannot write."""
        return self.paused_since is not None

    def _while_paused(self, message: m.Input) -> None:
        """An input while the room is paused (or the one that pauses or resumes it).

        Nothing is played and no timer runs: a game request is refused with ``paused``;
        attaching (join, watch, resume), a closed connection and the actor's own inputs
        wait for the end of the pause (an attaching connection is told of the pause at
        once); ticks are stale (their timers stopped with the pause)."""
        if isinstance(message, m.StoreFailed):
            if self.paused_since is None:
                self._pause(message)
        elif isinstance(message, m.StoreRecovered):
            if self.paused_since is not None:
                self._unpause()
        elif isinstance(message, m.Tick):
            return
        elif isinstance(message, m.Join | m.Watch | m.Resume):
            self._paused_inputs.append(message)
            self._send(message.conn, self._paused_frame(True))
        elif isinstance(message, m.Detach | m.Relaunch | m.Rated | m.Rematched):
            self._paused_inputs.append(message)
        else:
            assert isinstance(message, m.Request)
            error = ClientError(
                "paused",
                f"the server cannot save: room {self.id} is paused and goes on by itself "
                "when it can save again; nothing was done (act again then)",
            )
            self._out.append(m.Refuse(message.token, error))

    def _paused_frame(self, paused: bool) -> bytes:
        text = PAUSED_TEXT if paused else RESUMED_TEXT
        return frames.encode(frames.PausedFrame(room=self.id, paused=paused, message=text))

    def _pause(self, failed: m.StoreFailed) -> None:
        """The store could not write ``failed.entry``: stop every timer and clock and tell
        every viewer. What the room shows meanwhile is its stored log's (the lobby lists
        the room as it was before the entry that failed)."""
        self._paused_view = self._stored_summary(failed.entry)
        self.paused_since = self._now
        self._paused_timers = self.timers.pending()
        self._out.extend(self.timers.cancel_all())  # (their jobs wait in self._jobs)
        why = f" ({failed.reason})" if failed.reason else ""
        self._out.append(m.Note(f"the store cannot write{why}: the room is paused"))
        frame = self._paused_frame(True)
        for conn in self.viewers:
            self._send(conn, frame)
        self._out.append(m.PublishLobby())

    def _unpause(self) -> None:
        """The entry that failed is stored: restart the clocks and timers where they
        stopped (the pause is charged to nobody), tell every viewer, and handle the
        inputs kept for now."""
        assert self.paused_since is not None
        pause = max(0.0, self._now - self.paused_since)
        self.paused_since = None
        self._paused_view = None
        clocks = self.clocks
        if clocks is not None and clocks.running is not None:
            clocks.since += pause
        self._turn_since += pause
        self._turn_floor += pause
        for seat in self.seats:
            if seat.away_since is not None:
                seat.away_since += pause
        for name, at in self._paused_timers.items():
            self._out.append(self.timers.set(name, at + pause))
        self._paused_timers = {}
        self._out.append(m.Note(f"the store writes again: the room goes on after {pause:.1f} s"))
        frame = self._paused_frame(False)
        for conn in self.viewers:
            self._send(conn, frame)
        self._out.append(m.PublishLobby())
        if self._hold is None:  # (a held house move shows its change, clocks and turn)
            self._send_clock()
            self._send_turn()
        kept, self._paused_inputs = self._paused_inputs, []
        for message in kept:
            if self._hold is not None:
                self._held_inputs.append(message)
            else:
                self._dispatch(message)

    def _stored_summary(self, entry: journal.Entry) -> frames.RoomInfo:
        """The room's summary as its stored log has it when ``entry`` (and all after
        it) is not stored: before a start, a step or an end that failed, nothing of them
        shows (no new state, event count, outcome or revealed seed)."""
        view = self.summary()
        if isinstance(entry, journal.Start):
            state, base = WAITING, 0
        elif isinstance(entry, journal.Step | journal.Finish):
            state = WAITING if self.game is None else PLAYING
            base = entry.events[0].seq - 1 if entry.events else len(self.streams.log)
        else:
            return msgspec.structs.replace(view, paused=True)
        return msgspec.structs.replace(
            view,
            state=cast(frames.RoomState, state),
            seq=self.streams.seq_before(None, base),
            seed=None,
            outcome=None,
            reason=None,
            ratings=None,
            paused=True,
        )

    # -- small effects ------------------------------------------------------------------

    def _send(self, conn: m.Conn, *encoded: bytes) -> None:
        if encoded:
            self._out.append(m.Send(conn, encoded))

    def _at(self, name: str, at: float, job: _Job, *args: Any) -> None:
        """Run ``job(*args)`` when the time reaches ``at`` unless re-armed or cancelled."""
        self._jobs[name] = (job, args)
        self._out.append(self.timers.set(name, at))

    def _cancel(self, name: str) -> None:
        self._jobs.pop(name, None)
        cancel = self.timers.cancel(name)
        if cancel is not None:
            self._out.append(cancel)

    def _cancel_all(self) -> None:
        self._jobs.clear()
        self._out.extend(self.timers.cancel_all())

    # -- what viewers are told ----------------------------------------------------------

    @property
    def host(self) -> str | None:
        """The host's player id."""
        return self.row.host

    @property
    def invite(self) -> str | None:
        """The invite code of a private room."""
        return self.row.invite

    @property
    def seats(self) -> list[Seat]:
        """The seats, in order."""
        return self.seating.seats

    def seat_of(self, player: Player | None) -> int | None:
        """The seat ``player`` holds here (house seats excluded), or ``None``."""
        return self.seating.seat_of(player)

    def seat_of_house(self, player_id: str) -> int | None:
        """The house seat ``player_id`` (``bot-<name>``) holds here, or ``None``."""
        for index, seat in enumerate(self.seats):
            if seat.house and seat.player is not None and seat.player.id == player_id:
                return index
        return None

    def viewer_seq(self, viewer: Viewer) -> int:
        """The number of the newest event ``viewer`` may see."""
        return self.streams.seq(viewer)

    def connected(self, seat: int) -> bool:
        """Whether the seat's own player (or house bot) has a connection attached."""
        return any(
            viewer == seat and not self.seating.is_standin(conn)
            for conn, viewer in self.viewers.items()
        )

    def summary(self) -> frames.RoomInfo:
        """The public description of the room (the lobby's listing and ``room`` frames);
        while the room is paused, as its stored log has it."""
        if self._paused_view is not None:
            return self._paused_view
        outcome = self.game.outcome if self.game is not None else None
        revealed = self.state in (FINISHED, ABORTED) and self.game is not None
        settings = self.settings
        return frames.RoomInfo(
            room=self.id,
            game=self.engine.name,
            options=self.config.to_options(),
            public=settings.public,
            state=cast(frames.RoomState, self.state),
            host=self.host,
            seats=[self._seat_info(index, seat) for index, seat in enumerate(self.seats)],
            spectators=cast(frames.Spectators, settings.spectators),
            turn_time=settings.turn_time or None,
            clock=(
                frames.ClockSetting(settings.clock_base, settings.clock_increment)
                if settings.clock_base
                else None
            ),
            seq=self.viewer_seq(None),
            seed_sha256=self.row.seed_sha256 or None,
            seed=self.row.seed.hex() if revealed else None,
            outcome=(
                frames.OutcomeInfo(list(outcome.ranks), list(outcome.winners), outcome.reason)
                if outcome is not None
                else None
            ),
            reason=self.row.reason if self.state == ABORTED else None,
            chat=settings.chat,
            rated=self._is_rated(),
            ratings=self.ratings,
            match=settings.match,
            rematch=self._rematch_info(),
            final_hash=self.row.final_hash,
            signature=self.row.signature,
            key_id=self.row.key_id,
            started=self.row.started if self.state != WAITING else None,
        )

    def _is_rated(self) -> bool:
        """Whether the game is rated: decided when it started; before that, whether it
        will be if the empty seats are taken by accounts (``rating.preview``)."""
        if self.state != WAITING:
            return self.row.rated is not None
        held = rating.holders(self.seats, self.house_version)
        if self._preview is None or self._preview[0] != held:  # (the lobby lists it often)
            options = self.config.to_options()
            rated = rating.preview(self.engine.name, options, held, self.settings.rated)
            self._preview = (held, rated)
        return self._preview[1]

    def _seat_info(self, index: int, seat: Seat) -> frames.SeatInfo:
        player = seat.player
        return frames.SeatInfo(
            seat=index,
            player=player.id if player else None,
            name=player.name if player else None,
            bot=player.bot if player else False,
            house=seat.house,
            connected=seat.server_played or self.connected(index),
            autopilot=seat.autopilot,
        )

    def _room_frame(self, conn: m.Conn, summary: frames.RoomInfo) -> bytes:
        seated = self.invite is not None and self.seat_of(conn.player) is not None
        seq = self.viewer_seq(self.viewers.get(conn))
        return frames.encode(frames.room_frame(summary, seq, self.invite if seated else None))

    def _send_room(self) -> None:
        """Send every attached connection the room's current description."""
        summary = self.summary()
        for conn in self.viewers:
            self._send(conn, self._room_frame(conn, summary))
        self._out.append(m.PublishLobby())

    def _broadcast(
        self, base: int, events: list[Event], viewers: Iterable[Viewer] | None = None
    ) -> set[Viewer]:
        """Send each attached connection (of ``viewers`` only, if given) its own projections
        of ``events`` (logged from index ``base``); return the viewers that saw any."""
        only = None if viewers is None else set(viewers)
        out = self._out
        streams = self.streams
        if only is None or None in only:
            public = sum(1 for e in events if e.spectator is not None)
            first = streams.seq(None) - public + 1
            out.append(m.PublishEvents(tuple(events), first))
        cache: dict[tuple[int, int], bytes] = {}
        seen: set[Viewer] = set()
        frames_of = streams.frames
        for conn, viewer in self.viewers.items():
            if only is not None and viewer not in only:
                continue
            sent = frames_of(viewer, base, cache)
            if sent:
                seen.add(viewer)
                out.append(m.Send(conn, tuple(sent)))
        return seen

    def _clock_frame(self) -> bytes | None:
        game = self.game
        if game is None or self.state != PLAYING:
            return None
        if self.clocks is None and not self.settings.turn_time:
            return None
        remaining = None if self.clocks is None else self.clocks.snapshot(self._now)
        return frames.encode(
            frames.ClockFrame(
                room=self.id,
                to_move=game.to_move,
                remaining=remaining,
                turn_time=self.settings.turn_time or None,
            )
        )

    def _send_clock(self, to: m.Conn | None = None, viewers: set[Viewer] | None = None) -> None:
        """Send the clocks to ``to``, or to every connection whose viewer is in ``viewers``
        (all when ``None``): a viewer that learnt nothing of a change must not hear of it
        through the clock either."""
        frame = self._clock_frame()
        if frame is None:
            return
        if to is not None:
            self._send(to, frame)
            return
        for conn, viewer in self.viewers.items():
            if viewers is None or viewer in viewers:
                self._send(conn, frame)

    def _send_turn(self, to: m.Conn | None = None) -> None:
        """Tell the seat to move (its connections, or only ``to``) what it may do now."""
        game = self.game
        if game is None or self.state != PLAYING or game.to_move is None:
            return
        seat = game.to_move
        targets = [to] if to is not None else [c for c, v in self.viewers.items() if v == seat]
        if not targets or (to is not None and self.viewers.get(to) != seat):
            return
        left = None if self.clocks is None else round(self.clocks.left(seat, self._now), 3)
        frame = frames.encode(
            frames.TurnFrame(
                room=self.id,
                seat=seat,
                seq=self.viewer_seq(seat),
                legal=game.legal_texts(seat),
                view=game.view(seat),
                time_left=left,
            )
        )
        for conn in targets:
            self._send(conn, frame)

    # -- the log ------------------------------------------------------------------------

    def _record(self, events: list[Event], by: str) -> int:
        """Log the newest history record, decided ``by`` (``DECIDERS``: the seat's player,
        its house bot, a stand-in, a forfeit by the clock), and the ``events`` it caused;
        return the log index of the first event."""
        game = self.game
        assert game is not None
        history = game.history
        clocks = None if self.clocks is None else self.clocks.logged()
        first = len(self.streams.log) + 1
        entry = journal.step(
            self.id, len(history), history[-1], self._wall, events, first, clocks, by, self._head
        )
        self._head = entry.head
        self._out.append(m.Persist(entry))
        return self.streams.append(events)

    @property
    def state(self) -> str:
        """waiting, playing, finished or aborted."""
        return self._state

    @state.setter
    def state(self, value: str) -> None:
        self._state = value
        if self.on_state is not None:
            self.on_state()

    def _seat_rows(self) -> None:
        """Bring the row's seats and house tickets up to date with the seating."""
        self.row.seats = [seat.player.id if seat.player else None for seat in self.seats]
        self.row.house = self.seating.house_tickets()
        if self.on_seats is not None:
            self.on_seats()

    def _save(self) -> None:
        """Log the room's row as it is now (before the game: seats, house bots)."""
        self._seat_rows()
        self._out.append(m.Persist(journal.saved(self.row)))

    def _engine(self, fn: Callable[..., list[Event]], *args: Any) -> list[Event]:
        """Call the engine; turn a refusal into a :class:`ClientError` for the sender."""
        try:
            return fn(*args)
        except IllegalAction as exc:
            raise ClientError(exc.code, exc.reason) from None

    # -- requests -----------------------------------------------------------------------

    def _join(self, msg: m.Join) -> frames.JoinedFrame:
        player = msg.conn.player
        assert player is not None
        if msg.ticket is not None:
            index = self.seating.ticket_seat(msg.ticket, msg.seat)
            self.seating.pilots[msg.conn] = index
            self._attach(msg.conn, index, since=None)
            return frames.JoinedFrame(room=self.id, seat=index)
        held = self.seat_of(player)
        if held is not None:
            if msg.seat is not None and msg.seat != held:
                raise ClientError("already_seated", f"you already hold seat {held} here")
            if self.state == WAITING:
                # (the same player, as it says now who it is: its kind and bot version
                # are what a rated game's start reads)
                self.seats[held].player = player
            self._attach(msg.conn, held, since=None)
            return frames.JoinedFrame(room=self.id, seat=held)
        if self.state != WAITING:
            raise ClientError("bad_state", f"room {self.id} has started: watch it instead")
        if self.settings.rated and player.kind == "guest":
            raise ClientError(
                "account_required",
                f"room {self.id} is rated: its seats are for accounts and bots, not guests",
            )
        index = self.seating.free_seat(msg.seat, self.id)
        self.seats[index] = Seat(player)
        self._save()
        self._attach(msg.conn, index, since=None, seated=True)
        self._maybe_autostart()
        return frames.JoinedFrame(room=self.id, seat=index)

    def _add_bot(self, msg: m.AddBot) -> frames.BotAddedFrame:
        self._require_host(msg.conn)
        if self.state != WAITING:
            raise ClientError("bad_state", "bots can only be added before the start")
        name = msg.name
        if name == "autopilot" and self.engine.standin_policy is None:
            raise ClientError("unsupported", f"the autopilot does not play {self.engine.name}")
        assert msg.bot is not None
        if self.settings.rated and self.seat_of_house(msg.bot.id) is not None:
            raise ClientError(
                "unsupported",
                f"{msg.bot.name} already plays here: a rated game has each player once",
            )
        index = self.seating.free_seat(msg.seat, self.id)
        if name == "autopilot":
            self.seats[index] = Seat(msg.bot, house=True, autopilot=True)
        else:
            self.seats[index] = Seat(msg.bot, house=True, bot=name)
            ticket = self.seating.house_ticket(index)
            self._out.append(m.Launch(index, name, ticket))
        self._save()
        self._send_room()
        self._maybe_autostart()
        return frames.BotAddedFrame(room=self.id, seat=index, bot=msg.bot.id)

    def _relaunch(self) -> None:
        """Start the house bot clients again (after a restart), with their durable tickets."""
        if self.state not in (WAITING, PLAYING):
            return
        if self.state == WAITING and self.settings.reserved and "no_show" not in self._jobs:
            # (armed when the match opens, and afresh after a restart, as grace periods)
            self._at("no_show", self._now + self.settings.no_show, self._no_show)
        for ticket, seat in self.seating.tickets.items():
            bot = self.seats[seat].bot
            if bot is not None and seat not in self.seating.standins:
                self._out.append(m.Launch(seat, bot, ticket))
        for seat in list(self.seating.standins):
            self.seating.standins.pop(seat)
            self._launch_standin(seat, once=seat in self.seating.standin_once)

    def _watch(self, msg: m.Watch) -> frames.WatchingFrame:
        held = self.seat_of(msg.conn.player)
        if held is not None:
            self._attach(msg.conn, held, since=None)
            return frames.WatchingFrame(room=self.id, seat=held)
        self._check_spectators()
        self._attach(msg.conn, None, since=None)
        return frames.WatchingFrame(room=self.id, seat=None)

    def _check_spectators(self) -> None:
        policy = self.settings.spectators
        if policy == "none":
            raise ClientError("no_spectators", f"room {self.id} does not allow spectators")
        if policy == "after" and self.state in (WAITING, PLAYING):
            raise ClientError(
                "no_spectators", f"room {self.id} shows spectators the game after it ends"
            )

    def _resume(self, msg: m.Resume) -> frames.ResumedFrame:
        held: int | None
        if msg.ticket is not None:
            held = self.seating.ticket_seat(msg.ticket, None)
        else:
            held = self.seat_of(msg.conn.player)
        if held is None:
            self._check_spectators()
        last = self.viewer_seq(held)
        if msg.since < 0 or msg.since > last:
            raise ClientError(
                "bad_seq",
                f"you have seen {last} events of room {self.id}; cannot resume after {msg.since}",
            )
        if msg.ticket is not None and held is not None:
            self.seating.pilots[msg.conn] = held
        self._attach(msg.conn, held, since=msg.since)
        return frames.ResumedFrame(room=self.id, seat=held, seq=last)

    def _attach(
        self, conn: m.Conn, viewer: Viewer, since: int | None, seated: bool = False
    ) -> None:
        """Attach ``conn`` as ``viewer``; send the room, then a snapshot or missed events.

        ``seated`` says the seat was just taken, so everyone hears of the change.
        """
        first_connection = viewer is not None and not self.connected(viewer)
        if conn not in self.viewers:
            self._out.append(m.Attached(conn))
        self.viewers[conn] = viewer
        returned = False
        if viewer is not None and not self.seating.is_standin(conn):
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
            self._send(conn, self._room_frame(conn, self.summary()))
        if self.game is not None:
            if since is None:
                snapshot = frames.SnapshotFrame(
                    room=self.id,
                    seq=self.viewer_seq(viewer),
                    seat=viewer,
                    view=self.game.view(viewer),
                )
                self._send(conn, frames.encode(snapshot))
            else:
                self._send(conn, *self.streams.since(viewer, since))
        if conn not in self.seating.pilots:
            channel = chat.channel_of(viewer)
            lines = [line for line in self.chat if line.channel == channel][-chat.HISTORY :]
            self._send(conn, *(frames.encode(chat.chat_frame(self.id, line)) for line in lines))
        if returned:
            self._plan()
        self._send_clock(conn)
        self._send_turn(conn)
        if viewer is not None and self.state == WAITING and self.settings.reserved:
            self._came.add(viewer)
            self._maybe_autostart()

    def _say(self, msg: m.Say) -> frames.ChatFrame:
        """A chat line: stored with the game, then heard by the speaker's channel (the
        speaker's own copy is the reply, so it carries the request's ``ref``)."""
        conn, player = msg.conn, msg.conn.player
        if not self.settings.chat:
            raise ClientError("unsupported", f"chat is off in room {self.id}")
        if player is None or conn not in self.viewers or conn in self.seating.pilots:
            raise ClientError("no_such_room", f"you are not in a room {self.id!r}")
        rate = self._chat_rate.setdefault(player.id, TokenBucket(chat.RATE, chat.BURST))
        if not rate.take(self._now):
            raise ClientError("rate_limited", f"chat: at most {chat.RATE:g} message per second")
        seat = self.viewers[conn]
        text = chat.clean_text(msg.text)
        n, channel = len(self.chat) + 1, chat.channel_of(seat)
        said = journal.said(
            self.id, n, self._wall, channel, seat, player.id, player.name, text, self._head
        )
        self._head = said.head
        line = said.line
        self.chat.append(line)
        self._out.append(m.Persist(said))
        reply = chat.chat_frame(self.id, line)
        frame = frames.encode(reply)
        for listener, viewer in self.viewers.items():
            if listener is conn or listener in self.seating.pilots:
                continue
            if chat.channel_of(viewer) == line.channel:
                self._send(listener, frame)
        return reply

    def _rematch_info(self) -> frames.RematchInfo | None:
        if not (self._rematch or self._declined is not None or self._next_room):
            return None
        return frames.RematchInfo(sorted(self._rematch), self._declined, self._next_room)

    def _rematch_seat(self, conn: m.Conn) -> int:
        """The seat of a player who may answer a rematch; raise if none or not now."""
        seat = self.seat_of(conn.player)
        if seat is None:
            raise ClientError("not_seated", f"you played no seat in room {self.id}")
        if self.state != FINISHED:
            raise ClientError(
                "bad_state", f"a rematch follows a finished game; {self.id} is {self.state}"
            )
        if self._next_room is not None:
            raise ClientError("bad_state", f"the rematch is room {self._next_room}")
        return seat

    def _offer_rematch(self, msg: m.Rematch) -> frames.RematchFrame:
        """A player offers a rematch, or accepts the offer: once every player (house bots
        accept, except after a ladder or tournament game) has, the actor opens it
        (:class:`m.OpenRematch`)."""
        seat = self._rematch_seat(msg.conn)
        if self.settings.match in ("ladder", "tournament") and any(s.house for s in self.seats):
            # (a rematch would be another rated game outside the ladder's or the
            # tournament's caps: the house bots decline it)
            raise ClientError(
                "bad_state",
                f"the house bots decline a rematch of a {self.settings.match} game",
            )
        self._rematch.add(seat)
        self._declined = None
        players = {i for i, held in enumerate(self.seats) if not held.house}
        if players <= self._rematch and not self._opening:
            self._opening = True
            self._out.append(m.OpenRematch())
        self._send_room()
        info = self._rematch_info()
        assert info is not None
        return frames.RematchFrame(room=self.id, rematch=info)

    def _decline_rematch(self, msg: m.DeclineRematch) -> frames.RematchFrame:
        seat = self._rematch_seat(msg.conn)
        if self._opening:
            raise ClientError("bad_state", "every player accepted: the rematch is opening")
        self._rematch.clear()
        self._declined = seat
        self._send_room()
        return frames.RematchFrame(room=self.id, rematch=frames.RematchInfo([], seat, None))

    def _rematched(self, room: str | None) -> None:
        """The actor opened the rematch's room (or failed to: the offers are void)."""
        self._opening = False
        if room is None:
            self._rematch.clear()
        self._next_room = room
        self._send_room()

    def _leave(self, msg: m.Leave) -> frames.LeftFrame:
        held = self.seat_of(msg.conn.player)
        if self.state == WAITING and held is not None and not self.settings.reserved:
            self.seats[held] = Seat()
            self._save()
        self._detach(msg.conn)
        self._send_room()
        return frames.LeftFrame(room=self.id)

    def _detach_request(self, msg: m.Detach) -> None:
        self._detach(msg.conn)

    def _detach(self, conn: m.Conn) -> None:
        """Forget ``conn`` (its connection closed or it left)."""
        if conn not in self.viewers:
            self.seating.pilots.pop(conn, None)
            return
        viewer = self.viewers.pop(conn)
        self._out.append(m.Released(conn))
        self.seating.pilots.pop(conn, None)
        if viewer is None or self.connected(viewer):
            return
        self._send_room()
        if self.state == PLAYING:
            self._away(viewer)

    def _away(self, seat: int) -> None:
        """Start the grace period of a seat nobody is connected to."""
        self.seats[seat].away_since = self._now
        self._at(f"grace:{seat}", self._now + self.timing.grace, self._grace_over, seat)

    def _start_request(self, msg: m.Start) -> frames.StartedFrame:
        self._require_host(msg.conn)
        if self.state != WAITING:
            raise ClientError("bad_state", f"room {self.id} is {self.state}")
        self._start()
        return frames.StartedFrame(room=self.id, seq=self.viewer_seq(self.viewers.get(msg.conn)))

    def _act(self, msg: m.Act) -> None:
        conn = msg.conn
        if self.state == WAITING:
            raise ClientError("bad_state", f"the game in room {self.id} has not started")
        if self.state == ABORTED:
            raise ClientError("aborted", f"the game in room {self.id} was aborted")
        seating = self.seating
        held = seating.pilots.get(conn)
        standin = held is not None and seating.is_standin(conn)
        if held is None:
            held = self.seat_of(conn.player)
        elif standin and not (self.seats[held].autopilot or held in seating.standin_once):
            raise ClientError("not_your_seat", "the player is back: this seat is theirs again")
        if msg.seat is not None and msg.seat != held:
            if held is None and not (
                0 <= msg.seat < len(self.seats) and self.seats[msg.seat].player is not None
            ):
                raise ClientError("not_seated", f"you hold no seat in room {self.id}")
            raise ClientError("not_your_seat", f"seat {msg.seat} is not yours")
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
        elif not standin and held in seating.standin_once:
            self._dismiss_standin(held)  # the slow player made the move after all
        if self.clocks is not None and self.clocks.flagged(self._now):
            self._flag()
            raise ClientError("game_over", "your time ran out")
        mover = game.to_move
        events = self._engine(game.apply, held, msg.action)
        paced = standin or seat_state.bot is not None
        release = self._now
        # (an attempt that nobody but its mover hears of, after which the mover is still
        # to move, is never held: holding it would delay the mover's next turn, and each
        # such attempt would push the paced release later, telling the opponent through
        # the timing how many attempts were refused: wild16's illegal attempts)
        private = game.to_move == held and all(_mover_only(e, held) for e in events)
        if not private:
            self._turn_seat = None  # a turn ended: the next, even the same seat's, is new
        if paced and mover == held and not private:
            release = max(self._now, self._turn_since + self.timing.autopilot_delay)
        self._charge_clock(mover, release)
        if standin:
            by = "standin"
        elif seat_state.house:
            by = "house"
        else:
            by = "player"
        base = self._record(events, by)
        last = self.viewer_seq(held)
        seen_by_mover = sum(1 for event in events if event.view(held) is not None)
        ack = frames.AckFrame(
            ref=msg.ref,
            room=self.id,
            seq=last,
            first=last - seen_by_mover + 1,
            action=game.history[-1].action,
        )
        self._send(conn, frames.encode(ack))
        if standin and held in seating.standin_once and not seat_state.autopilot:
            self._dismiss_standin(held)  # the one move of a timed-out turn is made
        if release > self._now:
            seen = self._broadcast(base, events, viewers=[held])
            self._hold = (base, events, seen)
            self._at("hold", release, self._release_hold)
            return
        seen = self._broadcast(base, events)
        self._after_change(seen)

    def _release_hold(self) -> None:
        """Show a house seat's held move to everyone else, at its pace."""
        assert self._hold is not None
        base, events, seen = self._hold
        self._hold = None
        viewers = [v for v in [*range(len(self.seats)), None] if v not in seen]
        seen |= self._broadcast(base, events, viewers=viewers)
        self._after_change(seen)

    def _require_host(self, conn: m.Conn) -> None:
        if conn.player is None or conn.player.id != self.host:
            raise ClientError("not_host", "only the room's host may do that")

    def hint_seat(self, conn: m.Conn) -> int:
        """The seat ``conn`` may ask a hint for; raise if none or the game is not on."""
        held = self.seating.pilots.get(conn)
        if held is None:
            held = self.seat_of(conn.player)
        if held is None:
            raise ClientError("not_seated", f"you hold no seat in room {self.id}")
        if self.state != PLAYING or self.game is None:
            raise ClientError("bad_state", f"the game in room {self.id} is not being played")
        if self.paused_since is not None:
            raise ClientError("paused", f"the server cannot save: room {self.id} is paused")
        return held

    def knowledge(self, seat: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """All that ``seat`` may know of the game: the engine's ``view(seat)`` and the
        seat's own stream of projections, oldest first (the input of a ``hint``)."""
        assert self.game is not None
        return self.game.view(seat), self.streams.projections(seat)

    # -- the game -------------------------------------------------------------------------

    def _maybe_autostart(self) -> None:
        if not self.settings.autostart:
            return
        if self.settings.reserved:  # a match: when every seat's player (or bot) is here
            if all(s.server_played or self.connected(i) for i, s in enumerate(self.seats)):
                self._start()
        elif all(seat.player is not None for seat in self.seats):
            self._start()

    def _no_show(self) -> None:
        """A match's ``no_show`` deadline: start with the seats whose player came, each
        seat whose player never came forfeiting for ``no_show``; abort when nobody came,
        and a seek's or rematch's match when none of its players came (only house bots)."""
        if self.state != WAITING:
            return
        came = {
            i
            for i, seat in enumerate(self.seats)
            if seat.server_played or i in self._came or self.connected(i)
        }
        if not came:
            self._out.append(m.Note("nobody came to the match"))
            self._abort("no_show")
            return
        humans = {i for i, seat in enumerate(self.seats) if not (seat.house or seat.server_played)}
        if self.settings.match in ("seek", "rematch") and humans and not humans & came:
            # (a seek or rematch is for its players: never a game of house bots alone;
            # tournaments and the ladder keep the forfeit rule)
            self._out.append(m.Note("none of the match's players came"))
            self._abort("no_show")
            return
        absent = [i for i, seat in enumerate(self.seats) if i not in came and not seat.house]
        self._start()
        for seat in absent:
            game = self.game
            if game is None or game.is_over or self.state != PLAYING:
                break
            self._cancel(f"grace:{seat}")
            self.seats[seat].away_since = None
            self._out.append(m.Note(f"seat {seat} never came: it forfeits"))
            self._forfeit(seat, "no_show")

    def _start(self) -> None:
        taken = [i for i, seat in enumerate(self.seats) if seat.player is not None]
        if len(taken) < len(self.seats):
            try:
                config = self.engine.with_seats(self.config, len(taken))
            except ConfigError as exc:
                raise ClientError(
                    "bad_state", f"cannot start with {len(taken)} players: {exc}"
                ) from None
            new_index = {old: new for new, old in enumerate(taken)}
            self.config = config
            self.seating.remap(taken)
            self.viewers = {
                c: (new_index.get(v) if v is not None else None) for c, v in self.viewers.items()
            }
            self.streams.reset(len(taken))
        seed = self._new_seed()
        game, events = self.engine.new_game(self.config, seed)
        self.game = game
        self.row.options = self.config.to_options()
        self._seat_rows()
        self._refresh_holders()
        self.row.rated = rating.decision(
            self.engine.name, self.row.options, self.seats, self.settings.rated, self.house_version
        )
        settings = self.settings
        default = rating.default_clock(self.engine.name)
        limited = settings.clock_base or settings.turn_time
        if self.row.rated is not None and default and not limited:
            # A rated game without a time limit could be stalled for ever by the losing
            # side (docs/ratings.md): it gets the game's default clock, stored with the row.
            base, increment = default
            self.settings = dataclasses.replace(
                settings, clock_base=base, clock_increment=increment
            )
            self.row.settings = self.settings.to_json()
        start = journal.started(self.row, seed, self._wall, events, self._head)
        self._head = start.head
        self.row = journal.snapshot(start.row)
        self._out.append(m.Persist(start))
        base = self.streams.append(events)
        self.state = PLAYING
        if self.settings.clock_base:
            self.clocks = Clocks(
                self.settings.clock_base, self.settings.clock_increment, len(self.seats)
            )
        self._send_room()
        self._broadcast(base, events)
        for index in range(len(self.seats)):
            if not self.seats[index].server_played and not self.connected(index):
                self._away(index)
        self._after_change()

    def _refresh_holders(self) -> None:
        """Each seat's player as its own connection says it is now (the same player, but
        a guest may have claimed its name since it sat down, and a bot says its version
        in each ``hello``): the kinds and versions a rated game's start reads."""
        seats = self.seats
        for conn, viewer in self.viewers.items():
            player = conn.player
            if viewer is None or player is None or conn in self.seating.pilots:
                continue
            seat = seats[viewer]
            if seat.player is not None and seat.player.id == player.id and not seat.house:
                seat.player = player

    def _after_change(self, seen: set[Viewer] | None = None) -> None:
        """After events: finish the game, or plan the next timers and tell the clocks (to
        the viewers in ``seen``, who saw the change; all when ``None``) and the turn."""
        game = self.game
        assert game is not None
        if game.is_over:
            self._finish()
            return
        self._plan()
        self._send_clock(viewers=seen)
        self._send_turn()

    def _plan(self) -> None:
        """(Re)arm the turn timer, the autopilot and the flag for the seat to move."""
        game = self.game
        if game is None or self.state != PLAYING:
            return
        self._cancel("turn")
        self._cancel("flag")
        seat = game.to_move
        now = self._now
        if seat != self._turn_seat:
            self._turn_seat = seat
            self._turn_since = now
        if self.clocks is not None:
            self.clocks.run(seat, now)
        if seat is None:
            return
        state = self.seats[seat]
        paced = max(now, self._turn_since + self.timing.autopilot_delay)
        if state.autopilot and state.server_played:
            self._at("turn", paced, self._autoplay, seat, "autopilot")
        elif state.autopilot:
            # a stand-in bot plays for the absent player; the policy only if it fails to
            if self._launch_standin(seat, once=False):
                paced += STANDIN_FALLBACK
            self._at("turn", paced, self._autoplay, seat, "absent")
        elif self.settings.turn_time:
            limit = max(self._turn_since + self.settings.turn_time, self._turn_floor)
            self._at("turn", limit, self._timeout, seat)
        if self.clocks is not None:
            due = self.clocks.flag_at()
            assert due is not None
            self._at("flag", due, self._flag)

    def _charge_clock(self, mover: int | None, at: float) -> None:
        """Charge the running clock for the time until ``at`` since the turn began."""
        if self.clocks is None or mover is None or self.game is None:
            return
        self.clocks.charge(mover, at, turn_passed=self.game.to_move != mover)

    def _flag(self) -> None:
        """The mover's clock ran out: forfeit for ``timeout``."""
        clocks = self.clocks
        if self.game is None or self.state != PLAYING or clocks is None:
            return
        seat = clocks.running
        if seat is None or not clocks.flagged(self._now):
            return
        clocks.remaining[seat] = 0.0
        clocks.since = self._now
        self._forfeit(seat, "timeout")

    def _forfeit(self, seat: int, reason: str) -> None:
        game = self.game
        assert game is not None
        self._cancel(f"grace:{seat}")  # (out of the game: no abandonment to come)
        events = self._engine(game.forfeit, seat, reason)
        base = self._record(events, "timeout")
        seen = self._broadcast(base, events)
        self._after_change(seen)

    def _timeout(self, seat: int) -> None:
        """The seat to move ran out of turn time: a stand-in bot makes this one move (the
        fallback policy moves if the bot does not act in time). In a rated game no bot
        ever moves for a player (a stand-in's bids would earn the placing), so a player's
        seat loses on time instead, as it would on a clock."""
        game = self.game
        if game is None or self.state != PLAYING or game.to_move != seat:
            return
        if self.row.rated is not None and not self.seats[seat].house:
            # (a house bot's slowness is the server's failing: its policy moves, below)
            self._out.append(m.Note(f"seat {seat} timed out in a rated game: out on time"))
            self._forfeit(seat, "timeout")
            return
        if self._launch_standin(seat, once=True):
            self._out.append(m.Note(f"seat {seat} timed out; a stand-in bot moves"))
            self._send_turn()  # a stand-in already attached gets the turn now
            self._at("turn", self._now + STANDIN_FALLBACK, self._autoplay, seat, "timeout")
        else:
            self._out.append(m.Note(f"seat {seat} timed out; the fallback policy moves"))
            self._autoplay(seat, "timeout")

    def _autoplay(self, seat: int, why: str) -> None:
        """Let the engine's stand-in policy move for ``seat`` (turn timeout, absence, house
        autopilot seat)."""
        game = self.game
        policy = self.engine.standin_policy
        if game is None or self.state != PLAYING or game.to_move != seat or policy is None:
            return
        action = policy(game, seat)
        if action is None:
            return
        if seat in self.seating.standin_once:
            self._dismiss_standin(seat)
        events = self._engine(game.apply, seat, action)
        self._turn_seat = None  # a turn ended: the next, even the same seat's, is new
        self._charge_clock(seat, self._now)
        # (the engine's policy: for a house seat, the house's own; else a stand-in's)
        base = self._record(events, "house" if self.seats[seat].house else "standin")
        seen = self._broadcast(base, events)
        self._after_change(seen)

    def _launch_standin(self, seat: int, once: bool) -> bool:
        """Send the house bot that plays ``seat`` for its absent or slow player.

        A house seat never gets one: its own bot comes back with its durable ticket (a
        stand-in attaching there would pass for that bot and send itself away), so the
        engine's policy moves for it meanwhile."""
        name = self.engine.standin_bot
        if name is None or self.seats[seat].house:
            return False
        seating = self.seating
        if once:
            seating.standin_once.add(seat)
        else:
            seating.standin_once.discard(seat)
        if seat in seating.standins:
            return True  # already on its way, or playing
        ticket = self._token()
        seating.tickets[ticket] = seat
        seating.standins[seat] = ticket
        self._out.append(m.Launch(seat, name, ticket))
        return True

    def _dismiss_standin(self, seat: int) -> None:
        """The player is back (or the one move is made): send the stand-in away."""
        seating = self.seating
        ticket = seating.standins.pop(seat, None)
        seating.standin_once.discard(seat)
        if ticket is None:
            return
        seating.tickets.pop(ticket, None)
        for conn, pilot_seat in list(seating.pilots.items()):
            if pilot_seat == seat and not self.seats[seat].house:
                del seating.pilots[conn]
                if conn in self.viewers:
                    del self.viewers[conn]
                    self._out.append(m.Released(conn))
                self._send(conn, frames.encode(frames.LeftFrame(room=self.id)))

    def _grace_over(self, seat: int) -> None:
        """A player stayed away past the grace period: its seat is forfeited (``abandoned``)
        or, in a casual game of an engine with a stand-in policy (Perudo), played by the
        autopilot. A rated game never lets the autopilot earn a placing for an absent
        player: abandoning it is a loss."""
        if self.state != PLAYING or self.connected(seat) or self.game is None:
            return
        if not self.game.in_play(seat):
            return  # out already (its dice lost, or forfeited): nothing to play or forfeit
        bot = self.seats[seat].bot
        if bot is not None:
            # A house bot that has not come (back) is the server's own failing, never a
            # forfeit: ask the house for it again and wait another grace period (the
            # engine's policy, where there is one, moves for it meanwhile).
            self._out.append(m.Launch(seat, bot, self.seating.house_ticket_of(seat)))
            self._away(seat)
            if self.engine.standin_policy is not None and not self.seats[seat].autopilot:
                self.seats[seat].autopilot = True
                self._send_room()
                self._plan()
        elif self.engine.standin_policy is not None and self.row.rated is None:
            self.seats[seat].autopilot = True
            self._launch_standin(seat, once=False)
            self._send_room()
            self._plan()
        else:
            self._out.append(m.Note(f"seat {seat} abandoned the game"))
            self._forfeit(seat, "abandoned")

    def _finish(self) -> None:
        game = self.game
        assert game is not None and game.outcome is not None
        self.state = FINISHED
        self._cancel_all()
        players = [seat.player.id if seat.player else None for seat in self.seats]
        public = self.engine.public_record(self.streams.log)
        per_seat = self.engine.stats(public, game.outcome, len(self.seats))
        stats = journal.seat_stats(players, per_seat)
        self.row.house = {}  # (an ended game's house seats need no tickets)
        if self.row.rated is not None and not rating.played_enough(
            self.engine.name, self.streams.log
        ):
            # ended before every seat moved: casual (stored so, so a rebuild agrees)
            self.row.rated = None
        end = journal.finished(self.row, game.outcome, self._wall, stats, self._head, self.signer)
        self._head = end.head
        end = journal.rated(end, rating.plan(end.row))
        self.row = journal.snapshot(end.row)
        self._out.append(m.Persist(end))
        self._send_room()
        if end.plan is None:
            self._out.append(m.PublishResult())
        else:  # (the public result waits for the rating changes, to carry them)
            self._rating_pending = True
        self._linger()

    def _rated(self, changes: tuple[RatingChange, ...]) -> None:
        """The rated game's end is stored with these rating changes: show them to every
        viewer, and publish the result with them."""
        if not self._rating_pending:
            return
        self._rating_pending = False
        if changes:
            self.ratings = rating.infos(changes)
            self._send_room()
        self._out.append(m.PublishResult())
        if changes:
            self._out.append(m.PublishRatings(changes))

    def _linger(self) -> None:
        """Keep the ended room in memory a while (the log keeps it for good)."""
        self._at("evict", self._now + self.timing.finished_ttl, self._evict)

    def _abort(self, reason: str) -> None:
        """The game cannot go on (an engine or server fault): end it, tell everyone."""
        if self.state in (FINISHED, ABORTED):
            return
        self.state = ABORTED
        self._cancel_all()
        events: list[Event] = []
        if self.game is not None:
            payload = frames.aborted_event(reason, self.row.seed)
            events.append(Event.public(len(self.seats), payload))
        first = len(self.streams.log) + 1
        self.row.house = {}
        end = journal.aborted(self.row, reason, self._wall, events, first, self._head, self.signer)
        self._head = end.head
        self.row = journal.snapshot(end.row)
        self._out.append(m.Persist(end))
        self._broadcast(self.streams.append(events), events)
        self._send_room()
        self._out.append(m.PublishResult())
        self._linger()

    def _evict(self) -> None:
        for conn in list(self.viewers):
            self._out.append(m.Released(conn))
        self.viewers.clear()
        self.seating.pilots.clear()
        self._out.append(m.Close())

    # -- recovery -----------------------------------------------------------------------

    def recover(
        self,
        actions: list[ActionRow],
        stored: list[EventRow],
        now: float,
        wall: float | None = None,
    ) -> list[m.Effect]:
        """Rebuild the game of a room from its log (after a restart, or to show a game
        that ended); return the effects of resuming it. Raise if the log does not replay."""
        self._out = []
        self._now = now
        self._wall = now if wall is None else wall
        self._head = chain.resume(self.row, actions, stored, self.chat)
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
                self.streams.append([event])
            else:
                self.streams.append([Event.public(len(self.seats), row.truth)])
        missing = list(pending)
        if missing:
            raise RuntimeError(f"room {self.id}: {len(missing)} replayed events are not logged")
        if self.state in (FINISHED, ABORTED):
            self._linger()
        elif game.is_over:  # the end was logged but the row not updated: finish it now
            self.state = PLAYING
            self._finish()
        else:
            if self.settings.clock_base:
                last = next((a.clocks for a in reversed(actions) if a.clocks is not None), None)
                self.clocks = Clocks(
                    self.settings.clock_base,
                    self.settings.clock_increment,
                    len(self.seats),
                    remaining=last,
                )
            for index, seat in enumerate(self.seats):
                if not seat.server_played:
                    self._away(index)
            self._turn_floor = now + self.timing.grace
            self._plan()
        out, self._out = self._out, []
        return out


_HANDLERS: dict[type[Any], Callable[[RoomCore, Any], frames.Reply | None]] = {
    m.Join: RoomCore._join,
    m.Watch: RoomCore._watch,
    m.Resume: RoomCore._resume,
    m.Leave: RoomCore._leave,
    m.Detach: RoomCore._detach_request,
    m.Start: RoomCore._start_request,
    m.AddBot: RoomCore._add_bot,
    m.Act: RoomCore._act,
    m.Say: RoomCore._say,
    m.Rematch: RoomCore._offer_rematch,
    m.DeclineRematch: RoomCore._decline_rematch,
}


def new_row(
    room_id: str,
    engine: Engine,
    config: Any,
    settings: Settings,
    host: str | None,
    wall: float,
    invite: str | None,
) -> GameRow:
    """The stored row of a new, waiting room (``invite`` is the code of a private room)."""
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
        created=wall,
    )


def _mover_only(event: Event, mover: int) -> bool:
    """Whether nobody but the seat ``mover`` hears anything of ``event``."""
    return event.spectator is None and all(
        view is None for seat, view in enumerate(event.seats) if seat != mover
    )
