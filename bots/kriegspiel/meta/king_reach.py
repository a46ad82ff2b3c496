"""What the hidden king may take next move, weighed by where it may stand, once we are far ahead.

:func:`~bots.kriegspiel.meta.evaluate.king_threat` counts, while the enemy has more
than ``FEW_UNITS`` units, the whole value of every undefended piece of ours next to
*any* square of the king's region: the worst case. In a middlegame the region covers
most of the enemy's half, so every step into it costs the piece's whole value however
unlikely the king is there, and the search that scores every attempt keeps its pieces
at home. Meta at 1,000 nodes against meta at 20 (seed 9, wild16) reached won
positions (five points ahead for twenty moves) and did not mate in them: game 27 with
three queens, a bishop, a knight and two pawns against a bishop, two knights and three
pawns shuffled its queens along the h-file for 200 plies (the king's region 40 squares
or more), and drew by the fifty-move rule (``docs/kriegspiel_meta.md``, *the king's
worst case* and *won positions against a real opponent*).

:func:`reach_threat` weighs the loss by ``KING_FEAR`` times the share of the region
next to the exposed pieces (at most the whole loss), as ``king_threat`` already does
with few units left, but only while we are far ahead (``AHEAD`` of material over what
the enemy is expected to hold): then a piece lost now and then costs less than a won
game drawn.
Ungated (branch ``s6-vsmeta``) the same weighing cost the ladder and wins against
random play: in an even middlegame the worst case is the right caution.
"""

from __future__ import annotations

import chess

from bots.kriegspiel.meta.endgames import king_spread
from bots.kriegspiel.meta.evaluate import king_threat, material
from bots.kriegspiel.meta.geometry import PIECE_KINDS, VALUES
from bots.kriegspiel.meta.metaposition import Metaposition

__all__ = ["AHEAD", "KING_FEAR", "enemy_expected", "far_enough", "reach_threat"]

#: How many times over the share of the king's region next to a piece its loss is feared.
KING_FEAR = 2.0
#: How far ahead (centipawns: our material over what the presence map expects the
#: enemy's units to hold, :func:`enemy_expected`) the share replaces the worst case.
AHEAD = 900


def enemy_expected(meta: Metaposition) -> float:
    """The material the presence map expects the enemy's units to hold (each kind's
    mass times its value); without a map, the most the bounds allow. Not
    ``Metaposition.enemy_material``, which counts every unit that may be a pawn as one
    and any other as 400: too low for a gate (it opened with three queens and two
    rooks against a queen, two rooks and four minor pieces). Not the bounds either:
    once a pawn may have promoted unseen every unit may be a queen, and the gate never
    opened (game 27 of the vs-20 run: 3,520 centipawns against at most 5,000; the map
    expected 1,600 to 1,900, the real board held 1,220)."""
    presence = meta.presence
    if presence is not None:
        return sum(presence.mass[kind] * VALUES[kind] for kind in PIECE_KINDS[:-1])
    left = meta.units
    pieces = meta.pieces_max
    total = 0
    for kind in (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT):
        take = min(meta.count_max(kind), left, pieces)
        total += take * VALUES[kind]
        left -= take
        pieces -= take
    return float(total + left * VALUES[chess.PAWN])


def far_enough(meta: Metaposition, board: chess.Board) -> bool:
    """Whether we (on ``board``) are AHEAD of the material the enemy is expected to hold."""
    return material(board, meta.color) >= enemy_expected(meta) + AHEAD


def reach_threat(
    meta: Metaposition, board: chess.Board, king_set: int, defended: int, few: int
) -> float:
    """:func:`king_threat`; with more than ``few`` enemy units and far ahead
    (:func:`far_enough`), its worst case times KING_FEAR times the share of
    ``king_set`` next to our undefended pieces, at most the whole loss."""
    loss = king_threat(meta, board, king_set, defended, few)
    if loss <= 0.0 or meta.units <= few or not far_enough(meta, board):
        return loss
    exposed = king_spread(king_set) & board.occupied_co[meta.color] & ~board.kings & ~defended
    near = king_set & king_spread(exposed)
    share = near.bit_count() / max(1, king_set.bit_count())
    return loss * min(1.0, KING_FEAR * share)
