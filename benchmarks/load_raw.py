"""A cheap load generator for ``python -m benchmarks.server_load --raw``: raw frames.

The default load generator runs every seat through the shared client core
(:mod:`bots.client.core`) on top of ``websockets``; it costs about as much CPU per action
as the server itself, and on a two-core machine the two compete. This one speaks the
protocol with as little as it can, so that the server's own cost and latency can be told
apart from the generator's:

- one :class:`asyncio.Protocol` per seat, with the HTTP upgrade written by hand (RFC 6455,
  section 4.1) and frames parsed from the byte stream directly (no ``websockets``);
- every client frame is masked with the all-zero key: masking is mandatory for a client
  (the server refuses unmasked frames) but XOR with zeros leaves the payload as it is, so
  there is nothing to compute (a real client must pick an unpredictable key; a load
  generator on loopback needs none);
- frames decoded with ``msgspec`` into a struct of the few fields it reads (the others are
  skipped by the decoder), encoded as preformatted text;
- the same scripted player as the default mode: it acts only on a ``turn`` frame (the
  server sends those only to the seat's own connections), with one of the frame's ``legal``
  actions (``benchmarks.common.scripted_bid``), and
  the same latency measure: from sending an action to the moment every seat of the room
  has received the last event it caused (its ``ack`` says which ``seq`` that is).

The first ``error`` frame, a closed connection or a room without progress for 60 s stops
the run; it ends by itself at its deadline.
"""

from __future__ import annotations

import asyncio
import base64
import functools
import os
import random
import struct
import time
from collections.abc import Sequence
from typing import Any

import msgspec

from benchmarks.common import scripted_bid


class Event(msgspec.Struct):
    """The part of an ``event`` frame's event this generator reads."""

    type: str = ""


class Frame(msgspec.Struct):
    """The fields of a server frame this generator reads; the decoder skips the rest."""

    type: str
    room: str | None = None
    seq: int | None = None
    legal: list[str] | None = None
    event: Event | None = None


_decode = msgspec.json.Decoder(Frame).decode
_MEDIUM = struct.Struct("!H")
_LARGE = struct.Struct("!Q")
#: the opening bytes of a client text frame, FIN set, masked with the zero key, by size
_ZERO_MASK = b"\x00\x00\x00\x00"


def client_frame(text: str | bytes, opcode: int = 0x1) -> bytes:
    """``text`` as one masked client frame (the zero mask key: the payload goes as is)."""
    data = text.encode() if isinstance(text, str) else text
    size = len(data)
    if size < 126:
        head = bytes((0x80 | opcode, 0x80 | size))
    elif size < 65536:
        head = bytes((0x80 | opcode, 0x80 | 126)) + _MEDIUM.pack(size)
    else:
        head = bytes((0x80 | opcode, 0x80 | 127)) + _LARGE.pack(size)
    return head + _ZERO_MASK + data


class LoadError(Exception):
    """The run stops: an error frame, a closed connection, or no progress."""


class Seat(asyncio.Protocol):
    """One seat's connection: the upgrade, frame parsing, and the scripted player."""

    def __init__(self, table: Table, index: int) -> None:
        self.table = table
        self.index = index
        self.transport: asyncio.Transport | None = None
        self.buffer = b""
        self.upgraded = False
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    # -- the transport --------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        key = base64.b64encode(os.urandom(16)).decode()
        transport.write(
            (
                f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{self.table.port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )

    def connection_lost(self, exc: Exception | None) -> None:
        self.table.load.lost(self, exc)

    def send(self, text: str) -> None:
        """Write one text frame."""
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(client_frame(text))

    def data_received(self, data: bytes) -> None:
        buffer = self.buffer + data if self.buffer else data
        if not self.upgraded:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                self.buffer = buffer
                return
            status = buffer[: buffer.find(b"\r\n")]
            if b" 101 " not in status:
                self.table.load.fail(f"the upgrade was refused: {status!r}")
                return
            self.upgraded = True
            buffer = buffer[end + 4 :]
            self.send(
                f'{{"type":"hello","v":1,"name":"raw{self.table.number}_{self.index}","bot":true}}'
            )
        pos, size = 0, len(buffer)
        while size - pos >= 2:
            first, second = buffer[pos], buffer[pos + 1]
            length = second & 0x7F
            start = pos + 2
            if length == 126:
                if size - start < 2:
                    break
                length = _MEDIUM.unpack_from(buffer, start)[0]
                start += 2
            elif length == 127:
                if size - start < 8:
                    break
                length = _LARGE.unpack_from(buffer, start)[0]
                start += 8
            end = start + length
            if end > size:
                break
            opcode = first & 0x0F
            payload = buffer[start:end]
            pos = end
            if opcode == 0x1:
                self.table.frame(self, payload)
            elif opcode == 0x9:  # ping: answer pong with the same payload
                if self.transport is not None:
                    self.transport.write(bytes((0x8A, 0x80 | length)) + _ZERO_MASK + payload)
            elif opcode == 0x8:
                self.table.load.fail(f"the server closed seat {self.index}: {payload!r}")
                return
        self.buffer = buffer[pos:]


class Table:
    """One room's four (``seats``) connections, game after game."""

    def __init__(self, load: Load, number: int, seats: int, port: int) -> None:
        self.load = load
        self.number = number
        self.port = port  #: the node its seats talk to (one of the load's ports)
        self.seats: list[Seat] = []
        self.size = seats
        self.room = ""
        self.welcomed = 0
        self.joined = 0
        self.seen: list[int] = [0] * seats
        self.sent_at = 0.0
        #: acknowledged actions being measured: (the seq they ended at, when they were sent)
        self.measuring: list[tuple[int, float]] = []
        self.progress = time.monotonic()
        self.finished = False  #: its last game ended after the deadline

    def new_game(self) -> None:
        """Seat 0 creates the next room (the others join once it is there)."""
        self.room = ""
        self.joined = 0
        self.seen = [0] * self.size
        self.measuring = []
        if time.monotonic() < self.load.deadline:
            self.seats[0].send(
                f'{{"type":"create_room","game":"perudo","options":{{"seats":{self.size}}}}}'
            )
        else:
            self.finished = True
            self.load.table_done()

    def frame(self, seat: Seat, payload: bytes) -> None:
        """Take one text frame from ``seat``'s connection."""
        frame = _decode(payload)
        kind = frame.type
        load = self.load
        now = time.monotonic()
        self.progress = now
        if kind == "event":
            if frame.room != self.room:
                return
            seq = frame.seq or 0
            self.seen[seat.index] = seq
            measuring = self.measuring
            if measuring:
                low = min(self.seen)
                while measuring and measuring[0][0] <= low:
                    _, sent_at = measuring.pop(0)
                    if load.measure_from <= sent_at and now < load.deadline:
                        load.latencies.append(now - sent_at)
            event = frame.event
            if event is not None and event.type == "game_over" and seat.index == 0:
                load.games += 1
                self.new_game()
        elif kind == "turn":
            if frame.room == self.room and frame.legal is not None:
                self.act(seat, frame.legal)
        elif kind == "ack":
            if frame.room == self.room:
                self.measuring.append((frame.seq or 0, self.sent_at))
                if load.measure_from <= now < load.deadline:
                    load.actions += 1
        elif kind == "welcome":
            self.welcomed += 1
            if self.welcomed == self.size:
                self.new_game()
        elif kind == "created":
            self.room = frame.room or ""
            join = f'{{"type":"join","room":"{self.room}"}}'
            for other in self.seats[1:]:
                other.send(join)
        elif kind == "error":
            load.fail(f"seat {seat.index} of room {self.room}: {msgspec.json.decode(payload)}")

    def act(self, seat: Seat, legal: list[str]) -> None:
        """Answer a turn with one of its legal actions (after the think time, if any)."""
        action = scripted_bid(legal, self.size, self.load.rng)
        text = f'{{"type":"act","room":"{self.room}","action":"{action}"}}'
        think = self.load.think
        if think:
            delay = self.load.rng.expovariate(1 / think)
            asyncio.get_running_loop().call_later(delay, self.send_act, seat, text)
        else:
            self.send_act(seat, text)

    def send_act(self, seat: Seat, text: str) -> None:
        """Send the action and note when (one action in flight per room)."""
        self.sent_at = time.monotonic()
        seat.send(text)


def node_port(table: int, ports: Sequence[int]) -> int:
    """The port (node) that table number ``table`` plays on: the tables are dealt over the
    nodes in turn, so that every node gets its share of the rooms whatever the number of
    load-generator processes (a room lives on the node where it was created)."""
    return ports[table % len(ports)]


class Load:
    """Tables of raw seats until the deadline; the latencies and counts they collect.

    ``ports``: one per node; table ``n`` plays on ``node_port(n, ports)``."""

    def __init__(
        self,
        ports: int | Sequence[int],
        think: float,
        measure_from: float,
        deadline: float,
        seed: int,
    ) -> None:
        self.ports = [ports] if isinstance(ports, int) else list(ports)
        self.think = think
        self.measure_from = measure_from
        self.deadline = deadline
        self.rng = random.Random(seed)
        self.latencies: list[float] = []
        self.actions = 0
        self.games = 0
        self.tables: list[Table] = []
        self.pending = 0
        self.done: asyncio.Future[str | None] | None = None

    def fail(self, message: str) -> None:
        """Stop the run with ``message`` (the first failure wins)."""
        if self.done is not None and not self.done.done():
            self.done.set_result(message)

    def lost(self, seat: Seat, exc: Exception | None) -> None:
        """A connection closed: a failure unless the run is over."""
        if time.monotonic() < self.deadline:
            self.fail(f"seat {seat.index} of room {seat.table.room}: connection lost ({exc})")

    def table_done(self) -> None:
        """A table finished its last game after the deadline."""
        self.pending -= 1
        if self.pending <= 0 and self.done is not None and not self.done.done():
            self.done.set_result(None)

    async def run(self, tables: range, seats: int) -> None:
        """Connect every table, play until the deadline, then close everything."""
        loop = asyncio.get_running_loop()
        self.done = loop.create_future()
        self.pending = len(tables)
        for number in tables:
            table = Table(self, number, seats, node_port(number, self.ports))
            for index in range(seats):
                _, seat = await loop.create_connection(
                    functools.partial(Seat, table, index), "127.0.0.1", table.port
                )
                table.seats.append(seat)
            self.tables.append(table)
        try:
            while not self.done.done():
                await asyncio.wait({self.done}, timeout=1.0)
                now = time.monotonic()
                if now > self.deadline + max(60.0, 150 * self.think):
                    self.fail("the games did not end in time after the deadline")
                for table in self.tables:
                    if not table.finished and now - table.progress > 60:
                        self.fail(f"room {table.room}: no progress for 60 s")
            message = self.done.result()
        finally:
            self.deadline = 0.0  # closing is no failure any more
            for table in self.tables:
                for seat in table.seats:
                    if seat.transport is not None:
                        seat.transport.close()
        if message is not None:
            raise LoadError(message)


async def raw_worker(
    port: int | Sequence[int],
    rooms: range,
    seats: int,
    think: float,
    measure_from: float,
    deadline: float,
    seed: int,
) -> dict[str, Any]:
    """One load-generator process of raw seats (the shape of ``server_load``'s workers);
    ``port``: the server's, or one per node (the tables are dealt over them)."""
    load = Load(port, think, measure_from, deadline, seed)
    error = None
    try:
        await load.run(rooms, seats)
    except (LoadError, OSError) as exc:
        error = str(exc) or repr(exc)
    return {
        "latencies": load.latencies,
        "actions": load.actions,
        "games": load.games,
        "error": error,
    }


# -- idle connections -----------------------------------------------------------------------


class Idle(asyncio.Protocol):
    """A connection that says ``hello`` and then nothing (a player in the lobby): it
    answers the server's pings and notes its ``welcome``."""

    def __init__(self, port: int, name: str, welcomed: asyncio.Future[None]) -> None:
        self.port = port
        self.name = name
        self.welcomed = welcomed
        self.transport: asyncio.Transport | None = None
        self.buffer = b""
        self.upgraded = False
        self.closed = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        key = base64.b64encode(os.urandom(16)).decode()
        transport.write(
            (
                f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if not self.welcomed.done():
            self.welcomed.set_exception(LoadError(f"idle {self.name}: closed ({exc})"))

    def data_received(self, data: bytes) -> None:
        buffer = self.buffer + data
        if not self.upgraded:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                self.buffer = buffer
                return
            if b" 101 " not in buffer[: buffer.find(b"\r\n")]:
                if not self.welcomed.done():
                    self.welcomed.set_exception(LoadError(f"idle {self.name}: refused"))
                return
            self.upgraded = True
            buffer = buffer[end + 4 :]
            assert self.transport is not None
            self.transport.write(client_frame(f'{{"type":"hello","v":1,"name":"{self.name}"}}'))
        while len(buffer) >= 2:
            length, start = buffer[1] & 0x7F, 2
            if length == 126:
                if len(buffer) < 4:
                    break
                length, start = _MEDIUM.unpack_from(buffer, 2)[0], 4
            elif length == 127:
                if len(buffer) < 10:
                    break
                length, start = _LARGE.unpack_from(buffer, 2)[0], 10
            if len(buffer) < start + length:
                break
            opcode, payload = buffer[0] & 0x0F, buffer[start : start + length]
            buffer = buffer[start + length :]
            if opcode == 0x9 and self.transport is not None:  # ping: pong
                self.transport.write(client_frame(payload, opcode=0xA))
            elif opcode == 0x1 and not self.welcomed.done():
                if _decode(payload).type == "welcome":
                    self.welcomed.set_result(None)
                else:
                    self.welcomed.set_exception(LoadError(f"idle {self.name}: {payload!r}"))
        self.buffer = buffer


async def hold_idle(
    ports: Sequence[int], count: int, until: float, ready: Any, at_once: int = 200
) -> int:
    """Open ``count`` idle connections (dealt over ``ports`` like the tables), at most
    ``at_once`` handshakes at a time; put their number in ``ready`` once every one has its
    ``welcome``; hold them until ``until`` (time.monotonic()); return how many were still
    open then."""
    loop = asyncio.get_running_loop()
    idle: list[Idle] = []
    gate = asyncio.Semaphore(at_once)

    async def one(number: int) -> None:
        async with gate:
            welcomed: asyncio.Future[None] = loop.create_future()
            port = node_port(number, ports)
            _, protocol = await loop.create_connection(
                lambda: Idle(port, f"idle{number}", welcomed), "127.0.0.1", port
            )
            idle.append(protocol)
            await asyncio.wait_for(welcomed, 60)

    try:
        await asyncio.gather(*(one(n) for n in range(count)))
        ready.put(len(idle))
        await asyncio.sleep(max(0.0, until - time.monotonic()))
        return sum(1 for connection in idle if not connection.closed)
    finally:
        for connection in idle:
            if connection.transport is not None:
                connection.transport.close()
