"""Reconnecting with a token, resuming from a sequence number, the autopilot and timers."""

from __future__ import annotations

from typing import Any

from server.net.app import UmpireServer
from server.rooms.room import Timing
from tests.server.wsclient import WsClient

PATIENT = Timing(grace=30.0, autopilot_delay=0.0, finished_ttl=30.0)


async def two_seats(connect: Any, **create: Any) -> tuple[str, WsClient, WsClient]:
    a = await connect("ana")
    b = await connect("bob")
    room = (
        await a.request("create_room", "created", game="perudo", options={"seats": 2}, **create)
    )["room"]
    await b.request("join", "joined", room=room)
    return room, a, b


async def bid_once(server: UmpireServer, room_id: str, by_seat: dict[int, WsClient]) -> int:
    """The seat to move makes the lowest legal bid; return that seat."""
    game = server.lobby.rooms[room_id].game
    assert game is not None and game.to_move is not None
    seat = game.to_move
    bid = next(str(a) for a in game.legal_actions(seat) if "x" in str(a))
    client = by_seat[seat]
    await client.send(type="act", room=room_id, action=bid)
    await client.expect("ack")
    return seat


async def test_resume_returns_the_missed_projections_in_order(
    make_server: Any, connect: Any
) -> None:
    server: UmpireServer = await make_server(timing=PATIENT)
    room_id, a, b = await two_seats(lambda n: connect(n, port=server.port))
    by_seat = {0: a, 1: b}
    # play until it is seat 0's turn right after seat 1 bid
    while True:
        seat = await bid_once(server, room_id, by_seat)
        if seat == 1:
            break
    await b.drain()
    seen = b.events(room_id)[-1]["seq"]
    token = b.token
    await b.close()
    await a.expect("room")  # bob shows as disconnected
    await bid_once(server, room_id, by_seat)  # ana bids while bob is away
    await bid_once_if_turn(server, room_id, 0, a)

    b2 = await connect(None, port=server.port)
    welcome = await b2.hello("bob again", token=token)
    assert welcome["player"]["id"] == b.player["id"]
    assert welcome["seats"] == [
        {
            "room": room_id,
            "game": "perudo",
            "seat": 1,
            "state": "playing",
            "seq": welcome["seats"][0]["seq"],
        }
    ]
    resumed = await b2.request("resume", "resumed", room=room_id, since=seen)
    room = server.lobby.rooms[room_id]
    assert resumed["seq"] == room.last_seq > seen
    await b2.drain()
    missed = b2.events(room_id)
    assert [f["seq"] for f in missed] == list(range(seen + 1, room.last_seq + 1))
    for frame in missed:
        assert frame.get("event") == room.log[frame["seq"] - 1].view(1)
    # and play goes on to the end from the new connection
    by_seat[1] = b2
    while room.state == "playing":
        await bid_or_dudo(server, room_id, by_seat)
    assert room.state == "finished"


async def bid_once_if_turn(server: UmpireServer, room_id: str, seat: int, c: WsClient) -> None:
    game = server.lobby.rooms[room_id].game
    if game is not None and game.to_move == seat:
        await bid_once(server, room_id, {seat: c})


async def bid_or_dudo(server: UmpireServer, room_id: str, by_seat: dict[int, WsClient]) -> None:
    game = server.lobby.rooms[room_id].game
    assert game is not None and game.to_move is not None
    seat = game.to_move
    legal = [str(a) for a in game.legal_actions(seat)]
    action = "dudo" if "dudo" in legal else legal[0]
    await by_seat[seat].send(type="act", room=room_id, action=action)
    await by_seat[seat].expect("ack")
