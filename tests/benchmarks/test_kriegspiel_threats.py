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
        # our third placement: Nf3xe5 (announced, recaptured), the e4 pawn stayed
        3: ("f3e5", {chess.E5: 0.25, chess.E4: 0.5}),
        # d2-d4 (silent, not taken)
        4: ("d2d4", {chess.D4: 0.125, chess.E4: 0.5}),
        # a record that is not the move the game has (the umpire refused it): skipped
        5: ("f1c4", {chess.C4: 0.75}),
    }
    pieces = list(_pieces(board, position, seen))
    assert pieces == [
        Piece(0.25, 2, True),
        Piece(0.5, 0, False),
        Piece(0.125, 1, False),
        Piece(0.5, 0, False),
    ]


def test_the_table_sums_the_chances_against_the_takes() -> None:
    pieces = [Piece(0.25, 0, False), Piece(0.25, 0, True), Piece(0.5, 2, True)]
    lines = table(pieces)
    assert "| all | 3 | 1.0 | 2 | 2.00 |" in lines
    assert "| stayed | 2 | 0.5 | 1 | 2.00 |" in lines
    assert "| took | 1 | 0.5 | 1 | 2.00 |" in lines
    assert not any(line.startswith("| moved silently") for line in lines)
