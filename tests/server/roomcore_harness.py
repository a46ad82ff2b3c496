"""A room core on a fake clock, for the tests of room behaviour (tests/server/test_roomcore*.py).

No sockets, no sleeps, no event loop: a :class:`Harness` feeds a
:class:`~server.roomcore.core.RoomCore` inputs at explicit times, carries out its effects
as its actor would (frames to each :class:`Conn`, timers kept to fire with
:meth:`Harness.run_until`, journal entries kept in a :class:`Log` standing in for the
store) and can restart the room from that log, as a server does after a crash.

Frames are read through :func:`decoded`, whatever the core emits (pre-encoded JSON text in
a ``Send``, a dict or a msgspec Struct in a ``Reply``), and every one is checked against
the server's frame types, as the socket tests' client checks what it receives.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import msgspec

from server.games import engine
from server.players.identity import Player
from server.roomcore import messages as m
from server.roomcore.core import RoomCore, new_row
from server.roomcore.settings import WAITING, Settings, Timing
from server.store.contract import ActionRow, ChatRow, EventRow, GameRow
from server.wire import frames as wire

Json = dict[str, Any]

ROOM = "r1"
ANA = Player("p-ana", "ana", False)
BOB = Player("p-bob", "bob", False)
CID = Player("p-cid", "cid", False)
DEE = Player("p-dee", "dee", False)
WES = Player("p-wes", "wes", False)  # a spectator
KR_BOT = Player("bot-kriegspiel-random", "kriegspiel-random", True)
PERUDO_BOT = Player("bot-perudo-random", "perudo-random", True)
AUTOPILOT = Player("bot-autopilot", "autopilot", True)
STANDIN = Player("bot-perudo-simple", "perudo-simple", True)
PLAYERS = {p.id: p for p in (ANA, BOB, CID, DEE, WES)}

#: the timing of most tests: a 10 s grace period, a 1 s pace, 60 s in memory after the end
TIMING = Timing(grace=10.0, autopilot_delay=1.0, finished_ttl=60.0)


def decoded(frame: Any) -> Any:
    """A frame as plain JSON values, from whatever the core emitted (text, dict, Struct)."""
    if isinstance(frame, str | bytes):
        return msgspec.json.decode(frame)
    return msgspec.json.decode(msgspec.json.encode(frame))


def checked(frame: Any) -> Json:
    """:func:`decoded`, after checking that it is exactly one of the server's frame types."""
    text = frame if isinstance(frame, str | bytes) else msgspec.json.encode(frame)
    wire.check(text)
    result: Json = msgspec.json.decode(text)
    return result


@dataclass(eq=False)
class Conn:
    """A connection handle (the core only reads ``player``); ``frames`` is all it was sent."""

    player: Player | None
    frames: list[Json] = field(default_factory=list)

    def of(self, kind: str) -> list[Json]:
        """The frames of type ``kind``, in order."""
        return [f for f in self.frames if f["type"] == kind]

    def events(self) -> list[Json]:
        """The event frames, in order."""
        return self.of("event")

    def last(self, kind: str) -> Json:
        """The newest frame of type ``kind``."""
        return self.of(kind)[-1]


@dataclass
class Log:
    """What the room persisted, as the store would keep it: its row, actions, events, chat."""

    row: GameRow | None = None
    actions: list[ActionRow] = field(default_factory=list)
    events: list[EventRow] = field(default_factory=list)
    chat: list[ChatRow] = field(default_factory=list)
    entries: list[Any] = field(default_factory=list)

    def write(self, entry: Any) -> None:
        """Keep one journal entry (read by its fields: a row, an action, events, a line)."""
        self.entries.append(entry)
        row = getattr(entry, "row", None)
        if row is not None:
            self.row = dataclasses.replace(row)
        action = getattr(entry, "action", None)
        if action is not None:
            self.actions.append(action)
        self.events.extend(getattr(entry, "events", ()))
        line = getattr(entry, "line", None)
        if line is not None:
            self.chat.append(line)


class Harness:
    """A core and a fake clock; collects every effect and carries it out as the actor does."""

    def __init__(self, core: RoomCore, now: float = 0.0, log: Log | None = None) -> None:
        self.core = core
        self.now = now
        self.effects: list[m.Effect] = []
        self.timers: dict[str, m.Schedule] = {}
        self.log = log if log is not None else Log()
        #: the answer to each request, by its token: a reply frame (decoded) or an error
        self.answers: dict[object, Json | Exception | None] = {}

    # -- driving -------------------------------------------------------------------------

    def feed(self, message: m.Input, at: float | None = None) -> list[m.Effect]:
        """Hand the core one input at ``at`` (the clock moves forward only)."""
        self._advance(at)
        out = self.core.handle(message, self.now)
        self.take(out)
        return out

    def ask(self, message: m.Request, at: float | None = None) -> object:
        """Feed a request with a fresh token; return the token (see :attr:`answers`)."""
        token = object()
        self.feed(dataclasses.replace(message, token=token), at)
        return token

    def request(self, message: m.Request, at: float | None = None) -> Any:
        """Feed a request; return its reply frame (decoded) or raise its error."""
        token = self.ask(message, at)
        if token not in self.answers:
            raise AssertionError("the request was not answered (held back?)")
        answer = self.answers[token]
        if isinstance(answer, Exception):
            raise answer
        return answer

    def run_until(self, at: float) -> None:
        """Fire every armed timer due by ``at``, in time order; the clock ends at ``at``."""
        while True:
            due = [t for t in self.timers.values() if t.at <= at]
            if not due:
                break
            timer = min(due, key=lambda t: t.at)
            del self.timers[timer.name]
            self.feed(m.Tick(timer.name, timer.generation), at=max(self.now, timer.at))
        self._advance(at)

    def restart(self, at: float, players: dict[str, Player] | None = None) -> Harness:
        """The room as a restarted server rebuilds it from :attr:`log` at time ``at`` (a
        new process: a new core, nothing attached, the clock on a new scale even)."""
        row = self.log.row
        assert row is not None, "the room never saved its row"
        row = dataclasses.replace(row, seats=list(row.seats), house=dict(row.house))
        eng = self.core.engine
        core = RoomCore(
            row,
            eng,
            eng.stored_config(row.options),
            self.core.timing,
            PLAYERS if players is None else players,
            chat_lines=list(self.log.chat),
        )
        again = Harness(core, now=at, log=self.log)
        if row.status != WAITING and row.seed:
            again.take(core.recover(list(self.log.actions), list(self.log.events), at))
        return again

    def _advance(self, at: float | None) -> None:
        if at is not None:
            assert at >= self.now, f"the clock goes back from {self.now} to {at}"
            self.now = at

    # -- carrying out effects ------------------------------------------------------------

    def take(self, out: list[m.Effect]) -> None:
        """Carry out effects as the room's actor would."""
        self.effects.extend(out)
        for effect in out:
            if isinstance(effect, m.Send):
                assert isinstance(effect.conn, Conn)
                effect.conn.frames.extend(checked(f) for f in effect.frames)
            elif isinstance(effect, m.Reply):
                frame = None if effect.frame is None else checked(effect.frame)
                self.answers[effect.token] = frame
            elif isinstance(effect, m.Refuse):
                self.answers[effect.token] = effect.error
            elif isinstance(effect, m.Schedule):
                self.timers[effect.name] = effect
            elif isinstance(effect, m.Cancel):
                self.timers.pop(effect.name, None)
            elif isinstance(effect, m.Persist):
                self.log.write(effect.entry)

    # -- reading -------------------------------------------------------------------------

    def launches(self) -> list[m.Launch]:
        """Every house bot the room asked for, in order."""
        return [e for e in self.effects if isinstance(e, m.Launch)]

    def mover(self, *conns: Conn) -> Conn:
        """Of ``conns`` (one per seat, in seat order), the one whose seat is to move."""
        game = self.core.game
        assert game is not None and game.to_move is not None
        return conns[game.to_move]

    def autopilot(self, seat: int) -> bool:
        """Whether the server plays for ``seat`` now (a call, read afresh after each input:
        mypy keeps an asserted ``core.seats[i].autopilot`` narrowed across inputs)."""
        return self.core.seats[seat].autopilot

    def paused(self) -> bool:
        """Whether the room is paused now (read afresh, as :meth:`autopilot`)."""
        return self.core.paused

    def to_move(self) -> int:
        """The seat to move now; the game must be on and waiting for a move."""
        game = self.core.game
        assert game is not None and game.to_move is not None
        return game.to_move

    def legal(self, seat: int) -> list[str]:
        """The seat's legal actions now, as texts."""
        game = self.core.game
        assert game is not None
        return [str(action) for action in game.legal_actions(seat)]


def make_core(
    game: str,
    options: dict[str, Any] | None = None,
    settings: Settings | None = None,
    timing: Timing | None = None,
    host: str = "p-ana",
) -> RoomCore:
    """A new waiting room ``r1`` of ``game`` hosted by ana, with predictable seeds and
    tickets (a private room's invite is ``invite-code``)."""
    eng = engine(game)
    config = eng.make_config(options or {})
    settings = settings or Settings()
    invite = None if settings.public else "invite-code"
    row = new_row(ROOM, eng, config, settings, host, 0.0, invite)
    seeds = iter(bytes([i]) * 32 for i in range(1, 100))
    tickets = iter(f"ticket-{i}" for i in range(1, 100))
    return RoomCore(
        row,
        eng,
        config,
        timing or TIMING,
        {},
        token=lambda: next(tickets),
        new_seed=lambda: next(seeds),
    )


def seated(
    game: str,
    players: tuple[Player, ...] = (ANA, BOB),
    options: dict[str, Any] | None = None,
    settings: Settings | None = None,
    timing: Timing | None = None,
) -> tuple[Harness, list[Conn]]:
    """A room of ``game`` whose seats ``players`` fill in order at time 0 (so it starts,
    unless ``settings`` says otherwise); return it and their connections."""
    if options is None:
        options = {"seats": len(players)} if game == "perudo" else {"rules": "wild16"}
    h = Harness(make_core(game, options, settings, timing))
    conns = [Conn(player) for player in players]
    for conn in conns:
        h.request(m.Join(conn), at=0.0)
    return h, conns


def dudo_or_lowest(legal: list[str]) -> str:
    """A quick Perudo player: call dudo when it may, else make the first legal bid."""
    return "dudo" if "dudo" in legal else legal[0]


def play(
    h: Harness,
    conns: list[Conn | None],
    choose: Any = dudo_or_lowest,
    step: float = 0.5,
    moves: int = 10_000,
) -> bool:
    """Play at most ``moves`` moves; return whether the game is over. The seat to move acts
    through its connection (``choose`` picks from its legal actions) every ``step``
    seconds; a seat without one (``None``) is left to the room's timers (the autopilot, a
    stand-in policy, a flag)."""
    for _ in range(moves):
        game = h.core.game
        assert game is not None
        if h.core.state != "playing":
            return True
        seat = game.to_move
        assert seat is not None
        conn = conns[seat] if seat < len(conns) else None
        if conn is None:
            armed = [t.at for t in h.timers.values()]
            assert armed, f"seat {seat} is to move and nothing will move it"
            h.run_until(max(min(armed), h.now))
        else:
            h.request(m.Act(conn, action=choose(h.legal(seat))), at=h.now + step)
    return h.core.state != "playing"


def play_to_the_end(h: Harness, conns: list[Conn | None], choose: Any = dudo_or_lowest) -> None:
    """:func:`play` until the game ends."""
    assert play(h, conns, choose), "the game did not end"
