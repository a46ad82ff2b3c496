"""Complete Perudo games between scripted clients over real sockets."""

from __future__ import annotations

import asyncio
from typing import Any

from server.net.app import UmpireServer
from tests.server.scripted import play_seat


async def start_room(connect: Any, seats: int, **create: Any) -> tuple[str, list[Any]]:
    host = await connect("host")
    created = await host.request(
        "create_room", "created", game="perudo", options={"seats": seats}, **create
    )
    room = created["room"]
    clients = [host]
    for i in range(1, seats):
        c = await connect(f"player{i}")
        joined = await c.request("join", "joined", room=room)
        assert joined["seat"] == i
        clients.append(c)
    return room, clients


async def test_game_is_logged_with_the_seed(server: UmpireServer, connect: Any) -> None:
    room_id, clients = await start_room(connect, 2)
    await asyncio.gather(*(play_seat(c, room_id, s) for s, c in enumerate(clients)))
    await clients[0].expect("room", state="finished")  # sent once the game's end is stored
    rows = await server.store.games(["finished"])
    assert [r.id for r in rows] == [room_id]
    row = rows[0]
    assert row.seed_revealed and row.result is not None
    events = await server.store.events(room_id)
    room = server.lobby.rooms[room_id]
    assert [e.truth for e in events] == [e.truth for e in room.log]
    actions = await server.store.actions(room_id)
    assert room.game is not None
    assert [(a.seat, a.action) for a in actions] == [tuple(r) for r in room.game.history]
