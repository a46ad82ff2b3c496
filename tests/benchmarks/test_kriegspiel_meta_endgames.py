"""The endgame benchmark's names and starts (``benchmarks.kriegspiel_meta``): against a
lone king as before, and against a king that keeps a unit or more."""

from __future__ import annotations

import chess
import pytest

from benchmarks.kriegspiel_meta import endgame
from tests.bots.kriegspiel_meta_harness import random_start


def test_an_endgame_names_our_pieces_and_the_defenders() -> None:
    assert endgame("KQ") == ([chess.QUEEN], [])
    assert endgame("KQ-N") == ([chess.QUEEN], [chess.KNIGHT])
    assert endgame("KBN-PP") == ([chess.BISHOP, chess.KNIGHT], [chess.PAWN, chess.PAWN])


@pytest.mark.parametrize("name", ["KX", "KQ-X", "KQ-n", "", "-N"])
def test_an_unknown_endgame_is_refused_by_name(name: str) -> None:
    with pytest.raises(ValueError, match="unknown endgame"):
        endgame(name)


def test_the_starts_against_a_lone_king_are_unchanged() -> None:
    # KR vs K starts 61 and 107 as docs/kriegspiel_meta.md describes them (drawn before
    # the defender could keep units): Kh8, Rd4, the king on h3; Kh4, Rf8, the king on g7.
    assert random_start([chess.ROOK], 61).split()[0] == "7K/8/8/8/3R4/7k/8/8"
    assert random_start([chess.ROOK], 107).split()[0] == "5R2/6k1/8/8/7K/8/8/8"


@pytest.mark.parametrize("seed", range(20))
def test_a_start_with_the_defenders_units_is_legal_and_open(seed: int) -> None:
    board = chess.Board(random_start([chess.QUEEN], seed, [chess.KNIGHT, chess.PAWN]))
    assert board.is_valid()
    assert not board.is_game_over()
    assert board.turn == chess.WHITE
    assert len(board.pieces(chess.QUEEN, chess.WHITE)) == 1
    assert len(board.pieces(chess.KNIGHT, chess.BLACK)) == 1
    assert len(board.pieces(chess.PAWN, chess.BLACK)) == 1
    assert not board.pawns & (chess.BB_RANK_1 | chess.BB_RANK_8)
    assert chess.popcount(board.occupied) == 5
