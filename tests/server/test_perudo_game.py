"""Complete Perudo games between scripted clients over real sockets."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from server.net.app import UmpireServer
from tests.server.scripted import play_seat


def hidden_dice_leaks(frame: dict[str, Any], viewer: int | None) -> list[str]:
    """Every place in ``frame`` that shows dice ``viewer`` may not see (empty: none)."""
    problems: list[str] = []

    def walk(node: Any, path: str, public_reveal: bool) -> None:
        if isinstance(node, dict):
            if "dice" in node and not public_reveal:
                dice = node["dice"]
                if dice and isinstance(dice[0], list):
                    problems.append(f"{path}: every seat's dice")
                elif dice and node.get("seat") != viewer:
                    problems.append(f"{path}: dice of seat {node.get('seat')}")
            for key, value in node.items():
                walk(value, f"{path}.{key}", public_reveal or key == "revealed")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{path}[{i}]", public_reveal)

    walk(frame, "$", False)
    return problems


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


async def test_complete_game_every_viewer_gets_its_projections(
    server: UmpireServer, connect: Any
) -> None:
    room_id, clients = await start_room(connect, 3)
    spectator = await connect("watcher")
    await spectator.request("watch", "watching", room=room_id)
    results = await asyncio.gather(*(play_seat(c, room_id, s) for s, c in enumerate(clients)))
    assert all(r["type"] == "game_over" for r in results)
    assert len({json.dumps(r, sort_keys=True) for r in results}) == 1
    await asyncio.sleep(0.1)
    for c in [*clients, spectator]:
        await c.drain()

    room = server.lobby.rooms[room_id]
    assert room.state == "finished"
    # every seat got every event, in order, each exactly its own projection
    for seat, client in enumerate(clients):
        events = client.events(room_id)
        assert [e["seq"] for e in events] == list(range(1, room.last_seq + 1))
        for frame in events:
            assert frame.get("event") == room.log[frame["seq"] - 1].view(seat)
        for frame in client.frames:
            assert not hidden_dice_leaks(frame, seat), hidden_dice_leaks(frame, seat)
    # the spectator joined after the start: a snapshot, then the rest
    snapshot = next(f for f in spectator.frames if f["type"] == "snapshot")
    assert snapshot["seat"] is None and "dice" not in snapshot["view"]
    for frame in spectator.events(room_id):
        assert frame["seq"] > snapshot["seq"]
        assert frame.get("event") == room.log[frame["seq"] - 1].view(None)
    for frame in spectator.frames:
        assert not hidden_dice_leaks(frame, None)
    # the seed is revealed at the end and matches the commitment published at the start
    final_room = [f for f in clients[0].frames if f["type"] == "room"][-1]
    assert final_room["state"] == "finished" and final_room["seed"]
    opening = clients[0].events(room_id)[0]["event"]
    import hashlib

    assert hashlib.sha256(bytes.fromhex(final_room["seed"])).hexdigest() == opening["seed_sha256"]


async def test_game_is_logged_with_the_seed(server: UmpireServer, connect: Any) -> None:
    room_id, clients = await start_room(connect, 2)
    await asyncio.gather(*(play_seat(c, room_id, s) for s, c in enumerate(clients)))
    await asyncio.sleep(0.05)
    rows = await server.store.games(["finished"])
    assert [r.id for r in rows] == [room_id]
    row = rows[0]
    assert row.seed_revealed and row.result is not None
    events = await server.store.events(room_id)
    room = server.lobby.rooms[room_id]
    assert [e.truth for e in events] == [e.truth for e in room.log]
    actions = await server.store.actions(room_id)
    assert [(a.seat, a.action) for a in actions] == [tuple(r) for r in room.game.history]
