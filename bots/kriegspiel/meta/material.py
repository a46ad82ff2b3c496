"""What our pieces are worth keeping: the loss, beyond a piece's material, of the win that
goes with it.

A queen is worth 900 in the middlegame; the last queen or rook, or the last piece that
could mate at all, is worth the game. Replays of the draws by insufficient material of
seed 9 (wild16, nodes=1000, ``docs/kriegspiel_meta.md``: games 49, 53, 163, 166, 292)
found meta far ahead (15 to 35 points) and then its last mating pieces taken one by one by
a hidden unit it weighed at the piece's material only: the queen of game 53 stepped to
a5, where the search itself gave a lone unknown unit a 20% chance of taking it (a loss of
180, less than the king hunt it hoped for), and the bishop on b6 took it: a draw. The
value of keeping a piece rises as our material falls: :func:`keep_value`.

The chance that a unit stands where it attacks a piece was read from the sets' density
alone, blind to where the presence map holds the units: in game 166 the queen stepped to
b5 next to the pawn on a4 that the map held with 0.87 (it had refused our a-pawn a step),
a chance the density put at 0.13; the pawn took it, and K+P vs K drew. The expected units
on the attacking squares: :func:`attackers_expected`.
"""

from __future__ import annotations

import chess

from bots.kriegspiel.meta.legality import BLOCKER_STAYS
from bots.kriegspiel.meta.metaposition import Metaposition
from bots.kriegspiel.meta.presence import KINDS

__all__ = ["LAST_MAJOR", "LAST_MATING", "attackers_expected", "keep_value"]

#: Losing the last piece that could mate (what is left cannot mate a lone king): a draw.
LAST_MATING = 3_000.0
#: Losing our last queen or rook, pawns or minor pieces left: a hidden king is seldom mated
#: with them in time (a pawn must still promote past it, two minor pieces mate a hidden
#: king within the 50-move rule in about half the games: KBB vs K 44.5%).
LAST_MAJOR = 1_500.0


def keep_value(board: chess.Board, square: chess.Square, color: chess.Color) -> float:
    """What losing ``color``'s piece on ``square`` of ``board`` costs beyond its material:
    :data:`LAST_MATING` if what is left cannot mate, :data:`LAST_MAJOR` if it is the last
    queen or rook, else 0 (the king and empty squares: 0)."""
    kind = board.piece_type_at(square)
    if kind is None or kind == chess.KING or board.color_at(square) != color:
        return 0.0
    mine = board.occupied_co[color] & ~board.kings
    if _mates(board, mine) and not _mates(board, mine & ~chess.BB_SQUARES[square]):
        return LAST_MATING
    majors = mine & (board.queens | board.rooks)
    if kind in (chess.QUEEN, chess.ROOK) and majors.bit_count() == 1:
        return LAST_MAJOR
    return 0.0


def _mates(board: chess.Board, mine: int) -> bool:
    """:func:`~bots.kriegspiel.meta.endgames.has_mating_material` of the pieces ``mine``
    of ``board`` (without copying the board: this runs for every piece at risk)."""
    if mine & (board.pawns | board.rooks | board.queens):
        return True
    return mine.bit_count() >= 2 and bool(mine & board.bishops)


def attackers_expected(meta: Metaposition, kind: chess.PieceType, squares: int) -> float:
    """The expected enemy units of ``kind`` on ``squares`` (of its set) by the presence
    map: each square's weight, a square where a unit is known or refused one of our pawns
    a step at least ``BLOCKER_STAYS`` as far as the kind holds the weight there (0
    without a map)."""
    presence = meta.presence
    if presence is None or presence.mass[kind] <= 0.0:
        return 0.0
    weights = presence.weights
    row = weights[kind]
    located = meta.known | meta.blockers
    total = 0.0
    while squares:  # lowest square first, as chess.SquareSet iterates (the same sum)
        low = squares & -squares
        squares ^= low
        square = low.bit_length() - 1
        weight = row[square]
        if located & low:
            held = sum(weights[other][square] for other in KINDS)
            if held > 0.0:
                weight = max(weight, BLOCKER_STAYS * weight / held)
        total += weight
    return total
