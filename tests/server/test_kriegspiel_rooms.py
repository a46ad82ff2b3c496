"""Kriegspiel rooms over real sockets: projections, clocks, flags, abandonment, restart."""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import chess

from server.net.app import UmpireServer
from server.rooms.room import Timing
from tests.server.wsclient import WsClient

_SQUARE = re.compile(r"^[a-h][1-8]$")
_UCI = re.compile(r"^([a-h][1-8])([a-h][1-8])[qrbn]?$")


def named_squares(node: Any) -> set[str]:
    """Every square a projection names in its text values (FEN boards excluded)."""
    out: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key != "board":
                out |= named_squares(value)
    elif isinstance(node, list):
        for value in node:
            out |= named_squares(value)
    elif isinstance(node, str):
        if _SQUARE.match(node):
            out.add(node)
        elif match := _UCI.match(node):
            out |= {match.group(1), match.group(2)}
    return out


def own_squares(board: chess.Board, color: chess.Color) -> set[str]:
    return {chess.square_name(sq) for sq in chess.SquareSet(board.occupied_co[color])}


def check_frames(
    frames: list[dict[str, Any]], truths: list[dict[str, Any]], seat: int, stream: list[int]
) -> int:
    """Assert no frame names an opponent square the seat could not know; return frames seen.

    ``stream`` maps the seat's sequence numbers (1, 2, ...) to indices in the room's log."""
    color = chess.WHITE if seat == 0 else chess.BLACK
    boards = [chess.Board()]
    for truth in truths:
        board = boards[-1].copy()
        if truth["type"] == "move":
            board.push(chess.Move.from_uci(truth["move"]))
        boards.append(board)
    checked = 0
    for frame in frames:
        if frame["type"] == "snapshot":
            placement = chess.Board(frame["view"]["board"] + " w - - 0 1")
            assert not placement.occupied_co[not color], frame
        if frame["type"] != "event" or "event" not in frame:
            continue
        event = frame["event"]
        index = stream[frame["seq"] - 1]
        if event["type"] == "game_over":
            continue
        allowed = own_squares(boards[index], color) | own_squares(boards[index + 1], color)
        if event.get("capture"):
            allowed.add(event["capture"])
        if "move" in event:  # only the mover hears its own attempt
            assert event["color"] == ("white" if seat == 0 else "black"), event
            allowed |= named_squares(event["move"])
        leaked = named_squares(event) - allowed
        assert not leaked, (seat, index, event, leaked)
        checked += 1
    return checked


async def k_room(connect: Any, **create: Any) -> tuple[str, WsClient, WsClient]:
    white = await connect("white")
    black = await connect("black")
    room = (await white.request("create_room", "created", game="kriegspiel", options={}, **create))[
        "room"
    ]
    await black.request("join", "joined", room=room)
    return room, white, black


async def test_random_game_no_frame_names_an_unknown_square(
    server: UmpireServer, connect: Any
) -> None:
    room_id, white, black = await k_room(connect)
    spectator = await connect("wes")
    await spectator.request("watch", "watching", room=room_id)
    room = server.lobby.rooms[room_id]
    rng = random.Random(4)
    clients = [white, black]
    for _ in range(400):
        game = room.game
        assert game is not None
        if game.is_over:
            break
        seat = game.to_move
        assert seat is not None
        attempts = [str(a) for a in game.legal_actions(seat) if re.match(r"^[a-h]\d", str(a))]
        await clients[seat].send(type="act", room=room_id, action=rng.choice(attempts))
        await clients[seat].expect("ack")
    else:
        seat = room.game.to_move
        await clients[seat].send(type="act", room=room_id, action="resign")
        await clients[seat].expect("ack")
    await asyncio.sleep(0.05)
    truths = [e.truth for e in room.log]
    for seat, client in enumerate(clients):
        await client.drain()
        events = client.events(room_id)
        stream = [i for i, e in enumerate(room.log) if e.view(seat) is not None]
        assert [f["seq"] for f in events] == list(range(1, len(stream) + 1))
        for frame in events:
            assert frame["event"] == room.log[stream[frame["seq"] - 1]].view(seat)
        assert check_frames(client.frames, truths, seat, stream) > 10
    await spectator.drain()
    public = [i for i, e in enumerate(room.log) if e.view(None) is not None]
    for frame in spectator.events(room_id):
        assert frame["event"] == room.log[public[frame["seq"] - 1]].view(None)
        assert "move" not in frame["event"], frame
    assert room.state == "finished"


async def test_flag_loses_on_time(make_server: Any, connect: Any) -> None:
    server = await make_server(timing=Timing(grace=30, autopilot_delay=0))
    room_id, white, _ = await k_room(
        lambda n: connect(n, port=server.port), clock={"base": 0.3, "increment": 0.1}
    )
    clock = await white.expect("clock")
    assert clock["remaining"] == [0.3, 0.3] or clock["remaining"][0] <= 0.3
    await white.send(type="act", room=room_id, action="e2e4")
    await white.expect("ack")
    room = server.lobby.rooms[room_id]
    # black never moves and flags
    over = await white.expect("event", timeout=3, room=room_id)
    while over["event"]["type"] != "game_over":
        over = await white.expect("event", timeout=3, room=room_id)
    assert over["event"]["reason"] == "timeout" and over["event"]["winner"] == "white"
    assert room.state == "finished"
    actions = await server.store.actions(room_id)
    assert actions[-1].action == "forfeit:timeout" and actions[-1].seat == 1
    assert actions[0].clocks is not None and actions[0].clocks[0] > 0.3  # increment added


async def test_abandonment_loses(make_server: Any, connect: Any) -> None:
    server = await make_server(timing=Timing(grace=0.2, autopilot_delay=0))
    room_id, white, black = await k_room(lambda n: connect(n, port=server.port))
    await black.close()
    over = await white.expect("event", timeout=3, room=room_id)
    while over["event"]["type"] != "game_over":
        over = await white.expect("event", timeout=3, room=room_id)
    assert over["event"]["reason"] == "abandoned" and over["event"]["winner"] == "white"


async def test_restart_restores_the_game_and_its_clocks(make_server: Any, db_path: str) -> None:
    first: UmpireServer = await make_server(timing=Timing(grace=30, autopilot_delay=0))
    white = await WsClient.open(first.port)
    black = await WsClient.open(first.port)
    await white.hello("white")
    await black.hello("black")
    room_id = (
        await white.request(
            "create_room",
            "created",
            game="kriegspiel",
            options={"rules": "cincinnati"},
            clock={"base": 60, "increment": 1},
        )
    )["room"]
    await black.request("join", "joined", room=room_id)
    for client, move in ((white, "e2e4"), (black, "e7e5"), (white, "g1f3")):
        await client.send(type="act", room=room_id, action=move)
        await client.expect("ack")
    clocks = first.lobby.rooms[room_id].clocks_left() or []
    seen = first.lobby.rooms[room_id].last_seq
    await first.close()
    await white.closed()
    await black.closed()

    second: UmpireServer = await make_server(timing=Timing(grace=30, autopilot_delay=0), db=db_path)
    room = second.lobby.rooms[room_id]
    assert room.state == "playing" and room.last_seq == seen
    left = room.clocks_left()
    assert left is not None and abs(left[0] - clocks[0]) < 0.01
    black2 = await WsClient.open(second.port)
    await black2.hello("black", token=black.token)
    await black2.request("resume", "resumed", room=room_id, since=0)
    await black2.send(type="act", room=room_id, action="b8c6")
    ack = await black2.expect("ack")
    assert ack["first"] == seen + 1
    await black2.close()


async def test_wild16_illegal_attempts_leave_no_trace_for_the_opponent(
    server: UmpireServer, connect: Any
) -> None:
    """Under wild16 the opponent hears nothing of an illegal attempt: no event, no
    placeholder, no skipped sequence number, no clock frame; the mover gets a new turn."""
    room_id, white, black = await k_room(connect, clock={"base": 600, "increment": 0})
    for client, action in ((white, "e2e4"), (black, "e7e5")):
        await client.send(type="act", room=room_id, action=action)
        await client.expect("ack")
    await asyncio.sleep(0.1)
    await black.drain()
    before = len(black.frames)
    black_seq = black.events(room_id)[-1]["seq"]
    await white.send(type="act", room=room_id, action="e4f5")  # no piece on f5: illegal
    await white.expect("ack")
    turn = await white.expect("turn")
    assert "e4f5" not in turn["legal"] and turn["seat"] == 0
    await asyncio.sleep(0.2)
    await black.drain()
    assert black.frames[before:] == []  # nothing at all reached black
    await white.send(type="act", room=room_id, action="d2d4")
    await white.expect("ack")
    await asyncio.sleep(0.1)
    await black.drain()
    events = black.events(room_id)
    assert events[-1]["seq"] == black_seq + 2  # the move and black's pawn tries, no gap
    assert events[-2]["event"]["type"] == "move"
    assert any(f["type"] == "turn" and f["seat"] == 1 for f in black.frames[before:])
    room = server.lobby.rooms[room_id]
    assert room.last_seq > room.viewer_seq(1)  # the room logged an event black never saw
