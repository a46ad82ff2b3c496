"""Reconnecting with a token, resuming from a sequence number, the autopilot and timers."""

from __future__ import annotations

import asyncio
from typing import Any

from server.net.app import UmpireServer
from server.rooms.room import Timing
from tests.server.scripted import play_seat
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


async def test_a_token_reclaims_the_seat_from_a_second_connection(
    make_server: Any, connect: Any
) -> None:
    server: UmpireServer = await make_server(timing=PATIENT)
    room_id, a, b = await two_seats(lambda n: connect(n, port=server.port))
    twin = await connect(None, port=server.port)
    await twin.hello("ana", token=a.token)
    joined = await twin.request("join", "joined", room=room_id)
    assert joined["seat"] == 0
    snapshot = await twin.expect("snapshot")
    assert snapshot["seat"] == 0 and len(snapshot["view"]["dice"]) == 5
    # both of ana's connections get seat 0's projections; either may act
    room = server.lobby.rooms[room_id]
    await bid_once(server, room_id, {0: twin, 1: b})
    await a.drain()
    await twin.drain()
    assert a.events(room_id)[-1] == twin.events(room_id)[-1]
    assert room.last_seq == twin.events(room_id)[-1]["seq"]


async def test_resume_rejects_a_future_sequence_number(server: UmpireServer, connect: Any) -> None:
    room_id, a, _ = await two_seats(connect)
    await a.send(type="resume", room=room_id, since=10_000)
    error = await a.error("bad_seq")
    assert error["room"] == room_id


async def test_autopilot_plays_for_a_player_gone_past_the_grace_period(
    make_server: Any, connect: Any
) -> None:
    server: UmpireServer = await make_server(timing=Timing(grace=0.2, autopilot_delay=0.0))
    room_id, a, b = await two_seats(lambda n: connect(n, port=server.port))
    token = b.token
    await b.close()
    # ana plays on alone: bob's seat is played by the autopilot
    result = await play_seat(a, room_id, 0)
    assert result["type"] == "game_over"
    room = server.lobby.rooms[room_id]
    assert any(seat == 1 for seat, _ in room.game.history)
    frames = [f for f in a.frames if f["type"] == "room"]
    assert any(f["seats"][1]["autopilot"] for f in frames)
    # bob comes back to a finished game and sees it all
    b2 = await connect(None, port=server.port)
    await b2.hello("bob", token=token)
    await b2.request("resume", "resumed", room=room_id, since=0)
    await b2.drain()
    assert len(b2.events(room_id)) == room.last_seq


async def test_turn_time_lets_the_autopilot_move_then_the_player_returns(
    make_server: Any, connect: Any
) -> None:
    server: UmpireServer = await make_server(timing=PATIENT)
    room_id, a, _ = await two_seats(lambda n: connect(n, port=server.port), turn_time=0.2)
    room = server.lobby.rooms[room_id]
    clock = await a.expect("clock")
    assert clock["turn_time"] == 0.2
    first = room.game.to_move
    # nobody moves: the autopilot bids for the seat to move, and ana hears of it
    async with asyncio.timeout(20):
        while not room.game.history:
            await a.next()
    assert room.game.history and room.game.history[0].seat == first
    assert not room.seats[first].autopilot  # a timeout moves once; the seat is not "away"


async def test_house_bots_play_a_whole_game_for_spectators(
    server: UmpireServer, connect: Any
) -> None:
    host = await connect("host")
    created = await host.request(
        "create_room", "created", game="perudo", options={"seats": 3}, sit=False
    )
    room_id = created["room"]
    assert created["seat"] is None
    for _ in range(3):
        await host.request("add_bot", "bot_added", room=room_id)
    watcher = await connect("watcher")
    await watcher.request("watch", "watching", room=room_id)
    for _ in range(200):
        if server.lobby.rooms[room_id].state == "finished":
            break
        await asyncio.sleep(0.02)
    room = server.lobby.rooms[room_id]
    assert room.state == "finished"
    await watcher.drain()
    assert watcher.frames[-1]["type"] in ("room", "event", "clock")
    finished = [f for f in watcher.frames if f["type"] == "room"][-1]
    assert finished["state"] == "finished" and all(s["house"] for s in finished["seats"])


async def test_host_starts_early_with_the_seats_taken(server: UmpireServer, connect: Any) -> None:
    a = await connect("ana")
    b = await connect("bob")
    room_id = (await a.request("create_room", "created", game="perudo", options={"seats": 4}))[
        "room"
    ]
    await b.request("join", "joined", room=room_id)
    await b.send(type="start", room=room_id)
    await b.error("not_host")
    started = await a.request("start", "started", room=room_id)
    assert started["seq"] >= 2
    room = server.lobby.rooms[room_id]
    assert room.config.seats == 2 and len(room.seats) == 2
    await asyncio.gather(play_seat(a, room_id, 0), play_seat(b, room_id, 1))
