"""Bitboard geometry for the metaposition, built on python-chess's attack tables.

Nothing here generates moves for our own pieces (python-chess does that); these helpers
say where an enemy piece of a given kind could go, or what a piece attacks through a given
set of blockers, which is all the metaposition needs.
"""

from __future__ import annotations

import chess

from server.games.kriegspiel_rules import check_direction

__all__ = [
    "PIECE_KINDS",
    "SLIDERS",
    "VALUES",
    "attacks",
    "check_direction",
    "first_rank",
    "forward",
    "last_rank",
    "pawn_pushes",
    "popcount",
    "start_rank",
]

#: The enemy piece kinds the metaposition tracks, in python-chess order.
PIECE_KINDS = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING)

#: The kinds whose attacks stop at the first square occupied along a line.
SLIDERS = (chess.BISHOP, chess.ROOK, chess.QUEEN)

#: Material values in centipawns (the king counts nothing: it is never captured).
VALUES = {
    chess.PAWN: 100,
    chess.KNIGHT: 300,
    chess.BISHOP: 320,
    chess.ROOK: 500,
    chess.QUEEN: 900,
    chess.KING: 0,
}


def popcount(mask: int) -> int:
    """The number of squares in a bitboard."""
    return mask.bit_count()


def attacks(kind: chess.PieceType, color: chess.Color, square: chess.Square, occupied: int) -> int:
    """The squares a ``color`` piece of ``kind`` on ``square`` attacks through ``occupied``.

    Sliding rays stop at (and include) the first square of ``occupied``. A pawn attacks
    its two forward diagonals. The tables are python-chess's.
    """
    if kind == chess.PAWN:
        return chess.BB_PAWN_ATTACKS[color][square]
    if kind == chess.KNIGHT:
        return chess.BB_KNIGHT_ATTACKS[square]
    if kind == chess.KING:
        return chess.BB_KING_ATTACKS[square]
    result = 0
    if kind in (chess.BISHOP, chess.QUEEN):
        result |= chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied]
    if kind in (chess.ROOK, chess.QUEEN):
        result |= chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
        result |= chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied]
    return result


def first_rank(color: chess.Color) -> int:
    """The back rank of ``color``."""
    return chess.BB_RANK_1 if color == chess.WHITE else chess.BB_RANK_8


def last_rank(color: chess.Color) -> int:
    """The rank where ``color``'s pawns promote."""
    return chess.BB_RANK_8 if color == chess.WHITE else chess.BB_RANK_1


def start_rank(color: chess.Color) -> int:
    """The rank ``color``'s pawns start on (and may step two squares from)."""
    return chess.BB_RANK_2 if color == chess.WHITE else chess.BB_RANK_7


def forward(mask: int, color: chess.Color) -> int:
    """``mask`` shifted one rank toward ``color``'s promotion rank."""
    return (mask << 8) & chess.BB_ALL if color == chess.WHITE else mask >> 8


def uncapturing(squares: int, board: chess.Board, color: chess.Color) -> int:
    """Those of ``squares`` from which an enemy pawn (of ``color``'s opponent) has none
    of ``color``'s units on ``board`` to take but its king: with one of ours in front of
    it, such a pawn has no move at all."""
    ours = board.occupied_co[color] & ~board.kings
    enemy = not color
    found = 0
    for square in chess.SquareSet(squares):
        if not chess.BB_PAWN_ATTACKS[enemy][square] & ours:
            found |= chess.BB_SQUARES[square]
    return found


def pawn_pushes(pawns: int, color: chess.Color, blockers: int) -> int:
    """The squares ``color``'s pawns on ``pawns`` may step to, one or two squares, when
    only ``blockers`` may stand in their way."""
    single = forward(pawns, color) & ~blockers
    double = forward(forward(pawns & start_rank(color), color) & ~blockers, color) & ~blockers
    return single | double
