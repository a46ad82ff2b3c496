"""What each connection of a room is sent, on the room core (fake clock, no sockets): every
seat its own projections, in order and without gaps; a spectator the public ones; nothing
that names a hidden die or an unseen square."""

from __future__ import annotations

import hashlib
import random
import re
from typing import Any

import chess

from server.roomcore import messages as m
from tests.server.roomcore_harness import (
    ANA,
    BOB,
    CID,
    WES,
    Conn,
    Harness,
    Json,
    play_to_the_end,
    seated,
)

_SQUARE = re.compile(r"^[a-h][1-8]$")
_UCI = re.compile(r"^([a-h][1-8])([a-h][1-8])[qrbn]?$")


def hidden_dice_leaks(frame: Json, viewer: int | None) -> list[str]:
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


def assert_own_stream(h: Harness, conn: Conn, viewer: int | None) -> None:
    """``conn`` got each event of ``viewer``'s stream once, in order, as its projection."""
    log = h.core.streams.log
    stream = [i for i, event in enumerate(log) if event.view(viewer) is not None]
    events = conn.events()
    first = events[0]["seq"]
    assert [f["seq"] for f in events] == list(range(first, len(stream) + 1))
    for frame in events:
        assert frame["event"] == log[stream[frame["seq"] - 1]].view(viewer)


def test_a_perudo_game_gives_every_viewer_its_own_projections() -> None:
    h, seats = seated("perudo", (ANA, BOB, CID))
    game = h.core.game
    assert game is not None and game.to_move is not None
    h.request(m.Act(seats[game.to_move], action=h.legal(game.to_move)[0]))
    spectator = Conn(WES)  # comes after the start
    h.request(m.Watch(spectator))
    play_to_the_end(h, list(seats))
    assert h.core.state == "finished"
    for seat, conn in enumerate(seats):
        assert conn.events()[0]["seq"] == 1
        assert_own_stream(h, conn, seat)
        for frame in conn.frames:
            assert not hidden_dice_leaks(frame, seat), hidden_dice_leaks(frame, seat)
    # the spectator: a snapshot, then the rest
    snapshot = spectator.frames[1]
    assert snapshot["type"] == "snapshot" and snapshot["seat"] is None
    assert "dice" not in snapshot["view"] and snapshot["seq"] >= 2
    assert spectator.events()[0]["seq"] == snapshot["seq"] + 1
    assert_own_stream(h, spectator, None)
    for frame in spectator.frames:
        assert not hidden_dice_leaks(frame, None)
    # the seed is revealed at the end and matches the commitment published at the start
    final = seats[0].last("room")
    assert final["state"] == "finished" and final["seed"]
    opening = seats[0].events()[0]["event"]
    assert hashlib.sha256(bytes.fromhex(final["seed"])).hexdigest() == opening["seed_sha256"]
    # every seat heard the same end
    ends = [conn.events()[-1]["event"] for conn in seats]
    assert ends[0]["type"] == "game_over" and ends == [ends[0]] * 3


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


def check_frames(h: Harness, conn: Conn, seat: int) -> int:
    """Assert that no frame names an opponent square the seat could not know; return how
    many event frames were checked."""
    color = chess.WHITE if seat == 0 else chess.BLACK
    log = h.core.streams.log
    stream = [i for i, event in enumerate(log) if event.view(seat) is not None]
    boards = [chess.Board()]
    for event in log:
        board = boards[-1].copy()
        if event.truth["type"] == "move":
            board.push(chess.Move.from_uci(event.truth["move"]))
        boards.append(board)
    checked = 0
    for frame in conn.frames:
        if frame["type"] == "snapshot":
            placement = chess.Board(frame["view"]["board"] + " w - - 0 1")
            assert not placement.occupied_co[not color], frame
        if frame["type"] != "event" or frame["event"]["type"] == "game_over":
            continue
        event = frame["event"]
        index = stream[frame["seq"] - 1]
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


def test_a_random_kriegspiel_game_names_no_unknown_square() -> None:
    h, seats = seated("kriegspiel")
    spectator = Conn(WES)
    h.request(m.Watch(spectator))
    rng = random.Random(4)

    def attempt(legal: list[str]) -> str:
        return rng.choice([a for a in legal if re.match(r"^[a-h]\d", a)])

    for _ in range(400):
        game = h.core.game
        assert game is not None
        if h.core.state != "playing":
            break
        seat = game.to_move
        assert seat is not None
        h.request(m.Act(seats[seat], action=attempt(h.legal(seat))), at=h.now + 0.1)
    else:
        h.request(m.Act(h.mover(*seats), action="resign"))
    assert h.core.state == "finished"
    for seat, conn in enumerate(seats):
        assert_own_stream(h, conn, seat)
        assert check_frames(h, conn, seat) > 10
    assert_own_stream(h, spectator, None)
    assert all("move" not in f["event"] for f in spectator.events())
