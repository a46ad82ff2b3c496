"""Whether an attempt may be legal, and how likely the umpire is to refuse it.

An illegal attempt costs no move but wastes time and, under most rule sets, tells the
opponent something. What the umpire already said often shows an attempt illegal before
it is made:

- while we are in check (its directions announced), a move of any piece but the king is
  legal only if it takes the checker or steps between it and our king: its target must
  lie in the *check zone* (where the checker may stand) or between it and our king; in a
  double check only the king may move;
- "no pawn tries" (a count of 0, "any?" answered no) means no pawn capture is legal;
- a pawn steps only onto an empty square (a square where a step was refused before,
  ``Metaposition.blockers``, probably still holds its blocker: :data:`BLOCKER_STAYS`).

:func:`could_be_legal` applies the certain rules; :func:`illegal_chance` estimates the
chance of a refusal for the rest (a piece on the path, a pawn capture onto an empty
square, with the announced number of pawn tries shared among the candidate captures).
"""

from __future__ import annotations

import chess

from bots.kriegspiel_meta.geometry import check_direction
from bots.kriegspiel_meta.metaposition import Metaposition

__all__ = ["BLOCKER_STAYS", "block_squares", "capture_chance", "could_be_legal", "illegal_chance"]

#: The chance that a unit which refused one of our pawns a step still stands there after
#: the enemy's moves (a blocking pawn cannot step forward; a piece may have left).
BLOCKER_STAYS = 0.7


def block_squares(meta: Metaposition) -> int:
    """Where a piece other than our king must land to answer the check on us: every
    square on the announced line from our king up to our own nearest piece (the
    checker and the squares between it and our king lie there), the knight's squares for
    a knight's check; every square when we are not in check, none in a double check."""
    if not meta.checks_on_us:
        return chess.BB_ALL
    if len(meta.checks_on_us) > 1:
        return 0
    king = meta.own.king(meta.color)
    if king is None:
        return chess.BB_ALL
    direction = meta.checks_on_us[0]
    if direction == "knight":
        return chess.BB_KNIGHT_ATTACKS[king]
    own = meta.own.occupied_co[meta.color]
    rays = (
        chess.BB_RANK_ATTACKS[king][chess.BB_RANK_MASKS[king] & own]
        | chess.BB_FILE_ATTACKS[king][chess.BB_FILE_MASKS[king] & own]
        | chess.BB_DIAG_ATTACKS[king][chess.BB_DIAG_MASKS[king] & own]
    ) & ~own
    squares = 0
    for square in chess.SquareSet(rays):
        if check_direction(king, square, False) == direction:
            squares |= chess.BB_SQUARES[square]
    return squares


def could_be_legal(
    meta: Metaposition, move: chess.Move, kind: chess.PieceType, diagonal_pawn: bool
) -> bool:
    """``False`` when what the umpire said shows ``move`` (our piece of ``kind``) illegal
    in every position the metaposition allows (see the module)."""
    if diagonal_pawn and meta.tries == 0:
        return False
    if kind == chess.KING or not meta.checks_on_us:
        return True
    target = chess.BB_SQUARES[move.to_square]
    if diagonal_pawn and target & meta.their_ep:
        return True  # an en passant capture may take a checking pawn from behind it
    return bool(target & block_squares(meta))


def capture_chance(
    meta: Metaposition, target: chess.Square, offered: list[chess.Move] | None = None
) -> float:
    """The chance that our pawn capture onto ``target`` is legal: the square's occupancy
    or, when the number of our legal pawn captures was announced, that number shared by
    occupancy among the candidate captures still ``offered`` this turn (a refused one is
    no longer offered, and was not one of them)."""
    maybe = meta.maybe_units() | meta.their_ep

    def weight(square: chess.Square) -> float:
        bit = chess.BB_SQUARES[square]
        if bit & meta.maybe_units():
            return meta.occupancy(square)
        return 0.5 if bit & meta.their_ep else 0.0

    chance = weight(target)
    if not chess.BB_SQUARES[target] & maybe:
        return 0.0
    if not meta.tries:
        return chance
    own = meta.own
    if offered is None:
        pairs = {
            (pawn, square)
            for pawn in chess.SquareSet(own.pawns & own.occupied_co[meta.color])
            for square in chess.SquareSet(chess.BB_PAWN_ATTACKS[meta.color][pawn] & maybe)
        }
    else:
        pairs = {
            (move.from_square, move.to_square)
            for move in offered
            if own.piece_type_at(move.from_square) == chess.PAWN
            and chess.square_file(move.from_square) != chess.square_file(move.to_square)
            and chess.BB_SQUARES[move.to_square] & maybe
        }
    total = sum(weight(square) for _, square in pairs)
    if total <= 0.0:
        return chance
    return min(1.0, meta.tries * chance / total)


def illegal_chance(
    meta: Metaposition, move: chess.Move, offered: list[chess.Move] | None = None
) -> float:
    """A rough chance that the umpire refuses ``move`` (0 for moves only a hidden
    king's position could refuse, 1 when :func:`could_be_legal` says it cannot be);
    ``offered``: the attempts still open this turn (see :func:`capture_chance`)."""
    own = meta.own
    kind = own.piece_type_at(move.from_square)
    if kind is None:
        return 1.0
    diagonal_pawn = kind == chess.PAWN and chess.square_file(move.from_square) != chess.square_file(
        move.to_square
    )
    if not could_be_legal(meta, move, kind, diagonal_pawn):
        return 1.0
    if diagonal_pawn:
        return 1.0 - capture_chance(meta, move.to_square, offered)
    free = 1.0
    path = chess.between(move.from_square, move.to_square)
    if kind == chess.PAWN:
        path |= chess.BB_SQUARES[move.to_square]
    for square in chess.SquareSet(path):
        occupied = meta.occupancy(square)
        if chess.BB_SQUARES[square] & meta.blockers:
            occupied = max(occupied, BLOCKER_STAYS)
        free *= 1.0 - occupied
    return 1.0 - free
