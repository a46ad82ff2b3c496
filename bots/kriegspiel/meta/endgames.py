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
    "box",
    "has_mating_material",
    "king_outcomes",
    "king_spread",
    "only_king_moves",
    "region_value",
]

#: How far each square is from the nearest edge (0 on the rim, 3 in the centre).
CENTRE = tuple(
    min(
        chess.square_file(s),
        7 - chess.square_file(s),
        chess.square_rank(s),
        7 - chess.square_rank(s),
    )
    for s in chess.SQUARES
)

#: Weights of the box's room, of our king's mean distance to the region and of our king
#: standing nearer the edge than the region (per square of region size); see
#: :func:`region_value`.
BOX_WEIGHT = 2.0
KING_WEIGHT = 1.0
SIDE_WEIGHT = 2.0

_DISTANCE = tuple(tuple(chess.square_distance(a, b) for b in chess.SQUARES) for a in chess.SQUARES)
_NOWHERE = (0,) * 64


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


def king_outcomes(
    king_set: int, possible: int, certain: int, lone: bool, crowded: int = 0
) -> KingOutcomes:
    """Split ``king_set`` by our attacks after a move.

    ``possible``/``certain`` are the squares our pieces may/surely attack. A square where
    the king is (surely not) attacked and has no flight, i.e. no neighbour we may not
    attack, is a mate (stalemate) square; a piece of ours it may take counts as a flight
    unless defended, which ``possible`` already covers. For stalemate, squares where its
    own units may stand (``crowded``) are not counted as flights: better to fear a
    stalemate that is not than to miss one. When the king is ``lone`` (it must move) its
    region after the reply is its flights; otherwise it may also stay.
    """
    checked = king_set & possible
    quiet = king_set & ~certain
    mated = stalemated = 0
    after_checked = after_quiet = 0
    for square in chess.SquareSet(checked):
        flights = chess.BB_KING_ATTACKS[square] & ~possible
        if flights:
            after_checked |= chess.BB_KING_ATTACKS[square] & ~certain
        else:
            mated |= chess.BB_SQUARES[square]
    for square in chess.SquareSet(quiet):
        flights = chess.BB_KING_ATTACKS[square] & ~possible
        if flights:
            after_quiet |= chess.BB_KING_ATTACKS[square] & ~certain
        if not flights & ~crowded:
            stalemated |= chess.BB_SQUARES[square]
    if not lone:
        after_checked |= mated
        after_quiet |= quiet
    return KingOutcomes(
        mated, stalemated, checked & ~mated, quiet & ~stalemated, after_checked, after_quiet
    )


def _spread(squares: int) -> int:
    result = 0
    for square in chess.SquareSet(squares):
        result |= chess.BB_KING_ATTACKS[square]
    return result


def king_spread(squares: int) -> int:
    """``squares`` and every square a king step away from one of them."""
    row = squares | ((squares >> 1) & ~chess.BB_FILE_H) | ((squares << 1) & ~chess.BB_FILE_A)
    return (row | (row << 8) | (row >> 8)) & chess.BB_ALL


def box(region: int, attacked: int) -> int:
    """Every square the king could reach from ``region`` by steps through squares we do
    not attack, if our pieces stood still: the room our pieces leave it."""
    current = region
    while True:
        grown = (king_spread(current) & ~attacked) | current
        if grown == current:
            return current
        current = grown


def region_value(
    region: int, our_king: chess.Square | None, weight: float, attacked: int | None = None
) -> float:
    """The worth of the enemy king being confined to ``region`` (higher is better).

    Smaller regions, regions near the edge and regions our king stands close to score
    higher; ``weight`` (per square) sets how much this matters against material. With
    ``attacked`` (our attacks, for a lone king), the room of its :func:`box` counts too,
    the steadier measure: the source's rule of shrinking the king's region.
    """
    size = region.bit_count()
    if size == 0 or weight == 0.0:
        return 0.0
    centre = 0
    distance = 0
    near = _DISTANCE[our_king] if our_king is not None else _NOWHERE
    for square in chess.SquareSet(region):
        centre += CENTRE[square]
        distance += near[square]
    value = -weight * (size + 1.5 * centre / size + KING_WEIGHT * distance / size)
    if our_king is not None:
        # Our king drives from the centre side: nearer the edge than the king it hunts,
        # it stands in the box and pushes nothing.
        value -= weight * SIDE_WEIGHT * max(0.0, centre / size - CENTRE[our_king] + 1.0)
    if attacked is not None:
        room = box(region, attacked)
        value -= weight * BOX_WEIGHT * room.bit_count()
    return value


def only_king_moves(
    board: chess.Board,
    color: chess.Color,
    may: list[int],
    pieces_max: int,
    units: int,
) -> bool:
    """Whether the enemy (not ``color``) surely has no legal move but king moves, with our
    pieces as on ``board``: it has no pieces, and every pawn it may have is blocked by
    one of ours and has none of ours to take. Then the king must move, so it can be
    mated or stalemated."""
    if units == 0:
        return True
    if pieces_max > 0:
        return False
    enemy = not color
    ours = board.occupied_co[color]
    for square in chess.SquareSet(may[chess.PAWN]):
        ahead = square + 8 if enemy == chess.WHITE else square - 8
        if not 0 <= ahead < 64 or not chess.BB_SQUARES[ahead] & ours:
            return False
        if chess.BB_PAWN_ATTACKS[enemy][square] & ours & ~board.kings:
            return False
    return True


def has_mating_material(board: chess.Board, color: chess.Color) -> bool:
    """Whether ``color``'s pieces could ever mate a lone king (a pawn, rook or queen,
    or two minor pieces)."""
    mine = board.occupied_co[color] & ~board.kings
    if mine & (board.pawns | board.rooks | board.queens):
        return True
    return mine.bit_count() >= 2 and bool(mine & board.bishops)
