"""Several nodes on one PostgreSQL database, in one process: any node reaches any room
(relayed to its owner), the lobby lists every node's rooms, and a node that lost a
room's lease can never write to its log again."""

from __future__ import annotations

import asyncio
import dataclasses
import types
from typing import Any

import asyncpg
import pytest

from server.cluster.lease import Granted, Leases
from server.cluster.nodes import Cluster
from server.errors import LeaseLost
from server.net.app import UmpireServer
from server.store.contract import ActionRow
from tests.eventually import eventually
from tests.server.conftest import FAST, LEASE, ServerFactory
from tests.server.scripted import play_seat
from tests.server.wsclient import WsClient


@pytest.fixture
async def nodes(make_server: ServerFactory, pg_dsn: str) -> list[UmpireServer]:
    """Two nodes on one fresh database."""
    timing = dataclasses.replace(FAST, grace=30.0)
    return [await make_server(db=pg_dsn, timing=timing, **LEASE) for _ in range(2)]


async def listed(client: WsClient, room: str) -> bool:
    """Whether ``room`` shows in the listing now (nodes publish their rooms at each
    heartbeat, here every 0.2 s)."""
    reply = await client.request("list_rooms", "rooms")
    return room in [r["room"] for r in reply["rooms"]]


async def test_a_client_on_any_node_plays_a_room_of_another(nodes: list[UmpireServer]) -> None:
    a, b = nodes
    host = await WsClient.open(a.port)
    await host.hello("ana")
    room = (
        await host.request(
            "create_room", "created", game="perudo", options={"seats": 2, "dice_per_player": 2}
        )
    )["room"]
    guest = await WsClient.open(b.port)
    await guest.hello("bob")
    await eventually(lambda: listed(guest, room), interval=0.1, what="b listing a's room")
    joined = await guest.request("join", "joined", room=room)
    assert joined["room"] == room and joined["seat"] == 1
    assert room in a.lobby.rooms and room not in b.lobby.rooms  # relayed, not moved
    overs = await asyncio.gather(play_seat(host, room, 0), play_seat(guest, room, 1))
    assert overs[0] == overs[1]
    await host.close()
    await guest.close()


async def test_welcome_lists_a_players_rooms_on_every_node(
    make_server: ServerFactory, pg_dsn: str
) -> None:
    a, b, c = [await make_server(db=pg_dsn, **LEASE) for _ in range(3)]
    ana = await WsClient.open(a.port)
    await ana.hello("ana")
    options = {"seats": 2, "dice_per_player": 2}
    first = (await ana.request("create_room", "created", game="perudo", options=options))["room"]
    again = await WsClient.open(b.port)
    await again.hello("ana", token=ana.token)
    second = (await again.request("create_room", "created", game="perudo", options=options))["room"]
    assert first in a.lobby.rooms and second in b.lobby.rooms
    third = await WsClient.open(c.port)
    welcome = await third.hello("ana", token=ana.token)
    assert sorted(s["room"] for s in welcome["seats"]) == sorted([first, second])
    assert all(s["seat"] == 0 and s["state"] == "waiting" for s in welcome["seats"])
    # Through c, ana resumes both rooms and chats in them (relayed to a and b).
    for room in (first, second):
        await third.request("resume", "resumed", room=room, since=0)
        line = await third.request("say", "chat", room=room, text=f"hi from c to {room}")
        assert line["text"] == f"hi from c to {room}"
    assert not c.lobby.rooms  # c owns nothing: it relayed
    for client in (ana, again, third):
        await client.close()


async def test_a_private_room_on_another_node_needs_its_invite(
    nodes: list[UmpireServer],
) -> None:
    a, b = nodes
    host = await WsClient.open(a.port)
    await host.hello("ana")
    created = await host.request(
        "create_room", "created", game="perudo", options={"seats": 2}, public=False
    )
    guest = await WsClient.open(b.port)
    await guest.hello("bob")
    await guest.send(type="join", room=created["room"])
    assert (await guest.error("no_such_room"))["room"] == created["room"]
    joined = await guest.request("join", "joined", invite=created["invite"])
    assert joined["room"] == created["room"]
    await host.close()
    await guest.close()


async def test_a_stopped_nodes_rooms_and_house_bots_move_to_another_node(
    nodes: list[UmpireServer],
) -> None:
    a, b = nodes
    host = await WsClient.open(a.port)
    await host.hello("ana")
    options = {"seats": 2, "dice_per_player": 3}
    room = (await host.request("create_room", "created", game="perudo", options=options))["room"]
    await host.request("add_bot", "bot_added", room=room, bot="perudo-random")
    await host.close()
    via_b = await WsClient.open(b.port)  # ana follows the room through b (relayed to a)
    welcome = await via_b.hello("ana", token=host.token)
    assert [s["room"] for s in welcome["seats"]] == [room]
    await via_b.request("resume", "resumed", room=room, since=0)
    await a.close()  # a leaves: b takes the room over at its next heartbeat
    code, _ = await via_b.closed()
    assert code == 1012  # the link to a closed: come back and resume
    again = await WsClient.open(b.port)
    welcome = await again.hello("ana", token=host.token)
    assert [s["room"] for s in welcome["seats"]] == [room]
    assert room in b.lobby.rooms
    await again.request("resume", "resumed", room=room, since=0)
    assert (room, 1) in b.house.playing()  # the house bot plays from b's runner now
    over = await play_seat(again, room, 0)
    assert over["type"] == "game_over"
    row = await b.store.game(room)
    assert row is not None and row.status == "finished"
    await again.close()


async def test_a_living_node_that_lost_a_room_stops_it_and_can_no_longer_write(
    nodes: list[UmpireServer], pg_dsn: str
) -> None:
    a, _ = nodes
    host = await WsClient.open(a.port)
    await host.hello("ana")
    options = {"seats": 2, "dice_per_player": 3}
    room = (await host.request("create_room", "created", game="perudo", options=options))["room"]
    await host.request("add_bot", "bot_added", room=room, bot="perudo-random")
    assert a.cluster is not None and (room, 1) in a.house.playing()
    # a stalls past its lease (its row expires) and another node takes the room over.
    thief = Leases(pg_dsn, "thief", ttl=30)
    await thief.open("ws://127.0.0.1:1")
    try:
        conn = await asyncpg.connect(pg_dsn)
        try:  # (as thief.acquire would once a's row expired; done at once, no race)
            await conn.execute(
                "UPDATE leases SET node = 'thief', token = token + 1 WHERE room = $1", room
            )
        finally:
            await conn.close()
        assert await thief.acquire(room) == Granted(2)
        # a's next heartbeat sees it: the room stops there, its clients are sent away.
        code, _ = await host.closed()
        assert code == 1012
        assert room not in a.lobby.rooms
        # ... and at the latest at its next heartbeat, a stops its house bot of the room.
        await eventually(lambda: (room, 1) not in a.house.playing(), what="the bot's stop")
        # Whatever a still had in flight for the room, nothing more reaches its log.
        with pytest.raises(LeaseLost):
            await a.store.append(room, [], ActionRow(999, 0, "stale", 0.0))
        assert 999 not in [x.n for x in await a.store.actions(room)]
    finally:
        await thief.close(leave=False)  # alive for 30 s more: b leaves the room alone


async def test_a_fenced_write_gives_the_room_up_at_once(
    make_server: ServerFactory, pg_dsn: str
) -> None:
    """A room whose write is fenced is forgotten by its node then, not at the node's next
    heartbeat (here 10 s away): a client sent away and back is not given the room again on
    the stale lease (which would send it away again, and again)."""
    timing = dataclasses.replace(FAST, grace=30.0)
    a = await make_server(db=pg_dsn, timing=timing, lease_ttl=30)
    host = await WsClient.open(a.port)
    await host.hello("ana")
    room = (await host.request("create_room", "created", game="perudo", options={"seats": 2}))[
        "room"
    ]
    thief = Leases(pg_dsn, "thief", ttl=30)
    await thief.open("ws://127.0.0.1:1")
    try:
        conn = await asyncpg.connect(pg_dsn)
        try:
            await conn.execute(
                "UPDATE leases SET node = 'thief', token = token + 1 WHERE room = $1", room
            )
        finally:
            await conn.close()
        await host.send(type="say", room=room, text="still here?")  # a write: fenced
        code, _ = await host.closed()
        assert code == 1012
        assert a.lobby.claim is not None
        assert not await a.lobby.claim(room, False)  # given up now, without a heartbeat
        assert room not in a.lobby.rooms
    finally:
        await thief.close(leave=False)


def test_a_heartbeat_slower_than_the_lease_is_refused() -> None:
    store: Any = types.SimpleNamespace(dsn="postgresql://unused")
    lobby: Any = object()
    assert Cluster(store, lobby, ttl=6.0).beat == 2.0  # a third of the ttl by default
    assert Cluster(store, lobby, ttl=30.0, beat=0.2).beat == 0.2
    with pytest.raises(ValueError, match="cannot keep"):
        Cluster(store, lobby, ttl=1.0, beat=1.0)
