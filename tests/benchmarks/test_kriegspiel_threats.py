"""The threat model's calibration benchmark: how it reads a continuation and counts."""

from __future__ import annotations

import chess

from benchmarks.kriegspiel_conversion import Position
from benchmarks.kriegspiel_threats import Piece, _pieces, table


def _game(*moves: str) -> chess.Board:
    board = chess.Board()
    for move in moves:
        board.push_san(move)
    return board


def test_each_piece_is_classed_by_what_the_enemy_heard_and_checked_against_the_reply() -> None:
    start = ("e4", "e5", "Nf3", "Nc6")
    board = _game(*start, "Nxe5", "Nxe5", "d4", "Ng6", "Bd3", "Nh4")
    reached = _game(*start)
    position = Position(0, 0, reached.ply(), reached.fen(), ((), ()), "win: checkmate")
    seen = {
        # our third placement: Nf3xe5 (announced, taken back by the knight), the e4 pawn
        # stayed
        3: ("f3e5", {chess.E5: (0.25, 0.0, 0.25), chess.E4: (0.5, 0.5, 0.0)}),
        # d2-d4 (silent, not taken)
        4: ("d2d4", {chess.D4: (0.125, 0.125, 0.0), chess.E4: (0.5, 0.5, 0.0)}),
        # a record that is not the move the game has (the umpire refused it): skipped
        5: ("f1c4", {chess.C4: (0.75, 0.0, 0.75)}),
    }
    pieces = list(_pieces(board, position, seen))
    assert pieces == [
        Piece(0.25, 2, True, 0.0, 0.25, False),
        Piece(0.5, 0, False, 0.5, 0.0, False),
        Piece(0.125, 1, False, 0.125, 0.0, False),
        Piece(0.5, 0, False, 0.5, 0.0, False),
    ]
    # A pawn's take is told apart.
    board = _game(*start, "Bc4", "d5", "Bb3", "dxe4", "Bxf7+")
    seen = {
        3: ("f1c4", {chess.C4: (0.5, 0.25, 0.25), chess.E4: (0.5, 0.5, 0.0)}),
        4: ("c4b3", {chess.B3: (0.1, 0.0, 0.1), chess.E4: (0.5, 0.5, 0.0)}),
        5: ("b3f7", {chess.F7: (0.9, 0.0, 0.9)}),  # (the last move: no reply to check)
    }
    pieces = list(_pieces(board, position, seen))
    assert len(pieces) == 4
    assert pieces[3] == Piece(0.5, 0, True, 0.5, 0.0, True)


def test_the_table_sums_the_chances_against_the_takes() -> None:
    pieces = [
        Piece(0.25, 0, False, 0.25, 0.0),
        Piece(0.25, 0, True, 0.0, 0.25, False),
        Piece(0.5, 2, True, 0.25, 0.25, True),
    ]
    lines = table(pieces)
    assert "| all | 3 | 1.0 | 2 | 2.00 |" in lines
    assert "| stayed | 2 | 0.5 | 1 | 2.00 |" in lines
    assert "| took | 1 | 0.5 | 1 | 2.00 |" in lines
    assert not any(line.startswith("| moved silently") for line in lines)
    stayed = lines.index("| stayed | 2 | 0.5 | 1 | 2.00 |")
    # by a pawn: 0.25 expected, none taken; by a piece: 0.25 expected, one taken
    assert "| ... by a pawn | 2 | 0.2 | 0 | 0.00 |" in lines[stayed:]
    assert "| ... by a piece | 2 | 0.2 | 1 | 4.00 |" in lines[stayed:]
