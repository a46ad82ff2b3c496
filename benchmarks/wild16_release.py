"""wild16's timing channel: the wait from white's ack to black's move, against the number
of attempts the umpire refused black first (issue 34).

A real server (in this process, on a free port, with a house seat's pace of ``--pace``
seconds) hosts wild16 games of a scripted white against a scripted black that sits in a
house bot's seat (with the seat's ticket, so the room paces it as a house bot). Each black
turn, black makes 0 to 3 attempts that the umpire refuses (a random number; each sent
only once its new ``turn`` came, as a bot does), then its move. White times, on its own
socket, the wait from its ``ack`` to the event of black's move. Prints the mean wait for
each number of refusals and the correlation between the two over all turns (|r| under
0.1: the wait tells white nothing).

    python -m benchmarks.wild16_release [--turns 200] [--pace 0.1] [--seed 1]
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from benchmarks.common import arguments, machine
from server.net.app import Limits, ServerConfig
from server.players.throttle import Rate
from server.rooms.room import Timing
from server.root import build_server

WHITE = ["a2a3", "h2h3", "b2b3", "g2g3"]
BLACK = ["a7a6", "h7h6", "a6a5", "h6h5"]
#: attempts the umpire refuses whatever came before (a slider behind its own pawn)
REFUSED = ["c8h3", "f8b4", "d8d5"]


class Peer:
    """A scripted connection: send a frame, wait for a frame of a type (the frames it
    passes over wait for a later :meth:`expect`)."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.pending: list[tuple[float, dict[str, Any]]] = []

    async def send(self, **frame: Any) -> None:
        await self.ws.send(json.dumps(frame))

    async def expect(self, kind: str, **fields: Any) -> tuple[float, dict[str, Any]]:
        """The oldest frame of type ``kind`` with ``fields`` and when it came."""
        seen = 0
        while True:
            for index in range(seen, len(self.pending)):
                _, frame = self.pending[index]
                if frame["type"] == "error":
                    raise RuntimeError(f"error: {frame}")
                if frame["type"] == kind and all(frame.get(k) == v for k, v in fields.items()):
                    return self.pending.pop(index)
            seen = len(self.pending)
            text = await asyncio.wait_for(self.ws.recv(), 30)
            self.pending.append((time.perf_counter(), json.loads(text)))


async def game(port: int, tickets: list[str], refusals: list[int]) -> list[float]:
    """One game of len(WHITE) turns each side; return white's wait for each black move."""
    url = f"ws://127.0.0.1:{port}"
    async with connect(url) as wws, connect(url) as bws:
        white, black = Peer(wws), Peer(bws)
        await white.send(type="hello", v=1, name="white")
        await white.expect("welcome")
        await black.send(type="hello", v=1, name="black", bot=True)
        await black.expect("welcome")
        options = {"rules": "wild16"}
        await white.send(type="create_room", game="kriegspiel", options=options)
        room = (await white.expect("created"))[1]["room"]
        await white.send(type="add_bot", room=room, bot="kriegspiel-random", seat=1)
        await white.expect("bot_added")
        await black.send(type="join", room=room, ticket=tickets[-1])
        await black.expect("joined")
        waits = []
        for k, move, answer in zip(refusals, WHITE, BLACK, strict=True):
            await white.expect("turn")
            await white.send(type="act", room=room, action=move)
            acked, _ = await white.expect("ack", action=move)
            for attempt in [*REFUSED[:k], answer]:
                await black.expect("turn")
                await black.send(type="act", room=room, action=attempt)
                await black.expect("ack", action=attempt)
            while True:
                shown, frame = await white.expect("event")
                if frame["event"]["type"] == "move" and frame["event"].get("seat") == 1:
                    break
            waits.append(shown - acked)
        return waits


async def run(turns: int, pace: float, seed: int) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        config = ServerConfig(
            port=0,
            db=str(Path(tmp) / "umpire.db"),
            synchronous="NORMAL",
            limits=Limits(rate=1000, burst=1000, new_guests=Rate(burst=1e6, every=1.0)),
            timing=Timing(autopilot_delay=pace),
        )
        server = build_server(config)
        await server.start()
        tickets: list[str] = []
        server.lobby.launcher = lambda room, seat, bot, ticket: tickets.append(ticket)
        counts: list[int] = []
        waits: list[float] = []
        try:
            while len(waits) < turns:
                refusals = [rng.randrange(4) for _ in WHITE]
                waits += await game(server.port, tickets, refusals)
                counts += refusals
        finally:
            await server.close()
    print(machine())
    print(f"{len(waits)} black turns, pace {pace * 1000:.0f} ms")
    for k in range(4):
        of_k = [w * 1000 for w, c in zip(waits, counts, strict=True) if c == k]
        if of_k:
            print(
                f"  {k} refused: {len(of_k):3d} turns, wait mean {statistics.mean(of_k):.2f} ms, "
                f"sd {statistics.pstdev(of_k):.2f}"
            )
    r = statistics.correlation([float(c) for c in counts], waits)
    print(f"correlation of the wait with the refusals: r = {r:+.3f}")


def main() -> None:
    parser = arguments(__doc__, seed=1)
    parser.add_argument("--turns", type=int, default=200, help="black turns to time")
    parser.add_argument("--pace", type=float, default=0.1, help="a house seat's pace (s)")
    args = parser.parse_args()
    asyncio.run(run(args.turns, args.pace, args.seed))


if __name__ == "__main__":
    main()
