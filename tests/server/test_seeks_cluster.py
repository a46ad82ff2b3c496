"""Seeks on two nodes of one PostgreSQL database: a seek made on one node is paired with
one made on the other (each player hears of the match on its own node), and when both
nodes see the same open seeks at once, no seek is ever paired twice."""

from __future__ import annotations

import asyncio
import dataclasses
import time

import pytest

from server.matchmaking.seeks import pool_key
from server.net.app import UmpireServer
from server.rooms.lobby import HouseSeat
from server.store.contract import PlayerRow, SeekRow
from tests.eventually import eventually
from tests.server.conftest import FAST, ServerFactory
from tests.server.wsclient import WsClient

KS = {"game": "kriegspiel", "options": {"rules": "wild16"}}


@pytest.fixture
async def nodes(make_server: ServerFactory, pg_dsn: str) -> list[UmpireServer]:
    """Two nodes on one fresh database, reading the shared seeks often. Their leases are
    long: no test here is about a take-over, and with a 1.5 s lease a loaded CI machine
    once let one node's lease lapse, so the other took over a room that was then held
    by both (the pairing test counted it twice)."""
    timing = dataclasses.replace(FAST, grace=30.0)
    return [
        await make_server(db=pg_dsn, timing=timing, lease_ttl=30.0, seek_poll=0.1) for _ in range(2)
    ]


async def test_seeks_made_on_two_nodes_pair(nodes: list[UmpireServer]) -> None:
    a, b = nodes
    ana = await WsClient.open(a.port)
    await ana.hello("ana")
    bob = await WsClient.open(b.port)
    await bob.hello("bob")
    seek = (await ana.request("seek", "seek_added", **KS))["seek"]
    await eventually(lambda: b.matchmaker.core.get(seek["id"]) is not None, interval=0.05)
    listing = await bob.request("seeks", "seeks", game="kriegspiel")
    assert [s["id"] for s in listing["seeks"]] == [seek["id"]]
    answer = await bob.request("seek", "seek_added", **KS)
    room = answer["seek"]["room"]
    assert answer["seek"]["status"] == "matched" and room in b.lobby.rooms
    match = await ana.expect("match", room=room)  # told by a, from the store
    assert match["ref"] == seek["id"]
    await ana.request("resume", "resumed", room=room, since=0)  # relayed to b
    await bob.request("resume", "resumed", room=room, since=0)
    await eventually(lambda: b.lobby.rooms[room].state == "playing")
    await ana.close()
    await bob.close()


async def test_two_nodes_never_pair_one_seek_twice(nodes: list[UmpireServer]) -> None:
    a, b = nodes
    store = a.store
    players = [f"p{n:02}" for n in range(40)]
    for n, pid in enumerate(players):
        await store.add_player(PlayerRow(pid, f"player{n}", False, 1.0), f"hash-{pid}")
    options = {"rules": "wild16", "auto_fifty_moves": True, "auto_threefold": True}
    pool = pool_key("kriegspiel", options, False, 2, None)
    # written straight to the store (stamped now, as a node writes them): both nodes find
    # them on their next read of what changed, together
    now = time.time()
    await asyncio.gather(
        *(
            store.add_seek(
                SeekRow(
                    f"s{n:02}", pid, "kriegspiel", options, False, 2, float(n), pool, updated=now
                )
            )
            for n, pid in enumerate(players)
        )
    )

    async def none_open() -> bool:
        return not await store.seeks("open")

    await eventually(none_open, interval=0.1, what="every seek paired")
    matched = await store.seeks("matched")
    assert len(matched) == len(players)
    tables: dict[str, list[str]] = {}
    for row in matched:
        assert row.room is not None
        tables.setdefault(row.room, []).append(row.player)
    assert all(len(seated) == 2 for seated in tables.values())

    def rooms_open() -> bool:  # a claim is stored as matched just before its room opens
        return set(tables) <= {room for node in (a, b) for room in node.lobby.rooms}

    await eventually(rooms_open, interval=0.05, what="every claimed room opened")
    opened = {
        room_id: sorted(p for p in room.row.seats if p is not None)
        for node in (a, b)
        for room_id, room in node.lobby.rooms.items()
    }
    assert opened == {room: sorted(seated) for room, seated in tables.items()}
    assert a.matchmaker.opened + b.matchmaker.opened == len(players) // 2


async def test_a_match_opened_on_another_node_is_told_here(nodes: list[UmpireServer]) -> None:
    a, b = nodes
    ana = await WsClient.open(a.port)
    await ana.hello("ana")
    player = await b.identities.get(ana.player["id"])
    assert player is not None
    room = await b.lobby.open_match(
        "perudo", {}, [player, HouseSeat("autopilot")], source="tournament", ref="t1"
    )
    match = await ana.expect("match", room=room.id)  # from a, read from the store
    assert match["source"] == "tournament" and match["ref"] == "t1" and match["seat"] == 0
    await ana.request("resume", "resumed", room=room.id, since=0)  # relayed to b
    await eventually(lambda: room.state == "playing")
    await ana.drain()
    assert [f for f in ana.frames if f["type"] == "match"] == [match]  # told once
    await ana.close()
