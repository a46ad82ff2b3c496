"""What our pieces are worth keeping (``bots.kriegspiel.meta.material``): the last piece
that mates, the last queen or rook, and the risk to them next to a possible enemy unit."""

from __future__ import annotations

import chess

from bots.kriegspiel.meta import Metaposition
from bots.kriegspiel.meta.evaluate import densities, piece_threat
from bots.kriegspiel.meta.material import LAST_MAJOR, LAST_MATING, keep_value


def _keep(fen: str, square: str) -> float:
    board = chess.Board(fen)
    return keep_value(board, chess.parse_square(square), chess.WHITE)


def test_the_last_piece_that_mates_is_worth_the_game() -> None:
    assert _keep("8/8/8/8/8/8/8/K3Q2k w - - 0 1", "e1") == LAST_MATING  # KQ vs K
    assert _keep("8/8/8/8/8/8/8/K2NR2k w - - 0 1", "e1") == LAST_MATING  # R+N: N alone
    assert _keep("8/8/8/8/8/8/8/K2BB2k w - - 0 1", "d1") == LAST_MATING  # B+B: B alone
    assert _keep("8/8/8/8/8/8/7P/K3Q2k w - - 0 1", "h2") == 0.0  # the queen mates


def test_the_last_queen_or_rook_is_worth_more_than_its_material() -> None:
    # Game 166 (seed 9): Q+P against one unit; the pawn took the queen, K+P vs K drew.
    assert _keep("8/8/8/8/8/8/7P/K3Q2k w - - 0 1", "e1") == LAST_MAJOR
    assert _keep("8/8/8/8/8/8/8/K2RQ2k w - - 0 1", "e1") == 0.0  # a rook left
    assert _keep("8/8/8/8/8/8/8/K1NBR2k w - - 0 1", "e1") == LAST_MAJOR  # B+N left
    assert _keep("8/8/8/8/8/8/8/K2NQ2k w - - 0 1", "a1") == 0.0  # the king
    assert _keep("8/8/8/8/8/8/8/K2NQ2k w - - 0 1", "b1") == 0.0  # no piece
    assert _keep("8/8/8/8/8/8/8/K2NQ1rk w - - 0 1", "g1") == 0.0  # not ours


def test_a_piece_that_keeps_the_win_is_feared_for_more() -> None:
    # Game 292 (seed 9), ply 314: R+N against one unit, a rook somewhere; d3d6 put our
    # rook on its rank, weighed at 90 (the rook's 500 at 18%), and it was taken.
    meta = Metaposition.from_start(chess.WHITE, "wild16", "2k5/8/6r1/2K5/8/3R4/5N2/8 w - - 0 1")
    board = meta.own.copy(stack=False)
    board.push(chess.Move.from_uci("d3d6"))
    density = densities(meta)
    rook = piece_threat(meta, board, chess.D6, 0, density, gamma=0.3)
    knight = piece_threat(meta, board, chess.F2, 0, density, gamma=0.3)
    # The rook's loss leaves the knight alone: its value and the game's, by the chance.
    chance = rook / (500 + LAST_MATING)
    assert 0.05 < chance < 0.3
    assert rook > 200  # the rook alone, 500 at this chance: 32
    # The knight's loss leaves the rook: the knight's material only.
    assert knight < 300 * 0.3
