"""Distance to mate in ordinary chess for king and rook against king, by retrograde analysis.

Against a hidden king, the worst case over the squares where it may stand of the chess
distance to mate is a sharp measure of progress once the region is small: it knows the
whole chess technique (the box, the opposition, the rook's tempo moves) that a shallow
search with hand-made terms does not. The table is built once per process (about two
seconds), breadth first from the mates backwards:

- a position with Black to move is lost when every king move of Black leads to a won
  position for White; Black taking an undefended rook is a draw and never counts;
- a position with White to move is won as soon as one move leads to a lost one.

:func:`rook_mate_distance` answers in moves (White to move), or ``None`` for a draw
(the rook lost, stalemate) or an illegal position. Colours do not matter: the stronger
side is called White here and boards are symmetric.
"""

from __future__ import annotations

from array import array
from collections import deque
from functools import cache

import chess

__all__ = ["rook_mate_distance", "table"]

_UNKNOWN = 255
_KING = chess.BB_KING_ATTACKS
_SQUARES = chess.BB_SQUARES


def _rook(square: int, occupied: int) -> int:
    return (
        chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
        | chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied]
    )


def _index(wk: int, wr: int, bk: int) -> int:
    return (wk << 12) | (wr << 6) | bk


def _white_attacks(wk: int, wr: int) -> int:
    """White's attacks with the black king off the board (rays pass its square)."""
    return _KING[wk] | _rook(wr, _SQUARES[wk] | _SQUARES[wr])


@cache
def table() -> tuple[array[int], array[int]]:
    """Plies to mate with White to move and with Black to move, per (wk, wr, bk)."""
    white = array("B", [_UNKNOWN]) * (1 << 18)
    black = array("B", [_UNKNOWN]) * (1 << 18)
    escapes = array("B", [0]) * (1 << 18)
    queue: _Queue = deque()
    for wk in range(64):
        for wr in range(64):
            if wr == wk:
                continue
            attacked = _white_attacks(wk, wr)
            taken = _SQUARES[wk] | _SQUARES[wr]
            for bk in range(64):
                if _SQUARES[bk] & taken or _KING[wk] & _SQUARES[bk]:
                    continue
                moves = _KING[bk] & ~attacked & ~_SQUARES[wk]
                count = moves.bit_count()
                index = _index(wk, wr, bk)
                escapes[index] = count
                if count == 0 and attacked & _SQUARES[bk]:
                    black[index] = 0
                    queue.append((wk, wr, bk, False))
    while queue:
        wk, wr, bk, white_to_move = queue.popleft()
        if not white_to_move:
            # Black (to move) is lost: every white move into this position wins.
            plies = black[_index(wk, wr, bk)] + 1
            occupied = _SQUARES[wk] | _SQUARES[wr] | _SQUARES[bk]
            for before in chess.SquareSet(_KING[wk] & ~occupied & ~_KING[bk]):
                _won(white, queue, before, wr, bk, plies)
            for before in chess.SquareSet(_rook(wr, occupied) & ~occupied):
                _won(white, queue, wk, before, bk, plies)
        else:
            # White (to move) wins: a black king step into this position is one lost move.
            plies = white[_index(wk, wr, bk)] + 1
            taken = _SQUARES[wk] | _SQUARES[wr]
            for before in chess.SquareSet(_KING[bk] & ~taken & ~_KING[wk]):
                index = _index(wk, wr, before)
                if black[index] != _UNKNOWN:
                    continue
                escapes[index] -= 1
                if escapes[index] == 0:
                    black[index] = plies
                    queue.append((wk, wr, before, False))
    return white, black


_Queue = deque[tuple[int, int, int, bool]]


def _won(white: array[int], queue: _Queue, wk: int, wr: int, bk: int, plies: int) -> None:
    index = _index(wk, wr, bk)
    if white[index] != _UNKNOWN:
        return
    if _white_attacks(wk, wr) & _SQUARES[bk]:
        return  # Black in check with White to move: not a position
    white[index] = plies
    queue.append((wk, wr, bk, True))


def rook_mate_distance(king: chess.Square, rook: chess.Square, enemy: chess.Square) -> int | None:
    """Moves to mate with the stronger side to move and perfect play, or ``None``."""
    plies = table()[0][_index(king, rook, enemy)]
    return None if plies == _UNKNOWN else (plies + 1) // 2
