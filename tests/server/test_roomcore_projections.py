"""What each connection of a room is sent, on the room core (fake clock, no sockets): every
seat its own projections, in order and without gaps; a spectator the public ones; nothing
that names a hidden die or an unseen square."""

from __future__ import annotations

import hashlib
import random
import re

import chess

from server.roomcore import messages as m
from tests.games.kriegspiel_leakcheck import squares_named
from tests.server.leaks import hidden_dice_leaks
from tests.server.roomcore_harness import (
    ANA,
    BOB,
    CID,
    WES,
    Conn,
    Harness,
    play,
    play_to_the_end,
    seated,
)


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
            allowed |= {event["move"][:2], event["move"][2:4]}
        leaked = squares_named(event) - allowed
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

    if not play(h, list(seats), attempt, step=0.1, moves=400):
        h.request(m.Act(h.mover(*seats), action="resign"))
    assert h.core.state == "finished"
    for seat, conn in enumerate(seats):
        assert_own_stream(h, conn, seat)
        assert check_frames(h, conn, seat) > 10
    assert_own_stream(h, spectator, None)
    assert all("move" not in f["event"] for f in spectator.events())
