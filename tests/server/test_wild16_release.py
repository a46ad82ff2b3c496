"""wild16's timing leak, on a real server (issue 34): a house seat's move is shown to its
opponent at the release the room schedules when the opponent's move is acknowledged,
whatever number of attempts the seat had refused first. The test reads the schedule
through the room core's effects (never the wall clock); the measured waits are
``benchmarks/wild16_release.py``'s."""

from __future__ import annotations

from typing import Any

from server.roomcore import messages as m
from server.rooms.room import Timing
from tests.server.conftest import ServerFactory

PACE = 0.1
WHITE = ["a2a3", "h2h3", "b2b3", "g2g3"]
BLACK = ["a7a6", "h7h6", "a6a5", "h6h5"]
#: attempts the umpire refuses whatever came before (a slider behind its own pawn)
REFUSED = ["c8h3", "f8b4", "d8d5"]


async def test_black_moves_at_the_release_scheduled_at_whites_ack(
    make_server: ServerFactory, connect: Any
) -> None:
    server = await make_server(timing=Timing(grace=30, autopilot_delay=PACE))
    tickets: list[str] = []
    server.lobby.launcher = lambda room, seat, bot, ticket: tickets.append(ticket)
    ana = await connect("ana", port=server.port)
    created = await ana.request(
        "create_room", "created", game="kriegspiel", options={"rules": "wild16"}
    )
    room_id = created["room"]
    room = server.lobby.rooms[room_id]
    handled: list[tuple[m.Input, float, list[m.Effect]]] = []
    handle = room.core.handle

    def traced(message: m.Input, now: float, wall: float | None = None) -> list[m.Effect]:
        out: list[m.Effect] = handle(message, now, wall)
        handled.append((message, now, out))
        return out

    room.core.handle = traced
    black = await connect("house-stand-in", port=server.port, bot=True)
    await ana.request("add_bot", "bot_added", room=room_id, bot="kriegspiel-random", seat=1)
    assert len(tickets) == 1
    await black.request("join", "joined", room=room_id, ticket=tickets[0])
    ana_conn = next(c for c in room.core.viewers if c.player and c.player.name == "ana")
    for refusals, (white, move) in enumerate(zip(WHITE, BLACK, strict=True)):
        await ana.expect("turn", timeout=10)
        await ana.send(type="act", room=room_id, action=white)
        for attempt in [*REFUSED[:refusals], move]:  # each once its (next) turn came
            await black.expect("turn", timeout=10)
            await black.send(type="act", room=room_id, action=attempt)
            await black.expect("ack", timeout=10, action=attempt)
        shown = await ana.expect("event", timeout=10)
        while (shown["event"]["type"], shown["event"].get("seat")) != ("move", 1):
            shown = await ana.expect("event", timeout=10)
        acked = next(now for msg, now, _ in handled if getattr(msg, "action", None) == white)
        # (what sent black's move to ana: the last input that sent ana anything)
        msg = [
            msg for msg, _, out in handled if any(getattr(e, "conn", 0) is ana_conn for e in out)
        ][-1]
        assert isinstance(msg, m.Tick) and msg.name == "hold", (refusals, msg)
        holds = [e for _, _, o in handled for e in o if isinstance(e, m.Schedule)]
        release = [e.at for e in holds if e.name == "hold"][-1]
        assert release == acked + PACE, refusals
        handled.clear()
    assert len(room.core.game.history) == 8 + 6
