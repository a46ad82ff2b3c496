"""Issue 29: plain ``show`` for Kriegspiel lists the pieces (a screen reader reads a list,
not a 64-cell grid)."""

from __future__ import annotations

import chess

from client_cli.games.kriegspiel.text import kriegspiel_lines, model_of, piece_lines
from client_cli.state import RoomState


def a_room() -> RoomState:
    room = RoomState(room="r1", game="kriegspiel")
    board = model_of(room)
    board.color = "white"
    board.board = chess.BaseBoard("4k3/8/8/8/8/8/PP6/R3K2R")
    board.mark("e8", "k")
    return room


def test_the_pieces_are_a_list() -> None:
    assert piece_lines(model_of(a_room())) == [
        "Your pieces: king e1; rooks a1, h1; pawns a2, b2",
        "Markers: e8=k",
    ]


def test_show_has_no_grid() -> None:
    lines = kriegspiel_lines(a_room())
    assert "Your pieces: king e1; rooks a1, h1; pawns a2, b2" in lines
    assert not any(line.startswith("  8 ") or line.strip().startswith("a  b") for line in lines)
