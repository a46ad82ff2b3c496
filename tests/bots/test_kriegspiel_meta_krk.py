"""The KR vs K distance-to-mate table, checked move by move with python-chess's rules."""

from __future__ import annotations

import random

import chess

from bots.kriegspiel_meta.krk import rook_mate_distance, table


def _board(wk: int, wr: int, bk: int, turn: chess.Color) -> chess.Board:
    board = chess.Board(None)
    board.set_piece_at(wk, chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(wr, chess.Piece(chess.ROOK, chess.WHITE))
    board.set_piece_at(bk, chess.Piece(chess.KING, chess.BLACK))
    board.turn = turn
    return board


def _after_black(board: chess.Board) -> int | None:
    """Black's best defence (python-chess's legal moves): the longest distance to mate
    of White's positions after it, or None when Black draws (takes the rook, stalemate)."""
    if board.is_stalemate():
        return None
    longest = 0
    for reply in board.legal_moves:
        if board.is_capture(reply):
            return None
        board.push(reply)
        wk, bk = board.king(chess.WHITE), board.king(chess.BLACK)
        rook = next(iter(board.pieces(chess.ROOK, chess.WHITE)))
        assert wk is not None and bk is not None
        moves = rook_mate_distance(wk, rook, bk)
        board.pop()
        if moves is None:
            return None
        longest = max(longest, moves)
    return longest


def test_the_longest_mate_is_sixteen_moves() -> None:
    white, _ = table()
    assert max(v for v in white if v != 255) == 31  # plies: 16 moves, as is well known
    e = chess.parse_square
    assert rook_mate_distance(e("g6"), e("a1"), e("h8")) == 1
    assert rook_mate_distance(e("e1"), e("a1"), e("e8")) is not None


def test_every_distance_is_the_best_play_of_both_sides() -> None:
    rng = random.Random(3)
    checked = 0
    while checked < 300:
        wk, wr, bk = rng.sample(range(64), 3)
        board = _board(wk, wr, bk, chess.WHITE)
        if not board.is_valid():
            continue
        distance = rook_mate_distance(wk, wr, bk)
        best: int | None = None
        for move in board.legal_moves:
            board.push(move)
            if board.is_checkmate():
                result: int | None = 1
            else:
                after = _after_black(board)
                result = None if after is None else after + 1
            board.pop()
            if result is not None and (best is None or result < best):
                best = result
        assert distance == best, f"{board.fen()}: table {distance}, by play {best}"
        checked += 1
