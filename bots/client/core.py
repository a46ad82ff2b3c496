"""The protocol client as a sans-I/O state machine: frames in, events and frames out.

Everything docs/protocol.md asks of a client, and nothing about sockets or time (the time
is an argument, as in h11 or websockets' protocol core):

- ``hello`` with the protocol version and the token, kept from ``welcome`` (a token the
  server no longer knows is dropped and a new player made, if the caller allows it);
- ``ref`` matching: :meth:`ClientCore.send` numbers each message, and the frame that
  answers it (a reply or an ``error``) comes out carrying the message it answers;
- per-room streams: each room followed has the last ``seq`` seen; a repeated event is
  dropped, a gap asks for a ``resume`` (and the events after it are dropped until the
  stream catches up); after a reconnect every followed room is resumed from its ``seq``;
- turn and ack state: a ``turn`` is held back while its events are still missing (a
  resync), the retry after an own refused attempt is told apart, ``ack`` clears the action
  in flight; the final ``room`` frame is announced (:class:`GameEnded`) only once every
  event before it was delivered;
- rate pacing: :class:`Pacer` is a token bucket below the server's ``welcome.limits``.

A driver (:mod:`bots.client.driver`, or a test) calls :meth:`ClientCore.connection_made`,
sends what :meth:`ClientCore.next_frame` gives (waiting ``pacer.delay(now)`` before each),
feeds every received frame to :meth:`ClientCore.receive`, and calls
:meth:`ClientCore.connection_lost` when the link drops.
"""

from __future__ import annotations

import itertools
from collections import deque
from dataclasses import dataclass, field
from typing import Any

Json = dict[str, Any]

#: The protocol version this client speaks (``hello.v``).
PROTOCOL_VERSION = 1
#: Room states after which a room's stream ends.
OVER = ("finished", "aborted")
#: A resume refused with these codes: the room is no longer this client's to follow.
GONE = ("no_such_room", "not_your_seat", "no_spectators")
#: Requests never sent again by themselves after ``rate_limited``: a login refused by the
#: server's login throttle waits for the person, not for the pacer.
NO_RETRY = ("login", "register", "change_password")
#: Frames that attach this client to a room (and so start following it).
ATTACHING = ("created", "joined", "watching", "resumed")


class Pacer:
    """A token bucket that keeps a client below the server's message rate.

    ``delay(now)`` says how long to wait before the next message; ``spend(now)`` takes one
    token. :meth:`configure` reads ``welcome.limits`` and keeps a margin below them.
    """

    def __init__(self, rate: float = 20.0, burst: float = 40.0) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp: float | None = None

    def configure(self, limits: Json) -> None:
        """Pace below the server's ``limits`` (80 % of its rate, half its burst)."""
        self.rate = 0.8 * float(limits.get("rate") or 20.0)
        self.burst = max(1.0, 0.5 * float(limits.get("burst") or 40.0))
        self.tokens = self.burst

    def _refill(self, now: float) -> None:
        if self.stamp is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def delay(self, now: float) -> float:
        """Seconds to wait at ``now`` before one more message may go."""
        self._refill(now)
        return 0.0 if self.tokens >= 1.0 else (1.0 - self.tokens) / self.rate

    def spend(self, now: float) -> None:
        """One message goes at ``now``."""
        self._refill(now)
        self.tokens -= 1.0

    def empty(self, retry_after: float | None = None) -> None:
        """The server said ``rate_limited``: wait its ``retry_after`` (or a full token)
        before the next message."""
        self.tokens = 0.0 if retry_after is None else min(0.0, 1.0 - retry_after * self.rate)


# -- what comes out --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Received:
    """A frame delivered in order: every frame but repeated or out-of-order events, stale
    turns and hello's refusals. ``request`` is the message it answers (matched by ``ref``)."""

    frame: Json
    request: Json | None = None

    @property
    def kind(self) -> str:
        """The frame's ``type``."""
        return str(self.frame.get("type"))

    @property
    def room(self) -> str | None:
        """The room the frame is about, if any."""
        room = self.frame.get("room")
        return room if isinstance(room, str) else None


@dataclass(frozen=True, slots=True)
class Refused(Received):
    """An ``error`` frame; ``request`` is the refused message when it carried a ``ref``."""

    @property
    def code(self) -> str:
        """The error code (docs/protocol.md, "Errors")."""
        return str(self.frame.get("code"))

    @property
    def message(self) -> str:
        """What the server said was wrong."""
        return str(self.frame.get("message"))


@dataclass(frozen=True, slots=True)
class Turn(Received):
    """A ``turn`` for this client's seat, once every event before it was delivered.

    ``retry`` is True when the game asks again right after this client's own accepted
    action (Kriegspiel's illegal attempt): the same turn goes on."""

    retry: bool = False


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The room's game is over and every event of it was delivered: ``frame`` is the final
    ``room`` frame (itself delivered earlier as a :class:`Received`)."""

    room: str
    frame: Json


@dataclass(frozen=True, slots=True)
class Lost:
    """A message sent with ``ref`` whose answer will never come: the connection dropped."""

    ref: int
    request: Json


@dataclass(frozen=True, slots=True)
class Disconnected:
    """The connection dropped (the driver reconnects; followed rooms are resumed)."""


@dataclass(frozen=True, slots=True)
class HelloRefused:
    """The server refused ``hello`` for good (a wrong version, a bad name...)."""

    frame: Json


Output = Received | GameEnded | Lost | Disconnected | HelloRefused


# -- one room's stream -----------------------------------------------------------------------


@dataclass
class Stream:
    """What this client tracks of one room it follows."""

    room: str
    seq: int = 0  #: the last event delivered
    seat: int | None = None
    invite: str | None = None  #: to resume a private room one does not sit in
    ticket: str | None = None  #: a house bot's seat ticket
    resyncing: bool = False  #: a resume is on its way; turns wait for it
    held_turn: Json | None = None  #: a turn whose events are not all delivered yet
    turn: Json | None = None  #: the turn being played (until its ack)
    acked_seq: int = -1  #: the ``seq`` of the last ack (a turn at it is a retry)
    final: Json | None = None  #: the room frame that ended the game
    ended: bool = False  #: :class:`GameEnded` was given out

    @property
    def over(self) -> bool:
        """Whether the room's game has ended (no resume after a reconnect)."""
        return self.final is not None


# -- the core --------------------------------------------------------------------------------


@dataclass
class ClientCore:
    """One player's protocol state across connections (see the module docstring)."""

    name: str
    token: str | None = None
    bot: bool = False
    #: resume the rooms ``welcome.seats`` lists, not only those followed so far
    follow_seats: bool = False
    #: after ``bad_token``, say hello again without it (a new player)
    forget_bad_token: bool = True
    #: deliver every event from the first: a snapshot of a game in progress, before any
    #: event of it, is answered with a resume from 0 (a bot observes the whole game)
    from_start: bool = False
    #: the version a bot's ratings are kept under (``hello.bot_version``; "" for humans)
    bot_version: str = ""
    #: ``(name, password)``: the next connection opens with ``login`` instead of
    #: ``hello``; dropped once welcomed (the session token from ``welcome`` goes on)
    credentials: tuple[str, str] | None = None
    pacer: Pacer = field(default_factory=Pacer)
    player: Json | None = None
    #: the server said ``logged_out``: its token is revoked and the connection ends
    logged_out: bool = False
    welcome: Json | None = None  #: the last ``welcome`` frame
    streams: dict[str, Stream] = field(default_factory=dict)
    #: rooms left: frames still in flight for them are dropped, not a new stream
    left: set[str] = field(default_factory=set)
    connected: bool = False
    ready: bool = False  #: welcomed on the current connection
    _refs: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _pending: dict[int, Json] = field(default_factory=dict)
    _out: deque[Json] = field(default_factory=deque)
    _held: deque[Json] = field(default_factory=deque)  #: sent before the welcome
    #: ``name_taken`` on a hello with a token: the next hello says only the token (the
    #: player's stored name wins), and the token is never dropped for it
    _nameless: bool = False

    # -- connection ---------------------------------------------------------------------

    def hello_message(self) -> Json:
        """The ``hello`` this client says (with its token when it has one), or ``login``
        while it has :attr:`credentials`."""
        if self.credentials is not None:
            return self.login_message(*self.credentials)
        hello: Json = {"type": "hello", "v": PROTOCOL_VERSION}
        if not (self.token and self._nameless):
            hello["name"] = self.name
        if self.bot:
            hello["bot"] = True
        if self.bot_version:
            hello["bot_version"] = self.bot_version
        if self.token:
            hello["token"] = self.token
        return hello

    def login_message(self, name: str, password: str) -> Json:
        """A ``login`` (as the first message, or after a guest's ``hello``)."""
        login: Json = {"type": "login", "v": PROTOCOL_VERSION, "name": name, "password": password}
        if self.bot_version:
            login["bot_version"] = self.bot_version
        return login

    def connection_made(self) -> None:
        """A new connection is open: ``hello`` goes first."""
        self.connected, self.ready = True, False
        self._out.clear()
        self._out.append(self.hello_message())

    def connection_lost(self) -> list[Output]:
        """The connection dropped (:class:`Disconnected`): every message sent (or about to
        be) that awaits its answer is :class:`Lost`; messages queued before a welcome still
        wait for one."""
        self.connected = self.ready = False
        held = {id(m) for m in self._held}
        lost = [Lost(ref, m) for ref, m in self._pending.items() if id(m) not in held]
        for item in lost:
            del self._pending[item.ref]
        self._out.clear()
        for stream in self.streams.values():
            stream.turn = stream.held_turn = None
            stream.resyncing = False
        return [Disconnected(), *lost]

    # -- sending ------------------------------------------------------------------------

    def send(self, message: Json) -> int:
        """Queue ``message`` with a fresh ``ref`` (after the welcome); return the ref."""
        ref = next(self._refs)
        message = {**message, "ref": ref}
        self._pending[ref] = message
        self._note_sent(message)
        (self._out if self.ready else self._held).append(message)
        return ref

    def next_frame(self) -> Json | None:
        """The next message to put on the wire, or None."""
        return self._out.popleft() if self._out else None

    def pending(self) -> bool:
        """Whether something waits to be sent."""
        return bool(self._out)

    def follow(
        self,
        room: str,
        *,
        seat: int | None = None,
        invite: str | None = None,
        ticket: str | None = None,
    ) -> Stream:
        """Follow ``room`` (it is resumed after every reconnect until it ends or is left)."""
        self.left.discard(room)
        stream = self.streams.get(room)
        if stream is None:
            stream = self.streams[room] = Stream(room)
        if seat is not None:
            stream.seat = seat
        stream.invite = invite or stream.invite
        stream.ticket = ticket or stream.ticket
        return stream

    def resume(self, room: str, since: int | None = None) -> int:
        """Ask for ``room``'s events after ``since`` (default: the last one delivered)."""
        stream = self.follow(room)
        if since is not None:
            stream.seq = since
        stream.resyncing = True
        message: Json = {"type": "resume", "room": room, "since": stream.seq}
        if stream.ticket:
            message["ticket"] = stream.ticket
        elif stream.invite and stream.seat is None:
            message["invite"] = stream.invite
        return self.send(message)

    def act(self, room: str, action: str) -> int:
        """Send ``action`` for this client's seat in ``room``."""
        return self.send({"type": "act", "room": room, "action": action})

    def _note_sent(self, message: Json) -> None:
        """A ``join`` or ``watch`` naming its room follows it at once, with its ticket or
        invite: frames of the room may come before the reply (and need them to resume)."""
        room = message.get("room")
        if message.get("type") in ("join", "watch") and isinstance(room, str):
            self.follow(room, invite=message.get("invite"), ticket=message.get("ticket"))

    # -- receiving ----------------------------------------------------------------------

    def receive(self, frame: Json) -> list[Output]:
        """Take one frame from the server; return what it means, in order."""
        kind = frame.get("type")
        ref = frame.get("ref")
        request = self._pending.pop(ref, None) if isinstance(ref, int) else None
        if not self.ready:
            if kind == "welcome":
                return self._welcomed(frame, request)
            if kind == "error" and (request is None or request.get("type") == "hello"):
                return self._hello_refused(frame)
        elif kind == "welcome":  # a login after a guest's hello: a new player
            return self._relogged(frame, request)
        if kind == "error":
            return self._refused(frame, request)
        if kind == "account":  # register or change_password: the player, now an account
            self.player = frame.get("player") or self.player
            if isinstance(self.player, dict) and self.player.get("name"):
                self.name = str(self.player["name"])
        elif kind == "logged_out":
            self.logged_out = True
            self.token = None
        if kind == "match" and self.follow_seats:
            self._matched(frame)
        room = frame.get("room")
        if not isinstance(room, str) or kind == "match":
            # (a match offers a seat: the client attaches if it wants, nothing followed yet)
            return [Received(frame, request)]
        if kind in ATTACHING or (request is not None and kind not in ("left",)):
            stream = self.follow(room, seat=frame.get("seat"), invite=frame.get("invite"))
            if request is not None and request.get("type") in ("join", "watch", "resume"):
                stream.invite = request.get("invite") or stream.invite
                stream.ticket = request.get("ticket") or stream.ticket
        if room in self.left:
            return []
        stream = self.streams.get(room) or self.follow(room)
        if kind == "left":
            self.streams.pop(room, None)
            self.left.add(room)
            return [Received(frame, request)]
        if kind == "event":
            return self._event(stream, frame)
        if kind == "turn":
            return self._turn(stream, frame)
        if kind == "snapshot":
            stream.seat = frame.get("seat", stream.seat)
            seq = int(frame.get("seq") or 0)
            if self.from_start and stream.seq == 0 and seq > 0:
                if not stream.resyncing:
                    self.resume(room, 0)
                return []
            stream.seq = max(stream.seq, seq)
        out: list[Output] = [Received(frame, request)]
        if kind == "room":
            stream.invite = frame.get("invite") or stream.invite
            if frame.get("state") in OVER:
                stream.final = frame
                stream.turn = stream.held_turn = None
                out += self._maybe_ended(stream)
        elif kind == "ack":
            stream.turn = None
            stream.acked_seq = int(frame.get("seq", -1))
        elif kind == "resumed":
            stream.resyncing = False
            out += self._release_turn(stream)
        return out

    def _matched(self, frame: Json) -> None:
        """A ``match`` frame for a client that follows its seats (a person's client): the
        server seated this player in a new room (a seek was taken, a rematch accepted, a
        tournament or ladder pairing). The room is followed and resumed at once from its
        start, as a seat that ``welcome`` lists (once: the frame may come again)."""
        room, seat = frame.get("room"), frame.get("seat")
        if not isinstance(room, str) or room in self.streams:
            return
        self.left.discard(room)
        self.follow(room, seat=seat if isinstance(seat, int) else None)
        self.resume(room, 0)

    def _relogged(self, frame: Json, request: Json | None) -> list[Output]:
        """``welcome`` on a welcomed connection (``login`` after ``hello``): the server
        left the guest's rooms; the account's own seats are followed from here."""
        self.left.update(self.streams)
        self.streams.clear()
        return self._welcomed(frame, request)

    def _welcomed(self, frame: Json, request: Json | None) -> list[Output]:
        self.ready = True
        self.welcome = frame
        self.credentials = None  # the password is not kept once it worked
        self.player = frame.get("player")
        if isinstance(self.player, dict) and (
            self.player.get("kind") in ("account", "bot") or self._nameless
        ):
            self.name = str(self.player.get("name") or self.name)  # the stored name wins
        self._nameless = False
        self.token = frame.get("token") or self.token
        self.pacer.configure(frame.get("limits") or {})
        out: list[Output] = [Received(frame, request)]
        if self.follow_seats:
            for seat in frame.get("seats") or []:
                if seat.get("room") not in self.left:
                    self.follow(str(seat["room"]), seat=seat.get("seat"))
        for stream in list(self.streams.values()):
            if not stream.over:
                self.resume(stream.room)
        while self._held:
            self._out.append(self._held.popleft())
        return out

    def _hello_refused(self, frame: Json) -> list[Output]:
        self.credentials = None  # a refused password is not tried again
        guest = (self.player or {}).get("kind", "guest") == "guest"
        if frame.get("code") == "bad_token" and self.token and self.forget_bad_token and guest:
            self.token = None
            self._out.append(self.hello_message())
            return [Refused(frame, {"type": "hello"})]
        if frame.get("code") == "name_taken" and self.token and not self._nameless:
            # the name asked for belongs to an account: keep the token (the player's
            # identity, seats and history) and say hello under the stored name
            self._nameless = True
            self._out.append(self.hello_message())
            return [Refused(frame, {"type": "hello"})]
        return [HelloRefused(frame)]

    def _refused(self, frame: Json, request: Json | None) -> list[Output]:
        if (
            frame.get("code") == "rate_limited"
            and request is not None
            and request.get("type") not in NO_RETRY
        ):
            # (not the client's fault: the same message again, once the server said)
            retry_after = frame.get("retry_after")
            self.pacer.empty(float(retry_after) if isinstance(retry_after, int | float) else None)
            self._pending[int(request["ref"])] = request
            self._out.append(request)
            return []
        if request is not None and request.get("type") == "resume":
            room = str(request.get("room"))
            stream = self.streams.get(room)
            if stream is not None:
                stream.resyncing = False
                if frame.get("code") in GONE:
                    del self.streams[room]  # nothing to follow there any more
        elif request is not None and request.get("type") == "act":
            stream = self.streams.get(str(request.get("room")))
            if stream is not None and frame.get("code") not in ("illegal", "malformed", "repeated"):
                stream.turn = None  # not our turn any more, or the game is over
        return [Refused(frame, request)]

    def _event(self, stream: Stream, frame: Json) -> list[Output]:
        seq = int(frame["seq"])
        if seq <= stream.seq:
            return []  # seen already (a resume overlapping live frames)
        if seq > stream.seq + 1:
            # A gap: live events overtook a resume on its way, or frames were lost.
            if not stream.resyncing:
                self.resume(stream.room)
            return []
        stream.seq = seq
        stream.resyncing = False
        out: list[Output] = [Received(frame)]
        out += self._release_turn(stream)
        out += self._maybe_ended(stream)
        return out

    def _turn(self, stream: Stream, frame: Json) -> list[Output]:
        if frame.get("seat") is not None and stream.seat is None:
            stream.seat = frame["seat"]
        if stream.turn is not None and stream.turn.get("seq") == frame.get("seq"):
            return []  # the turn being played, again (a resume's replay): not a new one
        stream.held_turn = frame
        return self._release_turn(stream)

    def _release_turn(self, stream: Stream) -> list[Output]:
        turn = stream.held_turn
        if turn is None or stream.resyncing:
            return []
        seq = int(turn.get("seq") or 0)
        if seq > stream.seq:
            return []  # its events are still on their way
        stream.held_turn = None
        if seq < stream.seq or stream.over:
            return []  # the game moved on since
        stream.turn = turn
        return [Turn(turn, retry=seq == stream.acked_seq)]

    def _maybe_ended(self, stream: Stream) -> list[Output]:
        final = stream.final
        if final is None or stream.ended or stream.seq < int(final.get("seq") or 0):
            return []
        stream.ended = True
        return [GameEnded(stream.room, final)]
