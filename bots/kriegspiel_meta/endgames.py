"""The hidden king's region: where the enemy king may go next, and what that is worth.

The source's endgames (KR vs K, KQ vs K, KBB vs K, KP vs K) are won by shrinking the region
where the lone king may stand until a check leaves it no flight. :func:`king_outcomes`
splits the king's set after one of our moves into the squares where it would be mated,
stalemated, checked or left alone, and widens each by the king's reply;
:func:`region_value` scores a region: small, near the edge, close to our king. With other
enemy units on the board the same functions only widen (no mate or stalemate is claimed).
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

__all__ = [
    "CENTRE",
    "KingOutcomes",
    "has_mating_material",
    "king_outcomes",
    "region_value",
]

#: How far each square is from the nearest edge (0 on the rim, 3 in the centre).
CENTRE = tuple(
    min(chess.square_file(s), 7 - chess.square_file(s), chess.square_rank(s), 7 - chess.square_rank(s))
    for s in chess.SQUARES
)


@dataclass(frozen=True, slots=True)
class KingOutcomes:
    """What our move does to the enemy king's set, by the umpire's answer.

    ``mated`` and ``stalemated`` are squares where the king would have no move (checked or
    not); ``checked``/``quiet`` the other squares where it would (not) be in check; the
    ``after_*`` regions are where it may stand after its reply in each case.
    """

    mated: int
    stalemated: int
    checked: int
    quiet: int
    after_checked: int
    after_quiet: int


def king_outcomes(king_set: int, possible: int, certain: int, lone: bool) -> KingOutcomes:
    """Split ``king_set`` by our attacks after a move.

    ``possible``/``certain`` are the squares our pieces may/surely attack. With a ``lone``
    king there are no enemy blockers, so the two are equal and the king must move: its
    flights are its neighbours we do not attack (a piece of ours it may take counts as a
    flight unless defended, which ``possible`` already covers).
    """
    checked = king_set & possible
    quiet = king_set & ~certain
    if not lone:
        widen_checked = _spread(checked) & ~certain
        widen_quiet = (_spread(quiet) & ~certain) | quiet
        return KingOutcomes(0, 0, checked, quiet, widen_checked, widen_quiet)
    mated = stalemated = 0
    after_checked = after_quiet = 0
    for square in chess.SquareSet(checked):
        flights = chess.BB_KING_ATTACKS[square] & ~possible
        if flights:
            after_checked |= flights
        else:
            mated |= chess.BB_SQUARES[square]
    for square in chess.SquareSet(quiet):
        flights = chess.BB_KING_ATTACKS[square] & ~possible
        if flights:
            after_quiet |= flights
        else:
            stalemated |= chess.BB_SQUARES[square]
    return KingOutcomes(
        mated, stalemated, checked & ~mated, quiet & ~stalemated, after_checked, after_quiet
    )


def _spread(squares: int) -> int:
    result = 0
    for square in chess.SquareSet(squares):
        result |= chess.BB_KING_ATTACKS[square]
    return result


def region_value(region: int, our_king: chess.Square | None, weight: float) -> float:
    """The worth of the enemy king being confined to ``region`` (higher is better).

    Smaller regions, regions near the edge and regions our king stands close to score
    higher; ``weight`` (per square) sets how much this matters against material.
    """
    size = region.bit_count()
    if size == 0:
        return 0.0
    centre = 0
    distance = 0
    for square in chess.SquareSet(region):
        centre += CENTRE[square]
        if our_king is not None:
            distance += chess.square_distance(our_king, square)
    return -weight * (size + 1.5 * centre / size + 1.0 * distance / size)


def has_mating_material(board: chess.Board, color: chess.Color) -> bool:
    """Whether ``color``'s pieces could ever mate a lone king (a pawn, rook or queen,
    or two minor pieces)."""
    mine = board.occupied_co[color] & ~board.kings
    if mine & (board.pawns | board.rooks | board.queens):
        return True
    return mine.bit_count() >= 2 and bool(mine & board.bishops)
